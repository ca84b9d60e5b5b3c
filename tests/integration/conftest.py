"""Integration tests: real processes and real services, nothing mocked.

* The embedded default (no environment variable): ``manage.py serve`` starts a real
  Celery worker on kombu's file-system broker and a SQLite file in ``tmp_path``; always run.
* Redis + PostgreSQL: need ``REDIS_URL`` and ``DATABASE_URL``. Without them the tests are
  skipped on a developer's machine, but they fail when ``CI`` is set: ``.ci/run`` installs
  and starts both services, so a missing one there is a broken CI, never a skip.

Every process is started through the ``procs`` fixture: its output goes to a log file, it
is stopped (SIGTERM, then SIGKILL of its whole process group) at the end of the test even
when the test fails, every wait is bounded, and the logs are appended to the report of a
failed test.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import pytest
from django.db import connection

from tournaments.models import Event, Player, Round
from tournaments.services.events import event_create
from tournaments.services.games import game_start, round_draw
from tournaments.services.lexicons import lexicon_bundled
from tournaments.services.players import player_add
from tournaments.services.rounds import round_open

ROOT = Path(__file__).resolve().parents[2]
MANAGE = ROOT / "manage.py"
QUEUES = "solve,adjudicate,default"

#: Bounds of every wait (seconds). The simulated event is about 100 s through a worker
#: on the file-system broker (it polls its folder once a second), a few seconds on Redis.
READY_TIMEOUT = 90.0
MIGRATE_TIMEOUT = 180.0
EVENT_TIMEOUT = 900.0
STOP_TIMEOUT = 60.0

_PROCS = pytest.StashKey["Procs"]()
_TAIL_LINES = 80


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require_url(name: str, schemes: Sequence[str], what: str) -> str:
    """The URL of a service this test needs: skipped locally when absent, failed in CI."""
    url = os.environ.get(name, "")
    if not url.startswith(tuple(f"{s}://" for s in schemes)):
        reason = f"{name} is {'not set' if not url else 'not a ' + what + ' URL'}: this test needs {what}"
        if in_ci():
            pytest.fail(f"CI must provide {what} ({reason}); .ci/run starts it", pytrace=False)
        pytest.skip(reason)
    return url


def unavailable(reason: str) -> NoReturn:
    """Skip a test whose service or program is missing here; in CI, fail it: .ci/run
    installs and starts everything the integration tests need."""
    if in_ci():
        pytest.fail(f"CI must provide it: {reason}; .ci/run installs it", pytrace=False)
    pytest.skip(reason)


def require_program(name: str) -> str:
    """The path of a program this test runs (skip/fail as :func:`unavailable`)."""
    path = shutil.which(name)
    if path is None:
        unavailable(f"{name} is not installed")
    return path


def require_postgres() -> str:
    """DATABASE_URL of a PostgreSQL server that answers (skip/fail as require_url)."""
    import psycopg

    url = require_url("DATABASE_URL", ("postgres", "postgresql"), "PostgreSQL")
    try:
        with psycopg.connect(url, connect_timeout=10) as connection:
            connection.execute("SELECT 1")
    except psycopg.Error as exc:
        pytest.fail(f"DATABASE_URL is set but PostgreSQL does not answer: {exc}", pytrace=False)
    return url


def require_redis() -> str:
    """REDIS_URL of a Redis server that answers (skip/fail as require_url)."""
    import redis

    url = require_url("REDIS_URL", ("redis", "rediss"), "Redis")
    try:
        redis.Redis.from_url(url, socket_timeout=10).ping()
    except redis.RedisError as exc:
        pytest.fail(f"REDIS_URL is set but Redis does not answer: {exc}", pytrace=False)
    return url


# --------------------------------------------------------------------------- processes


@dataclass
class Proc:
    name: str
    argv: list[str]
    log: Path
    popen: subprocess.Popen[bytes]

    @property
    def pid(self) -> int:
        return self.popen.pid

    def text(self) -> str:
        try:
            return self.log.read_text("utf-8", errors="replace")
        except OSError:
            return ""

    def wait_for(self, pattern: str, timeout: float = READY_TIMEOUT) -> re.Match[str]:
        """The first match of ``pattern`` in the log; fails if the process stops first."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while True:
            match = regex.search(self.text())
            if match:
                return match
            code = self.popen.poll()
            if code is not None:
                pytest.fail(f"{self.name} stopped (exit {code}) before printing {pattern!r}", pytrace=False)
            if time.monotonic() > deadline:
                pytest.fail(f"{self.name}: no {pattern!r} after {timeout:.0f} s", pytrace=False)
            time.sleep(0.1)

    def signal(self, sig: int) -> None:
        if self.popen.poll() is None:
            self.popen.send_signal(sig)

    def wait(self, timeout: float) -> int:
        try:
            return self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{self.name} still runs {timeout:.0f} s after it was asked to stop", pytrace=False)

    def kill(self) -> None:
        """The whole process group (prefork children, serve's worker)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(10)


@dataclass
class Procs:
    folder: Path
    started: list[Proc] = field(default_factory=list)
    logs: list[tuple[str, Path]] = field(default_factory=list)

    def start(self, name: str, argv: list[str], env: dict[str, str], cwd: Path) -> Proc:
        log = self.folder / f"{name}.log"
        with open(log, "ab") as out:
            popen = subprocess.Popen(
                argv,
                env=env,
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own group: killed whole, and no stray Ctrl-C
            )
        proc = Proc(name, argv, log, popen)
        self.started.append(proc)
        self.logs.append((name, log))
        return proc

    def watch(self, name: str, log: Path) -> None:
        """Show this log too (a worker's log file) when the test fails."""
        self.logs.append((name, log))

    def run(
        self, name: str, argv: list[str], env: dict[str, str], cwd: Path, timeout: float
    ) -> subprocess.CompletedProcess[str]:
        """Run to the end (bounded); both streams are kept in files and returned."""
        out, err = self.folder / f"{name}.out", self.folder / f"{name}.log"
        self.logs.append((name, err))
        with open(out, "wb") as fo, open(err, "wb") as fe:
            try:
                done = subprocess.run(
                    argv,
                    check=False,
                    env=env,
                    cwd=cwd,
                    stdin=subprocess.DEVNULL,
                    stdout=fo,
                    stderr=fe,
                    timeout=timeout,
                )
            except subprocess.TimeoutExpired:
                pytest.fail(f"{name} did not finish in {timeout:.0f} s", pytrace=False)
        return subprocess.CompletedProcess(
            argv,
            done.returncode,
            out.read_text("utf-8", errors="replace"),
            err.read_text("utf-8", errors="replace"),
        )

    def run_ok(self, name: str, argv: list[str], env: dict[str, str], cwd: Path, timeout: float) -> str:
        """Run to the end, which must be a success; its stdout."""
        done = self.run(name, argv, env, cwd, timeout)
        if done.returncode != 0:
            pytest.fail(
                f"{name} failed (exit {done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}",
                pytrace=False,
            )
        return done.stdout

    def stop_all(self) -> None:
        for proc in reversed(self.started):
            if proc.popen.poll() is None:
                proc.signal(signal.SIGTERM)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.popen.wait(STOP_TIMEOUT)
            proc.kill()  # also whatever the process left in its group

    def report(self) -> list[tuple[str, str]]:
        sections = []
        for name, log in self.logs:
            try:
                lines = log.read_text("utf-8", errors="replace").splitlines()
            except OSError:
                continue
            shown = "\n".join(lines[-_TAIL_LINES:])
            sections.append((f"{name} ({log}, last {_TAIL_LINES} lines)", shown))
        return sections


@pytest.fixture
def procs(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Procs]:
    folder = tmp_path / "logs"
    folder.mkdir()
    started = Procs(folder)
    request.node.stash[_PROCS] = started
    try:
        yield started
    finally:
        started.stop_all()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    started = item.stash.get(_PROCS, None)
    if report.failed and started is not None:
        for title, text in started.report():
            report.sections.append((f"log of {title}", text))
    return report


# --------------------------------------------------------------------------- environments


def child_env(var_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of a process of the product: none of this test run's settings."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "ARBITER_TASKS_EAGER", "PYTEST_ADDOPTS")
        and not k.startswith("PYTEST_")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="arbiter.settings.local",
        ARBITER_VAR_DIR=str(var_dir),
        PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p),
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def worker_argv(queues: str, node: str, pool: str = "prefork") -> list[str]:
    """A worker as the operator guide starts one on a machine of its own."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "arbiter",
        "worker",
        "-Q",
        queues,
        "--pool",
        pool,
        "--concurrency",
        "1",
        "--loglevel",
        "INFO",
        "--hostname",
        f"{node}@%h",
        "--without-mingle",
        "--without-gossip",
    ]


def worker_ready(node: str) -> str:
    return rf"{re.escape(node)}@\S+ ready\."


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def manage(*args: str) -> list[str]:
    return [sys.executable, str(MANAGE), *args]


def redis_server(procs: Procs, port: int, folder: Path, name: str) -> Proc:
    """A Redis server of the test's own on ``port`` (nothing saved: stopped, it is empty)."""
    argv = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    server = procs.start(name, argv, {"PATH": "/usr/bin:/bin:/usr/sbin:/sbin"}, folder)
    server.wait_for(r"Ready to accept connections", 30)
    return server


def api_call(
    url: str, auth: str, body: dict[str, Any] | None = None, *, method: str = "POST", timeout: float = 10
) -> tuple[int, Any]:
    """One call of the API as a phone (``Player ...``) or the arbitrator (``Token ...``)
    makes it: the status and the body, read as JSON when it is JSON."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body or {}).encode() if method != "GET" else None,
        headers={"Authorization": auth, "Content-Type": "application/json"},
        method=method,
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return int(response.status), json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        text = exc.read().decode("utf-8", "replace")
        try:
            return int(exc.code), json.loads(text)
        except ValueError:
            return int(exc.code), text


EVENT_ARGS = ("--players", "24", "--games", "2", "--seed", "7", "--json")


def simulate(procs: Procs, name: str, env: dict[str, str], cwd: Path, *, worker: bool) -> dict[str, Any]:
    argv = manage("simulate_event", *EVENT_ARGS, *(["--worker"] if worker else []))
    result: dict[str, Any] = json.loads(procs.run_ok(name, argv, env, cwd, EVENT_TIMEOUT))
    return result


@pytest.fixture(scope="session")
def reference_event(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The same event with every task run in the command's own process (no worker):
    a worker, wherever it runs, must give exactly this result."""
    folder = tmp_path_factory.mktemp("reference")
    procs = Procs(folder)
    env = child_env(folder / "var")
    try:
        procs.run_ok("reference-migrate", manage("migrate", "-v0"), env, folder, MIGRATE_TIMEOUT)
        return simulate(procs, "reference-simulate", env, folder, worker=False)
    finally:
        procs.stop_all()


# --------------------------------------------------------------------------- the checks

SQL_CREDITED = """
    SELECT p."table", SUM(r.credited), COUNT(*)
    FROM tournaments_ruling r
    JOIN tournaments_player p ON p.id = r.player_id
    JOIN tournaments_round ro ON ro.id = r.round_id
    WHERE ro.state = 'placed'
    GROUP BY p."table"
"""
SQL_ROUNDS = """
    SELECT ro.state, ro.solved_at IS NOT NULL,
           (SELECT COUNT(*) FROM tournaments_ruling ru WHERE ru.round_id = ro.id)
    FROM tournaments_round ro
"""

Query = Callable[[str], list[tuple[Any, ...]]]


def task_counts(log: str) -> Counter[str]:
    return Counter(re.findall(r"Task tournaments\.tasks\.(round_\w+?_task)\[[0-9a-f-]+\] succeeded", log))


def check_event(result: dict[str, Any], query: Query, *, players: int = 24, games: int = 2) -> Counter[str]:
    """The standings add up: in the printout, and against the rows in the database.
    Returns the tasks the event needed: {"round_solve_task": n, "round_adjudicate_task": m}."""
    standings = result["standings"]
    assert len(standings) == players
    assert len(result["games"]) == games
    top_total = played = 0
    for game in result["games"]:
        assert game["rounds"], f"game {game['number']} has no round"
        assert game["top_total"] == sum(r["top_score"] for r in game["rounds"])
        top_total += game["top_total"]
        played += len(game["rounds"])
    totals = [s["total"] for s in standings]
    assert totals == sorted(totals, reverse=True)
    for row in standings:
        assert row["rank"] == 1 + sum(t > row["total"] for t in totals), row
        assert row["rounds"] == played, row
        assert row["diff"] == row["total"] - top_total, row
        assert row["percent"] == pytest.approx(100 * row["total"] / top_total, abs=0.006), row
    # The database agrees: each total is the sum of the player's rulings of placed rounds.
    in_db = {table: (int(total), int(count)) for table, total, count in query(SQL_CREDITED)}
    assert in_db == {row["table"]: (row["total"], row["rounds"]) for row in standings}
    rounds = query(SQL_ROUNDS)
    assert all(solved for _, solved, _ in rounds), "a drawn round was never solved"
    placed = [int(n) for state, _, n in rounds if state == "placed"]
    assert len(placed) == played and set(placed) == {players}, "every placed round has a ruling per player"
    return Counter(round_solve_task=len(rounds), round_adjudicate_task=played)


def comparable(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k != "event_id"}


def check_worker_log(log: str, transport: str) -> Counter[str]:
    assert f".> transport:   {transport}" in log, f"the worker does not use {transport}"
    problems = [line for line in log.splitlines() if "ERROR/" in line or "CRITICAL/" in line]
    assert not problems, "\n".join(problems[:20])
    return task_counts(log)


# --------------------------------------------------------------------------- PostgreSQL


@contextlib.contextmanager
def scratch_database(prefix: str = "arbiter_it") -> Iterator[str]:
    """A new, empty database on the server of DATABASE_URL (skip/fail as require_url);
    dropped afterwards."""
    import uuid
    from urllib.parse import urlsplit

    import psycopg

    url = require_postgres()
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True, connect_timeout=10) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlsplit(url)._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def database_url() -> Iterator[str]:
    with scratch_database() as url:
        yield url


# ------------------------------------------------------------------ a round on PostgreSQL


def event_with_players(name: str, count: int, seed: int) -> tuple[Event, list[Player]]:
    """An English event of ``count`` players."""
    event = event_create(
        name=name,
        starts_on=dt.date(2026, 11, 24),
        lexicon=lexicon_bundled(name="enable"),
        language="english",
        notation="gcg",
        random_seed=seed,
    )
    return event, [player_add(event=event, name=f"Player {i + 1}") for i in range(count)]


@pytest.fixture
def open_round() -> tuple[Round, list[Player]]:
    """A round open on PostgreSQL, its tops found, and the three players of its event."""
    require_postgres()
    if connection.vendor != "postgresql":
        pytest.fail("DATABASE_URL is PostgreSQL but the test database is not", pytrace=False)
    event, players = event_with_players("Locks", 3, seed=5)
    game = game_start(event=event)
    round = round_draw(game=game)
    assert round is not None
    round = Round.objects.get(pk=round.pk)
    assert round.tops, "the solve task did not run"
    round_open(round=round)
    return Round.objects.select_related("game__event").get(pk=round.pk), players
