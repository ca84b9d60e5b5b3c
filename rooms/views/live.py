"""Live updates: what every page listens to (docs/architecture.md, "Live updates").

``/live/<event>/stream/`` is a server-sent events stream: it writes the event's version
strings when they change (and a heartbeat), so a phone learns of a change within a fraction
of a second for little server CPU (docs/benchmarks.md, "Live updates"). ``/live/<event>/`` answers the same
versions once, for a page whose browser has no EventSource or whose stream keeps failing
(a proxy that buffers, say): live.js then polls it every second.

Both read the versions through :func:`versions_for`, computed at most every
:data:`CACHE_SECONDS` per event and process whatever the number of listeners."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import json
import logging
import random
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator

from asgiref.sync import sync_to_async
from django import db
from django.contrib import auth
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from rooms.views import panels
from rooms.views.common import TokenOf, asession_player, session_player, session_store
from rooms.views.panels import Panels, Seat
from rooms.views.phone import SORT_DEFAULT, SORT_KEY, rack_order
from tournaments import notify
from tournaments.foreground import FOREGROUND
from tournaments.models import Event, Player
from tournaments.permissions import can_arbitrate
from tournaments.selectors.live import LiveVersions, live_versions

logger = logging.getLogger(__name__)

#: How long one computation of the versions serves every listener (seconds): with 1,000
#: phones the database sees a few queries a second, not 1,000.
CACHE_SECONDS = 0.5
#: How often a stream looks at the (cached) versions, and writes at the latest.
CHECK_SECONDS = 0.2
#: The shortest time between two looks of a channel, whatever the messages say.
MIN_LOOK_SECONDS = 0.02
#: The phones' panels are built at most this often per event and process: public changes
#: can follow each other within a second (a ruling, then the ruling again with the slips
#: that queued behind the close: tournaments/services/rulings.py, RULE_AGAIN_QUIET), and
#: each build sends every phone its panel.
PANEL_EVERY_SECONDS = 1.0
#: The longest a public change waits for the phones' slips this process is answering.
SLIPS_FIRST_SECONDS = 3.0
#: How often the waiting change looks whether they have been answered.
SLIPS_FIRST_POLL_SECONDS = 0.05
#: After Redis failed, the listener tries again this much later.
RECONNECT_SECONDS = 2.0
HEARTBEAT_SECONDS = 15.0
#: Each stream beats at its own pace, up to this share sooner than HEARTBEAT_SECONDS:
#: a hall's streams open together and are written to together (each public change), and
#: 2,000 heartbeats at one instant would hold up the slips of that second.
HEARTBEAT_SPREAD = 0.25
#: A stream ends after this long and the browser reconnects (after RETRY_MS): a phone
#: that vanished without closing its connection holds a server thread no longer.
LIFETIME_SECONDS = 300.0
RETRY_MS = 1000

#: One listener recomputes the versions when the cache has expired; the others go on with
#: the last ones meanwhile. Streams wake in step: without this, all of them would miss
#: the cache at the same moment and query the database together.
_refresh = threading.Lock()
#: event id -> (monotonic time of the computation, versions). In the process, not in
#: Django's cache: Redis keeps whole seconds only (a 0.5 s timeout deletes the key), and
#: the point is one computation per process whatever the number of listeners.
_memo: dict[int, tuple[float, LiveVersions]] = {}
#: Set, every open stream ends within CHECK_SECONDS (the browsers reconnect): for a
#: server that stops, and for the tests, whose database goes when a test ends.
STOP = threading.Event()


class _Slips:
    """The phones' slips this process is answering (counted by arbiter/asgi.py).

    A public change wakes every phone's stream of the process at once, to write its panel:
    at the close of a 2,000-phone round, 2,000 writes and the panels' building, while the
    slips sent before the deadline may still be queued in the process, each step of such a
    slip waiting behind the 2,000 writes (docs/decisions.md). The slips go first: the
    change waits until they are answered, :data:`SLIPS_FIRST_SECONDS` at most (slips
    that never stop coming must not keep the phones from the change)."""

    def __init__(self) -> None:
        self.count = 0

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        self.count += 1
        try:
            with FOREGROUND.busy():
                yield
        finally:
            self.count -= 1

    async def answered(self, at_most: float) -> None:
        until = time.monotonic() + at_most
        while self.count > 0 and time.monotonic() < until:
            await asyncio.sleep(SLIPS_FIRST_POLL_SECONDS)


#: Of this process (its event loop: only the loop's coroutines count and wait).
SLIPS = _Slips()


class _Arbitrator:
    """The arbitrator's requests this process is answering (counted by arbiter/asgi.py):
    the console and the API with an arbitrator's token (not the projector: a screen of
    the hall, as the phones are).

    A console action is a click and the page it leads to, in the process whose streams the
    change it made wakes: the phones' panels, built in a thread beside the page, would take
    the interpreter from it half the time (docs/decisions.md). The
    build waits while the arbitrator is answered,
    :data:`ARBITRATOR_FIRST_SECONDS` at most a build; the phones lose little by it: the
    page and the build take turns at one interpreter either way, and no panel is sent
    before its build is done."""

    def __init__(self) -> None:
        self.count = 0
        #: Set while no arbitrator's request is being answered (read by the build's thread).
        self.idle = threading.Event()
        self.idle.set()

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        self.count += 1
        self.idle.clear()
        try:
            with FOREGROUND.busy():
                yield
        finally:
            self.count -= 1
            if self.count <= 0:
                self.idle.set()

    def wait_for(self, until: float) -> None:
        """In the build's thread: wait while a request of the arbitrator is answered,
        until ``until`` (time.monotonic()) at the latest."""
        left = until - time.monotonic()
        if left > 0 and not self.idle.is_set():
            self.idle.wait(left)


ARBITRATOR = _Arbitrator()
#: The longest a build of the phones' panels waits for the arbitrator's requests in all.
ARBITRATOR_FIRST_SECONDS = 0.5


def _build(event: Event, public: str, seats: list[Seat], pause: Callable[[], None]) -> Panels:
    with FOREGROUND.busy():  # the backups wait for the phones' panels too
        return panels.build(event, public, seats, pause)


def _computed(event: Event) -> LiveVersions:
    try:
        versions = live_versions(event)
        _memo[event.pk] = (time.monotonic(), versions)
        return versions
    finally:
        db.connections.close_all()  # a thread of the pool: give its connection back at once


def versions_for(event: Event) -> LiveVersions:
    known = _memo.get(event.pk)
    if known is not None and time.monotonic() - known[0] < CACHE_SECONDS:
        return known[1]
    if not _refresh.acquire(blocking=known is None):
        assert known is not None
        return known[1]  # another listener is computing them: the last ones meanwhile
    try:
        # Django closes a request's connection when its response is closed: for a stream,
        # at its end. _computed closes it at once, or every stream would hold one.
        return _computed(event)
    finally:
        _refresh.release()


class _Channel:
    """The versions of one event as the async streams of this process see them.

    One task per event and process looks at the versions every :data:`CHECK_SECONDS`
    while a stream listens, and wakes the streams when they change. The streams sleep in
    between: 2,000 streams each waking five times a second to compare versions would cost
    a whole core of a hall's laptop (docs/decisions.md), and each would have queued its
    own computation when the cache expired."""

    def __init__(self, event: Event) -> None:
        self.event = event
        self.listeners = 0
        #: The phones' streams that are sent their panels (rooms/views/panels.py), counted.
        self.seats: Counter[Seat] = Counter()
        #: Their panels at the last public version, None when they could not be built.
        self.panels: Panels | None = None
        self._panels_for = ""
        self._panels_at = -PANEL_EVERY_SECONDS
        self.versions: LiveVersions | None = None
        #: Newer versions than ``versions`` with its public one, read while the phones'
        #: panels were being built: the arbitrator's streams write them (:meth:`now`).
        self.ahead: LiveVersions | None = None
        self._told_meanwhile = False
        self.failed: BaseException | None = None
        self.loop = asyncio.get_running_loop()
        self._changed: asyncio.Future[None] = self.loop.create_future()
        #: Done only when what a phone's stream writes changes: ``full`` changes with every
        #: slip, and a hall's streams woken at every look (five a second) in a round's last
        #: seconds, to write nothing, would take CPU from the slips (docs/decisions.md).
        self._changed_for_phones: asyncio.Future[None] = self.loop.create_future()
        self._task: asyncio.Task[None] | None = None
        #: Set by a message of another process (tournaments/notify.py): look now.
        self._poked = asyncio.Event()

    def poke(self) -> None:
        self._poked.set()

    def join(self, seat: Seat | None = None) -> None:
        self.listeners += 1
        if seat is not None:
            self.seats[seat] += 1
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._watch())

    def leave(self, seat: Seat | None = None) -> None:
        self.listeners -= 1
        if seat is not None:
            self.seats[seat] -= 1
            if self.seats[seat] <= 0:
                del self.seats[seat]

    async def _build_panels(self, versions: LiveVersions) -> None:
        """The phones' panels at this public version, before the streams wake to send them."""
        if not self.seats or versions.public == self._panels_for or self.versions is None:
            return  # nor at the channel's first look: a stream's first message is no panel
        # Changes in a burst wait for each other (every stream with them): one panel each.
        await asyncio.sleep(max(0.0, self._panels_at + PANEL_EVERY_SECONDS - time.monotonic()))
        self._panels_for, self._panels_at = versions.public, time.monotonic()
        try:
            until = time.monotonic() + ARBITRATOR_FIRST_SECONDS
            self.panels = await sync_to_async(_build, thread_sensitive=False)(
                self.event, versions.public, list(self.seats), functools.partial(ARBITRATOR.wait_for, until)
            )
        except Exception:  # the phones ask for their panels instead, as they did before
            logger.warning("phone panels of event %s not built", self.event.pk, exc_info=True)
            self.panels = None

    async def _read(self, fresh: bool = False) -> LiveVersions | None:
        """The versions now (None: unreadable, the streams told)."""
        known = _memo.get(self.event.pk)
        if fresh and known is not None and time.monotonic() - known[0] >= MIN_LOOK_SECONDS:
            known = None  # told of a change: what this process read before is outdated
            _memo.pop(self.event.pk, None)
        try:
            if known is not None and time.monotonic() - known[0] < CACHE_SECONDS:
                return known[1]  # computed by another stream's thread (WSGI) or look
            return await sync_to_async(versions_for, thread_sensitive=False)(self.event)
        except Exception as exc:  # the database restarting: the streams end, the phones retry
            logger.warning("live versions of event %s cannot be read: %s", self.event.pk, exc)
            self.failed = exc
            self._wake()
            return None

    async def _look(self, fresh: bool = False) -> None:
        versions = await self._read(fresh)
        if versions is None:
            return
        self.failed = None
        if versions != self.versions:
            phones = self.versions is None or _for_phones(versions) != _for_phones(self.versions)
            if phones and self.versions is not None and self.seats:
                await SLIPS.answered(SLIPS_FIRST_SECONDS)
            self._told_meanwhile = False
            meanwhile = asyncio.ensure_future(self._arbitrator_meanwhile(versions))
            try:
                await self._build_panels(versions)
            finally:
                meanwhile.cancel()
                await asyncio.gather(meanwhile, return_exceptions=True)
            if self.ahead is not None:
                versions, self.ahead = self.ahead, None  # newer, the same public version
            if self._told_meanwhile:
                self._poked.set()  # a message the build's looks took: looked at once again
            self.versions = versions
            self._wake(phones)

    async def _arbitrator_meanwhile(self, building: LiveVersions) -> None:
        """While the phones' panels of ``building`` are built (a hall's take a good part of
        a second), the arbitrator's streams are told what changes for them alone: the round
        ruled after its close, which the console shows at once (its review) and the phones
        not before the results are published (tournaments/selectors/live.py, live_versions)."""
        while not STOP.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poked.wait(), CHECK_SECONDS)
            fresh = self._poked.is_set()
            self._poked.clear()
            self._told_meanwhile |= fresh
            await asyncio.sleep(MIN_LOOK_SECONDS)
            newest = await self._read(fresh)
            if newest is None:
                return
            if newest.public != building.public:
                self._poked.set()  # news for the phones: their turn after this build
                return
            if newest != (self.ahead or building):
                self.ahead = newest
                self._wake(phones=False)

    def now(self, arbitrator: bool) -> LiveVersions | None:
        """The versions a stream writes: the arbitrator's may be ahead of the phones'."""
        if arbitrator and self.ahead is not None:
            return self.ahead
        return self.versions

    def _wake(self, phones: bool = True) -> None:
        changed, self._changed = self._changed, self.loop.create_future()
        changed.set_result(None)
        if phones:
            changed, self._changed_for_phones = self._changed_for_phones, self.loop.create_future()
            changed.set_result(None)

    async def _watch(self) -> None:
        try:
            while self.listeners > 0 and not STOP.is_set():
                fresh = self._poked.is_set()
                self._poked.clear()
                await self._look(fresh)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._poked.wait(), CHECK_SECONDS)
                # Messages in a burst (a placement records several changes) make one look.
                await asyncio.sleep(MIN_LOOK_SECONDS)
        finally:
            self._wake()  # at STOP, every stream ends now
            if _channels.get(self.event.pk) is self and self.listeners <= 0:
                del _channels[self.event.pk]

    async def first(self, arbitrator: bool = True) -> LiveVersions:
        while self.versions is None and self.failed is None and not STOP.is_set():
            await self.changed(CHECK_SECONDS)
        versions = self.now(arbitrator)
        if versions is None:
            raise RuntimeError(f"live versions of event {self.event.pk} cannot be read") from self.failed
        return versions

    def waiter(self, arbitrator: bool = True) -> asyncio.Future[None]:
        """Done at the next change (or failure, or STOP): taken as the versions are read
        (no await between), before the stream writes them, so that a change meanwhile is
        not missed (taken before the reading, it would be the one the reading resolves,
        and the stream would wake once more for nothing). A phone's stream
        (not ``arbitrator``) is woken only by a change it writes (:func:`_for_phones`)."""
        return self._changed if arbitrator else self._changed_for_phones

    async def changed(self, timeout: float, waiter: asyncio.Future[None] | None = None) -> None:
        """Until the versions change (or a failure, or STOP), ``timeout`` at most."""
        await asyncio.wait((waiter or self._changed,), timeout=max(timeout, 0.0))


def _for_phones(versions: LiveVersions) -> LiveVersions:
    """What of the versions a stream that is not the arbitrator's writes (all but ``full``)."""
    return dataclasses.replace(versions, full="")


#: event id -> its channel, in this process (one event loop per process under an ASGI
#: server).
_channels: dict[int, _Channel] = {}


def _channel(event: Event) -> _Channel:
    channel = _channels.get(event.pk)
    if channel is None or channel.loop is not asyncio.get_running_loop():  # tests: a loop each
        channel = _channels[event.pk] = _Channel(event)
    _listen_once()
    return channel


#: The task of this process (its event loop) that listens to the live messages.
_listening: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}


def _listen_once() -> None:
    url = notify.live_url()
    loop = asyncio.get_running_loop()
    if url and (loop not in _listening or _listening[loop].done()):
        _listening[loop] = asyncio.ensure_future(_listen(url))


async def _listen(url: str) -> None:
    """Poke the channel of each event another process says has changed; reconnect after a
    failure (Redis restarting): meanwhile the channels' own looks carry on."""
    from redis import asyncio as aioredis

    while not STOP.is_set():
        client = aioredis.Redis.from_url(url, socket_connect_timeout=0.5)
        try:
            async with client.pubsub() as pubsub:
                await pubsub.subscribe(notify.CHANNEL)
                while not STOP.is_set():
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if message is None:
                        continue
                    try:
                        event_id = int(message["data"])
                    except (TypeError, ValueError):
                        continue
                    channel = _channels.get(event_id)
                    if channel is not None:
                        channel.poke()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # redis' errors and the socket's alike
            logger.warning("live messages not received (%s): the looks carry on meanwhile", exc)
            await asyncio.sleep(RECONNECT_SECONDS)
        finally:
            await client.aclose()


def forget_versions() -> None:
    """Drop the computed versions: the next look computes them again."""
    _memo.clear()


def forget() -> None:
    """Drop the computed versions and the channels (tests, after a change they want seen
    at once)."""
    _memo.clear()
    _channels.clear()


def _body(versions: LiveVersions, arbitrator: bool) -> dict[str, object]:
    body: dict[str, object] = {
        "public": versions.public,
        "deadline": versions.deadline,
        "paused": versions.paused,
        "state": versions.state,
        # The server's clock: the countdowns follow it, not the phone's own clock.
        "now": int(time.time() * 1000),
    }
    if arbitrator:
        body["full"] = versions.full  # the slips' version: the arbitrator's only
    return body


@dataclasses.dataclass(frozen=True)
class Listener:
    """Who listens to an event's versions: its arbitrator, or a phone's player and token."""

    event: Event
    arbitrator: bool
    player: Player | None = None
    token: str = ""
    #: The player's rack order, when read with the session on the event loop.
    sort: str = ""


#: The request's attribute holding its :class:`Listener` when found on the event loop
#: before Django's chain (arbiter/hall.py): the view then reads nothing itself.
FOUND = "arbiter_listener"


def _listener(request: HttpRequest, event_id: int) -> Listener | JsonResponse:
    """The event, whether the caller arbitrates it, else the phone's player and token."""
    if getattr(request.user, "is_authenticated", False):
        event = get_object_or_404(Event, pk=event_id)
        if can_arbitrate(request.user, event):
            return Listener(event, True)
    # A phone: its event comes with its player, in the one statement that checks its token.
    player, token = session_player(request, event_id)
    if player is None:
        get_object_or_404(Event, pk=event_id)  # no such event: 404, as for the arbitrator
        message = _("join the event first")
        return JsonResponse({"error": {"code": "forbidden", "message": message, "detail": {}}}, status=403)
    return Listener(player.event, False, player, token)


async def aphone_listener(request: HttpRequest, event_id: int, token_of: TokenOf) -> Listener | None:
    """A phone's :func:`_listener` on the event loop, before Django's chain: its session
    read from the cache, its token through ``token_of`` (arbiter/hall.py). A hall's streams
    open together (the round's start, the Wi-Fi back), and in the phones' one thread
    (arbiter/asgi.py) each waited for the round trips of those before it. None: the view
    decides (a logged-in session, maybe the arbitrator's; no player; a rack order that the
    URL changes, written to the session)."""
    if "sort" in request.GET:
        return None
    store = session_store(request)
    if await store.ahas_key(auth.SESSION_KEY):
        return None
    player, token = await asession_player(store, event_id, token_of)
    if player is None:
        return None
    return Listener(player.event, False, player, token, str(await store.aget(SORT_KEY, SORT_DEFAULT)))


@never_cache
def live(request: HttpRequest, event_id: int) -> JsonResponse:
    """The versions once: the polling fallback."""
    found = _listener(request, event_id)
    if isinstance(found, JsonResponse):
        return found
    return JsonResponse(_body(versions_for(found.event), found.arbitrator))


class _Writer:
    """What a stream writes after each look at the versions, for both servers' streams:
    the versions when they changed, a heartbeat when nothing was written for a while."""

    def __init__(self, event: Event, arbitrator: bool, held: frozenset[str] = frozenset()) -> None:
        self.event, self.arbitrator = event, arbitrator
        self.started = self.last_write = time.monotonic()
        self.sent: tuple[str, str] | None = None
        #: The panel's parts the phone holds (rooms/views/panels.py): those of the last
        #: panel sent (by this stream, or by the one before it: Last-Event-ID); none after
        #: a version message (the phone asks for its panel: what it gets, the stream does
        #: not know).
        self.held = held
        self.beat = HEARTBEAT_SECONDS * (1 - HEARTBEAT_SPREAD * random.random())

    def open(self) -> bool:
        return time.monotonic() - self.started < LIFETIME_SECONDS and not STOP.is_set()

    def until_due(self) -> float:
        """Seconds until the next heartbeat or the end of the stream's life."""
        now = time.monotonic()
        return min(self.last_write + self.beat, self.started + LIFETIME_SECONDS) - now

    def unreadable(self) -> None:
        # The database is unreachable (restarting, or gone at the end of a test): the stream
        # ends; the browser reconnects after RETRY_MS and finds it back, or polls.
        logger.warning(
            "live stream of event %s ended: the versions cannot be read", self.event.pk, exc_info=True
        )

    def frame(self, versions: LiveVersions, panels: Panels | None = None, seat: Seat | None = None) -> str:
        now = time.monotonic()
        seen = (versions.public, versions.full if self.arbitrator else "")
        if seen != self.sent:
            first = self.sent is None
            self.sent, self.last_write = seen, now
            # The first message only tells the page its versions: the page was just built.
            if not first and (panel := _panel(versions, panels, seat, self.held)):
                text, self.held = panel
                return text
            if not first:
                self.held = frozenset()
            return f"event: version\ndata: {json.dumps(_body(versions, self.arbitrator))}\n\n"
        if now - self.last_write >= self.beat:
            # A write is the only way a WSGI server learns that the phone has gone; the
            # page counts it as a sign of life (a slip waiting to be sent goes then).
            self.last_write = now
            return f"event: ping\ndata: {json.dumps({'now': int(time.time() * 1000)})}\n\n"
        return ""


def _panel(
    versions: LiveVersions, panels: Panels | None, seat: Seat | None, held: frozenset[str]
) -> tuple[str, frozenset[str]] | None:
    """The ``panel`` message of a phone's stream, if its panels were built at ``versions``,
    and the parts its phone holds then."""
    if panels is None or seat is None or panels.asked != versions.public:
        return None
    return panels.frame(seat, held)


def _released(versions: LiveVersions, panels: Panels | None, seat: Seat | None) -> bool:
    return (
        seat is not None and panels is not None and panels.asked == versions.public and panels.revoked(seat)
    )


class _Running:
    """The WSGI server's streams running in this process, each in a thread."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()

    def add(self, n: int) -> None:
        with self.lock:
            self.count += n


_RUNNING = _Running()


def streams_open() -> int:
    """The WSGI streams of this process still running: a stream whose phone has gone runs
    until its next write (a heartbeat), reading the database meanwhile. After :data:`STOP`,
    none once this is 0 (the tests' in-memory database locks a table while it is read)."""
    return _RUNNING.count


def _stream(event: Event, arbitrator: bool) -> Iterator[str]:
    db.connections.close_all()  # the one the view used to check the caller
    writer = _Writer(event, arbitrator)
    _RUNNING.add(1)
    try:
        yield f"retry: {RETRY_MS}\n\n"
        while writer.open():
            try:
                versions = versions_for(event)
            except Exception:
                writer.unreadable()
                return
            if frame := writer.frame(versions):
                yield frame
            STOP.wait(CHECK_SECONDS)
    finally:
        _RUNNING.add(-1)


async def _astream(
    event: Event, arbitrator: bool, seat: Seat | None = None, held: frozenset[str] = frozenset()
) -> AsyncIterator[str]:
    """:func:`_stream` for an ASGI server: a coroutine per phone, not a thread, asleep
    until its event's :class:`_Channel` says the versions changed or a heartbeat is due;
    the server ends it when the phone goes away (Django cancels a streaming response on
    disconnect). A phone's stream (``seat``) sends its panel at each public change."""
    writer = _Writer(event, arbitrator, held)
    channel = _channel(event)
    channel.join(seat)
    try:
        yield f"retry: {RETRY_MS}\n\n"
        while writer.open():
            try:
                versions = await channel.first(arbitrator)
            except Exception:
                writer.unreadable()
                return
            waiter = channel.waiter(arbitrator)
            if channel.failed is not None:
                writer.unreadable()
                return
            if frame := writer.frame(versions, channel.panels, seat):
                yield frame
            if _released(versions, channel.panels, seat):
                # Seen at the first public change since the release (the panels, the only
                # private frames, are built there): the phone reconnects, is refused, and
                # goes back to the join form.
                return
            await channel.changed(writer.until_due(), waiter)
    finally:
        channel.leave(seat)


@never_cache
def live_stream(request: HttpRequest, event_id: int) -> HttpResponseBase:
    found: Listener | JsonResponse | None = getattr(request, FOUND, None)
    on_the_loop = found is not None
    if found is None:
        found = _listener(request, event_id)
    if isinstance(found, JsonResponse):
        return found
    if isinstance(request, ASGIRequest):
        seat = None
        if found.player is not None and request.GET.get("panel"):  # the phone page's stream
            order = found.sort or rack_order(request)
            seat = Seat(found.player.pk, translation.get_language(), order, found.token)
        if not on_the_loop:
            # The connection this check used goes back now, not when the stream ends
            # minutes later: 2,000 open streams must not hold 2,000 database connections.
            db.connections.close_all()
        held = panels.held_by(request.headers.get("Last-Event-ID", "")) if seat is not None else frozenset()
        stream: Iterator[str] | AsyncIterator[str] = _astream(found.event, found.arbitrator, seat, held)
    else:
        stream = _stream(found.event, found.arbitrator)  # a WSGI server's thread per phone
    response = StreamingHttpResponse(stream, content_type="text/event-stream")
    # A proxy (nginx) buffers a response unless told not to: the events would arrive late.
    response["X-Accel-Buffering"] = "no"
    return response
