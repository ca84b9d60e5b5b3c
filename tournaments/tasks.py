"""Celery tasks: each takes an id, calls a service, and stores its result in the rows.

Both services are idempotent (a second run finds the work done or rewrites the same
rulings), so ``acks_late`` redelivery after a lost worker is safe.
"""

from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True, soft_time_limit=120, time_limit=180)
def round_solve_task(round_id: int) -> None:
    from tournaments.services import round_solve

    round_solve(round_id=round_id)


@shared_task(acks_late=True, soft_time_limit=120, time_limit=180)
def round_adjudicate_task(round_id: int) -> None:
    from tournaments.services import round_adjudicate

    round_adjudicate(round_id=round_id)
