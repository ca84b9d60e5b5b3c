"""Helpers of the domain's tests, also used by the pages', the commands' and the API's:
rounds played through the services, a simulated event, a round with a shifted reference,
warnings carried from one round to the next, moves and squares in FISF and GCG."""

from __future__ import annotations

import dataclasses
import io
import json

import pytest
from django.core.management import call_command

from scoring import adjudication as adj
from solver.move import Move
from solver.notation import format_move, parse_move
from solver.tiles import rack_codes
from tournaments import judging
from tournaments.models import Event, Game, Player, Round, Ruling
from tournaments.services.games import round_draw
from tournaments.services.rounds import round_close, round_open, round_place
from tournaments.services.slips import slip_submit
from tournaments.state import rebuild


def draw_round(game: Game) -> Round:
    """The next rack drawn (and solved: the tasks run in the process)."""
    round = round_draw(game=game)
    assert round is not None
    round.refresh_from_db()
    return round


def draw_and_open(game: Game) -> Round:
    round = round_draw(game=game)
    assert round is not None
    return round_open(round=round)


def closed_unruled(round: Round) -> Round:
    """``round`` (open) closed with its rulings still to come, as the close leaves it for a
    worker (the tests' tasks run at once: the rulings they wrote are taken back)."""
    round_close(round=Round.objects.get(pk=round.pk))
    Ruling.objects.filter(round=round).delete()
    Round.objects.filter(pk=round.pk).update(state=Round.State.CLOSED)
    return Round.objects.get(pk=round.pk)


def play_out(round: Round) -> None:
    """Open, close and place ``round`` without drawing the next rack."""
    round_open(round=round)
    round_close(round=round)
    round_place(round=Round.objects.get(pk=round.pk), draw_next=False)


def simulated_event(players: int = 6, seed: int = 7) -> Event:
    """One game of ``simulate_event``: its virtual players hand in slips every round."""
    out = io.StringIO()
    call_command("simulate_event", players=players, games=1, seed=seed, json=True, stdout=out)
    return Event.objects.get(pk=json.loads(out.getvalue())["event_id"])


def shifted_writing(game: Game, round: Round) -> tuple[str, str, str] | None:
    """A wrong reference (coordinates, word) whose only nearby fit is a top, and that top."""
    position = rebuild(game)
    event = game.event
    rules = dataclasses.replace(position.game.rules, notation=event.notation)
    settings = judging.adjudication_settings(event)
    rack = rack_codes(round.rack)
    for top in round.tops:
        move = parse_move(top, "gcg", 15)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                for across in (move.across, not move.across):
                    if (dr, dc, across) == (0, 0, move.across):
                        continue
                    try:
                        text = format_move(
                            dataclasses.replace(move, row=move.row + dr, col=move.col + dc, across=across),
                            "gcg",
                        )
                    except ValueError:
                        continue
                    coords, word = text.split()
                    verdict = adj.adjudicate_slip(
                        position.game.board,
                        rack,
                        position.game.lexicon,
                        rules,
                        settings,
                        adj.SlipInput(coords, word, round.top_score),
                    )
                    if verdict.shift_candidate == top:
                        return coords, word, top
    return None


def open_round_with_a_shift(game: Game) -> tuple[Round, tuple[str, str, str]]:
    """Play the seed's rounds (placing each top) until an open round has a top that can be
    written with a unique shifted reference: that round, and (coordinates, word, top).
    The event takes the arbitrator's nearby choice for wrong references (the FISF 2016
    rule, the default, needs no acceptance), set before the first round is drawn."""
    Event.objects.filter(pk=game.event_id).update(reference_rule=Event.ReferenceRule.NEARBY)
    game.event.refresh_from_db()
    round = round_draw(game=game)
    for _ in range(8):
        assert round is not None
        round = round_open(round=round)
        round.refresh_from_db()
        found = shifted_writing(game, round)
        if found:
            return round, found
        round_close(round=round)
        round = round_place(round=Round.objects.get(pk=round.pk))
    pytest.fail("no round of this seed had a top with a unique shifted reference")


#: A rack typed with a blank: its tops are bingos that play the blank (a lowercase letter
#: in GCG). A slip writing it as an ordinary letter has an unmarked blank: a warning.
BLANK_RACK = "AEIRST?"


def blank_top(round: Round, *, marked: bool) -> tuple[str, str]:
    """A top of ``round`` that plays its blank, as (coordinates, word) in GCG: the blank
    written lowercase (marked), or as the letter's own tile (not marked: a warning)."""
    for top in round.tops:
        coordinates, word = top.split()
        if any(ch.islower() for ch in word):
            return coordinates, word if marked else word.upper()
    pytest.fail(f"no top of round {round.number} ({round.rack}) plays the blank: {round.tops[:5]}")


def blank_rack_round(game: Game) -> Round:
    """The game's next round drawn by hand as :data:`BLANK_RACK`, solved and opened."""
    round = round_draw(game=game, typed=BLANK_RACK)
    assert round is not None
    round_open(round=round)
    round.refresh_from_db()
    return round


def warned_twice(game: Game, player: Player) -> Round:
    """Round 1 on :data:`BLANK_RACK`, where ``player`` hands in a top with the blank not
    marked and no score announced (two warnings), ruled and placed; then round 2, drawn
    on :data:`BLANK_RACK` again (the bingo emptied the rack) and open: returned.

    The event counts every warning of a slip (``single_warning`` off, set before the
    first slip): the FISF's one warning a round would give one here."""
    Event.objects.filter(pk=game.event_id).update(single_warning=False)
    game.event.refresh_from_db()
    first = blank_rack_round(game)
    coordinates, word = blank_top(first, marked=False)
    slip_submit(round=first, player=player, coordinates=coordinates, word=word, announced_score=None)
    round_close(round=first)
    round_place(round=Round.objects.get(pk=first.pk), draw_next=False)
    return blank_rack_round(game)


def fisf(gcg: str) -> str:
    """A stored move (GCG) as a FISF event writes it. The two spellings of a move always
    differ: across, FISF writes the row letter first (H8 PROOF), GCG the row number (8H
    PROOF); down, FISF the column number first, GCG the column letter."""
    return format_move(parse_move(gcg, "gcg"), "fisf")


def letter_conflict(placed: str) -> tuple[str, str, str]:
    """A two-letter word written down through a letter of ``placed`` (a move across, GCG)
    whose second letter is not the board's: (the move in FISF, the square of the clash in
    FISF, the same square in GCG). The square is off the diagonal, where the two
    notations name it differently (FISF H9 is GCG I8)."""
    move = parse_move(placed, "gcg")
    assert move.across, placed
    i = next(i for i in range(len(move.word)) if move.row != move.col + i)
    row, col = move.row, move.col + i
    other = "X" if move.word[i].upper() != "X" else "Z"
    down = Move(row - 1, col, False, "A" + other)
    return (
        format_move(down, "fisf"),
        f"{chr(65 + row)}{col + 1}",
        f"{chr(65 + col)}{row + 1}",
    )
