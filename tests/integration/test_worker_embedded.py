"""The embedded default for real: with no environment variable, ``python manage.py serve``
migrates, starts a Celery worker process on kombu's file-system broker and the site, all
on a SQLite file (here in ``tmp_path``), with no server to install. A whole simulated event
goes through that worker, and Ctrl-C or SIGTERM stops the site and the worker cleanly."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import urllib.request
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import (
    MIGRATE_TIMEOUT,
    READY_TIMEOUT,
    STOP_TIMEOUT,
    Proc,
    Procs,
    check_event,
    check_worker_log,
    child_env,
    comparable,
    free_port,
    manage,
    simulate,
)

pytestmark = pytest.mark.integration


def _serve(procs: Procs, tmp_path: Path, port: int) -> tuple[Proc, int]:
    """``manage.py serve`` with nothing configured; returns it and its worker's pid."""
    var = tmp_path / "var"
    procs.watch("worker (started by serve)", var / "worker.log")
    serve = procs.start("serve", manage("serve", "--port", str(port)), child_env(var), tmp_path)
    worker = serve.wait_for(r"Worker:\s+pid (\d+)", MIGRATE_TIMEOUT + 2 * READY_TIMEOUT)
    text = serve.text()
    assert f"Site:      http://127.0.0.1:{port}/" in text
    assert f"Database:  SQLite {var / 'arbiter.sqlite3'}" in text
    assert f"Broker:    file system, {var / 'broker'}" in text
    return serve, int(worker.group(1))


def _get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=10) as response:
        status: int = response.status
        return status


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_serve_runs_a_whole_event_through_its_worker(
    procs: Procs, tmp_path: Path, reference_event: dict[str, Any]
) -> None:
    serve, worker_pid = _serve(procs, tmp_path, port := free_port())
    assert _get(f"http://127.0.0.1:{port}/") == 200

    result = simulate(procs, "simulate-event", child_env(tmp_path / "var"), tmp_path, worker=True)

    database = tmp_path / "var" / "arbiter.sqlite3"

    def query(sql: str) -> list[tuple[Any, ...]]:
        with closing(sqlite3.connect(database)) as connection:
            return connection.execute(sql).fetchall()

    needed = check_event(result, query)
    worker_log = (tmp_path / "var" / "worker.log").read_text("utf-8")
    # Every task was done by the worker process, none in the command's own process; and
    # the slips were ruled as they came (tournaments/services/rulings.py, round_rule_ahead).
    done = check_worker_log(worker_log, "arbiterfs://")
    assert done.pop("round_rule_ahead_task", 0) >= 1
    assert done == needed
    # A worker gives exactly what the tasks give when run in the command itself.
    assert comparable(result) == comparable(reference_event)

    serve.signal(signal.SIGTERM)
    assert serve.wait(STOP_TIMEOUT + 30) == 0
    assert not _alive(worker_pid), "the worker outlived serve"
    assert "Warm shutdown" in (tmp_path / "var" / "worker.log").read_text("utf-8")


def test_ctrl_c_stops_the_site_and_the_worker(procs: Procs, tmp_path: Path) -> None:
    serve, worker_pid = _serve(procs, tmp_path, port := free_port())
    assert _get(f"http://127.0.0.1:{port}/") == 200
    assert _get(f"http://127.0.0.1:{port}/admin/login/") == 200

    serve.signal(signal.SIGINT)
    assert serve.wait(STOP_TIMEOUT + 30) == 0
    assert not _alive(worker_pid), "the worker outlived serve"
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=2):
        pass
    assert "Worker stopped (exit 0)" in serve.text()


def test_serve_refuses_a_busy_port_before_starting_anything(procs: Procs, tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        argv = manage("serve", "--port", str(port))
        done = procs.run("serve", argv, child_env(tmp_path / "var"), tmp_path, 60)
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "Worker:" not in done.stdout
    assert not (tmp_path / "var" / "worker.log").exists()
