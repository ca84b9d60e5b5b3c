"""What a screen reader reads with each field (issue 14, item 4): every ``aria-describedby``
points at an element of the page, help lines included; a field refused is marked invalid
and read with its error."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.rooms.helpers import best, url
from tournaments.models import Event, Round, Slip

pytestmark = pytest.mark.django_db


def _unlinked(page: str) -> list[str]:
    """The ids named by aria-describedby (or aria-labelledby) that no element of the page has."""
    ids = set(re.findall(r'\bid="([^"]+)"', page))
    named = re.findall(r'aria-(?:describedby|labelledby)="([^"]*)"', page)
    return [name for names in named for name in names.split() if name not in ids]


def test_every_description_a_field_points_at_is_on_the_page(
    client: Client, console: Client, event: Event, players
) -> None:
    pages = {
        "home": client.get("/"),
        "login": client.get("/accounts/login/"),
        "join": client.get("/j/"),
        "new event": console.get("/console/new/"),
        "settings": console.get(url(event, "settings/")),
        "round": console.get(url(event)),
        "players": console.get(url(event, "players/")),
        "player": console.get(url(event, f"players/{players[0].pk}/")),
    }
    for name, response in pages.items():
        assert response.status_code == 200, name
        page = response.content.decode()
        assert not _unlinked(page), (name, _unlinked(page))
    settings = pages["settings"].content.decode()
    assert 'aria-describedby="id_round_seconds_helptext"' in settings
    assert 'id="id_round_seconds_helptext"' in settings


def test_a_refused_join_marks_its_fields_and_reads_their_error(client: Client, event: Event) -> None:
    page = client.post("/j/", {"code": "", "who": ""}).content.decode()
    assert not _unlinked(page)
    code = re.search(r'<input name="code"[^>]*>', page)
    assert code is not None and 'aria-invalid="true"' in code.group(0) and "id_code_error" in code.group(0)
    assert 'id="id_code_error"' in page


def test_a_refused_login_marks_both_fields_and_reads_why(client: Client, console: Client) -> None:
    page = client.post("/accounts/login/", {"username": "arbitre", "password": "wrong"}).content.decode()
    assert not _unlinked(page)
    assert 'id="login-error"' in page and 'role="alert"' in page
    for name in ("username", "password"):
        field = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
        assert field is not None and 'aria-invalid="true"' in field.group(0), name
        assert 'aria-describedby="login-error"' in field.group(0), name
    fresh = client.get("/accounts/login/").content.decode()
    assert "aria-invalid" not in fresh  # a new form is not marked


def test_premiums_and_the_last_move_are_told_in_letters_and_words(
    console: Client, event: Event, opened
) -> None:
    """Issue 14, item 2: colour alone told the premiums apart (double letter and a plain
    square 1.18:1 apart). An empty premium square shows its mark ("MT") and is read with its
    premium; a tile of the last move is read as such."""
    from tests.rooms.helpers import phone

    console.post(url(event, "close/"))
    console.post(url(event, "place/"))
    anne = phone(event, 1)
    page = anne.get(f"/p/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    corner = re.search(r'<td class="sq w3"[^>]*data-r="0" data-c="0"[^>]*>(.*?)</td>', page)
    assert corner is not None
    assert '<span class="pm" aria-hidden="true">MT</span>' in corner.group(1)
    assert "mot compte triple" in corner.group(1)
    plain = re.search(r'<td class="sq "[^>]*data-r="0" data-c="1"[^>]*>(.*?)</td>', page)
    assert plain is not None and "pm" not in plain.group(1)  # nothing to tell
    placed = re.findall(r'<td class="sq [^"]*tile[^"]* new[^"]*"[^>]*>(.*?)</td>', page)
    assert placed and all("dernier coup posé" in cell for cell in placed)
    assert all("compte" not in cell for cell in placed)  # a covered premium is spent
    Event.objects.filter(pk=event.pk).update(hall_language="en")  # the hall's own language
    english = console.get(f"/hall/{event.pk}/").content.decode()
    assert '<span class="pm" aria-hidden="true">TW</span>' in english and "triple word" in english
    assert "last move" in english


def _fragment(console: Client, event: Event, slip: dict[str, object]) -> str:
    response = console.post(url(event, "slip/"), slip, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


def test_a_paper_slip_stored_or_refused_is_said_in_the_region_that_stays(
    console: Client, event: Event, opened: Round
) -> None:
    """Issue 14, item 6: the confirmation box was replaced with the whole entry, so a screen
    reader heard nothing; a refusal went to the session, shown pages later. Now the form
    replaces itself and what happened is put inside the region under it, which stays."""
    coordinates, word = best(opened)
    stored = _fragment(console, event, {"table": 2, "coordinates": coordinates, "word": word})
    assert stored.startswith('<form id="slip-form"') and 'hx-target="this" hx-swap="outerHTML"' in stored
    region = re.search(r'<div id="preview" hx-swap-oob="innerHTML">(.*?)</div>', stored, re.S)
    assert (
        region is not None
        and "Table 2 (Bruno)" in region.group(1)
        and 'class="msg success stored"' in region.group(1)
    )
    assert re.search(r'<input name="table"[^>]*autofocus', stored)  # ready for the next slip

    refused = _fragment(console, event, {"table": 42, "coordinates": coordinates, "word": word})
    region = re.search(r'<div id="preview" hx-swap-oob="innerHTML">(.*?)</div>', refused, re.S)
    assert region is not None and "No player at table 42." in region.group(1)
    # Said there, so not again on the next page (it was, as a stale message).
    assert "No player at table 42." not in console.get(url(event)).content.decode()

    # The table typed again: the question gets the focus, the reason is said in the region.
    again = _fragment(console, event, {"table": 2, "coordinates": coordinates, "word": word})
    region = re.search(r'<div id="preview" hx-swap-oob="innerHTML">(.*?)</div>', again, re.S)
    assert region is not None and "table 2 already has a slip for this round" in region.group(1)
    assert re.search(r'<input type="radio" name="second"[^>]*autofocus', again)
    assert not re.search(r'<input name="table"[^>]*autofocus', again)
    assert Slip.objects.filter(player__table=2).count() == 1  # nothing stored while asked

    # The whole page, first loaded: the same region, empty.
    page = console.get(url(event)).content.decode()
    assert re.search(r'<div id="preview" aria-live="polite">\s*</div>', page)
