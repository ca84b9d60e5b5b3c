"""The time a request reached the server, taken before anything can make it wait.

Under load a request waits: for a server thread, for the round's lock, for SQLite's write
lock. A slip sent before the deadline must not be ruled late because of that wait, so the
receipt time of a slip is the moment its request reached Django, not the moment the
service got the lock (docs/decisions.md). The ASGI and WSGI applications
(arbiter/asgi.py, arbiter/wsgi.py) stamp the request as the server hands it over; this
middleware, first in MIDDLEWARE and async-capable, carries the stamp to the request, or
takes the time itself for a request that came another way (runserver's own handler, the
test client).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils import timezone
from whitenoise.middleware import WhiteNoiseMiddleware  # type: ignore[import-untyped]

ATTRIBUTE = "arbiter_received_at"
#: The key of the stamp in the ASGI scope or the WSGI environ (seconds since the epoch).
SCOPE_KEY = "arbiter.received_at"


def received_at(request: HttpRequest) -> dt.datetime:
    """When ``request`` reached the server (now, for a request the middleware did not see:
    a test's RequestFactory)."""
    stamped = getattr(request, ATTRIBUTE, None)
    return stamped if isinstance(stamped, dt.datetime) else timezone.now()


def client_address(request: HttpRequest) -> str:
    """The caller's address, through ``ARBITER_TRUSTED_PROXIES`` reverse proxies (the same
    rule as the API's throttles, DRF's NUM_PROXIES): the join and login rate limits and
    the first account's "from this laptop" check read it."""
    proxies = int(getattr(settings, "ARBITER_TRUSTED_PROXIES", 0))
    direct = str(request.META.get("REMOTE_ADDR", ""))
    if proxies <= 0:
        return direct
    forwarded = [a.strip() for a in str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",") if a.strip()]
    return forwarded[-proxies] if len(forwarded) >= proxies else direct


def _arrival(request: HttpRequest) -> dt.datetime:
    scope = getattr(request, "scope", None)  # an ASGI request
    stamp = scope.get(SCOPE_KEY) if isinstance(scope, dict) else request.META.get(SCOPE_KEY)
    if isinstance(stamp, float):
        return dt.datetime.fromtimestamp(stamp, tz=dt.UTC)
    return timezone.now()


class ReceivedAtMiddleware:
    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> HttpResponseBase | Awaitable[HttpResponseBase]:
        setattr(request, ATTRIBUTE, _arrival(request))
        if self.is_async:
            return self._acall(request)
        response: HttpResponseBase = self.get_response(request)
        return response

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        response: HttpResponseBase = await self.get_response(request)
        return response


class StaticFilesMiddleware(WhiteNoiseMiddleware):  # type: ignore[misc]
    """WhiteNoise, usable in an async middleware chain: WhiteNoise itself is sync-only, so
    under an ASGI server Django would run every request below it (the live streams too)
    through a thread. Finding a static file is a dictionary look-up (or a few stat calls
    with WHITENOISE_USE_FINDERS), done here on the event loop; the file is then sent by
    the server."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        super().__init__(get_response)
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self._acall(request)
        return super().__call__(request)

    async def _acall(self, request: HttpRequest) -> HttpResponseBase:
        found = self.find_file(request.path_info) if self.autorefresh else self.files.get(request.path_info)
        if found is not None:
            served: HttpResponseBase = self.serve(found, request)
            return served
        response: HttpResponseBase = await self.get_response(request)
        return response
