"""The hot path's statements against Django's own tools: ``python -m bench.statements
[--calls 1000] [--repeat 5] [--slips 150] [--workers 2]``.

Per call, in microseconds (the best and the median of ``--repeat`` runs of ``--calls``
calls, the ways taking turns, in one transaction rolled back at the end): the round and
the player locked as a slip locks them (tournaments/statements.py's ``locked_round``,
three instances made) against the ORM's ``select_for_update`` (two statements, the round
exclusive: it has no SHARE mode) and against the same SQL through
``Model.objects.raw()`` (the round alone made, the other columns left as they came); the
player's known slips likewise against the ORM and ``raw()``; a history entry inserted
against the ORM's own insert (``_insert``, which ``save()`` runs) and ``save()``; the
converters of a three-model row worked out, as a raw query does at each call. The bare
cursor (the statement alone, no instances made) is the floor.

On PostgreSQL, then, the lock waits: ``--workers`` processes hand in ``--slips`` slips
each at once on one round through ``slip_submit``, the round taken in SHARE mode (as it
is) and then FOR UPDATE (as it was): the time of each slip's lock statement (its wait for
the lock included), each slip's time, and the time all took from the moment all began.

``DATABASE_URL`` chooses the database (a database of its own: the bench migrates it and
adds an event to it each run); without it, a new SQLite file in a temporary folder. The
machine's load average is printed beside each figure. A script, not a timed test: the
figures go into docs/benchmarks.md by hand."""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import tempfile
import time
import timeit
from collections.abc import Callable
from typing import Any


def _setup(database_url: str | None) -> None:
    import django
    from django.apps import apps

    if apps.ready:
        return
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    elif not os.environ.get("DATABASE_URL"):
        folder = tempfile.mkdtemp(prefix="bench-statements-")
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings.local")
    os.environ["DJANGO_DEBUG"] = "0"  # the debug cursor keeps every query
    os.environ["ARBITER_TASKS_EAGER"] = "1"  # the round's solve in the process; no passes ahead
    os.environ.pop("REDIS_URL", None)  # the statements alone: no publishing to the phones
    django.setup()


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load {one:.2f} {five:.2f} {fifteen:.2f}"


def hall(players: int) -> tuple[Any, list[Any], Any]:
    """A new event of ``players`` players, its first round open: (event, players, round)."""
    import datetime as dt

    from tournaments.models import Round
    from tournaments.services.events import event_create
    from tournaments.services.games import game_start, round_draw
    from tournaments.services.lexicons import lexicon_bundled
    from tournaments.services.players import player_add
    from tournaments.services.rounds import round_open

    event = event_create(
        name=f"bench.statements {time.time():.0f}",
        starts_on=dt.date.today(),
        lexicon=lexicon_bundled(name="enable"),
        language="english",
        notation="gcg",
        random_seed=7,
    )
    people = [player_add(event=event, name=f"Player {n}") for n in range(1, players + 1)]
    drawn = round_draw(game=game_start(event=event))
    assert drawn is not None
    round_open(round=Round.objects.get(pk=drawn.pk))
    return event, people, Round.objects.select_related("game__event").get(pk=drawn.pk)


def _slip(round: Any, player: Any, client_id: str) -> Any:
    from tournaments.services.slips import slip_submit

    coordinates, word = round.tops[0].split(" ", 1)
    return slip_submit(
        event=round.game.event, player=player, coordinates=coordinates, word=word,
        announced_score=None, client_id=client_id,
    ).slip  # fmt: skip


def per_call(number: int, repeat: int) -> list[tuple[str, str, float, float, str]]:
    """(what, how, best, median, load) a call, in microseconds: the figures of the module's
    text, each with the load average at its last run."""
    from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
    from django.db.models import Q

    from tournaments import statements
    from tournaments.models import HistoryEntry, Player, Round, Slip
    from tournaments.services import slips

    event, (anne, *_others), round = hall(4)
    _slip(round, anne, "bench-1")

    lock_sql = statements.locked_round.sql(by_event=False, exclusive=False)
    lock_params = [anne.pk, round.pk]

    def cursor(sql: str, params: list[Any]) -> Callable[[], object]:
        def run() -> object:
            with connection.cursor() as c:
                c.execute(sql, params)
                return c.fetchall()

        return run

    def orm_lock() -> object:
        locked = Round.objects.select_related("game__event").select_for_update(of=("self",)).get(pk=round.pk)
        mine = Player.objects.select_for_update(no_key=True).filter(pk=anne.pk, event_id=event.pk)
        return locked, list(mine.values_list("pk", flat=True))

    known_sql = statements.known_slips.sql(with_client_id=True)
    known_params = [anne.pk, round.pk, True, "bench-1"]
    mine = Q(round=round, current=True) | Q(client_id="bench-1")
    fields = [f for f in HistoryEntry._meta.concrete_fields if not f.primary_key]
    returning = HistoryEntry._meta.db_returning_fields

    def entry() -> HistoryEntry:
        return HistoryEntry(event=event, entity="slip", object_id=0, action="bench", actor_label="system")

    def orm_insert() -> object:
        manager: Any = HistoryEntry._base_manager  # save()'s own insert, without its signals
        return manager._insert([entry()], fields=fields, returning_fields=returning)

    reader, wrapper = statements.locked_round, connections[DEFAULT_DB_ALIAS]
    calls: list[tuple[str, str, Callable[[], object]]] = [
        ("lock", "statements (slip_submit's)", lambda: slips._fetch_locked(anne, False, round.pk, event.pk)),
        ("lock", "ORM select_for_update", orm_lock),
        ("lock", "Round.objects.raw()", lambda: list(Round.objects.raw(lock_sql, lock_params))),
        ("lock", "bare cursor", cursor(lock_sql, lock_params)),
        ("known slips", "statements", lambda: statements.known_slips.rows(known_params, with_client_id=True)),
        ("known slips", "ORM", lambda: list(Slip.objects.filter(mine, player=anne).order_by("pk"))),
        ("known slips", "Slip.objects.raw()", lambda: list(Slip.objects.raw(known_sql, known_params))),
        ("known slips", "bare cursor", cursor(known_sql, known_params)),
        ("insert", "statements", lambda: statements.insert_history(entry())),
        ("insert", "ORM _insert", orm_insert),
        ("insert", "save()", lambda: entry().save(force_insert=True)),
        ("converters", "each call", lambda: reader._compiler(wrapper).get_converters(reader._cols)),
    ]
    # Each way's runs in turn, not one after the other: a change of the machine's load
    # then falls on every way alike.
    runs: list[list[float]] = [[] for _ in calls]
    loads = [""] * len(calls)
    with transaction.atomic():
        for _what, _how, call in calls:
            call()
        for _ in range(repeat):
            for n, (_what, _how, call) in enumerate(calls):
                runs[n].append(timeit.timeit(call, number=number) / number * 1e6)
                loads[n] = load()
        transaction.set_rollback(True)
    return [
        (what, how, min(times), statistics.median(times), at)
        for (what, how, _call), times, at in zip(calls, runs, loads, strict=True)
    ]


def _hand_in(args: tuple[int, list[int], bool, Any]) -> tuple[float, float, list[tuple[float, float]]]:
    """A worker's slips, handed in once every worker is ready: when it began and ended (the
    system's monotonic clock, the same in every process), and each slip's (time in the lock
    statement, its wait included; time of the whole slip)."""
    round_id, player_ids, exclusive, ready = args
    _setup(None)  # a new interpreter (spawned): DATABASE_URL is the parent's
    from django.db import connections

    from tournaments import statements
    from tournaments.models import Player, Round

    round = Round.objects.select_related("game__event").get(pk=round_id)
    players = list(Player.objects.filter(pk__in=player_ids).order_by("pk"))
    read = statements.locked_round.rows
    waited: list[float] = []

    def timed_lock(params: Any, **options: Any) -> list[list[Any]]:
        start = time.monotonic()
        try:
            return read(params, **{**options, "exclusive": exclusive or options["exclusive"]})
        finally:
            waited.append(time.monotonic() - start)

    statements.locked_round.rows = timed_lock  # type: ignore[method-assign]
    ready.wait()
    began = time.monotonic()
    times = []
    for player in players:
        start = time.monotonic()
        _slip(round, player, f"bench-{player.pk}")
        times.append(time.monotonic() - start)
    ended = time.monotonic()
    connections.close_all()
    return began, ended, list(zip(waited, times, strict=True))


def lock_waits(slips: int, workers: int) -> list[dict[str, Any]]:
    """Each mode's figures (PostgreSQL): ``workers`` processes handing in ``slips`` each."""
    from tournaments.models import Slip

    _event, players, round = hall(slips * workers)
    found = []
    for mode, exclusive in (("FOR SHARE", False), ("FOR UPDATE", True)):
        Slip.objects.filter(round=round).delete()
        # Spawned, not forked: a fork would copy the connection pool's threads' state.
        context = multiprocessing.get_context("spawn")
        ready = context.Manager().Barrier(workers)
        shares = [[p.pk for p in players[n * slips : (n + 1) * slips]] for n in range(workers)]
        with context.Pool(workers) as pool:
            done = pool.map(_hand_in, [(round.pk, share, exclusive, ready) for share in shares])
        wall = max(ended for _b, ended, _e in done) - min(began for began, _e, _s in done)
        each = [pair for _b, _e, pairs in done for pair in pairs]
        waits = sorted(w for w, _t in each)
        times = sorted(t for _w, t in each)
        found.append({
            "mode": mode, "slips": len(each), "wall": wall, "load": load(),
            "wait_mean": statistics.fmean(waits), "wait_p50": waits[len(waits) // 2],
            "wait_p99": waits[int(len(waits) * 0.99)], "wait_sum": sum(waits),
            "slip_mean": statistics.fmean(times), "slip_p99": times[int(len(times) * 0.99)],
        })  # fmt: skip
        assert Slip.objects.filter(round=round).count() == len(each)
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.statements", description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000, help="calls a run (default 1000)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each (default 5)")
    parser.add_argument("--slips", type=int, default=150, help="slips a worker, PostgreSQL (default 150)")
    parser.add_argument("--workers", type=int, default=2, help="processes handing in slips (default 2)")
    parser.add_argument("--database-url", help="instead of DATABASE_URL")
    args = parser.parse_args(argv)
    _setup(args.database_url)
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    print(f"{connection.vendor}, {args.calls} calls x {args.repeat} runs ({load()})")
    for what, how, best, median, at in per_call(args.calls, args.repeat):
        print(f"  {what:12} {how:30} {best:8.1f} us  (median {median:8.1f})  {at}")
    if connection.vendor == "postgresql" and args.slips:
        print(f"lock waits: {args.workers} processes x {args.slips} slips on one round ({load()})")
        for m in lock_waits(args.slips, args.workers):
            print(
                f"  {m['mode']:10} {m['slips']} slips in {m['wall']:.2f} s;"
                f" the lock statement (its wait included): mean {m['wait_mean'] * 1e3:.2f} ms,"
                f" p50 {m['wait_p50'] * 1e3:.2f},"
                f" p99 {m['wait_p99'] * 1e3:.2f}, all {m['wait_sum']:.2f} s;"
                f" a slip: mean {m['slip_mean'] * 1e3:.2f} ms, p99 {m['slip_p99'] * 1e3:.2f}  {m['load']}"
            )


if __name__ == "__main__":
    main()
