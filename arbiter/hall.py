"""A phone's plain slip recorded on the event loop, on PostgreSQL: the hall's hot path.

Through Django's handler a slip waits for the process's phones' thread (arbiter/asgi.py),
and that thread waits for each of the slip's round trips to the database while the slips
behind it wait for the thread; the thread and the event loop also take turns at the
interpreter lock, a switch at each statement. Here the slip is planned on the loop (the
event's current round as the process last read it, :mod:`tournaments.services.phone_slips`)
and written with the slips that queued meanwhile, in one statement on this process's one
connection (:class:`~tournaments.services.phone_slips.Batches`); then Django's middleware
and view run, on the loop and without a database (Django refuses one there), to answer
exactly as the view answers a slip it records itself (api/views.py, ``RECORDED``).

Anything else goes to Django as before, the body read here handed on: a slip that is not
the plain case, another vendor (SQLite takes one writer at a time: the thread suits it), a
database that fails or a pool that stays busy (the full path then says what is wrong).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
import weakref
from typing import Any

import psycopg
from django.core import signals
from django.core.exceptions import SynchronousOnlyOperation
from django.db import connections
from django.http.response import HttpResponseBase
from django.urls import Resolver404, resolve
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from api import views
from tournaments.services.phone_slips import Batches, batch_function_sql

logger = logging.getLogger(__name__)

#: The path's ending of the slips of a round (api/urls.py), checked before anything else.
SLIPS_PATH_END = "/rounds/current/slips/"
#: Connections of a process's pool. One: a process's batches of slips go to PostgreSQL one
#: after the other, the next one growing meanwhile at no cost. With four (one slip a
#: statement then), the hall benchmark measured more CPU on both sides (600 phones, the
#: window: web 4.8 s against 3.5 s, PostgreSQL 2.4 ms a slip against 1.5).
POOL_SIZE = 1
#: How long a slip waits for a connection of the pool before Django's path takes it.
POOL_WAIT_S = 5.0

_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncConnectionPool[Any]] = (
    weakref.WeakKeyDictionary()
)
_batches_of: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Batches] = weakref.WeakKeyDictionary()


@functools.cache
def _on_postgresql() -> bool:
    return bool(connections["default"].vendor == "postgresql")


def is_slip(scope: dict[str, Any]) -> bool:
    """Whether the request may be a slip (a phone's, or the arbitrator's through the API)."""
    return scope.get("method") == "POST" and str(scope.get("path", "")).endswith(SLIPS_PATH_END)


def takes(scope: dict[str, Any]) -> bool:
    """Whether the request may be a phone's slip that this module records."""
    return is_slip(scope) and _on_postgresql()


async def _configure(db: psycopg.AsyncConnection[Any]) -> None:
    """Django's settings of a new connection (the time zone; the role when one is set),
    and the batch function of the slips (a temporary one: it goes with the connection)."""
    wrapper: Any = connections["default"]
    timezone_name = wrapper.timezone_name
    if timezone_name and db.info.parameter_status("TimeZone") != timezone_name:
        await db.execute(wrapper.ops.set_time_zone_sql(), [timezone_name])
    if role := wrapper.settings_dict["OPTIONS"].get("assume_role"):
        await db.execute(psycopg.sql.SQL("SET ROLE {}").format(psycopg.sql.Identifier(role)))
    await db.execute(batch_function_sql())


async def _pool() -> AsyncConnectionPool[Any]:
    """The pool of the running event loop (uvicorn runs one a process)."""
    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:
        params = dict(connections["default"].get_connection_params())
        params.pop("cursor_factory", None)  # Django's, synchronous: psycopg's own binds on the server
        params["autocommit"] = True  # the read outside a transaction, as Django's
        pool = AsyncConnectionPool(
            kwargs=params,
            min_size=1,
            max_size=POOL_SIZE,
            timeout=POOL_WAIT_S,
            configure=_configure,
            name="arbiter-hall",
            open=False,
        )
        _pools[loop] = pool
        await pool.open()
    return pool


async def _batches() -> Batches:
    """The slips' batches of the running event loop, written on its pool."""
    loop = asyncio.get_running_loop()
    batches = _batches_of.get(loop)
    if batches is None:
        pool = await _pool()
        batches = _batches_of[loop] = Batches(pool.connection)
    return batches


async def close_pools() -> None:
    """Close the pool of the running loop (tests, which start a loop per test)."""
    loop = asyncio.get_running_loop()
    batches = _batches_of.pop(loop, None)
    if batches is not None and batches.task is not None:
        batches.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await batches.task
    pool = _pools.pop(loop, None)
    if pool is not None:
        await pool.close()


async def slip_response(handler: Any, scope: dict[str, Any], body_file: Any) -> HttpResponseBase | None:
    """The answer to a phone's plain slip, recorded here; None: Django's path takes the
    request, its body untouched, nothing written."""
    size = body_file.seek(0, io.SEEK_END)
    body_file.seek(0)
    if size > views.PHONE_SLIP_BYTES:
        return None
    # A copy: Django's request closes the file it read its body from.
    body = io.BytesIO(body_file.read())
    body_file.seek(0)
    try:
        request, refusal = handler.create_request(scope, body)
        if request is None or refusal is not None:
            return None
        match = resolve(request.path_info)
        if match.func is not views.round_slips:
            return None
        request.resolver_match = match
        slip = views.phone_slip_of(request, match.kwargs["event_id"])
        if slip is None:
            return None
        result = await (await _batches()).record(slip)
    except Resolver404:
        return None
    except (psycopg.Error, PoolTimeout, OSError):
        logger.warning("a slip left to Django's path: the database failed on the event loop", exc_info=True)
        return None
    except SynchronousOnlyOperation:
        # A statement of Django's in the plan (a relation not read with the row): a defect,
        # said in the log; the slip is not lost for it, Django's path records it.
        logger.error("a slip left to Django's path: Django queried on the event loop", exc_info=True)
        return None
    if result is None:
        return None
    setattr(request, views.RECORDED, result)
    # Django's middleware and view, on the loop: no statement runs there (Django refuses
    # one in an event loop), only the headers and the receipt of api/views.py.
    signals.request_started.send(sender=handler.__class__, scope=scope)
    response: HttpResponseBase = handler.get_response(request)
    response._handler_class = handler.__class__  # type: ignore[attr-defined]
    response.close()  # the request's signals, as Django's path closes its responses
    return response
