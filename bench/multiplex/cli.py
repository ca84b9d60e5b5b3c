"""The command line: the run made in a temporary folder, every process stopped, the
report printed and written, the exit status."""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import bench.multiplex
from bench.hall.server import terminated_as_interrupt
from bench.multiplex import BenchError
from bench.multiplex.figures import data_sent, end_problems, merged_problems
from bench.multiplex.game import PLAY_TIMEOUT, Centre, merged_ranking, play, setup
from bench.multiplex.procs import Procs, child_env
from bench.multiplex.relay import Relay
from bench.multiplex.report import report_text


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
        prog="python -m bench.multiplex", description=(bench.multiplex.__doc__ or "").split("\n\n")[1]
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
