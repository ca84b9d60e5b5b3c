"""Migration 0005 moves PlayerToken (from the api app) and PrintedSheet (from the scoring
app) into the domain in the migration state only: a database made before keeps its rows,
a new one gets the tables, and the content types follow the models."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection

from tournaments import services
from tournaments.models import PlayerToken, PrintedSheet

BEFORE, MOVED = ("tournaments", "0004_master_games"), ("tournaments", "0005_moved_models")


@pytest.fixture(autouse=True)
def latest_schema():
    """Each test here migrates backwards; the database goes back to the latest schema
    after it, for the tests that follow."""
    yield
    call_command("migrate", verbosity=0)


@pytest.fixture
def event(db, django_user_model):
    user = django_user_model.objects.create_user("arb")
    event = services.event_create(
        name="Club", starts_on="2026-11-24", lexicon=services.lexicon_bundled(name="enable"), created_by=user
    )
    services.player_add(event=event, name="Anne")
    return event


@pytest.mark.django_db(transaction=True)
def test_a_database_made_before_the_move_keeps_its_tokens_and_sheets(event) -> None:
    token = services.player_token_issue(event=event, code=event.code, table=1)
    sheet = PrintedSheet.objects.create(event=event, kind="standings", pdf=b"%PDF-1.4 kept")
    # Back to 0004 the tables stay (the move made none): the state of a database made
    # by the api and scoring apps' own migrations, whose content types named those apps.
    call_command("migrate", *BEFORE, verbosity=0)
    assert {"api_playertoken", "scoring_printedsheet"} <= set(connection.introspection.table_names())
    ContentType.objects.filter(app_label="tournaments", model="playertoken").update(app_label="api")
    ContentType.objects.filter(app_label="tournaments", model="printedsheet").update(app_label="scoring")

    call_command("migrate", *MOVED, verbosity=0)

    assert PlayerToken.objects.get().key == token.key
    assert bytes(PrintedSheet.objects.get(pk=sheet.pk).pdf) == b"%PDF-1.4 kept"
    labels = set(
        ContentType.objects.filter(model__in=["playertoken", "printedsheet"]).values_list(
            "app_label", "model"
        )
    )
    assert labels == {("tournaments", "playertoken"), ("tournaments", "printedsheet")}


@pytest.mark.django_db(transaction=True)
def test_a_new_database_gets_the_moved_tables(event) -> None:
    # The test database itself was made from the migrations: the tables are there.
    tables = set(connection.introspection.table_names())
    assert {"api_playertoken", "scoring_printedsheet"} <= tables
    assert PlayerToken._meta.db_table == "api_playertoken"
    assert PrintedSheet._meta.db_table == "scoring_printedsheet"
