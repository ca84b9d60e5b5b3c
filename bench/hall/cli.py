"""The command line: the server started (or the one running named), the run made within
its budget, the report printed and written, the exit status."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import resource
import secrets
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp

import bench.hall
from bench.hall import BenchError
from bench.hall.client import REQUEST_TIMEOUT
from bench.hall.cpu import ProcessTree, Watched
from bench.hall.report import report_text
from bench.hall.run import CLOSE_AFTER_SECONDS, Hall, Options
from bench.hall.server import (
    BASE_DIR,
    DEFAULT_COMMAND,
    HOST,
    Server,
    manage,
    parse_event_created,
    server_argv,
    server_env,
    terminated_as_interrupt,
)
from bench.hall.slips import GUARD_SECONDS
from bench.live.server import CLK_TCK, free_port


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
        prog="python -m bench.hall", description=(bench.hall.__doc__ or "").split("\n\n")[0]
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
        help="then N cycles of the arbitrator's console actions, timed (bench/hall/console.py)",
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
