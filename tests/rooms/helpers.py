"""Helpers of the pages' tests (the fixtures are in conftest.py)."""

from __future__ import annotations

from django.test import Client

from tournaments.models import Event, Player, Round


def live_forget() -> None:
    """The live versions are computed at most every half second: see the change now."""
    from rooms.views import live

    live.forget()


def url(event: Event, tail: str = "") -> str:
    """A page of the event's console."""
    return f"/console/{event.pk}/{tail}"


def messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def last_round(event: Event) -> Round:
    return Round.objects.filter(game__event=event).order_by("-game__number", "-number").first()


def phone(event: Event, table: int) -> Client:
    """A phone joined at ``table`` with its table card's seat code."""
    client = Client()
    seat = Player.objects.get(event=event, table=table).seat_code
    response = client.post("/j/", {"code": event.code.lower(), "who": seat.lower()})
    assert response.status_code == 302 and response["Location"] == f"/p/{event.pk}/", response.content
    return client


def best(round: Round) -> tuple[str, str]:
    """The first top as (coordinates, word) in the event's GCG notation."""
    coordinates, word = round.tops[0].split()
    return coordinates, word
