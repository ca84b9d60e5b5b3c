"""A multiplex's merged rulings: one game played in many centres is one ranking.

Each centre rules its own slips (its rulings, warnings and corrections stay its own), but
the solo of a round is the one best move of *every* player of the multiplex, counted over
all the centres' players (docs/rules.md#multiplex): a player alone on a move in their
hall is not alone in the game. So the hub takes each centre's credited points, takes off
the centre's own solo bonus, and gives the solo again over the merged round. Everything
else a centre credited is kept as sent, and the merged ranking is the ranking of the same
slips played in one event.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from scoring.adjudication import AdjudicationSettings, counts_for_top, solo_winner

__all__ = ["CentreRuling", "MergedRuling", "merge_round"]

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class CentreRuling:
    """One player's ruling of a round as their centre sent it."""

    key: Hashable  # (centre, player) on the hub
    reason: str
    move_score: int
    credited: int  # as the centre credited it: penalties and the centre's own solo included
    solo: bool  # the centre's own solo


@dataclass(frozen=True)
class MergedRuling:
    credited: int
    solo: bool
    is_top: bool


def merge_round(
    rulings: Iterable[CentreRuling],
    *,
    top_score: int,
    players_in_game: int,
    settings: AdjudicationSettings,
) -> dict[Hashable, MergedRuling]:
    """What each player is credited in the merged round: their centre's points without
    its solo bonus, plus the solo given over every centre (``players_in_game``: the sum
    of the centres' counts, as docs/rules.md#solos counts them in one hall)."""
    listed = list(rulings)
    scores = {r.key: r.move_score for r in listed if counts_for_top(r.reason, r.move_score)}
    soloist = solo_winner(scores, top_score=top_score, players_in_game=players_in_game, settings=settings)
    merged: dict[Hashable, MergedRuling] = {}
    for r in listed:
        base = r.credited - (settings.solo_bonus if r.solo else 0)
        is_solo = soloist is not None and r.key == soloist
        merged[r.key] = MergedRuling(
            credited=base + (settings.solo_bonus if is_solo else 0),
            solo=is_solo,
            is_top=r.key in scores and scores[r.key] == top_score,
        )
    return merged
