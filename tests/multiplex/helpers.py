"""What the multiplex's tests share besides their fixtures (tests/multiplex/conftest.py):
the hub's API through the test client, a centre's event, a round played by virtual players,
a master game, a prepared game's start reached."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from rest_framework.test import APIClient

from multiplex.models import Multiplex
from multiplex.services.centre import HubRefused, HubUnreachable
from multiplex.services.serving import game_schedule
from solver.players import VirtualPlayer
from tournaments.models import Event, Game, Player, Round
from tournaments.services.events import event_create
from tournaments.services.games import game_end, game_start, round_draw
from tournaments.services.rounds import analysis_for, round_close, round_open, round_place
from tournaments.services.slips import slip_submit
from tournaments.state import game_record

ROUNDS = 3


class ClientHub:
    """The hub's API through Django's test client, with a centre key; cut with ``online``."""

    def __init__(self, key: str) -> None:
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Centre {key}")
        self.online = True
        self.requests = 0

    def get(self, path: str) -> Any:
        return self._answer(lambda: self.client.get("/api/hub/" + path))

    def post(self, path: str, body: Any) -> Any:
        return self._answer(lambda: self.client.post("/api/hub/" + path, body, format="json"))

    def put(self, path: str, body: Any) -> Any:
        return self._answer(lambda: self.client.put("/api/hub/" + path, body, format="json"))

    def _answer(self, send: Any) -> Any:
        if not self.online:
            raise HubUnreachable("the hub cannot be reached: connection refused")
        self.requests += 1
        response = send()
        if response.status_code >= 400:
            raise HubRefused(response.json()["error"]["message"], response.status_code)
        return response.json()


def centre_event(hub_event: Event, name: str, seed: int) -> Event:
    return event_create(
        name=name,
        starts_on=dt.date(2026, 11, 25),
        lexicon=hub_event.lexicon,
        language="english",
        notation="gcg",
        random_seed=seed,
    )


def _slips(round: Round, seed: int) -> None:
    """The centre's players hand in a slip each (virtual players of levels 3 to 5)."""
    analysis = analysis_for(round)
    for player in Player.objects.filter(event=round.game.event).order_by("table"):
        move = VirtualPlayer(player.virtual_level or 6, seed=seed * 100 + player.table + round.number).choose(
            analysis.ranked, analysis.tops
        )
        if move is None:
            continue
        coords, word = move_text(move)
        slip_submit(round=round, player=player, coordinates=coords, word=word,
                             announced_score=move.score, source="virtual")  # fmt: skip


def move_text(move: Any) -> tuple[str, str]:
    from solver.notation import format_coord, format_word

    return format_coord(move.row, move.col, move.across, "gcg"), format_word(move.word, "gcg")


def play(round: Round, seed: int) -> Round:
    """Open, slips, close (ruled in the process): the round is ready to be placed."""
    round = round_open(round=Round.objects.get(pk=round.pk))
    _slips(round, seed)
    round_close(round=round)
    round.refresh_from_db()
    assert round.state == Round.State.ADJUDICATED
    return round


def master_game(event: Event) -> dict[str, Any]:
    """A game of three rounds played elsewhere, stopped after its third placement."""
    source = centre_event(event, "Where the game was prepared", 11)
    game = game_start(event=source)
    round = round_draw(game=game)
    for number in range(1, ROUNDS + 1):
        assert round is not None
        round = round_place(round=play(round, 1), draw_next=number < ROUNDS)
    game_end(game=game, reason="stopped")
    return game_record(Game.objects.get(pk=game.pk)).to_dict()


def started(multiplex: Multiplex, game: int, ago: dt.timedelta = dt.timedelta(seconds=1)) -> None:
    """The clock reaches the game's start (``ago``): scheduled while it was to come."""
    start = timezone.now() - ago
    game_schedule(multiplex=multiplex, game=game, starts_at=start, now=start - dt.timedelta(seconds=1))
