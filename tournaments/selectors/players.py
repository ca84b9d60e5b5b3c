"""Players and their phones' tokens: who sits at a table, which token a phone holds, the
phones waiting for the arbitrator's confirmation."""

from __future__ import annotations

import functools
from typing import Any, cast

import psycopg
from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone

from tournaments import rows
from tournaments.models import JOIN_WAIT, Event, Player, PlayerToken

_TOKEN = rows.Columns(PlayerToken, Player, Event)


@functools.cache
def _token_sql(vendor: str, match: str = "= %s") -> str:
    c = rows.column
    return (
        f"SELECT {_TOKEN.select()} FROM {rows.table(PlayerToken)}"
        f" INNER JOIN {rows.table(Player)} ON {c(Player, 'pk')} = {c(PlayerToken, 'player')}"
        f" INNER JOIN {rows.table(Event)} ON {c(Event, 'pk')} = {c(Player, 'event')}"
        f" WHERE {c(PlayerToken, 'key')} {match} AND {c(PlayerToken, 'confirmed_at')} IS NOT NULL"
    )


def player_token(key: str) -> PlayerToken | None:
    """The token of ``key`` with its player and the player's event, or None; a token
    waiting for the arbitrator's confirmation is none yet. Every slip of a hall reads it
    (the API's player authentication): in SQL written once (tournaments/rows.py)."""
    found = rows.fetch(_token_sql(connection.vendor), [key], _TOKEN)
    return _token_of(found[0]) if found else None


async def aplayer_tokens(keys: list[str], db: psycopg.AsyncConnection[Any]) -> dict[str, PlayerToken]:
    """:func:`player_token` of each of ``keys`` found, by key, on an event loop, through
    ``db`` (PostgreSQL: arbiter/hall.py, the phones' live streams opened there)."""
    async with psycopg.AsyncCursor(db) as cursor:
        await cursor.execute(_token_sql("postgresql", "= ANY(%s)"), [keys], prepare=True)
        found = [_token_of(_TOKEN.instances(row)) for row in await cursor.fetchall()]
    return {token.key: token for token in found}


def _token_of(found: list[Any]) -> PlayerToken:
    token, player, event = found
    player.event = event
    token.player = player
    return cast(PlayerToken, token)


def waiting_token(key: str) -> PlayerToken | None:
    """The token of ``key`` while it waits for the arbitrator's confirmation."""
    if not key:
        return None
    return _waiting().filter(key=key).select_related("player").first()


def join_requests(event: Event) -> list[PlayerToken]:
    """The phones waiting for the arbitrator's confirmation, the first asked first."""
    return list(_waiting().filter(player__event=event).select_related("player").order_by("created_at", "pk"))


def _waiting() -> QuerySet[PlayerToken]:
    """Tokens waiting for a confirmation, and not for longer than :data:`JOIN_WAIT`."""
    return PlayerToken.objects.filter(confirmed_at__isnull=True, created_at__gte=timezone.now() - JOIN_WAIT)


def player_at_table(event: Event, table: int) -> Player | None:
    return event.players.at_table(table).first()


def event_players(event: Event) -> QuerySet[Player]:
    return Player.objects.filter(event=event).order_by("table")
