"""Work nobody watches waits for the work people wait on (tournaments/foreground.py)."""

from __future__ import annotations

import threading
import time

from tournaments.foreground import Foreground


def test_quiet_at_once_when_nothing_was_ever_busy() -> None:
    assert Foreground().wait_quiet(60.0, 60.0)


def test_a_waiter_goes_only_after_the_busy_work_ends_and_the_quiet_has_lasted() -> None:
    foreground, inside, gate = Foreground(), threading.Event(), threading.Event()
    order: list[tuple[str, float]] = []

    def work() -> None:
        with foreground.busy():
            inside.set()
            assert gate.wait(30)
            order.append(("end", time.monotonic()))

    def waiter() -> None:
        assert foreground.wait_quiet(0.2, 60.0)
        order.append(("quiet", time.monotonic()))

    threads = [threading.Thread(target=work)]
    threads[0].start()
    assert inside.wait(30)
    threads.append(threading.Thread(target=waiter))
    threads[1].start()
    gate.set()
    for thread in threads:
        thread.join(30)
    assert [what for what, _ in order] == ["end", "quiet"]
    assert order[1][1] - order[0][1] >= 0.2 and foreground.count == 0


def test_work_that_never_ends_holds_a_waiter_no_longer_than_it_said() -> None:
    foreground = Foreground()
    with foreground.busy(), foreground.busy():
        assert foreground.count == 2
        assert not foreground.wait_quiet(0.0, 0.05)
    assert foreground.count == 0


def test_busy_counts_down_when_the_work_fails() -> None:
    foreground = Foreground()
    try:
        with foreground.busy():
            raise RuntimeError("the page failed")
    except RuntimeError:
        pass
    assert foreground.count == 0 and foreground.wait_quiet(0.0, 1.0)
