"""Reads by key gathered on an event loop (arbiter/gathered.py): the hall's streams read
their sessions and tokens so."""

from __future__ import annotations

import asyncio

import pytest

from arbiter.gathered import Gathered


def test_the_reads_asked_while_one_is_out_go_together_in_the_next() -> None:
    reads: list[list[str]] = []

    async def read(keys: list[str]) -> dict[str, str]:
        reads.append(keys)
        await asyncio.sleep(0.01)
        return {key: key.upper() for key in keys if key != "absent"}

    async def run() -> list[str | None]:
        gathered: Gathered[str, str] = Gathered(read)
        first = asyncio.ensure_future(gathered.get("a"))
        await asyncio.sleep(0)  # the first read is out
        rest = [gathered.get(key) for key in ("b", "c", "b", "absent")]
        return [await first, *await asyncio.gather(*rest)]

    assert asyncio.run(run()) == ["A", "B", "C", "B", None]
    assert reads == [["a"], ["b", "c", "absent"]]  # a key asked twice is read once


def test_a_read_that_fails_fails_each_of_its_askers_and_the_next_reads_go_on() -> None:
    async def read(keys: list[str]) -> dict[str, str]:
        if "bad" in keys:
            raise OSError("the server went away")
        return {key: key for key in keys}

    async def run() -> tuple[list[object], str | None]:
        gathered: Gathered[str, str] = Gathered(read)
        failed = await asyncio.gather(gathered.get("bad"), gathered.get("x"), return_exceptions=True)
        return failed, await gathered.get("y")

    failed, after = asyncio.run(run())
    assert [type(f) for f in failed] == [OSError, OSError] and after == "y"


def test_a_read_takes_at_most_most_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Gathered, "MOST", 2)
    sizes: list[int] = []

    async def read(keys: list[str]) -> dict[str, str]:
        sizes.append(len(keys))
        return {}

    async def run() -> None:
        gathered: Gathered[str, str] = Gathered(read)
        await asyncio.gather(*(gathered.get(str(n)) for n in range(5)))

    asyncio.run(run())
    assert sizes == [2, 2, 1]


def test_closing_cancels_what_is_still_asked() -> None:
    async def read(keys: list[str]) -> dict[str, str]:
        await asyncio.sleep(10)
        return {}

    async def run() -> bool:
        gathered: Gathered[str, str] = Gathered(read)
        asked = asyncio.ensure_future(gathered.get("a"))
        await asyncio.sleep(0.01)
        await gathered.close()
        with pytest.raises(asyncio.CancelledError):
            await asked
        return gathered.task is not None and gathered.task.done()

    assert asyncio.run(run())
