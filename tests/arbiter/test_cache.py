"""The Redis cache falls back to the process's memory while Redis is away (arbiter/cache.py):
the rate limits keep counting instead of failing every slip (the real Redis stopped in the
middle of a round: tests/integration/test_faults.py)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from arbiter import cache as fallback
from arbiter.cache import FallbackRedisCache


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # nothing listens there once closed


OPTIONS = {"OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}


@pytest.fixture
def location() -> str:
    return f"redis://127.0.0.1:{_closed_port()}/0"


@pytest.fixture
def away(location: str) -> FallbackRedisCache:
    return FallbackRedisCache(location, OPTIONS)


def test_without_redis_the_cache_counts_in_memory(away: FallbackRedisCache) -> None:
    assert not away.away
    assert away.add("rate:join:1.2.3.4", 0, 60) is True
    assert away.away  # the refusal was noticed: memory for a while
    assert away.incr("rate:join:1.2.3.4") == 1
    assert away.incr("rate:join:1.2.3.4") == 2
    away.set("view", {"board": "..."}, 30)
    assert away.get("view") == {"board": "..."}
    assert away.get_many(["view", "none"]) == {"view": {"board": "..."}}
    assert away.has_key("view")
    away.set_many({"a": 1, "b": 2})
    away.delete_many(["a"])
    assert away.get("a") is None and away.get("b") == 2
    assert away.touch("b", 10)
    assert away.delete("b")
    away.clear()
    assert away.get("view") is None


def test_redis_is_tried_again_after_a_while(
    away: FallbackRedisCache, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [100.0]
    monkeypatch.setattr(fallback.time, "monotonic", lambda: now[0])
    tried: list[str] = []
    real = fallback.RedisCache.get

    def counted(self: FallbackRedisCache, *args: object, **kwargs: object) -> object:
        tried.append("redis")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(fallback.RedisCache, "get", counted)
    assert away.get("x") is None and tried == ["redis"]
    now[0] += fallback.RETRY_SECONDS - 0.1
    assert away.get("x") is None and tried == ["redis"]  # still away: memory only
    now[0] += 0.2
    assert away.get("x") is None and tried == ["redis", "redis"]


def test_a_programming_error_is_not_hidden(away: FallbackRedisCache) -> None:
    with pytest.raises(ValueError):
        away.incr("never-set")  # Django's own refusal, from memory as from Redis


def test_the_cache_objects_of_one_process_share_redis_and_the_memory(
    away: FallbackRedisCache, location: str
) -> None:
    """Django makes a cache object per request context (one per request under ASGI): the
    next request's must use the same connection pool, know that Redis is away, and count
    on from the same memory."""
    assert away.add("rate:slip:7", 0, 60) is True and away.incr("rate:slip:7") == 1
    next_request = FallbackRedisCache(location, OPTIONS)
    assert next_request._cache is away._cache
    assert next_request.away
    assert next_request.incr("rate:slip:7") == 2
    other = FallbackRedisCache(location.replace("/0", "/1"), {"OPTIONS": {}})
    assert other._cache is not away._cache and not other.away


def test_the_process_makes_one_redis_client_per_connection_pool(location: str) -> None:
    """Django's client made one at each operation, which cost more than a GET."""
    client = FallbackRedisCache(location.replace("/0", "/2"), OPTIONS)._cache
    assert isinstance(client, fallback.SharedClients)
    first = client.get_client("a")
    assert client.get_client("b") is first and client.get_client("c", write=True) is first  # one server
    assert first.connection_pool is client._get_connection_pool(0)


def test_the_read_on_the_event_loop_falls_back_to_the_memory_as_well(away: FallbackRedisCache) -> None:
    """A live stream's session is read on the loop (arbiter/hall.py): Redis refusing it
    is noticed as for the other operations, and the memory answers meanwhile."""

    async def read(key: str) -> object:
        try:
            return await away.aget(key, "none")
        finally:
            await fallback.aclose()

    assert not away.away
    assert asyncio.run(read("view")) == "none"
    assert away.away  # the refusal was noticed
    away.set("view", {"board": "..."}, 30)  # in memory meanwhile
    assert asyncio.run(read("view")) == {"board": "..."}
