"""Reads of the API."""

from __future__ import annotations

from django.db.models import QuerySet

from api.models import PlayerToken
from tournaments.models import Event, Round, Slip


def events_for(*, user: object, token: object) -> QuerySet[Event]:
    """The events a caller may list: all for staff, their own for a user, the token's one."""
    from django.contrib.auth.models import User

    if isinstance(token, PlayerToken):
        return Event.objects.filter(pk=token.player.event_id)
    if isinstance(user, User) and user.is_active:
        return Event.objects.all() if user.is_staff else Event.objects.filter(created_by=user)
    return Event.objects.none()


def current_round(event: Event) -> Round | None:
    """The last round of the event's last game."""
    return (
        Round.objects.filter(game__event=event)
        .select_related("game__event")
        .order_by("-game__number", "-number")
        .first()
    )


def round_slips(round: Round, *, player_id: int | None = None) -> QuerySet[Slip]:
    slips = Slip.objects.filter(round=round).select_related("player")
    return slips if player_id is None else slips.filter(player_id=player_id)


def has_placed_rounds(event: Event, *, game_number: int | None = None) -> bool:
    rounds = Round.objects.filter(game__event=event, state=Round.State.PLACED)
    if game_number is not None:
        rounds = rounds.filter(game__number=game_number)
    return rounds.exists()
