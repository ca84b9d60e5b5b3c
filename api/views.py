"""Endpoints nested under the event. Every write goes through a service."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from api import selectors
from api import services as api_services
from api.models import PlayerToken
from api.permissions import IsEventArbitrator, IsEventPlayer, event_player_token, is_arbitrator
from api.serializers import (
    ErrorSerializer,
    EventSerializer,
    JoinInputSerializer,
    JoinOutputSerializer,
    PlayerSerializer,
    RoundSerializer,
    SlipInputSerializer,
    SlipReceiptSerializer,
    SlipSerializer,
    StandingsQuerySerializer,
    StandingsSerializer,
)
from scoring.selectors import event_standings, game_standings
from scoring.standings import to_dict
from tournaments import services
from tournaments.models import Event, Round, Slip

ERRORS = {code: OpenApiResponse(ErrorSerializer) for code in (400, 401, 403, 404, 429)}


class SlipThrottle(ScopedRateThrottle):
    """Per player token, on submissions only (reading the slips is not throttled)."""

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if request.method != "POST" or not isinstance(request.auth, PlayerToken):
            return None
        return self.cache_format % {"scope": self.scope, "ident": f"token-{request.auth.pk}"}


class EventMixin:
    kwargs: dict[str, Any]
    _event: Event | None = None

    def get_event(self) -> Event:
        if self._event is None:
            self._event = get_object_or_404(Event, pk=self.kwargs["event_id"])
        return self._event

    def current_round(self) -> Round:
        round = selectors.current_round(self.get_event())
        if round is None:
            raise NotFound("no round has been drawn in this event yet")
        return round


def _arbitrator_or_player() -> list[type[BasePermission]]:
    return [IsEventArbitrator | IsEventPlayer]  # type: ignore[list-item]


@extend_schema(tags=["events"], responses={200: EventSerializer(many=True), **ERRORS})
class EventListView(generics.ListAPIView[Event]):
    """The events of the caller: an arbitrator's own (all for staff), a player's one."""

    serializer_class = EventSerializer

    def get_queryset(self) -> Any:
        return selectors.events_for(user=self.request.user, token=self.request.auth)


@extend_schema(tags=["events"], responses={200: EventSerializer, **ERRORS})
class EventDetailView(EventMixin, APIView):
    def get_permissions(self) -> list[BasePermission]:
        return [p() for p in _arbitrator_or_player()]

    def get(self, request: Request, event_id: int) -> Response:
        return Response(EventSerializer(self.get_event()).data)


@extend_schema(
    tags=["players"],
    request=JoinInputSerializer,
    responses={201: JoinOutputSerializer, **ERRORS},
    auth=[],
)
class JoinView(EventMixin, APIView):
    """Join an event with its code and a table: returns the player token of that table."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "join"

    def post(self, request: Request, event_id: int) -> Response:
        data = JoinInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        token = api_services.player_token_issue(
            event=self.get_event(), code=data.validated_data["code"], table=data.validated_data["table"]
        )
        body = {"token": token.key, "player": PlayerSerializer(token.player).data}
        return Response(JoinOutputSerializer(body).data, status=status.HTTP_201_CREATED)


@extend_schema(tags=["rounds"], responses={200: RoundSerializer, **ERRORS})
class CurrentRoundView(EventMixin, APIView):
    """The current round. The tops are the arbitrator's until the round is adjudicated."""

    def get_permissions(self) -> list[BasePermission]:
        return [p() for p in _arbitrator_or_player()]

    def get(self, request: Request, event_id: int) -> Response:
        context = {"arbitrator": is_arbitrator(request, self.get_event())}
        return Response(RoundSerializer(self.current_round(), context=context).data)


class RoundSlipsView(EventMixin, APIView):
    throttle_classes = [SlipThrottle]
    throttle_scope = "slips"

    def get_permissions(self) -> list[BasePermission]:
        if self.request.method == "POST":
            return [IsEventPlayer()]
        return [p() for p in _arbitrator_or_player()]

    @extend_schema(
        tags=["slips"],
        summary="The slips of the current round: a player's own, or all for the arbitrator",
        responses={200: SlipSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = self.get_event()
        round = self.current_round()
        if is_arbitrator(request, event):
            slips = selectors.round_slips(round)
        else:
            token = event_player_token(request, event)
            assert token is not None  # IsEventPlayer
            slips = selectors.round_slips(round, player_id=token.player_id)
        return Response(SlipSerializer(slips, many=True).data)

    @extend_schema(
        tags=["slips"],
        summary="Hand in a slip for the token's player (the same client_id twice is one slip)",
        request=SlipInputSerializer,
        responses={201: SlipReceiptSerializer, 200: SlipReceiptSerializer, **ERRORS},
    )
    def post(self, request: Request, event_id: int) -> Response:
        token = event_player_token(request, self.get_event())
        assert token is not None  # IsEventPlayer
        data = SlipInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        result = services.slip_submit(
            round=self.current_round(),
            player=token.player,
            source=Slip.Source.PHONE,
            **data.validated_data,
        )
        receipt = {
            "id": result.slip.pk,
            "received_at": result.slip.received_at,
            "late": result.slip.late,
            "current": result.slip.current,
            "created": result.created,
            "invalid_words": result.invalid_words,
        }
        return Response(
            SlipReceiptSerializer(receipt).data,
            status=status.HTTP_201_CREATED if result.created else status.HTTP_200_OK,
        )


@extend_schema(tags=["rounds"], request=None, responses={200: RoundSerializer, **ERRORS})
class CloseRoundView(EventMixin, APIView):
    """Close the current round (its slips are then adjudicated)."""

    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        round = services.round_close(round=self.current_round(), by=request.user)
        round.refresh_from_db()
        return Response(RoundSerializer(round, context={"arbitrator": True}).data)


@extend_schema(
    tags=["standings"],
    parameters=[
        OpenApiParameter("game", int, description="a game number; the whole event without it"),
        OpenApiParameter("category", str, description="one category / series only"),
    ],
    responses={200: StandingsSerializer, **ERRORS},
)
class StandingsView(EventMixin, APIView):
    """Placed rounds only. Players see them once a round of the game (or event) is placed."""

    def get_permissions(self) -> list[BasePermission]:
        return [p() for p in _arbitrator_or_player()]

    def get(self, request: Request, event_id: int) -> Response:
        event = self.get_event()
        query = StandingsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        number: int | None = query.validated_data.get("game")
        category: str | None = query.validated_data.get("category")
        game = None
        if number is not None:
            game = event.games.filter(number=number).first()
            if game is None:
                raise NotFound(f"game {number} does not exist")
        if not is_arbitrator(request, event) and not selectors.has_placed_rounds(event, game_number=number):
            raise PermissionDenied("the standings are published once a round is placed")
        rows = game_standings(game, category=category) if game else event_standings(event, category=category)
        body = {"game": number, "category": category, "rows": [to_dict(row) for row in rows]}
        return Response(StandingsSerializer(body).data)
