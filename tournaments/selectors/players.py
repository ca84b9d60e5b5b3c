"""Players and their phones' tokens: who sits at a table, which token a phone holds, the
phones waiting for the arbitrator's confirmation."""

from __future__ import annotations

from typing import Any, cast

import psycopg
from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone

from tournaments import statements
from tournaments.models import Event, Player, PlayerToken
from tournaments.models.players import JOIN_WAIT


def player_token(key: str) -> PlayerToken | None:
    """The token of ``key`` with its player and the player's event, or None; a token
    waiting for the arbitrator's confirmation is none yet. Every slip of a hall reads it
    (the API's player authentication): :func:`tournaments.statements.confirmed_token`."""
    found = statements.confirmed_token.rows([key])
    return _token_of(found[0]) if found else None


async def aplayer_tokens(keys: list[str], db: psycopg.AsyncConnection[Any]) -> dict[str, PlayerToken]:
    """:func:`player_token` of each of ``keys`` found, by key, on an event loop, through
    ``db`` (PostgreSQL: arbiter/hall.py, the phones' live streams opened there)."""
    async with psycopg.AsyncCursor(db) as cursor:
        await cursor.execute(statements.confirmed_token.sql("postgresql", many=True), [keys], prepare=True)
        found = [_token_of(row) for row in statements.confirmed_token.instances(await cursor.fetchall())]
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


def confirmed_token_keys(keys: set[str]) -> set[str]:
    """Those of ``keys`` that are the keys of confirmed tokens, as stored now."""
    confirmed = PlayerToken.objects.filter(key__in=keys, confirmed_at__isnull=False)
    return set(confirmed.values_list("key", flat=True))


def player_at_table(event: Event, table: int) -> Player | None:
    return event.players.at_table(table).first()


def person_at_table(event: Event, table: int) -> Player | None:
    """The person (no virtual player) at ``table``."""
    return event.players.people().at_table(table).first()


def person_named(event: Event, name: str) -> Player | None:
    """The one person of ``event`` named ``name`` (in any case); None for none, or for two."""
    named = list(event.players.people().filter(name__iexact=name)[:2])
    return named[0] if len(named) == 1 else None


def event_player(event: Event, player_id: int) -> Player | None:
    """A player of ``event`` only: an id from another event is not found."""
    return event.players.filter(pk=player_id).first()


def event_players(event: Event) -> QuerySet[Player]:
    return Player.objects.filter(event=event).order_by("table")


def event_people(event: Event) -> QuerySet[Player]:
    """The event's people (its virtual players left out), by table."""
    return event.players.people().order_by("table")


def virtual_players(event: Event) -> QuerySet[Player]:
    """The event's virtual players still playing, by table."""
    return Player.objects.filter(event=event, virtual_level__isnull=False).playing().order_by("table")


def players_by_table(event: Event) -> dict[int, Player]:
    return {p.table: p for p in event.players.all()}


def players_with_phones(event: Event) -> QuerySet[Player]:
    """The event's players by table, each with its phone's confirmation time and address
    (``phone_at``, ``phone_address``; None without a phone)."""
    phones = PlayerToken.objects.filter(player=OuterRef("pk"), confirmed_at__isnull=False)
    return event.players.order_by("table").annotate(
        phone_at=Subquery(phones.values("confirmed_at")[:1]),
        phone_address=Subquery(phones.values("address")[:1]),
    )


def event_categories(event: Event) -> list[str]:
    """The categories of the event's players, in alphabetical order."""
    return sorted({c for c in event.players.values_list("category", flat=True) if c})
