"""The home page (rooms.views.home): how to start, the first arbitrator, the demo event."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_home_page_tells_a_newcomer_how_to_start(client: Client) -> None:
    text = client.get("/").content.decode()
    assert "createsuperuser" in text and "simulate_event" in text and "event_create" in text
    assert 'href="/admin/"' in text and 'href="/api/docs/"' in text


def test_the_home_page_names_the_four_boards(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    text = response.content.decode()
    for name in ("standard 15×15, racks of 7", "large 19×19, racks of 8", "broad 21×21", "grand 21×21"):
        assert name in text
    text = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    french = ("classique 15×15, chevalets de 7", "large 19×19, chevalets de 8", "étendu 21×21", "grand 21×21")
    for name in french:
        assert name in text


def test_the_first_arbitrator_account_is_made_from_the_laptop_only(client: Client) -> None:
    from django.contrib.auth import get_user_model

    page = client.get("/").content.decode()
    assert 'action="/first-arbitrator/"' in page
    data = {"username": "chef", "password1": "a-long-pass-phrase", "password2": "a-long-pass-phrase"}
    # From the hall's Wi-Fi: refused, nothing created.
    client.post("/first-arbitrator/", data, REMOTE_ADDR="192.168.1.20")
    assert not get_user_model().objects.exists()
    response = client.post("/first-arbitrator/", data)
    assert response.status_code == 302
    user = get_user_model().objects.get()
    assert user.username == "chef" and user.is_staff
    # Logged in from then on: the console opens, the home page offers the event to create.
    assert client.get("/console/").status_code == 200
    assert "/console/new/" in client.get("/").content.decode()
    # Only once.
    other = Client()
    assert 'action="/first-arbitrator/"' not in other.get("/").content.decode()
    other.post("/first-arbitrator/", {**data, "username": "intruder"})
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("abc", "too short"),
        ("password123", "too common"),
        ("48213397610", "entirely numeric"),
        ("chef-arbitre-2026", "too similar"),  # to the name
    ],
)
def test_the_first_arbitrator_account_needs_a_real_password(client: Client, password: str, why: str) -> None:
    """The laptop may serve a hall's open Wi-Fi: Django's password checks, said in the
    page's language."""
    from django.contrib.auth import get_user_model

    data = {"username": "chef-arbitre", "password1": password, "password2": password}
    page = client.post("/first-arbitrator/", data, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert why in page
    assert not get_user_model().objects.exists()
    french = client.post("/first-arbitrator/", data, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "mot de passe" in french.lower()


@pytest.mark.django_db
def test_the_demo_event_is_ready_to_play(client: Client) -> None:
    from django.contrib.auth import get_user_model

    from tournaments.models import Event, Round

    user = get_user_model().objects.create_user("chef", password="x", is_staff=True)
    assert client.post("/demo/").status_code == 302  # a login first
    assert not Event.objects.exists()
    client.force_login(user)
    response = client.post("/demo/")
    event = Event.objects.get()
    assert response["Location"] == f"/console/{event.pk}/"
    assert event.players.count() == 4 and event.notation == "fisf" and event.lexicon.bundled == "french"
    assert Round.objects.get(game__event=event).state == Round.State.DRAWN


def test_behind_a_proxy_the_callers_address_is_the_forwarded_one(settings) -> None:
    from django.test import RequestFactory

    from plumbing.middleware import client_address

    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR="6.6.6.6, 192.168.1.20")
    settings.ARBITER_TRUSTED_PROXIES = 0
    assert client_address(request) == "10.0.0.5"  # the header is anyone's to write
    settings.ARBITER_TRUSTED_PROXIES = 1
    assert client_address(request) == "192.168.1.20"  # what the one proxy saw
    settings.ARBITER_TRUSTED_PROXIES = 3
    assert client_address(request) == "10.0.0.5"  # fewer addresses than proxies: not trusted


@pytest.mark.parametrize(
    ("language", "guide"), [("en", "arbitrator-guide.en.md"), ("fr", "arbitrator-guide.fr.md")]
)
def test_the_home_page_sends_to_the_guides_section_on_the_terminal_in_its_language(
    client: Client, language: str, guide: str
) -> None:
    import html
    import re
    from pathlib import Path

    page = html.unescape(client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode())
    named = re.search(r"<code>(docs/[^<]+)</code>, section [“«]\s?([^”»]+?)\s?[”»]", page)
    assert named is not None, page
    path, section = named.groups()
    assert path == f"docs/{guide}"
    headings = (Path(__file__).resolve().parents[2] / path).read_text("utf-8").splitlines()
    assert f"## {section}" in headings
