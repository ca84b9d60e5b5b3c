"""The run's figures: latencies summed up, the slips the phones sent set against those
the server keeps, the worker's log read, the CPU a slip costs."""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.hall.client import parse_time
from bench.hall.phone import Phone
from bench.live.figures import percentile

#: What a hall's round must meet (docs/benchmarks.md).
TARGET_P99_S = 1.0
TARGET_STREAMS_S = 5.0
TARGET_RULED_S = 2.0


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


def adjudication_runs(worker_log: Path | None, close: Mapping[str, Any]) -> list[dict[str, Any]]:
    """From the worker's log (a server the bench started with ``serve``): when each
    adjudication after the close reached the worker, and how long it ran (None: it had
    not finished when the bench read the log)."""
    if worker_log is None or not worker_log.exists() or not close["closed_at"]:
        return []
    offset = dt.datetime.fromisoformat(close["closed_at"]).utcoffset() or dt.timedelta()
    runs = worker_tasks(worker_log.read_text("utf-8", errors="replace"), offset)
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


def slip_rows(phones: Sequence[Phone], deadline: float) -> list[dict[str, Any]]:
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
                "received_at": round((parse_time((slip.receipt or {}).get("received_at")) or 0) - deadline, 3)
                if slip.receipt
                else None,
                "refused": slip.refused or None,
                "attempts": [[round(a.sent - deadline, 3), a.seconds, a.outcome] for a in slip.attempts],
            }
        )
    return rows


def done_after_close(run: Mapping[str, Any]) -> float:
    """When an adjudication's task was done, in seconds after the close (an older log's
    runs have no end time: received plus its run)."""
    if run.get("done_after_close_s") is not None:
        return float(run["done_after_close_s"])
    return float((run["received_after_close_s"] or 0) + (run["ran_s"] or 0))


def per_slip(phases: Sequence[Mapping[str, Any]], slips: int) -> dict[str, float | None]:
    """The CPU a slip costs, in ms, from the window's phase (the slips are all that happens
    then): the web processes', the database's, the broker's, to hold against the bound a
    hall's slips leave each (docs/benchmarks.md)."""
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
