"""A round, its answers kept from the players until they are shown, and the arbitrator's
actions on it: the draw, the clock, the top chosen, the placement."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import serializers

from tournaments.models import Round
from tournaments.selectors.games import player_sight

#: A round's fields that reveal the answer: the arbitrator's, the players' once ruled.
SECRET_ROUND_FIELDS = ("top_score", "tops", "move_count")


class RoundSerializer(serializers.ModelSerializer[Round]):
    """Pass ``context={"arbitrator": bool}``: players get ``null`` in the secret fields
    until the round is adjudicated, and no rack before it is opened. ``tops`` and
    ``chosen`` are the moves as stored, in GCG notation whatever the event's: ``game/``
    gives them in the event's notation, the one ``top/`` reads."""

    game = serializers.IntegerField(source="game.number", read_only=True)
    rack = serializers.SerializerMethodField()
    reliquat = serializers.SerializerMethodField()
    new_tiles = serializers.SerializerMethodField()
    rejected = serializers.ListField(child=serializers.CharField(), read_only=True)
    tops = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        read_only=True,
        help_text="GCG notation, whatever the event's (game/ gives them in the event's notation)",
    )
    chosen = serializers.CharField(
        read_only=True,
        help_text="the move to be placed or placed, in GCG notation whatever the event's; empty until chosen",
    )

    class Meta:
        model = Round
        fields = [
            "game",
            "number",
            "state",
            "rack",
            "reliquat",
            "new_tiles",
            "rejected",
            "manual",
            "deadline",
            "paused_at",
            "opened_at",
            "closed_at",
            "published_at",
            "move_count",
            "top_score",
            "tops",
            "chosen",
            "chosen_score",
        ]
        read_only_fields = fields

    def _hidden(self, round: Round) -> bool:
        return not self.context.get("arbitrator") and not player_sight(round).rack

    def get_rack(self, round: Round) -> str | None:
        return None if self._hidden(round) else round.rack

    def get_reliquat(self, round: Round) -> str | None:
        return None if self._hidden(round) else round.reliquat

    def get_new_tiles(self, round: Round) -> str | None:
        return None if self._hidden(round) else round.new_tiles

    def to_representation(self, instance: Round) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        if not self.context.get("arbitrator"):
            sight = player_sight(instance)
            if not sight.answers:
                for name in SECRET_ROUND_FIELDS:
                    data[name] = None
            if not sight.placed:
                data["chosen"], data["chosen_score"] = "", None
        return data


class DrawInputSerializer(serializers.Serializer[Any]):
    typed = serializers.CharField(
        max_length=20,
        required=False,
        help_text="a rack drawn by hand, reliquat included ('?' for a blank); a random draw without it",
    )
    rejected = serializers.ListField(
        child=serializers.CharField(max_length=20),
        required=False,
        default=list,
        help_text="the racks drawn by hand before it and rejected by the vowel/consonant rule",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["rejected"] and not attrs.get("typed"):
            raise serializers.ValidationError({"rejected": [_("rejected racks come with a typed rack")]})
        return attrs


class OpenInputSerializer(serializers.Serializer[Any]):
    seconds = serializers.IntegerField(
        min_value=1, max_value=24 * 3600, required=False, help_text="the event's time per round without it"
    )


class ReopenInputSerializer(serializers.Serializer[Any]):
    seconds = serializers.IntegerField(
        min_value=1,
        max_value=3600,
        required=False,
        help_text="the clock once reopened; without it the time that was left at the close, else 60",
    )
    reason = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        help_text="required once the round's results were shown: kept in the history; every slip after"
        " that first publication is then late",
    )


class AddTimeInputSerializer(serializers.Serializer[Any]):
    seconds = serializers.IntegerField(
        min_value=1, max_value=3600, help_text="added to the clock of the open round, running or paused"
    )


class TopInputSerializer(serializers.Serializer[Any]):
    move = serializers.CharField(
        max_length=40,
        help_text="in the event's notation: 'H8 PROOF' in FISF, '8H PROOF' in GCG, 'h8,a,proof' in Scramble",
    )
    confirm_lower = serializers.BooleanField(
        default=False, help_text="place a move scoring less than the top (refused without it)"
    )


class TopChoiceSerializer(serializers.Serializer[Any]):
    round = RoundSerializer()
    warning = serializers.CharField(help_text="set when the move scores less than the top")


class PlaceInputSerializer(DrawInputSerializer):
    """The next rack may come typed from a physical draw: refused, it refuses the placement
    with it (nothing placed: type it again)."""

    draw_next = serializers.BooleanField(
        default=True, help_text="draw the next rack at random (when no rack is typed)"
    )


class PlaceResultSerializer(serializers.Serializer[Any]):
    placed = RoundSerializer()
    next = RoundSerializer(allow_null=True, help_text="null without draw_next, or when the game ended")
    game_over = serializers.BooleanField()
