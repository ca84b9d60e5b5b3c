"""What every browser test shares."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _joins_counted_per_test() -> None:
    """Each test's phones join from one address (localhost): the join page's limit (10 a
    minute per address) must count one test's joins, not the whole file's. Only their
    counters go: in CI the cache's Redis database is also Celery's broker."""
    from django.core.cache import cache

    from rooms.views.common import rate_key

    cache.delete_many([rate_key("join", address) for address in ("127.0.0.1", "::1")])
