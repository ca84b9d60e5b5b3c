"""Live-updates benchmark: ``python -m bench.live [--clients 50,200] [--seconds 20] [--quick] [--json FILE]``.

Answers the README's question "polling or server-sent events?" with figures from this
machine. For each number of phones it starts the product's web server (``manage.py
runserver --noreload``, threaded WSGI, what ``serve`` runs) on a fresh temporary data
folder (embedded SQLite) and measures:

* polling: every phone (a thread with its own keep-alive connection and session cookie)
  asks ``/live/<event>/`` one second after its previous answer, as live.js does;
* server-sent events: every phone holds one stream of ``/live/<event>/stream/`` (it
  looks at the same cached versions every 0.2 s).

During each run the bench process changes the event's state at random moments through
:mod:`tournaments.services` (the round opens, then the time per round changes: each a
committed service call that writes a history row) and times, for every phone, how long
after the commit it saw the new ``public`` version. It reads the server's CPU time,
threads and memory from /proc. A last run hammers the polling endpoint with a few
keep-alive clients and no pause: how many phones one server process can serve.

A script, not a timed test: the figures go into the README by hand. Linux only (/proc).
Every client loop stops at its run's deadline; the servers are always stopped.
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent
SETTINGS = "bench.live_settings"
HOST = "127.0.0.1"
#: The product's requirement: every state change on every phone within this time.
REQUIREMENT_SECONDS = 2.0
#: After the phones connect, before the measured window: every phone has had an answer.
WARMUP_TIMEOUT = 15.0
#: How long the bench waits for every phone to see a change before the next one.
SEEN_TIMEOUT = 5.0
MAX_CHANGES = 20
#: The capacity run: this many clients asking without pause, for this long each. With 8,
#: each keep-alive connection waits about 40 ms per answer (runserver writes an answer in
#: five small packets: Nagle's algorithm against the client's delayed ACK), which caps
#: them below what the server can do; 16 keep its CPU busy.
HAMMER_CLIENTS = (8, 16)
HAMMER_SECONDS = 5.0
HAMMER_MAX_REQUESTS = 500_000
SERVER_START_TIMEOUT = 60.0
#: A phone gives up on one request after this (seconds); the next poll tries again.
REQUEST_TIMEOUT = 10.0
SAMPLE_SECONDS = 0.25
CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


# --------------------------------------------------------------------------- pure helpers


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0..1) of ``values``; ValueError when empty."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def summary_ms(seconds: Sequence[float]) -> dict[str, float | int]:
    """Count, median, p95 and maximum in milliseconds; zeros when there is nothing."""
    if not seconds:
        return {"n": 0, "median_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}
    return {
        "n": len(seconds),
        "median_ms": round(statistics.median(seconds) * 1000, 1),
        "p95_ms": round(percentile(seconds, 0.95) * 1000, 1),
        "max_ms": round(max(seconds) * 1000, 1),
    }


def parse_clients(text: str) -> list[int]:
    """``"50,200"`` -> ``[50, 200]``; ArgumentTypeError for anything but positive numbers."""
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected numbers separated by commas") from None
    if not counts or any(n < 1 for n in counts):
        raise argparse.ArgumentTypeError(f"{text!r}: expected positive numbers separated by commas")
    return counts


def proc_cpu_seconds(stat: str, ticks_per_second: int = CLK_TCK) -> float:
    """User + system CPU time of a process from the text of /proc/<pid>/stat. The command
    name (field 2) is in parentheses and may hold spaces or parentheses: the fields are
    counted after its last ``)``."""
    fields = stat[stat.rindex(")") + 2 :].split()
    # After the name: state is field 3, utime field 14, stime field 15 (proc(5)).
    utime, stime = int(fields[11]), int(fields[12])
    return (utime + stime) / ticks_per_second


def proc_status(status: str) -> dict[str, int]:
    """Threads and resident memory (kB) from the text of /proc/<pid>/status."""
    found: dict[str, int] = {}
    for line in status.splitlines():
        key, _, value = line.partition(":")
        if key in ("Threads", "VmRSS"):
            found[key] = int(value.split()[0])
    return found


class SseParser:
    """Server-sent events, one line at a time: ``feed`` returns ``(event, data)`` when a
    blank line ends an event with data; comments (heartbeats) and ``retry`` give None."""

    def __init__(self, last_id: str = "") -> None:
        self.event = ""
        self.data: list[str] = []
        #: The last ``id`` field, sent back as Last-Event-ID when the stream opens again.
        self.last_id = last_id

    def feed(self, line: str) -> tuple[str, str] | None:
        line = line.rstrip("\r\n")
        if not line:
            done = (self.event or "message", "\n".join(self.data)) if self.data else None
            self.event, self.data = "", []
            return done
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            self.event = value
        elif name == "data":
            self.data.append(value)
        elif name == "id" and "\0" not in value:
            self.last_id = value
        return None


@dataclass(frozen=True)
class Change:
    """One state change: when the service was called, when it committed, the public
    version the phones knew before it, and what it was."""

    called: float
    committed: float
    before: str
    label: str


def propagation(
    changes: Sequence[Change], seen: Sequence[Sequence[tuple[float, str]]]
) -> tuple[list[float], int]:
    """For every change and every phone, seconds from the commit to the first answer
    showing another public version than the one before the change; and how many pairs
    never saw it. ``seen[i]`` lists phone i's ``(time, version)`` whenever its version
    changed, in time order."""
    delays: list[float] = []
    missed = 0
    for change in changes:
        for transitions in seen:
            first = next((t for t, v in transitions if t >= change.called and v != change.before), None)
            if first is None:
                missed += 1
            else:
                delays.append(max(0.0, first - change.committed))
    return delays, missed


# --------------------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """``manage.py runserver --noreload`` in its own process group; the pid is the server."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        self.log = log
        self._log_file = log.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "runserver", f"{HOST}:{self.port}", "--noreload"],
            cwd=BASE_DIR,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, path: str, cookie: str) -> None:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped (exit {self.process.returncode}):\n{self.tail()}")
            conn = http.client.HTTPConnection(HOST, self.port, timeout=2)
            try:
                conn.request("GET", path, headers={"Cookie": cookie})
                response = conn.getresponse()
                response.read()
                if response.status == 200:
                    return
                raise RuntimeError(f"GET {path}: HTTP {response.status}\n{self.tail()}")
            except OSError:
                time.sleep(0.1)
            finally:
                conn.close()
        raise RuntimeError(f"the server did not answer within {SERVER_START_TIMEOUT:.0f} s:\n{self.tail()}")

    def cpu_seconds(self) -> float:
        return proc_cpu_seconds(Path(f"/proc/{self.process.pid}/stat").read_text())

    def status(self) -> dict[str, int]:
        return proc_status(Path(f"/proc/{self.process.pid}/status").read_text())

    def tail(self, lines: int = 20) -> str:
        self._log_file.flush()
        return "\n".join(self.log.read_text("utf-8", errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        try:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGTERM)
                try:
                    self.process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    os.killpg(self.process.pid, signal.SIGKILL)
                    self.process.wait(timeout=5)
        except ProcessLookupError:
            pass
        finally:
            self._log_file.close()


@contextmanager
def running_server(env: dict[str, str], log: Path, path: str, cookie: str) -> Iterator[Server]:
    server = Server(env, log)
    try:
        server.wait_ready(path, cookie)
        yield server
    finally:
        server.stop()


class Sampler:
    """The server's threads and memory, read every SAMPLE_SECONDS until stopped."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.threads: list[int] = []
        self.rss_kb: list[int] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                status = self.server.status()
            except OSError:
                return
            self.threads.append(status.get("Threads", 0))
            self.rss_kb.append(status.get("VmRSS", 0))
            self._stop.wait(SAMPLE_SECONDS)


# --------------------------------------------------------------------------- data


@dataclass
class Fixture:
    event_id: int
    arbitrator_id: int
    cookies: list[str]  # "sessionid=..." of each phone's browser


def prepare(players: int) -> Fixture:
    """An arbitrator, an event on the bundled ENABLE list, its players, a started game
    with a drawn round, and one browser session per player holding the join (what the
    join page stores)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from rooms.views.common import SESSION_PLAYERS
    from tournaments import services
    from tournaments import services as api_services

    call_command("migrate", interactive=False, verbosity=0)
    arbitrator = get_user_model().objects.create_user(username="bench-arbitrator", password="bench")
    event = services.event_create(
        name="Live updates bench",
        starts_on=dt.date.today(),
        lexicon=services.lexicon_bundled(name="enable"),
        created_by=arbitrator,
        language="english",
    )
    game = services.game_start(event=event, by=arbitrator)
    services.round_draw(game=game, by=arbitrator)
    store = import_module(settings.SESSION_ENGINE).SessionStore
    cookies: list[str] = []
    for number in range(1, players + 1):
        player = services.player_add(event=event, name=f"Phone {number}", table=number)
        token = api_services.player_token_issue(event=event, code=event.code, seat=player.seat_code)
        session = store()
        session[SESSION_PLAYERS] = {str(event.pk): {"player": player.pk, "token": token.key}}
        session.create()
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={session.session_key}")
    return Fixture(event_id=event.pk, arbitrator_id=arbitrator.pk, cookies=cookies)


def public_version(event_id: int) -> str:
    from tournaments.models import Event
    from tournaments.selectors import live_versions

    return live_versions(Event.objects.get(pk=event_id)).public


def change_state(fixture: Fixture) -> tuple[float, float, str]:
    """Open the drawn round, else change the time per round: (called, committed, label)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from tournaments import services
    from tournaments.models import Event, Round
    from tournaments.selectors import current_round

    event = Event.objects.get(pk=fixture.event_id)
    by = get_user_model().objects.get(pk=fixture.arbitrator_id)
    round = current_round(event)
    committed: list[float] = []
    called = time.perf_counter()
    # The service's own atomic block becomes a savepoint: the commit that phones can see
    # is this one, and on_commit stamps the moment right after it.
    with transaction.atomic():
        transaction.on_commit(lambda: committed.append(time.perf_counter()))
        if round is not None and round.state == Round.State.DRAWN:
            services.round_open(round=round, by=by)
            label = "round opened"
        else:
            # Always another value than the stored one, or nothing would change.
            seconds = 181 if event.round_seconds != 181 else 182
            services.event_update(event=event, by=by, round_seconds=seconds)
            label = "time per round changed"
    return called, committed[0], label


# --------------------------------------------------------------------------- the phones


@dataclass
class Phones:
    """What every simulated phone saw, written by its own thread only."""

    count: int
    stop: threading.Event = field(default_factory=threading.Event)
    last: list[str | None] = field(init=False)
    seen: list[list[tuple[float, str]]] = field(init=False)
    #: (time the answer arrived, seconds it took): requests for polling, the time to the
    #: first event for a stream.
    latencies: list[list[tuple[float, float]]] = field(init=False)
    errors: list[int] = field(init=False)
    connects: list[int] = field(init=False)
    socks: list[socket.socket | None] = field(init=False)

    def __post_init__(self) -> None:
        self.last = [None] * self.count
        self.seen = [[] for _ in range(self.count)]
        self.latencies = [[] for _ in range(self.count)]
        self.errors = [0] * self.count
        self.connects = [0] * self.count
        self.socks = [None] * self.count

    def saw(self, index: int, when: float, public: str) -> None:
        if public != self.last[index]:
            self.seen[index].append((when, public))
            self.last[index] = public

    def all_past(self, version: str) -> bool:
        return all(v is not None and v != version for v in self.last)

    def all_answered(self) -> bool:
        return all(v is not None for v in self.last)

    def hang_up(self) -> None:
        """Wakes the stream readers blocked in recv."""
        self.stop.set()
        for sock in self.socks:
            if sock is not None:
                with suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)


def poll_phone(
    phones: Phones, index: int, port: int, path: str, cookie: str, every: float, phase: float, until: float
) -> None:
    """live.js: ask, read the answer, wait ``every`` seconds, ask again (keep-alive)."""
    conn: http.client.HTTPConnection | None = None
    headers = {"Cookie": cookie, "Accept": "application/json"}
    phones.stop.wait(phase)
    while not phones.stop.is_set() and time.perf_counter() < until:
        if conn is None:
            conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
            phones.connects[index] += 1
        sent = time.perf_counter()
        try:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            body = response.read()
            back = time.perf_counter()
            if response.status == 200:
                phones.latencies[index].append((back, back - sent))
                phones.saw(index, back, json.loads(body)["public"])
            else:
                phones.errors[index] += 1
            if response.will_close:
                conn.close()
                conn = None
        except (OSError, http.client.HTTPException, ValueError, KeyError):
            phones.errors[index] += 1
            if conn is not None:
                conn.close()
            conn = None
        phones.stop.wait(every)
    if conn is not None:
        conn.close()


def stream_phone(
    phones: Phones, index: int, port: int, path: str, cookie: str, phase: float, until: float
) -> None:
    """EventSource: one long GET read line by line; after the stream ends, reconnect
    after the server's ``retry``."""
    retry = 1.0
    phones.stop.wait(phase)
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nCookie: {cookie}\r\n"
        "Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n"
    ).encode()
    while not phones.stop.is_set() and time.perf_counter() < until:
        sent = time.perf_counter()
        first = True
        try:
            with socket.create_connection((HOST, port), timeout=max(1.0, until - sent + 5)) as sock:
                phones.socks[index] = sock
                phones.connects[index] += 1
                if phones.stop.is_set():
                    return
                sock.sendall(request)
                reader = sock.makefile("rb")
                status = reader.readline().decode("latin-1")
                if " 200 " not in status:
                    phones.errors[index] += 1
                else:
                    while reader.readline() not in (b"\r\n", b"\n", b""):
                        pass  # the headers
                    parser = SseParser()
                    while not phones.stop.is_set():
                        line = reader.readline()
                        if not line:
                            break
                        event = parser.feed(line.decode())
                        if event is None:
                            if line.startswith(b"retry:"):
                                retry = int(line.split(b":", 1)[1]) / 1000
                            continue
                        if event[0] == "version":
                            back = time.perf_counter()
                            if first:
                                phones.latencies[index].append((back, back - sent))
                                first = False
                            phones.saw(index, back, json.loads(event[1])["public"])
                reader.close()
        except (OSError, ValueError, KeyError):
            if not phones.stop.is_set():
                phones.errors[index] += 1
        finally:
            phones.socks[index] = None
        phones.stop.wait(retry)


def _start(threads: list[threading.Thread]) -> None:
    for thread in threads:
        thread.start()


def _join(threads: list[threading.Thread], phones: Phones) -> None:
    phones.hang_up()
    deadline = time.monotonic() + REQUEST_TIMEOUT + 5
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))


# --------------------------------------------------------------------------- runs


def run_phones(
    mode: str,
    count: int,
    fixture: Fixture,
    env: dict[str, str],
    var_dir: Path,
    seconds: float,
    every: float,
    rng: random.Random,
) -> dict[str, Any]:
    live_path = f"/live/{fixture.event_id}/"
    path = live_path if mode == "polling" else f"/live/{fixture.event_id}/stream/"
    cookies = fixture.cookies[:count]
    log = var_dir / f"server-{mode}-{count}.log"
    with running_server(env, log, live_path, cookies[0]) as server:
        idle_threads = server.status().get("Threads", 0)
        phones = Phones(count)
        hard_stop = time.perf_counter() + WARMUP_TIMEOUT + seconds + SEEN_TIMEOUT + 10
        threads = [
            threading.Thread(
                target=poll_phone,
                args=(phones, i, server.port, path, cookies[i], every, rng.uniform(0, every), hard_stop),
                daemon=True,
            )
            if mode == "polling"
            else threading.Thread(
                target=stream_phone,
                args=(phones, i, server.port, path, cookies[i], rng.uniform(0, every), hard_stop),
                daemon=True,
            )
            for i in range(count)
        ]
        try:
            _start(threads)
            warm = time.perf_counter() + WARMUP_TIMEOUT
            while not phones.all_answered() and time.perf_counter() < warm:
                time.sleep(0.05)
            # Phones still without an answer stay in the run: what they miss is counted.
            unanswered = sum(v is None for v in phones.last)
            if unanswered == count:
                raise RuntimeError(f"no phone had an answer:\n{server.tail()}")
            if unanswered:
                print(f"    {unanswered} phones without an answer after {WARMUP_TIMEOUT:g} s", flush=True)
            time.sleep(every)  # every phone into its rhythm
            changes: list[Change] = []
            with Sampler(server) as sampler:
                start, cpu_start, own_start = time.perf_counter(), server.cpu_seconds(), time.process_time()
                end = start + seconds
                while len(changes) < MAX_CHANGES:
                    pause = rng.uniform(0.2, 1.2)  # a random moment in the phones' rhythm
                    if time.perf_counter() + pause + REQUIREMENT_SECONDS + 0.5 > end:
                        break
                    time.sleep(pause)
                    before = public_version(fixture.event_id)
                    called, committed, label = change_state(fixture)
                    changes.append(Change(called, committed, before, label))
                    wait_until = min(end, committed + SEEN_TIMEOUT)
                    while not phones.all_past(before) and time.perf_counter() < wait_until:
                        time.sleep(0.01)
                time.sleep(max(0.0, end - time.perf_counter()))
                cpu = server.cpu_seconds() - cpu_start
                window = time.perf_counter() - start
                own = time.process_time() - own_start
        finally:
            _join(threads, phones)
    delays, missed = propagation(changes, phones.seen)
    in_window = [s for lat in phones.latencies for t, s in lat if start <= t < end]
    latencies = in_window if mode == "polling" else [s for lat in phones.latencies for _, s in lat]
    served = len(in_window) if mode == "polling" else 0
    return {
        "mode": mode,
        "phones": count,
        "window_s": round(window, 2),
        "requests_per_s": round(served / window, 1),
        "latency": summary_ms(latencies),
        "propagation": summary_ms(delays),
        "changes": len(changes),
        "change_kinds": sorted({c.label for c in changes}),
        "missed": missed,
        "within_requirement": sum(d <= REQUIREMENT_SECONDS for d in delays),
        "server_cpu_s": round(cpu, 3),
        "server_cpu_pct": round(100 * cpu / window, 1),
        "cpu_ms_per_phone_s": round(1000 * cpu / window / count, 3),
        "cpu_ms_per_request": round(1000 * cpu / served, 3) if served else None,
        "bench_cpu_pct": round(100 * own / window, 1),
        "threads_idle": idle_threads,
        "threads_max": max(sampler.threads, default=0),
        "rss_mb_max": round(max(sampler.rss_kb, default=0) / 1024, 1),
        "unanswered_at_start": unanswered,
        "errors": sum(phones.errors),
        "reconnects": sum(phones.connects) - count,
    }


def hammer(port: int, path: str, cookie: str, until: float, out: list[tuple[float, float]]) -> None:
    conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    headers = {"Cookie": cookie, "Accept": "application/json"}
    try:
        for _ in range(HAMMER_MAX_REQUESTS):
            sent = time.perf_counter()
            if sent >= until:
                return
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
            back = time.perf_counter()
            if response.status == 200:
                out.append((back, back - sent))
            if response.will_close:
                conn.close()
    except (OSError, http.client.HTTPException):
        return
    finally:
        conn.close()


def run_capacity(
    fixture: Fixture, env: dict[str, str], var_dir: Path, seconds: float, concurrency: Sequence[int]
) -> list[dict[str, Any]]:
    """One server; for each number of clients, ``seconds`` of requests without pause."""
    path = f"/live/{fixture.event_id}/"
    found: list[dict[str, Any]] = []
    with running_server(env, var_dir / "server-capacity.log", path, fixture.cookies[0]) as server:
        for clients in concurrency:
            results: list[list[tuple[float, float]]] = [[] for _ in range(clients)]
            cpu_start, own_start, start = server.cpu_seconds(), time.process_time(), time.perf_counter()
            until = start + seconds
            threads = [
                threading.Thread(
                    target=hammer,
                    args=(server.port, path, fixture.cookies[i % len(fixture.cookies)], until, results[i]),
                    daemon=True,
                )
                for i in range(clients)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=seconds + REQUEST_TIMEOUT + 5)
            window = time.perf_counter() - start
            cpu = server.cpu_seconds() - cpu_start
            own = time.process_time() - own_start
            latencies = [s for r in results for _, s in r]
            served = len(latencies)
            found.append(
                {
                    "clients": clients,
                    "window_s": round(window, 2),
                    "requests": served,
                    "requests_per_s": round(served / window, 1),
                    "latency": summary_ms(latencies),
                    "server_cpu_pct": round(100 * cpu / window, 1),
                    "bench_cpu_pct": round(100 * own / window, 1),
                    "cpu_ms_per_request": round(1000 * cpu / served, 3) if served else None,
                }
            )
    return found


# --------------------------------------------------------------------------- report


def _triple(summary: dict[str, float | int]) -> str:
    return f"{summary['median_ms']:.0f} / {summary['p95_ms']:.0f} / {summary['max_ms']:.0f}"


def table(runs: list[dict[str, Any]]) -> str:
    head = (
        f"{'mode':<8} {'phones':>6} {'req/s':>7} {'latency ms':>17} {'propagation ms':>18} "
        f"{'<=2 s':>10} {'CPU %':>6} {'CPU ms/phone/s':>14} {'threads':>7} {'RSS MB':>7} {'errors':>6}"
    )
    lines = [head, "-" * len(head)]
    for r in runs:
        total = r["propagation"]["n"] + r["missed"]
        lines.append(
            f"{r['mode']:<8} {r['phones']:>6} {r['requests_per_s'] if r['mode'] == 'polling' else '-':>7} "
            f"{_triple(r['latency']):>17} {_triple(r['propagation']):>18} "
            f"{str(r['within_requirement']) + '/' + str(total):>10} {r['server_cpu_pct']:>6} "
            f"{r['cpu_ms_per_phone_s']:>14} {r['threads_max']:>7} {r['rss_mb_max']:>7} "
            f"{r['errors'] + r['reconnects']:>6}"
        )
    return "\n".join(lines)


def _meets(run: dict[str, Any]) -> bool:
    return bool(run["missed"] == 0 and run["propagation"]["max_ms"] <= 1000 * REQUIREMENT_SECONDS)


def _sizes(runs: list[dict[str, Any]]) -> str:
    return ", ".join(str(r["phones"]) for r in runs)


def conclusion(runs: list[dict[str, Any]], capacity: list[dict[str, Any]], every: float) -> str:
    """The closing line: which way the figures point, with the figures that say so."""
    polling = [r for r in runs if r["mode"] == "polling"]
    streams = [r for r in runs if r["mode"] == "sse"]
    best = max(capacity, key=lambda c: c["requests_per_s"])
    ceiling = (
        f"one runserver process answers at most about {int(best['requests_per_s'] * every)} polls a second"
    )
    if not polling or not streams:
        shown = polling or streams
        met = [r for r in shown if _meets(r)]
        short = [r for r in shown if not _meets(r)]
        said = [f"met at {_sizes(met)} phones"] if met else []
        said += [f"missed at {_sizes(short)} phones"] if short else []
        return (
            f"Conclusion: {shown[0]['mode'] if shown else 'nothing measured'}: the "
            f"{REQUIREMENT_SECONDS:g} s requirement {' and '.join(said)}; {ceiling}."
        )
    poll_cpu = statistics.median(r["cpu_ms_per_phone_s"] for r in polling)
    sse_cpu = statistics.median(r["cpu_ms_per_phone_s"] for r in streams)
    sse_worst = max(r["propagation"]["max_ms"] for r in streams)
    threads = max(streams, key=lambda r: r["phones"])
    passed = [r for r in polling if _meets(r)]
    failed = [r for r in polling if not _meets(r)]
    cost = (
        f"SSE needs {poll_cpu / sse_cpu:.0f}x less server CPU per phone "
        f"({sse_cpu:.2f} against {poll_cpu:.2f} ms a second) and holds one thread per phone "
        f"({threads['threads_max']} for {threads['phones']}, as many as keep-alive polling on runserver)"
    )
    if not failed:
        return (
            f"Conclusion: polling will do: it met the {REQUIREMENT_SECONDS:g} s requirement at "
            f"{_sizes(polling)} phones (worst {max(r['propagation']['max_ms'] for r in polling):.0f} ms, "
            f"SSE {sse_worst:.0f} ms); {cost}; {ceiling}."
        )
    worst = max(failed, key=lambda r: r["propagation"]["max_ms"])
    head = (
        f"polling every {every:g} s met the {REQUIREMENT_SECONDS:g} s requirement at {_sizes(passed)} phones"
        if passed
        else f"polling every {every:g} s never met the {REQUIREMENT_SECONDS:g} s requirement"
    )
    missed = (
        f"not at {_sizes(failed)} (p95 {worst['propagation']['p95_ms']:.0f} ms, worst "
        f"{worst['propagation']['max_ms']:.0f} ms, server CPU {worst['server_cpu_pct']:.0f} % of the one "
        f"core a Python process can use)"
    )
    if all(_meets(r) for r in streams):
        verdict = f"SSE met it at {_sizes(streams)} phones (worst {sse_worst:.0f} ms)"
    else:
        verdict = f"SSE missed it too (worst {sse_worst:.0f} ms)"
    return f"Conclusion: {head} but {missed}; {ceiling}; {verdict}; {cost}."


def capacity_line(found: dict[str, Any]) -> str:
    return (
        f"capacity, {found['clients']:>2} keep-alive clients without pause for {found['window_s']} s: "
        f"{found['requests_per_s']} req/s, latency {_triple(found['latency'])} ms, "
        f"server CPU {found['server_cpu_pct']} %, bench CPU {found['bench_cpu_pct']} %, "
        f"{found['cpu_ms_per_request']} ms server CPU per request"
    )


# --------------------------------------------------------------------------- main


def _environment(var_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    # The embedded default: a PostgreSQL or Redis of the shell must not be benchmarked.
    for name in ("DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
        os.environ.pop(name, None)
    env["DJANGO_SETTINGS_MODULE"] = SETTINGS
    env["ARBITER_VAR_DIR"] = str(var_dir)
    env["PYTHONUNBUFFERED"] = "1"
    os.environ["DJANGO_SETTINGS_MODULE"] = SETTINGS
    os.environ["ARBITER_VAR_DIR"] = str(var_dir)
    return env


def parse_modes(text: str) -> list[str]:
    """``"polling,sse"`` -> ``["polling", "sse"]``; ArgumentTypeError for another name."""
    modes = [part.strip() for part in text.split(",") if part.strip()]
    unknown = set(modes) - {"polling", "sse"}
    if not modes or unknown:
        raise argparse.ArgumentTypeError(f"{text!r}: expected polling, sse or both, comma-separated")
    return modes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.live", description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=parse_clients, default=None, help="phones per run (default 50,200)")
    parser.add_argument("--seconds", type=float, default=None, help="measured seconds per run (default 20)")
    parser.add_argument("--modes", type=parse_modes, default=["polling", "sse"], help="default polling,sse")
    parser.add_argument("--quick", action="store_true", help="30 phones, 8 s per run: under 40 s in all")
    parser.add_argument("--seed", type=int, default=7, help="random phases and moments of the changes")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    clients: list[int] = args.clients or ([30] if args.quick else [50, 200])
    seconds: float = args.seconds or (8.0 if args.quick else 20.0)
    hammer_seconds = 2.0 if args.quick else HAMMER_SECONDS
    if not sys.platform.startswith("linux"):
        print("bench.live reads /proc: Linux only", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)

    var_dir = Path(tempfile.mkdtemp(prefix="arbiter-live-bench-"))
    started = time.monotonic()
    try:
        env = _environment(var_dir)
        import django

        django.setup()
        from django.conf import settings

        every = int(settings.ARBITER_POLL_MS) / 1000
        print(
            f"Live updates: runserver (threaded WSGI), SQLite, DEBUG={settings.DEBUG}, "
            f"poll every {every:g} s, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, Django {django.get_version()}"
        )
        load_before = os.getloadavg()
        print(f"load average before: {load_before[0]:.2f} (other work on the machine skews the figures)")
        fixture = prepare(max(clients))
        runs: list[dict[str, Any]] = []
        for count in clients:
            for mode in args.modes:
                print(f"  {mode}, {count} phones, {seconds:g} s...", flush=True)
                runs.append(run_phones(mode, count, fixture, env, var_dir, seconds, every, rng))
        print(f"  capacity, {HAMMER_CLIENTS} clients without pause, {hammer_seconds:g} s each...", flush=True)
        capacity = run_capacity(fixture, env, var_dir, hammer_seconds, HAMMER_CLIENTS)
    finally:
        shutil.rmtree(var_dir, ignore_errors=True)

    print()
    print(table(runs))
    print(
        "latency: of a request (polling) or from connecting to the first event (sse), median / p95 / max\n"
        "propagation: from the commit to the phone seeing the new version, every phone x every change\n"
        "<=2 s: phone x change pairs within the requirement; CPU %: server process, of one core;\n"
        "threads: server process, most during the run; errors: failed requests + reconnections"
    )
    kinds = sorted({kind for r in runs for kind in r["change_kinds"]})
    print(f"changes per run: {', '.join(str(r['changes']) for r in runs)} ({'; '.join(kinds)})")
    print(f"bench process CPU per run (%): {', '.join(str(r['bench_cpu_pct']) for r in runs)}")
    for found in capacity:
        print(capacity_line(found))
    print(conclusion(runs, capacity, every))
    print(f"(bench took {time.monotonic() - started:.0f} s)")
    if args.json:
        report = {
            "python": platform.python_version(),
            "cores": os.cpu_count(),
            "poll_seconds": every,
            "load_average_before": round(load_before[0], 2),
            "runs": runs,
            "capacity": capacity,
        }
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
