"""The pages' fixtures: the English messages, a fresh cache, the event's arbitrator
logged in on the console, three players, the first round drawn and opened through the
console (the event and its word list are in tests/conftest.py; the terminal commands
have their own event, tests/rooms/commands/conftest.py)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.rooms.helpers import last_round, url
from tests.web import _english, _fresh_cache, arbitrator, console  # noqa: F401 (fixtures)
from tournaments.models import Event, Player, Round
from tournaments.services.players import player_add


@pytest.fixture
def players(event: Event) -> list[Player]:
    return [player_add(event=event, name=name) for name in ("Anne", "Bruno", "Chloé")]


@pytest.fixture
def drawn(console: Client, event: Event, players: list[Player]) -> Round:
    response = console.post(url(event, "game/start/"))
    assert response.status_code == 302
    return last_round(event)


@pytest.fixture
def opened(console: Client, event: Event, drawn: Round) -> Round:
    console.post(url(event, "open/"), {"seconds": 180})
    round = last_round(event)
    assert round.state == Round.State.OPEN
    return round
