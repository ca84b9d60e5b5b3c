"""Players as the arbitrator and the phones see them, their input, and a phone's join."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from api.serializers.base import number_field
from tournaments.models import Player


class PlayerSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "category", "table"]


class ArbitratorPlayerSerializer(serializers.ModelSerializer[Player]):
    """A player as the arbitrator sees it: with the licence number and the virtual level."""

    class Meta:
        model = Player
        fields = [
            "id",
            "name",
            "club",
            "licence",
            "category",
            "table",
            "virtual_level",
            "withdrawn_at",
            "paper_only",
            "seat_code",
        ]


class ReleaseSerializer(serializers.Serializer[Any]):
    revoked = serializers.IntegerField(help_text="the tokens that stopped working")


class PlayerInputSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120)
    club = serializers.CharField(max_length=120, allow_blank=True, required=False, default="")
    licence = serializers.CharField(max_length=40, allow_blank=True, required=False, default="")
    category = serializers.CharField(max_length=40, allow_blank=True, required=False, default="")
    table = number_field(required=False, default=None, help_text="the next free table without it")
    paper_only = serializers.BooleanField(
        required=False, default=False, help_text="no phone may take the table (paper slips only)"
    )


class PlayerUpdateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120, required=False)
    club = serializers.CharField(max_length=120, allow_blank=True, required=False)
    licence = serializers.CharField(max_length=40, allow_blank=True, required=False)
    category = serializers.CharField(max_length=40, allow_blank=True, required=False)
    table = number_field(required=False, help_text="refused once the player has handed in a slip")
    paper_only = serializers.BooleanField(
        required=False, help_text="no phone may take the table; true releases the phone there"
    )


class WithdrawInputSerializer(serializers.Serializer[Any]):
    withdrawn = serializers.BooleanField(
        help_text="true: out of the rounds opened from now on; false: back in the event"
    )


class PlayersImportSerializer(serializers.Serializer[Any]):
    csv = serializers.CharField(
        trim_whitespace=False,
        help_text="a header row with 'name' (required) and optionally 'club', 'licence', 'category', "
        "'table'; comma, semicolon or tab separated. One bad line refuses the whole file.",
    )


class JoinInputSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(max_length=20)
    seat = serializers.CharField(
        max_length=20, required=False, default="", help_text="the seat code on the table card"
    )
    table = number_field(
        required=False,
        default=None,
        help_text="without a seat code: only where the event has the arbitrator confirm joins",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs["seat"].strip() and attrs["table"] is None:
            raise serializers.ValidationError(_("give the seat code on the table card (or the table)"))
        return attrs


class JoinRequestSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    player = serializers.IntegerField()
    table = serializers.IntegerField()
    name = serializers.CharField()
    number = serializers.CharField(help_text="the four digits the waiting phone shows")
    asked_at = serializers.DateTimeField()
    address = serializers.CharField()
    device = serializers.CharField()


class JoinOutputSerializer(serializers.Serializer[Any]):
    token = serializers.CharField()
    player = PlayerSerializer()
    confirmed = serializers.BooleanField(
        help_text="false: the token works once the arbitrator confirms the phone (202)"
    )
    number = serializers.CharField(help_text="four digits the arbitrator sees beside the request")
