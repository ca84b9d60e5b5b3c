"""Redis stopped for 20 s in the middle of a round, on the production setup (PostgreSQL,
Redis, ``serve``): no slip gets an error, no slip sent in time is late, the close answers,
and the round is ruled once Redis is back, with nothing restarted by hand. Redis here is a
server of the test's own (a free port), never the one of REDIS_URL."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import psycopg
import pytest

from tests.integration.conftest import (
    Procs,
    api_call,
    redis_server,
)
from tests.integration.test_faults import open_production_round

pytestmark = pytest.mark.integration

PLAYERS = 60
OUTAGE_SECONDS = 20.0


def test_redis_stopped_mid_round_loses_no_slip_and_the_round_rules_when_it_is_back(
    procs: Procs, tmp_path: Path, database_url: str
) -> None:
    hall = open_production_round(procs, tmp_path, database_url, PLAYERS)
    prepared, round_id, base, state = hall.prepared, hall.round_id, hall.api, hall.state

    hall.redis.signal(signal.SIGKILL)
    stopped = time.monotonic()
    answers = []
    for table in range(1, PLAYERS + 1):
        body = {"coordinates": "H8", "word": "MOT", "announced_score": 10, "client_id": f"slip-{table}"}
        answers.append(
            api_call(f"{base}/rounds/current/slips/", f"Player {prepared['tokens'][str(table)]}", body)
        )
    assert [status for status, _body in answers] == [201] * PLAYERS, answers
    assert not any(receipt["late"] for _status, receipt in answers)
    closed = api_call(f"{base}/rounds/current/close/", f"Token {prepared['api_token']}")
    assert closed[0] == 200, closed
    assert state()[0] == "closed"
    time.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - stopped)))

    redis_server(procs, hall.redis_port, tmp_path, "redis-again")  # empty: the close's task was never sent
    back = time.monotonic()
    while state()[0] != "adjudicated":
        assert time.monotonic() - back < 60, "the round was not ruled after Redis came back"
        time.sleep(0.5)
    with psycopg.connect(database_url, connect_timeout=10) as db:
        counted = db.execute(
            "SELECT count(*), count(*) FILTER (WHERE reason = 'late')"
            " FROM tournaments_ruling WHERE round_id = %s",
            [round_id],
        ).fetchone()
    assert counted == (PLAYERS, 0)
    print(f"ruled {time.monotonic() - back:.1f} s after Redis came back")
