"""Helpers of the API tests (the fixtures are in conftest.py)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from rest_framework.test import APIClient

from tournaments.models import Event, Player, PlayerToken, Round
from tournaments.services.rounds import round_close, round_place, top_choose


def event_url(event: Event, tail: str = "") -> str:
    return f"/api/events/{event.pk}/{tail}"


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    """The body of a refusal, checked against the one error format."""
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "detail"}
    assert body["error"]["code"] == code
    assert body["error"]["message"]
    found: dict[str, Any] = body["error"]
    return found


def player_client(player: Player) -> APIClient:
    client = APIClient()
    token = PlayerToken.objects.create(player=player, confirmed_at=timezone.now())
    client.credentials(HTTP_AUTHORIZATION=f"Player {token.key}")
    return client


def place(round: Round) -> None:
    round_close(round=round)
    round.refresh_from_db()
    top_choose(round=round, move_text=round.tops[0])
    round_place(round=round, draw_next=False)


def top_slip(round: Round, **extra: Any) -> dict[str, Any]:
    coordinates, word = round.tops[0].split()
    return {"coordinates": coordinates, "word": word, "announced_score": round.top_score, **extra}
