"""The game: the hub and its centres set up, every centre's game played at once to the
end, the hub's merged ranking timed."""

from __future__ import annotations

import json
import os
import re
import resource
import statistics
import time
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.live.server import HOST, free_port
from bench.multiplex import BenchError
from bench.multiplex.procs import TAIL_CHARS, Proc, Procs, manage, tree_cpu
from bench.multiplex.relay import Relay

#: The hub's event and every centre's: a centre joins only with the hub's settings.
SETTINGS = ("--language", "english", "--notation", "gcg")
#: Setup commands at once: a Django command's start is CPU-bound (docs/benchmarks.md).
SETUP_PARALLEL = 3
#: Bounds (seconds).
SERVE_TIMEOUT = 300.0
PLAY_TIMEOUT = 3600.0
POLL_SECONDS = 0.5
LOAD_EVERY_SECONDS = 5.0
#: Runs of the merged ranking in the hub's process; the median is reported.
REPEAT = 5
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
