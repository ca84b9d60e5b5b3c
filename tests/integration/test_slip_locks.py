"""How a slip locks on PostgreSQL (tournaments/statements.py, ``locked_round``): the round
in SHARE mode, the player's row for update.

A hall's slips must not wait for each other (two web processes each waiting for the round
the other one held was the limit of a 2,000-phone hall), while a player's own slips (a
retry, a correction) still come one after the other and the close still waits for every
slip already in. Each test holds a slip's transaction open in a thread of its own (its own
connection) and looks at what another connection can do meanwhile. Needs ``DATABASE_URL``
(skipped locally without it, failed in CI).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from tests.integration.conftest import event_with_players, require_postgres
from tests.tournaments.services.test_phone_slips import _entry, _row, token
from tests.tournaments.test_statements import same_as_the_orm
from tournaments.models import HistoryEntry, Player, Round, Ruling, Slip
from tournaments.services.games import game_start
from tournaments.services.phone_slips import PhoneSlip, phone_slip
from tournaments.services.rounds import round_close
from tournaments.services.slips import SubmitResult, slip_submit

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

#: Bounds of every wait (seconds): what must not wait gets WAIT, what must wait is seen
#: still waiting after BLOCKED.
WAIT = 10.0
BLOCKED = 0.5


def _slip(round: Round, player: Player, **more: Any) -> SubmitResult:
    coordinates, word = round.tops[0].split(" ", 1)
    fields: dict[str, Any] = {"coordinates": coordinates, "word": word, "announced_score": round.top_score}
    fields.update(more)
    return slip_submit(event=round.game.event, player=player, **fields)


class Worker(threading.Thread):
    """``job`` in a thread of its own, with its own connection; ``result`` or ``error``."""

    def __init__(self, job: Callable[[], Any]) -> None:
        super().__init__(daemon=True)
        self.job = job
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self.job()
        except BaseException as exc:
            self.error = exc
        finally:
            connection.close()

    def start_and_finish(self) -> Any:
        self.start()
        return self.finished()

    def finished(self) -> Any:
        self.join(WAIT)
        assert not self.is_alive(), f"still waiting after {WAIT} s"
        if self.error is not None:
            raise self.error
        return self.result


@contextmanager
def held(job: Callable[[Callable[[], None]], Any], what: str) -> Iterator[Worker]:
    """``job`` in a Worker, given ``hold``: its first call stops the job there until the block
    ends (later calls, from other threads too, go through)."""
    reached, release = threading.Event(), threading.Event()

    def hold() -> None:
        if not reached.is_set():
            reached.set()
            release.wait(WAIT * 3)

    worker = Worker(lambda: job(hold))
    worker.start()
    try:
        assert reached.wait(WAIT), f"{what} did not begin"
        yield worker
    finally:
        release.set()
    worker.finished()


def _slip_held(round: Round, player: Player, **more: Any) -> Callable[[Callable[[], None]], Any]:
    """A slip recorded in a transaction kept open at ``hold``."""

    def job(hold: Callable[[], None]) -> SubmitResult:
        with transaction.atomic():
            result = _slip(round, player, **more)
            hold()
        return result

    return job


def holding(round: Round, player: Player) -> AbstractContextManager[Worker]:
    """A slip of ``player`` recorded in a transaction kept open until the block ends."""
    return held(_slip_held(round, player), "the held slip")


def test_the_slips_of_two_players_do_not_wait_for_each_other(open_round) -> None:
    round, (anne, bruno, _c) = open_round
    with holding(round, anne):
        other = Worker(lambda: _slip(round, bruno))
        other.start()
        result = other.finished()  # while Anne's slip holds the round
        assert result.created and not result.slip.late
    assert Slip.objects.filter(round=round, current=True).count() == 2


def test_a_players_second_slip_waits_for_the_first_and_replaces_it(open_round) -> None:
    round, (anne, _b, _c) = open_round
    with holding(round, anne) as first:
        second = Worker(lambda: _slip(round, anne, coordinates="8A", word="XYZ"))
        second.start()
        second.join(BLOCKED)
        assert second.is_alive(), "a player's two slips were recorded side by side"
    replacing = second.finished()
    kept = first.finished()
    assert Slip.objects.get(pk=kept.slip.pk).current is False
    assert list(Slip.objects.filter(round=round, player=anne, current=True)) == [replacing.slip]


def test_the_same_slip_sent_twice_at_once_is_one_slip(open_round) -> None:
    round, (anne, _b, _c) = open_round
    with held(_slip_held(round, anne, client_id="same"), "the first slip") as first:
        again = Worker(lambda: _slip(round, anne, client_id="same"))
        again.start()
        again.join(BLOCKED)
    retry = again.finished()
    original = first.result
    assert original.created and not retry.created
    assert retry.slip.pk == original.slip.pk
    assert Slip.objects.filter(round=round, player=anne).count() == 1


def test_the_close_waits_for_the_slips_already_in_and_rules_them(open_round) -> None:
    round, (anne, bruno, _c) = open_round
    with holding(round, anne) as held:
        close = Worker(lambda: round_close(round=Round.objects.get(pk=round.pk)))
        close.start()
        close.join(BLOCKED)
        assert close.is_alive(), "the round closed under a slip still being recorded"
    close.finished()
    slip = held.finished().slip
    # After the close, a new slip is late (the close's time is after its own arrival).
    late = _slip(Round.objects.select_related("game__event").get(pk=round.pk), bruno)
    assert late.slip.late
    ruling = Ruling.objects.get(round=round, player=anne)
    assert ruling.slip_id == slip.pk and ruling.credited == round.top_score


def test_slips_queued_behind_a_ruled_round_rule_it_again_side_by_side(open_round) -> None:
    """Two in-time slips reach a round already ruled (they queued behind the close): each
    needs the round for itself (it rules it again); neither deadlocks on the other's share."""
    round, (_a, bruno, claire) = open_round
    sent = timezone.now()
    round_close(round=Round.objects.get(pk=round.pk))
    assert Round.objects.get(pk=round.pk).state == Round.State.ADJUDICATED
    start = threading.Barrier(2, timeout=WAIT)

    def job(player: Player) -> SubmitResult:
        start.wait()
        return _slip(round, player, now=sent)

    workers = [Worker(lambda p=p: job(p)) for p in (bruno, claire)]
    for worker in workers:
        worker.start()
    results = [worker.finished() for worker in workers]
    assert all(r.created and not r.slip.late for r in results)
    assert Round.objects.get(pk=round.pk).state == Round.State.ADJUDICATED  # ruled again (eager tasks)
    credited = dict(Ruling.objects.filter(round=round).values_list("player_id", "credited"))
    assert credited[bruno.pk] == credited[claire.pk] == round.top_score


def _quick(round: Round, player: Player, key: str, client_id: str) -> SubmitResult | None:
    coordinates, word = round.tops[0].split(" ", 1)
    return phone_slip(
        PhoneSlip(
            key=key, event_id=round.game.event_id, coordinates=coordinates, word=word,
            announced_score=round.top_score, client_id=client_id, for_round=None,
            received=timezone.now(), sent_at=None,
        )
    )  # fmt: skip


def test_a_quick_slip_is_recorded_as_the_full_path_records_it_on_postgresql(open_round) -> None:
    """The quick path's one message (the locks, then the slip and its entry) on PostgreSQL."""
    round, (anne, bruno, _c) = open_round
    done = _quick(round, anne, token(anne), "quick")
    assert done is not None
    full = _slip(round, bruno, client_id="full").slip
    assert _row(Slip.objects.get(pk=done.slip.pk)) == _row(Slip.objects.get(pk=full.pk))
    assert _entry(done.slip) == _entry(full)


def test_a_quick_slip_waits_for_the_players_slip_being_recorded_then_steps_aside(open_round) -> None:
    """Read before the other slip committed, it still sees it: its statements run after the
    locks, each with a snapshot of its own. slip_submit then replaces the first."""
    round, (anne, _b, _c) = open_round
    key = token(anne)
    with holding(round, anne):
        second = Worker(lambda: _quick(round, anne, key, "second"))
        second.start()
        second.join(BLOCKED)
        assert second.is_alive(), "the quick path did not wait for the player's slip in progress"
    assert second.finished() is None
    assert Slip.objects.filter(round=round, player=anne).count() == 1


def test_the_same_quick_slip_twice_at_once_is_one_slip(open_round) -> None:
    round, (anne, _b, _c) = open_round
    key = token(anne)
    start = threading.Barrier(2, timeout=WAIT)

    def job() -> SubmitResult | None:
        start.wait()
        return _quick(round, anne, key, "same")

    workers = [Worker(job) for _ in range(2)]
    for worker in workers:
        worker.start()
    results = [worker.finished() for worker in workers]
    assert sorted(r is None for r in results) == [False, True]
    assert Slip.objects.filter(round=round, player=anne).count() == 1
    assert not _slip(round, anne, client_id="same").created  # what the API answers the second


def test_the_hot_paths_rows_are_the_orms_on_postgresql() -> None:
    """tests/tournaments/test_statements.py's comparison, on PostgreSQL (psycopg's own types)."""
    require_postgres()
    event, players = event_with_players("Rows", 2, seed=6)
    same_as_the_orm(game_start(event=event), players)


def ruling_ahead(round: Round, monkeypatch: pytest.MonkeyPatch, at: str) -> AbstractContextManager[Worker]:
    """A pass of the rulings ahead (tournaments/services/rulings.py, round_rule_ahead) held
    until the block ends: ``at`` "judging" (its reading and judging, the round not locked
    yet) or "writing" (the round locked, its rulings to write)."""
    from scoring import adjudication
    from tournaments import statements
    from tournaments.services import rulings

    def job(hold: Callable[[], None]) -> int | None:
        # The first call is the pass's: the close's, later, is not held.
        if at == "judging":
            credit = adjudication.credit_round
            monkeypatch.setattr(adjudication, "credit_round", lambda *a, **k: (hold(), credit(*a, **k))[1])
        else:
            lock = statements.round_shared.run
            monkeypatch.setattr(statements.round_shared, "run", lambda *a: (lock(*a), hold())[0])
        return rulings.round_rule_ahead(round_id=round.pk)

    return held(job, "the pass")


def test_slips_go_on_beside_a_pass_of_the_rulings_ahead(open_round, monkeypatch) -> None:
    round, (anne, bruno, _c) = open_round
    _slip(round, anne)
    with ruling_ahead(round, monkeypatch, "writing"):
        result = Worker(lambda: _slip(round, bruno)).start_and_finish()  # while the pass holds
        assert result.created and not result.slip.late
    assert Ruling.objects.filter(round=round).count() == 1  # Bruno's slip came after its reading


def test_the_close_waits_for_a_pass_writing_its_rulings_and_rules_whole(open_round, monkeypatch) -> None:
    round, (anne, _b, _c) = open_round
    _slip(round, anne)
    with ruling_ahead(round, monkeypatch, "writing") as ahead:
        close = Worker(lambda: round_close(round=round))
        close.start()
        close.join(BLOCKED)
        assert close.is_alive(), "the close did not wait for the pass"
    close.finished()
    assert ahead.result == Slip.objects.get(round=round).pk
    round.refresh_from_db()
    assert round.state == Round.State.ADJUDICATED
    assert Ruling.objects.filter(round=round).count() == 3  # the missing ones too


def test_the_close_does_not_wait_for_a_pass_judging_and_the_pass_then_writes_nothing(
    open_round, monkeypatch
) -> None:
    round, (anne, _b, _c) = open_round
    _slip(round, anne)
    with ruling_ahead(round, monkeypatch, "judging") as ahead:
        Worker(lambda: round_close(round=round)).start_and_finish()
        closed = {r.player_id: r.ruled_at for r in Ruling.objects.filter(round=round)}
    assert ahead.result is None  # the round closed meanwhile
    assert {r.player_id: r.ruled_at for r in Ruling.objects.filter(round=round)} == closed
    assert len(closed) == 3 and not HistoryEntry.objects.filter(action="rule_ahead").exists()
