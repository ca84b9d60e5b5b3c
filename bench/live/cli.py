"""The command line: the runs for each number of phones and mode, then the capacity run,
on a fresh data folder; the table and the conclusion printed."""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import bench.live
from bench.live.event import prepare
from bench.live.report import capacity_line, conclusion, table
from bench.live.runs import HAMMER_CLIENTS, HAMMER_SECONDS, run_capacity, run_phones

SETTINGS = "bench.live.settings"


def parse_clients(text: str) -> list[int]:
    """``"50,200"`` -> ``[50, 200]``; ArgumentTypeError for anything but positive numbers."""
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected numbers separated by commas") from None
    if not counts or any(n < 1 for n in counts):
        raise argparse.ArgumentTypeError(f"{text!r}: expected positive numbers separated by commas")
    return counts


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
    parser = argparse.ArgumentParser(
        prog="python -m bench.live", description=(bench.live.__doc__ or "").split("\n\n")[0]
    )
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
