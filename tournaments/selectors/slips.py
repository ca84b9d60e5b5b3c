"""Slips: the watch of an open round (who has handed in, who has not), a round's slips,
and what the phones show of their own players (their slip, their ruling, their scores)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db.models import QuerySet

from tournaments.models import Event, Player, Round, Ruling, Slip
from tournaments.models.rounds import counted_rounds
from tournaments.selectors.games import player_sight

#: A slip of a watch: the model's (the API) or the values a page reads of it (the console's,
#: rooms/listed.py).
S = TypeVar("S")


@dataclass(frozen=True)
class SlipWatch(Generic[S]):
    """The arbitrator's view of an open round: who has handed in, who has not."""

    received: int
    expected: int
    missing_tables: list[int]
    slips: list[S]


def slip_watch(round: Round) -> SlipWatch[Slip]:
    slips = list(
        Slip.objects.filter(round=round, current=True)
        .select_related("player", "entered_by")
        .order_by("-received_at")
    )
    return watched(round, slips, {s.player_id for s in slips})


def current_slip_values(round: Round, *fields: str) -> QuerySet[Slip, tuple[Any, ...]]:
    """The current slips of ``round``, the newest first, each as the values of ``fields``:
    a page that lists a hall's slips reads what it shows, not model instances."""
    return Slip.objects.filter(round=round, current=True).order_by("-received_at").values_list(*fields)


def watched(round: Round, slips: list[S], handed: set[int]) -> SlipWatch[S]:
    """The watch of ``round`` listing ``slips``, handed in by the players ``handed`` (ids)."""
    # Virtual players hand in no slip through the pages: they are never "missing".
    players = round.game.event.players.people().order_by("table").values_list("pk", "table", "withdrawn_at")
    # A player withdrawn before the round opened hands nothing in: not expected, not missing.
    opened = round.opened_at
    expected = [
        (pk, table)
        for pk, table, withdrawn_at in players
        if withdrawn_at is None or (opened is not None and withdrawn_at >= opened)
    ]
    return SlipWatch(
        received=len(handed),
        expected=len(expected),
        missing_tables=[table for pk, table in expected if pk not in handed],
        slips=slips,
    )


def round_slips(round: Round, *, player_id: int | None = None) -> QuerySet[Slip]:
    slips = Slip.objects.filter(round=round).select_related("player")
    return slips if player_id is None else slips.filter(player_id=player_id)


def current_slip(round: Round, player: Player) -> Slip | None:
    """The slip of ``player`` that counts in ``round``, if they handed one in."""
    return Slip.objects.filter(round=round, player=player, current=True).first()


def still_current(slip: Slip) -> bool:
    """Whether ``slip`` is still the one that counts, as stored now (another may replace it)."""
    return Slip.objects.filter(pk=slip.pk, current=True).exists()


def current_slip_count(round: Round) -> int:
    """How many players have a slip that counts in ``round``."""
    return round.slips.filter(current=True).count()


def late_slip_count(round: Round) -> int:
    return round.slips.filter(late=True).count()


def tables_without_slip(round: Round) -> list[int]:
    """The tables of the event's players (virtual ones too) with no current slip in ``round``."""
    have = set(round.slips.filter(current=True).values_list("player_id", flat=True))
    return [p.table for p in round.game.event.players.order_by("table") if p.pk not in have]


# --------------------------------------------------------------------------- a phone's own lines

#: Up to this many players their rows are asked for by id; more (a hall's phones in one
#: process) read the round's rows whole, which the database answers faster than a long IN.
_LINES_BY_ID = 200


def _of_players(rows: QuerySet[Any, Any], players: list[int]) -> QuerySet[Any, Any]:
    return rows.filter(player_id__in=players) if len(players) <= _LINES_BY_ID else rows


def own_slip_values(round: Round | None, players: list[int], *fields: str) -> QuerySet[Slip, tuple[Any, ...]]:
    """The slips of ``players`` (ids) in ``round`` as the values ``player_id, *fields``,
    each player's current slip first, then the last handed in; none before the round opens.
    May hold other players' too (a hall's: read whole)."""
    if round is None or round.state == Round.State.DRAWN:
        return Slip.objects.none().values_list("player_id", *fields)
    rows = _of_players(Slip.objects.filter(round=round), players)
    return rows.order_by("player_id", "-current", "-received_at").values_list("player_id", *fields)


def own_ruling_values(
    round: Round | None, players: list[int], *fields: str
) -> QuerySet[Ruling, tuple[Any, ...]]:
    """The rulings of ``players`` (ids) in ``round`` as the values ``player_id, *fields``,
    once the players may see them (:func:`~tournaments.selectors.games.player_sight`);
    may hold other players' too."""
    if round is None or not player_sight(round).answers:
        return Ruling.objects.none().values_list("player_id", *fields)
    return (
        _of_players(Ruling.objects.filter(round=round), players).order_by().values_list("player_id", *fields)
    )


def own_credited(
    event: Event, game_number: int | None, players: list[int]
) -> QuerySet[Ruling, tuple[Any, ...]]:
    """(player id, round number, points credited) of ``players`` (ids) in the rounds of
    game ``game_number`` that count in the totals; may hold other players' too."""
    fields = ("player_id", "round__number", "credited")
    if not game_number:
        return Ruling.objects.none().values_list(*fields)
    counted = Ruling.objects.filter(
        counted_rounds("round__"), round__game__event=event, round__game__number=game_number
    )
    # Unordered: Ruling's ordering (its round's, its game's, its event's; the player's
    # table) sorts a big event's rulings through four joins at each change, for a sum
    # (docs/decisions.md).
    return _of_players(counted, players).order_by().values_list(*fields)
