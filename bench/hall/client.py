"""HTTP as the bench speaks it: one request that never raises, every request's outcome
logged by kind, the cookies kept by hand."""

from __future__ import annotations

import datetime as dt
import json
import time
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie
from typing import Any

import aiohttp

REQUEST_TIMEOUT = 60.0


@dataclass
class Answer:
    status: int | None
    outcome: str  # the status code, or what went wrong ("timeout", "connect error", ...)
    seconds: float
    body: bytes = b""
    location: str = ""
    cookies: dict[str, str] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    def json(self) -> Any:
        """The body as JSON; ValueError when it is not."""
        return json.loads(self.body)


def outcome_of(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "timeout"
    if isinstance(exc, aiohttp.ClientConnectorError):
        return "connect error"
    if isinstance(exc, aiohttp.ServerDisconnectedError):
        return "server disconnected"
    if isinstance(exc, aiohttp.ClientPayloadError):
        return "incomplete answer"
    if isinstance(exc, ConnectionResetError | aiohttp.ClientOSError):
        return "connection reset"
    return type(exc).__name__


class RequestLog:
    """Every request of the run: its outcome by kind, the time of the successful ones."""

    def __init__(self) -> None:
        self.outcomes: dict[str, Counter[str]] = defaultdict(Counter)
        self.seconds: dict[str, list[float]] = defaultdict(list)

    def clear(self) -> None:
        """Forget the setup's requests: the figures are the hall's."""
        self.outcomes.clear()
        self.seconds.clear()

    def record(self, kind: str, outcome: str, seconds: float) -> None:
        self.outcomes[kind][outcome] += 1
        if outcome[:1] in ("2", "3"):
            self.seconds[kind].append(seconds)

    def errors(self) -> dict[str, dict[str, int]]:
        """Outcomes that are not a success (2xx, 3xx), by kind."""
        found = {
            kind: {o: n for o, n in sorted(c.items()) if o[:1] not in ("2", "3")}
            for kind, c in sorted(self.outcomes.items())
        }
        return {kind: errors for kind, errors in found.items() if errors}


async def fetch(
    session: aiohttp.ClientSession,
    log: RequestLog | None,
    kind: str,
    method: str,
    url: str,
    *,
    timeout: float,
    **options: Any,
) -> Answer:
    """One request, never raising for what the network or the server did."""
    start = time.perf_counter()
    try:
        async with session.request(
            method, url, timeout=aiohttp.ClientTimeout(total=timeout), allow_redirects=False, **options
        ) as response:
            body = await response.read()
            answer = Answer(
                status=response.status,
                outcome=str(response.status),
                seconds=time.perf_counter() - start,
                body=body,
                location=response.headers.get("Location", ""),
                cookies=cookies_set(response.headers.getall("Set-Cookie", [])),
            )
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
        answer = Answer(status=None, outcome=outcome_of(exc), seconds=time.perf_counter() - start)
    if log is not None:
        log.record(kind, answer.outcome, answer.seconds)
    return answer


def cookies_set(headers: Sequence[str]) -> dict[str, str]:
    """Name -> value of the ``Set-Cookie`` headers of an answer (a deleted cookie: "")."""
    found: dict[str, str] = {}
    for header in headers:
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(header)
        except CookieError:
            continue
        for name, morsel in jar.items():
            gone = morsel["max-age"] == "0" or morsel.value == '""'
            found[name] = "" if gone else morsel.value
    return found


def cookie_header(cookies: Mapping[str, str]) -> str:
    return "; ".join(f"{k}={v}" for k, v in cookies.items() if v)


def parse_time(text: str | None) -> float | None:
    """An ISO 8601 time of the API as seconds since the epoch."""
    if not text:
        return None
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
