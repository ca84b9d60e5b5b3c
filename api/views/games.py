"""The games of an event: started, ended, the one being played."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import (
    IsEventArbitrator,
)
from api.serializers.games import GameEndInputSerializer, GameSerializer, GameViewSerializer
from api.views.base import (
    ERRORS,
    EventMixin,
    arbitrator_or_player,
)
from tournaments.selectors.live import live_versions
from tournaments.selectors.shown import public_view
from tournaments.services.games import game_end, game_start


@extend_schema(
    tags=["games"],
    summary="Start the next game (refused while one is being played)",
    request=None,
    responses={201: GameSerializer, **ERRORS},
)
class GamesView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        game = game_start(event=self.get_event(), by=request.user)
        return Response(GameSerializer(game).data, status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["games"],
    summary="End the current game",
    request=GameEndInputSerializer,
    responses={200: GameSerializer, **ERRORS},
)
class GameEndView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        data = GameEndInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = game_end(game=self.current_game(), reason=data.validated_data["reason"], by=request.user)
        return Response(GameSerializer(game).data)


@extend_schema(
    tags=["games"],
    summary="The current game as the phones show it: board, rack once open, letters to come",
    responses={200: GameViewSerializer, **ERRORS},
)
class CurrentGameView(EventMixin, APIView):
    """No secret before its time: the rack from the opening, the tops from adjudication."""

    def get_permissions(self) -> list[BasePermission]:
        return [p() for p in arbitrator_or_player()]

    def get(self, request: Request, event_id: int) -> Response:
        event = self.get_event()
        view = public_view(event, live_versions(event).public)
        if view is None:
            raise NotFound(_("no game has been started in this event yet"))
        return Response(GameViewSerializer(view).data)
