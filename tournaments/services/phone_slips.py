"""A phone's slip in one round trip: the hall's hot path (docs/architecture.md, "How a
process serves a hall").

A hall hands in thousands of slips in the last seconds of a round, nearly all of them the
plain case: a player's first slip of the round, in time, in a tournament, the round open
or closed after the slip was sent and not yet ruled (it queued behind the close). Through
:func:`~tournaments.services.slips.slip_submit` such a slip costs seven statements (the
token, BEGIN, the round locked, the player's slips, the slip, its history, COMMIT), the
round's lock held across five round trips to the database, each costing the web process
CPU as well as time: a slip's wall time, not the CPU, is what holds a hall back
(docs/decisions.md). Here the plain case is:

1. the event's current round, its game and the event, as this process last read them (at
   most :data:`KNOWN_SECONDS` ago; read when not known): the same for every slip of the
   hall, so not read again for each one;
2. in Python, the checks :func:`slip_submit` makes of such a slip, on that round;
3. one writing, in one round trip: the round and the token's player locked as
   :func:`slip_submit` locks them, then the slip and its history entry inserted by one
   statement that reads again, under those locks, everything step 2 relied on, and what
   step 1 did not read: the token, its player, the player's slips. PostgreSQL runs the
   statements of one message as one transaction, each with a fresh snapshot, so the
   second sees whatever committed before the locks were granted (a slip of the same
   player, a close).

Nothing is written when a check of step 3 fails: the round this process knew has changed
(it is read again, and the slip tried once more) or the slip is not the plain case (no
such token, a retry, a replacement, a late slip, a training mode, a round being closed, a
slip that cannot be read): :func:`phone_slip` returns None and the caller takes the full
path, which decides it and words the answer. What step 1 knew decides nothing by itself.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
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


_CURRENT = rows.Columns(Round, Game, Event)
#: How long a process takes the current round it read for the round of its slips (step 1).
#: Not for their checks, which step 3 makes again: a round that changed meanwhile costs
#: a slip a second reading, nothing else.
KNOWN_SECONDS = 2.0
#: event id -> (monotonic time of the reading, the current round, its game and event set).
#: The instances are shared by the process's slips and only read.
_known: dict[int, tuple[float, Round]] = {}


def _c(model: type[Model], name: str) -> str:
    return rows.column(model, name)


def _own(model: type[Model], name: str) -> str:
    """The column of field ``name``, unqualified (for a table under another name)."""
    return rows.quote(str(getattr(model._meta.get_field(name), "column", name)))


@functools.cache
def _current_sql(vendor: str) -> str:
    """Step 1: the current round of an event, as ``slip_submit`` finds it: the last round
    of the game being played."""
    return (
        f"SELECT {_CURRENT.select()} FROM {rows.table(Event)}"
        f" INNER JOIN {rows.table(Game)} ON {_c(Game, 'event')} = {_c(Event, 'pk')}"
        f" INNER JOIN {rows.table(Round)} ON {_c(Round, 'game')} = {_c(Game, 'pk')}"
        f" WHERE {_c(Event, 'pk')} = %s AND {_c(Game, 'state')} = %s"
        f" ORDER BY {_c(Round, 'number')} DESC LIMIT 1"
    )


def _current_params(event_id: int) -> list[Any]:
    return [event_id, Game.State.PLAYING]


def _remember(event_id: int, row: tuple[Any, ...] | None) -> Round | None:
    if row is None:
        _known.pop(event_id, None)
        return None
    round: Round
    round, game, event = _CURRENT.instances(row)
    game.event = event
    round.game = game
    _known[event_id] = (time.monotonic(), round)
    return round


def _known_round(event_id: int) -> Round | None:
    known = _known.get(event_id)
    if known is None or time.monotonic() - known[0] >= KNOWN_SECONDS:
        return None
    return known[1]


def forget() -> None:
    """Forget the rounds read (tests: a test's database goes with it)."""
    _known.clear()


def _current(event_id: int) -> Round | None:
    """Step 1, read now (and remembered)."""
    if connection.vendor == "postgresql":
        with _postgresql_cursor() as cursor:
            cursor.execute(_current_sql(connection.vendor), _current_params(event_id), prepare=True)
            return _remember(event_id, cursor.fetchone())
    with connection.cursor() as cursor:
        cursor.execute(_current_sql(connection.vendor), _current_params(event_id))
        return _remember(event_id, cursor.fetchone())


_SLIP_FIELDS = [f for f in Slip._meta.concrete_fields if not f.primary_key]
#: Given by the statement: the token's player.
_SLIP_PLAYER = Slip._meta.get_field("player")
_HISTORY_FIELDS = [f for f in HistoryEntry._meta.concrete_fields if not f.primary_key]


@functools.cache
def _insert_sql(vendor: str) -> str:
    """The slip, inserted only if what the checks read still holds (under the locks), for
    the token's player."""
    marks = ", ".join(_c(Player, "pk") if f is _SLIP_PLAYER else _mark(f, vendor) for f in _SLIP_FIELDS)
    names = ", ".join(rows.quote(str(f.column)) for f in _SLIP_FIELDS)
    deadline, paused = _c(Round, "deadline"), _c(Round, "paused_at")
    return (
        f"INSERT INTO {rows.table(Slip)} ({names}) SELECT {marks} FROM {rows.table(Round)}"
        f" INNER JOIN {rows.table(Game)} ON {_c(Game, 'pk')} = {_c(Round, 'game')}"
        f" INNER JOIN {rows.table(Event)} ON {_c(Event, 'pk')} = {_c(Game, 'event')}"
        f" INNER JOIN {rows.table(Player)} ON {_c(Player, 'event')} = {_c(Event, 'pk')}"
        f" INNER JOIN {rows.table(PlayerToken)} ON {_c(PlayerToken, 'player')} = {_c(Player, 'pk')}"
        f" AND {_c(PlayerToken, 'key')} = %s AND {_c(PlayerToken, 'confirmed_at')} IS NOT NULL"
        f" WHERE {_c(Round, 'pk')} = %s AND {_c(Game, 'state')} = %s"
        f" AND ({_c(Round, 'state')} = %s OR ({_c(Round, 'state')} = %s AND {_c(Round, 'closed_at')} >= %s))"
        f" AND {_c(Round, 'first_published_at')} IS NULL"
        f" AND ({deadline} IS NULL OR {paused} IS NOT NULL OR {deadline} >= %s)"
        f" AND {_c(Event, 'mode')} = %s AND {_c(Event, 'notation')} = %s AND {_c(Event, 'board')} = %s"
        f" AND {_c(Event, 'first_slip_best_placement')} = %s"
        # Still the event's current round (step 1 may be a few seconds old).
        f" AND NOT EXISTS (SELECT 1 FROM {rows.table(Round)} AS later"
        f" INNER JOIN {rows.table(Game)} AS its ON its.{_own(Game, 'id')} = later.{_own(Round, 'game')}"
        f" WHERE its.{_own(Game, 'event')} = {_c(Event, 'pk')} AND its.{_own(Game, 'state')} = %s"
        f" AND later.{_own(Round, 'number')} > {_c(Round, 'number')})"
        f" AND {_c(Player, 'withdrawn_at')} IS NULL AND NOT EXISTS ("
        f"SELECT 1 FROM {rows.table(Slip)} AS known"
        f" WHERE known.{_own(Slip, 'player')} = {_c(Player, 'pk')}"
        f" AND ((known.{_own(Slip, 'round')} = {_c(Round, 'pk')} AND known.{_own(Slip, 'current')})"
        f" OR known.{_own(Slip, 'client_id')} = %s))"
        f" RETURNING {rows.quote('id')}, {_own(Slip, 'player')}"
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
    never wait for each other and the close waits for them; the token's player for update,
    so that two slips of one player go one after the other."""
    return (
        f"SELECT 1 FROM {rows.table(Round)}, {rows.table(PlayerToken)}"
        f" INNER JOIN {rows.table(Player)} ON {_c(Player, 'pk')} = {_c(PlayerToken, 'player')}"
        f" WHERE {_c(Round, 'pk')} = %s AND {_c(PlayerToken, 'key')} = %s"
        f" FOR SHARE OF {rows.table(Round)} FOR NO KEY UPDATE OF {rows.table(Player)}"
    )


@functools.cache
def _write_sql(vendor: str, into: str = "") -> str:
    """Step 3 on PostgreSQL, after the locks: the slip and its history entry, one statement
    (the entry's ``new`` given the slip's player); ``into``: PL/pgSQL's INTO clause."""
    names = ", ".join(rows.quote(str(f.column)) for f in _HISTORY_FIELDS)
    values = ", ".join(_history_value(f, vendor) for f in _HISTORY_FIELDS)
    return (
        f"WITH slip AS ({_insert_sql(vendor)}),"
        f" entry AS (INSERT INTO {rows.table(HistoryEntry)} ({names}) SELECT {values} FROM slip)"
        f" SELECT {rows.quote('id')}, {_own(Slip, 'player')}{into} FROM slip"
    )


#: Step 3 for a batch of slips on the event loop (arbiter/hall.py): a function of each
#: connection's own (created with it), run in one statement, one round trip and one
#: transaction for every slip that queued while the previous batch was written.
BATCH_FUNCTION = "pg_temp.arbiter_phone_slips"


def _recheck_fields() -> list[Any]:
    """The columns the recheck's parameters are compared with, in the order of _plan's."""
    token, round, game, event = PlayerToken._meta, Round._meta, Game._meta, Event._meta
    return [
        token.get_field("key"), round.pk, game.get_field("state"), round.get_field("state"),
        round.get_field("state"), round.get_field("closed_at"), round.get_field("deadline"),
        event.get_field("mode"), event.get_field("notation"), event.get_field("board"),
        event.get_field("first_slip_best_placement"), game.get_field("state"),
        Slip._meta.get_field("client_id"),
    ]  # fmt: skip


@functools.cache
def _batch_types() -> list[str]:
    """The SQL type of each parameter of a plan (:class:`_Plan`, ``lock + write + history``)."""
    fields = [
        Round._meta.pk, PlayerToken._meta.get_field("key"),
        *(f for f in _SLIP_FIELDS if f is not _SLIP_PLAYER), *_recheck_fields(),
        *(f for f in _HISTORY_FIELDS if f.name != "object_id"),
    ]  # fmt: skip
    return [str(f.db_type(connection)) for f in fields]


def _arrayed(sql: str, first: int) -> str:
    """``sql`` with its placeholders as the i-th items of the function's arrays from ``first``."""
    parts = sql.split("%s")
    return parts[0] + "".join(f"p{first + n}[i]{part}" for n, part in enumerate(parts[1:]))


@functools.cache
def batch_function_sql() -> str:
    """The batch function (its CREATE): the round locked once for all, then for each slip,
    as :func:`phone_slip` does it, the player locked and the slip written, each statement
    with a snapshot of its own taken after its locks were granted."""
    types = _batch_types()
    arguments = ", ".join(f"p{n} {kind}[]" for n, kind in enumerate(types, 1))
    player_lock = (
        f"PERFORM 1 FROM {rows.table(PlayerToken)}"
        f" INNER JOIN {rows.table(Player)} ON {_c(Player, 'pk')} = {_c(PlayerToken, 'player')}"
        f" WHERE {_c(PlayerToken, 'key')} = p2[i] FOR NO KEY UPDATE OF {rows.table(Player)}"
    )
    write = _arrayed(_write_sql("postgresql", " INTO slip_id, slip_player"), 3)
    return (
        f"CREATE OR REPLACE FUNCTION {BATCH_FUNCTION}({arguments})"
        f" RETURNS TABLE (slip_index integer, slip_id {Slip._meta.pk.db_type(connection)},"
        f" slip_player {Player._meta.pk.db_type(connection)})"
        " LANGUAGE plpgsql AS $arbiter$\n#variable_conflict use_column\nBEGIN\n"
        f"PERFORM 1 FROM {rows.table(Round)} WHERE {_c(Round, 'pk')} = ANY(p1)"
        f" FOR SHARE OF {rows.table(Round)};\n"
        f"FOR i IN 1 .. cardinality(p1) LOOP\n{player_lock};\n{write};\n"
        "slip_index := i;\nRETURN NEXT;\nEND LOOP;\nEND\n$arbiter$"
    )


@functools.cache
def _batch_call_sql() -> str:
    casts = ", ".join(f"CAST(%s AS {kind}[])" for kind in _batch_types())
    return f"SELECT slip_index, slip_id, slip_player FROM {BATCH_FUNCTION}({casts})"


def _history_value(field: Any, vendor: str) -> str:
    if field.name == "object_id":
        return f"slip.{rows.quote('id')}"
    if field.name == "new":
        return f"{_mark(field, vendor)} || jsonb_build_object('player', slip.{_own(Slip, 'player')})"
    return _mark(field, vendor)


def _postgresql_cursor() -> psycopg.Cursor[Any]:
    """A cursor binding its parameters on the server, so that the statements of a slip
    are prepared once per connection (``prepare=True``) and only run afterwards: planned
    again at every slip (literal values, Django's client-side binding), they would cost
    PostgreSQL more than running them (docs/decisions.md). The
    connection is Django's own (its adapters, its pool, its transaction state)."""
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


def _plan(slip: PhoneSlip, round: Round | None) -> _Plan | None:
    """Step 2 on the round of step 1: the plan of step 3, or None where the full path decides."""
    if round is None:
        return None
    game = round.game
    event = game.event
    sent = sent_time(slip.received, slip.sent_at, Slip.Source.PHONE)
    handed = sent or slip.received
    # Closed and not yet ruled: the ruling to come reads it (it takes the round's lock
    # before the slips); ruled already, slip_submit rules the round again.
    if round.state not in (Round.State.OPEN, Round.State.CLOSED):
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
        slip.key, round.pk, Game.State.PLAYING,
        Round.State.OPEN, Round.State.CLOSED, connection.ops.adapt_datetimefield_value(handed),
        connection.ops.adapt_datetimefield_value(handed),
        event.mode, event.notation, event.board, event.first_slip_best_placement, Game.State.PLAYING,
        slip.client_id,
    ]  # fmt: skip
    entry = HistoryEntry(
        event=event,
        entity="slip",
        object_id=0,  # the slip's, given by the statement
        action="submit",
        actor=None,
        actor_label="system",
        new=slip_entry(new, round),  # its player given by the statement
    )
    history = [
        value for f, value in zip(_HISTORY_FIELDS, _prepared(_HISTORY_FIELDS, entry), strict=True)
        if f.name != "object_id"
    ]  # fmt: skip
    values = [
        v for f, v in zip(_SLIP_FIELDS, _prepared(_SLIP_FIELDS, new), strict=True) if f is not _SLIP_PLAYER
    ]
    return _Plan(new, entry, [round.pk, slip.key], values + recheck, history)


def _written(plan: _Plan, written: tuple[Any, ...] | None) -> SubmitResult | None:
    if written is None:
        return None
    plan.slip.pk, plan.slip.player_id = written[0], written[1]
    plan.slip._state.adding = False
    plan.slip._state.db = connection.alias
    return SubmitResult(plan.slip)


def _write(plan: _Plan) -> SubmitResult | None:
    """Step 3."""
    if connection.vendor == "postgresql":
        # One round trip: BEGIN, the locks, the rows, COMMIT sent together (pipeline mode),
        # each statement with a snapshot of its own, taken after the locks were granted.
        with _postgresql_cursor() as lock, _postgresql_cursor() as write:
            with lock.connection.pipeline(), lock.connection.transaction():
                lock.execute(_lock_sql(connection.vendor), plan.lock, prepare=True)
                write.execute(_write_sql(connection.vendor), [*plan.write, *plan.history], prepare=True)
            return _written(plan, write.fetchone())
    # SQLite takes one writer at a time (the settings' IMMEDIATE transactions): the same
    # statement, then the entry, in one transaction.
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(_insert_sql(connection.vendor), plan.write)
            written = cursor.fetchone()
        if written is not None:
            history_record(
                event=plan.entry.event, entity="slip", object_id=written[0], action="submit",
                by=None, new={**(plan.entry.new or {}), "player": written[1]},
            )  # fmt: skip
    return _written(plan, written)


def phone_slip(slip: PhoneSlip) -> SubmitResult | None:
    """Record ``slip`` when it is the plain case (see the module's text); None otherwise,
    nothing written: the caller hands it to ``slip_submit``."""
    round = _known_round(slip.event_id)
    if round is not None:
        plan = _plan(slip, round)
        done = None if plan is None else _write(plan)
        if done is not None:
            return done
        # Not the plain case, or not any more the round this process knew: read it again.
    plan = _plan(slip, _current(slip.event_id))
    return None if plan is None else _write(plan)


async def awrite_batch(plans: Sequence[_Plan], db: psycopg.AsyncConnection[Any]) -> list[SubmitResult | None]:
    """Step 3 of ``plans`` in one statement on ``db`` (autocommit, :func:`batch_function_sql`
    created on it); each plan's result, None where nothing was written. Their players are
    locked in the order of their tokens, as any other batch locks them: two batches never
    wait for each other in a circle."""
    order = sorted(range(len(plans)), key=lambda n: plans[n].lock[1])
    columns = [
        list(c) for c in zip(*(plans[n].lock + plans[n].write + plans[n].history for n in order), strict=True)
    ]
    async with psycopg.AsyncCursor(db) as cursor:
        await cursor.execute(_batch_call_sql(), columns, prepare=True)
        written = {row[0]: row[1:] for row in await cursor.fetchall()}
    results: list[SubmitResult | None] = [None] * len(plans)
    for index, n in enumerate(order, 1):
        row = written.get(index)
        results[n] = _written(plans[n], None if row is None or row[0] is None else row)
    return results


Connect = Callable[[], AbstractAsyncContextManager[psycopg.AsyncConnection[Any]]]


class Batches:
    """The phones' slips of one event loop (arbiter/hall.py), written in batches: while one
    batch is written, the slips that arrive queue for the next one. A hall's slips come by
    the hundred a second: each written alone cost the web process and PostgreSQL a round
    trip and a transaction, and under load they queued for that; in a batch they share them,
    and the more slips queue, the less each costs."""

    #: The most slips of a batch (a statement's parameters grow with it).
    MOST = 100

    def __init__(self, connect: Connect) -> None:
        self.connect = connect
        self.waiting: list[tuple[_Plan, asyncio.Future[SubmitResult | None]]] = []
        self.task: asyncio.Task[None] | None = None

    async def record(self, slip: PhoneSlip) -> SubmitResult | None:
        """:func:`phone_slip` on the event loop: None where nothing was written."""
        round = _known_round(slip.event_id)
        if round is not None:
            plan = _plan(slip, round)
            done = None if plan is None else await self._written(plan)
            if done is not None:
                return done
        async with self.connect() as db, psycopg.AsyncCursor(db) as cursor:
            await cursor.execute(_current_sql("postgresql"), _current_params(slip.event_id), prepare=True)
            plan = _plan(slip, _remember(slip.event_id, await cursor.fetchone()))
        return None if plan is None else await self._written(plan)

    async def _written(self, plan: _Plan) -> SubmitResult | None:
        future: asyncio.Future[SubmitResult | None] = asyncio.get_running_loop().create_future()
        self.waiting.append((plan, future))
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._write())
        return await future

    def _next(self) -> list[tuple[_Plan, asyncio.Future[SubmitResult | None]]]:
        """The next batch: one slip a token (a player's second slip reads the first)."""
        batch: list[tuple[_Plan, asyncio.Future[SubmitResult | None]]] = []
        later: list[tuple[_Plan, asyncio.Future[SubmitResult | None]]] = []
        keys: set[str] = set()
        for item in self.waiting:
            key = item[0].lock[1]
            if len(batch) < self.MOST and key not in keys and not item[1].done():
                batch.append(item)
                keys.add(key)
            elif not item[1].done():
                later.append(item)
        self.waiting = later
        return batch

    async def _write(self) -> None:
        while batch := self._next():
            try:
                async with self.connect() as db:
                    results = await awrite_batch([plan for plan, _ in batch], db)
            except Exception as exc:  # each slip's caller says what to do (Django's path)
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
            else:
                for (_, future), result in zip(batch, results, strict=True):
                    if not future.done():
                        future.set_result(result)
