"""A phone's plain slip recorded, and its live stream opened, on the event loop, on
PostgreSQL: the hall's hot paths.

Through Django's handler a slip waits for the process's phones' thread (arbiter/asgi.py),
and that thread waits for each of the slip's round trips to the database while the slips
behind it wait for the thread; the thread and the event loop also take turns at the
interpreter lock, a switch at each statement. Here the slip is planned on the loop (the
event's current round as the process last read it, :mod:`tournaments.services.phone_slips`)
and written with the slips that queued meanwhile, in one statement on this process's one
connection (:class:`~tournaments.services.phone_slips.Batches`); then Django's middleware
and view run, on the loop and without a database (Django refuses one there), to answer
exactly as the view answers a slip it records itself (api/views/slips.py, ``RECORDED``).

A phone's live stream is opened the same way: its session read from Redis and its token
from PostgreSQL on the loop (rooms/views/live.py, ``aphone_listener``), the view given
what they said, so that 2,000 streams opening together do not queue in the thread.

Anything else goes to Django as before, the body read here handed on: a slip that is not
the plain case, an arbitrator's stream, another vendor (SQLite takes one writer at a time:
the thread suits it), a database that fails or a pool that stays busy (the full path then
says what is wrong).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, cast

import psycopg
from django.core import signals
from django.core.exceptions import SynchronousOnlyOperation
from django.db import connections
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.urls import Resolver404, resolve
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from api.views import slips
from arbiter import cache
from arbiter.gathered import Gathered
from rooms.views import live
from tournaments import statements
from tournaments.models import PlayerToken
from tournaments.selectors.players import aplayer_tokens
from tournaments.services.phone_slips import Batches

logger = logging.getLogger(__name__)

#: The path's ending of the slips of a round (api/urls.py), checked before anything else.
SLIPS_PATH_END = "/rounds/current/slips/"
#: The start and end of the path of an event's live stream (rooms/urls.py).
STREAM_PATH = ("/live/", "/stream/")
#: Connections of a process's pool. One: a process's batches of slips go to PostgreSQL one
#: after the other, the next one growing meanwhile at no cost; more connections (one slip
#: a statement then) cost more CPU on both sides (docs/decisions.md).
POOL_SIZE = 1
#: How long a slip waits for a connection of the pool before Django's path takes it.
POOL_WAIT_S = 5.0


@functools.cache
def _on_postgresql() -> bool:
    return bool(connections["default"].vendor == "postgresql")


def is_slip(scope: dict[str, Any]) -> bool:
    """Whether the request may be a slip (a phone's, or the arbitrator's through the API)."""
    return scope.get("method") == "POST" and str(scope.get("path", "")).endswith(SLIPS_PATH_END)


def takes(scope: dict[str, Any]) -> bool:
    """Whether the request may be a phone's slip that this module records."""
    return is_slip(scope) and _on_postgresql()


def takes_stream(scope: dict[str, Any]) -> bool:
    """Whether the request may be a phone's live stream that this module opens."""
    path = str(scope.get("path", ""))
    return (
        scope.get("method") == "GET"
        and path.startswith(STREAM_PATH[0])
        and path.endswith(STREAM_PATH[1])
        and _on_postgresql()
    )


async def _configure(db: psycopg.AsyncConnection[Any]) -> None:
    """Django's settings of a new connection (the time zone; the role when one is set),
    and the batch function of the slips (a temporary one: it goes with the connection)."""
    wrapper: Any = connections["default"]
    timezone_name = wrapper.timezone_name
    if timezone_name and db.info.parameter_status("TimeZone") != timezone_name:
        await db.execute(wrapper.ops.set_time_zone_sql(), [timezone_name])
    if role := wrapper.settings_dict["OPTIONS"].get("assume_role"):
        await db.execute(psycopg.sql.SQL("SET ROLE {}").format(psycopg.sql.Identifier(role)))
    await db.execute(statements.phone_slips_function.sql("postgresql"))


class _OnLoop:
    """What the hall's paths keep per event loop (uvicorn runs one a process): the pool,
    the slips' batches written on it, the tokens' reads gathered on it."""

    def __init__(self) -> None:
        params = dict(connections["default"].get_connection_params())
        params.pop("cursor_factory", None)  # Django's, synchronous: psycopg's own binds on the server
        params["autocommit"] = True  # the read outside a transaction, as Django's
        self.pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
            kwargs=params,
            min_size=1,
            max_size=POOL_SIZE,
            timeout=POOL_WAIT_S,
            configure=_configure,
            name="arbiter-hall",
            open=False,
        )
        self.opened = asyncio.ensure_future(self.pool.open())
        self.batches = Batches(self.pool.connection)
        self.tokens: Gathered[str, PlayerToken] = Gathered(self._tokens)

    async def _tokens(self, keys: list[str]) -> dict[str, PlayerToken]:
        async with self.pool.connection() as db:
            return await aplayer_tokens(keys, db)

    async def close(self) -> None:
        if self.batches.task is not None:
            self.batches.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.batches.task
        await self.tokens.close()
        await self.pool.close()


_loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _OnLoop] = weakref.WeakKeyDictionary()


async def _on_loop() -> _OnLoop:
    loop = asyncio.get_running_loop()
    found = _loops.get(loop)
    if found is None:
        found = _loops[loop] = _OnLoop()
    # A process's first requests come together (a hall's streams): each waits for the
    # one opening of the pool.
    await found.opened
    return found


async def _batches() -> Batches:
    """The slips' batches of the running event loop, written on its pool."""
    return (await _on_loop()).batches


async def close_pools() -> None:
    """Close the pool of the running loop, and its clients of Redis (tests, which start a
    loop per test)."""
    await cache.aclose()
    found = _loops.pop(asyncio.get_running_loop(), None)
    if found is not None:
        await found.close()


async def slip_response(handler: Any, scope: dict[str, Any], body_file: Any) -> HttpResponseBase | None:
    """The answer to a phone's plain slip, recorded here; None: Django's path takes the
    request, its body untouched, nothing written."""
    size = body_file.seek(0, io.SEEK_END)
    body_file.seek(0)
    if size > slips.PHONE_SLIP_BYTES:
        return None
    request = await _found(handler, scope, body_file, slips.round_slips, _recorded)
    if request is None:
        return None
    response = _answer(handler, scope, request)
    response.close()  # the request's signals, as Django's path closes its responses
    return response


async def stream_response(handler: Any, scope: dict[str, Any], body_file: Any) -> HttpResponseBase | None:
    """The live stream of a phone, its player found here (rooms/views/live.py,
    ``aphone_listener``); None: Django's path takes the request."""
    request = await _found(handler, scope, body_file, live.live_stream, _listening)
    return None if request is None else _answer(handler, scope, request)


async def _recorded(request: HttpRequest, event_id: int) -> bool:
    slip = slips.phone_slip_of(request, event_id)
    result = None if slip is None else await (await _batches()).record(slip)
    setattr(request, slips.RECORDED, result)
    return result is not None


async def _listening(request: HttpRequest, event_id: int) -> bool:
    listener = await live.aphone_listener(request, event_id, (await _on_loop()).tokens.get)
    setattr(request, live.FOUND, listener)
    return listener is not None


#: What the view needs, found on the loop for the request to the event of this id.
Find = Callable[[HttpRequest, int], Awaitable[bool]]


async def _found(handler: Any, scope: dict[str, Any], body: Any, view: Any, find: Find) -> HttpRequest | None:
    """The request, if routed to ``view`` and ``find`` found on the loop what the view
    needs (and set it on the request); None: Django's path, nothing changed."""
    # A copy: Django's request closes the file it read its body from.
    copy = io.BytesIO(body.read())
    body.seek(0)
    try:
        request, refusal = handler.create_request(scope, copy)
        if request is None or refusal is not None:
            return None
        match = resolve(request.path_info)
        if match.func is not view:
            return None
        request.resolver_match = match
        if not await find(request, match.kwargs["event_id"]):
            return None
    except Resolver404:
        return None
    except (psycopg.Error, PoolTimeout, OSError):
        logger.warning("a request left to Django's path: the database failed on the loop", exc_info=True)
        return None
    except SynchronousOnlyOperation:
        # A statement of Django's in the plan (a relation not read with the row): a defect,
        # said in the log; the request is not lost for it, Django's path answers it.
        logger.error("a request left to Django's path: Django queried on the event loop", exc_info=True)
        return None
    return cast(HttpRequest, request)


def _answer(handler: Any, scope: dict[str, Any], request: HttpRequest) -> HttpResponseBase:
    """Django's middleware and view, on the loop: no statement runs there (Django refuses
    one in an event loop), only what the view makes of what was found."""
    signals.request_started.send(sender=handler.__class__, scope=scope)
    response: HttpResponseBase = handler.get_response(request)
    response._handler_class = handler.__class__  # type: ignore[attr-defined]
    return response
