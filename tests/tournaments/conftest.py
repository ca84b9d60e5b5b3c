"""The domain's fixtures: the English messages, an arbitrator, four players and their
game (the event and its word list are in tests/conftest.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User

from tournaments.models import Event, Game, Player
from tournaments.services.games import game_start
from tournaments.services.players import player_add


@pytest.fixture(autouse=True)
def _english(settings) -> None:
    """These tests match the English messages (the msgids): they run in English, for the
    services and the terminal commands as for the pages (no Accept-Language: the default
    language). tests/test_i18n.py checks the French side."""
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def arbitrator() -> User:
    return get_user_model().objects.create_user("arbitre", password="x")


@pytest.fixture
def players(event: Event) -> list[Player]:
    return [player_add(event=event, name=f"Player {i}") for i in range(1, 5)]


@pytest.fixture
def game(event: Event, players: list[Player]) -> Game:
    return game_start(event=event)
