"""Live changes across processes through a real Redis (tournaments/notify.py publishes,
rooms/views/live.py listens): a change published by one process pokes the channel of
another, and a Redis that goes away only stops the messages."""

from __future__ import annotations

import asyncio
import threading
import time
from types import SimpleNamespace

import pytest
from redis import Redis

from rooms.views import live
from tests.integration.conftest import require_redis
from tournaments import notify

pytestmark = pytest.mark.integration


def test_a_change_published_by_another_process_pokes_the_channel(settings) -> None:
    """The channel makes no look of its own here: only the message can poke it."""
    url = require_redis()
    settings.ARBITER_LIVE_REDIS_URL = url
    redis = Redis.from_url(url)

    def subscribed() -> bool:
        return any(count for _, count in redis.pubsub_numsub(notify.CHANNEL))

    async def scenario() -> bool:
        channel = live._Channel(SimpleNamespace(pk=424242))  # no look: only the message
        live._channels[424242] = channel
        listener = asyncio.ensure_future(live._listen(url))
        try:
            # The listener's subscription, as Redis counts it (a busy machine takes longer).
            async with asyncio.timeout(WAIT_SECONDS):
                while not subscribed():
                    await asyncio.sleep(0.02)
            # Published from another thread with the sync client, as a worker or another
            # web process does after its commit.
            threading.Thread(target=notify.publish, args=(424242,)).start()
            async with asyncio.timeout(WAIT_SECONDS):
                await channel._poked.wait()
            return channel._poked.is_set()
        finally:
            listener.cancel()
            live._channels.pop(424242, None)
            await asyncio.gather(listener, return_exceptions=True)

    try:
        assert asyncio.run(scenario())
    finally:
        redis.close()


#: The longest these tests wait for what they wait for (a busy machine is slow, not wrong).
WAIT_SECONDS = 30


def test_without_redis_publishing_says_no_and_raises_nothing(settings, caplog) -> None:
    settings.ARBITER_LIVE_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    started = time.monotonic()
    assert notify.publish(7) is False
    assert time.monotonic() - started < 2
    assert "not published" in caplog.text
