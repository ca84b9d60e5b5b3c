"""Hall benchmark: ``python -m bench.hall --phones N [--window 10] [--quick] [--json FILE]``.

A duplicate round as a hall plays it, over real HTTP on loopback. The bench starts the
server under test on a fresh temporary data folder (``ARBITER_VAR_DIR``): by default
``manage.py serve`` (the embedded default: SQLite, a Celery worker on the file broker;
PostgreSQL and Redis when ``DATABASE_URL`` and ``REDIS_URL`` are set, as the settings
read them), or ``--server-command`` (a template with ``{port}``, ``{host}`` and
``{python}``), or it uses one already running (``--url``, with an arbitrator's login).

1. The arbitrator (the REST API, token login) fills an event with N players, starts a
   game and plays ``--rounds-before`` rounds without slips (a board with words on it),
   then draws the measured round and waits for its tops.
2. N phones join as the pages make a browser do: GET the join page ``/j/<code>/``, POST
   the code and the table with the CSRF token, follow the redirect to the play page with
   the session cookie, read the player token, the API address and the round from it.
   Each phone is an aiohttp session of its own with at most 6 connections, a browser's
   limit per host, bound to an address of its own (127.42.x.y): the join page allows 10
   joins a minute per address, and a hall's phones have an address each. The joins are
   paced (``--join-rate``, 25 a second, 50 at most at once): they are not what is measured.
3. Every phone opens the live stream ``/live/<event>/stream/`` at the same instant (a
   hall reconnecting after a Wi-Fi drop) and holds it, as live.js does: reconnect after
   the server's ``retry`` when it ends, polling ``/live/<event>/`` every second instead
   when it answers anything but a stream or says nothing for 20 s; each message is a
   sign of life that sends a waiting slip again (phone.js), and each new public version
   reloads the phone's panel (htmx).
4. The arbitrator opens the round for ``--lead`` + ``--window`` seconds. Every phone
   hands in one slip at a moment drawn uniformly in the last ``--window`` seconds (less
   the last 0.1 s, see GUARD_SECONDS), through the API as phone.js does: the same
   client_id on every attempt, acknowledged by 200 or 201, refused for good by another
   4xx than 429, sent again 3 s after anything else (5xx, 429, an answer that is not
   JSON, a network error) or at the stream's next message, whichever comes first.
5. The arbitrator closes the round ``--close-after`` seconds after the deadline, and the
   bench waits until the round is adjudicated with every slip ruled.
6. With ``--actions N``, N cycles of the arbitrator's console actions follow, each timed
   to the console's page and to every phone and the projector showing it
   (bench/console.py).

Printed (and written with ``--json``): submit latency (from the phone's first attempt to
its acknowledgement) p50/p95/p99/max; in-time slips (first attempt sent before the
deadline) ruled late; lost slips (acknowledged, not stored) and duplicated ones (two
stored for one client_id); streams connected out of N and the time until all were;
close -> every ruling; the server's CPU seconds read from /proc over its whole process
tree (web server, worker and its children), by process and by phase; requests that did
not succeed, by kind and status. Linux only. Every loop is bounded in count and time, the
whole run too, and the servers the bench started are always stopped. The exit status is
1 when a slip was lost or duplicated or an in-time slip ruled late, 2 when the run could
not be made; the other targets (latency, streams, the time to every ruling) are
reported, not enforced.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import html
import http.client
import json
import os
import platform
import random
import re
import resource
import secrets
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from types import FrameType
from typing import Any, Protocol
from urllib.parse import quote, urljoin, urlsplit

import aiohttp

from bench.live import CLK_TCK, SseParser, free_port, percentile
from solver.boards import layout
from solver.move import Move
from solver.notation import format_coord, format_word, parse_move

BASE_DIR = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
DEFAULT_COMMAND = "{python} manage.py serve --port {port}"

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
REQUEST_TIMEOUT = 60.0
#: No slip is sent in the last GUARD_SECONDS before the deadline: a request takes a few
#: milliseconds to reach the server, and a slip sent then would be late by physics, not
#: because of the server. A slip whose first attempt the bench itself started after the
#: deadline (its event loop lagging) is not counted in time.
GUARD_SECONDS = 0.1
CLOSE_AFTER_SECONDS = 0.5
#: How often the arbitrator asks for the round's state after the close (the resolution
#: of "close -> every ruling").
STATE_POLL_SECONDS = 0.05
#: After an adjudicated round whose rulings do not name every slip yet (a slip that
#: reached the server after the close makes it rule again), ask again after this.
VERIFY_PAUSE_SECONDS = 0.5
#: The joins are paced (--join-rate, and at most JOIN_IN_FLIGHT at once): faster than
#: the server can take them, they time out, are tried again and pile up until the server
#: spends its time on pages nobody waits for any more (1,000 phones at 100 a second
#: against one uvicorn process: 72 joined in 3 minutes). The round is what is measured.
JOIN_IN_FLIGHT = 50
JOIN_ATTEMPTS = 3
JOIN_RETRY_SECONDS = 2.0
JOIN_REQUEST_TIMEOUT = 30.0
#: The bench waits this long for every stream before it opens the round anyway.
STREAM_WAIT_SECONDS = 30.0
#: Phones stop sending this long after the close; a slip still not acknowledged then is
#: counted as given up.
AFTER_CLOSE_SECONDS = 60.0
RULING_TIMEOUT = 120.0
SETTLE_SECONDS = 2.0
SETTLE_TIMEOUT = 30.0
SERVER_START_TIMEOUT = 180.0
SERVER_STOP_TIMEOUT = 30.0
WAIT_TIMEOUT = 90.0  # a solve, an adjudication of a round without slips
MANAGE_TIMEOUT = 120.0
SAMPLE_SECONDS = 1.0
LAG_TICK_SECONDS = 0.05
#: The issue's targets (issue 12).
TARGET_P99_S = 1.0
TARGET_STREAMS_S = 5.0
TARGET_RULED_S = 2.0
#: What a phone hands in, and how often: the worker rules real work (a top, a wrong
#: score, a reference one square off, a word that is not one, no score announced).
SLIP_KINDS: tuple[tuple[str, float], ...] = (
    ("top", 0.50),
    ("wrong score", 0.15),
    ("shifted", 0.15),
    ("scrambled", 0.15),
    ("no score", 0.05),
)
ACKNOWLEDGED, REFUSED, RETRY = "acknowledged", "refused", "retry"


class BenchError(RuntimeError):
    """The run cannot be made (the server did not start, the API refused a step)."""


# --------------------------------------------------------------------------- pure helpers


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


def send_times(count: int, deadline: float, window: float, rng: random.Random) -> list[float]:
    """When each of ``count`` phones hands in its slip: uniformly in the last ``window``
    seconds before ``deadline``, the last GUARD_SECONDS left out."""
    if window <= GUARD_SECONDS:
        raise ValueError(f"the window must be longer than {GUARD_SECONDS} s")
    start, span = deadline - window, window - GUARD_SECONDS
    return [start + rng.random() * span for _ in range(count)]


def phone_address(index: int) -> str:
    """Phone ``index``'s own loopback address: 127.42.0.1, 127.42.0.2, ... (250 per /24)."""
    if not 0 <= index < 250 * 256:
        raise ValueError(f"no loopback address for phone {index}")
    return f"127.42.{index // 250}.{index % 250 + 1}"


def summary_s(values: Sequence[float]) -> dict[str, float | int | None]:
    """Count, p50, p95, p99 and maximum, in seconds (None when there is nothing)."""
    if not values:
        return {"n": 0, "p50": None, "p95": None, "p99": None, "max": None}
    return {
        "n": len(values),
        "p50": round(percentile(values, 0.50), 4),
        "p95": round(percentile(values, 0.95), 4),
        "p99": round(percentile(values, 0.99), 4),
        "max": round(max(values), 4),
    }


def by_second(rows: Sequence[Mapping[str, Any]], window: float) -> list[dict[str, Any]]:
    """The slips by the second of the window their first attempt started in (-10 is the
    window's first second, -1 its last): how many, their latency p50 and max, how many
    were stored late. Rows: ``first_sent`` in seconds from the deadline, ``latency`` (None:
    never acknowledged), ``late``."""
    buckets: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        if row["first_sent"] is not None:
            buckets[max(-int(window + 0.999), int(row["first_sent"] // 1))].append(row)
    found = []
    for second in sorted(buckets):
        latencies = [r["latency"] for r in buckets[second] if r["latency"] is not None]
        found.append(
            {
                "second": second,
                "slips": len(buckets[second]),
                "p50": round(percentile(latencies, 0.5), 3) if latencies else None,
                "max": round(max(latencies), 3) if latencies else None,
                "late": sum(bool(r["late"]) for r in buckets[second]),
                "not_acknowledged": len(buckets[second]) - len(latencies),
            }
        )
    return found


_ATTRIBUTE = re.compile(r'\bdata-(live|stream|poll|public|token|api|round)="([^"]*)"')
_CSRF = re.compile(r'name="csrfmiddlewaretoken"\s+value="([^"]+)"')


@dataclass(frozen=True)
class PlayPage:
    """What the play page gives phone.js and live.js."""

    token: str
    api: str
    stream: str
    live: str
    poll_ms: int
    public: str
    round_key: tuple[int, int] | None


def page_attributes(text: str) -> dict[str, str]:
    """The first value of each ``data-`` attribute the phone reads."""
    found: dict[str, str] = {}
    for name, value in _ATTRIBUTE.findall(text):
        found.setdefault(name, html.unescape(value))
    return found


_PART = re.compile(r'data-keep="([^"]+)"( data-kept)?')


def panel_parts(text: str) -> tuple[set[str], set[str]]:
    """The parts a panel holds, and those its stream left out for the phone to put back
    (rooms/views/panels.py, phone.js)."""
    present: set[str] = set()
    left_out: set[str] = set()
    for key, kept in _PART.findall(text):
        (left_out if kept else present).add(key)
    return present, left_out


def parts_held(present: set[str], left_out: set[str], held: set[str]) -> tuple[bool, set[str]]:
    """Whether a phone holding ``held`` can put back every part a panel left out, and the
    parts it holds then: those sent, those put back, and those inside a part put back (a
    board's rows inside the board, as phone.js finds them in the element it puts back)."""
    kept = left_out & held
    inside = (
        {key for key in held if key.startswith("row-")}
        if any(k.startswith("board-") for k in kept)
        else set()
    )
    return left_out <= held, present | kept | inside


_ROUND = ' data-round="'


def round_key(text: str) -> tuple[int, int] | None:
    """(game, round) of the receipt box's ``data-round="1-3"``, as phone.js reads it (a
    part that is not a number: None, the slip then says no round)."""
    # One attribute searched, not every one of the page parsed: 2,000 phones read each
    # panel pushed, and parsing them all was most of the bench's own CPU at each change
    # (py-spy), its phones late by that much.
    start = text.find(_ROUND)
    value = (
        html.unescape(text[start + len(_ROUND) : text.find('"', start + len(_ROUND))]) if start >= 0 else ""
    )
    game, _, number = value.partition("-")
    if game.isdecimal() and number.isdecimal() and int(game) and int(number):
        return int(game), int(number)
    return None


def parse_play_page(text: str) -> PlayPage | None:
    """The play page's addresses and token; None when it is not the play page (the join
    page again: the session did not hold)."""
    found = page_attributes(text)
    if not all(found.get(k) for k in ("token", "api", "stream", "live")):
        return None
    poll = found.get("poll", "")
    return PlayPage(
        token=found["token"],
        api=found["api"],
        stream=found["stream"],
        live=found["live"],
        poll_ms=int(poll) if poll.isdecimal() and int(poll) > 0 else 1000,
        public=found.get("public", ""),
        round_key=round_key(text),
    )


def csrf_token(text: str) -> str | None:
    found = _CSRF.search(text)
    return html.unescape(found.group(1)) if found else None


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


@dataclass(frozen=True)
class PlannedSlip:
    kind: str
    coordinates: str
    word: str
    announced: int | None


def _shifted(move: Move, size: int) -> Move:
    """The same word one square further along its line (back one if it would leave the
    board): a wrong reference the adjudication has to search around."""
    along = move.col if move.across else move.row
    step = 1 if along + len(move.word) < size else -1
    if move.across:
        return Move(move.row, move.col + step, True, move.word)
    return Move(move.row + step, move.col, False, move.word)


def _scrambled(word: str) -> str:
    """The word's letters turned by one (``WRAITHS`` -> ``RAITHSW``): almost never a word."""
    return word[1:] + word[:1]


def plan_slips(
    count: int,
    tops: Sequence[str],
    top_score: int | None,
    rack: str,
    notation: str,
    size: int,
    rng: random.Random,
) -> list[PlannedSlip]:
    """``count`` slips for a round whose tops (GCG, as the API gives them) are known,
    written in the event's notation, drawn from SLIP_KINDS. Without any top (no legal
    move), the rack's letters across the centre."""
    moves = [parse_move(top, "gcg", size) for top in tops]
    names = [name for name, _ in SLIP_KINDS]
    weights = [weight for _, weight in SLIP_KINDS]
    planned: list[PlannedSlip] = []
    for _ in range(count):
        kind = rng.choices(names, weights)[0]
        if moves:
            move = rng.choice(moves)
        else:
            letters = rack.replace("?", "") or "A"
            move, kind = Move(size // 2, max(0, size // 2 - len(letters) // 2), True, letters), "no top"
        if kind == "shifted":
            move = _shifted(move, size)
        elif kind == "scrambled":
            move = Move(move.row, move.col, move.across, _scrambled(move.word))
        announced = None if kind == "no score" or top_score is None else top_score
        if kind == "wrong score" and announced is not None:
            announced += 1
        planned.append(
            PlannedSlip(
                kind=kind,
                coordinates=format_coord(move.row, move.col, move.across, notation),
                word=format_word(move.word, notation),
                announced=announced,
            )
        )
    return planned


# --------------------------------------------------------------------------- accounting


@dataclass(frozen=True)
class Sent:
    """What one phone knows of its slip."""

    table: int
    client_id: str
    first_sent: float | None  # seconds since the epoch of its first attempt; None: never sent
    acknowledged: bool
    receipt_id: int | None = None
    receipt_late: bool | None = None


@dataclass(frozen=True)
class Stored:
    """A slip of the round as the server lists it."""

    id: int
    table: int
    client_id: str
    late: bool
    current: bool
    received_at: float | None = None


@dataclass
class Accounting:
    phones: int = 0
    not_sent: int = 0
    sent_in_time: int = 0
    sent_after_deadline: int = 0
    acknowledged: int = 0
    acknowledged_late: int = 0
    lost: int = 0
    duplicated: int = 0
    stored: int = 0
    stored_not_acknowledged: int = 0
    unknown_stored: int = 0
    receipt_mismatch: int = 0
    in_time_ruled_late: int = 0
    in_time_stored_on_time: int = 0
    ruled: int = 0
    unruled: int = 0
    #: seconds from each slip's first attempt to the receipt time the server stored
    receipt_delays: list[float] = field(default_factory=list)
    lost_ids: list[str] = field(default_factory=list)


def account(
    sent: Sequence[Sent],
    stored: Sequence[Stored],
    deadline: float,
    rulings: Mapping[int, int | None] | None,
) -> Accounting:
    """Compare what the phones were told with what the server keeps.

    A slip is in time when its first attempt started before ``deadline``; lost when
    acknowledged and not stored; duplicated when one client_id is stored twice (each
    extra copy counts). ``rulings`` maps a table to the slip id its ruling names (None:
    ruled without a slip); an in-time slip stored on time is ruled when its table's ruling
    names it. None: the round has no rulings to read (not adjudicated)."""
    found = Accounting(phones=len(sent))
    by_key: dict[tuple[int, str], list[Stored]] = defaultdict(list)
    for copy in stored:
        by_key[(copy.table, copy.client_id)].append(copy)
    found.stored = len(stored)
    found.duplicated = sum(len(copies) - 1 for copies in by_key.values())
    known = {(s.table, s.client_id) for s in sent if s.client_id}
    found.unknown_stored = sum(len(v) for k, v in by_key.items() if k not in known)
    for slip in sent:
        copies = by_key.get((slip.table, slip.client_id), []) if slip.client_id else []
        if slip.first_sent is None:
            found.not_sent += 1
            continue
        in_time = slip.first_sent < deadline
        if in_time:
            found.sent_in_time += 1
        else:
            found.sent_after_deadline += 1
        if slip.acknowledged:
            found.acknowledged += 1
            found.acknowledged_late += bool(slip.receipt_late)
            if not copies:
                found.lost += 1
                found.lost_ids.append(slip.client_id)
            elif slip.receipt_id is not None and all(c.id != slip.receipt_id for c in copies):
                found.receipt_mismatch += 1
        elif copies:
            found.stored_not_acknowledged += 1
        if not copies:
            continue
        first = copies[0]
        if first.received_at is not None:
            found.receipt_delays.append(first.received_at - slip.first_sent)
        if in_time and first.late:
            found.in_time_ruled_late += 1
        if in_time and not first.late and first.current:
            found.in_time_stored_on_time += 1
            if rulings is not None and rulings.get(slip.table) == first.id:
                found.ruled += 1
            else:
                found.unruled += 1
    return found


# --------------------------------------------------------------------------- the worker's log

#: The worker's tasks that rule a round: at the close, and again once the in-time slips
#: that queued behind the close stop coming (tournaments/services/rulings.py).
ADJUDICATIONS = ("round_adjudicate_task", "round_rule_when_quiet_task")
_TASK_LINE = re.compile(
    r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}): \w+/[^\]]+\] Task ([\w.]+)\[([\w-]+)\] "
    r"(received|succeeded in ([\d.]+)s)",
    re.M,
)


@dataclass(frozen=True)
class TaskRun:
    name: str
    received: float  # seconds since the epoch
    seconds: float | None  # its run, None when it did not succeed
    done: float | None = None  # when it succeeded, seconds since the epoch (a task sent
    # with a countdown is received at once and runs later)


def worker_tasks(log: str, utc_offset: dt.timedelta) -> list[TaskRun]:
    """The tasks a Celery worker's log says it received, with how long each ran. The log
    writes the local time of the worker (Django sets the process's TZ to TIME_ZONE): the
    offset is the one the API's times carry."""
    received: dict[str, tuple[str, float]] = {}
    ran: dict[str, tuple[float, float]] = {}
    zone = dt.timezone(utc_offset)
    for stamp, name, task_id, what, seconds in _TASK_LINE.findall(log):
        when = dt.datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S,%f").replace(tzinfo=zone).timestamp()
        if what == "received":
            received[task_id] = (name.rsplit(".", 1)[-1], when)
        else:
            ran[task_id] = (float(seconds), when)
    runs = []
    for task_id, (name, when) in received.items():
        seconds, done = ran.get(task_id, (None, None))
        runs.append(TaskRun(name, when, seconds, done))
    return runs


# --------------------------------------------------------------------------- /proc


@dataclass(frozen=True)
class ProcSample:
    pid: int
    ppid: int
    start: int  # clock ticks after boot: with the pid, names one process for good
    cpu: float  # own and reaped children's user + system seconds
    threads: int
    role: str


def stat_fields(stat: str) -> list[str]:
    """The fields of /proc/<pid>/stat after the command name (field 3, state, first)."""
    return stat[stat.rindex(")") + 2 :].split()


def stat_sample(stat: str, ticks: int = CLK_TCK) -> tuple[int, int, float]:
    """(ppid, start time, CPU seconds of the process and of its reaped children)."""
    f = stat_fields(stat)
    # proc(5): ppid is field 4, utime..cstime fields 14-17, starttime field 22.
    ppid, start = int(f[1]), int(f[19])
    cpu = (int(f[11]) + int(f[12]) + int(f[13]) + int(f[14])) / ticks
    return ppid, start, cpu


def machine_busy(stat: str, ticks: int = CLK_TCK) -> float:
    """CPU seconds the whole machine has been busy since boot, from /proc/stat's first
    line (user nice system idle iowait irq softirq steal ...): all but idle and iowait.
    Less the server's and the bench's own, it is what other work took from the run."""
    fields = [int(v) for v in stat.splitlines()[0].split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    return (user + nice + system + irq + softirq + steal) / ticks


def descendants(parents: Mapping[int, int], root: int) -> list[int]:
    """``root`` and every process below it, from pid -> ppid."""
    children: dict[int, list[int]] = defaultdict(list)
    for pid, ppid in parents.items():
        children[ppid].append(pid)
    found: list[int] = []
    todo = [root]
    while todo and len(found) < 10_000:
        pid = todo.pop()
        if pid in parents or pid == root:
            found.append(pid)
            todo.extend(children.get(pid, []))
    return found


def process_role(argv: Sequence[str]) -> str:
    """A short name for a process of the server: what the figures are grouped by."""
    text = " ".join(argv)
    if "ForkPoolWorker" in text:
        return "worker child"
    if "celery" in text:
        return "worker"
    for web in ("runserver", "uvicorn", "gunicorn", "daphne", "hypercorn"):
        if web in text:
            return f"web ({web})"
    if "manage.py" in text and len(argv) > 2:
        return f"manage.py {argv[2]}"
    return Path(argv[0]).name if argv else "?"


def read_tree(root: int) -> dict[int, ProcSample]:
    """Every process of the tree under ``root``, from /proc."""
    parents: dict[int, int] = {}
    stats: dict[int, tuple[int, int, float]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdecimal():
            continue
        try:
            sample = stat_sample(Path(entry.path, "stat").read_text())
        except (OSError, ValueError, IndexError):
            continue
        parents[int(entry.name)] = sample[0]
        stats[int(entry.name)] = sample
    tree: dict[int, ProcSample] = {}
    for pid in descendants(parents, root):
        if pid not in stats:
            continue
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        threads = next(
            (int(line.split()[1]) for line in status.splitlines() if line.startswith("Threads:")), 0
        )
        ppid, start, cpu = stats[pid]
        tree[pid] = ProcSample(pid, ppid, start, cpu, threads, process_role([a for a in argv if a]))
    return inherit_roles(tree)


def inherit_roles(tree: Mapping[int, ProcSample]) -> dict[int, ProcSample]:
    """A process without a role of its own under a web server (uvicorn's workers are
    ``python -c "from multiprocessing.spawn ..."``) is the web server's."""
    found = dict(tree)
    for pid, sample in tree.items():
        parent = tree.get(sample.ppid)
        generic = not sample.role.startswith(("web", "worker", "manage.py"))
        if generic and parent is not None and parent.role.startswith("web"):
            found[pid] = ProcSample(pid, sample.ppid, sample.start, sample.cpu, sample.threads, parent.role)
    return found


def cpu_by_role(tree: Mapping[int, ProcSample]) -> dict[str, float]:
    found: dict[str, float] = defaultdict(float)
    for sample in tree.values():
        found[sample.role] += sample.cpu
    return dict(found)


def cpu_delta(before: Mapping[str, float], after: Mapping[str, float]) -> dict[str, float]:
    """CPU seconds by role between two samples. A process that ended in between moved its
    time into its parent's reaped children's time: the total stays right, the role is
    the parent's."""
    roles = sorted(set(before) | set(after))
    return {role: round(after.get(role, 0.0) - before.get(role, 0.0), 3) for role in roles}


#: The machine's services a slip goes through besides the server, by process name.
SERVICES = {"postgres": "database", "redis-server": "broker"}


def services_cpu(proc: Path = Path("/proc")) -> dict[str, float]:
    """CPU seconds of the database's and the broker's processes (not the server's: they
    run as services), reaped backends included (their time moves to the postmaster)."""
    found: dict[str, float] = defaultdict(float)
    for entry in os.scandir(proc):
        if not entry.name.isdecimal():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        role = SERVICES.get(stat[stat.find("(") + 1 : stat.rfind(")")])
        if role is not None:
            found[role] += stat_sample(stat)[2]
    return dict(found)


# --------------------------------------------------------------------------- the server


def server_argv(template: str, port: int) -> list[str]:
    """``--server-command``'s template with ``{port}``, ``{host}`` and ``{python}``."""
    try:
        text = template.format(port=port, host=HOST, python=shlex.quote(sys.executable))
    except (KeyError, IndexError, ValueError) as exc:
        raise argparse.ArgumentTypeError(
            f"{template!r}: a command with {{port}} (and {{host}}, {{python}} if needed), "
            f"no other braces ({exc})"
        ) from None
    argv = shlex.split(text)
    if not argv:
        raise argparse.ArgumentTypeError("an empty server command")
    return argv


def server_env(var_dir: Path) -> dict[str, str]:
    """The started server's environment: the caller's (DATABASE_URL, REDIS_URL and
    DJANGO_SETTINGS_MODULE included, as a user's shell would give them), a data folder
    of its own, nothing of a test run."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env.pop("ARBITER_TASKS_EAGER", None)
    env["ARBITER_VAR_DIR"] = str(var_dir)
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(BASE_DIR), env.get("PYTHONPATH", "")) if p)
    return env


def manage(args: Sequence[str], env: Mapping[str, str]) -> str:
    """Run ``manage.py`` (its own process, the server's environment); its output."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=MANAGE_TIMEOUT,
        check=False,
    )
    if done.returncode != 0:
        raise BenchError(
            f"manage.py {' '.join(args[:1])} failed ({done.returncode}):\n{done.stdout}{done.stderr}"
        )
    return done.stdout


_EVENT_CREATED = re.compile(r"Event (\d+) created.*?join code: (\w+)", re.S)


def parse_event_created(output: str) -> tuple[int, str]:
    """(id, join code) from ``manage.py event_create``'s output."""
    found = _EVENT_CREATED.search(output)
    if not found:
        raise BenchError(f"event_create said nothing of an event:\n{output}")
    return int(found.group(1)), found.group(2)


class ProcessTree(Protocol):
    def tree(self) -> dict[int, ProcSample]: ...


class Watched:
    """A running server's process tree, for its CPU figures (``--url --server-pid``)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def tree(self) -> dict[int, ProcSample]:
        return read_tree(self.pid)


class Server:
    """The server under test in a session of its own; every process of its tree is
    remembered (pid and start time) so that none is left behind."""

    def __init__(self, argv: list[str], env: dict[str, str], log: Path) -> None:
        self.argv = argv
        self.log = log
        self._log = log.open("ab")
        self.seen: dict[int, int] = {}
        self.process = subprocess.Popen(
            argv,
            cwd=BASE_DIR,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, port: int) -> None:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BenchError(f"the server stopped (exit {self.process.returncode}):\n{self.tail()}")
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            try:
                conn.request("GET", "/j/")
                response = conn.getresponse()
                response.read()
                if response.status == 200:
                    self.tree()
                    return
            except OSError:
                pass
            finally:
                conn.close()
            time.sleep(0.2)
        raise BenchError(f"the server did not answer within {SERVER_START_TIMEOUT:.0f} s:\n{self.tail()}")

    def tree(self) -> dict[int, ProcSample]:
        found = read_tree(self.process.pid)
        for sample in found.values():
            self.seen[sample.pid] = sample.start
        return found

    def tail(self, lines: int = 30) -> str:
        self._log.flush()
        return "\n".join(self.log.read_text("utf-8", errors="replace").splitlines()[-lines:])

    def _alive(self) -> list[int]:
        alive = []
        for pid, start in self.seen.items():
            try:
                if stat_sample(Path(f"/proc/{pid}/stat").read_text())[1] == start:
                    alive.append(pid)
            except (OSError, ValueError, IndexError):
                continue
        return alive

    def stop(self) -> None:
        """SIGTERM to the server's process group (``serve`` stops its web server and its
        worker), then SIGKILL to whatever of its tree is left after SERVER_STOP_TIMEOUT."""
        try:
            with suppress(OSError):
                self.tree()
            if self.process.poll() is None:
                with suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGTERM)
            deadline = time.monotonic() + SERVER_STOP_TIMEOUT
            while time.monotonic() < deadline:
                self.process.poll()
                if (
                    not [p for p in self._alive() if p != self.process.pid]
                    and self.process.poll() is not None
                ):
                    break
                time.sleep(0.2)
            for pid in self._alive():
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            with suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            with suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=5)
        finally:
            self._log.close()


# --------------------------------------------------------------------------- HTTP


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


# --------------------------------------------------------------------------- the arbitrator


class Arbitrator:
    """The arbitrator's side, through the REST API with a token."""

    def __init__(self, base: str, event_id: int, log: RequestLog) -> None:
        self.base = base
        self.event_id = event_id
        self.log = log
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar())
        self.headers: dict[str, str] = {"Accept": "application/json"}

    async def close(self) -> None:
        await self.session.close()

    def url(self, path: str) -> str:
        return f"{self.base}/api/events/{self.event_id}/{path}"

    async def login(self, *, token: str | None, user: str | None, password: str | None) -> None:
        if not token:
            answer = await fetch(
                self.session,
                self.log,
                "arbitrator",
                "POST",
                f"{self.base}/api/auth/token/",
                timeout=REQUEST_TIMEOUT,
                json={"username": user, "password": password},
            )
            if answer.status != 200:
                raise BenchError(f"arbitrator login refused ({answer.outcome}): {answer.text[:300]}")
            token = str(answer.json()["token"])
        self.headers["Authorization"] = f"Token {token}"

    async def call(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        ok: Sequence[int] = (200, 201),
        kind: str = "arbitrator",
    ) -> Any:
        answer = await self.answer(method, path, body=body, kind=kind)
        if answer.status not in ok:
            raise BenchError(f"{method} {self.url(path)}: {answer.outcome} {answer.text[:500]}")
        return answer.json()

    async def answer(self, method: str, path: str, *, body: Any = None, kind: str = "arbitrator") -> Answer:
        options: dict[str, Any] = {"headers": self.headers}
        if body is not None:
            options["json"] = body
        return await fetch(
            self.session, self.log, kind, method, self.url(path), timeout=REQUEST_TIMEOUT, **options
        )

    async def current_round(self) -> dict[str, Any] | None:
        answer = await self.answer("GET", "rounds/current/", kind="round state")
        if answer.status == 404:
            return None
        if answer.status != 200:
            raise BenchError(f"the current round: {answer.outcome} {answer.text[:300]}")
        found: dict[str, Any] = answer.json()
        return found

    async def wait_round(self, ready: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT_TIMEOUT
        while time.monotonic() < deadline:
            found = await self.current_round()
            if found is not None and ready(found):
                return found
            await asyncio.sleep(0.1)
        raise BenchError(f"{what}: not within {WAIT_TIMEOUT:.0f} s (is a worker running?)")

    async def ensure_players(self, count: int) -> dict[int, str]:
        """Tables 1 to ``count`` registered; their seat codes (the table cards) by table."""
        have = {int(p["table"]) for p in await self.call("GET", "players/")}
        missing = [t for t in range(1, count + 1) if t not in have]
        if missing:
            csv = "name,table\n" + "".join(f"Phone {t},{t}\n" for t in missing)
            await self.call("POST", "players/import/", body={"csv": csv})
        return {int(p["table"]): str(p["seat_code"]) for p in await self.call("GET", "players/")}

    async def drawn_round(self) -> dict[str, Any]:
        """The current round drawn and solved: a game started and a rack drawn if needed."""
        game = await self.answer("GET", "game/")
        if game.status == 404 or (game.status == 200 and game.json().get("game_state") != "playing"):
            await self.call("POST", "games/")
        found = await self.current_round()
        if found is None or found["state"] == "placed":
            await self.call("POST", "rounds/draw/", body={})
            found = await self.current_round()
        if found is None or found["state"] != "drawn":
            state = found["state"] if found else "none"
            raise BenchError(
                f"the current round is {state}: finish it before the bench (or start a new game)"
            )
        return await self.wait_round(lambda r: r["move_count"] is not None, "the tops of the drawn round")

    async def play_without_slips(self) -> None:
        """A round opened, closed at once, ruled and placed: the board gets a word."""
        await self.drawn_round()
        await self.call("POST", "rounds/current/open/", body={"seconds": 60})
        await self.call("POST", "rounds/current/close/")
        await self.wait_round(
            lambda r: r["state"] == "adjudicated", "the adjudication of a round without slips"
        )
        await self.call("POST", "rounds/current/place/", body={"draw_next": True})


# --------------------------------------------------------------------------- the phones


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


class Phone:
    """One phone: its own session (cookies kept by hand, as the page's and the API's
    requests differ: phone.js sends the slip with ``credentials: "omit"``), its stream
    or polling, its panel, its slip."""

    def __init__(self, hall: Hall, index: int, plan: PlannedSlip, seat: str) -> None:
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


# --------------------------------------------------------------------------- the run


@dataclass
class Mark:
    name: str
    perf: float
    cpu: dict[str, float]
    bench_cpu: float
    machine_busy: float
    #: The database's and the broker's CPU (:func:`services_cpu`).
    services: dict[str, float] = field(default_factory=dict)


@dataclass
class Options:
    phones: int
    window: float
    lead: float
    rounds_before: int
    join_rate: float
    close_after: float
    request_timeout: float
    seed: int
    #: Off (a diagnostic, not what phones do): no phone reloads its panel when the public
    #: version changes, to tell what those reloads cost the server.
    panels: bool = True
    #: Cycles of the arbitrator's actions after the measured round (bench/console.py).
    actions: int = 0


class Hall:
    def __init__(
        self,
        options: Options,
        base: str,
        event_id: int,
        code: str,
        server: ProcessTree | None,
        worker_log: Path | None = None,
    ) -> None:
        self.options = options
        self.worker_log = worker_log
        self.base = base
        self.event_id = event_id
        self.code = code
        self.server = server
        self.request_timeout = options.request_timeout
        self.panels = options.panels
        self.log = RequestLog()
        self.marks: list[Mark] = []
        self.timeline: list[dict[str, Any]] = []
        self.lags: list[tuple[float, float]] = []
        self.rng = random.Random(options.seed)

    def mark(self, name: str) -> None:
        cpu = cpu_by_role(self.server.tree()) if self.server is not None else {}
        busy = machine_busy(Path("/proc/stat").read_text())
        self.marks.append(Mark(name, time.perf_counter(), cpu, time.process_time(), busy, services_cpu()))

    async def _sample(self) -> None:
        if self.server is None:
            return
        start = time.perf_counter()
        for _ in range(100_000):
            tree = self.server.tree()
            self.timeline.append(
                {
                    "t": round(time.perf_counter() - start, 2),
                    "cpu": {k: round(v, 2) for k, v in cpu_by_role(tree).items()},
                    "threads": {s.role: s.threads for s in tree.values()},
                }
            )
            await asyncio.sleep(SAMPLE_SECONDS)

    async def _watch_lag(self) -> None:
        loop = asyncio.get_running_loop()
        for _ in range(10_000_000):
            before = loop.time()
            await asyncio.sleep(LAG_TICK_SECONDS)
            self.lags.append((time.perf_counter(), loop.time() - before - LAG_TICK_SECONDS))

    async def run(self, login: dict[str, str | None]) -> dict[str, Any]:
        options = self.options
        arbitrator = Arbitrator(self.base, self.event_id, self.log)
        phones: list[Phone] = []
        background: list[asyncio.Task[None]] = []
        try:
            await arbitrator.login(
                token=login.get("token"), user=login.get("user"), password=login.get("password")
            )
            event = await arbitrator.call("GET", "")
            size = layout(str(event["board"])).size
            seats = await arbitrator.ensure_players(options.phones)
            for _ in range(options.rounds_before):
                await arbitrator.play_without_slips()
            measured = await arbitrator.drawn_round()
            plans = plan_slips(
                options.phones,
                measured["tops"] or [],
                measured["top_score"],
                measured["rack"] or "",
                str(event["notation"]),
                size,
                self.rng,
            )
            phones = [Phone(self, i, plan, seats[i + 1]) for i, plan in enumerate(plans)]
            loop = asyncio.get_running_loop()
            background = [loop.create_task(self._sample()), loop.create_task(self._watch_lag())]
            self.log.clear()
            self.mark("ready")

            # 1. Joining, at join_rate phones a second, JOIN_IN_FLIGHT at most at once.
            start = time.perf_counter()
            in_flight = asyncio.Semaphore(JOIN_IN_FLIGHT)

            async def join(phone: Phone) -> None:
                await asyncio.sleep(phone.index / options.join_rate)
                async with in_flight:
                    await phone.join(self.code)

            await asyncio.gather(*(join(p) for p in phones))
            joined_in = time.perf_counter() - start
            self.mark("joined")

            # 2. Every stream at once.
            streams_start = time.perf_counter()
            for phone in phones:
                phone.open_stream()
            stream_deadline = streams_start + STREAM_WAIT_SECONDS
            joined = [p for p in phones if p.page is not None]
            while time.perf_counter() < stream_deadline and not all(
                p.heard is not None or p.polling for p in joined
            ):
                await asyncio.sleep(0.02)
            self.mark("streams")

            # 3. The round opens; the phones see it and reload their panels.
            opened_call = time.perf_counter()
            opened = await arbitrator.call(
                "POST", "rounds/current/open/", body={"seconds": round(options.lead + options.window)}
            )
            opened_back = time.perf_counter()
            deadline = parse_time(opened["deadline"])
            assert deadline is not None
            self.mark("opened")
            schedule = send_times(len(phones), deadline, options.window, self.rng)
            wall_to_loop = loop.time() - time.time()
            for phone, at in zip(phones, schedule, strict=True):
                phone.slip.scheduled = at
                loop.call_at(at + wall_to_loop, phone.submit)
            await asyncio.sleep(max(0.0, deadline - options.window - time.time()))
            self.mark("window")
            await asyncio.sleep(max(0.0, deadline - time.time()))
            self.mark("deadline")

            # 4. The close, just after the deadline, then every ruling.
            await asyncio.sleep(max(0.0, deadline + options.close_after - time.time()))
            close = await self._close(arbitrator)
            self.mark("closed")
            give_up = close["sent"] + AFTER_CLOSE_SECONDS
            ruled = await self._wait_ruled(arbitrator, phones, close["sent"], give_up)
            self.mark("ruled")
            # Every phone stopped, its requests on the way cancelled, before the server's
            # slips are read: an acknowledgement after the reading would count as lost.
            await asyncio.gather(*(p.stop() for p in phones), return_exceptions=True)
            ruled["read"] = time.perf_counter() - close["sent"]
            stored_body = await self._settled_slips(arbitrator)
            rulings: dict[int, int | None] | None = None
            reasons: Counter[str] = Counter()
            current = await arbitrator.current_round()
            ruled["final_state"] = current["state"] if current else "none"
            if ruled["final_state"] == "adjudicated":
                review = await arbitrator.call("GET", "rounds/current/review/")
                rulings = {int(r["player"]["table"]): (r["slip"] or {}).get("id") for r in review["rulings"]}
                reasons.update(str(r["reason"]) for r in review["rulings"])
            for task in background:
                task.cancel()
            actions: dict[str, Any] = {}
            if options.actions and ruled["final_state"] == "adjudicated":
                from bench import console  # it builds on this module

                actions = await console.play(arbitrator, phones, login, options.actions, self.log)
            return self._report(
                phones=phones,
                measured=measured,
                event=event,
                deadline=deadline,
                joined_in=joined_in,
                streams_start=streams_start,
                opened_at=(opened_call, opened_back),
                close=close,
                ruled=ruled,
                stored_body=stored_body,
                rulings=rulings,
                reasons=reasons,
                actions=actions,
            )
        finally:
            for task in background:
                task.cancel()
            await asyncio.gather(*(p.stop() for p in phones), return_exceptions=True)
            await arbitrator.close()

    async def _settled_slips(self, arbitrator: Arbitrator) -> list[dict[str, Any]]:
        """The round's slips once two readings SETTLE_SECONDS apart agree (a request the
        phones gave up on may still be stored), within SETTLE_TIMEOUT."""
        slips: list[dict[str, Any]] = await arbitrator.call("GET", "rounds/current/slips/", kind="verify")
        until = time.monotonic() + SETTLE_TIMEOUT
        while time.monotonic() < until:
            await asyncio.sleep(SETTLE_SECONDS)
            again: list[dict[str, Any]] = await arbitrator.call("GET", "rounds/current/slips/", kind="verify")
            if len(again) == len(slips):
                return again
            slips = again
        return slips

    async def _close(self, arbitrator: Arbitrator) -> dict[str, Any]:
        """The arbitrator's click; again (three times at most) while the round stays open."""
        sent, sent_wall = time.perf_counter(), time.time()
        answer = await arbitrator.answer("POST", "rounds/current/close/")
        clicks = 1
        while answer.status != 200 and clicks < 3:
            state = await arbitrator.current_round()
            if state is None or state["state"] != "open":
                break
            await asyncio.sleep(1.0)
            answer = await arbitrator.answer("POST", "rounds/current/close/")
            clicks += 1
        closed_at = ""
        if answer.status == 200:
            with suppress(ValueError, KeyError, AttributeError):
                closed_at = str(answer.json().get("closed_at") or "")
        return {
            "sent": sent,
            "sent_wall": sent_wall,
            "seconds": round(time.perf_counter() - sent, 4),
            "outcome": answer.outcome,
            "clicks": clicks,
            "closed_at": closed_at,
        }

    async def _wait_ruled(
        self, arbitrator: Arbitrator, phones: Sequence[Phone], close_sent: float, give_up: float
    ) -> dict[str, Any]:
        """Until the round is adjudicated, every phone done (or given up) and the rulings
        name every in-time slip stored on time; bounded by RULING_TIMEOUT."""
        until = close_sent + RULING_TIMEOUT
        state, checks = "closed", 0
        seen_adjudicated: float | None = None
        while time.perf_counter() < until:
            if time.perf_counter() >= give_up:
                for phone in phones:
                    phone.stopped = True
            current = await arbitrator.current_round()
            back = time.perf_counter()
            state = current["state"] if current else "none"
            if state == "adjudicated" and seen_adjudicated is None:
                seen_adjudicated = back
            busy = any(p.pending is not None and not p.stopped for p in phones)
            if state == "adjudicated" and not busy:
                checks += 1
                if await self._all_ruled(arbitrator, phones):
                    first = seen_adjudicated or back
                    return {
                        "state": state,
                        "seconds": round(back - close_sent, 3),
                        "checks": checks,
                        "first_adjudicated": round(first - close_sent, 3),
                    }
                await asyncio.sleep(VERIFY_PAUSE_SECONDS)
            elif state not in ("closed", "adjudicated"):
                break
            await asyncio.sleep(STATE_POLL_SECONDS)
        return {
            "state": state,
            "seconds": None,
            "checks": checks,
            "first_adjudicated": round(seen_adjudicated - close_sent, 3) if seen_adjudicated else None,
        }

    async def _all_ruled(self, arbitrator: Arbitrator, phones: Sequence[Phone]) -> bool:
        stored = await arbitrator.call("GET", "rounds/current/slips/", kind="verify")
        answer = await arbitrator.answer("GET", "rounds/current/review/", kind="verify")
        if answer.status != 200:
            return False
        named = {(r["slip"] or {}).get("id") for r in answer.json()["rulings"]}
        on_time = [s["id"] for s in stored if s["current"] and not s["late"]]
        return all(slip_id in named for slip_id in on_time)

    # ------------------------------------------------------------------ report

    def _phase_cpu(self) -> list[dict[str, Any]]:
        phases = []
        for before, after in zip(self.marks, self.marks[1:], strict=False):
            seconds = after.perf - before.perf
            cpu = cpu_delta(before.cpu, after.cpu)
            bench = after.bench_cpu - before.bench_cpu
            services = cpu_delta(before.services, after.services)
            others = (
                after.machine_busy - before.machine_busy - sum(cpu.values()) - sum(services.values()) - bench
            )
            phases.append(
                {
                    "phase": f"{before.name} -> {after.name}",
                    "seconds": round(seconds, 2),
                    "server_cpu_s": cpu,
                    "server_cpu_pct": round(100 * sum(cpu.values()) / seconds, 1) if seconds > 0 else None,
                    "services_cpu_s": services,
                    "bench_cpu_s": round(bench, 2),
                    "others_cpu_s": round(max(0.0, others), 2),
                }
            )
        return phases

    def _report(
        self,
        *,
        phones: Sequence[Phone],
        measured: Mapping[str, Any],
        event: Mapping[str, Any],
        deadline: float,
        joined_in: float,
        streams_start: float,
        opened_at: tuple[float, float],
        close: Mapping[str, Any],
        ruled: Mapping[str, Any],
        stored_body: Sequence[Mapping[str, Any]],
        rulings: Mapping[int, int | None] | None,
        reasons: Counter[str],
        actions: Mapping[str, Any],
    ) -> dict[str, Any]:
        count = len(phones)
        sent = [
            Sent(
                table=p.table,
                client_id=p.slip.client_id,
                first_sent=p.slip.first_sent,
                acknowledged=p.slip.receipt is not None,
                receipt_id=(p.slip.receipt or {}).get("id"),
                receipt_late=(p.slip.receipt or {}).get("late"),
            )
            for p in phones
        ]
        stored = [
            Stored(
                id=int(s["id"]),
                table=int(s["player"]["table"]),
                client_id=str(s["client_id"]),
                late=bool(s["late"]),
                current=bool(s["current"]),
                received_at=parse_time(s.get("received_at")),
            )
            for s in stored_body
        ]
        found = account(sent, stored, deadline, rulings)
        latencies = [
            p.slip.acknowledged_perf - p.slip.first_sent_perf
            for p in phones
            if p.slip.acknowledged_perf is not None and p.slip.first_sent_perf is not None
        ]
        joined = [p for p in phones if p.page is not None]
        heard = [p.heard - streams_start for p in phones if p.heard is not None]
        all_heard = max(heard) if len(heard) == count else None
        within = sum(h <= TARGET_STREAMS_S for h in heard)
        opened_seen = [
            next((t for t in p.public_changes if t >= opened_at[0]), None)
            for p in phones
            if p.page is not None
        ]
        seen = [t - opened_at[0] for t in opened_seen if t is not None]
        lags = [lag for t, lag in self.lags if self._between(t, "window", "closed")]
        send_lags = [
            p.slip.first_sent - p.slip.scheduled
            for p in phones
            if p.slip.first_sent is not None and p.slip.scheduled is not None
        ]
        total_cpu = cpu_delta(self.marks[0].cpu, self.marks[-1].cpu) if self.marks else {}
        threads: dict[str, int] = defaultdict(int)
        for sample in self.timeline:
            for role, n in sample["threads"].items():
                threads[role] = max(threads[role], n)
        submit = summary_s(latencies)
        adjudications = self._adjudications(close)
        # When the last adjudication before the bench found every slip ruled committed, from
        # the worker's log; without it, when the arbitrator saw it (its polling of the state
        # waits in the web server's queue like any request).
        seen_ruled = ruled["seconds"]
        bound = seen_ruled if seen_ruled is not None else ruled["read"]
        before = [a for a in adjudications if (a["received_after_close_s"] or 0) < bound]
        ruled_s: float | None = None
        if rulings is not None and found.unruled == 0:
            ruled_s = seen_ruled
            if before and all(a["ran_s"] is not None for a in before):
                ruled_s = round(max(done_after_close(a) for a in before), 3)
        rows = self._slip_rows(phones, deadline)
        return {
            "phones": count,
            "window_s": self.options.window,
            "round_s": round(self.options.lead + self.options.window),
            "rounds_before": self.options.rounds_before,
            "panel_reload": self.options.panels,
            "actions": dict(actions),
            "panels": {
                "pushed": sum(p.panels_pushed for p in phones),
                "asked": sum(self.log.outcomes["panel"].values()),
                "stream_mb": round(sum(p.stream_bytes for p in phones) / 1e6, 1),
            },
            "round": {
                "game": measured["game"],
                "number": measured["number"],
                "rack": measured["rack"],
                "moves": measured["move_count"],
                "top_score": measured["top_score"],
                "tops": measured["tops"],
                "notation": event["notation"],
            },
            "slip_kinds": dict(Counter(p.slip.plan.kind for p in phones)),
            "joined": len(joined),
            "join_s": round(joined_in, 2),
            "join_flow": summary_s([p.joined_seconds for p in phones if p.joined_seconds is not None]),
            "streams": {
                "connected": len(heard),
                "of": count,
                "all_connected_s": round(all_heard, 3) if all_heard is not None else None,
                "connected_within_target": within,
                "first_message": summary_s(heard),
                "polling_instead": sum(p.polling for p in phones),
                "dropped": sum(p.stream_drops for p in phones),
                "open_seen": summary_s(seen),
                "open_not_seen": len(opened_seen) - len(seen),
            },
            "slips": {
                "sent_in_time": found.sent_in_time,
                "sent_after_deadline": found.sent_after_deadline,
                "not_sent": found.not_sent,
                "acknowledged": found.acknowledged,
                "acknowledged_late": found.acknowledged_late,
                "refused": sum(bool(p.slip.refused) for p in phones),
                "refusals": dict(Counter(p.slip.refused for p in phones if p.slip.refused)),
                "gave_up": sum(
                    p.slip.first_sent is not None and not p.slip.receipt and not p.slip.refused
                    for p in phones
                ),
                "retried": sum(len(p.slip.attempts) > 1 for p in phones),
                "attempts": sum(len(p.slip.attempts) for p in phones),
                "stored": found.stored,
                "stored_not_acknowledged": found.stored_not_acknowledged,
                "unknown_stored": found.unknown_stored,
                "receipt_mismatch": found.receipt_mismatch,
            },
            "submit_latency_s": submit,
            "slip_request_s": summary_s(self.log.seconds.get("slip", [])),
            "receipt_delay_s": summary_s(found.receipt_delays),
            "in_time_ruled_late": found.in_time_ruled_late,
            "lost": found.lost,
            "lost_client_ids": found.lost_ids[:20],
            "duplicated": found.duplicated,
            "close": {
                "request_s": close["seconds"],
                "outcome": close["outcome"],
                "clicks": close["clicks"],
                "closed_after_deadline_s": round((parse_time(close["closed_at"]) or 0) - deadline, 3)
                if close["closed_at"]
                else None,
            },
            "close_to_ruled_s": ruled_s,
            "close_to_ruled_seen_s": ruled["seconds"],
            "adjudication_tasks": adjudications,
            "close_to_first_adjudicated_s": ruled["first_adjudicated"],
            "round_state": ruled.get("final_state", ruled["state"]),
            "rulings": {
                "count": sum(reasons.values()),
                "reasons": dict(reasons.most_common()),
                "in_time_slips_ruled": found.ruled,
                "in_time_slips_stored_on_time": found.in_time_stored_on_time,
                "in_time_slips_not_ruled": found.unruled,
            },
            "server_cpu_s": {
                "total": round(sum(total_cpu.values()), 2),
                "by_process": total_cpu,
                "max_threads": dict(threads),
            },
            "phases": self._phase_cpu(),
            "per_slip": per_slip(self._phase_cpu(), found.sent_in_time),
            "errors": self.log.errors(),
            "requests": {kind: sum(c.values()) for kind, c in sorted(self.log.outcomes.items())},
            "bench": {
                "cpu_s": round(self.marks[-1].bench_cpu - self.marks[0].bench_cpu, 2) if self.marks else None,
                "others_cpu_s": round(sum(p["others_cpu_s"] for p in self._phase_cpu()), 1),
                "cores": os.cpu_count(),
                "loop_lag_max_ms": round(1000 * max(lags), 1) if lags else None,
                "submit_lag_max_ms": round(1000 * max(send_lags), 1) if send_lags else None,
            },
            "targets": {
                "p99_below_1s": submit["p99"] is not None and submit["p99"] < TARGET_P99_S,
                "no_in_time_slip_late": found.in_time_ruled_late == 0,
                "no_lost_or_duplicated": found.lost == 0 and found.duplicated == 0,
                "streams_within_5s": within == count,
                "ruled_within_2s": ruled_s is not None and ruled_s < TARGET_RULED_S,
            },
            "by_second": by_second(rows, self.options.window),
            "slips_detail": rows,
            "timeline": self.timeline,
        }

    def _adjudications(self, close: Mapping[str, Any]) -> list[dict[str, Any]]:
        """From the worker's log (a server the bench started with ``serve``): when each
        adjudication after the close reached the worker, and how long it ran (None: it had
        not finished when the bench read the log)."""
        if self.worker_log is None or not self.worker_log.exists() or not close["closed_at"]:
            return []
        offset = dt.datetime.fromisoformat(close["closed_at"]).utcoffset() or dt.timedelta()
        runs = worker_tasks(self.worker_log.read_text("utf-8", errors="replace"), offset)
        return [
            {
                "task": run.name,
                "received_after_close_s": round(run.received - close["sent_wall"], 3),
                "ran_s": run.seconds,
                "done_after_close_s": None if run.done is None else round(run.done - close["sent_wall"], 3),
            }
            for run in runs
            if run.name in ADJUDICATIONS and run.received >= close["sent_wall"] - 1.0
        ]

    def _slip_rows(self, phones: Sequence[Phone], deadline: float) -> list[dict[str, Any]]:
        """Every phone's slip, times in seconds from the deadline (the JSON's detail)."""
        rows = []
        for p in phones:
            slip = p.slip
            acknowledged = slip.acknowledged_perf
            rows.append(
                {
                    "table": p.table,
                    "client_id": slip.client_id,
                    "receipt_id": (slip.receipt or {}).get("id"),
                    "kind": slip.plan.kind,
                    "scheduled": round(slip.scheduled - deadline, 3) if slip.scheduled else None,
                    "first_sent": round(slip.first_sent - deadline, 3) if slip.first_sent else None,
                    "latency": round(acknowledged - slip.first_sent_perf, 4)
                    if acknowledged is not None and slip.first_sent_perf is not None
                    else None,
                    "late": (slip.receipt or {}).get("late"),
                    "received_at": round(
                        (parse_time((slip.receipt or {}).get("received_at")) or 0) - deadline, 3
                    )
                    if slip.receipt
                    else None,
                    "refused": slip.refused or None,
                    "attempts": [[round(a.sent - deadline, 3), a.seconds, a.outcome] for a in slip.attempts],
                }
            )
        return rows

    def _between(self, t: float, first: str, last: str) -> bool:
        marks = {m.name: m.perf for m in self.marks}
        return first in marks and last in marks and marks[first] <= t <= marks[last]


# --------------------------------------------------------------------------- printing


def _s(value: float | int | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _met(ok: bool) -> str:
    return "met" if ok else "MISSED"


def done_after_close(run: Mapping[str, Any]) -> float:
    """When an adjudication's task was done, in seconds after the close (an older log's
    runs have no end time: received plus its run)."""
    if run.get("done_after_close_s") is not None:
        return float(run["done_after_close_s"])
    return float((run["received_after_close_s"] or 0) + (run["ran_s"] or 0))


def adjudication_text(runs: Sequence[Mapping[str, Any]]) -> str:
    if not runs:
        return "(no worker log read)"
    first = runs[0]
    said = f"received {_s(first['received_after_close_s'])} s after the close, ran {_s(first['ran_s'])} s"
    if len(runs) == 1:
        return said
    done = [done_after_close(a) for a in runs if a["ran_s"] is not None]
    ran = sum(a["ran_s"] for a in runs if a["ran_s"] is not None)
    again = sum(a.get("task") == "round_rule_when_quiet_task" for a in runs)
    return (
        f"{len(runs)} tasks ({again} to rule the round again once the in-time slips queued behind the close"
        f" stop coming): the first {said}; the last done {_s(max(done, default=None))} s after the close;"
        f" {ran:.1f} s of runs in all"
    )


def per_slip(phases: Sequence[Mapping[str, Any]], slips: int) -> dict[str, float | None]:
    """The CPU a slip costs, in ms, from the window's phase (the slips are all that happens
    then): the web processes', the database's, the broker's (issue 31's bound: 2,000
    slips in 10 s leave about 4 ms of a core each, web and database together)."""
    window = next((p for p in phases if p["phase"] == "window -> deadline"), None)
    if window is None or not slips:
        return {"web_ms": None, "database_ms": None, "broker_ms": None}
    web = sum(v for k, v in window["server_cpu_s"].items() if k.startswith("web"))
    services = window.get("services_cpu_s", {})
    return {
        "web_ms": round(1000 * web / slips, 2),
        "database_ms": round(1000 * services.get("database", 0.0) / slips, 2),
        "broker_ms": round(1000 * services.get("broker", 0.0) / slips, 2),
    }


def report_text(report: Mapping[str, Any]) -> str:
    r = report
    s, st, lat = r["slips"], r["streams"], r["submit_latency_s"]
    t = r["targets"]
    rnd = r["round"]
    lines = [
        f"Hall bench: {r['phones']} phones, slips in the last {r['window_s']:g} s of a "
        f"{r['round_s']} s round (game {rnd['game']} round {rnd['number']}, rack {rnd['rack']}, "
        f"{rnd['moves']} moves, top {rnd['top_score']})"
        + ("" if r["panel_reload"] else "; DIAGNOSTIC: no panel reloads"),
        f"  server: {r['server']['command']} ({r['server']['database']}, {r['server']['broker']}); "
        f"{r['server']['git']}; {r['machine']}",
        *(
            [
                f"  busy: {r['busy']['processes']} process(es) keeping a core busy beside the run "
                f"({r['busy']['cpu_s']:.1f} CPU s)"
            ]
            if r.get("busy", {}).get("processes")
            else []
        ),
        f"  joined {r['joined']}/{r['phones']} in {r['join_s']:.1f} s (page flow p50 "
        f"{_s(r['join_flow']['p50'], 3)} s, max {_s(r['join_flow']['max'], 3)} s)",
        f"  streams connected {st['connected']}/{st['of']}, all within "
        f"{_s(st['all_connected_s'], 2) if st['all_connected_s'] is not None else '(not all)'} s; "
        f"within {TARGET_STREAMS_S:g} s: {st['connected_within_target']} [{_met(t['streams_within_5s'])}]; "
        f"polling instead {st['polling_instead']}, dropped {st['dropped']}; round open seen p50 "
        f"{_s(st['open_seen']['p50'])} / max {_s(st['open_seen']['max'])} s",
        f"  panels at the public changes: {r['panels']['pushed']} sent by the streams, "
        f"{r['panels']['asked']} asked for by the phones; the streams carried "
        f"{r['panels']['stream_mb']} MB",
        f"  slips: {s['sent_in_time']} sent in time, {s['acknowledged']} acknowledged "
        f"({s['acknowledged_late']} as late), {s['refused']} refused, {s['gave_up']} given up, "
        f"{s['retried']} retried ({s['attempts']} attempts), {s['not_sent']} not sent, "
        f"{s['sent_after_deadline']} sent after the deadline (bench lag)",
        f"  submit latency p50 / p95 / p99 / max: {_s(lat['p50'], 3)} / {_s(lat['p95'], 3)} / "
        f"{_s(lat['p99'], 3)} / {_s(lat['max'], 3)} s [p99 < {TARGET_P99_S:g} s: {_met(t['p99_below_1s'])}]",
        f"  receipt time stored - phone's send p50 / p99 / max: {_s(r['receipt_delay_s']['p50'], 3)} / "
        f"{_s(r['receipt_delay_s']['p99'], 3)} / {_s(r['receipt_delay_s']['max'], 3)} s",
        f"  in-time slips ruled late: {r['in_time_ruled_late']} [{_met(t['no_in_time_slip_late'])}]; "
        f"lost: {r['lost']}, duplicated: {r['duplicated']} [{_met(t['no_lost_or_duplicated'])}]; "
        f"stored but not acknowledged: {s['stored_not_acknowledged']}",
        f"  close -> every ruling: {_s(r['close_to_ruled_s'])} s [< {TARGET_RULED_S:g} s: "
        f"{_met(t['ruled_within_2s'])}]; rulings {r['rulings']['count']}, in-time slips ruled "
        f"{r['rulings']['in_time_slips_ruled']}/{r['rulings']['in_time_slips_stored_on_time']}",
        f"    close request {_s(r['close']['request_s'], 3)} s ({r['close']['outcome']}); the arbitrator "
        f"saw the round adjudicated after {_s(r['close_to_first_adjudicated_s'])} s, every slip ruled "
        f"after {_s(r['close_to_ruled_seen_s'])} s",
        "    adjudication in the worker: " + adjudication_text(r["adjudication_tasks"]),
        "  by second of the window (first attempt; slips, p50 / max latency s, late): "
        + ", ".join(
            f"{b['second']:+d}: {b['slips']} {_s(b['p50'])}/{_s(b['max'])} {b['late']}"
            for b in r["by_second"]
        ),
        "  server CPU: {:.1f} s ({})".format(
            r["server_cpu_s"]["total"],
            ", ".join(f"{k} {v:.1f}" for k, v in r["server_cpu_s"]["by_process"].items()),
        ),
    ]
    if (cost := r.get("per_slip")) and cost["web_ms"] is not None:
        lines.append(
            f"  CPU a slip in the window: web {cost['web_ms']:.2f} ms, database "
            f"{cost['database_ms']:.2f} ms, broker {cost['broker_ms']:.2f} ms "
            "(PostgreSQL and Redis: the machine's, whoever else uses them)"
        )
    for phase in r["phases"]:
        lines.append(
            f"    {phase['phase']:<22} {phase['seconds']:>6.1f} s  "
            f"server CPU {_s(phase['server_cpu_pct'], 0):>4} % "
            f"of a core ({', '.join(f'{k} {v:.1f}' for k, v in phase['server_cpu_s'].items() if v)}), "
            f"bench {phase['bench_cpu_s']:.1f} s, other work {phase['others_cpu_s']:.1f} s"
        )
    errors = "; ".join(
        f"{kind}: " + ", ".join(f"{o} x{n}" for o, n in c.items()) for kind, c in r["errors"].items()
    )
    lines.append(f"  errors: {errors or 'none'}")
    if r.get("actions"):
        from bench.console import report_lines  # it builds on this module

        lines += report_lines(r["actions"])
    b = r["bench"]
    lines.append(
        f"  bench: CPU {_s(b['cpu_s'], 1)} s, event loop lag max {_s(b['loop_lag_max_ms'], 0)} ms "
        f"(window to close), submit lag max {_s(b['submit_lag_max_ms'], 0)} ms; other work on the "
        f"machine meanwhile: {b['others_cpu_s']:.1f} CPU s"
    )
    return "\n".join(lines)


# --------------------------------------------------------------------------- main


def raise_file_limit(phones: int) -> int:
    """Each phone holds a stream and a connection for its pages and slip, the server as
    many: raise this process's soft limit of open files as far as needed (and allowed)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4 * phones + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return int(soft)


def git_state() -> str:
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            check=False,
            cwd=BASE_DIR,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            check=False,
            cwd=BASE_DIR,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return "not a git checkout"
    return f"commit {commit}" + (f" + uncommitted changes in {len(changed)} files" if changed else "")


@contextmanager
def terminated_as_interrupt() -> Iterator[None]:
    """SIGTERM ends the run as Ctrl-C does: through the ``finally`` that stops servers."""

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


#: A burner's own code: a core kept busy until its deadline, whatever becomes of the bench.
BURN = (
    "import sys, time\nend = time.monotonic() + float(sys.argv[1])\nwhile time.monotonic() < end:\n    pass\n"
)


class Burners:
    """``count`` processes that each keep a core busy while the hall runs (``--busy``): a
    hall's laptop also prints and projects. Bounded twice: stopped when the run ends, and
    each ends by itself after ``limit`` seconds should the bench die without stopping it."""

    def __init__(self, count: int, limit: float) -> None:
        self.count, self.limit = count, limit
        self.processes: list[subprocess.Popen[bytes]] = []
        self.cpu_s = 0.0

    def __enter__(self) -> Burners:
        for _ in range(self.count):
            self.processes.append(subprocess.Popen([sys.executable, "-c", BURN, str(self.limit)]))
        return self

    def __exit__(self, *exc: object) -> None:
        for process in self.processes:
            with suppress(OSError):
                fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
                self.cpu_s += (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime
            process.kill()
            process.wait()


def positive(kind: type[int] | type[float]) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text!r}: expected a positive number")
        return value

    return parse


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.hall", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--phones", type=positive(int), help="simulated phones (default 200; --quick 100)")
    parser.add_argument(
        "--window", type=positive(float), help="slips in the last S seconds (default 10; --quick 5)"
    )
    parser.add_argument(
        "--lead", type=positive(float), help="seconds of the round before the window (default 10)"
    )
    parser.add_argument("--rounds-before", type=int, help="rounds played without slips first (default 2)")
    parser.add_argument(
        "--join-rate", type=positive(float), default=25.0, help="phones joining a second (25)"
    )
    parser.add_argument(
        "--close-after", type=float, default=CLOSE_AFTER_SECONDS, help="close S s after the deadline"
    )
    parser.add_argument(
        "--request-timeout", type=positive(float), default=REQUEST_TIMEOUT, help="per slip attempt"
    )
    parser.add_argument("--seed", type=int, default=12, help="the slips and their moments")
    parser.add_argument(
        "--no-panel-reload",
        action="store_true",
        help="diagnostic: phones do not reload their panel on a public change (what those reloads cost)",
    )
    parser.add_argument("--quick", action="store_true", help="CI: 100 phones, a 5 s window, about a minute")
    parser.add_argument(
        "--actions",
        type=int,
        default=0,
        metavar="N",
        help="then N cycles of the arbitrator's console actions, timed (bench/console.py)",
    )
    parser.add_argument(
        "--busy",
        type=int,
        default=0,
        choices=range(0, 9),
        metavar="N",
        help="N processes each keep a core busy through the run (a laptop that also prints)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--keep", action="store_true", help="keep the temporary data folder and the server's log"
    )
    started = parser.add_argument_group(
        "the server under test (default: manage.py serve, started by the bench)"
    )
    started.add_argument(
        "--server-command", metavar="TEMPLATE", help="e.g. '{python} -m uvicorn ... --port {port}'"
    )
    running = parser.add_argument_group("a server already running (--url): an arbitrator's event")
    running.add_argument("--url", help="http://127.0.0.1:PORT of a running server (loopback only)")
    running.add_argument(
        "--event", type=int, help="the event's id (its arbitrator's; players added as needed)"
    )
    running.add_argument("--code", help="the event's join code (the API never shows it)")
    running.add_argument("--token", help="an arbitrator's API token")
    running.add_argument("--user", help="an arbitrator's username (with --password)")
    running.add_argument("--password", help="the arbitrator's password")
    running.add_argument("--server-pid", type=int, help="its root process, for the CPU figures from /proc")
    args = parser.parse_args(argv)
    if args.url is not None:
        if args.server_command:
            parser.error("--url and --server-command exclude each other")
        host = urlsplit(args.url).hostname
        if host not in ("127.0.0.1", "localhost"):
            parser.error("--url: loopback only (http://127.0.0.1:PORT)")
        if args.event is None or not args.code or not (args.token or (args.user and args.password)):
            parser.error("--url needs --event, --code and --token (or --user and --password)")
    if args.server_command:
        server_argv(args.server_command, 8000)  # refused here, not after the setup
    if args.rounds_before is not None and args.rounds_before < 0:
        parser.error("--rounds-before: 0 or more")
    return args


def options_from(args: argparse.Namespace) -> Options:
    return Options(
        phones=args.phones or (100 if args.quick else 200),
        window=args.window or (5.0 if args.quick else 10.0),
        lead=args.lead or (5.0 if args.quick else 10.0),
        rounds_before=args.rounds_before if args.rounds_before is not None else (1 if args.quick else 2),
        join_rate=args.join_rate,
        close_after=args.close_after,
        request_timeout=args.request_timeout,
        seed=args.seed,
        panels=not args.no_panel_reload,
        actions=max(0, args.actions),
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    options = options_from(args)
    if not sys.platform.startswith("linux"):
        print("bench.hall reads /proc: Linux only", file=sys.stderr)
        return 2
    if options.window <= GUARD_SECONDS:
        print(f"--window must be longer than {GUARD_SECONDS} s", file=sys.stderr)
        return 2
    files = raise_file_limit(options.phones)
    var_dir = Path(tempfile.mkdtemp(prefix="arbiter-hall-bench-"))
    server: Server | None = None
    started = time.monotonic()
    load = os.getloadavg()[0]
    env = server_env(var_dir)
    report: dict[str, Any] | None = None
    try:
        with terminated_as_interrupt():
            login: dict[str, str | None]
            if args.url is None:
                port = free_port()
                template = args.server_command or DEFAULT_COMMAND
                if args.server_command:
                    manage(["migrate", "--no-input", "-v0"], env)
                argv_ = server_argv(template, port)
                print(f"starting {' '.join(argv_)} on a fresh data folder {var_dir}...", flush=True)
                server = Server(argv_, env, var_dir / "server.log")
                server.wait_ready(port)
                base = f"http://{HOST}:{port}"
                user, password = f"bench-{os.getpid()}-{secrets.token_hex(3)}", secrets.token_urlsafe(16)
                manage(
                    ["createsuperuser", "--noinput", "--username", user, "--email", f"{user}@example.org"],
                    {**env, "DJANGO_SUPERUSER_PASSWORD": password},
                )
                created = manage(
                    [
                        "event_create",
                        "Hall bench",
                        "--language",
                        "english",
                        "--notation",
                        "gcg",
                        "--user",
                        user,
                    ],
                    env,
                )
                event_id, code = parse_event_created(created)
                login = {"user": user, "password": password, "token": None}
                command = " ".join(shlex.quote(a) for a in argv_)
            else:
                base = args.url.rstrip("/").replace("localhost", HOST)
                event_id, code = args.event, args.code
                login = {"user": args.user, "password": args.password, "token": args.token}
                command = f"running at {base}"
            watched: ProcessTree | None = server or (Watched(args.server_pid) if args.server_pid else None)
            hall = Hall(options, base, event_id, code, watched, var_dir / "worker.log" if server else None)
            print(
                f"{options.phones} phones, window {options.window:g} s, lead {options.lead:g} s, "
                f"{options.rounds_before} rounds before, open files allowed {files}...",
                flush=True,
            )
            budget = (
                600
                + options.phones / options.join_rate
                + options.lead
                + options.window
                + 120 * options.actions
            )
            with Burners(args.busy, budget) as burners, asyncio.Runner(loop_factory=loop_factory()) as runner:
                report = runner.run(asyncio.wait_for(hall.run(login), timeout=budget))
    except BenchError as exc:
        print(f"bench.hall: {exc}", file=sys.stderr)
        if server is not None:
            print(f"the end of the server's log:\n{server.tail()}", file=sys.stderr)
        return 2
    except TimeoutError:
        print("bench.hall: the run took longer than its budget: stopped", file=sys.stderr)
        return 2
    finally:
        if server is not None:
            server.stop()
        # A slip lost, duplicated or ruled late though sent in time: the database and the
        # logs are the evidence.
        wrong = report is not None and _wrong(report)
        if args.keep or wrong:
            print(f"data folder and server log kept in {var_dir}")
        else:
            shutil.rmtree(var_dir, ignore_errors=True)
    assert report is not None
    mine = args.url is None
    report = {
        "server": {
            "command": command,
            "database": ("PostgreSQL" if env.get("DATABASE_URL") else "SQLite") if mine else "as configured",
            "broker": ("Redis" if env.get("REDIS_URL") else "file system") if mine else "as configured",
            "git": git_state(),
        },
        "machine": f"{os.cpu_count()} cores, load {load:.2f} before, Python {platform.python_version()}, "
        f"aiohttp {aiohttp.__version__}",
        **report,
        "busy": {"processes": burners.count, "cpu_s": round(burners.cpu_s, 1)},
        "took_s": round(time.monotonic() - started, 1),
    }
    print()
    print(report_text(report))
    print(f"(bench took {report['took_s']:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=str) + "\n")
    return 1 if _wrong(report) else 0


def _wrong(report: Mapping[str, Any]) -> bool:
    """What no load excuses: a slip lost or duplicated, or sent in time and ruled late."""
    return bool(report["lost"] or report["duplicated"] or report["in_time_ruled_late"])


if __name__ == "__main__":
    # Run as the module bench.hall, not as __main__: bench/console.py imports its names
    # (BenchError among them) from bench.hall, which must be this run's, not a second copy.
    import importlib

    raise SystemExit(importlib.import_module("bench.hall").main())
