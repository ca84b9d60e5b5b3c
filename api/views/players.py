"""The players of an event: a phone joining its table, the list, an import, one player,
withdrawn or released, a new seat code; the phones asking for a table."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from api.permissions import (
    IsEventArbitrator,
)
from api.serializers.players import (
    ArbitratorPlayerSerializer,
    JoinInputSerializer,
    JoinOutputSerializer,
    JoinRequestSerializer,
    PlayerInputSerializer,
    PlayerSerializer,
    PlayersImportSerializer,
    PlayerUpdateSerializer,
    ReleaseSerializer,
    WithdrawInputSerializer,
)
from api.views.base import (
    ERRORS,
    EventMixin,
)
from plumbing.middleware import client_address
from tournaments.models import Player, PlayerToken
from tournaments.selectors.players import event_players, join_requests
from tournaments.services.players import (
    PLAYER_FIELDS,
    join_number,
    player_add,
    player_join_confirm,
    player_join_refuse,
    player_release,
    player_remove,
    player_token_issue,
    player_update,
    player_withdraw,
    players_import,
    seat_code_renew,
)


@extend_schema(
    tags=["players"],
    request=JoinInputSerializer,
    responses={201: JoinOutputSerializer, 202: JoinOutputSerializer, **ERRORS},
    auth=[],
)
class JoinView(EventMixin, APIView):
    """Join an event with its code and the seat code of the table card: returns the
    player token of that table (201). With a table number instead, where the event lets
    the arbitrator confirm joins: the token, which works once confirmed (202)."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "join"

    def post(self, request: Request, event_id: int) -> Response:
        data = JoinInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        token = player_token_issue(
            event=self.get_event(),
            code=data.validated_data["code"],
            seat=data.validated_data["seat"],
            table=data.validated_data["table"],
            address=client_address(request),
            device=request.headers.get("User-Agent", ""),
        )
        confirmed = token.confirmed_at is not None
        body = {
            "token": token.key,
            "player": PlayerSerializer(token.player).data,
            "confirmed": confirmed,
            "number": join_number(token),
        }
        return Response(
            JoinOutputSerializer(body).data,
            status=status.HTTP_201_CREATED if confirmed else status.HTTP_202_ACCEPTED,
        )


class PlayersView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    @extend_schema(
        tags=["players"],
        summary="The players of the event, by table",
        responses={200: ArbitratorPlayerSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, event_id: int) -> Response:
        players = event_players(self.get_event())
        return Response(ArbitratorPlayerSerializer(players, many=True).data)

    @extend_schema(
        tags=["players"],
        summary="Add a player (at the next free table unless one is given)",
        request=PlayerInputSerializer,
        responses={201: ArbitratorPlayerSerializer, **ERRORS},
    )
    def post(self, request: Request, event_id: int) -> Response:
        data = PlayerInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_add(event=self.get_event(), by=request.user, **data.validated_data)
        return Response(ArbitratorPlayerSerializer(player).data, status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["players"],
    summary="Import players from CSV text: all or nothing, a refusal names the bad line",
    request=PlayersImportSerializer,
    responses={201: ArbitratorPlayerSerializer(many=True), **ERRORS},
)
class PlayersImportView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        data = PlayersImportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        players = players_import(event=self.get_event(), csv_text=data.validated_data["csv"], by=request.user)
        return Response(ArbitratorPlayerSerializer(players, many=True).data, status=status.HTTP_201_CREATED)


class PlayerView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def _player(self, player_id: int) -> Player:
        return get_object_or_404(Player, pk=player_id, event=self.get_event())

    @extend_schema(
        tags=["players"], summary="One player", responses={200: ArbitratorPlayerSerializer, **ERRORS}
    )
    def get(self, request: Request, event_id: int, player_id: int) -> Response:
        return Response(ArbitratorPlayerSerializer(self._player(player_id)).data)

    @extend_schema(
        tags=["players"],
        summary="Correct a player (the table only before their first slip)",
        request=PlayerUpdateSerializer,
        responses={200: ArbitratorPlayerSerializer, **ERRORS},
    )
    def patch(self, request: Request, event_id: int, player_id: int) -> Response:
        player = self._player(player_id)
        data = PlayerUpdateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = {key: getattr(player, key) for key in PLAYER_FIELDS} | data.validated_data
        player = player_update(player=player, by=request.user, **values)
        return Response(ArbitratorPlayerSerializer(player).data)

    @extend_schema(
        tags=["players"],
        summary="Remove a player who has handed in no slip (withdraw one who has)",
        request=None,
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, event_id: int, player_id: int) -> Response:
        player_remove(player=self._player(player_id), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(
    tags=["players"],
    summary="Withdraw a player from the rounds opened from now on, or bring them back",
    request=WithdrawInputSerializer,
    responses={200: ArbitratorPlayerSerializer, **ERRORS},
)
class PlayerWithdrawView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int, player_id: int) -> Response:
        player = get_object_or_404(Player, pk=player_id, event=self.get_event())
        data = WithdrawInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_withdraw(player=player, by=request.user, withdrawn=data.validated_data["withdrawn"])
        return Response(ArbitratorPlayerSerializer(player).data)


@extend_schema(
    tags=["players"],
    summary="Release a table: its phone's token stops working, the table may join again",
    request=None,
    responses={200: ReleaseSerializer, **ERRORS},
)
class PlayerReleaseView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int, player_id: int) -> Response:
        player = get_object_or_404(Player, pk=player_id, event=self.get_event())
        revoked = player_release(player=player, by=request.user)
        return Response(ReleaseSerializer({"revoked": revoked}).data)


@extend_schema(
    tags=["players"],
    summary="A new seat code for a table whose card others saw: the old one and its phone stop",
    request=None,
    responses={200: ArbitratorPlayerSerializer, **ERRORS},
)
class PlayerSeatCodeView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int, player_id: int) -> Response:
        player = get_object_or_404(Player, pk=player_id, event=self.get_event())
        player = seat_code_renew(player=player, by=request.user)
        return Response(ArbitratorPlayerSerializer(player).data)


def _join_request(token: PlayerToken) -> dict[str, Any]:
    return {
        "id": token.pk,
        "player": token.player_id,
        "table": token.player.table,
        "name": token.player.name,
        "number": join_number(token),
        "asked_at": token.created_at,
        "address": token.address,
        "device": token.device,
    }


@extend_schema(
    tags=["players"],
    summary="The phones waiting for the arbitrator's confirmation, the first asked first",
    responses={200: JoinRequestSerializer(many=True), **ERRORS},
)
class JoinRequestsView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def get(self, request: Request, event_id: int) -> Response:
        waiting = [_join_request(t) for t in join_requests(self.get_event())]
        return Response(JoinRequestSerializer(waiting, many=True).data)


class JoinRequestView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]
    #: Set by the URL: confirm or refuse.
    confirm = True

    def token(self, token_id: int) -> PlayerToken:
        return get_object_or_404(
            PlayerToken.objects.select_related("player"),
            pk=token_id,
            player__event=self.get_event(),
            confirmed_at__isnull=True,
        )

    @extend_schema(
        tags=["players"],
        summary="Confirm (…/confirm/) or refuse (…/refuse/) a waiting phone",
        request=None,
        responses={204: None, **ERRORS},
    )
    def post(self, request: Request, event_id: int, token_id: int) -> Response:
        token = self.token(token_id)
        if self.confirm:
            player_join_confirm(token=token, by=request.user)
        else:
            player_join_refuse(token=token, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
