"""Rounds that heal themselves: the tasks of rounds (and sheets) left waiting are sent again.

A round's work is recorded in its row before its task is sent (drawn: to be solved;
closed: to be ruled), and both tasks are idempotent. A task can still be lost: a worker's
main process killed with ``kill -9`` loses the message it held on the file-system broker
and leaves it unacknowledged on Redis until the visibility timeout (an hour); a broker
that was down when the round closed never got it (:func:`tournaments.queue.send`). The
watchdog looks every few seconds for rounds still waiting and sends their task again
once they have waited :data:`STALE_SECONDS`, then every :data:`RESEND_SECONDS` while they
wait: a slow ruling gets a duplicate at worst, which finds the work done. The apps built
on the domain have their own waiting work sent the same way (:func:`watch`: a centre of a
multiplex syncs with its hub).

``serve`` runs it in its supervisor; on several machines ``python manage.py watchdog``
runs it beside the workers (docs/operator-guide.md, "Several workers on several machines").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from celery.app.task import Task
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import queue
from tournaments.core import ApplicationError, User
from tournaments.models import Game, PrintedSheet, Round
from tournaments.services.games import check_playing
from tournaments.services.history import history_record

#: A round waits this long (seconds) before its task is sent again: longer than the
#: ruling of a hall's slips or a solve take (docs/decisions.md).
STALE_SECONDS = 10.0
#: Then again this often while it still waits (a worker busy with a long queue).
RESEND_SECONDS = 30.0

SOLVE = "solve"
RULE = "rule"
PRINT = "print"


def pending() -> set[tuple[str, int]]:
    """What waits for a task: rounds of games in play drawn and not solved, closed and not
    ruled; sheets asked for and not printed."""
    playing = Round.objects.filter(game__state=Game.State.PLAYING)
    unsolved = playing.filter(solved_at__isnull=True).values_list("pk", flat=True)
    closed = playing.filter(state=Round.State.CLOSED).values_list("pk", flat=True)
    sheets = PrintedSheet.objects.filter(state=PrintedSheet.State.PENDING).values_list("pk", flat=True)
    waiting = (
        {(SOLVE, pk) for pk in unsolved} | {(RULE, pk) for pk in closed} | {(PRINT, pk) for pk in sheets}
    )
    for kind, (query, _task) in _WATCHED.items():
        waiting |= {(kind, pk) for pk in query()}
    return waiting


_TASKS: dict[str, Task[Any, Any]] = {
    SOLVE: queue.round_solve_task,
    RULE: queue.round_adjudicate_task,
    PRINT: queue.sheet_print_task,
}
#: What the apps built on the domain add (the multiplex's syncs): kind -> (the ids that
#: wait, their task).
_WATCHED: dict[str, tuple[Callable[[], Iterable[int]], Task[Any, Any]]] = {}


def watch(kind: str, waiting: Callable[[], Iterable[int]], task: Task[Any, Any]) -> None:
    """Have the watchdog send ``task`` (with the id) for each id ``waiting()`` returns, as
    it does for the rounds: called by an app when it is ready."""
    _WATCHED[kind] = (waiting, task)
    _TASKS[kind] = task


def send(kind: str, pk: int) -> bool:
    return queue.send(_TASKS[kind], pk)


@dataclass
class Watchdog:
    """Remembers since when each round has waited and when its task was last sent (in
    this process: a restarted watchdog starts by sending everything that waits)."""

    stale: float = STALE_SECONDS
    resend: float = RESEND_SECONDS
    clock: Callable[[], float] = time.monotonic
    #: (kind, round id) -> when this watchdog first saw it waiting.
    waiting_since: dict[tuple[str, int], float] = field(default_factory=dict)
    #: (kind, round id) -> when this watchdog last sent its task.
    sent_at: dict[tuple[str, int], float] = field(default_factory=dict)

    def tick(self) -> list[tuple[str, int]]:
        """One look: sends the tasks of the rounds that waited too long; returns them."""
        now = self.clock()
        waiting = pending()
        for known in (self.waiting_since, self.sent_at):
            for key in set(known) - waiting:
                del known[key]  # its work is done
        sent = []
        for key in sorted(waiting):
            last = self.sent_at.get(key)
            due = self.waiting_since.setdefault(key, now) + self.stale if last is None else last + self.resend
            if now >= due and send(*key):
                self.sent_at[key] = now
                sent.append(key)
        return sent


def round_rule_again(*, round: Round, by: User = None) -> Round:
    """The arbitrator's "rule again": the round's slips are ruled anew by a worker (the
    overrides and accepted shifts kept, as in any ruling). For a round that seems stuck
    (its worker died, the broker was down) or after a word list was fixed. A placed round
    is final."""
    with transaction.atomic():
        # The round's lock, as the close and the ruling take it: the state read here holds.
        locked = Round.objects.select_for_update().select_related("game__event").get(pk=round.pk)
        check_playing(locked.game)
        if locked.state not in (Round.State.CLOSED, Round.State.ADJUDICATED):
            raise ApplicationError(
                _("round %(number)s is %(state)s: only a closed round is ruled")
                % {"number": locked.number, "state": locked.get_state_display()}
            )
        old_state = locked.state
        if locked.state == Round.State.ADJUDICATED:
            # Not placeable until the new rulings are written.
            locked.state = Round.State.CLOSED
            locked.save(update_fields=["state"])
        history_record(
            event=locked.game.event,
            entity="round",
            object_id=locked.pk,
            action="rule_again",
            by=by,
            old={"state": old_state},
            new={"state": locked.state},
        )
        transaction.on_commit(lambda: send(RULE, locked.pk))
        return locked


def tasks_requeue_pending() -> int:
    """Send at once the tasks of every round that waits (``serve`` at start-up: a worker
    of a previous run may have died with them). Returns how many were sent."""
    return sum(send(*key) for key in sorted(pending()))
