"""Data migrations: a database from before them keeps what its people already saw."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournaments", "0008_round_clock_pause")]
AFTER = [("tournaments", "0009_results_published")]


def test_rounds_ruled_before_the_review_setting_stay_shown() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    User = apps.get_model("auth", "User")
    Lexicon = apps.get_model("tournaments", "Lexicon")
    Event = apps.get_model("tournaments", "Event")
    Game = apps.get_model("tournaments", "Game")
    Round = apps.get_model("tournaments", "Round")
    user = User.objects.create(username="arbitre")
    lexicon = Lexicon.objects.create(name="tiny", language="en", checksum="0" * 64)
    event = Event.objects.create(name="Old", starts_on=dt.date(2026, 1, 1), lexicon=lexicon, created_by=user)
    game = Game.objects.create(event=event, number=1)
    closed_at = timezone.now() - dt.timedelta(hours=1)
    states = ["drawn", "open", "closed", "adjudicated", "placed"]
    for number, state in enumerate(states, start=1):
        Round.objects.create(
            game=game,
            number=number,
            state=state,
            new_tiles="AEIRSTN",
            closed_at=closed_at if state in ("closed", "adjudicated", "placed") else None,
            placed_at=closed_at + dt.timedelta(minutes=1) if state == "placed" else None,
        )

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    Round = executor.loader.project_state(AFTER).apps.get_model("tournaments", "Round")
    published = dict(Round.objects.values_list("state", "published_at"))
    assert published == {
        "drawn": None,
        "open": None,
        "closed": None,
        "adjudicated": closed_at,
        "placed": closed_at,
    }
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
