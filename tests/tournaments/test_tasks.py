"""The tasks take their time limits from the settings (ARBITER_TASK_*_TIME_LIMIT).

Celery copies the app's ``task_soft_time_limit`` and ``task_time_limit`` into a task
that sets none of its own when it binds it; a limit in the decorator would win over the
settings, whatever the environment says.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings

from arbiter.celery import app
from tournaments import tasks
from tournaments.services import lexicons
from tournaments.tasks import round_adjudicate_task, round_solve_task

_LIMITS = """
import django, json
django.setup()
from arbiter.celery import app
from tournaments.tasks import round_adjudicate_task, round_solve_task
print(json.dumps({
    "app": [app.conf.task_soft_time_limit, app.conf.task_time_limit],
    "tasks": [[t.soft_time_limit, t.time_limit] for t in (round_solve_task, round_adjudicate_task)],
}))
"""


def test_the_tasks_take_the_time_limits_of_the_settings() -> None:
    assert app.conf.task_soft_time_limit == settings.CELERY_TASK_SOFT_TIME_LIMIT
    assert app.conf.task_time_limit == settings.CELERY_TASK_TIME_LIMIT
    for task in (round_solve_task, round_adjudicate_task):
        assert task.soft_time_limit == settings.CELERY_TASK_SOFT_TIME_LIMIT
        assert task.time_limit == settings.CELERY_TASK_TIME_LIMIT
        assert task.acks_late is True


def test_the_time_limits_follow_the_environment() -> None:
    # In a child process: the settings and the tasks are set up once per process.
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "arbiter.settings.test",
        "ARBITER_TASK_SOFT_TIME_LIMIT": "7",
        "ARBITER_TASK_TIME_LIMIT": "9",
    }
    done = subprocess.run(
        [sys.executable, "-c", _LIMITS],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    limits = json.loads(done.stdout.strip().splitlines()[-1])
    assert limits == {"app": [7, 9], "tasks": [[7, 9], [7, 9]]}


def test_a_word_list_import_has_its_own_time_limits_and_never_stays_importing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A minute's compile for the largest list allowed: a round's two minutes are too short
    # on a slow laptop, and it must not hold up the rulings' queue.
    task = tasks.lexicon_import_task
    assert (task.soft_time_limit, task.time_limit) == (600, 720)
    assert settings.CELERY_TASK_ROUTES[task.name] == {"queue": "default"}
    failed: list[tuple[int, str]] = []

    def too_long(*, lexicon_id: int) -> None:
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(lexicons, "lexicon_compile", too_long)
    monkeypatch.setattr(
        lexicons, "lexicon_failed", lambda *, lexicon_id, error: failed.append((lexicon_id, error))
    )
    task(5, "en")
    assert failed == [(5, "the import took more than 10 minutes and was stopped: choose a smaller list")]

    def broken(*, lexicon_id: int) -> None:
        raise OSError("No space left on device")

    monkeypatch.setattr(lexicons, "lexicon_compile", broken)
    with pytest.raises(OSError):
        task(6, "en")
    assert failed[1] == (6, "the import failed on the worker (its log says why): import the list again")
