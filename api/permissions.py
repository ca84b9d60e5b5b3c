"""Who may do what in an event: its arbitrator (staff or its creator) or one of its players."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from django.utils.functional import Promise as _StrPromise
from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from tournaments.models import Event, PlayerToken, Round
from tournaments.permissions import can_arbitrate

if TYPE_CHECKING:
    from rest_framework.views import APIView


def is_arbitrator(request: Request, event: Event) -> bool:
    return can_arbitrate(request.user, event)


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
    message = _("only the arbitrator of this event may do this")

    def has_permission(self, request: Request, view: APIView) -> bool:
        return is_arbitrator(request, _event(view))


class IsEventPlayer(BasePermission):
    message = _("only a player of this event may do this")

    def has_permission(self, request: Request, view: APIView) -> bool:
        return event_player_token(request, _event(view)) is not None


class MayTryMoves(BasePermission):
    """Try Move: the arbitrator's calculator for paper slips, and the players' in the
    training modes only (in tournament mode a player learns nothing about validity before
    the close)."""

    message: str | _StrPromise = IsEventPlayer.message
    training_only = _("players may try a move only in the training modes (strict or open training)")

    def has_permission(self, request: Request, view: APIView) -> bool:
        event = _event(view)
        if is_arbitrator(request, event):
            return True
        if event_player_token(request, event) is None:
            return False
        if event.mode == Event.Mode.TOURNAMENT:
            self.message = self.training_only
            return False
        return True


def tries_allowed(round: Round, now: dt.datetime) -> bool:
    """A player tries moves while the round is open only: before, the answers would tell
    the rack; after, slips are late anyway."""
    if round.state != Round.State.OPEN:
        return False
    return not round.time_up(now)
