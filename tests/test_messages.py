"""Every rule message in the reader's language (docs/rules.md#messages): the solver's and
the adjudication's codes said in French on a French page, in English on an English page
and on the terminal; the domain's refusals that carry a solver error follow the language
of the person who asked.

The pages' side (the console's typed rack, the phone's ruling) is in
tests/rooms/test_languages.py."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from scoring.adjudication import verdicts
from solver import draw, lexicon, notation, rules, tiles
from solver.errors import IllegalRackError
from solver.messages import MESSAGES, phrase, render
from tournaments.core import ApplicationError
from tournaments.messages import say, say_error, say_notes
from tournaments.models import Event, Game, Lexicon, Player
from tournaments.services.events import event_create
from tournaments.services.games import game_start, round_draw
from tournaments.services.lexicons import lexicon_import
from tournaments.services.players import player_add
from tournaments.services.rounds import round_solve, top_choose

NBSP = "\u00a0"
#: Parameters as the template names them: %(name)s, %(name)d or %(name)r.
PARAMETER = re.compile(r"%\((\w+)\)[sdr]")
#: Words that are English only: none of them is a French word ("score", "second",
#: "direction", "centre", "minimums" are both, and are left out).
ENGLISH_ONLY = frozenset(
    (  # noqa: SIM905 - a sentence of words reads better than a column of strings
        "the is are not no there and of with word words board rack racks letter letters blank blanks"
        " square squares must cannot scores warning slip slips tile tiles bag left vowel vowels"
        " consonant consonants only round row column across down missing holds needs empty move"
        " lexicon third over first"
    ).split()
)


def _sample(template: str) -> dict[str, object]:
    """A value for each parameter: a number, which every language writes alike."""
    return dict.fromkeys(PARAMETER.findall(template), 7)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[^\W\d_]+", text.lower()))


def test_the_catalogue_holds_every_message_of_the_solver_and_the_rules() -> None:
    """tournaments.messages imports every module that registers codes, so that a code
    stored in a ruling's notes is found whichever process renders it."""
    catalogues = (
        verdicts.NOTES,
        draw.DRAW_MESSAGES,
        lexicon.LEXICON_MESSAGES,
        notation.NOTATION_MESSAGES,
        rules.RULE_MESSAGES,
        tiles.TILE_MESSAGES,
    )
    for catalogue in catalogues:
        assert catalogue.items() <= MESSAGES.items()


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_message_is_said_in_french_with_no_english_left(code: str) -> None:
    template = MESSAGES[code]
    params = _sample(template)
    english = template % params if params else template
    with translation.override("fr"):
        french = say(code, params)
    assert french != english, f"{code}: not translated"
    left = _words(french) & ENGLISH_ONLY
    assert not left, f"{code}: English left in {french!r}: {sorted(left)}"
    # French punctuation: a non-breaking space before : ; ? ! (none in the parameters here).
    assert not re.search(rf"[^{NBSP}][:;?!]", french.replace("'7'", "")), f"{code}: {french!r}"


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_message_is_said_in_english_on_english_pages_and_on_the_terminal(code: str) -> None:
    template = MESSAGES[code]
    params = _sample(template)
    english = template % params if params else template
    with translation.override("en"):
        assert say(code, params) == english
    assert render(code, params) == english


def test_a_phrase_is_said_in_the_language_of_its_sentence_even_stored_as_json() -> None:
    error = IllegalRackError(
        "needs_vowels_because",
        vowels=phrase("vowels_many", count=2),
        round=10,
        has=1,
        why=phrase("why_early_minimums", early=phrase("minimums_pair", vowels=2, consonants=2), late=3),
    )
    assert str(error).startswith("the rack needs at least 2 vowels in round 10 (it has 1): the bag and")
    stored = json.loads(json.dumps({"code": error.code, "params": dict(error.params)}))
    with translation.override("fr"):
        french = say_notes([stored])
        assert french == say_error(error)
    assert french.startswith(f"le tirage doit avoir au moins 2 voyelles au coup 10 (il en a 1){NBSP}: le sac")


def test_a_sentence_without_a_code_is_shown_as_it_is() -> None:
    with translation.override("fr"):
        assert say("round 3: the board differs") == "round 3: the board differs"


# --------------------------------------------------------------------------- the domain's refusals


@pytest.fixture
def players(event: Event) -> list[Player]:
    return [player_add(event=event, name=name) for name in ("Anne", "Bruno")]


@pytest.fixture
def game(event: Event, players: list[Player]) -> Game:
    return game_start(event=event)


@pytest.mark.django_db
def test_a_refused_typed_rack_is_said_in_the_language_of_who_typed_it(game: Game) -> None:
    with translation.override("fr"), pytest.raises(ApplicationError) as refused:
        round_draw(game=game, typed="QQAEIOU")
    assert refused.value.message == "il n’y a pas de deuxième Q dans le sac"
    with translation.override("fr"), pytest.raises(ApplicationError) as refused:
        round_draw(game=game, typed="BCDFGHJ")
    assert refused.value.message == "le tirage doit avoir au moins 2 voyelles au coup 1 (il en a 0)"
    with translation.override("en"), pytest.raises(ApplicationError) as refused:
        round_draw(game=game, typed="AEIRST")
    assert refused.value.message == "the rack must hold 7 tiles, not 6"


@pytest.mark.django_db
def test_an_illegal_top_is_refused_in_the_language_of_who_chose_it(game: Game) -> None:
    round = round_draw(game=game)
    assert round is not None
    round_solve(round_id=round.pk)
    round.refresh_from_db()
    with translation.override("fr"), pytest.raises(ApplicationError) as refused:
        top_choose(round=round, move_text="8H QQQQ")
    assert refused.value.message == "il n’y a pas de Q dans le tirage"
    with translation.override("fr"), pytest.raises(ApplicationError) as refused:
        top_choose(round=round, move_text="8H")
    assert refused.value.message == "mot manquant après 8H"


@pytest.mark.django_db
def test_a_word_list_that_is_not_text_is_refused_in_french() -> None:
    with translation.override("fr"), pytest.raises(ApplicationError) as refused:
        lexicon_import(name="binaire", language="fr", data=b"AA\x00\x01BB", source_name="liste.bin")
    assert refused.value.message.endswith("n’est pas une liste de mots en texte (contenu binaire)")


@pytest.mark.django_db
def test_minimums_that_do_not_fit_the_rack_are_refused_in_french(enable_lexicon: Lexicon) -> None:
    with translation.override("fr"), pytest.raises(ApplicationError) as refused:
        event_create(
            name="Club",
            starts_on=dt.date(2026, 11, 21),
            lexicon=enable_lexicon,
            early_vowels=4,
            early_consonants=4,
        )
    assert refused.value.message == (
        f"le tournoi ne peut pas être créé{NBSP}: les minimums du début de partie"
        " ne tiennent pas dans le tirage"
    )


@pytest.mark.django_db
def test_the_api_says_a_refused_typed_rack_in_the_language_asked(event: Event, game: Game) -> None:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("arbitre", password="x")
    Event.objects.filter(pk=event.pk).update(created_by=user)
    client = APIClient()
    client.force_authenticate(user)
    url = f"/api/events/{event.pk}/rounds/draw/"
    french = client.post(url, {"typed": "QQAEIOU"}, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert french.status_code == 400
    assert french.json()["error"]["message"] == "il n’y a pas de deuxième Q dans le sac"
    english = client.post(url, {"typed": "QQAEIOU"}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["error"]["message"] == "there is no second Q in the bag"
