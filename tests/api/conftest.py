from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.tournaments.conftest import enable_lexicon, event  # noqa: F401  (shared fixtures)


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    cache.clear()
