"""The multiplex endpoints (docs/rules.md#multiplex).

On the hub, under ``/api/hub/``, the centres' software, authenticated by its centre
key (``Authorization: Centre <key>``): what the hub holds, each round when it may be seen,
the close with its slips' digest, the results; and the draw centre's publications. Under
``/api/events/{id}/multiplex/``, the hub arbitrator's: create the multiplex, add centres,
the merged standings.

A round a centre may not see (not drawn yet, before the agreed start, or skipping a round)
is a 404 that says nothing more: the same answer as a round that does not exist.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import IsEventArbitrator
from api.serializers.base import MAX_NUMBER, ErrorSerializer, number_field
from api.serializers.results import StandingsRowSerializer
from api.views.base import EventMixin
from multiplex.auth import CentreKeyAuthentication, CentrePrincipal
from multiplex.models import Centre, Multiplex
from multiplex.selectors import (
    multiplex_centre,
    multiplex_centres,
    multiplex_of,
    multiplex_player,
    multiplex_players,
    multiplex_standings,
    multiplex_top_total,
)
from multiplex.services.centre import hub_settings
from multiplex.services.hub import NotServed, centre_add, multiplex_create
from multiplex.services.results import (
    centre_player_remove,
    centre_player_restore,
    receive_results,
    roster_receive,
)
from multiplex.services.serving import (
    Served,
    game_key,
    game_schedule,
    publish_draw,
    publish_end,
    publish_top,
    round_closed,
    round_served,
    sealed_game,
    serve_round,
)
from scoring.adjudication import REASON_TEXT
from scoring.standings import to_dict
from solver.formats.record import END_REASONS

ERRORS = {code: OpenApiResponse(ErrorSerializer) for code in (400, 401, 403, 404)}

# ------------------------------------------------------------------ serializers


class MultiplexSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    event = serializers.IntegerField(source="event_id")
    name = serializers.CharField(source="event.name")
    mode = serializers.ChoiceField(choices=Multiplex.Mode.choices)
    starts_at = serializers.DateTimeField(allow_null=True)
    max_delay_minutes = serializers.IntegerField()


class CentreSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    draws = serializers.BooleanField()
    last_seen_at = serializers.DateTimeField(allow_null=True)


class HubInfoSerializer(serializers.Serializer[Any]):
    """What a centre checks when it joins: its event must have the same settings."""

    centre = CentreSerializer()
    multiplex = MultiplexSerializer()
    config = serializers.DictField(help_text="the game settings (solver.formats.record.GameConfig), no seed")
    adjudication = serializers.DictField(help_text="the rules the slips are ruled with")
    notation = serializers.CharField()


class HubRoundSerializer(serializers.Serializer[Any]):
    """A round as a centre is served it. ``top`` is null until the round is placed and the
    centre asked for it (``?top=1``) or closed the round."""

    game = serializers.IntegerField()
    round = serializers.IntegerField()
    reliquat = serializers.CharField(allow_blank=True)
    new = serializers.CharField(allow_blank=True)
    rejected = serializers.ListField(child=serializers.CharField())
    manual = serializers.BooleanField()
    top = serializers.DictField(allow_null=True, help_text="played, score, moves, top_score, tops, board")
    game_end = serializers.CharField(
        allow_blank=True, help_text="how the game ended, on its last round once it has; else empty"
    )
    served_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)


class TopQuerySerializer(serializers.Serializer[Any]):
    top = serializers.BooleanField(required=False, default=False)


class CloseInputSerializer(serializers.Serializer[Any]):
    slips_digest = serializers.RegexField(
        r"^[0-9a-f]{64}$", help_text="SHA-256 (hexadecimal) of the centre's slips of the round"
    )


class CentrePlayerInputSerializer(serializers.Serializer[Any]):
    table = number_field()
    name = serializers.CharField(max_length=120)
    club = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    licence = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    category = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")


class CentreRulingInputSerializer(serializers.Serializer[Any]):
    table = number_field()
    reason = serializers.ChoiceField(choices=sorted(REASON_TEXT))
    move = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    move_score = serializers.IntegerField(min_value=0, max_value=MAX_NUMBER, default=0)
    credited = serializers.IntegerField(min_value=-MAX_NUMBER, max_value=MAX_NUMBER, default=0)
    penalty = serializers.IntegerField(min_value=0, max_value=MAX_NUMBER, default=0)
    warnings = serializers.IntegerField(min_value=0, max_value=32767, default=0)
    solo = serializers.BooleanField(default=False)
    is_top = serializers.BooleanField(default=False)
    letterpoints = serializers.IntegerField(min_value=0, max_value=MAX_NUMBER, default=0)
    overridden = serializers.BooleanField(default=False)


#: Players a centre's roster may hold: a hall of a few hundred, with room to spare.
MAX_ROSTER = 5000


class RosterInputSerializer(serializers.Serializer[Any]):
    players = serializers.ListField(
        child=CentrePlayerInputSerializer(),
        max_length=MAX_ROSTER,
        help_text="every player of the centre, withdrawn ones included",
    )


class RosterReceiptSerializer(serializers.Serializer[Any]):
    players = serializers.IntegerField()
    added = serializers.IntegerField()
    changed = serializers.IntegerField(help_text="corrected, or back on the roster")
    left = serializers.IntegerField(help_text="no longer on it: kept, out of the ranking")


class ResultsInputSerializer(serializers.Serializer[Any]):
    players = serializers.ListField(
        child=CentrePlayerInputSerializer(),
        required=False,
        max_length=MAX_ROSTER,
        help_text="ignored (sent by older centres): the roster (PUT /api/hub/roster/) names the players",
    )
    rulings = serializers.ListField(
        child=CentreRulingInputSerializer(),
        max_length=MAX_ROSTER,
        help_text="each names a table of the centre's roster",
    )
    taking_part = serializers.IntegerField(
        min_value=0, max_value=MAX_NUMBER, help_text="the centre's players in the game this round"
    )


class ReceiptSerializer(serializers.Serializer[Any]):
    received = serializers.IntegerField()
    changed = serializers.IntegerField(help_text="0 when the same results were sent again")


class PublishDrawSerializer(serializers.Serializer[Any]):
    rack = serializers.CharField(max_length=20, help_text="the whole rack, reliquat included")
    rejected = serializers.ListField(child=serializers.CharField(max_length=20), default=list, max_length=50)
    manual = serializers.BooleanField(default=False)


class PublishTopSerializer(serializers.Serializer[Any]):
    played = serializers.CharField(max_length=40, help_text="the move placed, in GCG notation")
    score = serializers.IntegerField(min_value=0, max_value=MAX_NUMBER)


class PublishEndSerializer(serializers.Serializer[Any]):
    reason = serializers.ChoiceField(choices=[r for r in END_REASONS if r])


class HubGameSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(source="number")
    started_at = serializers.DateTimeField()
    end = serializers.CharField(allow_blank=True)


class SealedGameSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(source="game.number")
    starts_at = serializers.DateTimeField(source="game.started_at", help_text="when its key is given")
    cipher = serializers.CharField(default="fernet")
    token = serializers.CharField(
        help_text="Fernet token (cryptography.io/en/latest/fernet/) of the JSON"
        " {game, rounds: [a round as GET .../rounds/N/?top=1 serves it, without served_at and closed_at]}"
    )


class GameKeySerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField()
    key = serializers.CharField(help_text="the Fernet key of the game's sealed rounds")


class GameScheduleSerializer(serializers.Serializer[Any]):
    starts_at = serializers.DateTimeField()


class MultiplexCreateSerializer(serializers.Serializer[Any]):
    mode = serializers.ChoiceField(choices=Multiplex.Mode.choices, default=Multiplex.Mode.LIVE)
    starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    max_delay_minutes = serializers.IntegerField(min_value=0, max_value=24 * 60, default=90)


class CentreStatusSerializer(CentreSerializer):
    served = serializers.IntegerField(help_text="rounds served")
    closed = serializers.IntegerField(help_text="rounds closed (slips' digest received)")
    results = serializers.IntegerField(help_text="rounds whose results were received")


class MultiplexStatusSerializer(MultiplexSerializer):
    centres = CentreStatusSerializer(many=True)


class CentreAddSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120)
    draws = serializers.BooleanField(default=False)


class CentreKeySerializer(CentreSerializer):
    key = serializers.CharField(help_text="shown this once: the hub keeps only its hash")


class MultiplexPlayerSerializer(serializers.Serializer[Any]):
    """A centre's player as the hub holds it (its roster)."""

    id = serializers.IntegerField()
    centre = serializers.CharField(source="centre.name")
    table = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    licence = serializers.CharField()
    category = serializers.CharField()
    left_at = serializers.DateTimeField(allow_null=True, help_text="taken off the roster by its centre")
    removed_at = serializers.DateTimeField(
        allow_null=True, help_text="removed from the merged ranking by the hub's arbitrator"
    )
    removed_reason = serializers.CharField()


class PlayerRemoveSerializer(serializers.Serializer[Any]):
    removed = serializers.BooleanField(
        help_text="true: out of the merged ranking (and its solos); false: back in it"
    )
    reason = serializers.CharField(
        max_length=200, required=False, allow_blank=True, default="", help_text="required to remove"
    )


class MultiplexStandingsRowSerializer(StandingsRowSerializer):
    centre = serializers.CharField()


class MultiplexStandingsSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(allow_null=True)
    centre = serializers.IntegerField(allow_null=True)
    category = serializers.CharField(allow_null=True)
    top_total = serializers.IntegerField()
    rows = MultiplexStandingsRowSerializer(many=True)


class MultiplexStandingsQuerySerializer(serializers.Serializer[Any]):
    game = number_field(required=False)
    centre = number_field(required=False)
    category = serializers.CharField(max_length=40, required=False)


# ------------------------------------------------------------------ the centres' side


def hub_info(centre: Centre) -> dict[str, Any]:
    event = centre.multiplex.event
    return {
        "centre": centre,
        "multiplex": centre.multiplex,
        **hub_settings(event),
        "notation": event.notation,
    }


def served_data(served: Served) -> dict[str, Any]:
    return {
        **round_served(served.round, with_top=served.with_top, game_end=served.game_end),
        "served_at": served.serving.rack_at,
        "closed_at": served.serving.closed_at,
    }


class IsCentre(BasePermission):
    message = gettext_lazy("only a centre of a multiplex, with its key, may do this")

    def has_permission(self, request: Request, view: APIView) -> bool:
        return isinstance(request.user, CentrePrincipal)


class CentreView(APIView):
    """A view for the centres' software: only a centre key is accepted."""

    authentication_classes = [CentreKeyAuthentication]
    permission_classes = [IsCentre]

    def centre(self, request: Request) -> Centre:
        principal = request.user
        assert isinstance(principal, CentrePrincipal)  # IsCentre
        return principal.centre

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, NotServed):
            # Sealed: the same answer as a round that does not exist.
            exc = NotFound(exc.message)
        return super().handle_exception(exc)


@extend_schema(tags=["multiplex"], summary="The hub and the centre's own settings",
               responses={200: HubInfoSerializer, **ERRORS})  # fmt: skip
class HubInfoView(CentreView):
    def get(self, request: Request) -> Response:
        return Response(HubInfoSerializer(hub_info(self.centre(request))).data)


@extend_schema(
    tags=["multiplex"],
    summary="A round, once the centre may see it (else 404); its top with ?top=1 once placed",
    description="Every first sight of a rack and of a top is recorded on the hub. Rounds are"
    " served in order; round 1 of a game at most the multiplex's maximum delay after the game began.",
    parameters=[OpenApiParameter("top", bool, description="also the top, once the round is placed")],
    responses={200: HubRoundSerializer, **ERRORS},
)
class HubRoundView(CentreView):
    def get(self, request: Request, game: int, number: int) -> Response:
        query = TopQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        served = serve_round(
            centre=self.centre(request), game=game, number=number, with_top=query.validated_data["top"]
        )
        return Response(HubRoundSerializer(served_data(served)).data)


@extend_schema(
    tags=["multiplex"],
    summary="The centre closed the round: its slips' digest is kept, the top given once placed",
    request=CloseInputSerializer,
    responses={200: HubRoundSerializer, **ERRORS},
)
class HubCloseView(CentreView):
    def post(self, request: Request, game: int, number: int) -> Response:
        data = CloseInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        served = round_closed(
            centre=self.centre(request),
            game=game,
            number=number,
            slips_digest=data.validated_data["slips_digest"],
        )
        return Response(HubRoundSerializer(served_data(served)).data)


@extend_schema(
    tags=["multiplex"],
    summary="The centre's roster, whole: its results may name only these players",
    description="Sent at the join and again whenever the centre's players change. A table no"
    " longer sent leaves the roster (kept on the hub, out of the ranking); each change is recorded.",
    request=RosterInputSerializer,
    responses={200: RosterReceiptSerializer, **ERRORS},
)
class HubRosterView(CentreView):
    def put(self, request: Request) -> Response:
        data = RosterInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        receipt = roster_receive(centre=self.centre(request), players=data.validated_data["players"])
        return Response(RosterReceiptSerializer(dataclasses.asdict(receipt)).data)


@extend_schema(
    tags=["multiplex"],
    summary="The centre's rulings of a round it closed (idempotent; a change replaces and is recorded)",
    description="Refused whole, nothing kept, when the round was not closed by the centre or a"
    " ruling names a table not on its roster.",
    request=ResultsInputSerializer,
    responses={200: ReceiptSerializer, **ERRORS},
)
class HubResultsView(CentreView):
    def post(self, request: Request, game: int, number: int) -> Response:
        data = ResultsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        receipt = receive_results(
            centre=self.centre(request),
            game=game,
            number=number,
            rulings=data.validated_data["rulings"],
            taking_part=data.validated_data["taking_part"],
        )
        return Response(ReceiptSerializer(dataclasses.asdict(receipt)).data)


@extend_schema(
    tags=["multiplex"],
    summary="The draw centre drew this round (live mode); sent again, the same draw changes nothing",
    request=PublishDrawSerializer,
    responses={201: HubRoundSerializer, **ERRORS},
)
class HubDrawView(CentreView):
    def post(self, request: Request, game: int, number: int) -> Response:
        data = PublishDrawSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        centre = self.centre(request)
        publish_draw(
            centre=centre,
            game=game,
            number=number,
            rack=data.validated_data["rack"],
            rejected=tuple(data.validated_data["rejected"]),
            manual=data.validated_data["manual"],
        )
        served = serve_round(centre=centre, game=game, number=number, with_top=True)
        return Response(HubRoundSerializer(served_data(served)).data, status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["multiplex"],
    summary="The draw centre placed this move on the round (checked on the hub's game)",
    request=PublishTopSerializer,
    responses={200: HubRoundSerializer, **ERRORS},
)
class HubTopView(CentreView):
    def post(self, request: Request, game: int, number: int) -> Response:
        data = PublishTopSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        centre = self.centre(request)
        publish_top(
            centre=centre,
            game=game,
            number=number,
            played=data.validated_data["played"],
            score=data.validated_data["score"],
        )
        served = serve_round(centre=centre, game=game, number=number, with_top=True)
        return Response(HubRoundSerializer(served_data(served)).data)


@extend_schema(
    tags=["multiplex"],
    summary="The draw centre's game ended",
    request=PublishEndSerializer,
    responses={200: HubGameSerializer, **ERRORS},
)
class HubEndView(CentreView):
    def post(self, request: Request, game: int) -> Response:
        data = PublishEndSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hub_game = publish_end(centre=self.centre(request), game=game, reason=data.validated_data["reason"])
        return Response(HubGameSerializer(hub_game).data)


@extend_schema(
    tags=["multiplex"],
    summary="A prepared game ahead of its start, encrypted (prepared multiplex only)",
    description="Fetched any time, so that a hall has its game before the start even on a"
    " shaky connection; it is read with the key, given from the game's start.",
    responses={200: SealedGameSerializer, **ERRORS},
)
class HubSealedView(CentreView):
    def get(self, request: Request, game: int) -> Response:
        sealed = sealed_game(centre=self.centre(request), game=game)
        return Response(SealedGameSerializer(sealed).data)


@extend_schema(
    tags=["multiplex"],
    summary="The key of a prepared game, from its start (else 404)",
    description="From then on every round of the game counts as served to the centre, with its top"
    " (the hub's record). Refused to a centre later than the multiplex's maximum delay.",
    responses={200: GameKeySerializer, **ERRORS},
)
class HubKeyView(CentreView):
    def get(self, request: Request, game: int) -> Response:
        key = game_key(centre=self.centre(request), game=game)
        return Response(GameKeySerializer({"game": game, "key": key}).data)


# ------------------------------------------------------------------ the hub arbitrator's side


class MultiplexMixin(EventMixin):
    def multiplex(self) -> Multiplex:
        multiplex = multiplex_of(self.get_event())
        if multiplex is None:
            raise NotFound(_("this event is not a multiplex"))
        return multiplex


def _status(multiplex: Multiplex) -> dict[str, Any]:
    centres = multiplex_centres(multiplex)
    data = MultiplexSerializer(multiplex).data
    data["centres"] = CentreStatusSerializer(centres, many=True).data
    return dict(data)


class MultiplexView(MultiplexMixin, APIView):
    permission_classes = [IsEventArbitrator]

    @extend_schema(tags=["multiplex"], responses={200: MultiplexStatusSerializer, **ERRORS})
    def get(self, request: Request, event_id: int) -> Response:
        return Response(_status(self.multiplex()))

    @extend_schema(
        tags=["multiplex"],
        summary="Make this event the hub of a multiplex",
        request=MultiplexCreateSerializer,
        responses={201: MultiplexStatusSerializer, **ERRORS},
    )
    def post(self, request: Request, event_id: int) -> Response:
        data = MultiplexCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        multiplex = multiplex_create(event=self.get_event(), by=request.user, **data.validated_data)
        return Response(_status(multiplex), status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["multiplex"],
    summary="Move a prepared game's start, until it has started",
    request=GameScheduleSerializer,
    responses={200: HubGameSerializer, **ERRORS},
)
class GameScheduleView(MultiplexMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int, game: int) -> Response:
        data = GameScheduleSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hub_game = game_schedule(
            multiplex=self.multiplex(), game=game, starts_at=data.validated_data["starts_at"], by=request.user
        )
        return Response(HubGameSerializer(hub_game).data)


@extend_schema(
    tags=["multiplex"],
    summary="Add a centre: its key is in this answer only",
    request=CentreAddSerializer,
    responses={201: CentreKeySerializer, **ERRORS},
)
class CentresView(MultiplexMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int) -> Response:
        data = CentreAddSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        centre, key = centre_add(multiplex=self.multiplex(), by=request.user, **data.validated_data)
        body = dict(CentreSerializer(centre).data)
        body["key"] = key
        return Response(body, status=status.HTTP_201_CREATED)


@extend_schema(
    tags=["multiplex"],
    summary="Every centre's players as their rosters name them, those off the ranking included",
    responses={200: MultiplexPlayerSerializer(many=True), **ERRORS},
)
class MultiplexPlayersView(MultiplexMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def get(self, request: Request, event_id: int) -> Response:
        players = multiplex_players(self.multiplex())
        return Response(MultiplexPlayerSerializer(players, many=True).data)


@extend_schema(
    tags=["multiplex"],
    summary="Remove a centre's player from the merged ranking (a reason required), or put them back",
    description="Their rulings are kept: out of the ranking and of the solos while removed.",
    request=PlayerRemoveSerializer,
    responses={200: MultiplexPlayerSerializer, **ERRORS},
)
class MultiplexPlayerRemoveView(MultiplexMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def post(self, request: Request, event_id: int, player_id: int) -> Response:
        player = multiplex_player(self.multiplex(), player_id)
        if player is None:
            raise NotFound(_("this player is not a player of this multiplex"))
        data = PlayerRemoveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reason = data.validated_data["reason"]
        if data.validated_data["removed"]:
            player = centre_player_remove(player=player, reason=reason, by=request.user)
        else:
            player = centre_player_restore(player=player, reason=reason, by=request.user)
        return Response(MultiplexPlayerSerializer(player).data)


@extend_schema(
    tags=["multiplex"],
    summary="The merged ranking: every centre together (or one), of the event or one game",
    parameters=[MultiplexStandingsQuerySerializer],
    responses={200: MultiplexStandingsSerializer, **ERRORS},
)
class MultiplexStandingsView(MultiplexMixin, APIView):
    permission_classes = [IsEventArbitrator]

    def get(self, request: Request, event_id: int) -> Response:
        multiplex = self.multiplex()
        query = MultiplexStandingsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        game = query.validated_data.get("game")
        centre = query.validated_data.get("centre")
        category = query.validated_data.get("category")
        if centre is not None and multiplex_centre(multiplex, centre) is None:
            raise NotFound(_("centre %(id)s is not a centre of this multiplex") % {"id": centre})
        rows, centres = multiplex_standings(multiplex, game=game, centre=centre, category=category)
        body = {
            "game": game,
            "centre": centre,
            "category": category,
            "top_total": multiplex_top_total(multiplex, game=game),
            "rows": [dict(to_dict(row), centre=centres[row.player.id]) for row in rows],
        }
        return Response(MultiplexStandingsSerializer(body).data)
