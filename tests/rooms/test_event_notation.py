"""A FISF event's pages speak FISF (issue 11): the console (the paper slips' echo, Try
Move, the review, a ruling, the top's choice, the history), the phone and the projector
show every move and square in the event's notation, never in GCG, the notation moves are
stored in. Every move's two spellings differ (tests.tournaments.helpers.fisf): each test
checks that the FISF one is shown and the GCG one is not."""

from __future__ import annotations

import datetime as dt
import html

import pytest
from django.test import Client

from tests.rooms.helpers import last_round as _round
from tests.rooms.helpers import live_forget as _live_forget
from tests.rooms.helpers import messages as _messages
from tests.rooms.helpers import phone as _phone
from tests.rooms.helpers import url as _url
from tests.tournaments.helpers import fisf as _fisf
from tests.tournaments.helpers import letter_conflict
from tournaments.models import Event, HistoryEntry, Lexicon, Round, Ruling
from tournaments.services.events import event_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(enable_lexicon: Lexicon) -> Event:
    """The pages' event in FISF notation (tests/conftest.py's is in GCG). Seed 7: round 1
    has one top, stored as 8H PROOF and written H8 PROOF in FISF."""
    return event_create(
        name="Soirée FISF",
        starts_on=dt.date(2026, 11, 21),
        lexicon=enable_lexicon,
        language="english",
        notation="fisf",
        random_seed=7,
    )


def _shown(text: str, *stored: str) -> None:
    """Each stored move is in ``text`` in FISF, and nowhere in GCG."""
    for gcg in stored:
        assert _fisf(gcg) in text, (_fisf(gcg), gcg)
        assert gcg not in text, gcg


def _never(text: str, stored: set[str], where: str) -> None:
    """No stored move is in ``text`` in GCG."""
    found = sorted(gcg for gcg in stored if gcg in text)
    assert not found, f"{where}: {found} in GCG"


def _slip(round: Round, table: int = 1) -> dict[str, object]:
    """The paper slip of the round's first top, written in FISF."""
    coordinates, word = _fisf(round.tops[0]).split()
    return {"table": table, "coordinates": coordinates, "word": word, "announced_score": round.top_score}


def _close(console: Client, event: Event) -> Round:
    console.post(_url(event, "close/"))
    console.post(_url(event, "publish/"))  # reviewed: the phones and the projector show it
    _live_forget()
    round = _round(event)
    assert round.state == Round.State.ADJUDICATED
    return round


@pytest.fixture
def placed(console: Client, event: Event, opened: Round) -> Round:
    """Round 1 played through the console, H8 PROOF placed; round 2 drawn and open."""
    assert opened.tops == ["8H PROOF"]
    console.post(_url(event, "slip/"), _slip(opened))
    _close(console, event)
    console.post(_url(event, "place/"))
    console.post(_url(event, "open/"), {"seconds": 180})
    _live_forget()
    opened.refresh_from_db()
    assert opened.state == Round.State.PLACED and opened.chosen == "8H PROOF"
    return opened


def test_the_paper_slip_echo_and_try_move_name_the_move_in_fisf(
    console: Client, event: Event, placed: Round
) -> None:
    round = _round(event)
    slip = _slip(round, table=2)
    preview = console.get(_url(event, "preview/"), slip).content.decode()
    _shown(preview, round.tops[0])
    echo = console.post(_url(event, "slip/"), slip, HTTP_HX_REQUEST="true").content.decode()
    assert "Table 2 (Bruno)" in echo
    _shown(echo, round.tops[0])
    # Without htmx the echo is the page's message.
    response = console.post(_url(event, "slip/"), {**slip, "table": 3}, follow=True)
    (echoed,) = [m for m in _messages(response) if m.startswith("Table 3")]
    _shown(echoed, round.tops[0])


def test_the_history_shows_the_stored_moves_in_fisf(console: Client, event: Event, placed: Round) -> None:
    # The entries keep the moves as stored...
    stored = HistoryEntry.objects.get(event=event, entity="round", object_id=placed.pk, action="place")
    assert stored.new["chosen"] == "8H PROOF"
    ruling = Ruling.objects.get(round=placed, player__table=1)
    ruled = HistoryEntry.objects.get(entity="ruling", object_id=ruling.pk, action="rule")
    assert ruled.new["move"] == "8H PROOF"
    # ... and the page shows them in the event's notation: the placed top and the ruling.
    page = html.unescape(console.get(_url(event, "history/")).content.decode())
    _shown(page, "8H PROOF")
    # The top fixed at the publication, the placed top, the ruling.
    assert page.count("<dt>move</dt><dd><ins>H8 PROOF</ins></dd>") == 3
    _shown(console.get(_url(event, "history/"), {"entity": "round"}).content.decode(), "8H PROOF")


def test_the_review_and_a_ruling_name_the_moves_in_fisf(console: Client, event: Event, placed: Round) -> None:
    round = _round(event)
    console.post(_url(event, "slip/"), _slip(round, table=2))
    round = _close(console, event)
    review = console.get(_url(event), {"part": "review"}, HTTP_HX_REQUEST="true")
    for page in (console.get(_url(event)), review):
        _shown(page.content.decode(), round.tops[0])
    ruling = Ruling.objects.get(round=round, player__table=2)
    assert ruling.move == round.tops[0]
    _shown(console.get(_url(event, f"rulings/{ruling.pk}/")).content.decode(), ruling.move)


def test_the_top_choice_and_its_refusals_speak_fisf(console: Client, event: Event, placed: Round) -> None:
    round = _close(console, event)
    # A move through a letter of the board that is not that letter: the square in FISF.
    move, square, gcg_square = letter_conflict(placed.chosen)
    response = console.post(_url(event, "top/"), {"move": move}, follow=True)
    (refusal,) = [m for m in _messages(response) if "already holds" in m]
    assert f"{square} already holds" in refusal and gcg_square not in refusal, refusal
    # A lower move is named in FISF in the question and the warning.
    from tournaments.services.rounds import analysis_for

    lower = next(m for m in analysis_for(round).ranked if m.score < round.top_score)
    from solver.notation import format_move

    gcg = format_move(lower, "gcg")
    response = console.post(_url(event, "top/"), {"move": _fisf(gcg)}, follow=True)
    _shown(" ".join(_messages(response)), gcg)
    response = console.post(_url(event, "top/"), {"move": _fisf(gcg), "confirm_lower": "on"}, follow=True)
    _shown(" ".join(_messages(response)), gcg)
    round.refresh_from_db()
    assert round.chosen == gcg
    # The round page offers the equal tops and the move to place in FISF.
    _shown(console.get(_url(event)).content.decode(), round.tops[0], gcg)
    response = console.post(_url(event, "top/"), {"move": _fisf(round.tops[0])}, follow=True)
    _shown(" ".join(_messages(response)), round.tops[0])


def test_the_phone_shows_the_top_and_the_game_so_far_in_fisf(
    console: Client, event: Event, placed: Round
) -> None:
    anne = _phone(event, 1)
    _shown(anne.get(f"/p/{event.pk}/").content.decode(), placed.chosen)  # the game so far
    round = _close(console, event)
    page = anne.get(f"/p/{event.pk}/", {"part": "panel"}, HTTP_HX_REQUEST="true").content.decode()
    _shown(page, placed.chosen, round.tops[0])  # and the top of the round


def test_the_projector_shows_the_top_in_fisf(console: Client, event: Event, placed: Round) -> None:
    round = _close(console, event)
    _shown(console.get(f"/hall/{event.pk}/").content.decode(), round.tops[0])
    panel = console.get(f"/hall/{event.pk}/", {"part": "panel"}, HTTP_HX_REQUEST="true").content.decode()
    _shown(panel, round.tops[0])


def test_no_page_of_a_fisf_event_shows_a_move_in_gcg_through_played_rounds(
    console: Client, event: Event, opened: Round
) -> None:
    anne = _phone(event, 1)
    stored: set[str] = set()

    def every_page(step: str) -> None:
        _live_forget()
        round = _round(event)
        stored.update(round.tops, [round.chosen] if round.chosen else [])
        rulings = Ruling.objects.filter(round__game__event=event)
        stored.update(m for pair in rulings.values_list("move", "shift_candidate") for m in pair if m)
        pages = {
            "console": console.get(_url(event)),
            "history": console.get(_url(event, "history/")),
            "standings": console.get(_url(event, "standings/")),
            "phone": anne.get(f"/p/{event.pk}/"),
            "hall": console.get(f"/hall/{event.pk}/"),
        }
        for part in ("status", "watch", "review", "board"):
            pages[f"console {part}"] = console.get(_url(event), {"part": part}, HTTP_HX_REQUEST="true")
        pages["phone panel"] = anne.get(f"/p/{event.pk}/", {"part": "panel"}, HTTP_HX_REQUEST="true")
        pages["hall panel"] = console.get(f"/hall/{event.pk}/", {"part": "panel"}, HTTP_HX_REQUEST="true")
        for ruling in rulings:
            pages[f"ruling {ruling.pk}"] = console.get(_url(event, f"rulings/{ruling.pk}/"))
        for name, response in pages.items():
            assert response.status_code == 200, (step, name)
            _never(response.content.decode(), stored, f"{step}, {name}")

    for number in (1, 2):
        round = _round(event)
        assert round.number == number and round.state == Round.State.OPEN
        every_page(f"round {number} open")
        coordinates, word = _fisf(round.tops[0]).split()
        anne.post(f"/p/{event.pk}/slip/", {"coordinates": coordinates, "word": word, "announced_score": ""})
        console.post(_url(event, "slip/"), _slip(round, table=2), HTTP_HX_REQUEST="true")
        console.post(_url(event, "slip/"), {"table": 3, "coordinates": "A1", "word": word})
        every_page(f"round {number} slips in")
        _close(console, event)
        every_page(f"round {number} ruled")
        console.post(_url(event, "top/"), {"move": _fisf(round.tops[-1])})
        every_page(f"round {number} top chosen")
        console.post(_url(event, "place/"))
        every_page(f"round {number} placed")
        console.post(_url(event, "open/"), {"seconds": 180})
    assert len(stored) >= 2
