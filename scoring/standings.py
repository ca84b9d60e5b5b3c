"""Standings of a duplicate event: pure functions over per-round rulings (docs/rules.md#standings).

No Django here: a selector reads the rulings from the database, turns them into
:class:`RoundResult` and :class:`PlayerInfo` values and calls :func:`standings`.

* **Per game**: pass that game's results and the game's top total.
* **Cumulated** over an event: pass all games' results and the sum of the games' top totals.

Every player of ``players`` gets a row, even without any result (total 0).

Ranking
    Rows are ordered by total, highest first.  With ``tie_break="fisf"`` (the federation's
    practice, docs/rules.md#standings) equal totals are ordered by the score of the last
    game, then by that game's rounds from the last backwards (a higher score first; no
    ruling counts 0), and only players equal on all of them share a rank.  With
    ``tie_break="shared"`` (the function's default) equal totals share a rank, competition
    style ("1, 2, 2, 4").  With
    ``tie_break="letterpoints"`` (docs/rules.md#standings, after the Scramble help: "the
    player with the lowest letterpoint use will prevail") equal totals are ordered by fewer
    letterpoints first, and only players equal on both total and letterpoints share a rank.
    Rows sharing a rank are listed by table, then name (then player id), so the display is
    stable.

Category filter
    ``category="..."`` keeps only the players of that category and **recomputes the ranks
    within the filtered list** (the winner of the category is rank 1), which is what a
    category prize list needs.  Results are still checked against all ``players`` first, so
    a filter never hides a data-integrity error.

Figures
    ``diff`` is ``total - top_total`` (the "négatif", 0 or negative; it may be positive when
    solo bonuses lift a player above the top, it is not clamped).  ``percent`` is
    ``100 * total / top_total`` and ``ratio`` is ``total / letterpoints``, both rounded to two
    decimals with ROUND_HALF_UP, computed exactly in integers (no intermediate float or
    context rounding).  ``percent`` is ``Decimal("0.00")`` when ``top_total`` is 0 and
    ``ratio`` is ``None`` when the player has no letterpoints.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

__all__ = [
    "TIE_BREAKS",
    "PlayerInfo",
    "PlayerSums",
    "RoundResult",
    "Row",
    "minus",
    "standings",
    "standings_of_sums",
    "to_dict",
]

TIE_BREAKS = ("fisf", "shared", "letterpoints")


def minus(value: int) -> str:
    """A negative number with the typographic minus sign (U+2212), as the sheets and the
    charts print the difference to the top (a hyphen is thin and small)."""
    return f"\u2212{-value}" if value < 0 else str(value)


@dataclass(frozen=True)
class RoundResult:
    """One player's ruling in one round."""

    player: int  # player id
    game: int  # game number
    round: int  # round number
    credited: int  # points credited (penalties and solo already included)
    is_top: bool
    solo: bool
    warnings: int
    penalty: int
    letterpoints: int


@dataclass(frozen=True)
class PlayerInfo:
    id: int
    name: str
    club: str = ""
    category: str = ""
    table: int = 0


@dataclass(frozen=True)
class Row:
    rank: int
    player: PlayerInfo
    total: int
    tops: int
    solos: int
    warnings: int
    penalties: int
    diff: int  # total - top_total (0 or negative: the "négatif")
    percent: Decimal  # 100 * total / top_total, 2 decimals, ROUND_HALF_UP; 0.00 if top_total == 0
    letterpoints: int
    ratio: Decimal | None  # total / letterpoints, 2 decimals; None when letterpoints == 0
    rounds: int  # rulings counted


@dataclass(frozen=True)
class PlayerSums:
    """One player's counted rulings added up (:func:`standings_of_sums`)."""

    player: int  # player id
    total: int
    tops: int
    solos: int
    warnings: int
    penalties: int
    letterpoints: int
    rounds: int
    #: (game, round) -> points credited. Read only to order equal totals by the FISF
    #: tie-break, and then only the last game's: those of the players who share a total
    #: with another are enough.
    credits: Mapping[tuple[int, int], int] = field(default_factory=dict)


def _hundredths(numerator: int, denominator: int) -> Decimal:
    """``numerator / denominator`` to two decimals, ROUND_HALF_UP (half away from zero), exactly."""
    negative = (numerator < 0) != (denominator < 0)
    quotient, remainder = divmod(abs(numerator) * 100, abs(denominator))
    if 2 * remainder >= abs(denominator):
        quotient += 1
    return Decimal(-quotient if negative else quotient).scaleb(-2)


@dataclass
class _Tally:
    total: int = 0
    tops: int = 0
    solos: int = 0
    warnings: int = 0
    penalties: int = 0
    letterpoints: int = 0
    rounds: int = 0
    #: (game, round) -> points, for the FISF tie-break.
    credits: dict[tuple[int, int], int] = field(default_factory=dict)

    def add(self, result: RoundResult) -> None:
        self.credits[result.game, result.round] = (
            self.credits.get((result.game, result.round), 0) + result.credited
        )
        self.total += result.credited
        self.tops += int(result.is_top)
        self.solos += int(result.solo)
        self.warnings += result.warnings
        self.penalties += result.penalty
        self.letterpoints += result.letterpoints
        self.rounds += 1


def standings(
    results: Iterable[RoundResult],
    players: Iterable[PlayerInfo],
    top_total: int,
    *,
    tie_break: str = "shared",
    category: str | None = None,
) -> list[Row]:
    """Rank ``players`` on ``results`` against ``top_total`` (see the module docstring).

    Raises ``ValueError`` for an unknown ``tie_break``, a negative ``top_total``, a player id
    listed twice in ``players``, or a result whose player is not in ``players``.
    """
    roster = _roster(players, top_total, tie_break)
    tallies = {player_id: _Tally() for player_id in roster}
    played: set[tuple[int, int]] = set()
    for result in results:
        played.add((result.game, result.round))
        tally = tallies.get(result.player)
        if tally is None:
            raise ValueError(
                f"result for unknown player {result.player} (game {result.game}, round {result.round})"
            )
        tally.add(result)

    return _ranked(roster, tallies, played, top_total, tie_break, category)


def standings_of_sums(
    sums: Iterable[PlayerSums],
    played: Iterable[tuple[int, int]],
    players: Iterable[PlayerInfo],
    top_total: int,
    *,
    tie_break: str = "shared",
    category: str | None = None,
) -> list[Row]:
    """:func:`standings` from each player's rulings added up (``sums``, a player without
    any left out) and the (game, round) pairs that have a ruling (``played``): the same
    rows, from a database that adds up a big event's rulings faster than Python reads them
    (docs/decisions.md).

    Raises ``ValueError`` as :func:`standings` does, and for a player summed twice.
    """
    roster = _roster(players, top_total, tie_break)
    tallies = {player_id: _Tally() for player_id in roster}
    summed: set[int] = set()
    for sum_ in sums:
        if sum_.player not in tallies:
            raise ValueError(f"sums for unknown player {sum_.player}")
        if sum_.player in summed:
            raise ValueError(f"player {sum_.player} is summed twice")
        summed.add(sum_.player)
        tallies[sum_.player] = _Tally(
            total=sum_.total,
            tops=sum_.tops,
            solos=sum_.solos,
            warnings=sum_.warnings,
            penalties=sum_.penalties,
            letterpoints=sum_.letterpoints,
            rounds=sum_.rounds,
            credits=dict(sum_.credits),
        )
    return _ranked(roster, tallies, set(played), top_total, tie_break, category)


def _ranked(
    roster: dict[int, PlayerInfo],
    tallies: dict[int, _Tally],
    played: set[tuple[int, int]],
    top_total: int,
    tie_break: str,
    category: str | None,
) -> list[Row]:
    entries = [
        (info, tallies[player_id])
        for player_id, info in roster.items()
        if category is None or info.category == category
    ]

    # The FISF tie-break: the last game's score, then its rounds from the last backwards.
    last_game = max((game for game, _round in played), default=0)
    backwards = sorted((r for game, r in played if game == last_game), reverse=True)

    def rank_key(entry: tuple[PlayerInfo, _Tally]) -> tuple[int, ...]:
        tally = entry[1]
        if tie_break == "letterpoints":
            return (-tally.total, tally.letterpoints)
        if tie_break == "fisf":
            last = [tally.credits.get((last_game, r), 0) for r in backwards]
            return (-tally.total, -sum(last), *(-points for points in last))
        return (-tally.total,)

    entries.sort(key=lambda entry: (rank_key(entry), entry[0].table, entry[0].name, entry[0].id))

    rows: list[Row] = []
    previous_key: tuple[int, ...] | None = None
    rank = 0
    for position, entry in enumerate(entries, start=1):
        key = rank_key(entry)
        if key != previous_key:
            rank, previous_key = position, key
        info, tally = entry
        rows.append(
            Row(
                rank=rank,
                player=info,
                total=tally.total,
                tops=tally.tops,
                solos=tally.solos,
                warnings=tally.warnings,
                penalties=tally.penalties,
                diff=tally.total - top_total,
                percent=_hundredths(100 * tally.total, top_total) if top_total else Decimal("0.00"),
                letterpoints=tally.letterpoints,
                ratio=_hundredths(tally.total, tally.letterpoints) if tally.letterpoints else None,
                rounds=tally.rounds,
            )
        )
    return rows


def _roster(players: Iterable[PlayerInfo], top_total: int, tie_break: str) -> dict[int, PlayerInfo]:
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"unknown tie_break {tie_break!r}: expected one of {', '.join(TIE_BREAKS)}")
    if top_total < 0:
        raise ValueError(f"top_total must not be negative, got {top_total}")
    roster: dict[int, PlayerInfo] = {}
    for info in players:
        if info.id in roster:
            raise ValueError(f"player {info.id} is listed twice")
        roster[info.id] = info
    return roster


def to_dict(row: Row) -> dict[str, Any]:
    """A JSON-friendly dict of ``row``.

    Decimals become floats rounded to two decimals (``Decimal("97.25")`` -> ``97.25``), which
    is what a JSON consumer (a sheet, a scoreboard) displays; ``ratio`` stays ``None`` when
    there are no letterpoints.  The player is a nested dict.
    """
    return {
        "rank": row.rank,
        "player": {
            "id": row.player.id,
            "name": row.player.name,
            "club": row.player.club,
            "category": row.player.category,
            "table": row.player.table,
        },
        "total": row.total,
        "tops": row.tops,
        "solos": row.solos,
        "warnings": row.warnings,
        "penalties": row.penalties,
        "diff": row.diff,
        "percent": round(float(row.percent), 2),
        "letterpoints": row.letterpoints,
        "ratio": None if row.ratio is None else round(float(row.ratio), 2),
        "rounds": row.rounds,
    }
