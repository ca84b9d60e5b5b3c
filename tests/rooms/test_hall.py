"""The projector (rooms.views.hall) and the live endpoints the pages poll or stream (rooms.views.live)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.rooms.helpers import live_forget
from tests.rooms.helpers import phone as _phone
from tests.rooms.helpers import url as _url
from tournaments import services
from tournaments.models import Event, Round

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_projector_shows_the_join_qr_and_the_rack_once_open(
    console: Client, event: Event, opened
) -> None:
    page = console.get(f"/hall/{event.pk}/").content.decode()
    assert "<svg" in page and f"/j/{event.code}/" in page
    assert "countdown huge" in page


def test_live_versions_change_with_the_state(console: Client, event: Event, drawn: Round) -> None:
    anne = _phone(event, 1)
    before = anne.get(f"/live/{event.pk}/").json()
    assert set(before) == {"public", "deadline", "state", "now"}  # no "full" for a player
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
    assert set(body) == {"public", "full", "deadline", "state", "now"} and body["state"] == "drawn"
    services.round_open(round=drawn)
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
