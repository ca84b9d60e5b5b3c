"""What the API's views share: the error answers of the schema, the throttles of slips and
previews, the event named by the URL and who may call, a round read again."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse
from rest_framework.exceptions import NotFound
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from api.permissions import (
    IsEventArbitrator,
    IsEventPlayer,
    event_player_token,
)
from api.serializers.base import MAX_NUMBER, ErrorSerializer
from tournaments.core import ApplicationError
from tournaments.models import Event, Game, Player, PlayerToken, Round
from tournaments.selectors import games

ERRORS = {code: OpenApiResponse(ErrorSerializer) for code in (400, 401, 403, 404, 429)}


#: A table or game number in a query: its bounds in the schema, as the serializers check them.
NUMBER = {"type": "integer", "minimum": 1, "maximum": MAX_NUMBER}


class SlipThrottle(ScopedRateThrottle):
    """Per player token, on submissions only (reading the slips is not throttled)."""

    ident_prefix = "token"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if request.method != "POST" or not isinstance(request.auth, PlayerToken):
            return None
        return self.cache_format % {"scope": self.scope, "ident": f"{self.ident_prefix}-{request.auth.pk}"}


class PreviewThrottle(SlipThrottle):
    """A tried move replays the game: players get the slips' rate, in a bucket of its own
    so that trying moves never uses up the right to hand in a slip."""

    ident_prefix = "preview-token"


class EventMixin:
    kwargs: dict[str, Any]
    _event: Event | None = None

    def get_event(self) -> Event:
        if self._event is None:
            auth = getattr(getattr(self, "request", None), "auth", None)
            if isinstance(auth, PlayerToken) and auth.player.event_id == self.kwargs["event_id"]:
                # Read with the token (api/auth.py): one query fewer for each of a hall's slips.
                self._event = auth.player.event
            else:
                self._event = get_object_or_404(Event, pk=self.kwargs["event_id"])
        return self._event

    def current_round(self) -> Round:
        round = games.current_round(self.get_event())
        if round is None:
            raise NotFound(_("no round has been drawn in this event yet"))
        return round

    def ruled_round(self) -> Round:
        """The current round once adjudicated: before, its rulings do not exist or are
        being written."""
        round = self.current_round()
        if round.state not in games.RULED:
            raise ApplicationError(
                _("round %(number)s is not adjudicated yet") % {"number": round.number},
                {"reason": "not_adjudicated", "state": round.state},
            )
        return round

    def current_game(self) -> Game:
        game = games.current_game(self.get_event())
        if game is None:
            raise NotFound(_("no game has been started in this event yet"))
        return game

    def token_player(self, request: Request) -> Player:
        token = event_player_token(request, self.get_event())
        assert token is not None  # IsEventPlayer
        return token.player


def arbitrator_or_player() -> list[type[BasePermission]]:
    return [IsEventArbitrator | IsEventPlayer]  # type: ignore[list-item]


#: The serializer context of the arbitrator's answers: the round's secrets included.
ARBITRATOR = {"arbitrator": True}


def fresh(round: Round) -> Round:
    """A round re-read after a service: the solver and the adjudication run on commit
    (in-process when tasks are eager), so the instance the service returned may be stale."""
    round.refresh_from_db()
    return round
