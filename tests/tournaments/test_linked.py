"""An event on its own asks the multiplex nothing (no query of its tables, whatever it
does), and the domain announces what it did, inside its transaction, to whoever listens."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tournaments import signals
from tournaments.exports import export
from tournaments.linked import ON_ITS_OWN, linker
from tournaments.models import Event, Game, Round
from tournaments.printing import render_sheet
from tournaments.services.events import event_update
from tournaments.services.games import game_end
from tournaments.services.rounds import round_close, round_open, round_place, round_unplace
from tournaments.services.watchdog import pending

from .helpers import draw_round


def _multiplex_tables() -> set[str]:
    return {model._meta.db_table for model in apps.get_app_config("multiplex").get_models()}


def test_an_event_on_its_own_runs_no_query_of_the_multiplex(game: Game) -> None:
    tables = _multiplex_tables()
    assert len(tables) == 11 and linker(game.event) is ON_ITS_OWN
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            round = draw_round(game)
            round_open(round=round)
            round_close(round=Round.objects.get(pk=round.pk))
            round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
        round_unplace(game=game)
        event = Event.objects.get(pk=game.event_id)
        event_update(event=event, name="Renamed")
        for kind in ("standings", "rounds", "game"):
            render_sheet(kind, event=event, language="en")
        for kind in ("standings", "slips"):
            export(kind, event)
        game_end(game=Game.objects.get(pk=game.pk), reason="stopped")
    said = [q["sql"] for q in queries.captured_queries if any(t in q["sql"] for t in tables)]
    assert len(queries.captured_queries) > 100 and said == []
    # What the watchdog reads every few seconds is the multiplex's own business: its syncs.
    with CaptureQueriesContext(connection) as watched:
        pending()
    assert [q["sql"] for q in watched.captured_queries if "tournaments_hublink" in q["sql"]]


def test_a_linked_event_of_an_app_not_installed_says_which() -> None:
    event = Event(name="Far", linked_by="elsewhere")
    with pytest.raises(LookupError, match="linked by 'elsewhere', an app that is not installed"):
        linker(event)


@pytest.fixture
def heard() -> Iterator[list[tuple[str, Any, bool]]]:
    """What each signal carried, and whether it was sent inside a transaction."""
    said: list[tuple[str, Any, bool]] = []
    receivers = {}
    for name in ("round_drawn", "round_closed", "round_placed", "round_unplaced", "game_ended"):

        def receiver(sender: type, *, name: str = name, **kwargs: Any) -> None:
            (value,) = (v for k, v in kwargs.items() if k in ("round", "game"))
            said.append((name, value.pk, connection.in_atomic_block))

        receivers[name] = receiver
        getattr(signals, name).connect(receiver)
    yield said
    for name, receiver in receivers.items():
        getattr(signals, name).disconnect(receiver)


def test_the_domain_announces_each_step_once_inside_its_transaction(
    game: Game, heard: list[tuple[str, Any, bool]]
) -> None:
    first = draw_round(game)
    round_open(round=first)
    round_close(round=Round.objects.get(pk=first.pk))
    second = round_place(round=Round.objects.get(pk=first.pk))
    assert second is not None
    round_unplace(game=game)
    game_end(game=Game.objects.get(pk=game.pk), reason="stopped")
    # The placement is announced before the next rack is drawn, in the same transaction.
    assert heard == [
        ("round_drawn", first.pk, True),
        ("round_closed", first.pk, True),
        ("round_placed", first.pk, True),
        ("round_drawn", second.pk, True),
        ("round_unplaced", first.pk, True),
        ("game_ended", game.pk, True),
    ]


def test_a_refused_step_announces_nothing_that_stays(game: Game, heard: list[tuple[str, Any, bool]]) -> None:
    """A receiver's writes are rolled back with the step it heard of: an announcement is
    only as final as the transaction it was sent in."""
    round = draw_round(game)
    heard.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        round_open(round=round)
        round_close(round=Round.objects.get(pk=round.pk))
        raise RuntimeError("the step fails after its announcement")
    assert heard == [("round_closed", round.pk, True)]
    assert Round.objects.get(pk=round.pk).state == Round.State.DRAWN
