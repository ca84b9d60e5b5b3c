"""A ruling corrected: the arbitrator's figures, a shifted reference accepted, an average."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import (
    IsEventArbitrator,
)
from api.serializers.rulings import AcceptShiftInputSerializer, OverrideInputSerializer, RoundRulingSerializer
from api.views.base import (
    ERRORS,
    EventMixin,
)
from tournaments.models import Ruling
from tournaments.selectors.review import event_ruling
from tournaments.services.corrections import ruling_accept_shift, ruling_average, ruling_override


class RulingMixin(EventMixin):
    def get_ruling(self) -> Ruling:
        ruling = event_ruling(self.get_event(), self.kwargs["ruling_id"])
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
        ruling = ruling_override(ruling=self.get_ruling(), by=request.user, **data.validated_data)
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
        ruling = ruling_accept_shift(
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
        ruling = ruling_average(
            ruling=self.get_ruling(), by=request.user, reason=data.validated_data.get("reason")
        )
        return Response(RoundRulingSerializer(ruling, context={"event": self.get_event()}).data)
