"""The console's lists of a hall's slips and rulings (the watch of an open round, the
review of a ruled one), each read as the values the page shows rather than as model
instances with their slips and players: a hall's are thousands, after each action."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from tournaments.models import Round
from tournaments.selectors.review import Review, reviewed, ruling_values
from tournaments.selectors.slips import SlipWatch, current_slip_values, watched


@dataclass(frozen=True)
class ListedPlayer:
    table: int
    name: str


@dataclass(frozen=True)
class ListedSlip:
    coordinates: str
    word: str
    announced_score: int | None


@dataclass(frozen=True)
class ListedRuling:
    """A ruling as the console's review lists it: what the page says of it."""

    pk: int
    player: ListedPlayer
    slip: ListedSlip | None
    move: str
    move_score: int
    credited: int
    warnings: int
    penalty: int
    solo: bool
    is_top: bool
    reason: str
    detail: str
    notes: list[dict[str, Any]]
    shift_candidate: str
    overridden: bool
    override_reason: str


#: What the console's review reads of each ruling (:class:`ListedRuling`, in its order).
_LISTED = (
    "pk",
    "player__table",
    "player__name",
    "slip_id",
    "slip__coordinates",
    "slip__word",
    "slip__announced_score",
    "move",
    "move_score",
    "credited",
    "warnings",
    "penalty",
    "solo",
    "is_top",
    "reason",
    "detail",
    "notes",
    "shift_candidate",
    "overridden",
    "override_reason",
)


def listed_review(round: Round) -> Review[ListedRuling]:
    """:func:`~tournaments.selectors.review.round_review` for the console's page: the same
    sections, each ruling read as the values the page shows."""
    rulings = [
        ListedRuling(
            pk,
            ListedPlayer(table, name),
            None if slip_id is None else ListedSlip(coordinates, word, announced),
            *rest,
        )
        for pk, table, name, slip_id, coordinates, word, announced, *rest in ruling_values(round, *_LISTED)
    ]
    return reviewed(round, rulings)


@dataclass(frozen=True)
class WatchedSlip:
    """A slip as the console's watch lists it."""

    player: ListedPlayer
    coordinates: str
    word: str
    announced_score: int | None
    received_at: dt.datetime
    source: str


def listed_watch(round: Round) -> SlipWatch[WatchedSlip]:
    """:func:`~tournaments.selectors.slips.slip_watch` for the console's page: the same
    counts, each slip read as the values the page shows."""
    rows = current_slip_values(
        round, "player_id", "player__table", "player__name", "coordinates", "word", "announced_score",
        "received_at", "source",
    )  # fmt: skip
    slips = [
        WatchedSlip(ListedPlayer(table, name), coordinates, word, announced, received_at, source)
        for _pk, table, name, coordinates, word, announced, received_at, source in rows
    ]
    return watched(round, slips, {row[0] for row in rows})
