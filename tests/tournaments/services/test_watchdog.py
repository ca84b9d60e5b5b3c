"""Rounds that heal themselves (tournaments.services.watchdog, tournaments.queue.send): a
task the broker could not take, or that a killed worker lost, is sent again; the
arbitrator can have a round ruled again."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from celery import current_app
from kombu.exceptions import OperationalError

from tests.tournaments.helpers import draw_and_open
from tournaments import tasks
from tournaments.core import ApplicationError
from tournaments.models import Game, HistoryEntry, Player, PrintedSheet, Round, Ruling
from tournaments.services import watchdog
from tournaments.services.games import round_draw
from tournaments.services.rounds import round_close, round_place
from tournaments.services.sheets import sheet_request
from tournaments.services.watchdog import Watchdog, round_rule_again, tasks_requeue_pending

pytestmark = pytest.mark.django_db


class Broker:
    """Tasks sent for real (not run in the process) to a broker that refuses them, as
    Redis stopped does, once :meth:`go_down` is called; ``attempts`` lists them."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch = monkeypatch
        self.attempts: list[tuple[str, tuple[int, ...]]] = []

    def go_down(self) -> None:
        current_app.conf.task_always_eager = False  # the fixture puts it back
        for task in (tasks.round_solve_task, tasks.round_adjudicate_task, tasks.sheet_print_task):

            def refuse(args: tuple[int, ...], name: str = task.name, **options: object) -> None:
                self.attempts.append((name, tuple(args)))
                raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

            self.monkeypatch.setattr(task, "apply_async", refuse)


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Iterator[Broker]:
    eager = current_app.conf.task_always_eager
    try:
        yield Broker(monkeypatch)
    finally:
        current_app.conf.task_always_eager = eager


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_close_with_the_broker_down_closes_the_round_and_raises_nothing(
    game: Game, players: list[Player], broker: Broker
) -> None:
    round = draw_and_open(game)
    broker.go_down()
    closed = round_close(round=round)
    assert closed.state == Round.State.CLOSED
    assert broker.attempts == [(tasks.round_adjudicate_task.name, (round.pk,))]


def test_the_watchdog_sends_a_waiting_round_again_once_stale_then_every_resend(
    game: Game, players: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    round = draw_and_open(game)
    sent: list[tuple[str, int]] = []
    answers = iter([False, True, True, True])  # the broker is down at the first try
    monkeypatch.setattr(watchdog, "send", lambda kind, pk: sent.append((kind, pk)) or next(answers))
    Round.objects.filter(pk=round.pk).update(state=Round.State.CLOSED)
    clock = Clock()
    dog = Watchdog(stale=10, resend=30, clock=clock)
    assert dog.tick() == [] and sent == []  # first seen: it may be ruling right now
    clock.now += 9.9
    assert dog.tick() == []
    clock.now += 0.1
    assert dog.tick() == [] and sent == [("rule", round.pk)]  # refused: tried again next look
    clock.now += 2
    assert dog.tick() == [("rule", round.pk)]
    clock.now += 29
    assert dog.tick() == []
    clock.now += 1
    assert dog.tick() == [("rule", round.pk)]
    Round.objects.filter(pk=round.pk).update(state=Round.State.ADJUDICATED)
    clock.now += 60
    assert dog.tick() == [] and dog.waiting_since == {} and dog.sent_at == {}


def test_pending_names_unsolved_and_closed_rounds_and_unprinted_sheets(
    game: Game, players: list[Player], broker: Broker
) -> None:
    broker.go_down()
    round = round_draw(game=game)  # the solve task is refused: unsolved
    assert round is not None
    sheet = sheet_request(event=game.event, kind=PrintedSheet.Kind.STANDINGS, language="en")
    assert watchdog.pending() == {("solve", round.pk), ("print", sheet.pk)}
    # A finished game's rounds wait for nothing.
    Game.objects.filter(pk=game.pk).update(state=Game.State.ENDED)
    assert watchdog.pending() == {("print", sheet.pk)}


def test_the_watchdog_rules_a_round_whose_task_was_lost(game: Game, players: list[Player]) -> None:
    round = draw_and_open(game)
    # The close's message lost (a worker's main process killed with it): closed, not ruled.
    Round.objects.filter(pk=round.pk).update(state=Round.State.CLOSED)
    clock = Clock()
    dog = Watchdog(stale=5, clock=clock)
    dog.tick()
    clock.now += 5
    assert dog.tick() == [("rule", round.pk)]  # eager here: ruled at once
    round.refresh_from_db()
    assert round.state == Round.State.ADJUDICATED
    assert Ruling.objects.filter(round=round).count() == len(players)


def test_requeue_sends_everything_that_waits(game: Game, players: list[Player], broker: Broker) -> None:
    broker.go_down()
    round = round_draw(game=game)
    assert round is not None
    broker.attempts.clear()
    assert tasks_requeue_pending() == 0  # the broker is still down: nothing sent
    assert broker.attempts == [(tasks.round_solve_task.name, (round.pk,))]


def test_the_arbitrator_has_a_round_ruled_again(game: Game, players: list[Player], arbitrator) -> None:
    round = draw_and_open(game)
    round_close(round=round)
    Ruling.objects.filter(round=round).delete()  # as if the rulings had been lost
    again = round_rule_again(round=round, by=arbitrator)
    assert again.state == Round.State.CLOSED  # until the worker has ruled (eager: done)
    round.refresh_from_db()
    assert round.state == Round.State.ADJUDICATED
    assert Ruling.objects.filter(round=round).count() == len(players)
    entry = HistoryEntry.objects.get(entity="round", object_id=round.pk, action="rule_again")
    assert entry.old == {"state": "adjudicated"} and entry.new == {"state": "closed"}
    assert entry.actor == arbitrator


def test_a_round_is_ruled_again_only_when_closed(game: Game, players: list[Player]) -> None:
    round = draw_and_open(game)
    with pytest.raises(ApplicationError, match="only a closed round is ruled"):
        round_rule_again(round=round)
    round_close(round=round)
    round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
    with pytest.raises(ApplicationError, match="only a closed round is ruled"):
        round_rule_again(round=round)
