"""Endpoints nested under the event. Every write goes through a service."""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.fields import IntegerField
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from api import auth
from api.parsers import BodyRefused, JSONParser, parse_json
from api.permissions import (
    IsEventArbitrator,
    IsEventPlayer,
    MayTryMoves,
    event_player_token,
    is_arbitrator,
    tries_allowed,
)
from api.serializers import (
    MAX_NUMBER,
    MAX_PAGE_SIZE,
    PAGE_SIZE,
    AcceptShiftInputSerializer,
    AddTimeInputSerializer,
    ArbitratorPlayerSerializer,
    DrawInputSerializer,
    ErrorSerializer,
    EventSerializer,
    GameEndInputSerializer,
    GameOverSerializer,
    GameSerializer,
    GameViewSerializer,
    HistoryEntrySerializer,
    JoinInputSerializer,
    JoinOutputSerializer,
    JoinRequestSerializer,
    LiveSerializer,
    MoveInputSerializer,
    OpenInputSerializer,
    OverrideInputSerializer,
    PageQuerySerializer,
    PlaceInputSerializer,
    PlaceResultSerializer,
    PlayerInputSerializer,
    PlayerSerializer,
    PlayersImportSerializer,
    PlayerUpdateSerializer,
    PreviewSerializer,
    ReleaseSerializer,
    ReopenInputSerializer,
    ReviewSerializer,
    RoundRulingSerializer,
    RoundSerializer,
    RulingQuerySerializer,
    SlipInputSerializer,
    SlipReceiptSerializer,
    SlipSerializer,
    SlipWatchSerializer,
    StandingsQuerySerializer,
    StandingsSerializer,
    TokenInputSerializer,
    TokenSerializer,
    TopChoiceSerializer,
    TopInputSerializer,
    WithdrawInputSerializer,
)
from plumbing.middleware import client_address, received_at
from scoring.standings import to_dict
from tournaments import judging, selectors, services
from tournaments.core import MAX_ANNOUNCED
from tournaments.models import Event, Game, HistoryEntry, Player, PlayerToken, Round, Ruling, Slip
from tournaments.services import ApplicationError
from tournaments.standings import counted_round_numbers, event_standings, game_standings

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
        round = selectors.current_round(self.get_event())
        if round is None:
            raise NotFound(_("no round has been drawn in this event yet"))
        return round

    def ruled_round(self) -> Round:
        """The current round once adjudicated: before, its rulings do not exist or are
        being written."""
        round = self.current_round()
        if round.state not in selectors.RULED:
            raise ApplicationError(
                _("round %(number)s is not adjudicated yet") % {"number": round.number},
                {"reason": "not_adjudicated", "state": round.state},
            )
        return round

    def current_game(self) -> Game:
        game = selectors.current_game(self.get_event())
        if game is None:
            raise NotFound(_("no game has been started in this event yet"))
        return game

    def token_player(self, request: Request) -> Player:
        token = event_player_token(request, self.get_event())
        assert token is not None  # IsEventPlayer
        return token.player


def _arbitrator_or_player() -> list[type[BasePermission]]:
    return [IsEventArbitrator | IsEventPlayer]  # type: ignore[list-item]


#: The serializer context of the arbitrator's answers: the round's secrets included.
ARBITRATOR = {"arbitrator": True}


def _fresh(round: Round) -> Round:
    """A round re-read after a service: the solver and the adjudication run on commit
    (in-process when tasks are eager), so the instance the service returned may be stale."""
    round.refresh_from_db()
    return round


# ------------------------------------------------------------------ login


@extend_schema(
    tags=["auth"],
    summary="An arbitrator's token for a username and password",
    description='Send it as "Authorization: Token <token>". A wrong username or password is a 400.',
    request=TokenInputSerializer,
    responses={200: TokenSerializer, 400: ERRORS[400]},
    auth=[],
)
class TokenView(ObtainAuthToken):
    """DRF's token login with the API's parsers, and no authentication of its own: a stale
    token in the header must not refuse a login."""

    authentication_classes: list[Any] = []
    parser_classes = [JSONParser, FormParser, MultiPartParser]
    serializer_class = TokenInputSerializer


# ------------------------------------------------------------------ events


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
    tags=["events"],
    summary="Version stamps to poll: refetch the game or the round only when they change",
    responses={200: LiveSerializer, **ERRORS},
)
class LiveView(EventMixin, APIView):
    """Two small queries and no throttle: every phone polls it every few seconds."""

    throttle_classes: list[Any] = []

    def get_permissions(self) -> list[BasePermission]:
        return [p() for p in _arbitrator_or_player()]

    def get(self, request: Request, event_id: int) -> Response:
        event = self.get_event()
        body: dict[str, Any] = dataclasses.asdict(selectors.live_versions(event))
        body["now"] = timezone.now()
        if not is_arbitrator(request, event):
            del body["full"]  # it moves with every slip: the arbitrator's business
        return Response(LiveSerializer(body).data)


class HistoryPagination(LimitOffsetPagination):
    """Always a page, ``limit`` given or not (the schema's shape); a limit or an offset out
    of bounds is refused like any query (DRF would quietly take its default instead)."""

    default_limit = PAGE_SIZE
    max_limit = MAX_PAGE_SIZE

    def _query(self, request: Request) -> dict[str, int]:
        query = PageQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        return dict(query.validated_data)

    def get_limit(self, request: Request) -> int:
        return self._query(request)["limit"]

    def get_offset(self, request: Request) -> int:
        return self._query(request)["offset"]

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        fields = PageQuerySerializer().fields
        for parameter in parameters:
            field = fields[parameter["name"]]
            assert isinstance(field, IntegerField)
            bounds = {"minimum": field.min_value, "maximum": field.max_value, "default": field.default}
            parameter["schema"].update(bounds)
        return parameters


@extend_schema(tags=["events"], responses={200: HistoryEntrySerializer(many=True), **ERRORS})
class HistoryView(EventMixin, generics.ListAPIView[HistoryEntry]):
    """Every change to the event's draws, slips and rulings, newest first, a page at a time
    (100 entries without ``limit``, 1,000 at most: ``count`` says how many in all)."""

    serializer_class = HistoryEntrySerializer
    pagination_class = HistoryPagination
    permission_classes = [IsEventArbitrator]

    def get_queryset(self) -> Any:
        return selectors.event_history(self.get_event())


# ------------------------------------------------------------------ players


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
        token = services.player_token_issue(
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
            "number": services.join_number(token),
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
        players = selectors.event_players(self.get_event())
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
        player = services.player_add(event=self.get_event(), by=request.user, **data.validated_data)
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
        players = services.players_import(
            event=self.get_event(), csv_text=data.validated_data["csv"], by=request.user
        )
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
        values = {key: getattr(player, key) for key in services.PLAYER_FIELDS} | data.validated_data
        player = services.player_update(player=player, by=request.user, **values)
        return Response(ArbitratorPlayerSerializer(player).data)

    @extend_schema(
        tags=["players"],
        summary="Remove a player who has handed in no slip (withdraw one who has)",
        request=None,
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, event_id: int, player_id: int) -> Response:
        services.player_remove(player=self._player(player_id), by=request.user)
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
        player = services.player_withdraw(
            player=player, by=request.user, withdrawn=data.validated_data["withdrawn"]
        )
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
        revoked = services.player_release(player=player, by=request.user)
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
        player = services.seat_code_renew(player=player, by=request.user)
        return Response(ArbitratorPlayerSerializer(player).data)


def _join_request(token: PlayerToken) -> dict[str, Any]:
    return {
        "id": token.pk,
        "player": token.player_id,
        "table": token.player.table,
        "name": token.player.name,
        "number": services.join_number(token),
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
        waiting = [_join_request(t) for t in selectors.join_requests(self.get_event())]
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
            services.player_join_confirm(token=token, by=request.user)
        else:
            services.player_join_refuse(token=token, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# ------------------------------------------------------------------ games


@extend_schema(
    tags=["games"],
    summary="Start the next game (refused while one is being played)",
    request=None,
    responses={201: GameSerializer, **ERRORS},
)
class GamesView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        game = services.game_start(event=self.get_event(), by=request.user)
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
        game = services.game_end(
            game=self.current_game(), reason=data.validated_data["reason"], by=request.user
        )
        return Response(GameSerializer(game).data)


@extend_schema(
    tags=["games"],
    summary="The current game as the phones show it: board, rack once open, letters to come",
    responses={200: GameViewSerializer, **ERRORS},
)
class CurrentGameView(EventMixin, APIView):
    """No secret before its time: the rack from the opening, the tops from adjudication."""

    def get_permissions(self) -> list[BasePermission]:
        return [p() for p in _arbitrator_or_player()]

    def get(self, request: Request, event_id: int) -> Response:
        event = self.get_event()
        view = selectors.public_view(event, selectors.live_versions(event).public)
        if view is None:
            raise NotFound(_("no game has been started in this event yet"))
        return Response(GameViewSerializer(view).data)


# ------------------------------------------------------------------ rounds


@extend_schema(
    tags=["rounds"],
    summary="Draw the next rack, at random or typed from a physical draw",
    request=DrawInputSerializer,
    responses={
        201: RoundSerializer,
        200: OpenApiResponse(GameOverSerializer, description="the draw rule ended the game"),
        **ERRORS,
    },
)
class DrawView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        data = DrawInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = self.current_game()
        round = services.round_draw(
            game=game,
            by=request.user,
            typed=data.validated_data.get("typed"),
            rejected=tuple(data.validated_data["rejected"]),
        )
        if round is None:
            game.refresh_from_db()
            return Response(GameOverSerializer({"game_over": True, "game": game}).data)
        return Response(
            RoundSerializer(_fresh(round), context=ARBITRATOR).data, status=status.HTTP_201_CREATED
        )


@extend_schema(tags=["rounds"], responses={200: RoundSerializer, **ERRORS})
class CurrentRoundView(EventMixin, APIView):
    """The current round. The tops are the arbitrator's until the round is adjudicated."""

    def get_permissions(self) -> list[BasePermission]:
        return [p() for p in _arbitrator_or_player()]

    def get(self, request: Request, event_id: int) -> Response:
        context = {"arbitrator": is_arbitrator(request, self.get_event())}
        return Response(RoundSerializer(self.current_round(), context=context).data)


@extend_schema(
    tags=["rounds"],
    summary="Open the current round: the rack is shown and the clock starts",
    request=OpenInputSerializer,
    responses={200: RoundSerializer, **ERRORS},
)
class OpenRoundView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        data = OpenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round = services.round_open(
            round=self.current_round(), by=request.user, seconds=data.validated_data.get("seconds")
        )
        return Response(RoundSerializer(_fresh(round), context=ARBITRATOR).data)


@extend_schema(tags=["rounds"], request=None, responses={200: RoundSerializer, **ERRORS})
class CloseRoundView(EventMixin, APIView):
    """Close the current round (its slips are then adjudicated)."""

    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        round = services.round_close(round=self.current_round(), by=request.user)
        return Response(RoundSerializer(_fresh(round), context=ARBITRATOR).data)


@extend_schema(
    tags=["rounds"],
    summary="Open again the current round, closed and not placed (its slips and rulings are kept)",
    request=ReopenInputSerializer,
    responses={200: RoundSerializer, **ERRORS},
)
class ReopenRoundView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        data = ReopenInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round = services.round_reopen(
            round=self.current_round(),
            by=request.user,
            seconds=data.validated_data.get("seconds"),
            reason=data.validated_data.get("reason", ""),
        )
        return Response(RoundSerializer(_fresh(round), context=ARBITRATOR).data)


@extend_schema(
    tags=["rounds"],
    summary="Hold the clock of the open round: the time left stops running down, no slip is late by it",
    request=None,
    responses={200: RoundSerializer, **ERRORS},
)
class PauseClockView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        round = services.round_pause(round=self.current_round(), by=request.user)
        return Response(RoundSerializer(_fresh(round), context=ARBITRATOR).data)


@extend_schema(
    tags=["rounds"],
    summary="Start the held clock again with the time it had left",
    request=None,
    responses={200: RoundSerializer, **ERRORS},
)
class ResumeClockView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        round = services.round_resume(round=self.current_round(), by=request.user)
        return Response(RoundSerializer(_fresh(round), context=ARBITRATOR).data)


@extend_schema(
    tags=["rounds"],
    summary="Give the players more time (refused once the time is up: close and reopen instead)",
    request=AddTimeInputSerializer,
    responses={200: RoundSerializer, **ERRORS},
)
class AddTimeView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        data = AddTimeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round = services.round_add_time(
            round=self.current_round(), by=request.user, seconds=data.validated_data["seconds"]
        )
        return Response(RoundSerializer(_fresh(round), context=ARBITRATOR).data)


@extend_schema(
    tags=["rounds"],
    summary="Show the players the top and their rulings of the ruled round (placing shows them too)",
    request=None,
    responses={200: RoundSerializer, **ERRORS},
)
class PublishView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        round = services.round_publish(round=self.current_round(), by=request.user)
        return Response(RoundSerializer(_fresh(round), context=ARBITRATOR).data)


@extend_schema(
    tags=["rounds"],
    summary="Undo the game's last placement: the move leaves the board, the rack drawn after it "
    "goes back to the bag (refused once slips were handed in for it)",
    request=None,
    responses={200: RoundSerializer, **ERRORS},
)
class UndoPlacementView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        round = services.round_unplace(game=self.current_game(), by=request.user)
        return Response(RoundSerializer(_fresh(round), context=ARBITRATOR).data)


@extend_schema(
    tags=["rounds"],
    summary="Rule the slips of the closed current round again",
    request=None,
    responses={200: RoundSerializer, **ERRORS},
)
class RuleAgainView(EventMixin, APIView):
    """For a round whose rulings do not come (its worker died, the broker was down) or
    after a word list was fixed: a worker rules its slips anew, the corrections kept. The
    round answers closed until the new rulings are written."""

    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        round = services.round_rule_again(round=self.current_round(), by=request.user)
        return Response(RoundSerializer(_fresh(round), context=ARBITRATOR).data)


@extend_schema(
    tags=["rounds"],
    summary="Choose the move placed for everyone among the moves of the current round",
    request=TopInputSerializer,
    responses={200: TopChoiceSerializer, **ERRORS},
)
class TopView(EventMixin, APIView):
    """A move scoring less than the top is refused (detail.warning) unless confirmed."""

    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        data = TopInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        choice = services.top_choose(
            round=self.current_round(),
            move_text=data.validated_data["move"],
            by=request.user,
            confirm_lower=data.validated_data["confirm_lower"],
        )
        body = {"round": _fresh(choice.round), "warning": choice.warning}
        return Response(TopChoiceSerializer(body, context=ARBITRATOR).data)


@extend_schema(
    tags=["rounds"],
    summary="Place the chosen move (else the automatic top) and draw the next rack",
    request=PlaceInputSerializer,
    responses={200: PlaceResultSerializer, **ERRORS},
)
class PlaceView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        data = PlaceInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round = self.current_round()
        fields = data.validated_data
        following = services.round_place(
            round=round,
            by=request.user,
            draw_next=fields["draw_next"],
            typed=fields.get("typed"),
            rejected=tuple(fields["rejected"]),
        )
        round.game.refresh_from_db()
        body = {
            "placed": _fresh(round),
            "next": _fresh(following) if following is not None else None,
            "game_over": round.game.state == Game.State.ENDED,
        }
        return Response(PlaceResultSerializer(body, context=ARBITRATOR).data)


@extend_schema(
    tags=["rounds"],
    summary="The slips of the open round: who has handed in, who has not",
    responses={200: SlipWatchSerializer, **ERRORS},
)
class WatchView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def get(self, request: Request, event_id: int) -> Response:
        return Response(SlipWatchSerializer(selectors.slip_watch(self.current_round())).data)


@extend_schema(
    tags=["rulings"],
    summary="The rulings of the adjudicated round, grouped by move",
    responses={200: ReviewSerializer, **ERRORS},
)
class ReviewView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def get(self, request: Request, event_id: int) -> Response:
        review = selectors.round_review(self.ruled_round())
        context = {**ARBITRATOR, "event": self.get_event()}
        return Response(ReviewSerializer(review, context=context).data)


@extend_schema(
    tags=["rulings"],
    summary="A player's ruling of the adjudicated round: the caller's own, any table for the arbitrator",
    parameters=[OpenApiParameter("table", NUMBER, description="arbitrator only, and required then")],
    responses={200: RoundRulingSerializer, **ERRORS},
)
class RoundRulingView(EventMixin, APIView):
    def get_permissions(self) -> list[BasePermission]:
        return [p() for p in _arbitrator_or_player()]

    def get(self, request: Request, event_id: int) -> Response:
        event = self.get_event()
        query = RulingQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        table: int | None = query.validated_data.get("table")
        if is_arbitrator(request, event):
            if table is None:
                raise ValidationError({"table": [_("give the table of the player")]})
        else:
            own = self.token_player(request).table
            if table is not None and table != own:
                raise PermissionDenied(_("a player sees only their own ruling"))
            table = own
        round = self.ruled_round()
        if not is_arbitrator(request, event) and not selectors.results_shown(round):
            raise ApplicationError(
                _("the results of round %(number)s are being checked by the arbitrator")
                % {"number": round.number},
                {"reason": "not_published", "state": round.state},
            )
        ruling = selectors.round_ruling(round, table)
        if ruling is None:
            raise NotFound(_("no ruling for table %(table)s in this round") % {"table": table})
        return Response(RoundRulingSerializer(ruling, context={"event": event}).data)


# ------------------------------------------------------------------ slips


class RoundSlipsView(EventMixin, APIView):
    throttle_classes = [SlipThrottle]
    throttle_scope = "slips"

    def get_permissions(self) -> list[BasePermission]:
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
            slips = selectors.round_slips(round, player_id=self.token_player(request).pk)
        return Response(SlipSerializer(slips, many=True).data)

    @extend_schema(
        tags=["slips"],
        summary="Hand in a slip: a player's own, or a paper slip typed by the arbitrator for a table "
        "(the same client_id twice is one slip)",
        request=SlipInputSerializer,
        responses={201: SlipReceiptSerializer, 200: SlipReceiptSerializer, **ERRORS},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = self.get_event()
        data = SlipInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        # A player's slip is the token's player's whatever the body says: the table is dropped.
        table: int | None = fields.pop("table", None)
        second: str | None = fields.pop("second", None)
        sent_at: dt.datetime | None = fields.pop("sent_at", None)
        game, number = fields.pop("game", None), fields.pop("round", None)
        fields["for_round"] = (game, number) if game is not None else None
        if is_arbitrator(request, event):
            if table is None:
                raise ValidationError({"table": [_("the table of the paper slip is required")]})
            player = selectors.player_at_table(event, table)
            if player is None:
                raise ValidationError({"table": [_("no player at table %(table)s") % {"table": table}]})
            # Collected by the deadline, typed later: the service dates it like the console.
            result = services.paper_slip_submit(
                round=self.current_round(), player=player, by=request.user, second=second, **fields
            )
        else:
            try:
                result = services.slip_submit(
                    event=event,  # its current round, read under the lock
                    player=self.token_player(request),
                    source=Slip.Source.PHONE,
                    # When the request reached the server: waiting in it costs the phone nothing.
                    now=received_at(request),
                    sent_at=sent_at,
                    **fields,
                )
            except services.NoRoundError as exc:
                raise NotFound(exc.message) from exc
        return Response(
            slip_receipt(result), status=status.HTTP_201_CREATED if result.created else status.HTTP_200_OK
        )


def slip_receipt(result: services.SubmitResult) -> Any:
    receipt = {
        "id": result.slip.pk,
        "received_at": result.slip.received_at,
        "late": result.slip.late,
        "late_reason": services.late_reason(result.slip),
        "current": result.slip.current,
        "created": result.created,
        "invalid_words": result.invalid_words,
    }
    return _RECEIPT.to_representation(receipt)


#: Bound once: a serializer made per slip copies its fields each time (a tenth of a
#: millisecond of a hall's slip); its representation keeps no state.
_RECEIPT = SlipReceiptSerializer()


_round_slips_view = RoundSlipsView.as_view()
#: The body of a phone's slip that the quick path reads; anything else takes DRF's.
#: Larger than any phone's slip (about 200 bytes): such a body is DRF's to read or refuse.
PHONE_SLIP_BYTES = 4096
_PHONE_SLIP_KEYS = frozenset(
    {"coordinates", "word", "announced_score", "client_id", "game", "round", "sent_at"}
)


def _text(body: dict[str, Any], name: str, longest: int, default: str | None = None) -> str | None:
    """A text field as the serializer reads it (trimmed, then measured), or None where the
    serializer could answer otherwise than by accepting it (DRF's path then says why)."""
    value = body.get(name, default)
    if not isinstance(value, str):
        return None
    value = value.strip()
    if len(value) > longest or "\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value):
        return None
    return value


def _number(value: Any, lowest: int, highest: int) -> bool:
    return type(value) is int and lowest <= value <= highest


def phone_slip_of(request: HttpRequest, event_id: int) -> services.PhoneSlip | None:
    """A phone's slip for the quick path (:mod:`tournaments.services.phone_slips`): the same
    body as :class:`RoundSlipsView` reads, read without DRF's machinery (a hall's slips spent
    more CPU there than in the slip itself). None: not the plain case, DRF's view takes it
    (and refuses it, throttles it, or records it otherwise)."""
    parts = request.META.get("HTTP_AUTHORIZATION", "").split()
    if (
        len(parts) != 2
        or parts[0].lower() != auth.KEYWORD.lower()
        or request.content_type != "application/json"
    ):
        return None
    try:
        if int(request.META.get("CONTENT_LENGTH") or 0) > PHONE_SLIP_BYTES:
            return None
        body = parse_json(request.body.decode("utf-8"))
    except (ValueError, BodyRefused):  # UnicodeDecodeError is a ValueError
        return None
    if not isinstance(body, dict) or not body.keys() <= _PHONE_SLIP_KEYS:
        return None
    coordinates, word = _text(body, "coordinates", 20), _text(body, "word", 40)
    client_id = _text(body, "client_id", 64, default="")
    announced = body.get("announced_score")
    game, number = body.get("game"), body.get("round")
    if coordinates is None or word is None or client_id is None:
        return None
    if announced is not None and not _number(announced, 0, MAX_ANNOUNCED):
        return None
    if (game, number) != (None, None) and not (
        _number(game, 1, MAX_NUMBER) and _number(number, 1, MAX_NUMBER)
    ):
        return None
    sent_at = None
    if "sent_at" in body:
        sent_at = parse_datetime(body["sent_at"]) if isinstance(body["sent_at"], str) else None
        if sent_at is None or sent_at.tzinfo is None:
            return None
    return services.PhoneSlip(
        key=parts[1],
        event_id=event_id,
        coordinates=coordinates,
        word=word,
        announced_score=announced,
        client_id=client_id,
        for_round=None if game is None or number is None else (int(game), int(number)),
        received=received_at(request),
        sent_at=sent_at,
    )


#: The request's attribute holding a slip the server recorded before Django saw the request
#: (on the event loop, arbiter/hall.py): the view answers with its receipt.
RECORDED = "arbiter_recorded_slip"


def _phone_slip(request: HttpRequest, event_id: int) -> HttpResponse | None:
    """A phone's plain slip recorded by the quick path, and its receipt; None: DRF's view."""
    result: services.SubmitResult | None = getattr(request, RECORDED, None)
    if result is None:
        slip = phone_slip_of(request, event_id)
        result = None if slip is None else services.phone_slip(slip)
    if result is None:
        return None
    return HttpResponse(
        JSONRenderer().render(slip_receipt(result)),
        content_type="application/json",
        status=status.HTTP_201_CREATED,
        headers={"Vary": "Accept"},
    )


@functools.wraps(_round_slips_view)  # DRF's view as the schema and the URL see it
def round_slips(request: HttpRequest, event_id: int) -> HttpResponseBase:
    """The slips of the current round: a phone's plain slip by the quick path, the rest by DRF."""
    if request.method == "POST":
        quick = _phone_slip(request, event_id)
        if quick is not None:
            return quick
    return _round_slips_view(request, event_id=event_id)


@extend_schema(
    tags=["slips"],
    summary="Try Move: what a slip would score on the current board, nothing stored",
    request=MoveInputSerializer,
    responses={200: PreviewSerializer, **ERRORS},
)
class PreviewView(EventMixin, APIView):
    """The arbitrator's calculator for paper slips; players may use it in the training
    modes, while the round is open."""

    throttle_classes = [PreviewThrottle]
    throttle_scope = "slips"

    permission_classes = [MayTryMoves]

    def post(self, request: Request, event_id: int) -> Response:
        data = MoveInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        round = self.current_round()
        if not is_arbitrator(request, self.get_event()) and not tries_allowed(round, timezone.now()):
            raise PermissionDenied(_("a player may try a move only while the round is open"))
        preview = judging.move_preview(
            round,
            data.validated_data["coordinates"],
            data.validated_data["word"],
            data.validated_data["announced_score"],
        )
        return Response(PreviewSerializer(preview).data)


# ------------------------------------------------------------------ rulings


class RulingMixin(EventMixin):
    def get_ruling(self) -> Ruling:
        ruling = selectors.event_ruling(self.get_event(), self.kwargs["ruling_id"])
        if ruling is None:
            raise NotFound(_("no such ruling in this event"))
        return ruling


@extend_schema(
    tags=["rulings"],
    summary="Correct a ruling: the credited score is required, and the reason is kept",
    request=OverrideInputSerializer,
    responses={200: RoundRulingSerializer, **ERRORS},
)
class OverrideView(RulingMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int, ruling_id: int) -> Response:
        data = OverrideInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ruling = services.ruling_override(ruling=self.get_ruling(), by=request.user, **data.validated_data)
        return Response(RoundRulingSerializer(ruling, context={"event": self.get_event()}).data)


@extend_schema(
    tags=["rulings"],
    summary="Accept a shifted reference: the nearby placement scores, less the shift penalty",
    request=AcceptShiftInputSerializer,
    responses={200: RoundRulingSerializer, **ERRORS},
)
class AcceptShiftView(RulingMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int, ruling_id: int) -> Response:
        data = AcceptShiftInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ruling = services.ruling_accept_shift(
            ruling=self.get_ruling(), by=request.user, reason=data.validated_data.get("reason")
        )
        return Response(RoundRulingSerializer(ruling, context={"event": self.get_event()}).data)


@extend_schema(
    tags=["rulings"],
    summary="Credit the average of the other players instead of a repeated 0 for the same word not "
    "in the list (FISF 5.9, docs/rules.md#average)",
    request=AcceptShiftInputSerializer,
    responses={200: RoundRulingSerializer, **ERRORS},
)
class AverageView(RulingMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int, ruling_id: int) -> Response:
        data = AcceptShiftInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ruling = services.ruling_average(
            ruling=self.get_ruling(), by=request.user, reason=data.validated_data.get("reason")
        )
        return Response(RoundRulingSerializer(ruling, context={"event": self.get_event()}).data)


# ------------------------------------------------------------------ standings


@extend_schema(
    tags=["standings"],
    parameters=[
        OpenApiParameter("game", NUMBER, description="a game number; the whole event without it"),
        OpenApiParameter("category", str, description="one category / series only"),
    ],
    responses={200: StandingsSerializer, **ERRORS},
)
class StandingsView(EventMixin, APIView):
    """The counted rounds (placed, or published). Players see them once a round of the game
    (or event) counts."""

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
                raise NotFound(_("game %(number)s does not exist") % {"number": number})
        if not is_arbitrator(request, event) and not selectors.has_counted_rounds(event, game_number=number):
            raise PermissionDenied(_("the standings are published with the first round's results"))
        after: int | None = query.validated_data.get("round")
        if after is not None and game is None:
            raise ValidationError(
                {"round": [_("the standings after a round are of one game: give the game")]}
            )
        if game is not None and after is not None and after not in counted_round_numbers(game):
            raise NotFound(_("round %(number)s has no results yet") % {"number": after})
        if game:
            rows = game_standings(game, category=category, after_round=after)
        else:
            rows = event_standings(event, category=category)
        body = {"game": number, "round": after, "category": category, "rows": [to_dict(row) for row in rows]}
        return Response(StandingsSerializer(body).data)


# ------------------------------------------------------------------ exports

#: The media type of each export (the JSON game record is sent as a JSON object).
EXPORT_MEDIA = {
    "standings": "text/csv",
    "slips": "text/csv",
    "record": "application/json",
    "gcg": "text/plain",
}


@extend_schema(
    tags=["exports"],
    summary="An export as the console's Sheets page gives it: standings or slips (CSV, semicolons,"
    " UTF-8 with BOM), the JSON game record or the GCG of a game",
    parameters=[
        OpenApiParameter(
            "kind", str, OpenApiParameter.PATH, enum=list(EXPORT_MEDIA), description="what to export"
        ),
        OpenApiParameter(
            "game", NUMBER, description="a game number; default: the whole event (standings), the last game"
        ),
    ],
    responses={
        (200, "text/csv"): OpenApiTypes.STR,
        (200, "application/json"): OpenApiTypes.OBJECT,
        (200, "text/plain"): OpenApiTypes.STR,
        **ERRORS,
    },
)
class ExportView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def get(self, request: Request, event_id: int, kind: str) -> HttpResponse:
        from tournaments import exports

        event = self.get_event()
        if kind not in EXPORT_MEDIA:
            raise NotFound(_("unknown export %(kind)s") % {"kind": kind})
        query = StandingsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        try:
            data = exports.export(kind, event, query.validated_data.get("game"))
        except ValueError as exc:
            raise NotFound(str(exc)) from exc
        charset = "" if kind == "record" else "; charset=utf-8"
        return HttpResponse(data, content_type=EXPORT_MEDIA[kind] + charset)
