"""The pages' fixtures: the English messages, a fresh cache, the event's arbitrator
logged in on the console, three players, the first round drawn and opened through the
console (the event and its word list are in tests/conftest.py; the terminal commands
have their own event, tests/rooms/commands/conftest.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client

from tests.rooms.helpers import last_round, url
from tournaments.models import Event, Player, Round
from tournaments.services.players import player_add


@pytest.fixture(autouse=True)
def _english(settings) -> None:
    """These tests match the English messages (the msgids): they run in English, for the
    pages as for the terminal commands (no Accept-Language: the default language).
    tests/test_i18n.py checks the French side."""
    settings.LANGUAGE_CODE = "en"


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    from django.core.cache import caches

    from rooms.views import live, phone

    cache.clear()
    caches["fragments"].clear()
    live.forget()
    phone.forget_shared()


@pytest.fixture
def arbitrator(event: Event) -> User:
    user = get_user_model().objects.create_user("arbitre", password="secret-pass")
    Event.objects.filter(pk=event.pk).update(created_by=user)
    event.refresh_from_db()
    return user


@pytest.fixture
def console(arbitrator) -> Client:
    client = Client()
    client.force_login(arbitrator)
    return client


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
