from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.api.helpers import player_client
from tests.web import _english, _fresh_cache  # noqa: F401 (autouse: English messages, a fresh cache)
from tournaments.models import Event, Game, Player, Round
from tournaments.services.games import game_start, round_draw
from tournaments.services.players import player_add
from tournaments.services.rounds import round_open


@pytest.fixture
def arbitrator(event: Event) -> User:
    user = get_user_model().objects.create_user("arbitre", password="x")
    Event.objects.filter(pk=event.pk).update(created_by=user)
    event.refresh_from_db()
    return user


@pytest.fixture
def players(event: Event) -> list[Player]:
    return [player_add(event=event, name=f"Player {i}", category="A" if i < 3 else "B") for i in (1, 2, 3)]


@pytest.fixture
def game(event: Event, players: list[Player]) -> Game:
    return game_start(event=event)


@pytest.fixture
def drawn(game: Game) -> Round:
    """Seed 7, game 1, round 1: rack BFOIPOR, one top, 8H PROOF for 28."""
    round = round_draw(game=game)
    assert round is not None
    round.refresh_from_db()
    return round


@pytest.fixture
def open_round(drawn: Round) -> Round:
    return round_open(round=drawn)


@pytest.fixture
def arbitrator_client(arbitrator: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=arbitrator).key}")
    return client


@pytest.fixture
def p1(players: list[Player]) -> APIClient:
    return player_client(players[0])


@pytest.fixture
def p2(players: list[Player]) -> APIClient:
    return player_client(players[1])
