"""Faults injected into a running ``serve``, as a hall would meet them: the worker's main
process killed in the middle of a ruling, the web server killed while phones send slips.
Nothing is restarted by hand; every acknowledged slip is kept and every round is ruled.
(Redis stopped mid-round: tests/integration/test_faults_redis.py.)"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import time
import urllib.error
import urllib.request
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import (
    MIGRATE_TIMEOUT,
    READY_TIMEOUT,
    Proc,
    Procs,
    child_env,
    free_port,
    manage,
    redis_server,
    require_program,
)

pytestmark = pytest.mark.integration

PLAYERS = 300


def prepare_code(players: int) -> str:
    """Run in the product's own environment (manage.py shell): an event of ``players``
    players, its first rack drawn (the solve task goes to serve's worker); prints the ids,
    the players' tokens and an API token of the arbitrator."""
    return f"""
import json
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from tournaments.services.demo import event_demo
from tournaments.services.players import player_add, player_token_issue
user = get_user_model().objects.create_superuser("arbitre", "", "x")
event = event_demo(by=user)
for index in range(5, {players} + 1):
    player_add(event=event, name=f"Player {{index}}")
round = event.games.get().rounds.get()
tokens = {{p.table: player_token_issue(event=event, code=event.code, seat=p.seat_code).key
          for p in event.players.all()}}
print(json.dumps({{"event": event.pk, "round": round.pk, "code": event.code, "tokens": tokens,
                  "api_token": Token.objects.create(user=user).key}}))
"""


#: The round opened, a slip for every player (half on the top, half a word that is
#: not one), then closed: the ruling of PLAYERS slips goes to serve's worker.
PLAY_AND_CLOSE = """
import sys
from tournaments.models import Round
from tournaments.services.rounds import round_close, round_open
from tournaments.services.slips import slip_submit
round = Round.objects.get(pk=int(sys.argv[-1]))
round = round_open(round=round, seconds=600)
coordinates, word = round.tops[0].split()
for player in round.game.event.players.all():
    good = player.table % 2 == 0
    slip_submit(round=round, player=player, coordinates=coordinates,
                word=word if good else "Q" * len(word), announced_score=round.top_score)
round_close(round=round)
print("closed")
"""


OPEN = """
import sys
from tournaments.models import Round
from tournaments.services.rounds import round_open
round_open(round=Round.objects.get(pk=int(sys.argv[-1])), seconds=600)
"""


@dataclass
class ProductionRound:
    """``serve`` on PostgreSQL with a Redis of the test's own, an event of ``players``
    players and its round open: what the fault tests of the production setup break."""

    serve: Proc
    redis: Proc
    redis_port: int
    env: dict[str, str]
    port: int
    prepared: dict[str, Any]
    database_url: str

    @property
    def round_id(self) -> int:
        return int(self.prepared["round"])

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/events/{self.prepared['event']}"

    def state(self) -> tuple[str, bool]:
        """The round's state, and whether it is solved, read from the database itself."""
        import psycopg

        with psycopg.connect(self.database_url, connect_timeout=10) as db:
            found = db.execute(
                "SELECT state, solved_at IS NOT NULL FROM tournaments_round WHERE id = %s", [self.round_id]
            ).fetchone()
            assert found is not None
            return str(found[0]), bool(found[1])


def open_production_round(procs: Procs, tmp_path: Path, database_url: str, players: int) -> ProductionRound:
    require_program("redis-server")
    redis_port, port = free_port(), free_port()
    redis = redis_server(procs, redis_port, tmp_path, "redis")
    env = child_env(
        tmp_path / "var", DATABASE_URL=database_url, REDIS_URL=f"redis://127.0.0.1:{redis_port}/0"
    )
    procs.watch("worker (started by serve)", tmp_path / "var" / "worker.log")
    serve = procs.start("serve", manage("serve", "--port", str(port)), env, tmp_path)
    serve.wait_for(r"Worker:\s+pid \d+", MIGRATE_TIMEOUT + 2 * READY_TIMEOUT)
    prepared = json.loads(
        procs.run_ok(
            "prepare", manage("shell", "-c", prepare_code(players)), env, tmp_path, 300
        ).splitlines()[-1]
    )
    hall = ProductionRound(serve, redis, redis_port, env, port, prepared, database_url)
    started = time.monotonic()
    while not hall.state()[1]:
        assert time.monotonic() - started < 60, "the rack was not solved"
        time.sleep(0.2)
    code = OPEN.replace("sys.argv[-1]", repr(str(hall.round_id)))
    procs.run_ok("open", manage("shell", "-c", code), env, tmp_path, 120)
    return hall


def _serve(procs: Procs, var: Path, port: int) -> tuple[Any, int]:
    procs.watch("worker (started by serve)", var / "worker.log")
    serve = procs.start("serve", manage("serve", "--port", str(port)), child_env(var), var.parent)
    worker = serve.wait_for(r"Worker:\s+pid (\d+)", MIGRATE_TIMEOUT + 2 * READY_TIMEOUT)
    return serve, int(worker.group(1))


def _query(database: Path, sql: str, *args: object) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(database, timeout=30)) as connection:
        return connection.execute(sql, args).fetchall()


def _solved(database: Path, round_id: int) -> bool:
    return (
        _query(database, "SELECT solved_at FROM tournaments_round WHERE id = ?", round_id)[0][0] is not None
    )


def _wait(what: str, timeout: float, check: Any) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if check():
            return time.monotonic() - started
        time.sleep(0.2)
    pytest.fail(f"{what}: not within {timeout:.0f} s")


def _shell(procs: Procs, var: Path, code: str, *args: str) -> str:
    argv = manage("shell", "-c", code.replace("sys.argv[-1]", repr(args[-1])) if args else code)
    return procs.run_ok("shell", argv, child_env(var), var.parent, 300)


def test_a_worker_killed_mid_ruling_has_its_round_ruled_within_30_s(procs: Procs, tmp_path: Path) -> None:
    var = tmp_path / "var"
    serve, worker_pid = _serve(procs, var, free_port())
    prepared = json.loads(_shell(procs, var, prepare_code(PLAYERS)).strip().splitlines()[-1])
    database = var / "arbiter.sqlite3"
    round_id = prepared["round"]
    _wait("the rack solved by the worker", 60, lambda: _solved(database, round_id))

    _shell(procs, var, PLAY_AND_CLOSE, str(round_id))
    # The worker's main process, at once: its child has the ruling, or is about to take it.
    os.kill(worker_pid, signal.SIGKILL)
    killed = time.monotonic()

    def ruled() -> bool:
        state = _query(database, "SELECT state FROM tournaments_round WHERE id = ?", round_id)[0][0]
        return bool(state in ("adjudicated", "placed"))

    _wait("the round ruled after the worker was killed (nothing restarted by hand)", 30, ruled)
    took = time.monotonic() - killed
    rulings = _query(
        database, "SELECT count(*), sum(is_top) FROM tournaments_ruling WHERE round_id = ?", round_id
    )
    assert rulings[0] == (PLAYERS, PLAYERS // 2), rulings
    serve.wait_for(r"Worker restarted \(pid \d+\)", 10)
    print(f"ruled {took:.1f} s after the worker's main process was killed")


def _post(url: str, token: str, body: dict[str, Any]) -> int:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Player {token}", "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def _send_until_acknowledged(url: str, token: str, body: dict[str, Any], timeout: float = 30) -> None:
    """As phone.js does: the same slip (same client_id) again until the server answers."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if _post(url, token, body) in (200, 201):
                return
        except OSError:  # refused or reset: the server is restarting
            pass
        time.sleep(0.3)
    pytest.fail(f"slip {body['client_id']} never acknowledged")


def test_a_killed_web_server_is_restarted_and_every_acknowledged_slip_kept(
    procs: Procs, tmp_path: Path
) -> None:
    var = tmp_path / "var"
    port = free_port()
    serve, _worker = _serve(procs, var, port)
    web_pid = int(serve.wait_for(r"Web:\s+pid (\d+)", 10).group(1))
    prepared = json.loads(_shell(procs, var, prepare_code(PLAYERS)).strip().splitlines()[-1])
    database = var / "arbiter.sqlite3"
    round_id = prepared["round"]
    _wait("the rack solved", 60, lambda: _solved(database, round_id))
    _shell(procs, var, OPEN, str(round_id))
    url = f"http://127.0.0.1:{port}/api/events/{prepared['event']}/rounds/current/slips/"
    sent = []
    for table in range(1, 121):
        if table == 40:
            os.kill(web_pid, signal.SIGKILL)  # the kernel's OOM killer, say
        body = {"coordinates": "H8", "word": "MOT", "announced_score": 10, "client_id": f"slip-{table}"}
        _send_until_acknowledged(url, prepared["tokens"][str(table)], body)
        sent.append(body["client_id"])
    serve.wait_for(r"Web server restarted \(pid \d+\)", 30)
    stored = _query(
        database,
        "SELECT client_id, count(*) FROM tournaments_slip WHERE round_id = ? GROUP BY client_id",
        round_id,
    )
    assert dict(stored) == dict.fromkeys(sent, 1)  # every acknowledged slip, none twice
