"""The terminal commands' fixtures: an event made by the commands themselves (FISF
notation, four players imported from a CSV file), its first round open, and the tasks
run as in production."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User

from tests.rooms.commands.helpers import PLAYERS_CSV, create, last_round, run
from tournaments.models import Event, Round


@pytest.fixture
def arbitrator() -> User:
    return get_user_model().objects.create_user("arbitre", password="x")


@pytest.fixture
def event(tmp_path, arbitrator) -> Event:
    """An English event in FISF notation (the slips read H4 WORD) with four players."""
    event = create("--random-seed", "7")
    path = tmp_path / "players.csv"
    path.write_text(PLAYERS_CSV, encoding="utf-8")
    run("players_import", "--event", event.code, str(path))
    return event


@pytest.fixture
def open_round(event: Event) -> Round:
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    run("round_open", "--event", event.code)
    return last_round(event)


@pytest.fixture
def tasks_as_in_production() -> Iterator[None]:
    """The test settings make eager tasks propagate; production does not: the commands
    must turn it on themselves."""
    from arbiter.celery import app as celery_app

    conf = celery_app.conf
    previous = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager = conf.task_eager_propagates = False
    yield
    conf.task_always_eager, conf.task_eager_propagates = previous
