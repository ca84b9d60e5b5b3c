"""The standings, and the query that asks for them."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.serializers.base import number_field


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
    round = serializers.IntegerField(allow_null=True, help_text="the standings after this round of the game")
    category = serializers.CharField(allow_null=True)
    rows = StandingsRowSerializer(many=True)


class StandingsQuerySerializer(serializers.Serializer[Any]):
    game = number_field(required=False)
    round = number_field(required=False, help_text="with game: the standings as they stood after this round")
    category = serializers.CharField(max_length=40, required=False)
