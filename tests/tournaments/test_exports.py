"""The exported files of a game (tournaments.exports): the record replays in the solver,
the GCG lists the tops, a game in progress exports its placed rounds, the slips' CSV
names the moves in the event's notation."""

from __future__ import annotations

import csv
import io
import json

import pytest

from solver import lexicon as lexmod
from solver.formats.record import GameRecord
from tests.tournaments.helpers import draw_round as _drawn
from tests.tournaments.helpers import fisf as _fisf
from tests.tournaments.helpers import simulated_event as _simulated_event
from tournaments import exports
from tournaments.core import ApplicationError
from tournaments.models import Event, Round, Slip
from tournaments.services.games import game_start
from tournaments.services.players import player_add
from tournaments.services.rounds import round_close, round_open, round_place
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db


def test_the_exported_record_replays_in_the_solver_and_its_gcg_lists_the_tops() -> None:
    from solver.game import replay

    event = _simulated_event(players=2, seed=5)
    game = event.games.get()
    record = GameRecord.from_dict(json.loads(exports.record_json(game)))
    replayed = replay(record, lexicon=lexmod.load_bundled("enable"))  # tops recomputed too
    assert replayed.to_dict() == record.to_dict()
    placed = list(game.rounds.filter(state=Round.State.PLACED).order_by("number"))
    assert [r.played for r in record.rounds] == [r.chosen for r in placed]
    assert record.end == game.end_reason and record.config.seed == game.seed
    lines = exports.game_gcg(game).decode().splitlines()
    moves = [line for line in lines if line.startswith(">Top:")]
    assert len(moves) == len(placed)
    running = 0
    for line, r in zip(moves, placed, strict=True):
        running += r.chosen_score or 0
        assert line == f">Top: {r.rack} {r.chosen} +{r.chosen_score} {running}"
    assert "#lexicon enable" in lines


def test_a_game_in_progress_exports_the_placed_rounds_only(event: Event) -> None:
    player_add(event=event, name="Solo")
    game = game_start(event=event)
    first = _drawn(game)
    round_open(round=first)
    round_close(round=first)
    round_place(round=first)
    record = GameRecord.from_dict(json.loads(exports.record_json(game)))
    assert [r.round for r in record.rounds] == [1] and record.end == ""


def test_the_slips_csv_names_the_ruled_move_in_the_events_notation(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(notation="fisf")  # before its first game
    event.refresh_from_db()
    anne = player_add(event=event, name="Anne")
    round = _drawn(game_start(event=event))
    round_open(round=round)
    top = round.tops[0]
    coordinates, word = _fisf(top).split()
    slip_submit(round=round, player=anne, coordinates=coordinates, word=word, announced_score=round.top_score)
    round_close(round=round)
    text = exports.slips_csv(event, language="en").decode("utf-8-sig")
    (row,) = csv.DictReader(io.StringIO(text), delimiter=";")
    # The slip as written, the move it was ruled as: both in FISF; GCG nowhere.
    assert (row["coordinates"], row["word"], row["move"], row["ruling"]) == (
        coordinates,
        word,
        _fisf(top),
        "ok",
    )
    assert top not in text


@pytest.mark.parametrize("hostile", ['=HYPERLINK("//ev.il/x","a")', "+1+2", "-2+3", "@SUM(A1)"])
def test_a_cell_that_would_start_a_formula_is_written_as_text(event: Event, hostile: str) -> None:
    # Issue 30, item 2: a player's name or a slip's word reaches a spreadsheet as text.
    player = player_add(event=event, name=hostile, club=hostile)
    round = _drawn(game_start(event=event))
    round_open(round=round)
    slip_submit(round=round, player=player, coordinates="H8", word=hostile, announced_score=None,
                         source=Slip.Source.PAPER)  # fmt: skip
    round_close(round=round)
    round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
    for data in (exports.standings_csv(event, language="fr"), exports.slips_csv(event, language="en")):
        rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), delimiter=";"))
        (row,) = rows[1:]
        assert "'" + hostile in row and hostile not in row
        assert not any(cell.startswith(("=", "+", "@", "\t", "\r")) for cell in row)
    standings = exports.standings_csv(event, language="fr").decode("utf-8-sig")
    (row,) = list(csv.DictReader(io.StringIO(standings), delimiter=";"))
    assert row["négatif"].startswith("-") and row["pourcentage"] == "0,00"  # our numbers stay numbers


def test_a_tab_or_a_return_first_is_a_formula_start_too_and_numbers_are_left_alone() -> None:
    # Names and words are trimmed before they are stored; the rule holds for any cell.
    assert [exports._cell(v) for v in ("\t=1", "\r=1", "-12,50", "-3", "12.5", -7, "Anne")] == [
        "'\t=1",
        "'\r=1",
        "-12,50",
        "-3",
        "12.5",
        -7,
        "Anne",
    ]


def test_a_phones_slip_must_read_late_and_on_the_first_round_too(event: Event) -> None:
    # Issue 30, item 2: "=1+2" as coordinates was taken on round 1, and any text late.
    player = player_add(event=event, name="Anne")
    round = _drawn(game_start(event=event))
    round_open(round=round)
    top_coordinates, top_word = round.tops[0].split()
    for coordinates in ("=1+2", "<script>"):
        with pytest.raises(ApplicationError, match="cannot be read"):
            slip_submit(round=round, player=player, coordinates=coordinates, word=top_word,
                                 announced_score=None)  # fmt: skip
    slip_submit(round=round, player=player, coordinates="", word=top_word, announced_score=None)
    round_close(round=round)
    with pytest.raises(ApplicationError, match="cannot be read"):
        slip_submit(round=Round.objects.get(pk=round.pk), player=player, coordinates=top_coordinates,
                             word='=HYPERLINK("//ev.il/x","a")', announced_score=None)  # fmt: skip
    assert Slip.objects.filter(round=round).count() == 1
