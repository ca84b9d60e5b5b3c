"""Fixtures of the services' tests."""

from __future__ import annotations

import datetime as dt

import pytest

from tournaments.models import Event, Game, Lexicon, Player
from tournaments.services.events import event_create
from tournaments.services.games import game_start
from tournaments.services.players import player_add


@pytest.fixture
def hall(enable_lexicon: Lexicon) -> tuple[Event, list[Player], Game]:
    """16 players: enough for a solo."""
    event = event_create(
        name="Hall",
        starts_on=dt.date(2026, 11, 21),
        lexicon=enable_lexicon,
        language="english",
        notation="gcg",
        random_seed=7,
    )
    players = [player_add(event=event, name=f"P{i}") for i in range(1, 17)]
    return event, players, game_start(event=event)
