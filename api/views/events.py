"""The login token, the events, their live versions and their history."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, generics
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.fields import IntegerField
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.parsers import JSONParser
from api.permissions import (
    IsEventArbitrator,
    is_arbitrator,
)
from api.serializers.events import (
    MAX_PAGE_SIZE,
    PAGE_SIZE,
    EventSerializer,
    HistoryEntrySerializer,
    LiveSerializer,
    PageQuerySerializer,
    TokenInputSerializer,
    TokenSerializer,
)
from api.views.base import (
    ERRORS,
    EventMixin,
    arbitrator_or_player,
)
from plumbing import logins
from tournaments.models import Event, HistoryEntry
from tournaments.selectors.events import event_history, events_for
from tournaments.selectors.live import live_versions


class LoginsLockedOut(exceptions.Throttled):
    """A login refused by the login limit (plumbing/logins.py): "locked_out", with the
    longest wait in seconds."""

    default_code = "locked_out"

    def __init__(self, minutes: int) -> None:
        message = _("too many failed logins from this address: wait %(minutes)s minutes and try again")
        super().__init__(detail=message % {"minutes": minutes})
        self.wait = minutes * 60


@extend_schema(
    tags=["auth"],
    summary="An arbitrator's token for a username and password",
    description=(
        'Send it as "Authorization: Token <token>". A wrong username or password is a 400; past'
        " the login limit, a 429 whatever the password."
    ),
    request=TokenInputSerializer,
    responses={200: TokenSerializer, 400: ERRORS[400], 429: ERRORS[429]},
    auth=[],
)
class TokenView(ObtainAuthToken):
    """DRF's token login with the API's parsers, and no authentication of its own: a stale
    token in the header must not refuse a login."""

    authentication_classes: list[Any] = []
    parser_classes = [JSONParser, FormParser, MultiPartParser]
    serializer_class = TokenInputSerializer

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        username = request.data.get("username") if isinstance(request.data, Mapping) else None
        # Said before the password is checked: axes' own refusal would read as a wrong password.
        if isinstance(username, str) and username and logins.locked(request._request, username):
            raise LoginsLockedOut(logins.wait_minutes(request._request))
        return super().post(request, *args, **kwargs)


@extend_schema(tags=["events"], responses={200: EventSerializer(many=True), **ERRORS})
class EventListView(generics.ListAPIView[Event]):
    """The events of the caller: an arbitrator's own (all for staff), a player's one."""

    serializer_class = EventSerializer

    def get_queryset(self) -> Any:
        return events_for(user=self.request.user, token=self.request.auth)


@extend_schema(tags=["events"], responses={200: EventSerializer, **ERRORS})
class EventDetailView(EventMixin, APIView):
    def get_permissions(self) -> list[BasePermission]:
        return [p() for p in arbitrator_or_player()]

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
        return [p() for p in arbitrator_or_player()]

    def get(self, request: Request, event_id: int) -> Response:
        event = self.get_event()
        body: dict[str, Any] = dataclasses.asdict(live_versions(event))
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
        return event_history(self.get_event())
