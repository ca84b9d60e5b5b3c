"""An event, its live versions and its history (a page at a time); the token's login."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer

from api.serializers.base import MAX_NUMBER
from tournaments.models import Event, HistoryEntry, Round


class EventSerializer(serializers.ModelSerializer[Event]):
    class Meta:
        model = Event
        fields = [
            "id",
            "name",
            "starts_on",
            "ends_on",
            "language",
            "board",
            "notation",
            "mode",
            "round_seconds",
        ]


class LiveSerializer(serializers.Serializer[Any]):
    """Poll this: refetch the game and the round only when ``public`` (or ``full``) changes."""

    public = serializers.CharField(help_text="changes with what every phone shows")
    full = serializers.CharField(required=False, help_text="arbitrator only: also changes with every slip")
    deadline = serializers.DateTimeField(allow_null=True)
    state = serializers.ChoiceField(choices=Round.State.choices, allow_null=True)
    now = serializers.DateTimeField(help_text="the server's clock, to count down to the deadline")


#: A page of a list (the history): entries without ``limit``, and at most.
PAGE_SIZE, MAX_PAGE_SIZE = 100, 1000


class PageQuerySerializer(serializers.Serializer[Any]):
    limit = serializers.IntegerField(min_value=1, max_value=MAX_PAGE_SIZE, default=PAGE_SIZE)
    offset = serializers.IntegerField(min_value=0, max_value=MAX_NUMBER, default=0)


class HistoryEntrySerializer(serializers.ModelSerializer[HistoryEntry]):
    old = serializers.JSONField(
        read_only=True, allow_null=True, help_text="as stored: moves (chosen, move) in GCG notation"
    )
    new = serializers.JSONField(
        read_only=True, allow_null=True, help_text="as stored: moves (chosen, move) in GCG notation"
    )

    class Meta:
        model = HistoryEntry
        fields = ["id", "entity", "object_id", "action", "actor_label", "at", "old", "new", "reason"]
        read_only_fields = fields


class TokenInputSerializer(AuthTokenSerializer):
    """DRF's login check; the token is in the answer only."""

    token = None  # type: ignore[assignment]


class TokenSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(help_text='send "Token <token>" in the Authorization header')
