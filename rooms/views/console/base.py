"""What the console's pages share: the way back to the round's page, the game being
played, and the round not placed yet as the form that acts on it names it."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from rooms.views.common import number
from tournaments.core import ApplicationError
from tournaments.models import (
    Event,
    Game,
    Round,
)
from tournaments.selectors import games
from tournaments.services.slips import check_round


def back(event: Event) -> HttpResponse:
    return redirect("console:event", event_id=event.pk)


def playing_game(event: Event) -> Game:
    game = games.playing_game(event)
    if game is None:
        raise ApplicationError(_("No game is being played: start one."))
    return game


def unplaced_round(event: Event, request: HttpRequest | None = None) -> Round:
    """The round being played; with ``request``, the one its form was shown for (field
    ``round_key``, "game-round"): a click on a page left a round behind, or a paper slip
    typed as another arbitrator placed the round, must not act on the next round."""
    game = playing_game(event)
    round = games.unplaced_round(game)
    if round is None:
        raise ApplicationError(_("No rack is drawn: draw one."))
    if request is not None:
        check_round(round, _round_key(request.POST.get("round_key", "")))
    return round


def _round_key(text: str) -> tuple[int, int] | None:
    game_text, _sep, round_text = text.partition("-")
    game, round = number(game_text), number(round_text)
    if game is None or round is None:
        return None
    return game, round
