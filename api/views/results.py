"""What an event has given: its standings and its exports."""

from __future__ import annotations

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import (
    IsEventArbitrator,
    is_arbitrator,
)
from api.serializers.results import StandingsQuerySerializer, StandingsSerializer
from api.views.base import (
    ERRORS,
    NUMBER,
    EventMixin,
    arbitrator_or_player,
)
from scoring.standings import to_dict
from tournaments.selectors.games import event_game, has_counted_rounds
from tournaments.standings import counted_round_numbers, event_standings, game_standings


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
        return [p() for p in arbitrator_or_player()]

    def get(self, request: Request, event_id: int) -> Response:
        event = self.get_event()
        query = StandingsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        number: int | None = query.validated_data.get("game")
        category: str | None = query.validated_data.get("category")
        game = None
        if number is not None:
            game = event_game(event, number)
            if game is None:
                raise NotFound(_("game %(number)s does not exist") % {"number": number})
        if not is_arbitrator(request, event) and not has_counted_rounds(event, game_number=number):
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
