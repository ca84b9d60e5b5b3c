"""Rulings, a round's review, and the input of the arbitrator's corrections."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.serializers.base import number_field
from api.serializers.players import PlayerSerializer
from api.serializers.rounds import RoundSerializer
from tournaments.core import MAX_CREDITED, MAX_WARNINGS
from tournaments.display import shown_move
from tournaments.models import Event, Ruling, Slip


class RulingSlipSerializer(serializers.ModelSerializer[Slip]):
    class Meta:
        model = Slip
        fields = ["id", "coordinates", "word", "announced_score", "received_at", "source", "late"]
        read_only_fields = fields


class RulingSerializer(serializers.ModelSerializer[Ruling]):
    """Pass ``context={"event": event}``: moves are shown in the event's notation."""

    player = PlayerSerializer(read_only=True)
    slip = RulingSlipSerializer(read_only=True, allow_null=True)
    move = serializers.SerializerMethodField(help_text="in the event's notation")
    shift_candidate = serializers.SerializerMethodField(help_text="in the event's notation")
    detail = serializers.CharField(
        read_only=True, help_text="the notes in English, moves in the event's notation"
    )
    invalid_words = serializers.ListField(child=serializers.CharField(), read_only=True)
    ruled_by = serializers.CharField(source="ruled_by.username", allow_null=True, read_only=True)

    class Meta:
        model = Ruling
        fields = [
            "id",
            "player",
            "slip",
            "move",
            "move_score",
            "credited",
            "warnings",
            "penalty",
            "solo",
            "is_top",
            "letterpoints",
            "reason",
            "detail",
            "invalid_words",
            "shift_candidate",
            "overridden",
            "override_reason",
            "ruled_by",
            "ruled_at",
        ]
        read_only_fields = fields

    def _shown(self, gcg: str) -> str:
        event: Event = self.context["event"]
        return shown_move(gcg, event.board, event.notation)

    def get_move(self, ruling: Ruling) -> str:
        return self._shown(ruling.move)

    def get_shift_candidate(self, ruling: Ruling) -> str:
        return self._shown(ruling.shift_candidate)


class RoundRulingSerializer(RulingSerializer):
    """A ruling on its own: with its game and round (load them with ``select_related``)."""

    game = serializers.IntegerField(source="round.game.number", read_only=True)
    round = serializers.IntegerField(source="round.number", read_only=True)

    class Meta(RulingSerializer.Meta):
        fields = ["game", "round", *RulingSerializer.Meta.fields]
        read_only_fields = fields


class RulingQuerySerializer(serializers.Serializer[Any]):
    table = number_field(required=False)


class MoveGroupSerializer(serializers.Serializer[Any]):
    move = serializers.CharField(help_text="GCG notation")
    shown = serializers.CharField(help_text="in the event's notation")
    score = serializers.IntegerField()
    is_top = serializers.BooleanField()
    rulings = RulingSerializer(many=True)


class ReviewSerializer(serializers.Serializer[Any]):
    """:func:`tournaments.selectors.round_review`: the scored moves best first, then the
    rulings by kind. Each ruling is in exactly one of ``groups`` (under its move, penalised
    ones too), ``invalid``, ``several``, ``blank``, ``missing``, ``late`` and ``corrected``
    (credited by the arbitrator without a move); ``overridden``, ``solos``, ``penalties``
    and ``found_top`` name them again."""

    round = RoundSerializer()
    rulings = RulingSerializer(many=True)
    groups = MoveGroupSerializer(many=True)
    valid = serializers.IntegerField(help_text="the slips scored for a move: the rulings in groups")
    invalid = RulingSerializer(many=True)
    several = RulingSerializer(many=True)
    blank = RulingSerializer(many=True)
    missing = RulingSerializer(many=True)
    late = RulingSerializer(many=True)
    corrected = RulingSerializer(many=True)
    overridden = RulingSerializer(many=True)
    solos = RulingSerializer(many=True)
    penalties = RulingSerializer(many=True)
    found_top = RulingSerializer(many=True)


class OverrideInputSerializer(serializers.Serializer[Any]):
    # Below 0 too: a warning penalty on a move scoring less than it leaves a negative round.
    credited = serializers.IntegerField(
        min_value=-MAX_CREDITED, max_value=MAX_CREDITED, help_text="the score credited for the round"
    )
    warnings = serializers.IntegerField(min_value=0, max_value=MAX_WARNINGS, required=False)
    penalty = serializers.IntegerField(min_value=0, max_value=MAX_CREDITED, required=False)
    reason = serializers.CharField(max_length=1000, help_text="kept in the history")


class AcceptShiftInputSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(max_length=1000, required=False, help_text="kept in the history")
