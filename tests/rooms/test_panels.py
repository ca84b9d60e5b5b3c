"""The phones' panels sent by their live streams (rooms/views/panels.py): one build per
public version for every phone of a process, each phone sent its own lines and nobody
else's, and the plain version message whenever a panel cannot be sent."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
from collections import Counter
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from rooms.lines import player_lines
from tests.rooms.helpers import phone as _phone
from tests.rooms.helpers import url as _url
from tests.tournaments.helpers import closed_unruled
from tournaments.foreground import FOREGROUND
from tournaments.models import Event, Player, PlayerToken, Round
from tournaments.services.history import history_record
from tournaments.services.players import player_release, player_token_issue
from tournaments.services.rounds import round_close, round_publish
from tournaments.services.rulings import round_adjudicate

pytestmark = pytest.mark.django_db(transaction=True)  # the streams read from threads of their own


@pytest.fixture(autouse=True)
def _no_messages(settings) -> None:
    """The streams look on their clock, as on the embedded default: a test makes its change
    in one go (a close and its ruling, say), and with REDIS_URL set the close's message
    woke the streams between the two, a panel then built at the close (found running
    these tests after others that had connected to Redis on the loop)."""
    settings.ARBITER_LIVE_REDIS_URL = ""


def _data(frame: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(frame.split("data: ", 1)[1].split("\n", 1)[0])
    return found


async def _frames(streams: dict[str, Any], count: int, change: Any) -> dict[str, list[str]]:
    """Every stream's frames until each has ``count``, ``change`` made once each has its
    first version message."""
    received: dict[str, list[str]] = {name: [] for name in streams}

    async def consume(name: str) -> None:
        async for frame in streams[name]:
            received[name].append(frame)

    tasks = [asyncio.ensure_future(consume(name)) for name in streams]
    async with asyncio.timeout(10):
        while any(len(r) < 2 for r in received.values()):
            await asyncio.sleep(0.01)
        await sync_to_async(change, thread_sensitive=False)()
        from rooms.views import live

        live.forget_versions()
        while any(len(r) < count for r in received.values()):
            await asyncio.sleep(0.01)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return received


_phones: dict[tuple[int, int], Client] = {}


def _seat(player: Player, order: str = "v") -> Any:
    """The stream's seat of a phone that joined ``player``'s table (with its token)."""
    from rooms.views import panels

    token = PlayerToken.objects.filter(player=player, confirmed_at__isnull=False).first()
    if token is None:
        token = player_token_issue(event=player.event, code=player.event.code, seat=player.seat_code)
    return panels.Seat(player.pk, "en", order, token.key)


@pytest.fixture(autouse=True)
def _new_phones() -> None:
    _phones.clear()  # a test's phones joined its event only


def _slip(event: Event, table: int, move: str, score: int) -> None:
    coordinates, word = move.split()
    if (event.pk, table) not in _phones:
        _phones[event.pk, table] = _phone(event, table)
    response = _phones[event.pk, table].post(
        f"/p/{event.pk}/slip/", {"coordinates": coordinates, "word": word, "announced_score": score}
    )
    assert response.status_code == 302


def test_each_phone_stream_sends_the_shared_panel_and_its_own_lines_only(
    console: Client, event: Event, players: list[Player], opened: Round, monkeypatch
) -> None:
    from rooms.views import live

    monkeypatch.setattr(live, "CHECK_SECONDS", 0.05)
    _show_at_close(event)
    _slip(event, 1, "8H PROOF", 28)
    _slip(event, 2, "8D BOOF", 99)
    anne, bruno = players[0], players[1]
    streams = {
        "anne": live._astream(event, False, _seat(anne, "v")),
        "bruno": live._astream(event, False, _seat(bruno, "a")),
        "projector": live._astream(event, False),
    }

    def close() -> None:
        console.post(_url(event, "close/"))

    got = asyncio.run(_frames(streams, 3, close))
    assert all(frames[1].startswith("event: version") for frames in got.values())  # the page is new
    assert got["projector"][2].startswith("event: version")  # the projector reloads its regions
    for name in ("anne", "bruno"):
        assert got[name][2].startswith("event: panel\ndata: ")
    a, b = _data(got["anne"][2]), _data(got["bruno"][2])
    assert a["public"] == b["public"] == _data(got["projector"][2])["public"]
    assert a["state"] == "adjudicated" and "now" in a  # the tests' tasks run at once
    # The same panel, in each player's rack order; the slots empty, the lines beside.
    assert 'data-mine="receipt"></div>' in a["html"] and 'data-mine="result"></div>' in a["html"]
    assert "BOOF" not in a["html"] and "BOOF" not in b["html"]
    assert 'class="current"' in a["html"] and a["html"] != b["html"]
    assert "8H PROOF" in a["mine"]["receipt"] and "BOOF" not in a["mine"]["receipt"]
    assert "8D BOOF" in b["mine"]["receipt"] and "PROOF" not in b["mine"]["receipt"]
    assert "PROOF" in a["mine"]["result"] and "BOOF" not in a["mine"]["result"]
    # Published (this test's event shows the results at the close): counted before the
    # placement, as the standings count it.
    assert "BOOF" in b["mine"]["result"] and a["mine"]["total"] == 28 and b["mine"]["total"] == 0


def test_a_stream_whose_table_was_released_carries_no_more_of_its_lines_and_ends(
    console: Client, event: Event, players: list[Player], opened: Round, monkeypatch
) -> None:
    """Found by the probe of issue 30: a phone's stream opened before the arbitrator
    released its table (or gave it a new seat code) went on sending the table's panel,
    the next holder's slip in it, for the rest of its five minutes."""
    from rooms.views import live

    monkeypatch.setattr(live, "CHECK_SECONDS", 0.05)
    _show_at_close(event)
    anne = players[0]
    thief = _seat(anne)
    streams = {"thief": live._astream(event, False, thief)}

    def release_then_the_real_anne_hands_in() -> None:
        player_release(player=anne, by=None)
        _slip(event, 1, "8H PROOF", 28)  # the real Anne, with her card, on her own phone
        console.post(_url(event, "close/"))

    got = asyncio.run(_frames(streams, 3, release_then_the_real_anne_hands_in))["thief"]
    assert not any("PROOF" in frame for frame in got), got
    assert got[2].startswith("event: version")  # public: the phone asks for its page, refused

    async def ended() -> list[str]:
        # The stream has ended: nothing more comes, whatever changes.
        rest = [frame async for frame in streams["thief"]]
        return rest

    assert asyncio.run(asyncio.wait_for(ended(), 5)) == []


def test_the_lines_sent_are_those_the_page_shows(
    console: Client, event: Event, players: list[Player], opened: Round, monkeypatch
) -> None:
    """The phone's page and its stream show one player the same slip and the same ruling
    (phone.js puts the stream's lines where the page has them)."""
    from rooms.views import live

    monkeypatch.setattr(live, "CHECK_SECONDS", 0.05)
    _show_at_close(event)
    _slip(event, 1, "8H PROOF", 28)
    anne = players[0]
    streams = {"anne": live._astream(event, False, _seat(anne, "v"))}

    def close() -> None:
        console.post(_url(event, "close/"))  # and ruled at once (the tests' tasks)

    sent = _data(asyncio.run(_frames(streams, 3, close))["anne"][2])
    page = _phones[event.pk, 1].get(f"/p/{event.pk}/?part=panel", HTTP_HX_REQUEST="true").content.decode()

    def slot(html: str, name: str) -> str:
        found = re.search(rf'data-mine="{name}">(.*?)</div>', html, re.S)
        assert found is not None
        return found.group(1).strip()

    assert sent["mine"]["result"].strip() == slot(page, "result") and "PROOF" in slot(page, "result")
    assert sent["mine"]["receipt"].strip() == slot(page, "receipt")
    assert "28" in sent["mine"]["result"]
    # The player's chart, drawn for this player only: the shared panel has its slot empty.
    assert sent["mine"]["chart"].startswith("<svg") and sent["mine"]["chart"] == slot(page, "chart")
    assert "28 points out of 28" in sent["mine"]["chart"] and 'data-mine="chart"></div>' in sent["html"]


def test_one_build_serves_every_phone_of_the_process(
    event: Event, players: list[Player], opened: Round, monkeypatch
) -> None:
    from rooms.views import live, panels

    monkeypatch.setattr(live, "CHECK_SECONDS", 0.05)
    builds: list[int] = []
    real = panels.build

    def counted(event: Event, wanted: str, seats: list[panels.Seat], pause: Any) -> panels.Panels:
        builds.append(len(seats))
        busy.append(FOREGROUND.count)  # the backups wait for the build (tournaments/foreground.py)
        return real(event, wanted, seats, pause)

    busy: list[int] = []
    monkeypatch.setattr(panels, "build", counted)
    seats = [_seat(players[i % 3], "v") for i in range(30)]
    streams = {str(i): live._astream(event, False, seat) for i, seat in enumerate(seats)}
    got = asyncio.run(_frames(streams, 3, lambda: round_close(round=opened)))
    assert all(frames[2].startswith("event: panel") for frames in got.values())
    # One build per public version (closed, then ruled at once by the tests' tasks) for
    # the three players listening, not one per stream.
    assert set(builds) == {3} and len(builds) <= 2
    assert busy and min(busy) >= 1 and FOREGROUND.count == 0


def test_builds_in_a_burst_of_changes_wait_for_each_other(
    event: Event, players: list[Player], opened: Round, monkeypatch
) -> None:
    import time

    from rooms.views import live, panels

    monkeypatch.setattr(live, "CHECK_SECONDS", 0.05)
    monkeypatch.setattr(live, "PANEL_EVERY_SECONDS", 0.5)
    built: list[float] = []
    real = panels.build

    def timed(event: Event, wanted: str, seats: list[panels.Seat], pause: Any) -> panels.Panels:
        built.append(time.monotonic())
        return real(event, wanted, seats, pause)

    monkeypatch.setattr(panels, "build", timed)
    streams = {"anne": live._astream(event, False, _seat(players[0], "v"))}

    async def run() -> list[str]:
        got: list[str] = []

        async def consume() -> None:
            async for frame in streams["anne"]:
                got.append(frame)

        task = asyncio.ensure_future(consume())
        async with asyncio.timeout(10):
            while len(got) < 2:
                await asyncio.sleep(0.01)
            await sync_to_async(round_close, thread_sensitive=False)(round=opened)
            while len(got) < 3:  # closed and ruled (the tests' tasks run at once): one panel
                await asyncio.sleep(0.01)
            record = sync_to_async(history_record, thread_sensitive=False)
            await record(event=event, entity="event", object_id=event.pk, action="edit", by=None)
            while len(got) < 4:  # the next change at once: its panel waits for its turn
                await asyncio.sleep(0.01)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return got

    got = asyncio.run(run())
    assert [frame.split("\n", 1)[0] for frame in got[2:]] == ["event: panel", "event: panel"]
    assert len(built) == 2 and built[1] - built[0] >= 0.45  # none at the streams' first look


def test_a_panel_that_cannot_be_built_sends_the_version_message(
    event: Event, players: list[Player], opened: Round, monkeypatch
) -> None:
    from rooms.views import live, panels

    monkeypatch.setattr(live, "CHECK_SECONDS", 0.05)

    def broken(*args: object) -> panels.Panels:
        raise RuntimeError("a template that does not render")

    monkeypatch.setattr(panels, "build", broken)
    streams = {"anne": live._astream(event, False, _seat(players[0], "v"))}
    got = asyncio.run(_frames(streams, 3, lambda: round_close(round=opened)))
    assert got["anne"][2].startswith("event: version")  # the phone asks for its panel
    assert _data(got["anne"][2])["state"] in ("closed", "adjudicated")


def test_the_phone_page_streams_its_panels_and_the_other_pages_do_not(
    console: Client, event: Event, opened: Round
) -> None:
    page = _phone(event, 1).get(f"/p/{event.pk}/").content.decode()
    assert f'data-stream="/live/{event.pk}/stream/?panel=1"' in page
    projector = console.get(f"/hall/{event.pk}/").content.decode()
    assert "?panel=1" not in projector


def _show_at_close(event: Event) -> None:
    """The training setting: the results go to the phones at the close, with the ruling."""
    Event.objects.filter(pk=event.pk).update(publish_at_close=True)


def test_player_lines_read_by_id_or_for_the_whole_round_agree(
    console: Client, event: Event, players: list[Player], opened: Round, monkeypatch
) -> None:
    from tournaments.selectors import slips

    _slip(event, 1, "8H PROOF", 28)
    _slip(event, 2, "8D BOOF", 12)
    _slip(event, 2, "8H PROOF", 28)  # replaces the first: the current slip is the one shown
    console.post(_url(event, "close/"))  # and ruled at once (the tests' tasks)
    round = Round.objects.get(pk=opened.pk)
    assert round.state == Round.State.ADJUDICATED
    ids = [p.pk for p in players]
    hidden = player_lines(event, round, round.game.number, ids)  # under review: no ruling shown
    assert all(lines.ruling is None for lines in hidden.values())
    assert hidden[players[0].pk].slip is not None
    round = round_publish(round=round)
    by_id = player_lines(event, round, round.game.number, ids)
    monkeypatch.setattr(slips, "_LINES_BY_ID", 0)
    whole = player_lines(event, round, round.game.number, ids)
    assert by_id == whole
    assert by_id[players[1].pk].slip is not None and by_id[players[1].pk].slip.word == "PROOF"
    assert by_id[players[0].pk].ruling is not None and by_id[players[0].pk].ruling.credited == 28
    assert by_id[players[2].pk].slip is None and by_id[players[2].pk].ruling is not None
    assert set(player_lines(event, round, round.game.number, ids[:1])) == {players[0].pk}


def test_a_phone_whose_stream_opens_after_the_last_build_keeps_its_stream(
    console: Client, event: Event, players: list[Player], opened: Round, monkeypatch
) -> None:
    """Found in review: a stream opened after the panels were built (a table joining late)
    was taken for a released one and ended at once, again and again."""
    from rooms.views import live

    monkeypatch.setattr(live, "CHECK_SECONDS", 0.05)
    _show_at_close(event)
    anne_seat, bruno_seat = _seat(players[0]), _seat(players[1])

    async def run() -> tuple[list[str], bool]:
        early, got = live._astream(event, False, anne_seat), []

        async def consume() -> None:
            async for frame in early:
                got.append(frame)

        task = asyncio.ensure_future(consume())
        while len(got) < 2:
            await asyncio.sleep(0.01)
        await sync_to_async(lambda: console.post(_url(event, "close/")), thread_sensitive=False)()
        live.forget_versions()
        while len(got) < 3:  # Anne's panel: the panels are built, without Bruno's seat
            await asyncio.sleep(0.01)
        late, frames, ended = live._astream(event, False, bruno_seat), [], False
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1):
                async for frame in late:
                    frames.append(frame)
                ended = True
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return frames, ended

    frames, ended = asyncio.run(run())
    assert not ended and frames[1].startswith("event: version"), frames


def _close_held(
    console: Client, event: Event, player: Player, held_by: Any, hold_s: float
) -> tuple[int, list[str]]:
    """A phone's stream while the round is closed inside ``held_by`` (a context that holds
    the phones' panels back): the frames it had once the channel saw the close and
    ``hold_s`` more went by, and all its frames once the hold ended and the panel came."""
    from rooms.views import live

    async def scenario() -> tuple[int, list[str]]:
        received: list[str] = []

        async def consume() -> None:
            async for frame in live._astream(event, False, await sync_to_async(_seat)(player)):
                received.append(frame)

        task = asyncio.ensure_future(consume())
        async with asyncio.timeout(10):
            while len(received) < 2:
                await asyncio.sleep(0.01)
            before = live._memo[event.pk][1].public
            with held_by:
                await sync_to_async(console.post, thread_sensitive=False)(_url(event, "close/"))
                live.forget_versions()
                live._channels[event.pk].poke()
                while event.pk not in live._memo or live._memo[event.pk][1].public == before:
                    await asyncio.sleep(0.01)  # the channel has seen the close...
                await asyncio.sleep(hold_s)
                held = len(received)  # ...and writes nothing while it is held
            while len(received) < 3:
                await asyncio.sleep(0.01)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return held, received

    return asyncio.run(scenario())


def test_a_public_change_waits_for_the_slips_the_process_is_answering(
    console: Client, event: Event, players: list[Player], opened: Round, monkeypatch
) -> None:
    # At a hall's close the slips sent before the deadline may still be queued in the
    # process: the 2,000 panels go once they are answered (rooms/views/live.py, SLIPS).
    from rooms.views import live

    monkeypatch.setattr(live, "CHECK_SECONDS", 0.05)
    monkeypatch.setattr(live, "SLIPS_FIRST_SECONDS", 60.0)  # only the slip's answer ends the wait
    held, received = _close_held(
        console, event, players[0], live.SLIPS.answering(), 10 * live.SLIPS_FIRST_POLL_SECONDS
    )
    assert held == 2
    assert received[2].startswith("event: panel") and _data(received[2])["state"] == "adjudicated"


def test_the_phones_panels_wait_while_the_arbitrator_is_answered(
    console: Client, event: Event, players: list[Player], opened: Round, monkeypatch
) -> None:
    # The console's click and its page go first: the panels the change needs are built
    # once the arbitrator's request is answered (rooms/views/live.py, ARBITRATOR).
    from rooms.views import live

    monkeypatch.setattr(live, "CHECK_SECONDS", 0.05)
    monkeypatch.setattr(live, "ARBITRATOR_FIRST_SECONDS", 60.0)  # only the answer ends the wait
    held, received = _close_held(console, event, players[0], live.ARBITRATOR.answering(), 0.5)
    assert held == 2 and live.ARBITRATOR.idle.is_set()
    assert received[2].startswith("event: panel") and _data(received[2])["state"] in ("closed", "adjudicated")


def test_the_arbitrators_turn_ends_with_the_request_or_at_the_builds_limit() -> None:
    import threading
    import time

    from rooms.views import live

    gate = live._Arbitrator()
    returned: list[tuple[str, bool]] = []

    def build(label: str, until: float) -> None:
        gate.wait_for(until)
        returned.append((label, gate.idle.is_set()))

    with gate.answering(), gate.answering():
        waiting = threading.Thread(target=build, args=("answered", time.monotonic() + 60))
        waiting.start()
        limited = threading.Thread(target=build, args=("limit", time.monotonic() + 0.05))
        limited.start()
        limited.join(10)  # its limit came with the arbitrator still answered
        assert returned == [("limit", False)] and waiting.is_alive()
    waiting.join(10)
    assert returned == [("limit", False), ("answered", True)] and gate.count == 0
    gate.wait_for(time.monotonic() + 60)  # nobody answered: no wait at all


def test_a_build_lets_the_arbitrator_go_first_between_its_steps(event: Event, players: list[Player]) -> None:
    from rooms.views import panels

    calls: list[int] = []
    built = panels.build(event, "", [_seat(p) for p in players], lambda: calls.append(1))
    assert len(calls) >= 2 and built.mine  # before reading the event, and before the lines


def _parts(html: str) -> tuple[set[str], set[str]]:
    """The parts a panel holds and those it leaves out (placeholders)."""
    sent = set(re.findall(r'data-keep="([^"]+)">', html))
    left_out = set(re.findall(r'data-keep="([^"]+)" data-kept>', html))
    return sent, left_out


def test_a_stream_sends_the_board_and_the_chart_again_only_when_they_change(
    console: Client, event: Event, players: list[Player], opened: Round, monkeypatch
) -> None:
    """Late in a game the board was 36 of a panel's 47 KB, sent to every phone at every
    change though it changes only with a move placed."""
    from rooms.views import live

    monkeypatch.setattr(live, "CHECK_SECONDS", 0.05)
    monkeypatch.setattr(live, "PANEL_EVERY_SECONDS", 0.1)
    _show_at_close(event)
    _slip(event, 1, "8H PROOF", 28)
    stream = live._astream(event, False, _seat(players[0], "v"))
    record = sync_to_async(history_record, thread_sensitive=False)
    post = sync_to_async(console.post, thread_sensitive=False)

    async def run() -> list[str]:
        got: list[str] = []

        async def consume() -> None:
            async for frame in stream:
                got.append(frame)

        async def until(count: int) -> None:
            while len(got) < count:
                await asyncio.sleep(0.01)

        task = asyncio.ensure_future(consume())
        async with asyncio.timeout(15):
            await until(2)
            await post(_url(event, "close/"))  # closed and ruled at once (the tests' tasks)
            await until(3)
            await record(event=event, entity="event", object_id=event.pk, action="edit", by=None)
            await until(4)
            await post(_url(event, "place/"))  # a move on the board, the next rack drawn
            await until(5)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return got

    frames = asyncio.run(run())[2:5]
    closed, again, placed = (_data(frame) for frame in frames)
    # The stream's first panel: every part, the chart too; the board's 15 rows, each a part.
    sent, left_out = _parts(closed["html"])
    assert Counter(key.split("-")[0] for key in sent) == {"board": 1, "tocome": 1, "row": 15} and not left_out
    assert '<table class="board' in closed["html"] and closed["mine"]["chart"].startswith("<svg")
    # A change that moves nothing: each part named, none sent; the board's rows go with it.
    outer = {key for key in sent if not key.startswith("row-")}
    assert _parts(again["html"]) == (set(), outer)
    assert '<table class="board' not in again["html"] and len(again["html"]) < len(closed["html"]) / 3
    assert again["mine"]["chart"] is None and again["mine"]["chart_key"] == closed["mine"]["chart_key"]
    # The message's id names the outer parts: a stream opened again leaves them out.
    assert frames[1].endswith(f"\nid: {' '.join(sorted({*outer, closed['mine']['chart_key']}))}\n\n")
    # A move placed: the new board with the one row PROOF changed (the other 14 the phone
    # holds), the game so far; the chart, drawn from the rulings already published, unchanged.
    sent_now, left_now = _parts(placed["html"])
    board = next(key for key in sent_now if key.startswith("board-"))
    assert board not in sent and '<span class="l">F</span>' in placed["html"]
    rows_now = {key for key in sent_now if key.startswith("row-")}
    assert len(rows_now) == 1 and not rows_now & sent
    assert len({key for key in left_now if key.startswith("row-")}) == 14
    assert "Game so far" in placed["html"] and placed["mine"]["chart"] is None
    assert left_now <= sent  # only what did not change
    assert len(placed["html"]) < len(closed["html"]) / 2


def test_a_stream_that_sent_the_version_sends_every_part_with_its_next_panel() -> None:
    """After a version message the phone asks for its panel, whose parts the stream does
    not know: it leaves none out."""
    from rooms.templatetags.arbiter import kept_placeholder
    from rooms.views import live
    from rooms.views.panels import Html, Lines, Panels, Seat
    from tournaments.selectors.live import LiveVersions

    seat = Seat(1, "fr", "v", "token")
    board = '<div class="kept" data-keep="board-1">plateau « é »</div>'
    html = Html.of(f"<p>avant</p>{board}<p>après</p>", [("board-1", board, kept_placeholder("board-1"))])
    lines = Lines('{"total": 3}', "chart-1", '"<svg></svg>"')

    def versions(public: str) -> LiveVersions:
        return LiveVersions(public=public, full="", deadline=None, paused=None, state="open")

    def panels(public: str) -> Panels:
        return Panels(public, public, None, None, "open", {("fr", "v"): html}, {(1, "fr"): lines})

    writer = live._Writer(Event(pk=1), False)
    assert writer.frame(versions("1"), panels("1"), seat).startswith("event: version")  # the page's first
    first = _data(writer.frame(versions("2"), panels("2"), seat))
    assert first["html"] == f"<p>avant</p>{board}<p>après</p>" and first["mine"]["chart"] == "<svg></svg>"
    lean = _data(writer.frame(versions("3"), panels("3"), seat))
    assert lean["html"] == f"<p>avant</p>{kept_placeholder('board-1')}<p>après</p>"
    assert lean["mine"] == {"total": 3, "chart_key": "chart-1", "chart": None}
    redrawn = Lines('{"total": 5}', "chart-2", '"<svg>5</svg>"')
    changed = panels("4")
    changed.mine[1, "fr"] = redrawn
    assert _data(writer.frame(versions("4"), changed, seat))["mine"]["chart"] == "<svg>5</svg>"
    assert writer.frame(versions("4b"), None, seat).startswith("event: version")  # not built: asks
    whole = _data(writer.frame(versions("5"), panels("5"), seat))
    assert whole["html"] == first["html"] and whole["mine"]["chart"] == "<svg></svg>"


def test_a_part_inside_a_part_is_left_out_with_it_or_alone() -> None:
    """A board's rows are parts inside the board's: a board held whole takes its rows along;
    a new board leaves out the rows the phone holds."""
    from rooms.templatetags.arbiter import kept_placeholder
    from rooms.views.panels import Html

    rows = [f'<tr data-keep="row-{n}">ligne {n}</tr>' for n in (1, 2)]
    board = f'<div class="kept" data-keep="board-1"><table>{"".join(rows)}</table></div>'
    told = [  # as the tags tell them: the rows, then the board around them
        ("row-1", rows[0], kept_placeholder("row-1", "tr")),
        ("row-2", rows[1], kept_placeholder("row-2", "tr")),
        ("board-1", board, kept_placeholder("board-1")),
    ]
    html = Html.of(f"<p>{board}</p>", told)
    assert html.outer == {"board-1"} and html.keys() == {"row-1", "row-2", "board-1"}
    assert (
        json.loads(html.without(frozenset({"board-1", "row-1", "row-2"})))
        == f"<p>{kept_placeholder('board-1')}</p>"
    )
    assert json.loads(html.without(frozenset({"row-1", "other"}))) == (
        '<p><div class="kept" data-keep="board-1"><table>'
        f'<tr data-keep="row-1" data-kept></tr>{rows[1]}</table></div></p>'
    )
    assert json.loads(html.without(frozenset())) == f"<p>{board}</p>"


def test_the_boards_rows_are_parts_named_by_their_content_in_each_language() -> None:
    from django.template import Context, Template
    from django.utils import translation

    from tournaments.display import Cell

    template = Template("{% load arbiter %}{% board_rows rows %}")
    plain = Cell(0, 0, "", "w3", 0, "A1")
    tile = Cell(0, 1, "e", "", 0, "B1", new=True)
    parts: list[tuple[str, str, str]] = []
    with translation.override("fr"):
        fr = template.render(Context({"rows": [("1", [plain, tile])], "kept_parts": parts}))
    with translation.override("en"):
        en = template.render(Context({"rows": [("1", [plain, tile])]}))
    key = re.fullmatch(r'<tr data-keep="(row-[0-9a-f]{16})">.*</tr>', fr)
    assert key is not None and parts == [
        (key.group(1), fr, f'<tr data-keep="{key.group(1)}" data-kept></tr>')
    ]
    assert "A1, mot compte triple" in fr and "(joker)" in fr and "dernier coup" in fr
    assert "A1, triple word" in en and "(blank)" in en and "last move" in en and key.group(1) not in en
    assert 'class="sq  tile blank new" data-r="0" data-c="1" data-name="B1" data-letter="e"' in fr


def test_a_kept_part_is_named_by_its_content() -> None:
    from django.template import Context, Template, TemplateSyntaxError

    template = Template('{% load arbiter %}{% keep "board" %}{{ text }}{% endkeep %}')
    parts: list[tuple[str, str, str]] = []
    one = template.render(Context({"text": "<b>A</b>", "kept_parts": parts}))
    assert one == template.render(Context({"text": "<b>A</b>"}))  # without the list alike
    other = template.render(Context({"text": "B"}))
    key = re.search(r'data-keep="(board-[0-9a-f]{16})"', one)
    assert key is not None and key.group(1) not in other
    assert one == f'<div class="kept" data-keep="{key.group(1)}">&lt;b&gt;A&lt;/b&gt;</div>'
    assert parts == [(key.group(1), one, f'<div class="kept" data-keep="{key.group(1)}" data-kept></div>')]
    with pytest.raises(TemplateSyntaxError):
        Template("{% load arbiter %}{% keep board %}{% endkeep %}")


def test_a_stream_opened_again_leaves_out_what_the_last_one_sent() -> None:
    """Each panel's id names its parts; the browser sends the last one back when its stream
    opens again (every five minutes, or after the Wi-Fi): the new stream leaves them out."""
    from rooms.views import live
    from rooms.views.panels import Html, Lines, Panels, Seat, held_by
    from tournaments.selectors.live import LiveVersions

    board = '<div class="kept" data-keep="board-0123456789abcdef">plateau</div>'
    html = Html.of(f"<p>1</p>{board}", [("board-0123456789abcdef", board, "")])
    lines = Lines('{"total": 3}', "chart-fedcba9876543210", '"<svg></svg>"')
    seat = Seat(1, "fr", "v", "token")

    def versions(public: str) -> LiveVersions:
        return LiveVersions(public=public, full="", deadline=None, paused=None, state="open")

    def panels(public: str) -> Panels:
        return Panels(public, public, None, None, "open", {("fr", "v"): html}, {(1, "fr"): lines})

    first = live._Writer(Event(pk=1), False)
    first.frame(versions("1"), panels("1"), seat)
    frame = first.frame(versions("2"), panels("2"), seat)
    last_id = re.search(r"\nid: (.*)\n\n$", frame)
    assert last_id is not None and last_id.group(1) == "board-0123456789abcdef chart-fedcba9876543210"
    assert held_by(last_id.group(1)) == {"board-0123456789abcdef", "chart-fedcba9876543210"}
    again = live._Writer(Event(pk=1), False, held_by(last_id.group(1)))
    assert again.frame(versions("2"), panels("2"), seat).startswith("event: version")  # the page is there
    lean = _data(again.frame(versions("3"), panels("3"), seat))
    assert "plateau" not in lean["html"] and lean["mine"]["chart"] is None
    # Anything else in the header is no part: left out of nothing.
    assert held_by("board-0123 <script> " + "chart-fedcba9876543210 " * 40) == {"chart-fedcba9876543210"}
    assert held_by("") == frozenset()


def test_every_part_a_stream_may_leave_out_is_the_same_in_the_pages_own_panel(
    console: Client, event: Event, players: list[Player], opened: Round, monkeypatch
) -> None:
    """A phone that reloaded its panel (a version message, a stream opened again across a
    change) holds the page's parts: each must be the stream's, key for key, or the phone is
    told to keep a part it lacks and reloads again at each change (found with the hall
    benchmark: the game so far, whose "You" column the page fills, was kept)."""
    from rooms.views import live

    monkeypatch.setattr(live, "CHECK_SECONDS", 0.05)
    _show_at_close(event)
    _slip(event, 1, "8H PROOF", 28)
    console.post(_url(event, "close/"))
    console.post(_url(event, "place/"))  # a game so far, a board with a move
    streams = {"anne": live._astream(event, False, _seat(players[0], "v"))}

    def open_next() -> None:
        console.post(_url(event, "open/"), {"seconds": 180})

    sent = _data(asyncio.run(_frames(streams, 3, open_next))["anne"][2])
    page = _phones[event.pk, 1].get(f"/p/{event.pk}/?part=panel", HTTP_HX_REQUEST="true").content.decode()
    assert "Game so far" in page and "Game so far" in sent["html"]
    assert _parts(sent["html"])[0] == _parts(page)[0] and len(_parts(page)[0]) == 2 + 15  # and the rows


def test_the_arbitrators_stream_hears_the_round_ruled_while_the_phones_panels_are_built(
    console: Client, event: Event, players: list[Player], opened: Round, monkeypatch
) -> None:
    # A hall's panels of the close take a good part of a second; the rulings done meanwhile
    # are the console's news alone (the phones say "checking" until they are published):
    # the console's stream tells them at once, the phones get their panel when it is built.
    from rooms.views import live

    monkeypatch.setattr(live, "CHECK_SECONDS", 0.05)
    building, release = threading.Event(), threading.Event()
    build = live._build

    def held(*args: Any) -> Any:
        building.set()
        assert release.wait(10), "the build was never let go"
        return build(*args)

    monkeypatch.setattr(live, "_build", held)

    def states(frames: list[str]) -> list[str]:
        return [_data(f)["state"] for f in frames if f.startswith(("event: version", "event: panel"))]

    async def scenario() -> tuple[list[str], list[str], int]:
        phone: list[str] = []
        desk: list[str] = []

        async def consume(stream: Any, into: list[str]) -> None:
            async for frame in stream:
                into.append(frame)

        seat = await sync_to_async(_seat)(players[0])
        tasks = [
            asyncio.ensure_future(consume(live._astream(event, False, seat), phone)),
            asyncio.ensure_future(consume(live._astream(event, True), desk)),
        ]
        async with asyncio.timeout(10):
            while len(phone) < 2 or len(desk) < 2:
                await asyncio.sleep(0.01)
            await sync_to_async(closed_unruled, thread_sensitive=False)(opened)
            live.forget_versions()
            live._channels[event.pk].poke()
            while not building.is_set():
                await asyncio.sleep(0.01)
            await sync_to_async(round_adjudicate, thread_sensitive=False)(round_id=opened.pk)
            live._channels[event.pk].poke()
            while "adjudicated" not in states(desk):
                await asyncio.sleep(0.01)
            waiting = len(phone)  # the phone's panel is still being built
            release.set()
            while len(phone) <= waiting:
                await asyncio.sleep(0.01)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return phone, desk, waiting

    phone, desk, waiting = asyncio.run(scenario())
    assert waiting == 2 and phone[2].startswith("event: panel"), phone
    assert "checking" in _data(phone[2])["html"] and _data(phone[2])["state"] == "adjudicated"
    assert states(desk)[-2:] == ["closed", "adjudicated"] or states(desk)[-1:] == ["adjudicated"]
    assert states(desk)[-1] == "adjudicated"  # never back to the closed state it was ahead of
