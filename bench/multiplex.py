"""Multiplex benchmark: ``python -m bench.multiplex [--centres 20] [--players 100] [--seed 1]
[--quick] [--json FILE]``.

One game of a live multiplex as it runs (docs/rules.md#multiplex), every piece its own
process on this machine: the hub (``manage.py serve``: on PostgreSQL and Redis when
``DATABASE_URL`` and ``REDIS_URL`` are set, as the settings read them, else on a SQLite
data folder of its own) and N centres, each with its own data folder (SQLite), joined to
the hub through a byte-counting TCP relay of its own, and played to the end by P virtual
players with ``multiplex_play`` (centre 1 draws and publishes, the others follow the hub,
syncing and waiting), all started at the same time as in a live multiplex.

Measured and printed (and written with ``--json``): the game's wall time, rounds placed,
players in all; the CPU the centres and the hub used meanwhile and the machine's load;
the merged ranking once every centre has finished (``export standings`` on the hub, the
command's wall time and the computation alone in the hub's process); the data each centre
sends per round (the JSON payloads of its outbox, ``tournaments_huboutbox``, by kind) and
what went over the wire both ways (HTTP requests and answers with their headers, TCP/IP
left out, the polls of a waiting follower included). The merged CSV must have P x N rows
and a centre column.

Every wait is bounded, the processes the bench started are always stopped (each in its
own process group) and the temporary folder removed unless ``--keep`` or a failure. Exit
status: 0 when every centre finished the game clean (same rounds, nothing waiting to be
sent, no error), 1 when a centre did not (its log tail printed), 2 when the run could not
be made (setup failed, the hub stopped).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import platform
import re
import resource
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import closing, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.hall import terminated_as_interrupt
from bench.live import CLK_TCK, HOST, free_port

BASE_DIR = Path(__file__).resolve().parent.parent
MANAGE = BASE_DIR / "manage.py"
#: The hub's event and every centre's: a centre joins only with the hub's settings.
SETTINGS = ("--language", "english", "--notation", "gcg")
#: Setup commands at once: each Django command spends 1-2 s of CPU starting, on 2 cores.
SETUP_PARALLEL = 3
#: Bounds (seconds). A centre's first command migrates its new SQLite file.
COMMAND_TIMEOUT = 300.0
SERVE_TIMEOUT = 300.0
PLAY_TIMEOUT = 3600.0
STOP_TIMEOUT = 60.0
POLL_SECONDS = 0.5
#: The relay: how often it looks whether it is closed; how long a connection may stay silent.
ACCEPT_SECONDS = 1.0
CONNECTION_TIMEOUT = 120.0
LOAD_EVERY_SECONDS = 5.0
#: Runs of the merged ranking in the hub's process; the median is reported.
REPEAT = 5
TAIL_CHARS = 3000
#: In the hub's process: the merged ranking alone, then the standings CSV it is written to.
TIMING_SNIPPET = """
import json, statistics, time
from tournaments.exports import export
from multiplex.models import Multiplex
from multiplex.selectors import multiplex_standings
multiplex = Multiplex.objects.select_related("event").get(event_id={event})
def timed(fn):
    times = []
    for _ in range({repeat}):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return {{"first_s": times[0], "median_s": statistics.median(times)}}
print(json.dumps({{
    "standings": timed(lambda: multiplex_standings(multiplex)),
    "csv": timed(lambda: export("standings", multiplex.event, None)),
}}))
"""


class BenchError(RuntimeError):
    """The run cannot be made (a setup command failed, the hub stopped)."""


# --------------------------------------------------------------------------- pure helpers


def created_event(out: str) -> str:
    """The id in event_create's "Event N created"."""
    match = re.search(r"Event (\d+) created", out)
    if match is None:
        raise BenchError(f"event_create did not say which event it created:\n{out[-TAIL_CHARS:]}")
    return match.group(1)


def last_json(text: str) -> dict[str, Any] | None:
    """The last line of ``text`` that is a JSON object (a command's result), or None."""
    for line in reversed(text.splitlines()):
        if line.startswith("{"):
            with suppress(ValueError):
                found = json.loads(line)
                if isinstance(found, dict):
                    return found
    return None


def end_problems(ends: Sequence[dict[str, Any] | None]) -> list[str]:
    """What is wrong with the centres' results: one line per centre that did not end
    clean, and one if the centres did not all place the same rounds and end alike."""
    problems = []
    for number, end in enumerate(ends, start=1):
        if end is None:
            problems.append(f"centre {number}: no result")
        elif end.get("waiting") != 0 or end.get("last_error") != "" or not end.get("ended"):
            problems.append(
                f"centre {number}: ended {end.get('ended')!r}, {end.get('waiting')} waiting to be sent,"
                f" last error {end.get('last_error')!r}"
            )
    outcomes = {(e["placed"], e["ended"]) for e in ends if e is not None}
    if len(outcomes) > 1:
        problems.append(f"the centres differ (rounds placed, end): {sorted(outcomes)}")
    return problems


def merged_problems(data: bytes, centres: int, players: int) -> list[str]:
    """The merged ranking CSV checked: a centre column, ``players`` rows for each of the
    ``centres`` centres."""
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"))
    if not rows or "centre" not in rows[0]:
        return [f"no centre column in the merged ranking: {rows[0] if rows else 'empty'}"]
    column = rows[0].index("centre")
    problems = []
    if len(rows) - 1 != centres * players:
        problems.append(f"{len(rows) - 1} rows in the merged ranking, not {players} x {centres}")
    per_centre: dict[str, int] = {}
    for row in rows[1:]:
        per_centre[row[column]] = per_centre.get(row[column], 0) + 1
    if len(per_centre) != centres or set(per_centre.values()) != {players}:
        problems.append(f"rows by centre: {per_centre}")
    return problems


def outbox_figures(centres: Sequence[dict[str, int]], rounds: int) -> dict[str, Any]:
    """Bytes sent per round by each centre, from the byte counts of its outbox by kind
    (the draw centre first): the mean and max over the centres, and by kind the draw
    centre's and the mean of the others'."""
    if rounds < 1 or not centres:
        return {}
    totals = [sum(kinds.values()) / rounds for kinds in centres]
    others = centres[1:] or centres
    kinds = sorted({kind for c in others for kind in c})
    return {
        "mean_b": round(statistics.mean(totals)),
        "max_b": round(max(totals)),
        "max_centre": totals.index(max(totals)) + 1,
        "draw_centre_by_kind_b": {k: round(v / rounds) for k, v in sorted(centres[0].items())},
        "others_by_kind_mean_b": {
            k: round(statistics.mean(c.get(k, 0) for c in others) / rounds) for k in kinds
        },
    }


def proc_tree_cpu(stats: Sequence[str], root: int, ticks_per_second: int = CLK_TCK) -> float:
    """CPU seconds (user + system, with the children each has reaped) of process ``root``
    and its descendants, from the texts of /proc/<pid>/stat. By parentage, not by session:
    serve starts its web server and worker in sessions of their own."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for stat in stats:
        # After the command name (in parentheses, which may hold anything): state is
        # field 3, ppid field 4, utime to cstime fields 14 to 17 (proc(5)).
        pid = int(stat.split(" ", 1)[0])
        fields = stat[stat.rindex(")") + 2 :].split()
        parents[pid], ticks[pid] = int(fields[1]), sum(int(f) for f in fields[11:15])
    tree, grown = {root}, True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grown = bool(more)
    return sum(ticks.get(pid, 0) for pid in tree) / ticks_per_second


def kb(value: float) -> str:
    return f"{value / 1000:.1f} kB" if value >= 1000 else f"{value:.0f} B"


# --------------------------------------------------------------------------- processes


def child_env(var_dir: Path, **extra: str) -> dict[str, str]:
    """A process of the product: its own data folder; the hub alone gets the database and
    broker of the environment (``extra``)."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "ARBITER_TASKS_EAGER")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="arbiter.settings.local",
        ARBITER_VAR_DIR=str(var_dir),
        PYTHONPATH=os.pathsep.join(p for p in (str(BASE_DIR), os.environ.get("PYTHONPATH", "")) if p),
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def manage(*args: str) -> list[str]:
    return [sys.executable, str(MANAGE), *args]


@dataclass
class Proc:
    name: str
    out: Path
    log: Path
    popen: subprocess.Popen[bytes]
    started: float
    ended: float | None = None

    def text(self, path: Path | None = None) -> str:
        try:
            return (path or self.out).read_text("utf-8", errors="replace")
        except OSError:
            return ""

    def tail(self) -> str:
        out, err = self.text()[-TAIL_CHARS:], self.text(self.log)[-TAIL_CHARS:]
        return f"--- {self.name}: stdout\n{out}\n--- stderr\n{err}"


@dataclass
class Procs:
    folder: Path
    started: list[Proc] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self, name: str, argv: list[str], env: dict[str, str]) -> Proc:
        out, log = self.folder / f"{name}.out", self.folder / f"{name}.log"
        with open(out, "wb") as fo, open(log, "wb") as fe:
            popen = subprocess.Popen(
                argv, env=env, cwd=BASE_DIR, stdin=subprocess.DEVNULL, stdout=fo, stderr=fe,
                start_new_session=True,  # its own group: killed whole at the end, spared our Ctrl-C
            )  # fmt: skip
        proc = Proc(name, out, log, popen, time.monotonic())
        with self.lock:
            self.started.append(proc)
        return proc

    def run(self, name: str, argv: list[str], env: dict[str, str], timeout: float = COMMAND_TIMEOUT) -> str:
        """Run to the end, which must be a success: its stdout."""
        proc = self.start(name, argv, env)
        try:
            code = proc.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            raise BenchError(f"{name} did not finish in {timeout:.0f} s\n{proc.tail()}") from None
        if code != 0:
            raise BenchError(f"{name} failed (exit {code})\n{proc.tail()}")
        return proc.text()

    def stop_all(self) -> None:
        # Only the groups of processes still running: the id of one reaped earlier may
        # have been given to another process since.
        for proc in [p for p in reversed(self.started) if p.popen.poll() is None]:
            proc.popen.send_signal(signal.SIGTERM)
            with suppress(subprocess.TimeoutExpired):
                proc.popen.wait(STOP_TIMEOUT)
            # Also whatever the process left in its group (serve's web server and worker).
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.popen.pid, signal.SIGKILL)
            with suppress(subprocess.TimeoutExpired):
                proc.popen.wait(10)


def tree_cpu(root: int) -> float:
    stats = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with suppress(OSError):
                stats.append(Path(entry.path, "stat").read_text())
    return proc_tree_cpu(stats, root)


class Relay:
    """One TCP relay to the hub per centre, counting the bytes each way: what a hall's
    link carries (HTTP headers included; the centres open a connection per request).
    Blocking sockets and a thread a direction: plain enough to be trusted with the counts."""

    def __init__(self, target: int, count: int) -> None:
        self.target = target
        self.up, self.down, self.connections = [0] * count, [0] * count, [0] * count
        self.lock = threading.Lock()
        self.closed = threading.Event()
        self.servers = [socket.create_server((HOST, 0)) for _ in range(count)]
        self.ports: list[int] = [server.getsockname()[1] for server in self.servers]
        for index, server in enumerate(self.servers):
            server.settimeout(ACCEPT_SECONDS)  # to see ``closed`` in time
            threading.Thread(target=self._accept, args=(index, server), daemon=True).start()

    def _accept(self, index: int, server: socket.socket) -> None:
        while not self.closed.is_set():
            try:
                client, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self.lock:
                self.connections[index] += 1
            threading.Thread(target=self._relay, args=(index, client), daemon=True).start()

    def _relay(self, index: int, client: socket.socket) -> None:
        with client:
            try:
                hub = socket.create_connection((HOST, self.target), timeout=CONNECTION_TIMEOUT)
            except OSError:
                return
            with hub:
                client.settimeout(CONNECTION_TIMEOUT)
                back = threading.Thread(target=self._pump, args=(hub, client, self.down, index), daemon=True)
                back.start()
                self._pump(client, hub, self.up, index)
                back.join(CONNECTION_TIMEOUT)

    def _pump(self, source: socket.socket, sink: socket.socket, counts: list[int], index: int) -> None:
        with suppress(OSError):
            while data := source.recv(65536):
                with self.lock:
                    counts[index] += len(data)
                sink.sendall(data)
        # The other side learns the end as from the hub or the centre itself.
        with suppress(OSError):
            sink.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        self.closed.set()
        for server in self.servers:
            server.close()


# --------------------------------------------------------------------------- the run


@dataclass
class Centre:
    number: int
    env: dict[str, str]
    event: str = ""
    key: str = ""
    play: Proc | None = None
    end: dict[str, Any] | None = None

    @property
    def name(self) -> str:
        return f"Centre {self.number:02d}"

    @property
    def slug(self) -> str:
        return f"centre-{self.number:02d}"

    @property
    def database(self) -> Path:
        return Path(self.env["ARBITER_VAR_DIR"]) / "arbiter.sqlite3"


def outbox_bytes(database: Path) -> tuple[dict[str, int], dict[str, int], int]:
    """A centre's outbox: payload bytes by kind, the results payloads' bytes by round, and
    the POSTs made (every attempt)."""
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        # The payload is the JSON text Django stored, json.dumps as the centre posts it:
        # its length is the request's body.
        rows = db.execute(
            "SELECT kind, game, number, length(CAST(payload AS BLOB)), attempts FROM tournaments_huboutbox"
        ).fetchall()
    kinds: dict[str, int] = {}
    results: dict[str, int] = {}
    for kind, game, number, size, _attempts in rows:
        kinds[kind] = kinds.get(kind, 0) + size
        if kind == "results":
            results[f"{game}.{number}"] = size
    return kinds, results, sum(row[4] for row in rows)


def setup(procs: Procs, centres: list[Centre], hub_env: dict[str, str], seed: int) -> tuple[str, Proc, Relay]:
    """The hub with its event, multiplex and centres, serving; each centre's event joined
    to it through its relay. The centres' events are made while the hub is set up."""
    # The draw centre's racks from --seed, not a seed drawn per event: the same game run
    # after run (the others draw nothing; the hub's is given alike for the same settings).
    settings = (*SETTINGS, "--random-seed", str(seed))
    with ThreadPoolExecutor(SETUP_PARALLEL) as pool:
        made: list[Future[str]] = [
            pool.submit(
                procs.run,
                f"{c.slug}-event-create",
                manage("event_create", f"Multiplex bench, {c.name}", *settings),
                c.env,
            )
            for c in centres
        ]
        if hub_env.get("DATABASE_URL"):
            procs.run("hub-migrate", manage("migrate", "-v0"), hub_env)
        hub_event = created_event(
            procs.run("hub-event-create", manage("event_create", "Multiplex bench", *settings), hub_env)
        )
        procs.run(
            "hub-multiplex-create",
            manage("multiplex_create", "--event", hub_event, "--max-delay", "90"),
            hub_env,
        )
        for c in centres:
            draws = ["--draws"] if c.number == 1 else []
            out = procs.run(
                f"hub-centre-add-{c.number:02d}",
                manage("centre_add", "--event", hub_event, "--name", c.name, *draws),
                hub_env,
            )
            c.key = out.split()[-1]
        port = free_port()
        hub = procs.start("hub-serve", manage("serve", "--port", str(port)), hub_env)
        wait_for_site(hub)
        relay = Relay(port, len(centres))

        def join(c: Centre, future: Future[str]) -> None:
            c.event = created_event(future.result())
            hub_url = f"http://{HOST}:{relay.ports[c.number - 1]}"
            argv = manage("multiplex_join", "--event", c.event, "--hub", hub_url, "--key", c.key)
            procs.run(f"{c.slug}-join", argv, c.env)

        for joined in [pool.submit(join, c, f) for c, f in zip(centres, made, strict=True)]:
            joined.result()
    return hub_event, hub, relay


def wait_for_site(hub: Proc) -> None:
    deadline = time.monotonic() + SERVE_TIMEOUT
    while not re.search(r"Site:\s+http://", hub.text()):
        if hub.popen.poll() is not None:
            raise BenchError(f"the hub's serve stopped (exit {hub.popen.returncode})\n{hub.tail()}")
        if time.monotonic() > deadline:
            raise BenchError(f"the hub's serve was not ready after {SERVE_TIMEOUT:.0f} s\n{hub.tail()}")
        time.sleep(0.2)


def play(
    procs: Procs, centres: list[Centre], hub: Proc, players: int, seed: int, timeout: float
) -> dict[str, Any]:
    """Every centre's game at once, to the end (bounded): wall time, CPU, load."""
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    own_before = resource.getrusage(resource.RUSAGE_SELF)
    hub_before = tree_cpu(hub.popen.pid)
    started = time.monotonic()
    for c in centres:
        # Each centre's players their own minds: centre n plays with seed + n - 1.
        options = ["--players", str(players), "--seed", str(seed + c.number - 1), "--json"]
        argv = manage("multiplex_play", "--event", c.event, *options)
        c.play = procs.start(f"{c.slug}-play", argv, c.env)
    deadline, loads, sampled = started + timeout, [round(os.getloadavg()[0], 2)], started
    running = list(centres)
    while running and time.monotonic() < deadline:
        if hub.popen.poll() is not None:
            raise BenchError(
                f"the hub's serve stopped during the game (exit {hub.popen.returncode})\n{hub.tail()}"
            )
        for c in list(running):
            assert c.play is not None
            if c.play.popen.poll() is not None:
                c.play.ended = time.monotonic()
                c.end = last_json(c.play.text()) if c.play.popen.returncode == 0 else None
                running.remove(c)
        if time.monotonic() - sampled >= LOAD_EVERY_SECONDS:
            loads.append(round(os.getloadavg()[0], 2))
            sampled = time.monotonic()
        time.sleep(POLL_SECONDS)
    wall = time.monotonic() - started
    hub_cpu = tree_cpu(hub.popen.pid) - hub_before
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    own_after = resource.getrusage(resource.RUSAGE_SELF)
    # The bench's own share: the relays' threads copying every byte.
    own_cpu = (own_after.ru_utime + own_after.ru_stime) - (own_before.ru_utime + own_before.ru_stime)
    # Only the plays were reaped meanwhile: the children's CPU is theirs (those still
    # running at the deadline are not counted).
    centres_cpu = (cpu_after.ru_utime + cpu_after.ru_stime) - (cpu_before.ru_utime + cpu_before.ru_stime)
    durations = [c.play.ended - c.play.started for c in centres if c.play and c.play.ended]
    return {
        "wall_s": round(wall, 1),
        "timed_out": bool(running),
        "centre_s": {"min": round(min(durations), 1), "max": round(max(durations), 1)} if durations else {},
        "draw_centre_s": round(durations[0], 1) if centres[0].end is not None and durations else None,
        "cpu_s": {"centres": round(centres_cpu, 1), "hub": round(hub_cpu, 1), "bench": round(own_cpu, 1)},
        "cpus_busy": round((centres_cpu + hub_cpu + own_cpu) / wall, 2) if wall else None,
        "load_1min": {"max": max(loads), "mean": round(statistics.mean(loads), 2)},
    }


def merged_ranking(
    procs: Procs, hub_env: dict[str, str], hub_event: str, folder: Path
) -> tuple[dict[str, Any], bytes]:
    """The hub's merged ranking once every centre has finished: the export command's wall
    time, and the computation alone timed in the hub's process."""
    out = folder / "merged.csv"
    started = time.perf_counter()
    procs.run("hub-export", manage("export", "standings", "--event", hub_event, "--out", str(out)), hub_env)
    command_s = time.perf_counter() - started
    snippet = TIMING_SNIPPET.format(event=int(hub_event), repeat=REPEAT)
    timed = last_json(procs.run("hub-timing", manage("shell", "-c", snippet), hub_env))
    if timed is None:
        raise BenchError("the timing of the merged ranking printed no result")
    figures = {"command_s": round(command_s, 2)}
    for what in ("standings", "csv"):
        figures[f"{what}_first_ms"] = round(timed[what]["first_s"] * 1000, 1)
        figures[f"{what}_median_ms"] = round(timed[what]["median_s"] * 1000, 1)
    return figures, out.read_bytes()


def data_sent(centres: list[Centre], relay: Relay, rounds: int, players: int) -> dict[str, Any]:
    counted = [outbox_bytes(c.database) for c in centres]
    sent = outbox_figures([kinds for kinds, _results, _posts in counted], rounds)
    results = [size for _kinds, by_round, _posts in counted for size in by_round.values()]
    per_round = [
        (relay.up[i] / rounds, relay.down[i] / rounds, relay.connections[i] / rounds)
        for i in range(len(centres))
    ]
    return {
        "payload_per_round": sent,
        "results_round_b": {"mean": round(statistics.mean(results)), "max": max(results)} if results else {},
        "results_per_player_b": round(statistics.mean(results) / players) if results else None,
        "posts_per_round_mean": round(statistics.mean(posts for _k, _r, posts in counted) / rounds, 2),
        "wire_per_round": {
            "up_mean_b": round(statistics.mean(u for u, _d, _n in per_round)),
            "up_max_b": round(max(u for u, _d, _n in per_round)),
            "down_mean_b": round(statistics.mean(d for _u, d, _n in per_round)),
            "down_max_b": round(max(d for _u, d, _n in per_round)),
            "requests_mean": round(statistics.mean(n for _u, _d, n in per_round), 1),
            "requests_max": round(max(n for _u, _d, n in per_round), 1),
        },
    }


def report_text(r: dict[str, Any]) -> str:
    game, merged, sent = r["game"], r["merged_ranking"], r["data"]
    payload, wire = sent["payload_per_round"], sent["wire_per_round"]
    rounds = r["rounds"] or 1
    lines = [
        f"Multiplex: {r['centres']} centres x {r['players']} players ({r['centres'] * r['players']} in all),"
        f" seed {r['seed']}",
        f"hub: manage.py serve on {r['hub']}; centres: SQLite each, multiplex_play (tasks in its process)",
        f"machine: {r['machine']}; 1-min load {r['load_before']:.2f} before, during the game"
        f" mean {game['load_1min']['mean']:.2f} max {game['load_1min']['max']:.2f}",
        f"setup: {r['setup_s']:.0f} s",
        f"game: {r['rounds']} rounds placed, ended ({r['ended']}); wall {game['wall_s']:.1f} s"
        f" ({game['wall_s'] / rounds:.1f} s a round); the centres took {game['centre_s'].get('min', 0):.1f}"
        f" to {game['centre_s'].get('max', 0):.1f} s (the draw centre {game['draw_centre_s']} s)",
        f"CPU during the game: centres {game['cpu_s']['centres']:.0f} s, hub {game['cpu_s']['hub']:.0f} s,"
        f" the bench and its relays {game['cpu_s']['bench']:.0f} s"
        f" ({game['cpus_busy']} CPUs busy on average)",
        f"merged ranking after the last round: `export standings` {merged['command_s']:.2f} s in all"
        f" (Django start-up included); computed in the hub's process (median of {REPEAT}):"
        f" multiplex_standings {merged['standings_median_ms']:.0f} ms"
        f" (first {merged['standings_first_ms']:.0f}),"
        f" the CSV {merged['csv_median_ms']:.0f} ms (first {merged['csv_first_ms']:.0f})",
        f"merged CSV: {'ok' if not r['merged_problems'] else '; '.join(r['merged_problems'])}",
        "data sent per centre per round:",
        f"  JSON payloads (outbox): mean {kb(payload['mean_b'])}, max {kb(payload['max_b'])}"
        f" (centre {payload['max_centre']})",
        "    by kind: the draw centre "
        + ", ".join(f"{k} {kb(v)}" for k, v in payload["draw_centre_by_kind_b"].items())
        + "; the others (mean) "
        + ", ".join(f"{k} {kb(v)}" for k, v in payload["others_by_kind_mean_b"].items()),
        f"  one round's results for {r['players']} players: mean {kb(sent['results_round_b']['mean'])},"
        f" max {kb(sent['results_round_b']['max'])} ({sent['results_per_player_b']} B a player);"
        f" {sent['posts_per_round_mean']} POSTs a round",
        f"  on the wire (HTTP, headers included, TCP/IP not): up mean {kb(wire['up_mean_b'])}"
        f" max {kb(wire['up_max_b'])}, down mean {kb(wire['down_mean_b'])} max {kb(wire['down_max_b'])};"
        f" requests a round mean {wire['requests_mean']} max {wire['requests_max']}"
        " (a waiting follower's polls included)",
    ]
    return "\n".join(lines)


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected 1 or more")
    return value


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.multiplex", description=(__doc__ or "").split("\n\n")[1]
    )
    parser.add_argument("--centres", type=positive, help="centres (default 20; --quick 4); centre 1 draws")
    parser.add_argument("--players", type=positive, help="virtual players a centre (default 100; --quick 20)")
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        help="the draws (the events' --random-seed) and the players: centre n's with seed + n - 1 (1)",
    )
    parser.add_argument(
        "--timeout", type=float, default=PLAY_TIMEOUT, help="the game's bound in seconds (3600)"
    )
    parser.add_argument("--quick", action="store_true", help="CI: 4 centres x 20 players, about a minute")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (data and logs)")
    args = parser.parse_args(argv)
    args.centres = args.centres or (4 if args.quick else 20)
    args.players = args.players or (20 if args.quick else 100)
    if args.centres < 2:
        parser.error("--centres: 2 or more (a draw centre and a follower)")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if not sys.platform.startswith("linux"):
        print("bench.multiplex reads /proc: Linux only", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="arbiter-multiplex-bench-"))
    (folder / "logs").mkdir()
    procs = Procs(folder / "logs")
    relay: Relay | None = None
    load_before = round(os.getloadavg()[0], 2)
    hub_extra = {k: os.environ[k] for k in ("DATABASE_URL", "REDIS_URL") if os.environ.get(k)}
    hub_env = child_env(folder / "hub", **hub_extra)
    hub_label = " + ".join(
        [
            "PostgreSQL" if "DATABASE_URL" in hub_extra else "SQLite",
            "Redis" if "REDIS_URL" in hub_extra else "the file broker",
        ]
    )
    centres = [Centre(n, child_env(folder / f"centre-{n:02d}")) for n in range(1, args.centres + 1)]
    status, report = 2, None
    try:
        with terminated_as_interrupt():
            print(
                f"{args.centres} centres x {args.players} players, hub on {hub_label}, in {folder}...",
                flush=True,
            )
            started = time.monotonic()
            hub_event, hub, relay = setup(procs, centres, hub_env, args.seed)
            setup_s = time.monotonic() - started
            print(f"set up in {setup_s:.0f} s; playing...", flush=True)
            game = play(procs, centres, hub, args.players, args.seed, args.timeout)
            problems = end_problems([c.end for c in centres])
            if game["timed_out"]:
                problems.append(f"the game did not end within {args.timeout:.0f} s")
            if problems:
                print("\n".join(["a centre did not finish clean:", *problems]), file=sys.stderr)
                # The centres at fault; all of them when they only differ from one another.
                faulty = [c for c in centres if not c.end or c.end.get("waiting") or c.end.get("last_error")]
                for c in faulty or centres:
                    print(c.play.tail() if c.play else f"{c.name}: not started", file=sys.stderr)
                status = 1
                return status
            first = centres[0].end
            assert first is not None
            merged, csv_data = merged_ranking(procs, hub_env, hub_event, folder)
            report = {
                "centres": args.centres,
                "players": args.players,
                "seed": args.seed,
                "hub": hub_label,
                "machine": f"{os.cpu_count()} CPUs, {platform.machine()}, Python {platform.python_version()}",
                "load_before": load_before,
                "setup_s": round(setup_s, 1),
                "rounds": first["placed"],
                "ended": first["ended"],
                "game": game,
                "merged_ranking": merged,
                "merged_problems": merged_problems(csv_data, args.centres, args.players),
                "data": data_sent(centres, relay, first["placed"], args.players),
            }
            status = 1 if report["merged_problems"] else 0
    except BenchError as exc:
        print(f"bench.multiplex: {exc}", file=sys.stderr)
        return 2
    finally:
        procs.stop_all()
        if relay is not None:
            relay.close()
        if args.keep or status != 0:
            print(f"data and logs kept in {folder}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    assert report is not None
    print()
    print(report_text(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
