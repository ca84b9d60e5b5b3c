"""Django's Redis cache, falling back to this process's memory while Redis is away.

What the cache holds here can be lost without harm: the rate limits' counters (the API's
throttles, the pages' joins and slips, the logins) and short-lived views of the board.
When Redis stops in the middle of a round, failing every request that touches the cache
would turn slips into errors (docs/decisions.md); counting per process for those seconds
is a smaller evil than refusing slips. After a failure the process
stays on its memory for :data:`RETRY_SECONDS` before it tries Redis again, so that a
Redis that is down costs each request nothing but a look at the clock.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import weakref
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from arbiter.gathered import Gathered

logger = logging.getLogger(__name__)

#: Seconds on the process's memory after Redis failed, before Redis is tried again.
RETRY_SECONDS = 5.0
#: What says Redis is away (refused, reset, timed out), not a programming error.
UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, OSError)


class _Link:
    """One process's link to one Redis: its client (connection pool), its memory for
    while Redis is away, and since when it is away; its asynchronous clients, one per event
    loop (an asyncio connection belongs to the loop that opened it)."""

    def __init__(self, client: Any, memory: LocMemCache) -> None:
        self.client = client
        self.memory = memory
        self.away_until = 0.0
        self.lock = threading.Lock()
        self.on_loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopClient]
        self.on_loops = weakref.WeakKeyDictionary()

    def on_loop(self) -> _LoopClient:
        """The asynchronous client of the running loop, on the same server and options."""
        loop = asyncio.get_running_loop()
        found = self.on_loops.get(loop)
        if found is None:
            found = self.on_loops[loop] = _LoopClient(self.client)
        return found


class _LoopClient:
    """A Redis client of one event loop, whose reads are gathered (arbiter/gathered.py)."""

    def __init__(self, shared: Any) -> None:
        from redis import asyncio as aioredis

        own: Any = shared  # RedisCacheClient's attributes, private to Django
        options = {k: v for k, v in own._pool_options.items() if k != "parser_class"}
        self.client = aioredis.Redis.from_url(own._servers[0], **options)
        self.reads: Gathered[str, bytes] = Gathered(self._read)

    async def _read(self, keys: list[str]) -> dict[str, bytes]:
        values = await self.client.mget(keys)  # bytes: the client does not decode
        return {key: value for key, value in zip(keys, values, strict=True) if isinstance(value, bytes)}

    async def close(self) -> None:
        await self.reads.close()
        await self.client.aclose()


_LINKS: dict[str, _Link] = {}
_LINKS_LOCK = threading.Lock()


class SharedClients(RedisCacheClient):
    """Django's client makes a new ``redis.Redis`` for each operation, whose making costs
    more CPU than the GET it then sends (docs/decisions.md): one per connection pool here,
    shared by the process's threads, as redis-py allows (the pool hands each command its
    own connection)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        own: Any = self  # RedisCacheClient's attributes, private to Django (and to its stubs)
        index = own._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:  # two threads at once make one each: one is kept, both work
            client = self._clients[index] = own._client(connection_pool=own._get_connection_pool(index))
        return client


class FallbackRedisCache(RedisCache):
    """Django makes a cache object per request context: under ASGI, one per request. Its
    client, and so its connection pool, came new with each: every slip of a hall opened a
    connection to Redis (docs/decisions.md), and the memory
    for while Redis is away was new at each request, counting nothing. Both live here once
    per process and location (:class:`_Link`)."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        own: Any = self  # RedisCache's attributes, private to Django (and to its stubs)
        name = f"{server}|{sorted(own._options.items())!r}"
        with _LINKS_LOCK:
            link = _LINKS.get(name)
            if link is None:
                timeout = {"TIMEOUT": params.get("TIMEOUT", 300)}
                memory = LocMemCache(f"arbiter-fallback-{len(_LINKS)}", timeout)
                link = _LINKS[name] = _Link(SharedClients(own._servers, **own._options), memory)
        self._link = link
        self._memory = link.memory

    @cached_property
    def _cache(self) -> Any:
        return self._link.client

    @property
    def away(self) -> bool:
        return time.monotonic() < self._link.away_until

    def _failed(self, exc: BaseException) -> None:
        with self._link.lock:
            if not self.away:
                logger.warning("Redis cache unavailable (%s): counting in this process for now", exc)
            self._link.away_until = time.monotonic() + RETRY_SECONDS

    def _either(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if not self.away:
            try:
                return getattr(super(), name)(*args, **kwargs)
            except UNAVAILABLE as exc:
                self._failed(exc)
        return getattr(self._memory, name)(*args, **kwargs)

    def add(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("add", *args, **kwargs)

    def get(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("get", *args, **kwargs)

    def set(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("set", *args, **kwargs)

    def touch(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("touch", *args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("delete", *args, **kwargs)

    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("get_many", *args, **kwargs)

    def has_key(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("has_key", *args, **kwargs)

    def incr(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("incr", *args, **kwargs)

    def set_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("set_many", *args, **kwargs)

    def delete_many(self, *args: Any, **kwargs: Any) -> Any:
        return self._either("delete_many", *args, **kwargs)

    def clear(self) -> Any:
        return self._either("clear")

    async def aget(self, key: Any, default: Any = None, version: Any = None) -> Any:
        """:meth:`get` on the event loop itself, with the other reads of the moment. Django's
        ``aget`` runs ``get`` in the request's thread: a live stream's session, read so,
        sent each of a hall's 2,000 stream openings through the phones' one thread
        (arbiter/hall.py)."""
        if not self.away:
            try:
                value = await self._link.on_loop().reads.get(self.make_and_validate_key(key, version=version))
            except UNAVAILABLE as exc:
                self._failed(exc)
            else:
                return default if value is None else self._cache._serializer.loads(value)
        return self._memory.get(key, default, version)


async def aclose() -> None:
    """Close the asynchronous clients of the running loop (tests, a loop each)."""
    loop = asyncio.get_running_loop()
    for link in list(_LINKS.values()):
        on_loop = link.on_loops.pop(loop, None)
        if on_loop is not None:
            await on_loop.close()
