"""The rule messages on the pages, in the page's language (docs/rules.md#messages): a
typed rack refused on the console, an illegal slip's ruling on the phone. The catalogue
itself, every code in both languages, is tested in tests/test_messages.py."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.rooms.helpers import phone, url
from tournaments.models import Event, Player, Round, Ruling
from tournaments.services.games import game_start

pytestmark = pytest.mark.django_db


def test_the_console_says_why_a_typed_rack_is_refused_in_the_page_language(
    console: Client, event: Event, players: list[Player]
) -> None:
    game_start(event=event)
    check = url(event, "draw/check/")
    french = console.get(check, {"typed": "QQAEIOU"}, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "il n’y a pas de deuxième Q dans le sac" in french and "second" not in french
    french = console.get(check, {"typed": "BCDFGHJ"}, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "le tirage doit avoir au moins 2 voyelles au coup 1 (il en a 0)" in french
    english = console.get(check, {"typed": "QQAEIOU"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "there is no second Q in the bag" in english


def test_a_rack_refused_on_the_draw_is_said_in_the_page_language(
    console: Client, event: Event, players: list[Player]
) -> None:
    game_start(event=event)
    response = console.post(url(event, "draw/"), {"typed": "AEIRST"}, HTTP_ACCEPT_LANGUAGE="fr", follow=True)
    assert "le tirage doit avoir 7 lettres, pas 6" in response.content.decode()


def test_the_phone_says_why_a_slip_is_illegal_in_the_page_language(
    console: Client, event: Event, opened: Round
) -> None:
    anne = phone(event, 1)
    anne.post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": "QQQQ", "announced_score": "40"})
    console.post(url(event, "close/"))
    console.post(url(event, "publish/"))
    ruling = Ruling.objects.get(player__table=1)
    assert ruling.notes and ruling.notes[0]["code"] == "no_letter_in_rack"
    french = anne.get(f"/p/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "il n’y a pas de Q dans le tirage" in french and "in the rack" not in french
    english = anne.get(f"/p/{event.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "there is no Q in the rack" in english


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_event_settings_speak_the_arbitrators_language_not_the_specs(
    console: Client, event: Event, language: str
) -> None:
    """Every label, help line and choice of the settings in words an arbitrator uses: no
    option of the Scramble help ("nostrict", "-nosmooth"), no "seed", no file of ours."""
    import html
    import re

    for path in ("/console/new/", f"/console/{event.pk}/settings/"):
        page = console.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        (settings,) = [f for f in page.split("<form")[1:] if 'name="random_seed"' in f]
        form = html.unescape(re.sub(r"<[^>]+>", " ", settings.split("</form>")[0]))
        for jargon in ("nostrict", "nosmooth", "seed", "graine", "docs/rules", ".md", "15x15", "21x21"):
            assert jargon not in form.lower(), (path, jargon)
        if language == "fr":
            assert "étendu 21×21, chevalets de 8" in form and "Numéro des tirages" in form
            assert "le moins de points de lettres d’abord" in form and "Anglais" in form
