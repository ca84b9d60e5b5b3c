"""The multiplex from the terminal, over real HTTP (pytest-django's live server is the
hub): the hub's arbitrator creates it and adds centres; a centre joins with the key and
syncs; an unreachable hub is said, and nothing is lost."""

from __future__ import annotations

import pytest

from tests.rooms.commands.helpers import create, run
from tournaments.models import Event, HubCopy, HubLink, HubOutbox


@pytest.fixture
def hub(live_server) -> tuple[Event, str, str]:
    event = create("--random-seed", "7")
    run("multiplex_create", "--event", event.code, "--max-delay", "45")
    run("centre_add", "--event", event.code, "--name", "Binche", "--draws")
    out = run("centre_add", "--event", event.code, "--name", "Dakar").out
    assert "Centre Dakar added. Its key, shown once:" in out
    return event, live_server.url, out.strip().splitlines()[-1]


def test_a_centre_joins_over_http_and_syncs(hub: tuple[Event, str, str]) -> None:
    hub_event, url, key = hub
    centre = create("--random-seed", "8")
    wrong = key + "x"
    run("multiplex_join", "--event", centre.code, "--hub", url, "--key", wrong, fails="Invalid centre key")
    out = run("multiplex_join", "--event", centre.code, "--hub", url, "--key", key).out
    assert "is a centre of Club evening, as Dakar" in out
    out = run("multiplex_sync", "--event", centre.code).out
    assert "Sent 0, fetched 0 round(s)." in out and "waiting to be sent: 0" in out
    assert not HubCopy.objects.filter(link__event=centre).exists()  # nothing drawn on the hub yet
    run("multiplex_create", "--event", hub_event.code, fails="already a multiplex")


def test_an_unreachable_hub_is_said_and_nothing_is_lost(hub: tuple[Event, str, str]) -> None:
    _, url, key = hub
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


def test_the_commands_check_their_arguments(hub: tuple[Event, str, str]) -> None:
    other = create("--random-seed", "9")
    run("centre_add", "--event", other.code, "--name", "X", fails="not a multiplex")
    run("multiplex_create", "--event", other.code, "--prepared", "--starts-at", "tomorrow", fails="ISO 8601")
    run("multiplex_create", "--event", other.code, "--prepared", "--starts-at", "2026-12-05T14:00",
        fails="offset")  # fmt: skip
    run("multiplex_join", "--event", other.code, "--hub", "hub.example", "--key", "k", fails="http")
    run("multiplex_sync", "--event", other.code, fails="not a centre")
