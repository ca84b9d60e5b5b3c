"""The projector (rooms.views.hall) and the live endpoints the pages poll or stream (rooms.views.live)."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from django.test import Client

from tests.rooms.helpers import live_forget
from tests.rooms.helpers import phone as _phone
from tests.rooms.helpers import url as _url
from tournaments.models import Event, Round, Ruling
from tournaments.services.games import game_end
from tournaments.services.players import player_add
from tournaments.services.rounds import round_open, round_pause, round_resume
from tournaments.services.slips import slip_submit
from tournaments.standings import game_standings

pytestmark = pytest.mark.django_db(transaction=True)  # the streams read from threads of their own


def test_the_projector_shows_the_join_qr_and_the_rack_once_open(
    console: Client, event: Event, opened
) -> None:
    page = console.get(f"/hall/{event.pk}/").content.decode()
    assert "<svg" in page and f"/j/{event.code}/" in page
    assert "countdown huge" in page


def test_live_versions_change_with_the_state(console: Client, event: Event, drawn: Round) -> None:
    anne = _phone(event, 1)
    before = anne.get(f"/live/{event.pk}/").json()
    assert set(before) == {"public", "deadline", "paused", "state", "now"}  # no "full" for a player
    full = console.get(f"/live/{event.pk}/").json()
    assert "full" in full
    console.post(_url(event, "open/"), {"seconds": 180})
    live_forget()
    after = anne.get(f"/live/{event.pk}/").json()
    assert after["public"] != before["public"] and after["state"] == "open" and after["deadline"]
    # A slip changes what the arbitrator sees, not what the phones show.
    anne.post(f"/p/{event.pk}/slip/", {"coordinates": "8H", "word": "WORD"})
    live_forget()
    assert anne.get(f"/live/{event.pk}/").json()["public"] == after["public"]
    assert console.get(f"/live/{event.pk}/").json()["full"] != full["full"]


def test_a_paused_clock_is_told_to_every_page_with_its_time_left(
    console: Client, event: Event, opened: Round
) -> None:
    anne = _phone(event, 1)
    running = anne.get(f"/live/{event.pk}/").json()
    assert running["paused"] is None
    held = round_pause(round=opened)
    live_forget()
    body = anne.get(f"/live/{event.pk}/").json()
    assert body["public"] != running["public"]  # the panels reload with the held clock
    assert body["paused"] == held.paused_ms and 0 < body["paused"] <= event.round_seconds * 1000
    page = console.get(f"/hall/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f'data-paused="{held.paused_ms}"' in page and ">suspendu<" in page
    round_resume(round=held)
    live_forget()
    assert anne.get(f"/live/{event.pk}/").json()["paused"] is None


def test_live_is_refused_to_strangers(event: Event, players) -> None:
    assert Client().get(f"/live/{event.pk}/").status_code == 403


def test_the_live_stream_sends_the_versions_then_each_change(
    console: Client, event: Event, drawn: Round
) -> None:
    from rooms.views import live

    response = console.get(f"/live/{event.pk}/stream/")
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    assert response["X-Accel-Buffering"] == "no"
    chunks = iter(response.streaming_content)
    assert next(chunks).decode() == f"retry: {live.RETRY_MS}\n\n"
    first = next(chunks).decode()
    assert first.startswith("event: version\ndata: ")
    body = json.loads(first.split("data: ", 1)[1])
    assert set(body) == {"public", "full", "deadline", "paused", "state", "now"} and body["state"] == "drawn"
    round_open(round=drawn)
    live_forget()
    changed = json.loads(next(chunks).decode().split("data: ", 1)[1])
    assert changed["state"] == "open" and changed["public"] != body["public"] and changed["deadline"]
    response.close()


def test_a_player_stream_has_no_slip_version_and_strangers_get_none(event: Event, drawn: Round) -> None:
    anne = _phone(event, 1)
    response = anne.get(f"/live/{event.pk}/stream/")
    chunks = iter(response.streaming_content)
    next(chunks)
    body = json.loads(next(chunks).decode().split("data: ", 1)[1])
    assert "full" not in body
    response.close()
    assert Client().get(f"/live/{event.pk}/stream/").status_code == 403


def test_async_streams_sleep_until_a_change_and_share_one_look(
    event: Event, drawn: Round, monkeypatch
) -> None:
    """Under an ASGI server every stream of an event waits on one channel: the versions are
    read at most once per look of the channel for all of them (not once per stream), and a
    change reaches them all. Counted in the channel's looks, not in seconds: as true on a
    busy machine as on a quiet one."""
    import asyncio

    from asgiref.sync import sync_to_async

    from rooms.views import live

    reads = []
    real = live.live_versions

    def counted(event: Event):
        reads.append(1)
        return real(event)

    monkeypatch.setattr(live, "live_versions", counted)
    monkeypatch.setattr(live, "CHECK_SECONDS", 0.05)
    looks = []
    real_look = live._Channel._look

    async def look(self, fresh: bool = False) -> None:
        looks.append(1)
        await real_look(self, fresh)

    monkeypatch.setattr(live._Channel, "_look", look)
    wakes = []
    real_frame = live._Writer.frame

    def frame(self, versions, *more):
        wakes.append(1)
        return real_frame(self, versions, *more)

    monkeypatch.setattr(live._Writer, "frame", frame)

    async def until(done, what: str) -> None:
        # Bounded far above what a busy machine needs: a stream that never comes fails.
        try:
            async with asyncio.timeout(60):
                while not done():
                    await asyncio.sleep(0.01)
        except TimeoutError:
            raise AssertionError(f"still waiting for {what}") from None

    async def scenario() -> tuple[list[list[str]], tuple[int, int], tuple[int, int]]:
        received: list[list[str]] = [[] for _ in range(40)]

        async def consume(index: int) -> None:  # as the server does: pull, write, pull
            async for frame in live._astream(event, arbitrator=False):
                received[index].append(frame)

        tasks = [asyncio.ensure_future(consume(i)) for i in range(40)]
        await until(lambda: all(len(r) >= 2 for r in received), "every stream's first versions")
        at_start = len(reads), len(looks)
        idle_from = len(reads), len(looks), len(wakes)
        # Idle for five looks of the channel: every stream asleep, no versions written.
        await until(lambda: len(looks) >= idle_from[1] + 5, "five looks of the channel")
        idle = len(reads) - idle_from[0], len(looks) - idle_from[1]
        assert len(wakes) == idle_from[2]
        await sync_to_async(round_open, thread_sensitive=False)(round=drawn)
        live.forget_versions()
        await until(lambda: all(len(r) >= 3 for r in received), "every stream told of the change")
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await until(lambda: not live._channels, "the channel to stop with its last stream")
        return received, at_start, idle

    received, (reads_at_start, looks_at_start), (idle_reads, idle_looks) = asyncio.run(scenario())
    first = [r[:2] for r in received]
    changed = [r[2] for r in received]
    assert all(f[0] == f"retry: {live.RETRY_MS}\n\n" and f[1].startswith("event: version") for f in first)
    # One read per look whatever the number of streams (fewer: a look within the cache's
    # time reads none); a read per stream would be 40 per look.
    assert 1 <= reads_at_start <= looks_at_start
    assert idle_reads <= idle_looks
    states = {json.loads(frame.split("data: ", 1)[1])["state"] for frame in changed}
    assert states == {"open"}


def test_a_slip_wakes_the_arbitrators_stream_and_not_the_phones(
    event: Event, opened: Round, players, monkeypatch
) -> None:
    """``full`` changes with every slip; only the arbitrator's stream writes it. In the last
    seconds of a round a hall's phones' streams sleep through the slips (each woken five
    times a second to write nothing cost the slips a tenth of a core)."""
    import asyncio

    from asgiref.sync import sync_to_async

    from rooms.views import live

    monkeypatch.setattr(live, "CHECK_SECONDS", 0.05)
    woken = {True: 0, False: 0}
    real_frame = live._Writer.frame

    def frame(self, versions, *more):
        woken[self.arbitrator] += 1
        return real_frame(self, versions, *more)

    monkeypatch.setattr(live._Writer, "frame", frame)

    async def scenario() -> dict[bool, list[str]]:
        received: dict[bool, list[str]] = {True: [], False: []}

        async def consume(arbitrator: bool) -> None:
            async for frame in live._astream(event, arbitrator=arbitrator):
                received[arbitrator].append(frame)

        tasks = [asyncio.ensure_future(consume(a)) for a in (True, False, False)]
        while len(received[True]) < 2 or len(received[False]) < 4:
            await asyncio.sleep(0.01)
        before = dict(woken)
        await sync_to_async(slip_submit, thread_sensitive=False)(
            event=event, player=players[0], coordinates="8D", word="AA", announced_score=2
        )
        live.forget_versions()
        async with asyncio.timeout(5):
            while len(received[True]) < 3:
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # several looks: the phones' streams would have woken
        assert woken[False] == before[False]
        assert woken[True] > before[True]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return received

    received = asyncio.run(scenario())
    assert '"full"' in received[True][2] and len(received[False]) == 4


def test_an_async_stream_sends_a_heartbeat_when_nothing_changes(
    event: Event, drawn: Round, monkeypatch
) -> None:
    import asyncio

    from rooms.views import live

    monkeypatch.setattr(live, "HEARTBEAT_SECONDS", 0.2)

    async def scenario() -> list[str]:
        stream = live._astream(event, arbitrator=True)
        got = [await anext(stream) for _ in range(3)]
        await stream.aclose()
        return got

    got = asyncio.run(scenario())
    assert got[1].startswith("event: version") and got[2].startswith("event: ping")


def test_streams_opened_together_do_not_beat_together(event: Event) -> None:
    from rooms.views import live

    beats = [live._Writer(event, arbitrator=False).beat for _ in range(200)]
    low = live.HEARTBEAT_SECONDS * (1 - live.HEARTBEAT_SPREAD)
    assert all(low <= beat <= live.HEARTBEAT_SECONDS for beat in beats)
    # Spread over the band: no quarter of it holds more than half of the streams.
    quarters = Counter(min(3, int((beat - low) / (live.HEARTBEAT_SECONDS - low) * 4)) for beat in beats)
    assert len(quarters) == 4 and max(quarters.values()) < 100


def test_a_poked_channel_looks_at_once_instead_of_at_its_next_look(
    event: Event, drawn: Round, monkeypatch
) -> None:
    # A message from another process (tournaments/notify.py) pokes the channel: the
    # streams hear of the change now, not at the next look nor when the cache expires.
    import asyncio

    from asgiref.sync import sync_to_async

    from rooms.views import live

    monkeypatch.setattr(live, "CHECK_SECONDS", 30.0)
    monkeypatch.setattr(live, "CACHE_SECONDS", 30.0)

    async def scenario() -> float:
        received: list[str] = []

        async def consume() -> None:
            async for frame in live._astream(event, arbitrator=False):
                received.append(frame)

        task = asyncio.ensure_future(consume())
        while len(received) < 2:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        await sync_to_async(round_open, thread_sensitive=False)(round=drawn)
        started = asyncio.get_running_loop().time()
        live._channels[event.pk].poke()
        async with asyncio.timeout(3):
            while len(received) < 3:
                await asyncio.sleep(0.01)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        assert json.loads(received[2].split("data: ", 1)[1])["state"] == "open"
        return asyncio.get_running_loop().time() - started

    assert asyncio.run(scenario()) < 1.0


def test_negative_numbers_carry_a_real_minus_sign() -> None:
    from rooms.templatetags.arbiter import signed

    assert signed(-28) == "\u221228" and signed(0) == "0" and signed(12) == "12" and signed(None) == ""
    assert signed(-2.5) == "\u22122.5"


def test_the_projector_says_the_game_is_over_with_the_final_standings(
    console: Client, event: Event, opened: Round
) -> None:
    console.post(_url(event, "close/"))
    console.post(_url(event, "place/"))
    game_end(game=opened.game, reason="stopped")
    page = console.get(f"/hall/{event.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "La partie est terminée." in page and "Classement final" in page
    assert "coup 2" not in page and "Prochain tirage" not in page


def test_the_projector_draws_the_finished_game_in_the_boards_place(
    console: Client, event: Event, opened: Round
) -> None:
    from tests.rooms.helpers import best

    coordinates, word = best(opened)
    _phone(event, 2).post(f"/p/{event.pk}/slip/", {"coordinates": coordinates, "word": word})
    Event.objects.filter(pk=event.pk).update(hall_language="en")  # the hall in English
    console.post(_url(event, "close/"))
    page = console.get(f"/hall/{event.pk}/").content.decode()
    assert 'class="chart"' not in page and "hall-board" in page  # the game goes on
    console.post(_url(event, "place/"))
    game_end(game=opened.game, reason="stopped")
    page = console.get(f"/hall/{event.pk}/").content.decode()
    assert 'class="chart"' in page and "hall-board" not in page and "The game, round by round" in page
    said = page.split('class="chart"')[1].split('aria-label="')[1].split('"')[0]
    # The podium in the standings' order, each with the gap the standings print.
    top = opened.top_score
    assert said == (
        f"Game 1, round by round: the top of each round, then the gap to the top of "
        f"Bruno (0), Anne (\u2212{top}), Chloé (\u2212{top})."
    )


def test_the_projector_speaks_the_events_language_not_the_arbitrators(
    console: Client, event: Event, opened: Round
) -> None:
    """Issue 29, item 15: the console switched to English turned the hall's screen English."""
    console.post("/i18n/setlang/", {"language": "en"})
    assert 'lang="en"' in console.get(_url(event)).content.decode()  # the console in English
    page = console.get(f"/hall/{event.pk}/").content.decode()
    assert 'lang="fr"' in page and "Partie 1" in page and "Game 1" not in page
    Event.objects.filter(pk=event.pk).update(hall_language="en")
    console.post("/i18n/setlang/", {"language": "fr"})
    page = console.get(f"/hall/{event.pk}/").content.decode()
    assert 'lang="en"' in page and "Game 1" in page


def _ranked_and_open(console: Client, event: Event, opened: Round) -> None:
    """Round 1 placed (the standings after it), round 2 open."""
    console.post(_url(event, "close/"))
    console.post(_url(event, "place/"))
    console.post(_url(event, "open/"), {"seconds": 180})


def test_each_screen_of_the_hall_shows_its_one_thing(console: Client, event: Event, opened: Round) -> None:
    """Issue 32: a hall with several screens gives each one thing; the reloads keep it."""
    _ranked_and_open(console, event, opened)
    parts = {
        "board": 'class="hall-board"',
        "rack": 'class="hall-rack"',
        "clock": "countdown huge",
        "standings": 'class="hall-ranking',
        "join": 'class="join"',
    }
    expected = {
        "all": {"board", "rack", "clock", "standings", "join"},
        "board": {"board"},
        "round": {"rack", "clock", "join"},
        "standings": {"standings"},
        "anything": {"board", "rack", "clock", "standings", "join"},  # unknown: the single screen
    }
    for screen, shown in expected.items():
        page = console.get(f"/hall/{event.pk}/?screen={screen}").content.decode()
        assert {name for name, mark in parts.items() if mark in page} == shown, screen
        kept = "all" if screen == "anything" else screen
        assert f"?part=panel&amp;screen={kept}" in page, screen  # the live reloads ask for the same


def test_the_halls_standings_name_every_player_escaped_each_row_with_its_table(
    console: Client, event: Event, opened: Round
) -> None:
    player_add(event=event, name='<img src=x onerror=alert(1)> Zoé & "Léa"')
    _ranked_and_open(console, event, opened)
    Event.objects.filter(pk=event.pk).update(hall_language="en")
    page = console.get(f"/hall/{event.pk}/?screen=standings").content.decode()
    ranking = page.split('<table class="hall-ranking')[1].split("</table>")[0]
    assert "<img" not in ranking and "&lt;img src=x onerror=alert(1)&gt; Zoé &amp; &quot;Léa&quot;" in ranking
    assert ranking.count("<tr data-table=") == 4  # every player, hall.js shows them a page at a time
    # Each row is the standings' own: rank, name, total and the gap with a real minus sign.
    cells = re.findall(
        r'<tr data-table="(\d+)"><td>(\d+)</td><td class="name">[^<]*</td>'
        r"<td><b>([^<]*)</b></td><td>([^<]*)</td>",
        ranking,
    )
    expected = [
        (
            str(r.player.table),
            str(r.rank),
            str(r.total).replace("-", "\u2212"),
            str(r.diff).replace("-", "\u2212"),
        )
        for r in game_standings(opened.game)
    ]
    assert cells == expected and any(gap.startswith("\u2212") for *_, gap in cells)
    assert "Standings · after round 1" in page and 'data-page-text="page {p}/{n}"' in page
    Event.objects.filter(pk=event.pk).update(hall_language="fr")
    page = console.get(f"/hall/{event.pk}/?screen=standings").content.decode().replace("\xa0", " ")
    assert "Classement · après le coup 1" in page and "Négatif" in page


def test_the_halls_screens_share_one_reading_of_the_standings_per_public_version(
    console: Client, event: Event, opened: Round, monkeypatch
) -> None:
    """A hall's screens reload together at each public change: the standings of 2,000
    players are read and ranked once for all of them, again at the next change."""
    from rooms.views import hall

    _ranked_and_open(console, event, opened)
    read: list[int] = []
    real = hall.game_standings

    def counted(game, **options):  # type: ignore[no-untyped-def]
        read.append(game.pk)
        return real(game, **options)

    monkeypatch.setattr(hall, "game_standings", counted)
    for screen in ("all", "standings", "board", "all"):
        assert console.get(f"/hall/{event.pk}/?screen={screen}").status_code == 200
    assert len(read) == 1
    rulings = Ruling.objects.filter(round__game__event=event, round__number=1).select_related("player")
    ruling = rulings.order_by("player__table").first()
    assert ruling is not None
    console.post(
        _url(event, f"rulings/{ruling.pk}/"),
        {"credited": ruling.credited + 7, "warnings": "", "penalty": "", "reason": "test"},
    )
    live_forget()
    page = console.get(f"/hall/{event.pk}/?screen=standings").content.decode()
    row = page.split(f'data-table="{ruling.player.table}"')[1].split("</tr>")[0]
    assert len(read) == 2 and f"<b>{ruling.credited + 7}</b>" in row
