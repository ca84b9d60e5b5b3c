"""A game, and the game as the phones and the projector show it: the board, the tiles, the
rounds placed."""

from __future__ import annotations

import dataclasses
from typing import Any

from rest_framework import serializers

from solver.formats.record import END_REASONS
from tournaments.models import Game, Round
from tournaments.selectors.shown import GameView


class GameStateField(serializers.ChoiceField):
    """A game's state: its own schema component (see :mod:`api.schema`)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=Game.State.choices, **kwargs)


class GameSerializer(serializers.ModelSerializer[Game]):
    state = GameStateField(read_only=True)

    class Meta:
        model = Game
        fields = ["number", "state", "end_reason", "started_at", "ended_at"]
        read_only_fields = fields


class GameEndInputSerializer(serializers.Serializer[Any]):
    reason = serializers.ChoiceField(choices=[(code, text) for code, text in END_REASONS.items() if code])


class GameOverSerializer(serializers.Serializer[Any]):
    """A draw that ends the game (the bag and rack cannot meet the minimums)."""

    game_over = serializers.BooleanField()
    game = GameSerializer()


class CellSerializer(serializers.Serializer[Any]):
    row = serializers.IntegerField()
    col = serializers.IntegerField()
    letter = serializers.CharField(help_text="empty for an empty square; lowercase for a blank")
    premium = serializers.CharField(help_text="l2, l3, l4, w2, w3, w4 or empty")
    value = serializers.IntegerField()
    name = serializers.CharField(help_text="the square in the event's notation")
    new = serializers.BooleanField(help_text="placed by the last placed move")
    centre = serializers.BooleanField()


class BoardRowSerializer(serializers.Serializer[Any]):
    row_label = serializers.CharField(help_text="as the notation names the row")
    cells = CellSerializer(many=True)


class TileValueSerializer(serializers.Serializer[Any]):
    letter = serializers.CharField()
    value = serializers.IntegerField()


class TileCountSerializer(TileValueSerializer):
    count = serializers.IntegerField()


class PlacedRoundSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    rack = serializers.CharField(help_text="reliquat+new tiles")
    move = serializers.CharField(help_text="in the event's notation")
    score = serializers.IntegerField()
    top_score = serializers.IntegerField()


class GameViewSerializer(serializers.Serializer[Any]):
    """A :class:`~tournaments.selectors.GameView`: the game as phones and the projector
    show it. The rack is empty until the round opens; the tops come after adjudication."""

    event_id = serializers.IntegerField()
    game = serializers.IntegerField()
    game_state = GameStateField()
    round = serializers.IntegerField(allow_null=True)
    state = serializers.ChoiceField(choices=Round.State.choices, allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    rows = BoardRowSerializer(many=True)
    col_labels = serializers.ListField(child=serializers.CharField())
    rack = serializers.CharField()
    rack_values = TileValueSerializer(many=True)
    to_come = TileCountSerializer(many=True, help_text="the tiles not seen yet: bag, and rack until open")
    to_come_total = serializers.IntegerField()
    values = TileValueSerializer(many=True)
    placed = PlacedRoundSerializer(many=True)
    top_total = serializers.IntegerField()
    top_score = serializers.IntegerField(allow_null=True)
    tops = serializers.ListField(child=serializers.CharField(), help_text="in the event's notation")
    chosen = serializers.CharField(help_text="in the event's notation")

    def to_representation(self, instance: GameView) -> dict[str, Any]:
        data = dataclasses.asdict(instance)
        data["rows"] = [{"row_label": label, "cells": cells} for label, cells in data["rows"]]
        data["rack_values"] = [{"letter": ch, "value": v} for ch, v in data["rack_values"]]
        data["values"] = [{"letter": ch, "value": v} for ch, v in data["values"]]
        data["to_come"] = [{"letter": ch, "count": n, "value": v} for ch, n, v in data["to_come"]]
        result: dict[str, Any] = super().to_representation(data)
        return result
