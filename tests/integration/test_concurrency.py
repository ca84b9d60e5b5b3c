"""Slips arrive while the arbitrator closes the round: none lost, none counted late.

Threads submit slips, each thread with its own database connection, while another thread
closes the round; the close's adjudication runs in the closing thread as the last slips
still arrive. Then, for every round:

* every slip a submitter was given back is in the database, and nothing else is;
* a slip is on time (``late=False``) exactly when it was received before the close, and
  late otherwise, as its sender was told, with its history entry;
* each player's current slip is the last on-time one, and no late slip is current;
* the adjudication counts exactly the on-time current slips: everyone plays the top, so a
  player with an on-time slip is credited the top and every other player 0.

It runs many rounds in a row, with the close at a different moment each time, to catch
races. On PostgreSQL (``select_for_update`` on the Round row) it needs ``DATABASE_URL``:
skipped locally without it, failed in CI. The embedded default's SQLite file (IMMEDIATE
transactions instead of row locks) gets the same race in a child process.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.db import connection

from tests.integration.conftest import MIGRATE_TIMEOUT, ROOT, Procs, child_env, manage, require_postgres
from tournaments.models import HistoryEntry, Player, Round, Ruling, Slip
from tournaments.services.events import event_create
from tournaments.services.games import game_end, game_start, round_draw
from tournaments.services.lexicons import lexicon_bundled
from tournaments.services.players import player_add
from tournaments.services.rounds import round_close, round_open, round_place
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.integration

ROUNDS = int(os.environ.get("ARBITER_RACE_ROUNDS", "30"))
SUBMITTERS = 8
PLAYERS = 32
#: Slips per player and round: a first slip, then corrections (the last on-time one counts).
SENDS = 3


@dataclass
class Sent:
    """A slip as its sender was told it was recorded."""

    slip_id: int
    player_id: int
    late: bool


@dataclass
class Tally:
    rounds: int = 0
    on_time: int = 0
    late: int = 0
    #: Rounds in which the close fell between slips: some on time, some late.
    split: int = 0


def _race(
    round_id: int, players: list[Player], top: str, score: int, close_after: float
) -> tuple[list[Sent], float]:
    """The slips of every player sent by the submitters, the round closed ``close_after``
    seconds after they start; returns the slips and how long the submitters took."""
    coordinates, word = top.split(" ", 1)
    sent: list[Sent] = []
    errors: list[BaseException] = []
    lock = threading.Lock()
    chunks = [players[i::SUBMITTERS] for i in range(SUBMITTERS)]
    start = threading.Barrier(SUBMITTERS + 1, timeout=30)
    finished: list[float] = []

    def submitter(chunk: list[Player], seed: int) -> None:
        pause = random.Random(seed)
        try:
            round = Round.objects.get(pk=round_id)  # this thread's own connection
            start.wait()
            for _ in range(SENDS):
                for player in chunk:
                    result = slip_submit(
                        round=round,
                        player=player,
                        coordinates=coordinates,
                        word=word,
                        announced_score=score,
                        source=Slip.Source.PHONE,
                    )
                    with lock:
                        sent.append(Sent(result.slip.pk, player.pk, result.slip.late))
                    time.sleep(pause.uniform(0, 0.003))
            finished.append(time.monotonic())
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    def closer() -> None:
        try:
            round = Round.objects.get(pk=round_id)
            start.wait()
            time.sleep(close_after)
            round_close(round=round)  # adjudicated here too: tasks run eagerly
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [
        threading.Thread(
            target=submitter, args=(chunk, round_id * 100 + i), name=f"submitter-{i}", daemon=True
        )
        for i, chunk in enumerate(chunks)
    ]
    threads.append(threading.Thread(target=closer, name="closer", daemon=True))
    for thread in threads:
        thread.start()
    began = time.monotonic()
    for thread in threads:
        thread.join(120)
    stuck = [t.name for t in threads if t.is_alive()]
    assert not stuck, f"threads still running after 120 s: {stuck}"
    if errors:
        raise AssertionError(f"{len(errors)} thread(s) failed, the first: {errors[0]!r}") from errors[0]
    return sent, max(finished) - began


def _check(round_id: int, players: list[Player], sent: list[Sent], top_score: int) -> tuple[int, int]:
    round = Round.objects.get(pk=round_id)
    where = f"round {round.number} of game {round.game.number}"
    assert round.state == Round.State.ADJUDICATED, f"{where} is {round.state}"
    assert round.closed_at is not None
    closed_at = round.closed_at
    slips = {s.pk: s for s in Slip.objects.filter(round=round)}
    told = {s.slip_id: s for s in sent}
    assert len(told) == len(sent), f"{where}: one slip given to two submissions"
    assert set(slips) == set(told), (
        f"{where}: lost {sorted(set(told) - set(slips))}, unknown {sorted(set(slips) - set(told))}"
    )
    logged = HistoryEntry.objects.filter(entity="slip", object_id__in=list(slips))
    actions: dict[int, set[str]] = defaultdict(set)
    for h in logged:
        actions[h.object_id].add(h.action)
    for slip in slips.values():
        assert slip.late == told[slip.pk].late, f"{where}: slip {slip.pk} stored otherwise than told"
        if slip.late:
            assert slip.received_at > closed_at, f"{where}: slip {slip.pk} late but before the close"
            assert not slip.current, f"{where}: late slip {slip.pk} is current"
        else:
            assert slip.received_at <= closed_at, f"{where}: slip {slip.pk} after the close but on time"
        expected = {"late"} if slip.late else {"submit"} if slip.current else {"submit", "replaced"}
        assert actions[slip.pk] == expected, f"{where}: history of {slip.pk}"

    by_player: dict[int, list[Slip]] = defaultdict(list)
    for slip in slips.values():
        by_player[slip.player_id].append(slip)
    rulings = {r.player_id: r for r in Ruling.objects.filter(round=round)}
    assert set(rulings) == {p.pk for p in players}, f"{where}: not one ruling per player"
    on_time_players = 0
    for player in players:
        mine = by_player.get(player.pk, [])
        on_time = [s for s in mine if not s.late]
        current = [s.pk for s in mine if s.current]
        ruling = rulings[player.pk]
        if on_time:
            on_time_players += 1
            last = max(on_time, key=lambda s: (s.received_at, s.pk))
            assert current == [last.pk], f"{where}: {player} current {current}, last on time {last.pk}"
            assert ruling.slip_id == last.pk, f"{where}: {player} ruled on {ruling.slip_id}, not {last.pk}"
            assert ruling.credited == top_score, f"{where}: {player} credited {ruling.credited}"
        else:
            assert current == [], f"{where}: {player} has a current slip but none on time"
            assert ruling.credited == 0, (
                f"{where}: {player} credited {ruling.credited} without an on-time slip"
            )
            assert ruling.slip_id is None or slips[ruling.slip_id].late
    total = sum(r.credited for r in rulings.values())
    assert total == top_score * on_time_players, f"{where}: {total} credited"
    late = sum(s.late for s in slips.values())
    return len(slips) - late, late


def race_rounds(rounds: int, seed: int = 11) -> Tally:
    """Play ``rounds`` rounds (new games as needed), each with slips racing its close."""
    lexicon = lexicon_bundled(name="enable")
    event = event_create(
        name=f"Race {seed}",
        starts_on=dt.date(2026, 11, 21),
        lexicon=lexicon,
        language="english",
        notation="gcg",
        random_seed=seed,
        solo_bonus=0,  # everyone plays the top: credited = top for each on-time slip
    )
    players = [player_add(event=event, name=f"Player {i + 1}") for i in range(PLAYERS)]
    rng = random.Random(seed)
    tally = Tally()
    span = 0.2  # how long the submitters take, measured on each round
    next_round: Round | None = None
    while tally.rounds < rounds:
        if next_round is None:
            game = game_start(event=event)
            next_round = round_draw(game=game)
            assert next_round is not None
        round = Round.objects.get(pk=next_round.pk)
        assert round.solved_at is not None, "the solve task did not run"
        if not round.tops:
            game_end(game=round.game, reason="no_move")
            next_round = None
            continue
        round_open(round=round)
        # The close falls anywhere from before the first slip to after the last one.
        sent, took = _race(round.pk, players, round.tops[0], round.top_score or 0, rng.uniform(0, 1.2 * span))
        span = (span + took) / 2
        on_time, late = _check(round.pk, players, sent, round.top_score or 0)
        tally.rounds += 1
        tally.on_time += on_time
        tally.late += late
        tally.split += bool(on_time and late)
        next_round = round_place(round=Round.objects.get(pk=round.pk))
    return tally


def _check_tally(tally: Tally) -> None:
    assert tally.rounds == ROUNDS
    # The close really raced the slips, more than once.
    assert tally.split >= 2, f"only {tally.split} rounds had slips both sides of the close: {tally}"


@pytest.mark.django_db(transaction=True)
def test_slips_racing_the_close_on_postgresql() -> None:
    require_postgres()
    if connection.vendor != "postgresql":
        pytest.fail("DATABASE_URL is PostgreSQL but the test database is not", pytrace=False)
    _check_tally(race_rounds(ROUNDS))


def test_slips_racing_the_close_on_the_embedded_sqlite_file(procs: Procs, tmp_path: Path) -> None:
    """The embedded default's SQLite file (WAL, IMMEDIATE transactions), in a child process
    with the product's settings: the test settings' SQLite is in memory, one connection."""
    env = child_env(tmp_path / "var", ARBITER_TASKS_EAGER="1")
    procs.run_ok("migrate", manage("migrate", "-v0"), env, tmp_path, MIGRATE_TIMEOUT)
    script = (
        "import json, django; django.setup(); "
        "from dataclasses import asdict; "
        "from tests.integration.test_concurrency import race_rounds; "
        f"print(json.dumps(asdict(race_rounds({ROUNDS}))))"
    )
    out = procs.run_ok("race", [sys.executable, "-c", script], env, ROOT, 600)
    _check_tally(Tally(**json.loads(out.splitlines()[-1])))
