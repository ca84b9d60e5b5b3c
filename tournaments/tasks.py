"""Celery tasks: each takes an id, calls a service, and stores its result in the rows.

Both services are idempotent (a second run finds the work done or rewrites the same
rulings), so ``acks_late`` redelivery after a lost worker is safe.

The time limits are not set here: the app's ``task_soft_time_limit`` and
``task_time_limit`` apply (settings CELERY_TASK_SOFT_TIME_LIMIT and CELERY_TASK_TIME_LIMIT,
from ARBITER_TASK_SOFT_TIME_LIMIT and ARBITER_TASK_TIME_LIMIT); a limit in the decorator
would override them.
"""

from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True)
def round_solve_task(round_id: int) -> None:
    from tournaments.services import round_solve

    round_solve(round_id=round_id)


@shared_task(acks_late=True)
def round_adjudicate_task(round_id: int) -> None:
    from tournaments.services import round_adjudicate

    round_adjudicate(round_id=round_id)


@shared_task(acks_late=True)
def sheet_print_task(sheet_id: int) -> None:
    """Printing in a worker: the layout of a 300-player event takes a second or two."""
    from tournaments.services.sheets import sheet_print

    sheet_print(sheet_id=sheet_id)
