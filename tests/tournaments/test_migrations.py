"""Data migrations: a database from before them keeps what its people already saw."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

# Migrating alters the schema, which SQLite does outside a transaction only.
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


def test_players_of_an_older_database_get_their_own_seat_codes_and_keep_their_phones() -> None:
    before = [("tournaments", "0019_tie_break_fisf")]
    after = [("tournaments", "0020_seats_rosters_and_background_word_lists")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    Lexicon = apps.get_model("tournaments", "Lexicon")
    Event = apps.get_model("tournaments", "Event")
    Player = apps.get_model("tournaments", "Player")
    PlayerToken = apps.get_model("tournaments", "PlayerToken")
    lexicon = Lexicon.objects.create(name="tiny", language="en", checksum="0" * 64)
    events = [
        Event.objects.create(name=f"Old {n}", starts_on=dt.date(2026, 1, 1), lexicon=lexicon) for n in (1, 2)
    ]
    for event in events:
        for table in range(1, 41):
            Player.objects.create(event=event, name=f"P{table}", table=table)
    PlayerToken.objects.create(key="k" * 40, player=Player.objects.first())

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    apps = executor.loader.project_state(after).apps
    Player = apps.get_model("tournaments", "Player")
    for event in events:
        codes = list(Player.objects.filter(event_id=event.pk).values_list("seat_code", flat=True))
        assert len(set(codes)) == 40 and all(len(c) == 6 for c in codes)
    token = apps.get_model("tournaments", "PlayerToken").objects.get()
    assert token.confirmed_at == token.created_at  # joined before: still joined
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_the_multiplex_leaves_the_domain_with_its_rows_and_its_events_say_so() -> None:
    """The move is in the migration state only: a database from before keeps every row of
    the multiplex (read now through the multiplex app), and its hub's and centres' events
    are marked as linked by it; an event on its own is not."""
    before = [("tournaments", "0022_history_shown")]
    after = [("multiplex", "0001_moved")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    Lexicon = apps.get_model("tournaments", "Lexicon")
    Event = apps.get_model("tournaments", "Event")
    lexicon = Lexicon.objects.create(name="tiny", language="en", checksum="0" * 64)
    hub, centre, _alone = (
        Event.objects.create(name=name, starts_on=dt.date(2026, 1, 1), lexicon=lexicon)
        for name in ("Hub", "Centre", "Alone")
    )
    now = timezone.now()
    multiplex = apps.get_model("tournaments", "Multiplex").objects.create(event=hub)
    hall = apps.get_model("tournaments", "Centre").objects.create(
        multiplex=multiplex, name="Dakar", key_hash="0" * 64
    )
    hub_round = apps.get_model("tournaments", "HubRound").objects.create(
        multiplex=multiplex, game=1, number=1, new_tiles="AEIRSTN", drawn_at=now, placed_at=now, top_score=80
    )
    serving = apps.get_model("tournaments", "Serving").objects.create(
        centre=hall, round=hub_round, rack_at=now
    )
    player = apps.get_model("tournaments", "CentrePlayer").objects.create(centre=hall, table=1, name="Awa")
    apps.get_model("tournaments", "CentreRuling").objects.create(
        serving=serving, player=player, credited=80, merged_credited=80, is_top=True
    )
    link = apps.get_model("tournaments", "HubLink").objects.create(
        event=centre, url="https://hub.example", key="k", centre_name="Dakar", multiplex_name="Hub"
    )
    apps.get_model("tournaments", "HubOutbox").objects.create(
        link=link, kind="close", game=1, number=1, payload={}, digest="0" * 64, queued_at=now
    )

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    apps = executor.loader.project_state(after).apps
    Event = apps.get_model("tournaments", "Event")
    assert dict(Event.objects.values_list("name", "linked_by")) == {
        "Hub": "multiplex",
        "Centre": "multiplex",
        "Alone": "",
    }
    ruling = apps.get_model("multiplex", "CentreRuling").objects.get()
    assert (ruling.serving.centre.multiplex.event_id, ruling.player.name, ruling.merged_credited) == (
        hub.pk,
        "Awa",
        80,
    )
    assert apps.get_model("multiplex", "HubOutbox").objects.get().link.event_id == centre.pk
    ContentType = apps.get_model("contenttypes", "ContentType")
    assert not ContentType.objects.filter(
        app_label="tournaments", model__in=("multiplex", "hublink")
    ).exists()
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
