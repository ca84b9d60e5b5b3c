"""Input and output shapes. Outputs never carry the join code or the random seed."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import Event, Player, Round, Slip
from tournaments.services import MAX_ANNOUNCED


class PlayerSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "name", "club", "category", "table"]


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


class JoinInputSerializer(serializers.Serializer[Any]):
    code = serializers.CharField(max_length=20)
    table = serializers.IntegerField(min_value=1)


class JoinOutputSerializer(serializers.Serializer[Any]):
    token = serializers.CharField()
    player = PlayerSerializer()


#: A round's fields that reveal the answer: the arbitrator's, the players' once ruled.
SECRET_ROUND_FIELDS = ("top_score", "tops", "move_count")
RULED = (Round.State.ADJUDICATED, Round.State.PLACED)


class RoundSerializer(serializers.ModelSerializer[Round]):
    """Pass ``context={"arbitrator": bool}``: players get ``null`` in the secret fields
    until the round is adjudicated, and no rack before it is opened."""

    game = serializers.IntegerField(source="game.number", read_only=True)
    rack = serializers.SerializerMethodField()
    tops = serializers.ListField(child=serializers.CharField(), allow_null=True, read_only=True)

    class Meta:
        model = Round
        fields = [
            "game",
            "number",
            "state",
            "rack",
            "deadline",
            "opened_at",
            "closed_at",
            "move_count",
            "top_score",
            "tops",
            "chosen",
            "chosen_score",
        ]
        read_only_fields = fields

    def get_rack(self, round: Round) -> str | None:
        if not self.context.get("arbitrator") and round.state == Round.State.DRAWN:
            return None
        return round.rack

    def to_representation(self, instance: Round) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        if not self.context.get("arbitrator"):
            if instance.state not in RULED:
                for name in SECRET_ROUND_FIELDS:
                    data[name] = None
            if instance.state != Round.State.PLACED:
                data["chosen"], data["chosen_score"] = "", None
        return data


class SlipInputSerializer(serializers.Serializer[Any]):
    """No player here: a slip is always the token's player's."""

    coordinates = serializers.CharField(max_length=20, allow_blank=True)
    word = serializers.CharField(max_length=40, allow_blank=True)
    announced_score = serializers.IntegerField(
        allow_null=True, required=False, default=None, min_value=0, max_value=MAX_ANNOUNCED
    )
    client_id = serializers.CharField(max_length=64, allow_blank=True, required=False, default="")


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


class SlipReceiptSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    received_at = serializers.DateTimeField()
    late = serializers.BooleanField()
    current = serializers.BooleanField()
    created = serializers.BooleanField(help_text="false when the client_id was already received")
    invalid_words = serializers.ListField(child=serializers.CharField(), help_text="nostrict mode")


class StandingsPlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    category = serializers.CharField()
    table = serializers.IntegerField()


class StandingsRowSerializer(serializers.Serializer[Any]):
    """The shape of :func:`scoring.standings.to_dict`."""

    rank = serializers.IntegerField()
    player = StandingsPlayerSerializer()
    total = serializers.IntegerField()
    tops = serializers.IntegerField()
    solos = serializers.IntegerField()
    warnings = serializers.IntegerField()
    penalties = serializers.IntegerField()
    diff = serializers.IntegerField()
    percent = serializers.FloatField()
    letterpoints = serializers.IntegerField()
    ratio = serializers.FloatField(allow_null=True)
    rounds = serializers.IntegerField()


class StandingsSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(allow_null=True)
    category = serializers.CharField(allow_null=True)
    rows = StandingsRowSerializer(many=True)


class StandingsQuerySerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(min_value=1, required=False)
    category = serializers.CharField(max_length=40, required=False)


class ErrorDetailSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    message = serializers.CharField()
    detail = serializers.JSONField()


class ErrorSerializer(serializers.Serializer[Any]):
    error = ErrorDetailSerializer()
