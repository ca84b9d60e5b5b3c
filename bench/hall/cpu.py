"""The CPU a run costs, from /proc: the server's process tree by role, the database's and
the broker's, the machine's and the bench's own, read at the run's marks."""

from __future__ import annotations

import asyncio
import os
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from bench.live.server import CLK_TCK

SAMPLE_SECONDS = 1.0
LAG_TICK_SECONDS = 0.05


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


class ProcessTree(Protocol):
    def tree(self) -> dict[int, ProcSample]: ...


class Watched:
    """A running server's process tree, for its CPU figures (``--url --server-pid``)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def tree(self) -> dict[int, ProcSample]:
        return read_tree(self.pid)


@dataclass
class Mark:
    name: str
    perf: float
    cpu: dict[str, float]
    bench_cpu: float
    machine_busy: float
    #: The database's and the broker's CPU (:func:`services_cpu`).
    services: dict[str, float] = field(default_factory=dict)


class Meter:
    """The run's CPU: the server's tree at each named moment of the run (a :class:`Mark`)
    and every SAMPLE_SECONDS, and the lag of the bench's own event loop."""

    def __init__(self, server: ProcessTree | None) -> None:
        self.server = server
        self.marks: list[Mark] = []
        self.timeline: list[dict[str, Any]] = []
        self.lags: list[tuple[float, float]] = []

    def mark(self, name: str) -> None:
        cpu = cpu_by_role(self.server.tree()) if self.server is not None else {}
        busy = machine_busy(Path("/proc/stat").read_text())
        self.marks.append(Mark(name, time.perf_counter(), cpu, time.process_time(), busy, services_cpu()))

    async def sample(self) -> None:
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

    async def watch_lag(self) -> None:
        loop = asyncio.get_running_loop()
        for _ in range(10_000_000):
            before = loop.time()
            await asyncio.sleep(LAG_TICK_SECONDS)
            self.lags.append((time.perf_counter(), loop.time() - before - LAG_TICK_SECONDS))

    def phases(self) -> list[dict[str, Any]]:
        """Each phase between two marks: its CPU, the server's by role, the services', the
        bench's and the rest of the machine's."""
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

    def between(self, t: float, first: str, last: str) -> bool:
        """Whether ``t`` (a perf counter) falls between the marks ``first`` and ``last``."""
        marks = {m.name: m.perf for m in self.marks}
        return first in marks and last in marks and marks[first] <= t <= marks[last]
