from __future__ import annotations

import datetime as dt

import pytest

from tournaments import services
from tournaments.models import Event, Lexicon


@pytest.fixture(autouse=True)
def _english(settings) -> None:
    """These tests match the English messages (the msgids): they run in English, for the
    services and the terminal commands as for the pages (no Accept-Language: the default
    language). tests/test_i18n.py checks the French side."""
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def enable_lexicon(transactional_db: None) -> Lexicon:
    return services.lexicon_bundled(name="enable")


@pytest.fixture
def event(enable_lexicon: Lexicon) -> Event:
    return services.event_create(
        name="Club evening",
        starts_on=dt.date(2026, 11, 21),
        lexicon=enable_lexicon,
        language="english",
        notation="gcg",
        random_seed=7,
    )
