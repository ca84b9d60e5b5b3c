"""What the code under test commits runs its after-commit work, in a test that rolls back.

A test in the test case's transaction (pytest-django's ``db``) never commits, so the work
the services leave for after their commit (a draw's solving, a close's rulings, a
backup, a hub's sync: ``transaction.on_commit``) would never run, and a whole event could
only be played in a transactional test, which empties every table after it (most of the
suite's time). Here a block of the code under test that would be the outermost one in
production runs its callbacks when it exits without error, in their order, as the commit
would; one rolled back runs none (Django drops a rolled-back savepoint's callbacks); and
``on_commit`` called outside any block of the code under test runs at once, as under
autocommit. What stays transactional: tests of locks and races between connections,
of threads and processes reading what another connection wrote, and of the commit itself.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import TestCase

logger = logging.getLogger("django.db.backends.base")


def _only_the_tests(connection: BaseDatabaseWrapper) -> bool:
    """Inside the test case's blocks and no block of the code under test: what production
    would run in autocommit mode."""
    blocks = connection.atomic_blocks
    return bool(blocks) and all(getattr(block, "_from_testcase", False) for block in blocks)


def _call(func: Callable[[], Any], robust: bool) -> None:
    if not robust:
        func()
        return
    try:
        func()
    except Exception as error:  # as Django's own commit does for a robust callback
        logger.error("Error calling %s in on_commit() (%s).", func.__qualname__, error, exc_info=True)


def _run_committed(connection: BaseDatabaseWrapper) -> None:
    # Each taken off before it runs: a callback's own blocks commit (and run theirs)
    # before the next callback, as after a real commit.
    while connection.run_on_commit:
        entry: Any = connection.run_on_commit.pop(0)
        _, func, robust = entry
        _call(func, robust)


@contextmanager
def commits_emulated() -> Iterator[None]:
    exit_block = transaction.Atomic.__exit__
    on_commit = BaseDatabaseWrapper.on_commit
    capture = TestCase.captureOnCommitCallbacks
    # A test capturing the callbacks (django_capture_on_commit_callbacks) runs them itself.
    capturing: list[bool] = []

    def __exit__(self: transaction.Atomic, exc_type: Any, exc_value: Any, tb: Any) -> Any:
        result = exit_block(self, exc_type, exc_value, tb)
        connection = transaction.get_connection(self.using)
        if (
            exc_type is None
            and not getattr(self, "_from_testcase", False)
            and not capturing
            and not connection.needs_rollback
            and _only_the_tests(connection)
        ):
            _run_committed(connection)
        return result

    def on_commit_now(self: BaseDatabaseWrapper, func: Callable[[], Any], robust: bool = False) -> None:
        if _only_the_tests(self) and not capturing:
            _call(func, robust)
        else:
            on_commit(self, func, robust)

    @contextmanager
    def captured(cls: type[TestCase], *, using: str = "default", execute: bool = False) -> Iterator[Any]:
        connection = connections[using]
        start = len(connection.run_on_commit)
        capturing.append(True)
        try:
            with capture.__func__(cls, using=using, execute=execute) as callbacks:  # type: ignore[attr-defined]
                yield callbacks
        finally:
            capturing.pop()
            if _only_the_tests(connection):
                # Handed to the test (and run if it asked): not to be run again by the
                # next block of the code under test.
                del connection.run_on_commit[start:]

    transaction.Atomic.__exit__ = __exit__  # type: ignore[method-assign]
    BaseDatabaseWrapper.on_commit = on_commit_now  # type: ignore[method-assign]
    TestCase.captureOnCommitCallbacks = classmethod(captured)  # type: ignore[assignment,method-assign]
    try:
        yield
    finally:
        transaction.Atomic.__exit__ = exit_block  # type: ignore[method-assign]
        BaseDatabaseWrapper.on_commit = on_commit  # type: ignore[method-assign]
        TestCase.captureOnCommitCallbacks = capture  # type: ignore[method-assign]
