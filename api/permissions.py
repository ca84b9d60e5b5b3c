"""Who may do what in an event: its arbitrator (staff or its creator) or one of its players."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import User
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from api.models import PlayerToken
from tournaments.models import Event

if TYPE_CHECKING:
    from rest_framework.views import APIView


def is_arbitrator(request: Request, event: Event) -> bool:
    user = request.user
    if not isinstance(user, User) or not user.is_active:
        return False
    return user.is_staff or event.created_by_id == user.pk


def event_player_token(request: Request, event: Event) -> PlayerToken | None:
    """The caller's player token when it belongs to ``event``."""
    token = request.auth
    if isinstance(token, PlayerToken) and token.player.event_id == event.pk:
        return token
    return None


def _event(view: APIView) -> Event:
    get_event = getattr(view, "get_event", None)
    if get_event is None:
        raise TypeError(f"{type(view).__name__} has no get_event()")
    event: Event = get_event()
    return event


class IsEventArbitrator(BasePermission):
    message = "only the arbitrator of this event may do this"

    def has_permission(self, request: Request, view: APIView) -> bool:
        return is_arbitrator(request, _event(view))


class IsEventPlayer(BasePermission):
    message = "only a player of this event may do this"

    def has_permission(self, request: Request, view: APIView) -> bool:
        return event_player_token(request, _event(view)) is not None
