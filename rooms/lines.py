"""A phone's own lines: its player's slip, ruling and scores, the part of its panel that
is not the same on every phone (rooms/views/panels.py sends a hall's at each change)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from rooms.listed import ListedSlip
from tournaments.models import Event, Round
from tournaments.selectors.slips import own_credited, own_ruling_values, own_slip_values


@dataclass(frozen=True)
class OwnSlip:
    """A player's slip as their phone shows it."""

    coordinates: str
    word: str
    announced_score: int | None
    late: bool
    received_at: dt.datetime


@dataclass(frozen=True)
class OwnRuling:
    """A player's ruling as their phone shows it, with the slip it ruled."""

    slip: ListedSlip | None
    credited: int
    is_top: bool
    solo: bool
    reason: str
    warnings: int
    penalty: int
    detail: str
    notes: list[dict[str, Any]]


@dataclass(frozen=True)
class PlayerLines:
    """What a phone shows of its own player; the rest of its panel is the same on every
    phone at one public version."""

    #: The player's slip of the round (the current one first, then the last handed in).
    slip: OwnSlip | None
    #: The player's ruling, once the round's answers are shown.
    ruling: OwnRuling | None
    #: Round number -> what the player scored, for the placed rounds of the game shown.
    credited: dict[int, int]

    @property
    def total(self) -> int:
        return sum(self.credited.values())


#: What a phone's lines read of its slip (:class:`OwnSlip`, in its order).
_OWN_SLIP = ("coordinates", "word", "announced_score", "late", "received_at")
#: What a phone's lines read of its ruling (:class:`OwnRuling`, in its order).
_OWN_RULING = (
    "slip_id",
    "slip__coordinates",
    "slip__word",
    "slip__announced_score",
    "credited",
    "is_top",
    "solo",
    "reason",
    "warnings",
    "penalty",
    "detail",
    "notes",
)


def player_lines(
    event: Event, round: Round | None, game_number: int | None, players: list[int]
) -> dict[int, PlayerLines]:
    """The own lines of ``players`` (ids) in three queries whatever their number: a hall's
    phones are sent theirs at each change from one reading per web process, not one
    request and three queries per phone."""
    # Read as values: a hall's rulings and slips as model instances would be most of each
    # web process's build of its phones' panels (docs/benchmarks.md).
    slips: dict[int, OwnSlip] = {}
    for player_id, *slip in own_slip_values(round, players, *_OWN_SLIP):
        if player_id not in slips:
            slips[player_id] = OwnSlip(*slip)
    rulings = {
        player_id: OwnRuling(None if slip_id is None else ListedSlip(coordinates, word, announced), *rest)
        for player_id, slip_id, coordinates, word, announced, *rest in own_ruling_values(
            round, players, *_OWN_RULING
        )
    }
    credited: dict[int, dict[int, int]] = defaultdict(dict)
    for player_id, number, value in own_credited(event, game_number, players):
        credited[player_id][number] = value
    return {pk: PlayerLines(slips.get(pk), rulings.get(pk), credited.get(pk, {})) for pk in set(players)}
