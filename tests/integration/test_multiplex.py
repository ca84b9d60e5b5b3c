"""A multiplex as it runs (issue 16): a hub and three centres, each its own process with
its own database, talking over HTTP on loopback.

* the hub: ``serve`` on PostgreSQL and Redis (its worker on Redis), as in production;
* three centres on the embedded default (each a SQLite file in its own data folder),
  played by virtual players with ``multiplex_play``: Binche draws, Dakar and Rabat follow;
* Dakar reaches the hub through a relay that the test cuts for four rounds: Dakar plays
  them on the rounds it fetched ahead, and sends everything once the link is back;
* Rabat starts when the draw centre has placed seven rounds (21 minutes of game time at
  three minutes a round);
* the three then play to the end at the same time, the followers waiting on the hub.

The hub's merged ranking (its standings export) equals, byte for byte once the seat
columns (centre, table) are left out, the ranking of the same slips played in one event:
the draw centre's game restored with the twelve players of the three centres and all
their slips (``event_import`` with ``restore``, as the restore test does).

Needs PostgreSQL and Redis: skipped without them on a developer's machine, failed in CI.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import io
import json
import os
import re
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
import redis
from django.utils import translation

from tests.integration.conftest import (
    MIGRATE_TIMEOUT,
    READY_TIMEOUT,
    Procs,
    api_call,
    child_env,
    free_port,
    manage,
    require_redis,
)

pytestmark = pytest.mark.integration

#: The settings of the hub's event and of every centre's: a centre joins only with the hub's.
#: A solo needs 8 players: none at a centre of 4, given over the 12 of the multiplex.
#: The draws are numbered so that every run plays the same racks: of 5,600 random English
#: games 3 end within 6 rounds on a rack without a legal move, one at its first
#: (``python -m solver play --seed 3411``), which the draw centre rightly ends there.
SETTINGS = ("--language", "english", "--notation", "gcg", "--solo-min-players", "8", "--random-seed", "1")
PLAYERS = 4
#: Bounds of a centre's run (seconds): a whole game with its syncs takes well under a minute.
PLAY_TIMEOUT = 600.0


class Relay:
    """A TCP relay to the hub that the test can cut: while cut, each connection is closed
    as soon as it is accepted (the centre sees the hub drop it, as on a failing link)."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.cut = threading.Event()
        self.refused = 0
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.server.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return  # closed
            if self.cut.is_set():
                self.refused += 1
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=10)
            except OSError:
                client.close()
                continue
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def redis_url() -> str:
    url = require_redis()
    url = (
        urlsplit(url)
        ._replace(path=f"/{int(os.environ.get('ARBITER_TEST_MULTIPLEX_REDIS_DB', '13'))}")
        .geturl()
    )
    redis.Redis.from_url(url, socket_timeout=10).flushdb()
    return url


@pytest.fixture
def relay() -> Iterator[Relay]:
    # The hub's port is only known later: the relay is pointed at it then.
    made = Relay(0)
    try:
        yield made
    finally:
        made.close()


def _created(out: str) -> str:
    match = re.search(r"Event (\d+) created", out)
    assert match, out
    return match.group(1)


class Centre:
    """One centre: its own data folder (SQLite), its event, its commands."""

    def __init__(self, procs: Procs, folder: Path, name: str, seed: int, levels: str) -> None:
        self.procs, self.folder, self.name, self.seed, self.levels = procs, folder, name, seed, levels
        self.env = child_env(folder / name.lower())
        self.runs = 0
        out = self.run("event-create", "event_create", f"Multiplex, {name}", *SETTINGS)
        self.event = _created(out)

    def run(self, what: str, *argv: str, timeout: float = READY_TIMEOUT) -> str:
        self.runs += 1
        name = f"{self.name.lower()}-{self.runs:02d}-{what}"
        return self.procs.run_ok(name, manage(*argv), self.env, self.folder, timeout)

    def play(self, until: int | None = None) -> dict[str, Any]:
        argv = ["multiplex_play", "--event", self.event, "--seed", str(self.seed)]
        argv += ["--players", str(PLAYERS), "--levels", self.levels]
        if until is not None:
            argv += ["--until-round", str(until)]
        out = self.run(f"play-{until or 'end'}", *argv, "--json", timeout=PLAY_TIMEOUT)
        played: dict[str, Any] = json.loads(out)
        # The whole report on a failure: "ended" and "last_error" tell why a run stopped short.
        assert until is None or played["placed"] == until, played
        return played

    def play_to_the_end_in_the_background(self) -> Any:
        self.runs += 1
        argv = ["multiplex_play", "--event", self.event, "--seed", str(self.seed), "--json"]
        return self.procs.start(
            f"{self.name.lower()}-{self.runs:02d}-play-end", manage(*argv), self.env, self.folder
        )

    def export(self, kind: str) -> bytes:
        out = self.folder / f"{self.name.lower()}-{kind}-{self.runs}.out"
        self.run(f"export-{kind}", "export", kind, "--event", self.event, "--out", str(out))
        return out.read_bytes()


def french(message: str, **values: object) -> str:
    with translation.override("fr"):
        return translation.gettext(message) % values


def _hub(
    procs: Procs, tmp_path: Path, database_url: str, redis_url: str, centres: tuple[str, ...]
) -> tuple[Callable[..., str], str, dict[str, str], int]:
    """A hub serving a multiplex on PostgreSQL and Redis, ``centres`` added (the first draws):
    how to run its commands, its event, the centres' keys, its port."""
    hub_env = child_env(tmp_path / "hub", DATABASE_URL=database_url, REDIS_URL=redis_url)

    def on_hub(what: str, *argv: str) -> str:
        return procs.run_ok(f"hub-{what}", manage(*argv), hub_env, tmp_path, READY_TIMEOUT)

    procs.run_ok("hub-migrate", manage("migrate", "-v0"), hub_env, tmp_path, MIGRATE_TIMEOUT)
    hub_event = _created(on_hub("event-create", "event_create", "Multiplex of the test", *SETTINGS))
    on_hub("multiplex-create", "multiplex_create", "--event", hub_event, "--max-delay", "90")
    keys = {
        name: on_hub(f"centre-{name}", "centre_add", "--event", hub_event, "--name", name,
                     *(["--draws"] if index == 0 else [])).split()[-1]
        for index, name in enumerate(centres)
    }  # fmt: skip
    port = free_port()
    hub = procs.start("hub-serve", manage("serve", "--port", str(port)), hub_env, tmp_path)
    hub.wait_for(r"Site:\s+http://127\.0\.0\.1:\d+/", MIGRATE_TIMEOUT + READY_TIMEOUT)
    return on_hub, hub_event, keys, port


@pytest.mark.django_db(transaction=True)  # the one-hall event is played in the test's database
def test_a_hub_and_three_centres_as_processes(
    procs: Procs, tmp_path: Path, database_url: str, redis_url: str, relay: Relay
) -> None:
    on_hub, hub_event, keys, port = _hub(
        procs, tmp_path, database_url, redis_url, ("Binche", "Dakar", "Rabat")
    )
    relay.target = port
    direct = f"http://127.0.0.1:{port}"

    # One perfect player in all, players of every level in each centre: a solo (8 players
    # needed) is given only over the twelve, whoever alone found a top among them.
    binche = Centre(procs, tmp_path, "Binche", seed=1, levels="6,4,3,2")
    dakar = Centre(procs, tmp_path, "Dakar", seed=2, levels="5,4,3,1")
    rabat = Centre(procs, tmp_path, "Rabat", seed=3, levels="5,4,2,1")
    binche.run("join", "multiplex_join", "--event", binche.event, "--hub", direct, "--key", keys["Binche"])
    dakar.run("join", "multiplex_join", "--event", dakar.event, "--hub", f"http://127.0.0.1:{relay.port}",
              "--key", keys["Dakar"])  # fmt: skip

    # The draw centre leads; Dakar follows three rounds behind and fetches ahead as it
    # goes (each close and placement syncs) and when its arbitrator syncs.
    binche.play(until=6)
    ahead = dakar.play(until=3)
    assert ahead == {**ahead, "placed": 3, "waiting": 0, "last_error": ""}
    binche.play(until=7)
    assert "the hub has served up to game 1, round 8" in dakar.run(
        "sync", "multiplex_sync", "--event", dakar.event
    )

    # Dakar's link is cut: it plays rounds 4 to 7 on the racks and tops it fetched.
    relay.cut.set()
    offline = dakar.play(until=7)
    assert offline["placed"] == 7 and offline["waiting"] >= 4, offline
    assert "cannot be reached" in offline["last_error"] and relay.refused > 0, offline

    # Rabat starts now: seven rounds (21 minutes of game time) after the draw centre.
    rabat.run("join", "multiplex_join", "--event", rabat.event, "--hub", direct, "--key", keys["Rabat"])
    rabat.play(until=2)

    # The link is back; the three play to the end at the same time.
    relay.cut.clear()
    running = [c.play_to_the_end_in_the_background() for c in (binche, dakar, rabat)]
    ends = []
    for proc in running:
        assert proc.wait(PLAY_TIMEOUT) == 0, proc.text()[-3000:]
        ends.append(json.loads([line for line in proc.text().splitlines() if line.startswith("{")][-1]))
    assert len({(e["placed"], e["ended"]) for e in ends}) == 1, ends
    assert all(e["waiting"] == 0 and e["last_error"] == "" for e in ends), ends
    rounds = ends[0]["placed"]
    assert rounds > 7 and ends[0]["ended"]

    with psycopg.connect(database_url, connect_timeout=10) as db:
        received: dict[str, int] = dict(
            db.execute(
                """SELECT c.name, COUNT(*) FROM tournaments_centreruling r
                   JOIN tournaments_centreplayer p ON p.id = r.player_id
                   JOIN tournaments_centre c ON c.id = p.centre_id GROUP BY c.name"""
            ).fetchall()
        )
        first_sights: dict[str, dt.datetime] = dict(
            db.execute(
                """SELECT c.name, MIN(s.rack_at) FROM tournaments_serving s
                   JOIN tournaments_centre c ON c.id = s.centre_id GROUP BY c.name"""
            ).fetchall()
        )
        (seventh,) = db.execute("SELECT placed_at FROM tournaments_hubround WHERE number = 7").fetchall()[0]
    # Every ruling of every centre reached the hub, Dakar's sent after the link came back.
    assert received == dict.fromkeys(keys, PLAYERS * rounds)
    assert first_sights["Rabat"] > seventh > first_sights["Dakar"]

    out = tmp_path / "merged.csv"
    on_hub("export", "export", "standings", "--event", hub_event, "--out", str(out))
    merged = out.read_bytes()
    rows = list(csv.DictReader(io.StringIO(merged.decode("utf-8-sig")), delimiter=";"))
    assert list(rows[0])[:3] == ["rang", "centre", "table"] and len(rows) == 3 * PLAYERS  # a French hub
    # Solos given over the twelve: none at a centre of four (8 needed), some in the merge.
    assert sum(int(r["solos"]) for r in rows) > 0
    one = _one_hall({c.name: c.export("record") for c in (binche, dakar, rabat)}, binche.name)
    assert _without(merged, {"centre", "table"}) == _without(one, {"table"})


def _without(data: bytes, columns: set[str]) -> bytes:
    """The CSV without ``columns``, written again as the exports write it."""
    from tournaments.exports import csv_bytes

    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"))
    keep = [i for i, name in enumerate(rows[0]) if name not in columns]
    return csv_bytes([rows[0][i] for i in keep], [[row[i] for i in keep] for row in rows[1:]])


def _one_hall(records: dict[str, bytes], draws: str) -> bytes:
    """The standings export of one event where every centre's players play the draw
    centre's game with the slips they handed in at their centre; the tables numbered so
    that ties fall as on the hub (by table at the centre, then by name)."""
    from tournaments.exports import standings_csv
    from tournaments.services import transfer

    files = {name: transfer.read_game_file(data) for name, data in records.items()}
    seats = sorted(
        ((p.table, p.name, centre, p) for centre, f in files.items() for p in f.players),
        key=lambda seat: (seat[0], seat[1]),
    )
    table = {(centre, p.table): i for i, (_t, _n, centre, p) in enumerate(seats, start=1)}
    game = files[draws]
    game.players = [replace(p, table=table[centre, p.table]) for _t, _n, centre, p in seats]
    game.slips = [replace(s, table=table[centre, s.table]) for centre, f in files.items() for s in f.slips]
    game.corrections = [
        replace(c, table=table[centre, c.table]) for centre, f in files.items() for c in f.corrections
    ]
    event = transfer.event_import(name="One hall", starts_on=dt.date.today(), game_file=game, restore=True)
    return standings_csv(event)


@pytest.mark.django_db(transaction=True)
def test_a_centre_key_writes_neither_another_centres_tables_nor_an_open_round(
    procs: Procs, tmp_path: Path, database_url: str, redis_url: str
) -> None:
    """Issue 30, item 8, over real HTTP: with the key of its centre of four players, a
    forged upload sends the results of twelve tables (the security probe's), then the
    results of a round the centre fetched ahead and never closed. Both refused, and the
    hub's merged ranking stays as it was: the same rows, the same totals."""
    on_hub, hub_event, keys, port = _hub(procs, tmp_path, database_url, redis_url, ("Binche", "Dakar"))
    direct = f"http://127.0.0.1:{port}"
    binche = Centre(procs, tmp_path, "Binche", seed=1, levels="6,4,3,2")
    dakar = Centre(procs, tmp_path, "Dakar", seed=2, levels="5,4,3,1")
    for centre in (binche, dakar):
        centre.run(
            "join", "multiplex_join", "--event", centre.event, "--hub", direct, "--key", keys[centre.name]
        )
    binche.play(until=3)
    played = dakar.play(until=2)
    assert played == {**played, "placed": 2, "waiting": 0, "last_error": ""}

    def merged() -> list[dict[str, str]]:
        out = tmp_path / "merged.csv"
        on_hub("export", "export", "standings", "--event", hub_event, "--out", str(out))
        return list(csv.DictReader(io.StringIO(out.read_bytes().decode("utf-8-sig")), delimiter=";"))

    before = merged()  # compared whole after each refusal: rows, their order, every total
    assert sorted((r["centre"], r["nom"]) for r in before) == sorted(
        (name, f"{name} {t}") for name in ("Binche", "Dakar") for t in range(1, PLAYERS + 1)
    )
    auth = f"Centre {keys['Dakar']}"
    results = f"{direct}/api/hub/games/1/rounds/{{}}/results/"

    def forged(tables: range) -> dict[str, Any]:
        return {
            "players": [{"table": t, "name": f"Binche {t}"} for t in tables],
            "rulings": [{"table": t, "reason": "ok", "move_score": 0, "credited": 0} for t in tables],
            "taking_part": len(tables),
        }

    status, body = api_call(results.format(1), auth, forged(range(1, 13)))
    assert status == 400, body
    # In French: the hub speaks its default language to a centre that asks for none.
    assert body["error"]["message"] == french(
        "tables not on this centre's roster: %(tables)s. Nothing of these results was taken.",
        tables="5, 6, 7, 8, 9, 10, 11, 12",
    )
    assert merged() == before

    # Round 3: Dakar's software fetched it ahead with its top; Dakar has not closed it.
    status, served = api_call(f"{direct}/api/hub/games/1/rounds/3/?top=1", auth, method="GET")
    assert status == 200 and served["closed_at"] is None and served["top"] is not None, served
    status, body = api_call(results.format(3), auth, forged(range(1, PLAYERS + 1)))
    assert status == 400, body
    assert body["error"]["message"] == french(
        "round %(number)s of game %(game)s is not closed at this centre:"
        " its results are taken after its close",
        number=3,
        game=1,
    )
    assert merged() == before
    with psycopg.connect(database_url, connect_timeout=10) as db:
        (kept,) = db.execute(
            """SELECT COUNT(*) FROM tournaments_centreruling r JOIN tournaments_serving s
               ON s.id = r.serving_id JOIN tournaments_centre c ON c.id = s.centre_id
               WHERE c.name = 'Dakar'"""
        ).fetchone() or (None,)
        names = db.execute(
            """SELECT p.name FROM tournaments_centreplayer p JOIN tournaments_centre c ON c.id = p.centre_id
               WHERE c.name = 'Dakar' ORDER BY p.table"""
        ).fetchall()
    assert kept == PLAYERS * 2 and [n for (n,) in names] == [f"Dakar {t}" for t in range(1, PLAYERS + 1)]
