"""Reads of the API."""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments.models import Event, HistoryEntry, Player, PlayerToken, Round, Ruling, Slip
from tournaments.selectors import current_game, current_round

__all__ = [
    "current_game",
    "current_round",
    "event_history",
    "event_players",
    "event_ruling",
    "events_for",
    "has_placed_rounds",
    "player_at_table",
    "round_ruling",
    "round_slips",
]


def events_for(*, user: object, token: object) -> QuerySet[Event]:
    """The events a caller may list: all for staff, their own for a user, the token's one."""
    from django.contrib.auth.models import User

    if isinstance(token, PlayerToken):
        return Event.objects.filter(pk=token.player.event_id)
    if isinstance(user, User) and user.is_active:
        return Event.objects.all() if user.is_staff else Event.objects.filter(created_by=user)
    return Event.objects.none()


def round_slips(round: Round, *, player_id: int | None = None) -> QuerySet[Slip]:
    slips = Slip.objects.filter(round=round).select_related("player")
    return slips if player_id is None else slips.filter(player_id=player_id)


def has_placed_rounds(event: Event, *, game_number: int | None = None) -> bool:
    rounds = Round.objects.filter(game__event=event, state=Round.State.PLACED)
    if game_number is not None:
        rounds = rounds.filter(game__number=game_number)
    return rounds.exists()


def event_players(event: Event) -> QuerySet[Player]:
    return Player.objects.filter(event=event).order_by("table")


def player_at_table(event: Event, table: int) -> Player | None:
    return Player.objects.filter(event=event, table=table).first()


def _rulings() -> QuerySet[Ruling]:
    return Ruling.objects.select_related("round__game__event", "player", "slip", "ruled_by")


def event_ruling(event: Event, ruling_id: int) -> Ruling | None:
    """A ruling of ``event`` only: an id from another event is not found."""
    return _rulings().filter(pk=ruling_id, round__game__event=event).first()


def round_ruling(round: Round, table: int) -> Ruling | None:
    return _rulings().filter(round=round, player__table=table).first()


def event_history(event: Event) -> QuerySet[HistoryEntry]:
    """Newest first: the console shows the last changes at the top."""
    return HistoryEntry.objects.filter(event=event).order_by("-at", "-pk")
