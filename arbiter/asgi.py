"""The ASGI application: ``serve`` and production run it under uvicorn (docs/architecture.md,
"How a process serves a hall"). The live streams are coroutines there (rooms/views/live.py), so a hall
of phones holding them costs no thread each.

The receipt time of a request (:mod:`plumbing.middleware`) is taken here, as the server
hands the request over: before Django reads its body and before the request waits for
the thread that runs the views.

The views are synchronous. Django's own ASGI handler runs each request's synchronous
code in a thread made for that request and joined after it: with a hall's 500 panel
reloads at once that is 500 threads taking turns at the one interpreter lock, several
times the CPU of the same requests in one thread (docs/benchmarks.md). Here the phones'
requests run one after the other in one thread of the process (:func:`phone_threads`),
as fast as the interpreter allows; the server scales with processes (``serve
--web-workers``, one per core), not threads.

A request goes to its thread once: Django's handler went three times (the request's
signals, the view, the response's closing), each a thread switch and a wake-up of the
event loop (:meth:`OneThreadASGIHandler.handle`).

On PostgreSQL a phone's plain slip and its live stream do not go to the thread at all: their
statements run on the event loop (arbiter/hall.py), then Django answers them there.

The arbitrator does not queue behind the hall: the console, the projector and the API
called with an arbitrator's token run in a second thread of their own, so that the close
never waits behind the slips in the phones' thread (docs/decisions.md)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import django
from asgiref.sync import SyncToAsync, ThreadSensitiveContext, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpRequest
from django.http.response import HttpResponseBase
from django.urls import ResolverMatch, set_script_prefix

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings.local")


#: What the phones ask for (the join and play pages, the live streams); the API's slips
#: come with a player's token (``Authorization: Player ...``).
PHONE_PATHS = ("/p/", "/j/", "/live/", "/static/")
ARBITRATOR_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="arbiter-arbitrator")
#: The projector's pages have a thread of their own and do not go before the phones'
#: panels (rooms/views/live.py, ARBITRATOR): a screen of the hall like them, whose reload
#: at each change (its standings read again) held up their build, and in the arbitrator's
#: thread held up the console's page queued behind it.
HALL_PATH = "/hall/"
HALL_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="arbiter-hall")


class Lanes:
    """The phones' threads of the process; each request goes to the least busy one and
    stays in it (its database connection and transaction are its thread's)."""

    def __init__(self, count: int) -> None:
        self.executors = [
            ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"arbiter-phones-{i}") for i in range(count)
        ]
        self.busy = [0] * count

    def pick(self) -> int:
        lane = min(range(len(self.busy)), key=self.busy.__getitem__)
        self.busy[lane] += 1
        return lane

    def done(self, lane: int) -> None:
        self.busy[lane] -= 1


def phone_threads() -> int:
    """``ARBITER_WEB_THREADS`` (default 1). One thread: the requests of a process never
    take turns at the interpreter lock. On PostgreSQL a thread waits for the database
    part of its time, so a second one could compute meanwhile; it costs more CPU and the
    slips are no faster (docs/decisions.md): kept as a setting, not the default.
    SQLite takes one writer at a time and makes the others wait in sleeps: keep one."""
    configured = os.environ.get("ARBITER_WEB_THREADS", "").strip()
    return max(1, int(configured)) if configured else 1


def is_phone(scope: dict[str, Any]) -> bool:
    if str(scope.get("path", "")).startswith(PHONE_PATHS):
        return True
    return any(
        name == b"authorization" and value[:7].lower() == b"player "
        for name, value in scope.get("headers", ())
    )


class OneThreadASGIHandler(ASGIHandler):
    """Django's ASGI handler without the per-request thread (see the module's text), and
    with the middleware run as one synchronous chain: Django's asynchronous chain hops
    between the event loop and the thread before and after each of the dozen synchronous
    middleware, two dozen hops a request, where one does (the views are synchronous
    anyway; the live streams' coroutines are consumed on the loop all the same)."""

    def __init__(self) -> None:
        super(ASGIHandler, self).__init__()  # BaseHandler: the chain is loaded below
        self.load_middleware(is_async=False)

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Django's ``handle`` with one hop to the thread instead of three: the request's
        signals, the view and, for a response already whole, its closing (which gives the
        database connection back) run there in one go; then the response is sent. A hall's
        slip is a small request, and each hop cost it a thread switch, a task and the
        event loop's wake-up, more than the slip's own statements (docs/decisions.md).
        A streaming response (the live streams, a file) goes Django's way: sent while the
        client is listened to, so that a phone that leaves ends its stream."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            set_script_prefix(get_script_prefix(scope))
            if hall.is_slip(scope):
                with live.SLIPS.answering():  # before the streams' panels (rooms/views/live.py)
                    await self._send_slip(scope, body_file, send)
                return
            response = None
            if hall.takes_stream(scope):
                response = await hall.stream_response(self, scope, body_file)
            if response is None:
                response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file)
            if response.streaming:
                await self._stream(response, receive, send)
            else:
                await self.send_response(response, send)
        finally:
            body_file.close()

    async def _send_slip(self, scope: dict[str, Any], body_file: Any, send: Any) -> None:
        response = await hall.slip_response(self, scope, body_file) if hall.takes(scope) else None
        if response is None:
            response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file)
        await self.send_response(response, send)

    def resolve_request(self, request: HttpRequest) -> ResolverMatch:
        # A slip on the event loop was routed there already (arbiter/hall.py): not twice.
        known: ResolverMatch | None = getattr(request, "resolver_match", None)
        return known if known is not None else super().resolve_request(request)

    def _respond(self, scope: dict[str, Any], body_file: Any) -> HttpResponseBase:
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        assert response is not None
        if not response.streaming:
            response.close()  # the request_finished signal: the connection goes back now
        return response

    async def _stream(self, response: HttpResponseBase, receive: Any, send: Any) -> None:
        sending = asyncio.create_task(self._send_stream(response, send))
        listening = asyncio.create_task(self.listen_for_disconnect(receive))
        await asyncio.wait([listening, sending], return_when=asyncio.FIRST_COMPLETED)
        for task in (listening, sending):
            if not task.done():
                task.cancel()  # the phone left: the stream's coroutine ends here
            with contextlib.suppress(asyncio.CancelledError, RequestAborted):
                await task
        await sync_to_async(response.close, thread_sensitive=True)()

    async def _send_stream(self, response: HttpResponseBase, send: Any) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            await self.send_response(response, send)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        lane = None if not is_phone(scope) else PHONE_LANES.pick()
        hall = lane is None and str(scope.get("path", "")).startswith(HALL_PATH)
        # asgiref runs the synchronous code of a request in the executor its
        # thread-sensitive context is mapped to: a phones' thread or the arbitrator's.
        # Mapped by hand (asgiref's own ``async with`` would make a thread for the request).
        context = ThreadSensitiveContext()
        token = SyncToAsync.thread_sensitive_context.set(context)
        SyncToAsync.context_to_thread_executor[context] = (
            PHONE_LANES.executors[lane] if lane is not None else HALL_THREAD if hall else ARBITRATOR_THREAD
        )
        try:
            if lane is None and not hall:
                with live.ARBITRATOR.answering():  # before the phones' panels (rooms/views/live.py)
                    await self.handle(scope, receive, send)
            else:
                await self.handle(scope, receive, send)
        finally:
            SyncToAsync.context_to_thread_executor.pop(context, None)
            SyncToAsync.thread_sensitive_context.reset(token)
            if lane is not None:
                PHONE_LANES.done(lane)


#: How long a thread may keep the interpreter lock while another asks for it (Python's
#: default: 5 ms). A phone's slip leaves it twice, for its two statements, and each time
#: gets it back only when the event loop's thread (streams, HTTP) lets go: up to the
#: interval a statement, the hall's slips queuing behind it. Why 0.5 ms: docs/decisions.md.
SWITCH_INTERVAL_S = 0.0005
sys.setswitchinterval(SWITCH_INTERVAL_S)
django.setup(set_prefix=False)
django_application = OneThreadASGIHandler()
PHONE_LANES = Lanes(phone_threads())

from arbiter import hall  # noqa: E402  (after Django's set-up)
from plumbing.middleware import SCOPE_KEY  # noqa: E402
from rooms.views import live  # noqa: E402


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "http":
        scope[SCOPE_KEY] = time.time()
    await django_application(scope, receive, send)
