"""Reads by key on an event loop, gathered: those asked while one is out go together in the
next, one round trip for all of them.

A hall's 2,000 phones open their live streams within a second or two (the round's
start, the Wi-Fi back): each stream reads a session from Redis and a token from
PostgreSQL, and read one at a time these round trips, each with its client's own work
around it, cost the web processes more CPU than the rest of the opening. Gathered, the
more streams open at once, the less each read costs."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Gathered(Generic[K, V]):
    """``read(keys)`` gives what it finds of ``keys`` (absent: not found); :meth:`get`
    asks for one key. One gathering per event loop (its futures belong to it)."""

    #: The most keys of one read (a statement's parameters, a command's arguments).
    MOST = 500

    def __init__(self, read: Callable[[list[K]], Awaitable[dict[K, V]]]) -> None:
        self.read = read
        self.waiting: list[tuple[K, asyncio.Future[V | None]]] = []
        self.task: asyncio.Task[None] | None = None

    async def get(self, key: K) -> V | None:
        """What ``read`` finds of ``key`` (None if nothing); its failure is raised here."""
        future: asyncio.Future[V | None] = asyncio.get_running_loop().create_future()
        self.waiting.append((key, future))
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._reads())
        return await future

    async def _reads(self) -> None:
        while self.waiting:
            batch, self.waiting = self.waiting[: self.MOST], self.waiting[self.MOST :]
            try:
                found = await self.read(list(dict.fromkeys(key for key, _ in batch)))
            except Exception as exc:  # each asker says what to do (Django's path)
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
            except BaseException:  # cancelled: nobody waits for ever
                for _, future in batch:
                    future.cancel()
                raise
            else:
                for key, future in batch:
                    if not future.done():
                        future.set_result(found.get(key))

    async def close(self) -> None:
        """Stop reading (tests, a loop each): what is still asked fails."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        for _, future in self.waiting:
            future.cancel()
        self.waiting = []
