"""The figures of a run: nearest-rank percentiles, summaries in milliseconds, and the time
from each change's commit to each phone seeing it."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

#: The product's requirement: every state change on every phone within this time.
REQUIREMENT_SECONDS = 2.0


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0..1) of ``values``; ValueError when empty."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def summary_ms(seconds: Sequence[float]) -> dict[str, float | int]:
    """Count, median, p95 and maximum in milliseconds; zeros when there is nothing."""
    if not seconds:
        return {"n": 0, "median_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}
    return {
        "n": len(seconds),
        "median_ms": round(statistics.median(seconds) * 1000, 1),
        "p95_ms": round(percentile(seconds, 0.95) * 1000, 1),
        "max_ms": round(max(seconds) * 1000, 1),
    }


@dataclass(frozen=True)
class Change:
    """One state change: when the service was called, when it committed, the public
    version the phones knew before it, and what it was."""

    called: float
    committed: float
    before: str
    label: str


def propagation(
    changes: Sequence[Change], seen: Sequence[Sequence[tuple[float, str]]]
) -> tuple[list[float], int]:
    """For every change and every phone, seconds from the commit to the first answer
    showing another public version than the one before the change; and how many pairs
    never saw it. ``seen[i]`` lists phone i's ``(time, version)`` whenever its version
    changed, in time order."""
    delays: list[float] = []
    missed = 0
    for change in changes:
        for transitions in seen:
            first = next((t for t, v in transitions if t >= change.called and v != change.before), None)
            if first is None:
                missed += 1
            else:
                delays.append(max(0.0, first - change.committed))
    return delays, missed
