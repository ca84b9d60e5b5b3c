"""The receipt time of a request (plumbing.middleware, stamped by arbiter/asgi.py and
arbiter/wsgi.py): the moment the server handed the request over, not the moment Django
got to it."""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import time
from typing import Any

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from plumbing import middleware
from plumbing.middleware import SCOPE_KEY, ReceivedAtMiddleware, received_at
from tournaments.foreground import FOREGROUND


def _seen(request: HttpRequest) -> dt.datetime:
    seen: list[dt.datetime] = []

    def view(req: HttpRequest) -> HttpResponse:
        seen.append(received_at(req))
        return HttpResponse()

    ReceivedAtMiddleware(view)(request)
    return seen[0]


def test_the_middleware_takes_the_servers_stamp_from_the_wsgi_environ() -> None:
    stamp = time.time() - 7.5  # the request waited 7.5 s for a thread
    request = RequestFactory().get("/", **{SCOPE_KEY: stamp})
    assert _seen(request).timestamp() == pytest.approx(stamp)


def test_without_a_stamp_the_middleware_takes_the_time_itself() -> None:
    before = time.time()
    assert _seen(RequestFactory().get("/")).timestamp() >= before


def test_the_wsgi_application_stamps_the_request_as_it_arrives(monkeypatch) -> None:
    from arbiter import wsgi

    environ_seen: list[dict] = []

    def django_app(environ, start_response):
        environ_seen.append(environ)
        return [b""]

    monkeypatch.setattr(wsgi, "django_application", django_app)
    before = time.time()
    wsgi.application({"PATH_INFO": "/", "wsgi.input": io.BytesIO()}, lambda *a: None)
    assert before <= environ_seen[0][SCOPE_KEY] <= time.time()


def test_the_asgi_application_stamps_the_scope_before_django_runs(monkeypatch) -> None:
    from arbiter import asgi

    scopes: list[dict] = []

    async def django_app(scope, receive, send):
        scopes.append(dict(scope))

    monkeypatch.setattr(asgi, "django_application", django_app)
    before = time.time()
    asyncio.run(asgi.application({"type": "http"}, None, None))
    asyncio.run(asgi.application({"type": "lifespan"}, None, None))
    assert before <= scopes[0][SCOPE_KEY] <= time.time()
    assert SCOPE_KEY not in scopes[1]


def test_an_asgi_request_carries_the_scopes_stamp() -> None:
    from django.core.handlers.asgi import ASGIRequest

    stamp = time.time() - 3.0
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/",
        "headers": [],
        "query_string": b"",
        SCOPE_KEY: stamp,
    }
    request = ASGIRequest(scope, io.BytesIO())
    assert middleware._arrival(request).timestamp() == pytest.approx(stamp)


# ------------------------------------------------------------------ the threads of the views


def _thread_of(scope: dict, monkeypatch, block=None) -> str:
    import threading

    from asgiref.sync import sync_to_async

    from arbiter import asgi

    async def handle(self, scope, receive, send):
        def where() -> str:
            if block is not None:
                block.wait(5)
            return threading.current_thread().name

        scope["thread"] = await sync_to_async(where)()

    monkeypatch.setattr(asgi.OneThreadASGIHandler, "handle", handle)
    asyncio.run(asgi.django_application(scope, None, None))
    return scope["thread"]


def test_phones_share_one_thread_and_the_arbitrator_has_another(monkeypatch) -> None:
    from arbiter import asgi

    phone = _thread_of({"type": "http", "path": "/p/3/", "headers": []}, monkeypatch)
    slip = _thread_of(
        {"type": "http", "path": "/api/events/3/slips/", "headers": [(b"authorization", b"Player abc")]},
        monkeypatch,
    )
    console = _thread_of({"type": "http", "path": "/console/3/close/", "headers": []}, monkeypatch)
    api = _thread_of(
        {"type": "http", "path": "/api/events/3/", "headers": [(b"authorization", b"Token abc")]}, monkeypatch
    )
    projector = _thread_of({"type": "http", "path": "/hall/3/", "headers": []}, monkeypatch)
    assert phone == slip and not phone.startswith("arbiter-arbitrator")
    assert console == api and console.startswith("arbiter-arbitrator")
    # The projector's reload (its standings read again) never queues the console behind it.
    assert projector.startswith("arbiter-hall") and projector != phone
    assert asgi.is_phone({"path": "/live/3/stream/", "headers": []})


def test_the_arbitrator_is_answered_while_the_phones_thread_is_busy(monkeypatch) -> None:
    import threading

    from asgiref.sync import sync_to_async

    from arbiter import asgi

    busy = threading.Event()
    order: list[str] = []

    async def handle(self, scope, receive, send):
        def work() -> None:
            if scope["path"].startswith("/p/"):
                busy.wait(5)  # a long panel render, or a slip waiting for a lock
            order.append(scope["path"])

        await sync_to_async(work)()

    monkeypatch.setattr(asgi.OneThreadASGIHandler, "handle", handle)

    async def both() -> None:
        phone = asyncio.ensure_future(
            asgi.django_application({"type": "http", "path": "/p/1/", "headers": []}, None, None)
        )
        await asyncio.sleep(0.05)
        await asyncio.wait_for(
            asgi.django_application({"type": "http", "path": "/console/1/close/", "headers": []}, None, None),
            2,
        )
        busy.set()
        await phone

    asyncio.run(both())
    assert order == ["/console/1/close/", "/p/1/"]


# ------------------------------------------------------------------ the whole ASGI application


def asgi_request(
    path: str, headers: list[tuple[bytes, bytes]] | None = None, method: str = "GET", body: bytes = b""
) -> tuple[int, dict[bytes, bytes], bytes]:
    """``path`` through arbiter.asgi.application as uvicorn would call it, on a loop of its
    own (closed with the pool arbiter/hall.py keeps for it)."""
    from arbiter import asgi, hall

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), *(headers or [])],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    sent: list[dict] = []
    asked: list[int] = []

    async def receive() -> dict:
        asked.append(1)
        if len(asked) == 1:
            return {"type": "http.request", "body": body, "more_body": False}
        while not any(m["type"] == "http.response.body" and not m.get("more_body") for m in sent):
            await asyncio.sleep(0.01)  # the client stays until the answer is complete
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    async def run() -> None:
        try:
            await asgi.application(scope, receive, send)
        finally:
            await hall.close_pools()

    asyncio.run(run())
    start = next(m for m in sent if m["type"] == "http.response.start")
    content = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], {name.lower(): value for name, value in start["headers"]}, content


@pytest.mark.django_db(transaction=True)  # answered in a thread of its own (ASGI)
def test_a_page_through_the_asgi_application_runs_the_whole_middleware_chain() -> None:
    status, headers, body = asgi_request("/j/", [(b"accept-language", b"fr")])
    assert status == 200
    assert b"content-security-policy" in headers  # django-csp, inside the chain
    assert b"csrftoken" in headers.get(b"set-cookie", b"")  # the join form's token
    assert b'lang="fr"' in body  # LocaleMiddleware


@pytest.mark.django_db(transaction=True)  # answered in a thread of its own (ASGI)
def test_an_api_error_through_the_asgi_application_is_json() -> None:
    status, headers, body = asgi_request("/api/events/999999/", [(b"authorization", b"Token nope")])
    assert status in (401, 404) and headers[b"content-type"].startswith(b"application/json")
    assert b'"error"' in body


@pytest.mark.django_db(transaction=True)  # answered in a thread of its own (ASGI)
def test_a_slip_is_counted_while_it_is_answered_for_the_streams_to_wait(monkeypatch) -> None:
    # rooms/views/live.py, SLIPS: a public change waits for the slips being answered.
    from arbiter import asgi
    from rooms.views import live

    seen: list[int] = []
    busy: list[int] = []
    respond = asgi.OneThreadASGIHandler._respond

    def counting(self: Any, scope: dict, body_file: Any) -> Any:
        seen.append(live.SLIPS.count)
        busy.append(FOREGROUND.count)  # the backups wait for it too
        return respond(self, scope, body_file)

    monkeypatch.setattr(asgi.OneThreadASGIHandler, "_respond", counting)
    status, _headers, _body = asgi_request(
        "/api/events/999999/rounds/current/slips/",
        [(b"authorization", b"Player nope"), (b"content-type", b"application/json")],
        method="POST",
        body=b'{"coordinates": "8H", "word": "PROOF"}',
    )
    asgi_request("/api/events/999999/", [(b"authorization", b"Token nope")])
    assert status in (401, 403, 404)
    assert seen == [1, 0] and live.SLIPS.count == 0  # the slip only, and not after it
    assert busy == [1, 1] and FOREGROUND.count == 0  # the slip, then the arbitrator's request


@pytest.mark.django_db(transaction=True)  # answered in a thread of its own (ASGI)
def test_the_arbitrators_requests_are_counted_while_answered_for_the_panels_to_wait(monkeypatch) -> None:
    # rooms/views/live.py, ARBITRATOR: the phones' panels are built after the console's page.
    from arbiter import asgi
    from rooms.views import live

    seen: list[int] = []
    busy: list[int] = []
    respond = asgi.OneThreadASGIHandler._respond

    def counting(self: Any, scope: dict, body_file: Any) -> Any:
        seen.append(live.ARBITRATOR.count)
        busy.append(FOREGROUND.count)
        return respond(self, scope, body_file)

    monkeypatch.setattr(asgi.OneThreadASGIHandler, "_respond", counting)
    asgi_request("/console/")
    asgi_request("/api/events/999999/", [(b"authorization", b"Token nope")])
    asgi_request("/hall/999999/")  # the projector's: a screen of the hall, after the phones
    asgi_request("/p/999999/")  # a phone's
    asgi_request("/api/events/999999/", [(b"authorization", b"Player nope")])
    assert seen == [1, 1, 0, 0, 0] and live.ARBITRATOR.count == 0 and live.ARBITRATOR.idle.is_set()
    assert busy == seen and FOREGROUND.count == 0


def test_with_two_phone_threads_a_busy_one_does_not_hold_the_other_phones(monkeypatch) -> None:
    # With two phones' threads (ARBITER_WEB_THREADS=2): while one waits (for the database,
    # a lock), the next phone's request goes to the other.
    import threading

    from asgiref.sync import sync_to_async

    from arbiter import asgi

    monkeypatch.setattr(asgi, "PHONE_LANES", asgi.Lanes(2))
    busy = threading.Event()
    order: list[tuple[str, str]] = []

    async def handle(self, scope, receive, send):
        def work() -> None:
            if scope["path"] == "/p/1/":
                busy.wait(5)
            order.append((scope["path"], threading.current_thread().name))

        await sync_to_async(work)()

    monkeypatch.setattr(asgi.OneThreadASGIHandler, "handle", handle)

    async def both() -> None:
        first = asyncio.ensure_future(
            asgi.django_application({"type": "http", "path": "/p/1/", "headers": []}, None, None)
        )
        await asyncio.sleep(0.05)
        await asyncio.wait_for(
            asgi.django_application({"type": "http", "path": "/p/2/", "headers": []}, None, None), 2
        )
        busy.set()
        await first

    asyncio.run(both())
    assert [path for path, _ in order] == ["/p/2/", "/p/1/"]
    assert order[0][1] != order[1][1] and all(name.startswith("arbiter-phones-") for _, name in order)
    assert asgi.PHONE_LANES.busy == [0, 0]


def test_one_phone_thread_unless_configured(monkeypatch) -> None:
    from arbiter import asgi

    monkeypatch.delenv("ARBITER_WEB_THREADS", raising=False)
    assert asgi.phone_threads() == 1
    monkeypatch.setenv("ARBITER_WEB_THREADS", "3")
    assert asgi.phone_threads() == 3
