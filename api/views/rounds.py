"""A round from its draw to its placement: open, close, reopen, the clock, publish, undo a
placement, rule again, the top chosen and placed; its watch, its review, one ruling."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import (
    IsEventArbitrator,
    is_arbitrator,
)
from api.serializers.games import GameOverSerializer
from api.serializers.rounds import (
    AddTimeInputSerializer,
    DrawInputSerializer,
    OpenInputSerializer,
    PlaceInputSerializer,
    PlaceResultSerializer,
    ReopenInputSerializer,
    RoundSerializer,
    TopChoiceSerializer,
    TopInputSerializer,
)
from api.serializers.rulings import ReviewSerializer, RoundRulingSerializer, RulingQuerySerializer
from api.serializers.slips import SlipWatchSerializer
from api.views.base import (
    ARBITRATOR,
    ERRORS,
    NUMBER,
    EventMixin,
    arbitrator_or_player,
    fresh,
)
from tournaments.core import ApplicationError
from tournaments.models import Game
from tournaments.selectors.games import results_shown
from tournaments.selectors.review import round_review, round_ruling
from tournaments.selectors.slips import slip_watch
from tournaments.services.games import round_draw
from tournaments.services.rounds import (
    round_add_time,
    round_close,
    round_open,
    round_pause,
    round_place,
    round_publish,
    round_reopen,
    round_resume,
    round_unplace,
    top_choose,
)
from tournaments.services.watchdog import round_rule_again


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
        round = round_draw(
            game=game,
            by=request.user,
            typed=data.validated_data.get("typed"),
            rejected=tuple(data.validated_data["rejected"]),
        )
        if round is None:
            game.refresh_from_db()
            return Response(GameOverSerializer({"game_over": True, "game": game}).data)
        return Response(
            RoundSerializer(fresh(round), context=ARBITRATOR).data, status=status.HTTP_201_CREATED
        )


@extend_schema(tags=["rounds"], responses={200: RoundSerializer, **ERRORS})
class CurrentRoundView(EventMixin, APIView):
    """The current round. The tops are the arbitrator's until the round is adjudicated."""

    def get_permissions(self) -> list[BasePermission]:
        return [p() for p in arbitrator_or_player()]

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
        round = round_open(
            round=self.current_round(), by=request.user, seconds=data.validated_data.get("seconds")
        )
        return Response(RoundSerializer(fresh(round), context=ARBITRATOR).data)


@extend_schema(tags=["rounds"], request=None, responses={200: RoundSerializer, **ERRORS})
class CloseRoundView(EventMixin, APIView):
    """Close the current round (its slips are then adjudicated)."""

    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        round = round_close(round=self.current_round(), by=request.user)
        return Response(RoundSerializer(fresh(round), context=ARBITRATOR).data)


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
        round = round_reopen(
            round=self.current_round(),
            by=request.user,
            seconds=data.validated_data.get("seconds"),
            reason=data.validated_data.get("reason", ""),
        )
        return Response(RoundSerializer(fresh(round), context=ARBITRATOR).data)


@extend_schema(
    tags=["rounds"],
    summary="Hold the clock of the open round: the time left stops running down, no slip is late by it",
    request=None,
    responses={200: RoundSerializer, **ERRORS},
)
class PauseClockView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        round = round_pause(round=self.current_round(), by=request.user)
        return Response(RoundSerializer(fresh(round), context=ARBITRATOR).data)


@extend_schema(
    tags=["rounds"],
    summary="Start the held clock again with the time it had left",
    request=None,
    responses={200: RoundSerializer, **ERRORS},
)
class ResumeClockView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        round = round_resume(round=self.current_round(), by=request.user)
        return Response(RoundSerializer(fresh(round), context=ARBITRATOR).data)


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
        round = round_add_time(
            round=self.current_round(), by=request.user, seconds=data.validated_data["seconds"]
        )
        return Response(RoundSerializer(fresh(round), context=ARBITRATOR).data)


@extend_schema(
    tags=["rounds"],
    summary="Show the players the top and their rulings of the ruled round (placing shows them too)",
    request=None,
    responses={200: RoundSerializer, **ERRORS},
)
class PublishView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        round = round_publish(round=self.current_round(), by=request.user)
        return Response(RoundSerializer(fresh(round), context=ARBITRATOR).data)


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
        round = round_unplace(game=self.current_game(), by=request.user)
        return Response(RoundSerializer(fresh(round), context=ARBITRATOR).data)


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
        round = round_rule_again(round=self.current_round(), by=request.user)
        return Response(RoundSerializer(fresh(round), context=ARBITRATOR).data)


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
        choice = top_choose(
            round=self.current_round(),
            move_text=data.validated_data["move"],
            by=request.user,
            confirm_lower=data.validated_data["confirm_lower"],
        )
        body = {"round": fresh(choice.round), "warning": choice.warning}
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
        following = round_place(
            round=round,
            by=request.user,
            draw_next=fields["draw_next"],
            typed=fields.get("typed"),
            rejected=tuple(fields["rejected"]),
        )
        round.game.refresh_from_db()
        body = {
            "placed": fresh(round),
            "next": fresh(following) if following is not None else None,
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
        return Response(SlipWatchSerializer(slip_watch(self.current_round())).data)


@extend_schema(
    tags=["rulings"],
    summary="The rulings of the adjudicated round, grouped by move",
    responses={200: ReviewSerializer, **ERRORS},
)
class ReviewView(EventMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def get(self, request: Request, event_id: int) -> Response:
        review = round_review(self.ruled_round())
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
        return [p() for p in arbitrator_or_player()]

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
        if not is_arbitrator(request, event) and not results_shown(round):
            raise ApplicationError(
                _("the results of round %(number)s are being checked by the arbitrator")
                % {"number": round.number},
                {"reason": "not_published", "state": round.state},
            )
        ruling = round_ruling(round, table)
        if ruling is None:
            raise NotFound(_("no ruling for table %(table)s in this round") % {"table": table})
        return Response(RoundRulingSerializer(ruling, context={"event": event}).data)
