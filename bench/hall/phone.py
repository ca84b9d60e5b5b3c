"""A phone of the hall as its browser runs the pages: joining through the join page,
live.js's stream (or polling), the panel put in place, phone.js's slip and its retries."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import time
import uuid
from collections.abc import Coroutine
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import quote, urljoin

import aiohttp

from bench.hall.client import REQUEST_TIMEOUT, Answer, RequestLog, cookie_header, fetch, outcome_of
from bench.hall.pages import PlayPage, csrf_token, panel_parts, parse_play_page, parts_held, round_key
from bench.hall.slips import PlannedSlip
from bench.sse import SseParser

#: phone.js: a slip that was not acknowledged is sent again this long after
#: (``setTimeout(send, 3000)``), with the same client_id; no back-off. phone.js sets no
#: timeout of its own on the request (a browser's fetch waits minutes): REQUEST_TIMEOUT
#: bounds it here, and a timeout is then a network error like any other.
RETRY_SECONDS = 3.0
#: live.js: a stream that has said nothing after this long is given up for polling.
SILENT_SECONDS = 20.0
#: EventSource's reconnection delay until the server sends its ``retry`` (Chromium's).
STREAM_RETRY_SECONDS = 3.0
#: A browser's connections to one host over HTTP/1.1: a phone's stream, pages and API
#: requests share them.
BROWSER_CONNECTIONS = 6
JOIN_ATTEMPTS = 3
JOIN_RETRY_SECONDS = 2.0
JOIN_REQUEST_TIMEOUT = 30.0
ACKNOWLEDGED, REFUSED, RETRY = "acknowledged", "refused", "retry"


def slip_action(status: int | None, json_body: bool) -> str:
    """What phone.js does with the answer to a slip: ``acknowledged`` (200, 201),
    ``refused`` for good (another 4xx than 429: the message says why) or ``retry`` (5xx,
    429, an answer that is not JSON, no answer at all: ``status`` None)."""
    if status is None or not json_body:
        return RETRY  # r.json() throws, or fetch does: the catch sends it again
    if status in (200, 201):
        return ACKNOWLEDGED
    if 400 <= status < 500 and status != 429:
        return REFUSED
    return RETRY


def phone_address(index: int) -> str:
    """Phone ``index``'s own loopback address: 127.42.0.1, 127.42.0.2, ... (250 per /24)."""
    if not 0 <= index < 250 * 256:
        raise ValueError(f"no loopback address for phone {index}")
    return f"127.42.{index // 250}.{index % 250 + 1}"


@dataclass
class Attempt:
    sent: float  # seconds since the epoch
    seconds: float
    outcome: str


@dataclass
class SlipRecord:
    plan: PlannedSlip
    scheduled: float | None = None  # seconds since the epoch
    client_id: str = ""
    first_sent: float | None = None  # seconds since the epoch
    first_sent_perf: float | None = None
    acknowledged_perf: float | None = None
    receipt: dict[str, Any] | None = None
    refused: str = ""
    attempts: list[Attempt] = field(default_factory=list)


class Venue(Protocol):
    """What a phone knows of the run it is part of."""

    base: str
    log: RequestLog
    request_timeout: float
    panels: bool


class Phone:
    """One phone: its own session (cookies kept by hand, as the page's and the API's
    requests differ: phone.js sends the slip with ``credentials: "omit"``), its stream
    or polling, its panel, its slip."""

    def __init__(self, hall: Venue, index: int, plan: PlannedSlip, seat: str) -> None:
        self.hall = hall
        self.index = index
        self.table = index + 1
        #: What the player types from the table card.
        self.seat = seat
        self.address = phone_address(index)
        self.session: aiohttp.ClientSession | None = None
        self.cookies: dict[str, str] = {}
        self.page: PlayPage | None = None
        self.play_url = ""
        self.known_public = ""
        self.round_key: tuple[int, int] | None = None
        self.joined_seconds: float | None = None
        self.stream_opened: float | None = None
        self.heard: float | None = None  # first message of the stream (perf counter)
        self.stream_drops = 0
        self.polling = False
        self.public_changes: list[float] = []
        #: Panels the stream sent (rooms/views/panels.py) instead of a reload.
        self.panels_pushed = 0
        #: The last id its stream sent (EventSource's lastEventId).
        self.last_event_id = ""
        #: What its stream carried, in bytes (the panels, mostly).
        self.stream_bytes = 0
        #: The panel's parts in place, and the chart's key (phone.js keeps them).
        self.held: set[str] = set()
        self.chart_key: str | None = None
        #: Public version -> when its panel was in place (perf counter): what the player sees.
        self.shown: dict[str, float] = {}
        self.pending: dict[str, Any] | None = None
        self.sending = False
        self.stopped = False
        self.slip = SlipRecord(plan)
        self.done = asyncio.Event()
        self.panel_busy = False
        self.panel_again = False
        #: The server's clock minus this phone's, in seconds, from the last message (live.js).
        self.clock_offset = 0.0
        self._tasks: set[asyncio.Task[None]] = set()
        self._stream_task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ plumbing

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _session(self) -> aiohttp.ClientSession:
        if self.session is None:
            connector = aiohttp.TCPConnector(limit=BROWSER_CONNECTIONS, local_addr=(self.address, 0))
            self.session = aiohttp.ClientSession(
                connector=connector,
                cookie_jar=aiohttp.DummyCookieJar(),
                headers={"User-Agent": f"ArbiterHallBench/1 (phone {self.table})", "Accept-Language": "en"},
            )
        return self.session

    async def _get(
        self, kind: str, url: str, *, timeout: float, headers: dict[str, str] | None = None
    ) -> Answer:
        sent = {"Cookie": cookie_header(self.cookies), **(headers or {})}
        answer = await fetch(self._session(), self.hall.log, kind, "GET", url, timeout=timeout, headers=sent)
        self.cookies.update(answer.cookies)
        return answer

    async def stop(self) -> None:
        self.stopped = True
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=10)
        if self.session is not None:
            with suppress(Exception):
                await asyncio.wait_for(self.session.close(), timeout=10)

    def resume(self) -> None:
        """Its stream open again after :meth:`stop` (the page still open, its cookies kept)."""
        if self.page is None:
            return
        self.stopped, self.polling, self.session, self.pending = False, False, None, None
        self.open_stream()

    # ------------------------------------------------------------------ joining

    async def join(self, code: str) -> bool:
        start = time.perf_counter()
        for attempt in range(JOIN_ATTEMPTS):
            if attempt:
                await asyncio.sleep(JOIN_RETRY_SECONDS)
            if await self._join_once(code):
                self.joined_seconds = time.perf_counter() - start
                return True
        return False

    async def _join_once(self, code: str) -> bool:
        base = self.hall.base
        form_url = f"{base}/j/{code}/"
        form = await self._get(
            "join page", form_url, timeout=JOIN_REQUEST_TIMEOUT, headers={"Accept": "text/html"}
        )
        token = csrf_token(form.text) if form.status == 200 else None
        if token is None:
            return False
        posted = await fetch(
            self._session(),
            None,  # recorded below, with what the answer means
            "join",
            "POST",
            f"{base}/j/",
            timeout=JOIN_REQUEST_TIMEOUT,
            data={"csrfmiddlewaretoken": token, "code": code, "who": self.seat},
            headers={"Cookie": cookie_header(self.cookies), "Origin": base, "Referer": form_url},
        )
        self.cookies.update(posted.cookies)
        refused = posted.status == 200  # the form again, with the reason: not joined
        self.hall.log.record("join", "200 (refused)" if refused else posted.outcome, posted.seconds)
        if posted.status != 302 or not posted.location:
            return False
        self.play_url = urljoin(base + "/", posted.location)
        play = await self._get("play page", self.play_url, timeout=JOIN_REQUEST_TIMEOUT)
        page = parse_play_page(play.text) if play.status == 200 else None
        if page is None:
            return False
        self.page, self.known_public, self.round_key = page, page.public, page.round_key
        return True

    # ------------------------------------------------------------------ live.js

    def open_stream(self) -> None:
        if self.page is None or self.stopped:
            return
        self.stream_opened = time.perf_counter()
        self._stream_task = self._spawn(self._stream())
        asyncio.get_running_loop().call_later(SILENT_SECONDS, self._silent)

    def _silent(self) -> None:
        if self.heard is None and not self.stopped and not self.polling:
            self._fall_back()

    def _fall_back(self) -> None:
        """live.js: the stream failed for good (or stayed silent): poll instead."""
        if self.polling or self.stopped:
            return
        self.polling = True
        if self._stream_task is not None and self._stream_task is not asyncio.current_task():
            self._stream_task.cancel()
        self._spawn(self._poll())

    async def _stream(self) -> None:
        assert self.page is not None
        url = urljoin(self.hall.base + "/", self.page.stream)
        retry = STREAM_RETRY_SECONDS
        # Bounded: the phone is stopped at the end of the run; each pass waits `retry`.
        for _ in range(100_000):
            if self.stopped or self.polling:
                return
            start = time.perf_counter()
            opened = False
            try:
                async with self._session().get(
                    url,
                    headers={
                        "Accept": "text/event-stream",
                        "Cache-Control": "no-cache",
                        "Cookie": cookie_header(self.cookies),
                        # EventSource sends the last id it was given when it opens again.
                        **({"Last-Event-ID": self.last_event_id} if self.last_event_id else {}),
                    },
                    timeout=aiohttp.ClientTimeout(total=None),
                ) as response:
                    kind = response.headers.get("Content-Type", "")
                    if response.status != 200 or not kind.startswith("text/event-stream"):
                        # EventSource fails the connection for good: live.js polls.
                        self.hall.log.record("stream", str(response.status), time.perf_counter() - start)
                        self._fall_back()
                        return
                    self.hall.log.record("stream", "200", time.perf_counter() - start)
                    opened = True
                    parser = SseParser(self.last_event_id)
                    async for raw in response.content:
                        self.stream_bytes += len(raw)
                        line = raw.decode("utf-8", errors="replace")
                        if line.startswith("retry:"):
                            with suppress(ValueError):
                                retry = int(line.split(":", 1)[1]) / 1000
                        event = parser.feed(line)
                        self.last_event_id = parser.last_id
                        if event is not None and event[0] in ("version", "panel", "ping"):
                            with suppress(ValueError):
                                self._message(json.loads(event[1]), stream=True)
                self.stream_drops += 1  # the server ended it
            except (aiohttp.ClientError, OSError, TimeoutError) as exc:
                if opened:
                    self.stream_drops += 1
                self.hall.log.record("stream", outcome_of(exc), time.perf_counter() - start)
            await asyncio.sleep(retry)

    async def _poll(self) -> None:
        assert self.page is not None
        url = urljoin(self.hall.base + "/", self.page.live)
        every = self.page.poll_ms / 1000
        for _ in range(1_000_000):
            await asyncio.sleep(every)
            if self.stopped:
                return
            answer = await self._get(
                "poll", url, timeout=REQUEST_TIMEOUT, headers={"Accept": "application/json"}
            )
            if answer.status == 200:
                with suppress(ValueError):
                    self._message(answer.json(), stream=False)

    def _message(self, body: Any, *, stream: bool) -> None:
        """live.js's apply: a sign of life (phone.js sends a waiting slip), then a new
        public version: the panel the stream sent, or a reload of the panel."""
        if not isinstance(body, dict):
            return
        now = time.perf_counter()
        if stream and self.heard is None:
            self.heard = now
        server_ms = body.get("now")  # every message carries the server's clock, in ms
        if isinstance(server_ms, int | float) and not isinstance(server_ms, bool):
            self.clock_offset = server_ms / 1000 - time.time()
        self.kick()
        public = body.get("public")
        if isinstance(public, str) and public != self.known_public:
            self.known_public = public
            self.public_changes.append(now)
            html = body.get("html")
            if isinstance(html, str):  # the stream sent the panel: phone.js puts it in place
                self.panels_pushed += 1
                self.round_key = round_key(html) or self.round_key
                if self._put_back(html, body.get("mine")):
                    self.shown.setdefault(public, now)
                else:
                    self.reload_panel()
            else:
                self.reload_panel()

    def _put_back(self, html: str, mine: Any) -> bool:
        """phone.js's parts put back in the panel the stream sent: False if one is not
        held (the panel then reloads)."""
        whole, self.held = parts_held(*panel_parts(html), self.held)
        mine = mine if isinstance(mine, dict) else {}
        if isinstance(mine.get("chart"), str):
            self.chart_key = mine.get("chart_key")
        elif mine.get("chart_key") != self.chart_key:
            whole = False
        return whole

    def reload_panel(self) -> None:
        if not self.hall.panels:
            return
        if self.panel_busy:
            self.panel_again = True
            return
        self._spawn(self._panel())

    async def _panel(self) -> None:
        self.panel_busy = True
        headers = {"HX-Request": "true", "HX-Target": "panel", "HX-Current-URL": self.play_url}
        try:
            for _ in range(10):
                self.panel_again = False
                # phone.js adds the version its stream announced (?v=), as the page does.
                public = self.known_public
                answer = await self._get(
                    "panel",
                    f"{self.play_url}?part=panel&v={quote(public, safe='')}",
                    timeout=REQUEST_TIMEOUT,
                    headers=headers,
                )
                if answer.status == 200:
                    self.round_key = round_key(answer.text)
                    self.held = panel_parts(answer.text)[0]
                    self.shown.setdefault(public, time.perf_counter())
                if not self.panel_again or self.stopped:
                    break
        finally:
            self.panel_busy = False

    # ------------------------------------------------------------------ phone.js

    def submit(self) -> None:
        """The player hands in the slip (the form's submit)."""
        self.slip.scheduled = self.slip.scheduled or time.time()
        if self.page is None or self.stopped:
            return
        plan = self.slip.plan
        body: dict[str, Any] = {}
        if self.round_key is not None:
            body["game"], body["round"] = self.round_key
        body.update(
            coordinates=plan.coordinates,
            word=plan.word,
            announced_score=plan.announced,
            client_id=str(uuid.uuid4()),
            # phone.js: when it was handed in, on the server's clock.
            sent_at=dt.datetime.fromtimestamp(time.time() + self.clock_offset, tz=dt.UTC).isoformat(),
        )
        self.slip.client_id = body["client_id"]
        self.pending = body
        self.kick()

    def kick(self) -> None:
        """phone.js's send(): nothing unless a slip waits and none is on its way."""
        if self.pending is None or self.sending or self.stopped:
            return
        self.sending = True
        self._spawn(self._send(self.pending))

    async def _send(self, body: dict[str, Any]) -> None:
        assert self.page is not None
        slip = self.slip
        start, wall = time.perf_counter(), time.time()
        if slip.first_sent is None:
            slip.first_sent, slip.first_sent_perf = wall, start
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "Authorization": f"Player {self.page.token}",
        }
        try:
            answer = await fetch(
                self._session(),
                self.hall.log,
                "slip",
                "POST",
                urljoin(self.hall.base + "/", self.page.api),
                timeout=self.hall.request_timeout,
                json=body,
                headers=headers,
            )
        finally:
            self.sending = False
        try:
            receipt = answer.json()
            parsed = True
        except ValueError:
            receipt, parsed = None, False
        slip.attempts.append(Attempt(wall, round(answer.seconds, 4), answer.outcome))
        action = slip_action(answer.status, parsed)
        if action == ACKNOWLEDGED:
            slip.acknowledged_perf = time.perf_counter()
            slip.receipt = receipt if isinstance(receipt, dict) else {}
        elif action == REFUSED:
            message = receipt.get("error", {}).get("message", "") if isinstance(receipt, dict) else ""
            slip.refused = f"{answer.outcome}: {message}"[:200]
        else:
            asyncio.get_running_loop().call_later(RETRY_SECONDS, self.kick)
            return
        if self.pending is body:
            self.pending = None
        self.done.set()
