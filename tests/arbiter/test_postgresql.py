"""The PostgreSQL backend's pool check (arbiter/postgresql/base.py): made without a server,
the pool being opened only at the first connection."""

from __future__ import annotations

from typing import Any

import pytest
from psycopg_pool import ConnectionPool

from arbiter.postgresql import base
from arbiter.settings.database import database_from_url


class _Connection:
    """Stands for a psycopg connection: the check only keeps it as a weak key."""


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    done: list[Any] = []
    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(done.append))
    return done


def test_a_connection_is_checked_when_new_or_idle_and_not_when_just_used(
    checks: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(base.time, "monotonic", lambda: clock[0])
    first, second = _Connection(), _Connection()
    base.check_when_idle(first)
    assert checks == [first]  # never seen: checked
    clock[0] += base.IDLE_CHECK_SECONDS - 0.01
    base.check_when_idle(first)
    assert checks == [first]  # taken again in a burst: not checked
    base.check_when_idle(second)
    assert checks == [first, second]  # each connection on its own
    clock[0] += base.IDLE_CHECK_SECONDS
    base.check_when_idle(first)
    assert checks == [first, second, first]  # idle since its last use: checked


def test_the_pool_that_django_makes_uses_the_check() -> None:
    settings = database_from_url("DATABASE_URL", "postgresql://arbiter:x@127.0.0.1:9/arbiter")
    assert settings["ENGINE"] == "arbiter.postgresql"
    wrapper = base.DatabaseWrapper(
        {
            **settings,
            "TIME_ZONE": None,
            "AUTOCOMMIT": True,
            "ATOMIC_REQUESTS": False,
            "TEST": {},
            "CONN_MAX_AGE": 0,
        },
        alias="pool-check",
    )
    pool = wrapper.pool
    try:
        # psycopg_pool's hook, which Django fills with ConnectionPool.check_connection: if
        # either renames it, this fails rather than the check silently running each time.
        assert pool._check is base.check_when_idle
    finally:
        pool.close()
