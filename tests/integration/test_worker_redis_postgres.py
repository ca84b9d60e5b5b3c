"""The same event with ``DATABASE_URL`` and ``REDIS_URL`` set: PostgreSQL, the Redis broker
and two workers split as on two machines (docs/operator-guide.md, "Several workers ..."):
one takes only the ``solve`` queue, the other ``adjudicate`` and ``default``.

Needs both services: skipped without the URLs on a developer's machine, failed in CI.
Nothing of what the URLs point at is touched: the test creates its own database on that
PostgreSQL server (the role needs CREATEDB, as pytest-django does) and drops it at the end,
and uses Redis database 15 of that server (``ARBITER_TEST_REDIS_DB``), emptied first.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
import redis

from tests.integration.conftest import (
    MIGRATE_TIMEOUT,
    Procs,
    check_event,
    check_worker_log,
    child_env,
    comparable,
    manage,
    require_redis,
    simulate,
    worker_argv,
    worker_ready,
)

pytestmark = pytest.mark.integration


def _with_path(url: str, path: str) -> str:
    return urlsplit(url)._replace(path=path).geturl()


@pytest.fixture
def redis_url() -> str:
    url = require_redis()
    return _with_path(url, f"/{int(os.environ.get('ARBITER_TEST_REDIS_DB', '15'))}")


def test_event_through_two_workers_on_redis_and_postgres(
    procs: Procs, tmp_path: Path, database_url: str, redis_url: str, request: pytest.FixtureRequest
) -> None:
    redis.Redis.from_url(redis_url, socket_timeout=10).flushdb()

    def machine(name: str) -> dict[str, str]:
        return child_env(tmp_path / name, DATABASE_URL=database_url, REDIS_URL=redis_url)

    procs.run_ok("migrate", manage("migrate", "-v0"), machine("arbitrator"), tmp_path, MIGRATE_TIMEOUT)
    solver = procs.start("solver-worker", worker_argv("solve", "it-solver"), machine("solver"), tmp_path)
    other = procs.start(
        "adjudicator-worker", worker_argv("adjudicate,default", "it-adjudicator"), machine("other"), tmp_path
    )
    solver.wait_for(worker_ready("it-solver"))
    other.wait_for(worker_ready("it-adjudicator"))

    result = simulate(procs, "simulate-event", machine("arbitrator"), tmp_path, worker=True)

    def query(sql: str) -> list[tuple[Any, ...]]:
        with psycopg.connect(database_url, connect_timeout=10) as connection:
            return connection.execute(sql).fetchall()

    needed = check_event(result, query)
    # Each queue went to its own worker, and every task was done by one of them.
    solved = check_worker_log(solver.text(), "redis://")
    adjudicated = check_worker_log(other.text(), "redis://")
    assert solved == {"round_solve_task": needed["round_solve_task"]}
    # The adjudicator also takes the default queue: the passes ruling the slips as they
    # come (tournaments/services/rulings.py, round_rule_ahead), one or more a round opened.
    assert adjudicated.pop("round_rule_ahead_task", 0) >= 1
    assert adjudicated == {"round_adjudicate_task": needed["round_adjudicate_task"]}
    # PostgreSQL and Redis give exactly what SQLite gives with the tasks run in-process.
    # (A session fixture asked for only here: a skipped test does not wait for it.)
    assert comparable(result) == comparable(request.getfixturevalue("reference_event"))
