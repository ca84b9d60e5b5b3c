"""The server under test: its command and environment, started in a session of its own
and stopped with every process of its tree (SIGTERM to the bench included); ``manage.py``
run beside it."""

from __future__ import annotations

import argparse
import http.client
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from types import FrameType

from bench.hall import BenchError
from bench.hall.cpu import ProcSample, read_tree, stat_sample

BASE_DIR = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
DEFAULT_COMMAND = "{python} manage.py serve --port {port}"
SERVER_START_TIMEOUT = 180.0
SERVER_STOP_TIMEOUT = 30.0
MANAGE_TIMEOUT = 120.0


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
