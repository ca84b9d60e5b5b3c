"""A phone's slip in two statements: the hall's hot path (README, "A hall of phones").

A hall hands in thousands of slips in the last seconds of a round, nearly all of them the
plain case: a player's first slip of the round, in time, in a tournament, the round open
or closed after the slip was sent and not yet ruled (it queued behind the close). Through
:func:`~tournaments.services.slips.slip_submit` such a slip costs seven statements (the
token, BEGIN, the round locked, the player's slips, the slip, its history, COMMIT), the
round's lock held across five round trips to the database, each costing the web process
CPU as well as time: the hall benchmark found a slip's wall time, not the CPU, to be what
held the hall back. Here the plain case is:

1. one reading, without a lock: the token's player, its event, the event's current round
   and whether the player has a slip that matters to this one (one with this client_id,
   or a current one of this round);
2. in Python, the checks :func:`slip_submit` makes of such a slip, on what was read;
3. one writing, in one round trip: the round and the player locked as :func:`slip_submit`
   locks them, then the slip and its history entry inserted by one statement that reads
   again, under those locks, everything step 2 relied on. PostgreSQL runs the statements
   of one message as one transaction, each with a fresh snapshot, so the second sees
   whatever committed before the locks were granted (a slip of the same player, a close).

Anything else (no such token, a retry, a replacement, a late slip, a training mode, a
round being closed, a slip that cannot be read) is not decided here: :func:`phone_slip`
returns None and the caller takes the full path, which decides it and words the answer.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass
from typing import Any

import psycopg
from django.db import connection, transaction
from django.db.models import Model

from tournaments import rows
from tournaments.core import ApplicationError
from tournaments.models import Event, Game, HistoryEntry, Player, PlayerToken, Round, Slip
from tournaments.services.history import history_record
from tournaments.services.slips import (
    SubmitResult,
    _check_readable,
    _late,
    check_round,
    sent_time,
    slip_entry,
)


@dataclass(frozen=True)
class PhoneSlip:
    """A phone's slip as the API received it (validated: lengths, the score's range)."""

    key: str  # the player token's
    event_id: int
    coordinates: str
    word: str
    announced_score: int | None
    client_id: str
    for_round: tuple[int, int] | None
    received: dt.datetime
    sent_at: dt.datetime | None


_READ = rows.Columns(Round, Game, Event, Player)


def _c(model: type[Model], name: str) -> str:
    return rows.column(model, name)


def _own(model: type[Model], name: str) -> str:
    """The column of field ``name``, unqualified (for a table under another name)."""
    return rows.quote(str(getattr(model._meta.get_field(name), "column", name)))


@functools.cache
def _read_sql(vendor: str) -> str:
    """Step 1: the token's player, the current round of its event (as ``slip_submit``
    finds it: the last round of the game being played) and whether a slip matters."""
    return (
        f"SELECT {_READ.select()}, EXISTS ("
        f"SELECT 1 FROM {rows.table(Slip)} WHERE {_c(Slip, 'player')} = {_c(Player, 'pk')}"
        f" AND (({_c(Slip, 'round')} = {_c(Round, 'pk')} AND {_c(Slip, 'current')})"
        f" OR {_c(Slip, 'client_id')} = %s)"
        f") FROM {rows.table(PlayerToken)}"
        f" INNER JOIN {rows.table(Player)} ON {_c(Player, 'pk')} = {_c(PlayerToken, 'player')}"
        f" INNER JOIN {rows.table(Event)} ON {_c(Event, 'pk')} = {_c(Player, 'event')}"
        f" INNER JOIN {rows.table(Game)} ON {_c(Game, 'event')} = {_c(Event, 'pk')}"
        f" INNER JOIN {rows.table(Round)} ON {_c(Round, 'game')} = {_c(Game, 'pk')}"
        f" WHERE {_c(PlayerToken, 'key')} = %s AND {_c(PlayerToken, 'confirmed_at')} IS NOT NULL"
        f" AND {_c(Event, 'pk')} = %s AND {_c(Game, 'state')} = %s"
        f" ORDER BY {_c(Round, 'number')} DESC LIMIT 1"
    )


def _read_params(slip: PhoneSlip) -> list[Any]:
    return [slip.client_id, slip.key, slip.event_id, Game.State.PLAYING]


def _read(slip: PhoneSlip) -> tuple[Any, ...] | None:
    """Step 1: the row of :func:`_read_sql`, or None (no such token, no round)."""
    if connection.vendor == "postgresql":
        with _postgresql_cursor() as cursor:
            cursor.execute(_read_sql(connection.vendor), _read_params(slip), prepare=True)
            return cursor.fetchone()
    with connection.cursor() as cursor:
        cursor.execute(_read_sql(connection.vendor), _read_params(slip))
        row: tuple[Any, ...] | None = cursor.fetchone()
        return row


_SLIP_FIELDS = [f for f in Slip._meta.concrete_fields if not f.primary_key]
_HISTORY_FIELDS = [f for f in HistoryEntry._meta.concrete_fields if not f.primary_key]


@functools.cache
def _insert_sql(vendor: str) -> str:
    """The slip, inserted only if what the checks read still holds (under the locks)."""
    marks = ", ".join(_mark(f, vendor) for f in _SLIP_FIELDS)
    names = ", ".join(rows.quote(str(f.column)) for f in _SLIP_FIELDS)
    deadline, paused = _c(Round, "deadline"), _c(Round, "paused_at")
    return (
        f"INSERT INTO {rows.table(Slip)} ({names}) SELECT {marks} FROM {rows.table(Round)}"
        f" INNER JOIN {rows.table(Game)} ON {_c(Game, 'pk')} = {_c(Round, 'game')}"
        f" INNER JOIN {rows.table(Event)} ON {_c(Event, 'pk')} = {_c(Game, 'event')}"
        f" INNER JOIN {rows.table(Player)}"
        f" ON {_c(Player, 'pk')} = %s AND {_c(Player, 'event')} = {_c(Event, 'pk')}"
        f" INNER JOIN {rows.table(PlayerToken)} ON {_c(PlayerToken, 'player')} = {_c(Player, 'pk')}"
        f" AND {_c(PlayerToken, 'key')} = %s AND {_c(PlayerToken, 'confirmed_at')} IS NOT NULL"
        f" WHERE {_c(Round, 'pk')} = %s AND {_c(Game, 'state')} = %s"
        f" AND ({_c(Round, 'state')} = %s OR ({_c(Round, 'state')} = %s AND {_c(Round, 'closed_at')} >= %s))"
        f" AND {_c(Round, 'first_published_at')} IS NULL"
        f" AND ({deadline} IS NULL OR {paused} IS NOT NULL OR {deadline} >= %s)"
        f" AND {_c(Event, 'mode')} = %s AND {_c(Event, 'notation')} = %s AND {_c(Event, 'board')} = %s"
        f" AND {_c(Event, 'first_slip_best_placement')} = %s"
        f" AND {_c(Player, 'withdrawn_at')} IS NULL AND NOT EXISTS ("
        f"SELECT 1 FROM {rows.table(Slip)} AS known"
        f" WHERE known.{_own(Slip, 'player')} = {_c(Player, 'pk')}"
        f" AND ((known.{_own(Slip, 'round')} = {_c(Round, 'pk')} AND known.{_own(Slip, 'current')})"
        f" OR known.{_own(Slip, 'client_id')} = %s))"
        f" RETURNING {rows.quote('id')}"
    )


def _mark(field: Any, vendor: str) -> str:
    """A value's placeholder, with its column's type on PostgreSQL: the statements are
    prepared there, and a parameter in a SELECT list (a NULL above all) has no other."""
    if vendor != "postgresql":
        return "%s"
    return f"CAST(%s AS {field.db_type(connection)})"


@functools.cache
def _lock_sql(vendor: str) -> str:
    """The locks of step 3, as ``slip_submit`` takes them: the round shared, so that slips
    never wait for each other and the close waits for them; the player for update, so that
    two slips of one player go one after the other."""
    return (
        f"SELECT 1 FROM {rows.table(Round)} INNER JOIN {rows.table(Player)} ON {_c(Player, 'pk')} = %s"
        f" WHERE {_c(Round, 'pk')} = %s"
        f" FOR SHARE OF {rows.table(Round)} FOR NO KEY UPDATE OF {rows.table(Player)}"
    )


@functools.cache
def _write_sql(vendor: str) -> str:
    """Step 3 on PostgreSQL, after the locks: the slip and its history entry, one statement."""
    names = ", ".join(rows.quote(str(f.column)) for f in _HISTORY_FIELDS)
    values = ", ".join("slip.id" if f.name == "object_id" else _mark(f, vendor) for f in _HISTORY_FIELDS)
    return (
        f"WITH slip AS ({_insert_sql(vendor)})"
        f" INSERT INTO {rows.table(HistoryEntry)} ({names}) SELECT {values} FROM slip"
        f" RETURNING {rows.quote('object_id')}"
    )


def _postgresql_cursor() -> psycopg.Cursor[Any]:
    """A cursor binding its parameters on the server, so that the two statements of a
    slip are prepared once per connection (``prepare=True``) and only run afterwards: the
    hall benchmark found PostgreSQL planning them again at every slip (literal values,
    Django's client-side binding) to cost more than running them, 1.5 ms of its CPU a
    slip. The connection is Django's own (its adapters, its pool, its transaction state)."""
    connection.ensure_connection()
    return psycopg.Cursor(connection.connection)


def _prepared(fields: list[Any], instance: Model) -> list[Any]:
    return [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]


@dataclass
class _Plan:
    """What step 2 decided: the slip to write, its history entry, and the statements'
    parameters."""

    slip: Slip
    entry: HistoryEntry
    lock: list[Any]
    write: list[Any]  # the slip's, then the recheck's (the insert of SQLite)
    history: list[Any]  # the entry's, but for its object_id (the slip's id)


def _plan(slip: PhoneSlip, row: tuple[Any, ...] | None) -> _Plan | None:
    """Step 2 on the row of step 1: the plan of step 3, or None where the full path decides."""
    if row is None:
        return None
    round, game, event, player = _READ.instances(row[:-1])
    game.event = event
    round.game = game
    player.event = event
    known = bool(row[-1])
    sent = sent_time(slip.received, slip.sent_at, Slip.Source.PHONE)
    handed = sent or slip.received
    # Closed and not yet ruled: the ruling to come reads it (it takes the round's lock
    # before the slips); ruled already, slip_submit rules the round again.
    if known or player.withdrawn_at is not None or round.state not in (Round.State.OPEN, Round.State.CLOSED):
        return None
    if event.mode != Event.Mode.TOURNAMENT or _late(round, handed, slip.received, Slip.Source.PHONE):
        return None
    try:
        check_round(round, slip.for_round)
        _check_readable(round, slip.coordinates, slip.word)
    except ApplicationError:
        return None
    new = Slip(
        round=round,
        player=player,
        coordinates=slip.coordinates,
        word=slip.word,
        announced_score=slip.announced_score,
        received_at=slip.received,
        sent_at=sent,
        source=Slip.Source.PHONE,
        entered_by=None,
        client_id=slip.client_id,
        late=False,
        current=True,
    )
    recheck = [
        player.pk, slip.key, round.pk, Game.State.PLAYING,
        Round.State.OPEN, Round.State.CLOSED, connection.ops.adapt_datetimefield_value(handed),
        connection.ops.adapt_datetimefield_value(handed),
        event.mode, event.notation, event.board, event.first_slip_best_placement, slip.client_id,
    ]  # fmt: skip
    entry = HistoryEntry(
        event=event,
        entity="slip",
        object_id=0,  # the slip's, given by the statement
        action="submit",
        actor=None,
        actor_label="system",
        new=slip_entry(new, round),
    )
    history = [
        value for f, value in zip(_HISTORY_FIELDS, _prepared(_HISTORY_FIELDS, entry), strict=True)
        if f.name != "object_id"
    ]  # fmt: skip
    return _Plan(new, entry, [player.pk, round.pk], _prepared(_SLIP_FIELDS, new) + recheck, history)


def _written(plan: _Plan, written: tuple[Any, ...] | None) -> SubmitResult | None:
    if written is None:
        return None
    plan.slip.pk = written[0]
    plan.slip._state.adding = False
    plan.slip._state.db = connection.alias
    return SubmitResult(plan.slip)


def phone_slip(slip: PhoneSlip) -> SubmitResult | None:
    """Record ``slip`` when it is the plain case (see the module's text); None otherwise,
    nothing written: the caller hands it to ``slip_submit``."""
    plan = _plan(slip, _read(slip))
    if plan is None:
        return None
    if connection.vendor == "postgresql":
        # One round trip: BEGIN, the locks, the rows, COMMIT sent together (pipeline mode),
        # each statement with a snapshot of its own, taken after the locks were granted.
        raw = connection.connection
        with _postgresql_cursor() as lock, _postgresql_cursor() as write:
            with raw.pipeline(), raw.transaction():
                lock.execute(_lock_sql(connection.vendor), plan.lock, prepare=True)
                write.execute(_write_sql(connection.vendor), [*plan.write, *plan.history], prepare=True)
            written = write.fetchone()
    else:
        # SQLite takes one writer at a time (the settings' IMMEDIATE transactions): the same
        # statement, then the entry, in one transaction.
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(_insert_sql(connection.vendor), plan.write)
                written = cursor.fetchone()
            if written is not None:
                history_record(
                    event=plan.entry.event, entity="slip", object_id=written[0], action="submit",
                    by=None, new=plan.entry.new,
                )  # fmt: skip
    return _written(plan, written)


async def aphone_slip(slip: PhoneSlip, db: psycopg.AsyncConnection[Any]) -> SubmitResult | None:
    """:func:`phone_slip` on PostgreSQL for a caller on the event loop (arbiter/asgi.py), on
    ``db``, a connection of its own in autocommit mode: the same statements, the process's
    thread never waited for (a hall's slips waited there for each other's round trips)."""
    async with psycopg.AsyncCursor(db) as cursor:
        await cursor.execute(_read_sql("postgresql"), _read_params(slip), prepare=True)
        plan = _plan(slip, await cursor.fetchone())
    if plan is None:
        return None
    async with psycopg.AsyncCursor(db) as lock, psycopg.AsyncCursor(db) as write:
        async with db.pipeline(), db.transaction():
            await lock.execute(_lock_sql("postgresql"), plan.lock, prepare=True)
            await write.execute(_write_sql("postgresql"), [*plan.write, *plan.history], prepare=True)
        written = await write.fetchone()
    return _written(plan, written)
