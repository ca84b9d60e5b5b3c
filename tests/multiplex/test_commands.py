"""The multiplex from the terminal, over real HTTP (pytest-django's live server is the
hub): the hub's arbitrator creates it and adds centres; a centre joins with the key and
syncs; an unreachable hub is said, and nothing is lost."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass

import pytest
from django.utils import timezone

from multiplex.models import HubCopy, HubGame, HubLink, HubOutbox, HubRound, HubSealed
from tests.rooms.commands.helpers import create, run
from tournaments.exports import export
from tournaments.models import Event, Game, Player, Round


@dataclass
class Hub:
    event: Event
    url: str
    key: str  # Dakar's
    draws_key: str  # Binche's, the draw centre


@pytest.fixture
def hub(live_server) -> Hub:
    event = create("--random-seed", "7")
    run("multiplex_create", "--event", event.code, "--max-delay", "45")
    draws = run("centre_add", "--event", event.code, "--name", "Binche", "--draws").out
    out = run("centre_add", "--event", event.code, "--name", "Dakar").out
    assert "Centre Dakar added. Its key, shown once:" in out
    event.refresh_from_db()  # as the commands left it: a multiplex's hub (Event.linked_by)
    return Hub(event, live_server.url, out.strip().splitlines()[-1], draws.strip().splitlines()[-1])


def test_a_centre_joins_over_http_and_syncs(hub: Hub) -> None:
    hub_event, url, key = hub.event, hub.url, hub.key
    centre = create("--random-seed", "8")
    wrong = key + "x"
    run("multiplex_join", "--event", centre.code, "--hub", url, "--key", wrong, fails="Invalid centre key")
    out = run("multiplex_join", "--event", centre.code, "--hub", url, "--key", key).out
    assert "is a centre of Club evening, as Dakar" in out
    out = run("multiplex_sync", "--event", centre.code).out
    assert "Sent 0, fetched 0 round(s)." in out and "waiting to be sent: 0" in out
    assert not HubCopy.objects.filter(link__event=centre).exists()  # nothing drawn on the hub yet
    run("multiplex_create", "--event", hub_event.code, fails="already a multiplex")


def test_an_unreachable_hub_is_said_and_nothing_is_lost(hub: Hub) -> None:
    url, key = hub.url, hub.key
    centre = create("--random-seed", "8")
    run("multiplex_join", "--event", centre.code, "--hub", url, "--key", key)
    link = HubLink.objects.get(event=centre)
    HubOutbox.objects.create(link=link, kind="close", game=1, number=1, payload={"slips_digest": "0" * 64},
                             digest="x", queued_at=link.joined_at)  # fmt: skip
    HubLink.objects.filter(pk=link.pk).update(url="http://127.0.0.1:9")  # nothing listens there
    run("multiplex_sync", "--event", centre.code, fails="the hub cannot be reached.*kept")
    link.refresh_from_db()
    assert "cannot be reached" in link.last_error
    assert HubOutbox.objects.get(link=link, kind="close").sent_at is None


def test_the_commands_check_their_arguments(hub: Hub) -> None:
    other = create("--random-seed", "9")
    run("centre_add", "--event", other.code, "--name", "X", fails="not a multiplex")
    run("multiplex_create", "--event", other.code, "--prepared", "--starts-at", "tomorrow", fails="ISO 8601")
    run("multiplex_create", "--event", other.code, "--prepared", "--starts-at", "2026-12-05T14:00",
        fails="offset")  # fmt: skip
    run("multiplex_join", "--event", other.code, "--hub", "hub.example", "--key", "k", fails="http")
    run("multiplex_sync", "--event", other.code, fails="not a centre")


def test_virtual_centres_play_the_hubs_game_to_its_end(hub: Hub) -> None:
    """multiplex_play over real HTTP: the draw centre leads; the centre behind it plays
    what the hub published, waits for the rest (here, a second), then plays to the end."""
    hub_event, url = hub.event, hub.url
    drawing, following = create("--random-seed", "8"), create("--random-seed", "9")
    run("multiplex_join", "--event", following.code, "--hub", url, "--key", hub.key)
    run("multiplex_play", "--event", following.code, "--players", "2", "--patience", "0.5",
        fails=r"waited 0 s for the hub \(nothing new\): everything is kept")  # fmt: skip
    run("multiplex_play", "--event", drawing.code, fails="not a centre of a multiplex: run multiplex_join")
    run("multiplex_join", "--event", drawing.code, "--hub", url, "--key", hub.draws_key)
    levels = ("--players", "3", "--levels", "6,2")
    out = run("multiplex_play", "--event", drawing.code, *levels, "--until-round", "3").out
    assert out.startswith("Binche: game 1 in play, 3 round(s) placed") and "waiting to be sent: 0" in out
    assert list(Player.objects.filter(event=drawing).values_list("name", "virtual_level", "category")) == [
        ("Binche 1", 6, "A"), ("Binche 2", 2, "B"), ("Binche 3", 6, "A"),
    ]  # fmt: skip
    run("multiplex_play", "--event", following.code, "--until-round", "3", "--patience", "30")
    run("multiplex_play", "--event", following.code, "--patience", "0.5", fails="waited 0 s for the hub")
    assert Round.objects.get(game__event=following, number=4).state == Round.State.ADJUDICATED
    run("multiplex_play", "--event", drawing.code)
    done = json.loads(run("multiplex_play", "--event", following.code, "--json").out)
    ended = Game.objects.get(event=drawing)
    placed = ended.rounds.filter(state=Round.State.PLACED).count()
    assert done == {
        "event_id": following.pk, "centre": "Dakar", "game": 1, "placed": placed,
        "ended": ended.end_reason, "waiting": 0, "last_error": "",
    }  # fmt: skip
    assert ended.end_reason and done["placed"] > 4
    merged = export("standings", hub_event).decode("utf-8-sig").splitlines()
    assert merged[0].startswith("rang;centre;table;nom;") and len(merged) == 1 + 5
    assert {line.split(";")[1] for line in merged[1:]} == {"Binche", "Dakar"}


def test_multiplex_play_checks_its_arguments(hub: Hub) -> None:
    event = hub.event
    run("multiplex_play", "--event", event.code, "--levels", "6,7", fails="a level is 1 to 6")
    run("multiplex_play", "--event", event.code, "--levels", "six", fails="not levels separated by commas")
    run("multiplex_play", "--event", event.code, "--worker", fails="no --worker")


def test_a_simultane_sealed_ahead_opened_with_the_key_read_out(live_server, tmp_path) -> None:
    """A prepared multiplex from the terminal, over real HTTP: the master game imported,
    served from its start; a centre fetches it sealed the day before, cannot reach the hub
    at the start, opens it with the key the hub's arbitrator reads out, and syncs later."""
    from tests.multiplex.helpers import play
    from tournaments.services.games import game_end, game_start, round_draw
    from tournaments.services.rounds import round_place

    source = create("--random-seed", "11")
    game = game_start(event=source)
    round = round_draw(game=game)
    for number in (1, 2, 3):
        assert round is not None
        round = round_place(round=play(round, 1), draw_next=number < 3)
    game_end(game=game, reason="stopped")
    record = tmp_path / "master.json"
    run("export", "record", "--event", source.code, "--out", str(record))
    out = run("event_import", str(record), "Simultané", "--notation", "gcg").out
    hub = Event.objects.get(name="Simultané")
    later = (timezone.now() + dt.timedelta(hours=2)).isoformat()
    run("multiplex_create", "--event", hub.code, "--prepared", "--starts-at", later)
    key = run("centre_add", "--event", hub.code, "--name", "Lomé").out.strip().splitlines()[-1]
    centre = create("--random-seed", "12")
    run("multiplex_join", "--event", centre.code, "--hub", live_server.url, "--key", key)
    run("multiplex_sync", "--event", centre.code)
    assert HubSealed.objects.get(link__event=centre).opened_at is None
    listed = run("multiplex_schedule", "--event", hub.code).out
    assert listed.startswith("Game 1: starts ") and "key" not in listed
    run("multiplex_schedule", "--event", hub.code, "--game", "1", fails="go together")
    run("multiplex_schedule", "--event", hub.code, "--game", "1", "--starts-at", "soon", fails="ISO 8601")
    past = (timezone.now() - dt.timedelta(minutes=1)).isoformat()
    run(
        "multiplex_schedule", "--event", hub.code, "--game", "1", "--starts-at", past, fails="must be to come"
    )
    soon = (timezone.now() + dt.timedelta(hours=1)).isoformat()
    assert (
        "Game 1: starts "
        in run("multiplex_schedule", "--event", hub.code, "--game", "1", "--starts-at", soon).out
    )
    run("multiplex_schedule", "--event", hub.code, "--read-out", "Lomé", "--game", "1", fails="not started")
    # The clock reaches the start.
    HubGame.objects.update(started_at=timezone.now())
    HubRound.objects.update(drawn_at=timezone.now(), placed_at=timezone.now())
    listed = run("multiplex_schedule", "--event", hub.code).out
    read_out = listed.split("key ")[1].strip()
    run("multiplex_schedule", "--event", hub.code, "--read-out", "Nowhere", "--game", "1", fails="centres")
    out = run("multiplex_schedule", "--event", hub.code, "--read-out", "Lomé", "--game", "1").out
    assert out.startswith("Game 1: the key read out to Lomé is on the record")
    HubLink.objects.filter(event=centre).update(url="http://127.0.0.1:9")  # the hall's line is down
    run("multiplex_unseal", "--event", centre.code, "--game", "1", "--key", "wrong", fails="does not open")
    out = run("multiplex_unseal", "--event", centre.code, "--game", "1", "--key", read_out).out
    assert out == "Game 1 opened: 3 round(s), their racks and moves\n"
    assert run("multiplex_unseal", "--event", centre.code, "--game", "1", "--key", read_out).out.endswith(
        "already open\n"
    )
    HubLink.objects.filter(event=centre).update(url=live_server.url)
    run("multiplex_sync", "--event", centre.code)
    assert HubSealed.objects.get(link__event=centre).keyed_at is not None
