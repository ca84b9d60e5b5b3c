"""The arbitrator's actions at hall size: ``python -m bench.hall --actions N``.

After the measured round of the hall benchmark (its phones joined, their slips ruled),
the arbitrator plays N more cycles from the console, as a browser does: a form posted
with its CSRF token, the redirect followed to the round's page. Each action is timed:

- its server time: from the click to the console's page shown (the POST, "form", and the
  page it redirects to; the close, until the review is shown: on that page if the worker
  had ruled the slips by then, else once the page's stream says the round is ruled and
  its parts are reloaded, at once, as htmx does);
- the time from the click to the last phone, and to the projector, showing it: the public
  version the action left (read once the console shows it; for the close, the round
  closed, its rulings done or not), in place in the phone's panel (pushed by its stream
  or reloaded) and in the projector's panel (reloaded on its stream's message, as htmx
  does).

The arbitrator reads the page for THINK_SECONDS before each click.

A cycle: publish the round's results, correct one ruling, place the top and draw the
next rack (the tops solved before the next action, not timed), open the round, the
phones' slips handed in over SLIPS_SECONDS (drawn as the measured round's are), close it
(its 2,000 slips ruled)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from functools import partial
from typing import Any
from urllib.parse import urljoin

import aiohttp

from bench.hall import BenchError
from bench.hall.arbitrator import Arbitrator
from bench.hall.client import REQUEST_TIMEOUT, Answer, RequestLog, cookie_header, fetch
from bench.hall.figures import summary_s
from bench.hall.pages import csrf_token
from bench.hall.phone import STREAM_RETRY_SECONDS, Phone, SlipRecord
from bench.hall.slips import plan_slips
from bench.sse import SseParser
from solver.boards import layout

ACTIONS = ("publish", "correction", "place", "open", "close")
#: The targets (docs/benchmarks.md): the server's time for an action at p95, every screen at p99.
TARGET_SERVER_P95_S = 0.3
TARGET_SCREENS_P99_S = 1.0
#: How long the bench waits for every phone and the projector to show an action.
SHOWN_TIMEOUT = 30.0
OPEN_SECONDS = 120
POLL_SECONDS = 0.02
#: The arbitrator reads the page before the next click. Back to back, each action would
#: also wait for the phones' panels of the one before (built at most once a second and
#: process: rooms/views/live.py, PANEL_EVERY_SECONDS).
THINK_SECONDS = 2.0
#: In each cycle the phones hand in their slips over this many seconds, the last ones
#: THINK_SECONDS before the close: a hall's close rules its players' slips, not a hall of
#: "no slip".
SLIPS_SECONDS = 6.0
#: The versions a web process serves are up to half a second old (rooms/views/live.py,
#: CACHE_SECONDS): the version an action left is read once that long has passed since
#: the console showed it (the phones' times run from the click all the same).
VERSION_AGE_SECONDS = 0.6


@dataclass
class Timed:
    action: str
    server_s: float
    #: From the click to each phone showing the action (None: not within SHOWN_TIMEOUT).
    phones_s: list[float | None] = field(default_factory=list)
    projector_s: float | None = None
    #: Where the server time went: the form posted (its redirect followed), the worker's
    #: rulings (the close), the page shown after them.
    parts: dict[str, float] = field(default_factory=dict)
    #: What each phone's stream carried, on average, from the click to the last screen (KB).
    stream_kb: float = 0.0


class Console:
    """The arbitrator's laptop: the console's pages, with a session, as a browser."""

    def __init__(self, base: str, event_id: int, log: RequestLog) -> None:
        self.base, self.event_id, self.log = base, event_id, log
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar())
        self.cookies: dict[str, str] = {}
        self.page = ""

    async def close(self) -> None:
        await self.session.close()

    async def _request(self, method: str, url: str, **options: Any) -> Answer:
        headers = {
            "Cookie": cookie_header(self.cookies),
            "Accept-Language": "en",
            **options.pop("headers", {}),
        }
        answer = await fetch(
            self.session,
            self.log,
            "console",
            method,
            url,
            timeout=REQUEST_TIMEOUT,
            headers=headers,
            **options,
        )
        self.cookies.update(answer.cookies)
        return answer

    async def login(self, user: str, password: str) -> None:
        url = f"{self.base}/accounts/login/"
        form = await self._request("GET", url)
        token = csrf_token(form.text)
        posted = await self._request(
            "POST",
            url,
            data={"csrfmiddlewaretoken": token, "username": user, "password": password},
            headers={"Origin": self.base, "Referer": url},
        )
        if posted.status != 302:
            raise BenchError(f"the console's login refused ({posted.outcome})")
        await self.show()

    async def show(self) -> Answer:
        """The round's page, as the arbitrator sees it."""
        answer = await self._request("GET", f"{self.base}/console/{self.event_id}/")
        if answer.status != 200:
            raise BenchError(f"the console's page: {answer.outcome}")
        self.page = answer.text
        return answer

    async def post(self, path: str, data: Mapping[str, Any]) -> float:
        """A form of the page posted (its CSRF token and round), the redirect followed; the
        seconds the POST itself took (the rest is the page it leads to)."""
        key = re.search(r'name="round_key" value="([^"]*)"', self.page)
        url = f"{self.base}/console/{self.event_id}/{path}"
        body = {
            "csrfmiddlewaretoken": csrf_token(self.page),
            "round_key": key.group(1) if key else "",
            **data,
        }
        start = time.perf_counter()
        posted = await self._request("POST", url, data=body, headers={"Origin": self.base, "Referer": url})
        took = time.perf_counter() - start
        if posted.status != 302:
            raise BenchError(f"POST {url}: {posted.outcome} {posted.text[:300]}")
        await self.show()
        refused = re.search(r'<li class="msg error">(.*?)</li>', self.page, re.S)
        if refused:
            raise BenchError(f"POST {url} refused: {refused.group(1).strip()}")
        return took

    async def reload_parts(self, *fired: str) -> None:
        """The round page's parts that the live events ``fired`` reload, at once, as htmx
        does (their hx-trigger, templates/console/round.html)."""
        url = f"{self.base}/console/{self.event_id}/?part="
        headers = {"HX-Request": "true"}
        parts = reloaded(self.page, *fired)
        if not parts:
            raise BenchError(f"the console's page reloads nothing on {', '.join(fired)}")
        answers = await asyncio.gather(*(self._request("GET", url + part, headers=headers) for part in parts))
        for part, answer in zip(parts, answers, strict=True):
            if answer.status != 200:
                raise BenchError(f"the console's {part}: {answer.outcome}")

    async def read(self, path: str) -> str:
        """A page of the event's console (``path`` under it), as the arbitrator opens it."""
        answer = await self._request("GET", f"{self.base}/console/{self.event_id}/{path}")
        if answer.status != 200:
            raise BenchError(f"the console's page {path}: {answer.outcome}")
        return answer.text

    async def public_version(self) -> str:
        answer = await self._request(
            "GET", f"{self.base}/live/{self.event_id}/", headers={"Accept": "application/json"}
        )
        return str(answer.json()["public"])


class _Stream:
    """A page's live stream with the arbitrator's session (its messages carry the round's
    own state and the slips' version), followed by :meth:`heard_version`."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar())
        self.heard = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._stream())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await self.task
        await self.session.close()

    def _headers(self) -> dict[str, str]:
        return {"Cookie": cookie_header(self.console.cookies)}

    async def _stream(self) -> None:
        base, event = self.console.base, self.console.event_id
        for _ in range(100_000):  # bounded: stopped at the end of the run
            with suppress(aiohttp.ClientError, OSError, TimeoutError):
                async with self.session.get(
                    f"{base}/live/{event}/stream/",
                    headers={"Accept": "text/event-stream", **self._headers()},
                    timeout=aiohttp.ClientTimeout(total=None),
                ) as response:
                    parser = SseParser()
                    async for raw in response.content:
                        found = parser.feed(raw.decode("utf-8", errors="replace"))
                        if found is not None and found[0] in ("version", "ping"):
                            self.heard.set()
                            with suppress(ValueError, KeyError, TypeError):
                                await self.heard_version(json.loads(found[1]))
            await asyncio.sleep(STREAM_RETRY_SECONDS)

    async def heard_version(self, message: dict[str, Any]) -> None:
        raise NotImplementedError


class Projector(_Stream):
    """The hall's screen: the arbitrator's session, the live stream, the panel reloaded
    at each new public version (templates/hall/hall.html)."""

    def __init__(self, console: Console) -> None:
        super().__init__(console)
        self.shown: dict[str, float] = {}
        self.known = ""

    async def heard_version(self, message: dict[str, Any]) -> None:
        public = str(message["public"])
        if public == self.known:
            return
        self.known = public
        answer = await fetch(
            self.session,
            self.console.log,
            "projector",
            "GET",
            urljoin(self.console.base, f"/hall/{self.console.event_id}/?part=panel&screen=all"),
            timeout=REQUEST_TIMEOUT,
            headers={"HX-Request": "true", "HX-Target": "hall", **self._headers()},
        )
        if answer.status == 200:
            self.shown.setdefault(public, time.perf_counter())


class ConsoleStream(_Stream):
    """The console page's own stream: the round's state as live.js follows it (a round
    ruled is no public change until its results are published: the state tells)."""

    def __init__(self, console: Console) -> None:
        super().__init__(console)
        self.state: str | None = None
        self.changed = asyncio.Event()

    async def heard_version(self, message: dict[str, Any]) -> None:
        if "state" in message and message["state"] != self.state:
            self.state = message["state"]
            self.changed.set()

    async def wait_state(self, state: str, what: str) -> None:
        until = time.perf_counter() + SHOWN_TIMEOUT
        while self.state != state:
            self.changed.clear()
            left = until - time.perf_counter()
            if left <= 0:
                raise BenchError(f"{what}: the console's stream did not say so within {SHOWN_TIMEOUT:.0f} s")
            with suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), timeout=left)


def _first(shown: Mapping[str, float], showing: Callable[[str], bool], clicked: float) -> float | None:
    """When a screen first showed the action (a version ``showing`` accepts), from the click."""
    times = [at - clicked for version, at in shown.items() if at >= clicked and showing(version)]
    return round(min(times), 4) if times else None


async def _shown(
    showing: Callable[[str], bool], clicked: float, phones: Sequence[Phone], projector: Projector
) -> tuple[list[float | None], float | None]:
    """When each phone, then the projector, first showed the action (None: not within
    SHOWN_TIMEOUT), from the click."""
    screens = [p.shown for p in phones if p.page is not None]
    until = time.perf_counter() + SHOWN_TIMEOUT
    while time.perf_counter() < until:
        if all(_first(shown, showing, clicked) is not None for shown in [projector.shown, *screens]):
            break
        await asyncio.sleep(POLL_SECONDS)
    return [_first(shown, showing, clicked) for shown in screens], _first(projector.shown, showing, clicked)


#: The console's review, on its page (templates/console/_review.html).
_REVIEW = '<table class="list review">'
#: A part of the round's page: its name and the live events that reload it.
_PART = re.compile(r'hx-get="[^"]*\?part=(\w+)" hx-trigger="([^"]*)"')


def reloaded(page: str, *fired: str) -> list[str]:
    """The parts of the round's ``page`` that the live events ``fired`` reload."""
    return [
        part
        for part, triggers in _PART.findall(page)
        if {trigger.split()[0] for trigger in triggers.split(",")} & set(fired)
    ]


def _ruling_to_correct(page: str, cycle: int) -> int:
    """A ruling the review lists (``data-ruling``), another one each cycle."""
    listed = sorted({int(pk) for pk in re.findall(r'data-ruling="(\d+)"', page)})
    if not listed:
        raise BenchError("the console's page lists no ruling to correct")
    return listed[cycle % len(listed)]


def _credited(page: str) -> int:
    """The points a ruling's page says are credited (the console in English)."""
    found = re.search(r"Points credited</dt><dd><b>(-?\d+)</b>", page)
    if found is None:
        raise BenchError("the ruling's page does not say the points credited")
    return int(found.group(1))


def _closed(round: str, version: str) -> bool:
    """The close shows on the screens as the round closed ("the results are being
    checked"), whether the worker's rulings came before the screen looked or after."""
    return _round_state(version) in ((round, "closed"), (round, "adjudicated"))


def _round_state(version: str) -> tuple[str, str]:
    """(round, state) of a public version ("412.57.closed": round 57 closed)."""
    parts = version.split(".")
    return (parts[1], parts[2]) if len(parts) >= 3 else ("", "")


async def _act(
    name: str,
    console: Console,
    screens: tuple[ConsoleStream, Projector],
    phones: Sequence[Phone],
    path: str,
    data: Mapping[str, Any],
) -> Timed:
    stream, projector = screens
    await asyncio.sleep(THINK_SECONDS)
    carried = sum(phone.stream_bytes for phone in phones)
    clicked = time.perf_counter()
    form = await console.post(path, data)
    parts = {"form": form, "posted": time.perf_counter() - clicked}
    # To the review shown: the page the close leads to, if the worker was that quick, else
    # the page's parts reloaded once its stream says the round is ruled.
    reloaded = name == "close" and _REVIEW not in console.page
    if reloaded:
        await stream.wait_state("adjudicated", "the rulings of the close")
        parts["ruled"] = time.perf_counter() - clicked
        # The round's own state changed, and the slips' version; what the hall sees did not.
        await console.reload_parts("live-state", "live-full")
    server = time.perf_counter() - clicked
    if reloaded:
        await console.show()  # the page as the parts left it, for the next action's form
    await asyncio.sleep(VERSION_AGE_SECONDS)
    left = await console.public_version()
    showing: Callable[[str], bool] = left.__eq__
    if name == "close":
        showing = partial(_closed, _round_state(left)[0])
    phones_s, projector_s = await _shown(showing, clicked, phones, projector)
    carried = sum(phone.stream_bytes for phone in phones) - carried
    return Timed(
        name,
        round(server, 4),
        phones_s,
        projector_s,
        {part: round(t, 4) for part, t in parts.items()},
        round(carried / max(1, len(phones)) / 1000, 1),
    )


async def play(
    arbitrator: Arbitrator,
    phones: Sequence[Phone],
    login: Mapping[str, str | None],
    cycles: int,
    log: RequestLog,
    rng: random.Random,
) -> dict[str, Any]:
    """``cycles`` of the arbitrator's actions, the round current being adjudicated; the
    phones' streams open again first (they were stopped to count their slips)."""
    user, password = login.get("user"), login.get("password")
    if not user or not password:
        raise BenchError("--actions needs the arbitrator's username and password (the console's login)")
    console = Console(arbitrator.base, arbitrator.event_id, log)
    projector, stream = Projector(console), ConsoleStream(console)
    screens = (stream, projector)
    timings: list[Timed] = []
    ended = False
    measured = [phone.slip for phone in phones]
    try:
        await console.login(user, password)
        event = await arbitrator.call("GET", "")
        for phone in phones:
            phone.resume()
        for listening in screens:
            listening.start()
            await asyncio.wait_for(listening.heard.wait(), timeout=SHOWN_TIMEOUT)
        for _ in range(cycles):
            current = await arbitrator.current_round()
            if current is None or current["state"] != "adjudicated":
                raise BenchError(f"the actions begin on an adjudicated round, not {current}")
            if not current.get("published_at"):
                timings.append(await _act("publish", console, screens, phones, "publish/", {}))
            # As in the browser: a ruling of the review opened (its page read, not timed),
            # then corrected; a console never asks for the API's review.
            path = f"rulings/{_ruling_to_correct(console.page, len(timings))}/"
            credited = _credited(await console.read(path))
            correction = {"credited": credited + 1, "warnings": "", "penalty": "", "reason": "bench"}
            timings.append(await _act("correction", console, screens, phones, path, correction))
            place = {"typed": "", "rejected": ""}
            timings.append(await _act("place", console, screens, phones, "place/", place))
            following = await arbitrator.current_round()
            if following is None or following["state"] != "drawn":
                ended = True  # the bag is empty: the game is over, the cycles too
                break
            await arbitrator.wait_round(lambda r: r["move_count"] is not None, "the tops of the next rack")
            await console.show()
            opened = {"seconds": OPEN_SECONDS}
            timings.append(await _act("open", console, screens, phones, "open/", opened))
            await _hand_in(arbitrator, phones, event, rng)
            timings.append(await _act("close", console, screens, phones, "close/", {}))
    finally:
        for phone, slip in zip(phones, measured, strict=True):
            phone.slip = slip  # the measured round's, which the report reads
        for listening in screens:
            await listening.stop()
        await console.close()
    return {"game_ended": ended, "actions": report(timings)}


async def _hand_in(
    arbitrator: Arbitrator, phones: Sequence[Phone], event: Mapping[str, Any], rng: random.Random
) -> None:
    """Each phone hands in a slip for the open round, at an even pace over SLIPS_SECONDS,
    and every one is answered (a phone retries as phone.js does)."""
    current = await arbitrator.current_round()
    if current is None or current["state"] != "open":
        raise BenchError(f"the slips go to an open round, not {current}")
    plans = plan_slips(
        len(phones),
        current["tops"] or [],
        current["top_score"],
        current["rack"] or "",
        str(event["notation"]),
        layout(str(event["board"])).size,
        rng,
    )
    for phone, plan in zip(phones, plans, strict=True):
        phone.slip, phone.done = SlipRecord(plan), asyncio.Event()
    loop = asyncio.get_running_loop()
    for index, phone in enumerate(phones):
        loop.call_later(SLIPS_SECONDS * index / len(phones), phone.submit)
    await asyncio.sleep(SLIPS_SECONDS)
    await asyncio.wait_for(asyncio.gather(*(phone.done.wait() for phone in phones)), timeout=SHOWN_TIMEOUT)


def report(timings: Sequence[Timed]) -> dict[str, Any]:
    by_action: dict[str, Any] = {}
    for name in ACTIONS:
        done = [t for t in timings if t.action == name]
        if not done:
            continue
        phones = [s for t in done for s in t.phones_s]
        by_action[name] = {
            "times": len(done),
            "server": summary_s([t.server_s for t in done]),
            # In the order of the cycles: an action slower than the others is named by its cycle.
            "server_each": [t.server_s for t in done],
            "phones": summary_s([s for s in phones if s is not None]),
            "phones_not_shown": sum(1 for s in phones if s is None),
            "projector": summary_s([t.projector_s for t in done if t.projector_s is not None]),
            "projector_not_shown": sum(1 for t in done if t.projector_s is None),
            "stream_kb_p50": round(statistics.median(t.stream_kb for t in done), 1),
            "parts_p50": {
                part: summary_s([t.parts[part] for t in done if part in t.parts])["p50"]
                for part in sorted({part for t in done for part in t.parts})
            },
        }
    return by_action


def report_lines(found: Mapping[str, Any]) -> list[str]:
    """What :func:`play` found, as the bench prints it."""
    lines = [
        "",
        f"console actions (server: click -> console page shown, target p95 <= {TARGET_SERVER_P95_S:g} s; "
        f"screens: click -> last phone and projector, target p99 <= {TARGET_SCREENS_P99_S:g} s)"
        + (", until the game ended:" if found["game_ended"] else ":"),
    ]
    for name, row in found["actions"].items():
        server, phones, projector = row["server"], row["phones"], row["projector"]
        lines.append(
            f"  {name:<10} x{row['times']}: server p50 {server['p50']} p95 {server['p95']} "
            f"max {server['max']} s (each: {', '.join(f'{t:g}' for t in row['server_each'])}); "
            f"phones p99 {phones['p99']} max {phones['max']} s ({row['phones_not_shown']} not shown); "
            f"projector max {projector['max']} s ({row['projector_not_shown']} not shown); "
            f"{row['stream_kb_p50']} KB a phone's stream; "
            + ", ".join(f"{part} {seconds} s" for part, seconds in row["parts_p50"].items())
            + " (p50, from the click)"
        )
    return lines
