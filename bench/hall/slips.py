"""What the phones hand in, and when: slips drawn from SLIP_KINDS in the event's notation,
their moments spread over the window."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from solver.move import Move
from solver.notation import format_coord, format_word, parse_move

#: No slip is sent in the last GUARD_SECONDS before the deadline: a request takes a few
#: milliseconds to reach the server, and a slip sent then would be late by physics, not
#: because of the server. A slip whose first attempt the bench itself started after the
#: deadline (its event loop lagging) is not counted in time.
GUARD_SECONDS = 0.1
#: What a phone hands in, and how often: the worker rules real work (a top, a wrong
#: score, a reference one square off, a word that is not one, no score announced).
SLIP_KINDS: tuple[tuple[str, float], ...] = (
    ("top", 0.50),
    ("wrong score", 0.15),
    ("shifted", 0.15),
    ("scrambled", 0.15),
    ("no score", 0.05),
)


def send_times(count: int, deadline: float, window: float, rng: random.Random) -> list[float]:
    """When each of ``count`` phones hands in its slip: uniformly in the last ``window``
    seconds before ``deadline``, the last GUARD_SECONDS left out."""
    if window <= GUARD_SECONDS:
        raise ValueError(f"the window must be longer than {GUARD_SECONDS} s")
    start, span = deadline - window, window - GUARD_SECONDS
    return [start + rng.random() * span for _ in range(count)]


@dataclass(frozen=True)
class PlannedSlip:
    kind: str
    coordinates: str
    word: str
    announced: int | None


def _shifted(move: Move, size: int) -> Move:
    """The same word one square further along its line (back one if it would leave the
    board): a wrong reference the adjudication has to search around."""
    along = move.col if move.across else move.row
    step = 1 if along + len(move.word) < size else -1
    if move.across:
        return Move(move.row, move.col + step, True, move.word)
    return Move(move.row + step, move.col, False, move.word)


def _scrambled(word: str) -> str:
    """The word's letters turned by one (``WRAITHS`` -> ``RAITHSW``): almost never a word."""
    return word[1:] + word[:1]


def plan_slips(
    count: int,
    tops: Sequence[str],
    top_score: int | None,
    rack: str,
    notation: str,
    size: int,
    rng: random.Random,
) -> list[PlannedSlip]:
    """``count`` slips for a round whose tops (GCG, as the API gives them) are known,
    written in the event's notation, drawn from SLIP_KINDS. Without any top (no legal
    move), the rack's letters across the centre."""
    moves = [parse_move(top, "gcg", size) for top in tops]
    names = [name for name, _ in SLIP_KINDS]
    weights = [weight for _, weight in SLIP_KINDS]
    planned: list[PlannedSlip] = []
    for _ in range(count):
        kind = rng.choices(names, weights)[0]
        if moves:
            move = rng.choice(moves)
        else:
            letters = rack.replace("?", "") or "A"
            move, kind = Move(size // 2, max(0, size // 2 - len(letters) // 2), True, letters), "no top"
        if kind == "shifted":
            move = _shifted(move, size)
        elif kind == "scrambled":
            move = Move(move.row, move.col, move.across, _scrambled(move.word))
        announced = None if kind == "no score" or top_score is None else top_score
        if kind == "wrong score" and announced is not None:
            announced += 1
        planned.append(
            PlannedSlip(
                kind=kind,
                coordinates=format_coord(move.row, move.col, move.across, notation),
                word=format_word(move.word, notation),
                announced=announced,
            )
        )
    return planned
