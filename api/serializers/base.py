"""What the shapes of every endpoint share: numbers within the database's columns, the
error answer."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

#: Tables, game and round numbers are PositiveIntegerFields: PostgreSQL's integer, the
#: narrowest of the databases. A bigger number would reach the database and fail there
#: (DataError on PostgreSQL, OverflowError on SQLite): a 500 instead of a refusal.
MAX_NUMBER = 2_147_483_647


def number_field(**kwargs: Any) -> serializers.IntegerField:
    """A table, game or round number: 1 or more, and within the column."""
    return serializers.IntegerField(min_value=1, max_value=MAX_NUMBER, **kwargs)


class ErrorDetailSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    message = serializers.CharField()
    detail = serializers.JSONField()


class ErrorSerializer(serializers.Serializer[Any]):
    error = ErrorDetailSerializer()
