"""PostgreSQL stopped for 35 s in the middle of a round, then started again, on the
production setup (``serve`` on PostgreSQL and Redis): while it is away the API answers
within the pool's wait for a connection, with a server error in its JSON shape, never a
hang; once it is back the same processes accept slips again within 15 s, and the round is
closed and ruled, nothing of Arbiter restarted.

The cluster is the local one serving DATABASE_URL, found with ``pg_lsclusters`` and
stopped and started with ``pg_ctlcluster`` (postgresql-common, as .ci/run starts it), as
root or through ``sudo -n``: skipped without them on a developer's machine, failed in CI.
Stopped and started rather than restarted in one go: a restart is over before a request
could be sent while it is away."""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest

from tests.integration.conftest import (
    Procs,
    api_call,
    require_program,
    unavailable,
)
from tests.integration.test_faults import open_production_round

pytestmark = pytest.mark.integration

PLAYERS = 12
#: How long a request may take while PostgreSQL is down: the pool's wait for a connection
#: (2 s, arbiter/settings/database.py) and a margin. Longer is a hang.
DOWN_ANSWER_SECONDS = 8.0
#: Longer than the first five reconnection attempts of a pool take (1, 2, 4, 8 and 16 s
#: apart): a pool left to its own backoff waits as long again before it tries once more.
OUTAGE_SECONDS = 35.0
#: From PostgreSQL answering again to a slip accepted, with nothing restarted.
RECOVERY_SECONDS = 15.0
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def _cluster_control(database_url: str) -> list[str]:
    """``pg_ctlcluster VERSION NAME``, with ``sudo -n`` when not root, for the local cluster
    that serves ``database_url`` (skip/fail when there is none that this test may stop)."""
    require_program("pg_lsclusters")
    require_program("pg_ctlcluster")
    parts = urlsplit(database_url)
    if parts.hostname not in LOCAL_HOSTS:
        unavailable(f"DATABASE_URL is on {parts.hostname}: stopping it needs a cluster of this machine")
    port = parts.port or 5432
    listed = subprocess.run(["pg_lsclusters", "-h"], capture_output=True, text=True, timeout=30, check=True)
    # Its columns: version, cluster, port, status, owner, data folder, log file.
    found = [line.split() for line in listed.stdout.splitlines() if len(line.split()) >= 4]
    cluster = next((row for row in found if row[2] == str(port) and row[3].startswith("online")), None)
    if cluster is None:
        unavailable(f"no cluster of pg_lsclusters is online on port {port}:\n{listed.stdout}")
    if os.geteuid() == 0:
        return ["pg_ctlcluster", cluster[0], cluster[1]]
    require_program("sudo")
    if subprocess.run(["sudo", "-n", "true"], capture_output=True, timeout=30, check=False).returncode:
        unavailable("pg_ctlcluster needs root: this user cannot sudo without a password")
    return ["sudo", "-n", "pg_ctlcluster", cluster[0], cluster[1]]


@contextmanager
def _stopped(control: list[str]) -> Iterator[None]:
    """PostgreSQL stopped for the block (fast: the pools' connections are cut, as in a
    crash), started again when it ends, whatever happened inside it."""
    subprocess.run([*control, "stop", "-m", "fast"], check=True, timeout=120)
    try:
        yield
    finally:
        subprocess.run([*control, "start"], check=True, timeout=120)


def _timed(call: Callable[[], tuple[int, Any]]) -> tuple[float, tuple[int, Any]]:
    started = time.monotonic()
    answer = call()
    return time.monotonic() - started, answer


def _server_error(answer: tuple[int, Any]) -> str:
    """The reference of a server error in the API's JSON shape."""
    status, body = answer
    assert 500 <= status < 600, answer
    assert isinstance(body, dict) and body["error"]["code"] == "server_error", answer
    reference: str = body["error"]["detail"]["reference"]
    assert reference in body["error"]["message"]
    return reference


def test_postgres_restarted_mid_round_is_a_clear_error_then_work_goes_on_in_the_same_processes(
    procs: Procs, tmp_path: Path, database_url: str
) -> None:
    control = _cluster_control(database_url)
    hall = open_production_round(procs, tmp_path, database_url, PLAYERS)
    serve, prepared, round_id, base, state = hall.serve, hall.prepared, hall.round_id, hall.api, hall.state
    worker_pid = int(serve.wait_for(r"Worker:\s+pid (\d+)", 10).group(1))
    web_pid = int(serve.wait_for(r"Web:\s+pid (\d+)", 10).group(1))
    arbitrator = f"Token {prepared['api_token']}"

    def slip(table: int) -> tuple[int, Any]:
        # As a phone sends it: the same client_id each time it tries again.
        body = {"coordinates": "H8", "word": "MOT", "announced_score": 10, "client_id": f"slip-{table}"}
        token = f"Player {prepared['tokens'][str(table)]}"
        return api_call(f"{base}/rounds/current/slips/", token, body, timeout=DOWN_ANSWER_SECONDS + 10)

    assert slip(1)[0] == 201  # the pools hold connections from before the outage

    with _stopped(control):
        down = time.monotonic()
        # A phone's slip and the arbitrator's page: each in its own thread of the web server.
        took, answer = _timed(lambda: slip(2))
        assert took < DOWN_ANSWER_SECONDS, f"a slip waited {took:.1f} s for the stopped database"
        references = [_server_error(answer)]
        took, answer = _timed(
            lambda: api_call(
                f"{base}/rounds/current/", arbitrator, method="GET", timeout=DOWN_ANSWER_SECONDS + 10
            )
        )
        assert took < DOWN_ANSWER_SECONDS, f"the arbitrator waited {took:.1f} s for the stopped database"
        references.append(_server_error(answer))
        time.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - down)))
    back = time.monotonic()
    for reference in references:  # the cause of each, in the server's log under its reference
        serve.wait_for(rf"server error {reference}: \w+ /api/", 10)

    while (answer := slip(2))[0] != 201:
        _server_error(answer)  # meanwhile, the same clear error
        assert time.monotonic() - back < RECOVERY_SECONDS, f"no slip accepted {RECOVERY_SECONDS:.0f} s after"
        time.sleep(0.5)
    recovered = time.monotonic() - back
    answers = [slip(table) for table in range(3, PLAYERS + 1)]
    assert [status for status, _body in answers] == [201] * (PLAYERS - 2), answers
    closed = api_call(f"{base}/rounds/current/close/", arbitrator)
    assert closed[0] == 200, closed
    while state()[0] != "adjudicated":
        assert time.monotonic() - back < 60 + RECOVERY_SECONDS, "the round was not ruled after the restart"
        time.sleep(0.5)
    with psycopg.connect(database_url, connect_timeout=10) as db:
        counted = db.execute(
            "SELECT (SELECT count(*) FROM tournaments_ruling WHERE round_id = %(r)s),"
            " (SELECT count(*) FROM tournaments_slip WHERE round_id = %(r)s)",
            {"r": round_id},
        ).fetchone()
    assert counted == (PLAYERS, PLAYERS)  # every player ruled, every slip once

    # Nothing restarted: the same serve, web server and worker as before the outage.
    assert serve.popen.poll() is None
    for pid in (web_pid, worker_pid):
        os.kill(pid, 0)  # raises if it is gone
    assert not re.search(r"(Web server|Worker) restarted \(pid", serve.text()), serve.text()[-3000:]
    print(f"slips accepted {recovered:.1f} s after PostgreSQL was back")
