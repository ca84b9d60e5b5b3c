"""A phone's live stream opened on the event loop (arbiter/hall.py), on PostgreSQL and Redis,
through the whole ASGI application as uvicorn calls it: its session read from Redis and its
token from PostgreSQL there, never in the phones' thread; the same answer as Django's path;
and everything else (an arbitrator, a stranger, a rack order in the URL, a failure) left to
Django's path. Needs ``DATABASE_URL`` and ``REDIS_URL`` (skipped locally without them,
failed in CI).
"""

from __future__ import annotations

import asyncio
import json
from importlib import import_module
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.test import Client
from redis import asyncio as redis_asyncio

from arbiter import asgi, hall
from rooms.views import live
from rooms.views.common import SESSION_PLAYERS
from rooms.views.phone import SORT_KEY
from tests.integration.conftest import require_redis
from tests.tournaments.services.test_phone_slips import token
from tournaments.models import Event, Player, Round
from tournaments.selectors.players import aplayer_tokens, player_token

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

#: Headers that differ between two answers for reasons of their own.
OWN = {b"date", b"expires"}


@pytest.fixture(autouse=True)
def _redis() -> None:
    require_redis()
    if not hasattr(cache, "away"):
        pytest.fail("REDIS_URL is set but the cache is not Redis", pytrace=False)


@pytest.fixture
def paths(monkeypatch) -> dict[str, list[Any]]:
    """What the loop found for each stream (a listener, or None: Django's path), and each
    request the phones' thread answered."""
    seen: dict[str, list[Any]] = {"loop": [], "thread": [], "seats": []}
    found, respond, astream = live.aphone_listener, asgi.OneThreadASGIHandler._respond, live._astream

    async def spy_found(*args: Any) -> Any:
        seen["loop"].append(await found(*args))
        return seen["loop"][-1]

    def spy_respond(self: Any, scope: dict[str, Any], body_file: Any) -> Any:
        seen["thread"].append(scope["path"])
        return respond(self, scope, body_file)

    def spy_astream(event: Event, arbitrator: bool, seat: Any = None, held: Any = frozenset()) -> Any:
        seen["seats"].append(seat)
        return astream(event, arbitrator, seat, held)

    monkeypatch.setattr(live, "aphone_listener", spy_found)
    monkeypatch.setattr(asgi.OneThreadASGIHandler, "_respond", spy_respond)
    monkeypatch.setattr(live, "_astream", spy_astream)
    return seen


def session(**data: Any) -> str:
    """The cookie header of a new session holding ``data`` (written as the pages write it:
    the database and the cache)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    for key, value in data.items():
        store[key] = value
    store.save()
    return f"{settings.SESSION_COOKIE_NAME}={store.session_key}"


def seated(player: Player, key: str, **more: Any) -> str:
    return session(**{SESSION_PLAYERS: {str(player.event_id): {"player": player.pk, "token": key}}}, **more)


Answer = tuple[int, dict[bytes, bytes], list[str]]


def open_stream(path: str, cookie: str = "", query: bytes = b"panel=1") -> Answer:
    """``path``'s stream through arbiter.asgi.application until its first two messages (or
    its whole answer, when it is no stream), then the phone leaves."""
    return open_streams([(path, cookie, query)])[0]


def open_streams(asked: list[tuple[str, str, bytes]]) -> list[Answer]:
    """:func:`open_stream` of each of ``asked`` (path, cookie, query), all at once."""

    async def run() -> list[Answer]:
        try:
            return list(await asyncio.wait_for(asyncio.gather(*(_stream(*one) for one in asked)), 30))
        finally:
            live.STOP.set()  # the channel's look ends with the loop
            await asyncio.sleep(live.CHECK_SECONDS * 2)
            live.STOP.clear()
            await hall.close_pools()

    answers = asyncio.run(run())
    live.forget()
    return answers


async def _stream(path: str, cookie: str, query: bytes) -> Answer:
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": query,
        "root_path": "", "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000),
        "headers": [(b"host", b"127.0.0.1"), (b"accept-language", b"fr"), (b"cookie", cookie.encode())],
    }  # fmt: skip
    sent: list[dict[str, Any]] = []
    asked: list[int] = []

    def bodies() -> list[str]:
        return [m["body"].decode() for m in sent if m["type"] == "http.response.body" and m.get("body")]

    def whole() -> bool:
        return any(m["type"] == "http.response.body" and not m.get("more_body") for m in sent)

    async def receive() -> dict[str, Any]:
        asked.append(1)
        if len(asked) == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        while len(bodies()) < 2 and not whole():
            await asyncio.sleep(0.01)
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await asgi.application(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], {name.lower(): value for name, value in start["headers"]}, bodies()


def _first_message(chunks: list[str]) -> dict[str, Any]:
    """The stream's first message (its versions), the server's clock aside."""
    assert chunks[0] == f"retry: {live.RETRY_MS}\n\n"
    kind, data = chunks[1].split("\n", 1)
    body = json.loads(data.removeprefix("data: "))
    body.pop("now")
    return {"kind": kind, **body}


def test_a_phones_stream_is_opened_on_the_loop_and_answered_as_djangos_path_answers(
    open_round: tuple[Round, list[Player]], paths: dict[str, list[Any]], monkeypatch
) -> None:
    round, (anne, bruno, _c) = open_round
    path = f"/live/{round.game.event_id}/stream/"
    cookies = seated(anne, token(anne)), seated(bruno, token(bruno))
    Session.objects.all().delete()  # in Redis only: read there
    loop_status, loop_headers, loop_chunks = open_stream(path, cookies[0])
    assert [listener is not None for listener in paths["loop"]] == [True]
    assert paths["thread"] == []  # neither the session nor the token read in the thread
    monkeypatch.setattr(hall, "takes_stream", lambda scope: False)
    django = open_stream(path, cookies[1])
    assert len(paths["loop"]) == 1 and paths["thread"] == [path]

    assert loop_status == django[0] == 200
    assert loop_headers[b"content-type"].startswith(b"text/event-stream")
    # Django's path read the session (Vary: Cookie); the loop's read it before the chain.
    assert {k: v for k, v in loop_headers.items() if k not in OWN and k != b"vary"} == {
        k: v for k, v in django[1].items() if k not in OWN and k != b"vary"
    }
    assert _first_message(loop_chunks) == _first_message(django[2])
    assert _first_message(loop_chunks)["kind"] == "event: version" and "full" not in loop_chunks[1]
    # The same seat: the player, the page's language, the rack order kept in the session.
    loop_seat, django_seat = paths["seats"]
    assert (loop_seat.player, loop_seat.language, loop_seat.order) == (anne.pk, "fr", "v")
    assert (django_seat.player, django_seat.language, django_seat.order) == (bruno.pk, "fr", "v")


def test_streams_that_open_together_read_their_sessions_and_tokens_together(
    open_round, paths, monkeypatch
) -> None:
    round, players = open_round
    path = f"/live/{round.game.event_id}/stream/"
    cookies = [seated(player, token(player)) for player in players]
    token_reads: list[int] = []
    session_reads: list[int] = []
    tokens, mget = aplayer_tokens, redis_asyncio.Redis.mget

    async def counted_tokens(keys: list[str], db: Any) -> Any:
        token_reads.append(len(keys))
        return await tokens(keys, db)

    async def counted_mget(self: Any, keys: list[str], *args: Any) -> Any:
        session_reads.append(len(keys))
        return await mget(self, keys, *args)

    monkeypatch.setattr(hall, "aplayer_tokens", counted_tokens)
    monkeypatch.setattr(redis_asyncio.Redis, "mget", counted_mget)
    answers = open_streams([(path, cookie, b"panel=1") for cookie in cookies])
    assert [status for status, _h, _c in answers] == [200, 200, 200] and paths["thread"] == []
    assert sorted(seat.player for seat in paths["seats"]) == sorted(p.pk for p in players)
    # The first read alone, the two others together while it was out (or all three).
    assert sum(token_reads) == 3 and len(token_reads) < 3, token_reads
    assert sum(session_reads) >= 3 and len(session_reads) < sum(session_reads), session_reads


def test_the_rack_order_kept_in_the_session_is_the_seats(open_round, paths) -> None:
    round, (anne, _b, _c) = open_round
    status, _h, _chunks = open_stream(
        f"/live/{round.game.event_id}/stream/", seated(anne, token(anne), **{SORT_KEY: "a"})
    )
    assert status == 200 and paths["thread"] == []
    assert paths["seats"][0].order == "a" and paths["seats"][0].token == paths["loop"][0].token


def test_a_session_found_in_the_database_only_is_read_there(open_round, paths) -> None:
    round, (anne, _b, _c) = open_round
    cookie = seated(anne, token(anne))
    # Redis lost it (restarted): the session is still in the database.
    cache.delete(import_module(settings.SESSION_ENGINE).SessionStore(cookie.split("=", 1)[1]).cache_key)
    status, _h, chunks = open_stream(f"/live/{round.game.event_id}/stream/", cookie)
    assert status == 200 and paths["loop"][0] is not None and paths["loop"][0].player.pk == anne.pk
    assert _first_message(chunks)["kind"] == "event: version"


def test_what_the_loop_does_not_open_goes_to_djangos_path(open_round, paths) -> None:
    round, (anne, bruno, chloe) = open_round
    event = round.game.event
    path = f"/live/{event.pk}/stream/"
    # A stranger, a player of another seat's token, a token the arbitrator released.
    assert open_stream(path)[0] == 403
    assert open_stream(path, seated(anne, token(bruno)))[0] == 403
    released = token(chloe)
    cookie = seated(chloe, released)
    player_token(released).delete()  # type: ignore[union-attr]
    assert open_stream(path, cookie)[0] == 403
    # No such event: 404, as Django's path says.
    assert open_stream("/live/999999/stream/", seated(anne, token(anne)))[0] == 404
    assert paths["loop"] == [None] * 4 and len(paths["thread"]) == 4
    # The arbitrator (a logged-in session): Django's path, the slips' version with it.
    user = User.objects.create_user("arbitre", password="x")
    Event.objects.filter(pk=event.pk).update(created_by=user)
    arbitrator = Client()
    arbitrator.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    status, _h, chunks = open_stream(path, f"{name}={arbitrator.cookies[name].value}")
    assert status == 200 and '"full"' in chunks[1] and len(paths["thread"]) == 5
    # A rack order in the URL is written to the session: Django's path, and it is kept.
    cookie = seated(anne, token(anne))
    status, _h, _chunks = open_stream(path, cookie, query=b"panel=1&sort=a")
    assert status == 200 and len(paths["thread"]) == 6 and paths["seats"][-1].order == "a"


@pytest.mark.parametrize(
    "failure",
    [psycopg.OperationalError("the server closed the connection"), OSError("the network is unreachable")],
)
def test_a_failure_on_the_loop_leaves_the_stream_to_djangos_path(
    open_round, paths, monkeypatch, failure
) -> None:
    round, (anne, _b, _c) = open_round

    async def failing(keys: list[str], db: Any) -> Any:
        raise failure

    monkeypatch.setattr(hall, "aplayer_tokens", failing)
    status, _h, chunks = open_stream(f"/live/{round.game.event_id}/stream/", seated(anne, token(anne)))
    assert status == 200 and _first_message(chunks)["kind"] == "event: version"
    assert paths["thread"] == [f"/live/{round.game.event_id}/stream/"]
    assert paths["seats"][0].player == anne.pk
