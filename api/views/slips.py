"""Slips: handed in by a phone (its quick path, read before the framework's) or typed by
the arbitrator, listed, and the Try Move preview."""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import BasePermission
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api import auth
from api.parsers import BodyRefused, parse_json
from api.permissions import (
    MayTryMoves,
    is_arbitrator,
    tries_allowed,
)
from api.serializers.base import MAX_NUMBER
from api.serializers.slips import (
    MoveInputSerializer,
    PreviewSerializer,
    SlipInputSerializer,
    SlipReceiptSerializer,
    SlipSerializer,
)
from api.views.base import (
    ERRORS,
    EventMixin,
    PreviewThrottle,
    SlipThrottle,
    arbitrator_or_player,
)
from plumbing.middleware import received_at
from tournaments import judging
from tournaments.core import MAX_ANNOUNCED
from tournaments.models import Slip
from tournaments.selectors import players as player_selectors
from tournaments.selectors import slips as slip_selectors
from tournaments.services.phone_slips import PhoneSlip, phone_slip
from tournaments.services.slips import NoRoundError, SubmitResult, late_reason, paper_slip_submit, slip_submit


class RoundSlipsView(EventMixin, APIView):
    throttle_classes = [SlipThrottle]
    throttle_scope = "slips"

    def get_permissions(self) -> list[BasePermission]:
        return [p() for p in arbitrator_or_player()]

    @extend_schema(
        tags=["slips"],
        summary="The slips of the current round: a player's own, or all for the arbitrator",
        responses={200: SlipSerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = self.get_event()
        round = self.current_round()
        if is_arbitrator(request, event):
            slips = slip_selectors.round_slips(round)
        else:
            slips = slip_selectors.round_slips(round, player_id=self.token_player(request).pk)
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
            player = player_selectors.player_at_table(event, table)
            if player is None:
                raise ValidationError({"table": [_("no player at table %(table)s") % {"table": table}]})
            # Collected by the deadline, typed later: the service dates it like the console.
            result = paper_slip_submit(
                round=self.current_round(), player=player, by=request.user, second=second, **fields
            )
        else:
            try:
                result = slip_submit(
                    event=event,  # its current round, read under the lock
                    player=self.token_player(request),
                    source=Slip.Source.PHONE,
                    # When the request reached the server: waiting in it costs the phone nothing.
                    now=received_at(request),
                    sent_at=sent_at,
                    **fields,
                )
            except NoRoundError as exc:
                raise NotFound(exc.message) from exc
        return Response(
            slip_receipt(result), status=status.HTTP_201_CREATED if result.created else status.HTTP_200_OK
        )


def slip_receipt(result: SubmitResult) -> Any:
    receipt = {
        "id": result.slip.pk,
        "received_at": result.slip.received_at,
        "late": result.slip.late,
        "late_reason": late_reason(result.slip),
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


def phone_slip_of(request: HttpRequest, event_id: int) -> PhoneSlip | None:
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
    return PhoneSlip(
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
    result: SubmitResult | None = getattr(request, RECORDED, None)
    if result is None:
        slip = phone_slip_of(request, event_id)
        result = None if slip is None else phone_slip(slip)
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
