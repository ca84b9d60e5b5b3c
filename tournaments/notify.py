"""Tell every web process at once that what an event shows has changed (Redis pub/sub).

Each web process looks at the versions of the events its phones listen to every 0.2 s
(rooms/views/live.py); a web process on another machine, or the worker, changes them.
With Redis configured, a public change (a draw, an opening, a close, a ruling, a
placement) is published on :data:`CHANNEL` once its transaction commits, and every
process looks again at once instead of at its next look. The looks go on: a message lost
(Redis restarting) costs a fraction of a second, never a change. Slips and joins are not
published: they change the arbitrator's console only, and a hall's 2,000 slips would be
2,000 messages to every process."""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction

if TYPE_CHECKING:
    import redis

logger = logging.getLogger(__name__)

CHANNEL = "arbiter:live"

_local = threading.local()


def live_url() -> str:
    """The Redis of the live messages: ``REDIS_URL``; empty on the embedded default (one
    web process, which sees its own changes at its next look)."""
    return str(getattr(settings, "ARBITER_LIVE_REDIS_URL", ""))


def _client(url: str) -> redis.Redis:
    # One connection per thread, made once: publishing is one round trip.
    client = getattr(_local, "client", None)
    if client is None or getattr(_local, "url", None) != url:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)
        _local.client, _local.url = client, url
    return client


def publish(event_id: int) -> bool:
    """Publish now; False (logged) when Redis does not answer: the looks find the change."""
    url = live_url()
    if not url:
        return False
    try:
        _client(url).publish(CHANNEL, str(event_id))
    except Exception as exc:  # redis' errors and the socket's alike
        logger.warning("live change of event %s not published: %s", event_id, exc)
        _local.client = None
        return False
    return True


def event_changed(event_id: int) -> None:
    """Publish once the current transaction commits (at once outside one): a process that
    looked before the commit would see the old versions."""
    if live_url():
        transaction.on_commit(lambda: publish(event_id))
