"""The multiplex's fixtures: the English messages, a fresh cache, the hub event's
arbitrator (logged in on the console too), a hub with three centres joined through the
test client, and a simultané of two centres replaying a master game (the event and its
word list are in tests/conftest.py, the helpers in tests/multiplex/helpers.py)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from multiplex.models import Multiplex
from multiplex.services import centre as centre_service
from multiplex.services.hub import centre_add, multiplex_create
from tests.multiplex.helpers import ClientHub, centre_event, master_game
from tests.web import _english, _fresh_cache, arbitrator, console  # noqa: F401 (fixtures)
from tournaments.models import Event
from tournaments.services.players import player_add


@pytest.fixture
def hub_event(event: Event) -> Event:
    multiplex_create(event=event, max_delay_minutes=90)
    return event


@pytest.fixture
def network(hub_event: Event, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Three centres joined to the hub: Binche draws, Dakar and Rabat follow. Their syncs
    (the tasks sent on each close and placement, run in the process) reach the hub
    through the test client."""
    hubs: dict[str, ClientHub] = {}
    events: dict[str, Event] = {}
    multiplex = hub_event.multiplex
    for name, draws, seed in (("Binche", True, 5), ("Dakar", False, 8), ("Rabat", False, 9)):
        _, key = centre_add(multiplex=multiplex, name=name, draws=draws)
        events[name] = centre_event(hub_event, f"Multiplex, {name}", seed)
        hubs[name] = ClientHub(key)
        centre_service.hub_join(event=events[name], url="http://hub.test", key=key, hub=hubs[name])
        for table in range(1, 4):
            player_add(event=events[name], name=f"{name} {table}", virtual_level=2 + table)
    by_event = {e.pk: hubs[n] for n, e in events.items()}
    monkeypatch.setattr(centre_service, "hub_client", lambda link: by_event[link.event_id])
    return {"hubs": hubs, "events": events}


@pytest.fixture
def master(event: Event) -> dict[str, Any]:
    """A game of three rounds played elsewhere (:func:`tests.multiplex.helpers.master_game`)."""
    return master_game(event)


@pytest.fixture
def games() -> int:
    """How many games the simultané has (the master game played again and again)."""
    return 1


@pytest.fixture
def simultane(
    event: Event, master: dict[str, Any], games: int, monkeypatch: pytest.MonkeyPatch
) -> dict[str, Any]:
    Event.objects.filter(pk=event.pk).update(masters=[master] * games)
    event.refresh_from_db()
    start = timezone.now() + dt.timedelta(hours=1)
    multiplex = multiplex_create(event=event, mode=Multiplex.Mode.PREPARED, starts_at=start)
    hubs, events = {}, {}
    for name, seed in (("Lomé", 3), ("Namur", 4)):
        _, key = centre_add(multiplex=multiplex, name=name)
        events[name] = centre_event(event, f"Simultané, {name}", seed)
        hubs[name] = ClientHub(key)
        centre_service.hub_join(event=events[name], url="http://hub.test", key=key, hub=hubs[name])
        player_add(event=events[name], name=f"{name} 1", virtual_level=5)
    by_event = {e.pk: hubs[n] for n, e in events.items()}
    monkeypatch.setattr(centre_service, "hub_client", lambda link: by_event[link.event_id])
    return {"multiplex": multiplex, "hubs": hubs, "events": events, "start": start}
