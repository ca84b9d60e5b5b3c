"""The embedded default's broker under load: several processes publish thousands of tasks
at once while a real Celery worker consumes them; the worker never stops (kombu issue
1551: a message read half written ended it with a JSONDecodeError) and every task is run
exactly once. A damaged message is set aside and logged, the worker goes on."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from tests.integration.conftest import ROOT, Proc, Procs

pytestmark = pytest.mark.integration

SENDERS = 4  # processes publishing at once
EACH = 1000
DRAIN_TIMEOUT = 240.0


def _env(folder: Path, transport: str | None = None) -> dict[str, str]:
    env = {**os.environ, "ARBITER_BROKER_TEST_FOLDER": str(folder), "PYTHONPATH": str(ROOT)}
    if transport is not None:
        env["ARBITER_BROKER_TEST_TRANSPORT"] = transport
    return env


def _worker(procs: Procs, folder: Path, env: dict[str, str]) -> Proc:
    for sub in ("queue", "processed", "control"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    worker = procs.start(
        "worker",
        [sys.executable, "-m", "celery", "-A", "tests.integration.broker_app", "worker", "--pool", "prefork",
         "--concurrency", "2", "--loglevel", "info", "--without-mingle", "--without-gossip",
         "--hostname", f"broker-test-{os.getpid()}@%h"],
        env, ROOT,
    )  # fmt: skip
    worker.wait_for(r"ready\.")
    return worker


def _done(folder: Path) -> list[str]:
    try:
        return (folder / "done.txt").read_text("ascii").split()
    except FileNotFoundError:
        return []


def test_thousands_of_tasks_from_several_processes_are_each_run_once(procs: Procs, tmp_path: Path) -> None:
    folder = tmp_path / "broker"
    env = _env(folder)
    worker = _worker(procs, folder, env)
    send = [sys.executable, "-m", "tests.integration.broker_app", "send"]
    senders = [
        procs.start(f"sender-{i}", [*send, str(i * EACH), str(EACH)], env, ROOT) for i in range(SENDERS)
    ]
    for sender in senders:
        assert sender.wait(DRAIN_TIMEOUT) == 0, sender.text()
    deadline = time.monotonic() + DRAIN_TIMEOUT
    while len(_done(folder)) < SENDERS * EACH and time.monotonic() < deadline:
        assert worker.popen.poll() is None, "the worker stopped:\n" + worker.text()[-3000:]
        time.sleep(0.2)
    time.sleep(1.0)  # a task run twice would show now
    done = _done(folder)
    assert worker.popen.poll() is None, "the worker stopped:\n" + worker.text()[-3000:]
    assert "JSONDecodeError" not in worker.text() and "Unrecoverable" not in worker.text()
    assert sorted(map(int, done)) == list(range(SENDERS * EACH)), (
        f"{len(done)} run, {len(set(done))} distinct, of {SENDERS * EACH}"
    )
    assert not [n for n in os.listdir(folder / "queue") if not n.startswith(".")]  # nothing left


def test_a_damaged_message_is_set_aside_and_the_worker_goes_on(procs: Procs, tmp_path: Path) -> None:
    folder = tmp_path / "broker"
    env = _env(folder)
    worker = _worker(procs, folder, env)
    # A file in the queue that is no message (a disk that filled up, a hand edit).
    bad = f"{int(time.monotonic() * 1000) - 10}_bad.celery.msg"
    (folder / "queue" / bad).write_text('{"body": ')
    send = [sys.executable, "-m", "tests.integration.broker_app", "send", "0", "5"]
    procs.run("sender", send, env, ROOT, 60)
    deadline = time.monotonic() + 60
    while len(_done(folder)) < 5 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert sorted(map(int, _done(folder))) == [0, 1, 2, 3, 4]
    assert worker.popen.poll() is None
    worker.wait_for(r"skipped an unreadable broker message \d+_bad\.celery\.msg")
    assert [p.name for p in (folder / "processed" / "damaged").iterdir()] == [bad]
