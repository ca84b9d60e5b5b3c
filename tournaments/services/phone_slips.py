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
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

import psycopg
from django.db import connection, transaction

from tournaments import statements
from tournaments.core import ApplicationError
from tournaments.models import Event, Game, HistoryEntry, Round, Slip
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


#: How long a process takes the current round it read for the round of its slips (step 1).
#: Not for their checks, which step 3 makes again: a round that changed meanwhile costs
#: a slip a second reading, nothing else.
KNOWN_SECONDS = 2.0
#: event id -> (monotonic time of the reading, the current round, its game and event set).
#: The instances are shared by the process's slips and only read.
_known: dict[int, tuple[float, Round]] = {}


def _current_params(event_id: int) -> list[Any]:
    return [event_id, Game.State.PLAYING]


def _remember(event_id: int, row: tuple[Any, ...] | None) -> Round | None:
    if row is None:
        _known.pop(event_id, None)
        return None
    round: Round
    ((round, game, event),) = statements.current_round.instances([row])
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
            cursor.execute(statements.current_round.sql(), _current_params(event_id), prepare=True)
            return _remember(event_id, cursor.fetchone())
    with connection.cursor() as cursor:
        cursor.execute(statements.current_round.sql(), _current_params(event_id))
        return _remember(event_id, cursor.fetchone())


def _postgresql_cursor() -> psycopg.Cursor[Any]:
    """A cursor binding its parameters on the server, so that the statements of a slip
    are prepared once per connection (``prepare=True``) and only run afterwards: planned
    again at every slip (literal values, Django's client-side binding), they would cost
    PostgreSQL more than running them (docs/decisions.md). The
    connection is Django's own (its adapters, its pool, its transaction state)."""
    connection.ensure_connection()
    return psycopg.Cursor(connection.connection)


@dataclass
class _Plan:
    """What step 2 decided: the slip to write, its history entry, and the statements'
    parameters."""

    slip: Slip
    entry: HistoryEntry
    lock: list[Any]  # the round's id, the token's key (statements.phone_slip_locks)
    write: list[Any]  # the slip's, then the recheck's (statements.phone_slip_insert)
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
    entry = HistoryEntry(
        event=event,
        entity="slip",
        object_id=0,  # the slip's, given by the statement
        action="submit",
        actor=None,
        actor_label="system",
        new=slip_entry(new, round),  # its player given by the statement
    )
    recheck = statements.phone_slip_recheck(
        key=slip.key, round=round, handed=handed, client_id=slip.client_id
    )
    return _Plan(
        new,
        entry,
        lock=[round.pk, slip.key],
        write=statements.phone_slip_values(new) + recheck,
        history=statements.phone_slip_history(entry),
    )


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
                lock.execute(statements.phone_slip_locks.sql(), plan.lock, prepare=True)
                write.execute(statements.phone_slip_write.sql(), [*plan.write, *plan.history], prepare=True)
            return _written(plan, write.fetchone())
    # SQLite takes one writer at a time (the settings' IMMEDIATE transactions): the same
    # statement, then the entry, in one transaction.
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(statements.phone_slip_insert.sql(), plan.write)
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
        await cursor.execute(statements.phone_slips_call.sql("postgresql"), columns, prepare=True)
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
            await cursor.execute(
                statements.current_round.sql("postgresql"), _current_params(slip.event_id), prepare=True
            )
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
