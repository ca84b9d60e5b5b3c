"""Slips: handed in, watched, previewed, and a phone's receipt."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from api.serializers.base import number_field
from api.serializers.players import PlayerSerializer
from tournaments.core import MAX_ANNOUNCED
from tournaments.models import Slip


class MoveInputSerializer(serializers.Serializer[Any]):
    coordinates = serializers.CharField(max_length=20, allow_blank=True)
    word = serializers.CharField(max_length=40, allow_blank=True)
    announced_score = serializers.IntegerField(
        allow_null=True, required=False, default=None, min_value=0, max_value=MAX_ANNOUNCED
    )


class SlipInputSerializer(MoveInputSerializer):
    """A player's slip is always the token's player's: ``table`` is the arbitrator's."""

    client_id = serializers.CharField(max_length=64, allow_blank=True, required=False, default="")
    table = number_field(
        required=False,
        help_text="arbitrator only, and required then: the table of the paper slip typed in. "
        "Ignored in a player's slip.",
    )
    game = number_field(
        required=False, help_text="with round: the slip is refused if that round is no longer current"
    )
    round = number_field(required=False, help_text="with game: the round the slip was written for")
    sent_at = serializers.DateTimeField(
        required=False,
        help_text="a phone's: when it sent the slip, by its clock corrected to the server's (every live "
        "message carries the server's time). Counts for the deadline when the server received the slip "
        "at most ARBITER_SLIP_GRACE_SECONDS (5) later, docs/rules.md#slips; ignored on a paper slip.",
    )
    second = serializers.ChoiceField(
        choices=["correction", "second"],
        required=False,
        help_text="arbitrator only: a table typed again corrects a typing mistake (correction: it "
        "replaces the first) or is a second slip the player handed in (second: the round is void, "
        "docs/rules.md#slips). Refused without it when the event voids several slips.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("game" in attrs) != ("round" in attrs):
            raise serializers.ValidationError(_("give both game and round, or neither"))
        return attrs


class SlipSerializer(serializers.ModelSerializer[Slip]):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = Slip
        fields = [
            "id",
            "player",
            "coordinates",
            "word",
            "announced_score",
            "received_at",
            "source",
            "client_id",
            "late",
            "current",
        ]
        read_only_fields = fields


class ArbitratorSlipSerializer(SlipSerializer):
    entered_by = serializers.CharField(source="entered_by.username", allow_null=True, read_only=True)

    class Meta(SlipSerializer.Meta):
        fields = [*SlipSerializer.Meta.fields, "entered_by"]
        read_only_fields = fields


class SlipWatchSerializer(serializers.Serializer[Any]):
    received = serializers.IntegerField(help_text="players with a current slip")
    expected = serializers.IntegerField(help_text="players of the event")
    missing_tables = serializers.ListField(child=serializers.IntegerField())
    slips = ArbitratorSlipSerializer(many=True, help_text="current slips, latest first")


class PreviewSerializer(serializers.Serializer[Any]):
    """What a slip would score on the current board, judged as the close would."""

    reason = serializers.CharField(help_text="a stable code: ok, illegal, not_in_lexicon, ...")
    ok = serializers.BooleanField()
    move = serializers.CharField(help_text="in the event's notation; empty when unreadable")
    move_score = serializers.IntegerField()
    credited = serializers.IntegerField()
    warnings = serializers.IntegerField()
    detail = serializers.CharField(
        help_text="the notes in the request's language, moves in the event's notation"
    )
    invalid_words = serializers.ListField(child=serializers.CharField())
    shift_candidate = serializers.CharField(help_text="in the event's notation; empty when none is offered")


class SlipReceiptSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    received_at = serializers.DateTimeField()
    late = serializers.BooleanField()
    late_reason = serializers.ChoiceField(
        choices=["time_up", "closed"],
        allow_null=True,
        help_text="a late slip: it arrived after the deadline (time_up) or after the arbitrator closed "
        "the round before it (closed); null when in time",
    )
    current = serializers.BooleanField()
    created = serializers.BooleanField(help_text="false when the client_id was already received")
    invalid_words = serializers.ListField(child=serializers.CharField(), help_text="nostrict mode")
