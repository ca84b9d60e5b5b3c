"""Celery tasks: each takes an id, calls a service, and stores its result in the rows.

Both services are idempotent (a second run finds the work done or rewrites the same
rulings), so ``acks_late`` redelivery after a lost worker is safe.

The time limits are not set here: the app's ``task_soft_time_limit`` and
``task_time_limit`` apply (settings CELERY_TASK_SOFT_TIME_LIMIT and CELERY_TASK_TIME_LIMIT,
from ARBITER_TASK_SOFT_TIME_LIMIT and ARBITER_TASK_TIME_LIMIT); a limit in the decorator
would override them. The word list import is the exception: it sets its own.

The services send them by name (:mod:`tournaments.queue`): this module imports the
services, and none of them imports it.
"""

from __future__ import annotations

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.utils import translation
from django.utils.translation import gettext as _

from tournaments import queue
from tournaments.models import Round
from tournaments.services import lexicons, rounds, rulings, sheets


@shared_task(acks_late=True)
def round_solve_task(round_id: int) -> None:
    rounds.round_solve(round_id=round_id)


@shared_task(acks_late=True)
def round_adjudicate_task(round_id: int) -> None:
    if Round.objects.filter(pk=round_id, state=Round.State.OPEN).exists():
        return  # reopened since its close sent this: ruled at its next close
    rulings.round_adjudicate(round_id=round_id)


@shared_task(acks_late=True)
def round_rule_when_quiet_task(round_id: int, newest: int | None, waited: float) -> None:
    """A round ruled again once the in-time slips queued behind its close stop coming."""
    rulings.round_adjudicate_when_quiet(round_id=round_id, newest=newest, waited=waited)


@shared_task(acks_late=True)
def round_rule_ahead_task(round_id: int, ruled_through: int = 0) -> None:
    """The slips of an open round ruled as they come, a pass every
    :data:`~tournaments.queue.RULE_AHEAD_EVERY` seconds until the round is closed
    (tournaments/services/rulings.py)."""
    ruled = rulings.round_rule_ahead(round_id=round_id, ruled_through=ruled_through)
    if ruled is not None and not round_rule_ahead_task.app.conf.task_always_eager:
        queue.send(round_rule_ahead_task, round_id, ruled, countdown=queue.RULE_AHEAD_EVERY)


@shared_task(acks_late=True)
def sheet_print_task(sheet_id: int) -> None:
    """Printing in a worker: the layout of a 300-player event takes a second or two."""
    sheets.sheet_print(sheet_id=sheet_id)


# Its own limits: the largest list allowed (ARBITER_LEXICON_MAX_MB) takes a good part of a
# round's limits (2 minutes) to compile (docs/benchmarks.md), and would fail them on a slow
# laptop. The automaton is built in one C call, which the soft limit interrupts only once
# it returns.
@shared_task(acks_late=True, soft_time_limit=600, time_limit=720)
def lexicon_import_task(lexicon_id: int, language: str) -> None:
    """An uploaded word list compiled in a worker; its refusals said in ``language``, the
    uploader's."""
    with translation.override(language):
        try:
            lexicons.lexicon_compile(lexicon_id=lexicon_id)
        except SoftTimeLimitExceeded:
            lexicons.lexicon_failed(
                lexicon_id=lexicon_id,
                error=_("the import took more than 10 minutes and was stopped: choose a smaller list"),
            )
        except Exception:
            # Not left "being imported" for ever: the log keeps the traceback.
            lexicons.lexicon_failed(
                lexicon_id=lexicon_id,
                error=_("the import failed on the worker (its log says why): import the list again"),
            )
            raise
