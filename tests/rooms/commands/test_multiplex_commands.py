"""The multiplex from the terminal, over real HTTP (pytest-django's live server is the
hub): the hub's arbitrator creates it and adds centres; a centre joins with the key and
syncs; an unreachable hub is said, and nothing is lost."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from tests.rooms.commands.helpers import create, run
from tournaments.exports import export
from tournaments.models import Event, Game, HubCopy, HubLink, HubOutbox, Player, Round


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
    assert HubOutbox.objects.get(link=link).sent_at is None


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
    assert merged[0].startswith("rank;centre;table;name;") and len(merged) == 1 + 5
    assert {line.split(";")[1] for line in merged[1:]} == {"Binche", "Dakar"}


def test_multiplex_play_checks_its_arguments(hub: Hub) -> None:
    event = hub.event
    run("multiplex_play", "--event", event.code, "--levels", "6,7", fails="a level is 1 to 6")
    run("multiplex_play", "--event", event.code, "--levels", "six", fails="not levels separated by commas")
    run("multiplex_play", "--event", event.code, "--worker", fails="no --worker")
