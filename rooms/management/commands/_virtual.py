"""Virtual players handing in their slips (docs/rules.md#computer-players): what
``simulate_event`` and ``multiplex_play`` share."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from solver.notation import format_coord, format_word
from solver.players import VirtualPlayer
from tournaments.models import Player, Round
from tournaments.services.rounds import analysis_for
from tournaments.services.slips import slip_submit

#: Mixed levels, strongest first, repeated over the tables.
LEVELS = (6, 5, 4, 3, 5, 2, 4, 1)


def level_of(table: int) -> int:
    """The level of the virtual player at ``table`` (1-based)."""
    return LEVELS[(table - 1) % len(LEVELS)]


def category_of(level: int) -> str:
    return "A" if level >= 5 else "B"


def hand_in_slips(
    round: Round, players: Iterable[Player], mind: Callable[[Player], VirtualPlayer], rng: random.Random
) -> int:
    """Each player's slip for the open ``round`` (none when its mind finds no move); how
    many were handed in. Weaker players sometimes get the score wrong (warnings get
    exercised): ``rng`` decides."""
    analysis = analysis_for(round)
    handed = 0
    for player in players:
        move = mind(player).choose(analysis.ranked, analysis.tops)
        if move is None:
            continue
        announced = move.score
        if (player.virtual_level or 6) <= 2 and rng.random() < 0.15:
            announced = (move.score or 0) + 1
        slip_submit(
            round=round,
            player=player,
            coordinates=format_coord(move.row, move.col, move.across, "gcg"),
            word=format_word(move.word, "gcg"),
            announced_score=announced,
            source="virtual",
        )
        handed += 1
    return handed
