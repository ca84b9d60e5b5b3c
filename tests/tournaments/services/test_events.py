"""Creating and changing an event (tournaments.services.events)."""

from __future__ import annotations

import datetime as dt

import pytest

from tournaments.core import ApplicationError
from tournaments.models import Lexicon
from tournaments.services.events import event_create

pytestmark = pytest.mark.django_db


def test_event_create_stores_the_defaults_of_the_rules(enable_lexicon: Lexicon) -> None:
    event = event_create(name="E", starts_on=dt.date(2026, 1, 1), lexicon=enable_lexicon)
    assert (event.bingo_bonus, event.free_warnings, event.warning_penalty, event.solo_bonus) == (50, 3, 5, 10)
    assert (event.solo_min_players, event.early_rounds, event.mode, event.notation) == (
        16,
        15,
        "tournament",
        "fisf",
    )
    assert len(event.code) == 6


def test_event_create_refuses_unknown_or_impossible_settings(enable_lexicon: Lexicon) -> None:
    with pytest.raises(ApplicationError, match="unknown event settings: colour"):
        event_create(name="E", starts_on=dt.date(2026, 1, 1), lexicon=enable_lexicon, colour="red")
    with pytest.raises(ApplicationError, match="doubled tile set"):
        event_create(name="E", starts_on=dt.date(2026, 1, 1), lexicon=enable_lexicon, smooth=False)
    with pytest.raises(ApplicationError, match="minimums"):
        event_create(
            name="E",
            starts_on=dt.date(2026, 1, 1),
            lexicon=enable_lexicon,
            early_vowels=5,
            early_consonants=5,
        )
