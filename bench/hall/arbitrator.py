"""The arbitrator's side of the run, through the REST API with a token."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any

import aiohttp

from bench.hall import BenchError
from bench.hall.client import REQUEST_TIMEOUT, Answer, RequestLog, fetch

WAIT_TIMEOUT = 90.0  # a solve, an adjudication of a round without slips


class Arbitrator:
    """The arbitrator's side, through the REST API with a token."""

    def __init__(self, base: str, event_id: int, log: RequestLog) -> None:
        self.base = base
        self.event_id = event_id
        self.log = log
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar())
        self.headers: dict[str, str] = {"Accept": "application/json"}

    async def close(self) -> None:
        await self.session.close()

    def url(self, path: str) -> str:
        return f"{self.base}/api/events/{self.event_id}/{path}"

    async def login(self, *, token: str | None, user: str | None, password: str | None) -> None:
        if not token:
            answer = await fetch(
                self.session,
                self.log,
                "arbitrator",
                "POST",
                f"{self.base}/api/auth/token/",
                timeout=REQUEST_TIMEOUT,
                json={"username": user, "password": password},
            )
            if answer.status != 200:
                raise BenchError(f"arbitrator login refused ({answer.outcome}): {answer.text[:300]}")
            token = str(answer.json()["token"])
        self.headers["Authorization"] = f"Token {token}"

    async def call(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        ok: Sequence[int] = (200, 201),
        kind: str = "arbitrator",
    ) -> Any:
        answer = await self.answer(method, path, body=body, kind=kind)
        if answer.status not in ok:
            raise BenchError(f"{method} {self.url(path)}: {answer.outcome} {answer.text[:500]}")
        return answer.json()

    async def answer(self, method: str, path: str, *, body: Any = None, kind: str = "arbitrator") -> Answer:
        options: dict[str, Any] = {"headers": self.headers}
        if body is not None:
            options["json"] = body
        return await fetch(
            self.session, self.log, kind, method, self.url(path), timeout=REQUEST_TIMEOUT, **options
        )

    async def current_round(self) -> dict[str, Any] | None:
        answer = await self.answer("GET", "rounds/current/", kind="round state")
        if answer.status == 404:
            return None
        if answer.status != 200:
            raise BenchError(f"the current round: {answer.outcome} {answer.text[:300]}")
        found: dict[str, Any] = answer.json()
        return found

    async def wait_round(self, ready: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT_TIMEOUT
        while time.monotonic() < deadline:
            found = await self.current_round()
            if found is not None and ready(found):
                return found
            await asyncio.sleep(0.1)
        raise BenchError(f"{what}: not within {WAIT_TIMEOUT:.0f} s (is a worker running?)")

    async def ensure_players(self, count: int) -> dict[int, str]:
        """Tables 1 to ``count`` registered; their seat codes (the table cards) by table."""
        have = {int(p["table"]) for p in await self.call("GET", "players/")}
        missing = [t for t in range(1, count + 1) if t not in have]
        if missing:
            csv = "name,table\n" + "".join(f"Phone {t},{t}\n" for t in missing)
            await self.call("POST", "players/import/", body={"csv": csv})
        return {int(p["table"]): str(p["seat_code"]) for p in await self.call("GET", "players/")}

    async def drawn_round(self) -> dict[str, Any]:
        """The current round drawn and solved: a game started and a rack drawn if needed."""
        game = await self.answer("GET", "game/")
        if game.status == 404 or (game.status == 200 and game.json().get("game_state") != "playing"):
            await self.call("POST", "games/")
        found = await self.current_round()
        if found is None or found["state"] == "placed":
            await self.call("POST", "rounds/draw/", body={})
            found = await self.current_round()
        if found is None or found["state"] != "drawn":
            state = found["state"] if found else "none"
            raise BenchError(
                f"the current round is {state}: finish it before the bench (or start a new game)"
            )
        return await self.wait_round(lambda r: r["move_count"] is not None, "the tops of the drawn round")

    async def play_without_slips(self) -> None:
        """A round opened, closed at once, ruled and placed: the board gets a word."""
        await self.drawn_round()
        await self.call("POST", "rounds/current/open/", body={"seconds": 60})
        await self.call("POST", "rounds/current/close/")
        await self.wait_round(
            lambda r: r["state"] == "adjudicated", "the adjudication of a round without slips"
        )
        await self.call("POST", "rounds/current/place/", body={"draw_next": True})
