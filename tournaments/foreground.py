"""What this process is doing for people waiting on it (the arbitrator's requests, the
phones' slips and panels), so that work nobody watches (a backup) goes once it is done.

A hall's web process and its backups share one interpreter and, on a club's laptop, two
cores: a backup built at the same time as the console's page and the phones' panels of a
placement slows both (docs/benchmarks.md, the arbitrator's actions at hall size). The
front-ends mark their work (:meth:`Foreground.busy`); the backups' thread waits for a quiet
moment (:meth:`Foreground.wait_quiet`), never longer than it is told."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator


class Foreground:
    def __init__(self) -> None:
        self._count = 0
        self._changed = float("-inf")  # never busy yet: quiet from the start
        self._condition = threading.Condition()

    @property
    def count(self) -> int:
        return self._count

    @contextlib.contextmanager
    def busy(self) -> Iterator[None]:
        """Around work someone is waiting for (any thread, or the event loop: it only
        counts, under a lock held for a few statements)."""
        with self._condition:
            self._count += 1
            self._changed = time.monotonic()
        try:
            yield
        finally:
            with self._condition:
                self._count -= 1
                self._changed = time.monotonic()
                self._condition.notify_all()

    def wait_quiet(self, quiet: float, at_most: float) -> bool:
        """Until nothing has been busy for ``quiet`` seconds, ``at_most`` seconds in all:
        a request and the panels it leads to leave gaps of a few milliseconds between them,
        which are not the end of the work. True when quiet, False when the time ran out."""
        until = time.monotonic() + at_most
        with self._condition:
            while True:
                now = time.monotonic()
                still = quiet - (now - self._changed)
                if self._count == 0 and still <= 0:
                    return True
                left = until - now
                if left <= 0:
                    return False
                # Woken at each end of busy work; a start is seen at the next wake.
                self._condition.wait(left if self._count else min(left, still))


#: This process's.
FOREGROUND = Foreground()
