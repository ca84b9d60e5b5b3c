"""The product's processes the bench starts: each in a process group of its own, its
output in files, all stopped at the end; their CPU read from /proc."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from bench.live.server import CLK_TCK
from bench.multiplex import BenchError

BASE_DIR = Path(__file__).resolve().parents[2]
MANAGE = BASE_DIR / "manage.py"
#: Bounds (seconds). A centre's first command migrates its new SQLite file.
COMMAND_TIMEOUT = 300.0
STOP_TIMEOUT = 60.0
TAIL_CHARS = 3000


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


def tree_cpu(root: int) -> float:
    stats = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with suppress(OSError):
                stats.append(Path(entry.path, "stat").read_text())
    return proc_tree_cpu(stats, root)
