"""The round's page, the one the arbitrator keeps open during a game, and its parts that
reload on their own (status, watch, review, board)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject

from rooms.forms import (
    SlipForm,
)
from rooms.listed import listed_review, listed_watch
from rooms.views.common import arbitrated_event, arbitrator_page, is_htmx
from solver.notation import parse_move
from tournaments.display import board_size, end_reason_text, rack_text, shown_move
from tournaments.linked import linker
from tournaments.models import (
    Event,
    Game,
    Round,
)
from tournaments.selectors.games import RULED, current_game, current_round, last_placed_round
from tournaments.selectors.live import live_versions
from tournaments.selectors.players import join_requests
from tournaments.selectors.review import review_version
from tournaments.selectors.shown import public_view
from tournaments.state import master_round

#: The parts of the round's page that its stream reloads, each on its own (console/_<part>.html).
PARTS = ("status", "watch", "review", "board")


def _round_context(request: HttpRequest, event: Event, part: str | None = None) -> dict[str, Any]:
    """What the round's page shows, or only its ``part`` (one of PARTS): a change reloads
    the four at once, and each building the whole page's would build a hall's review four
    times after a close (docs/benchmarks.md)."""
    wants = {part} if part else set(PARTS)
    versions = live_versions(event)
    game = current_game(event)
    round = current_round(event)
    context: dict[str, Any] = {
        "event": event,
        "game": game,
        "round": round,
        "versions": versions,
        "end_reason": end_reason_text(game.end_reason) if game else "",
    }
    if part is None:
        # Phones asking for a table (where the arbitrator confirms joins): said at the top.
        context["waiting_phones"] = len(join_requests(event))
        context["slip_form"] = SlipForm()
    if "board" in wants:
        context["view"] = public_view(event, versions.public) if game else None
    if "status" in wants:
        context.update(_status_context(event, game, round))
    if round is not None and "watch" in wants and round.state in (Round.State.OPEN, Round.State.CLOSED):
        context["watch"] = listed_watch(round)
    if round is not None and "review" in wants and round.state in RULED:
        # Read only when its page is not kept already (console/_review.html): a hall's
        # rulings, read and written again at each page of the review's actions otherwise.
        context["review"] = SimpleLazyObject(functools.partial(listed_review, round))
        context["review_version"] = review_version(round)
        context["ruling_path"] = ruling_path(event)
    return context


def _status_context(event: Event, game: Game | None, round: Round | None) -> dict[str, Any]:
    """The round's status: its rack, its tops, and where the game's moves come from."""
    context: dict[str, Any] = {}
    if game is not None and game.state == Game.State.ENDED:
        # The last game's end is undone with its last placement (a wrong move placed last).
        last = last_placed_round(game)
        context["last_placed"] = last.number if last is not None else None
    if game is not None and game.master is not None:
        # A master game: the racks and the moves placed come from its record.
        at = round.number if round is not None and round.game_id == game.pk else 0
        planned = master_round(game, at)
        if planned is not None:
            context["master_move"] = shown_move(planned.played, event.board, event.notation)
            context["master_score"] = planned.score
        context["master_next"] = master_round(game, at + 1) is not None
    link = linker(event)
    if link.follows(event):
        # Its racks and placed moves are served (a centre of a multiplex): no typed rack,
        # no choice of top.
        context["follows"] = True
        served = link.served_move(round.game, round.number) if round is not None else None
        if served is not None:
            context["served_move"] = shown_move(served[0], event.board, event.notation)
            context["served_score"] = served[1]
    if round is not None:
        context["round_key"] = f"{round.game.number}-{round.number}"
        context["rack"] = rack_text(round.reliquat, round.new_tiles)
        context["tops"] = [shown_move(t, event.board, event.notation) for t in round.tops]
        context["chosen"] = shown_move(round.chosen, event.board, event.notation)
        context["top_choices"] = _top_choices(round, event)
    return context


def ruling_path(event: Event) -> str:
    """The address of a ruling's page but its id: the review links every ruling of a hall
    (2,000), and a ``{% url %}`` each is a good part of the page's time."""
    return reverse("console:ruling", kwargs={"event_id": event.pk, "ruling_id": 0}).removesuffix("0/")


@dataclass(frozen=True)
class TopChoice:
    """One of the equal tops as the console offers it: its name in the event's notation
    and its tiles ("row,col,letter;..."), which console.js previews on the board."""

    shown: str
    squares: str


def _top_choices(round: Round, event: Event) -> list[TopChoice]:
    size = board_size(event.board)
    choices = []
    for gcg in round.tops:
        move = parse_move(gcg, "gcg", size)
        dr, dc = (0, 1) if move.across else (1, 0)
        squares = ";".join(
            f"{move.row + i * dr},{move.col + i * dc},{letter}" for i, letter in enumerate(move.word)
        )
        choices.append(TopChoice(shown_move(gcg, event.board, event.notation), squares))
    return choices


@arbitrator_page
def event_round(request: HttpRequest, event_id: int) -> HttpResponse:
    """The page the arbitrator keeps open during a game."""
    event = arbitrated_event(request, event_id)
    part = request.GET.get("part")
    if is_htmx(request) and part in PARTS:
        return render(request, f"console/_{part}.html", _round_context(request, event, part))
    return render(request, "console/round.html", _round_context(request, event))
