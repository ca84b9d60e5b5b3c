"""The domain's Celery tasks as the services send them: by name, through the app's registry.

The tasks (:mod:`tournaments.tasks`) import the services that do their work; the services
send them through this module, which imports neither, so the two never import each other.
Each name below stands for the task of the same name in tournaments/tasks.py, found when
it is used: the app registers that module at start-up (``TournamentsConfig.ready``), the
workers when they discover it."""

from __future__ import annotations

import logging
from typing import Any, cast

from celery import current_app
from celery.app.task import Task
from celery.local import Proxy
from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)


def _task(name: str) -> Task[Any, Any]:
    # Resolved at each use, as ``shared_task`` resolves its own proxy: the same task object
    # (a test that patches one patches the other).
    return cast("Task[Any, Any]", Proxy(lambda: current_app.tasks[f"tournaments.tasks.{name}"]))


round_solve_task = _task("round_solve_task")
round_adjudicate_task = _task("round_adjudicate_task")
round_rule_when_quiet_task = _task("round_rule_when_quiet_task")
round_rule_ahead_task = _task("round_rule_ahead_task")
sheet_print_task = _task("sheet_print_task")
lexicon_import_task = _task("lexicon_import_task")

#: Seconds between two passes of ``round_rule_ahead_task`` (the setting ARBITER_RULE_AHEAD
#: turns them off).
RULE_AHEAD_EVERY = 2.0


def send(task: Task[Any, Any], *args: Any, countdown: float | None = None) -> bool:
    """Send ``task``; False when the broker cannot take it (Redis down or restarting).

    The work a task does is recorded in the rows before it is sent (a round closed, a rack
    drawn), so a message that could not be sent is not lost: the watchdog
    (:mod:`tournaments.services.watchdog`) finds the round still waiting and sends it
    again. Raising here instead would turn an arbitrator's close into an error page for a
    round that is closed all the same (Redis stopped, say: docs/decisions.md).
    ``countdown``: run it that many seconds from now at the earliest."""
    if task.app.conf.task_always_eager:
        task.delay(*args)  # run here: its errors are the caller's (tests, ARBITER_TASKS_EAGER)
        return True
    try:
        if countdown is None:
            task.apply_async(args)
        else:
            task.apply_async(args, countdown=countdown)
    except (OperationalError, OSError):
        logger.warning("could not send %s%r: the watchdog will send it again", task.name, args, exc_info=True)
        return False
    return True
