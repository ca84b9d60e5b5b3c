"""The terminal speaks the event's notation (issue 11): the commands' event is in FISF
(conftest.py), and no command prints a move or a square in GCG, the notation moves are
stored in. Every move's two spellings differ (tests.tournaments.helpers.fisf)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from solver.notation import format_move
from tests.rooms.commands.helpers import last_round as _round
from tests.rooms.commands.helpers import run
from tests.tournaments.helpers import fisf as _fisf
from tests.tournaments.helpers import letter_conflict
from tournaments.models import Event, Round, Ruling
from tournaments.services.rounds import analysis_for

pytestmark = pytest.mark.django_db


def _refusal(name: str, *args: str) -> str:
    """The message of a command's refusal."""
    with pytest.raises(CommandError) as refused:
        call_command(name, *args, stdout=io.StringIO(), stderr=io.StringIO())
    return str(refused.value)


def _never(text: str, stored: set[str], where: str) -> None:
    found = sorted(gcg for gcg in stored if gcg in text)
    assert not found, f"{where}: {found} in GCG:\n{text}"


def test_top_choose_names_a_clashing_square_in_fisf(event: Event, open_round: Round) -> None:
    run("round_close", "--event", event.code)
    run("round_place", "--event", event.code)
    placed = Round.objects.get(pk=open_round.pk)
    move, square, gcg_square = letter_conflict(placed.chosen)
    assert square != gcg_square
    refused = _refusal("top_choose", "--event", event.code, move)
    assert f"{square} already holds" in refused and gcg_square not in refused, refused


def test_no_command_prints_a_move_in_gcg_through_played_rounds(event: Event, open_round: Round) -> None:
    code = event.code
    stored: set[str] = set()
    for number in (1, 2):
        round = _round(event)
        assert round.number == number and round.state == Round.State.OPEN
        ranked = analysis_for(round).ranked
        lower = next(m for m in ranked if m.score < round.top_score)
        stored.update(round.tops, [format_move(lower, "gcg")])
        top = _fisf(round.tops[0])
        word = top.split()[1]
        slips = f"1 {top} {round.top_score}\n2 {top}\n3 A1 {word} 12\n4 {word} {round.top_score}\n"
        outputs = {
            "event_status": run("event_status", "--event", code).out,
            "slips_enter": run("slips_enter", "--event", code, stdin=slips).out,
            "round_close": run("round_close", "--event", code).out,
        }
        rulings = Ruling.objects.filter(round=round)
        stored.update(m for pair in rulings.values_list("move", "shift_candidate") for m in pair if m)
        assert _fisf(round.tops[0]) in outputs["slips_enter"]
        outputs["rulings"] = run("rulings", "--event", code, "--players").out
        outputs["top_choose list"] = run("top_choose", "--event", code).out
        lower_text = _fisf(format_move(lower, "gcg"))
        outputs["top_choose lower"] = _refusal("top_choose", "--event", code, lower_text)
        assert "confirm" in outputs["top_choose lower"]
        outputs["top_choose"] = run("top_choose", "--event", code, "1").out
        outputs["event_status ruled"] = run("event_status", "--event", code).out
        outputs["round_place"] = run("round_place", "--event", code).out
        outputs["round_open"] = run("round_open", "--event", code).out
        outputs["standings"] = run("standings", "--event", code).out
        outputs["export slips"] = run("export", "slips", "--event", code).out
        assert _fisf(round.tops[0]) in outputs["top_choose"] + outputs["round_place"]
        for name, text in outputs.items():
            _never(text, stored, f"round {number}, {name}")
