"""What the arbitrator does to a game and its round from the round's page: start and end a
game, draw, open, close, reopen, publish, the clock, undo a placement, rule again, choose
the top and place it; each a POST that leads back to the round's page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rooms.forms import (
    DrawForm,
    OpenForm,
    TopForm,
)
from rooms.views.common import arbitrated_event, arbitrator_page, number, refusals
from rooms.views.console.base import back, playing_game, unplaced_round
from tournaments.core import ApplicationError
from tournaments.display import shown_move
from tournaments.models import (
    Event,
    Game,
    Round,
)
from tournaments.selectors import games as game_selectors
from tournaments.services import games, rounds, watchdog


@require_POST
@arbitrator_page
def game_start(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    typed = (request.POST.get("typed") or "").strip().upper()[:20] or None
    with refusals(request), transaction.atomic():
        # One step: a first rack typed by hand and refused starts nothing (typed again).
        game = games.game_start(event=event, by=request.user)
        try:
            rejected = _rejected(request.POST) if typed else ()
            round = games.round_draw(game=game, by=request.user, typed=typed, rejected=rejected)
        except games.RackRefusedError as exc:
            raise ApplicationError(
                _("Nothing was started: the rack typed, %(rack)s, is refused (%(why)s). Type it again.")
                % {"rack": typed, "why": exc.message}
            ) from exc
        if round is not None:
            messages.success(request, _("Game %(game)s started.") % {"game": game.number})
    return back(event)


@require_POST
@arbitrator_page
def game_end(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    with refusals(request):
        game = playing_game(event)
        pending = game_selectors.unplaced_round(game)
        # A drawn rack with no legal move ends the game for that reason (the record and the
        # game sheet say so); otherwise the arbitrator stops it.
        no_move = pending is not None and pending.solved_at is not None and not pending.tops
        games.game_end(game=game, reason="no_move" if no_move else "stopped", by=request.user)
        messages.success(request, _("Game %(game)s ended.") % {"game": game.number})
    return back(event)


@require_POST
@arbitrator_page
def round_draw(request: HttpRequest, event_id: int) -> HttpResponse:
    """Draw the next rack at random, or check the rack typed from a physical draw."""
    event = arbitrated_event(request, event_id)
    form = DrawForm(request.POST)
    if form.is_valid():
        with refusals(request):
            typed = form.cleaned_data["typed"].strip().upper() or None
            round = games.round_draw(
                game=playing_game(event), by=request.user, typed=typed, rejected=_rejected(request.POST)
            )
            if round is None:
                messages.info(request, _("The draw rule ends the game: no rack can be drawn."))
    return back(event)


def _rejected(data: Any) -> tuple[str, ...]:
    """The racks drawn by hand before this one and put back for the vowel/consonant rule,
    in the order drawn (docs/rules.md#draws: every rejection is recorded)."""
    text = str(data.get("rejected") or "")[:200].upper()
    return tuple(part for part in text.replace(",", " ").split() if part)


@arbitrator_page
def rack_check(request: HttpRequest, event_id: int) -> HttpResponse:
    """As the arbitrator types a rack drawn by hand: would it be accepted, and if not, why."""
    event = arbitrated_event(request, event_id)
    typed = (request.GET.get("typed") or "").strip()[:20]
    game = game_selectors.playing_game(event)
    problem = ""
    if typed and game is not None:
        problem = game_selectors.typed_rack_problem(game, typed, _rejected(request.GET))
    return render(request, "console/_rack_check.html", {"typed": typed.upper(), "problem": problem})


@require_POST
@arbitrator_page
def round_open(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    form = OpenForm(request.POST)
    if form.is_valid():
        with refusals(request):
            rounds.round_open(
                round=unplaced_round(event, request), by=request.user, seconds=form.cleaned_data["seconds"]
            )
    return back(event)


@require_POST
@arbitrator_page
def round_close(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    with refusals(request):
        rounds.round_close(round=unplaced_round(event, request), by=request.user)
    return back(event)


@require_POST
@arbitrator_page
def round_reopen(request: HttpRequest, event_id: int) -> HttpResponse:
    """A round closed by mistake, open again before its move is placed."""
    event = arbitrated_event(request, event_id)
    typed = request.POST.get("seconds")
    seconds = (number(typed) or 0) if typed else None  # not a number: 0, refused with its message
    with refusals(request):
        round = rounds.round_reopen(
            round=unplaced_round(event, request),
            by=request.user,
            seconds=seconds,
            reason=(request.POST.get("reason") or "")[:500],
        )
        messages.success(request, _("Round %(number)s is open again.") % {"number": round.number})
    return back(event)


@require_POST
@arbitrator_page
def round_publish(request: HttpRequest, event_id: int) -> HttpResponse:
    """The arbitrator has reviewed the rulings: the phones and the projector show them."""
    event = arbitrated_event(request, event_id)
    with refusals(request):
        round = _selected_top(request, event, unplaced_round(event, request))
        round = rounds.round_publish(round=round, by=request.user)
        messages.success(
            request,
            _("The results of round %(number)s are shown on the phones and the projector.")
            % {"number": round.number},
        )
    return back(event)


@require_POST
@arbitrator_page
def round_clock(request: HttpRequest, event_id: int) -> HttpResponse:
    """Pause, resume or add time to the open round's clock."""
    event = arbitrated_event(request, event_id)
    action = request.POST.get("action", "")
    with refusals(request):
        round = unplaced_round(event, request)
        if action == "pause":
            rounds.round_pause(round=round, by=request.user)
            messages.success(request, _("The clock is paused: no slip is late while it is."))
        elif action == "resume":
            rounds.round_resume(round=round, by=request.user)
            messages.success(request, _("The clock is running again."))
        elif action == "add":
            seconds = number(request.POST.get("seconds")) or 0  # 0: refused with its message
            rounds.round_add_time(round=round, by=request.user, seconds=seconds)
            messages.success(request, _("Time added to the clock: %(seconds)s s.") % {"seconds": seconds})
        else:
            raise ApplicationError(_("Unknown clock action."))
    return back(event)


@require_POST
@arbitrator_page
def round_unplace(request: HttpRequest, event_id: int) -> HttpResponse:
    """Undo the last placement: its move leaves the board, the next rack goes back to the bag."""
    event = arbitrated_event(request, event_id)
    with refusals(request):
        # The game being played, or the last one when a placement ended it.
        game = game_selectors.current_game(event)
        if game is None:
            raise ApplicationError(_("No game is being played: start one."))
        if game.state == Game.State.PLAYING and game_selectors.unplaced_round(game) is not None:
            unplaced_round(event, request)  # the page's round: a click from a stale page does nothing
        placed = rounds.round_unplace(game=game, by=request.user)
        messages.success(
            request, _("The placement of round %(number)s is undone.") % {"number": placed.number}
        )
    return back(event)


@require_POST
@arbitrator_page
def round_rule_again(request: HttpRequest, event_id: int) -> HttpResponse:
    """A round whose rulings do not come (its worker died): sent to a worker again."""
    event = arbitrated_event(request, event_id)
    with refusals(request):
        watchdog.round_rule_again(round=unplaced_round(event, request), by=request.user)
        messages.success(request, _("The slips were sent to a worker to be ruled again."))
    return back(event)


@require_POST
@arbitrator_page
def top_choose(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    form = TopForm(request.POST)
    if form.is_valid():
        with refusals(request):
            choice = rounds.top_choose(
                round=unplaced_round(event, request),
                move_text=form.cleaned_data["move"],
                by=request.user,
                confirm_lower=form.cleaned_data["confirm_lower"],
            )
            if choice.warning:
                messages.warning(request, choice.warning)
            else:
                messages.success(
                    request,
                    _("%(move)s will be placed.")
                    % {"move": shown_move(choice.round.chosen, event.board, event.notation)},
                )
    return back(event)


def _selected_top(request: HttpRequest, event: Event, round: Round) -> Round:
    """The equal top selected in the publish or place form, chosen before the action: the
    move the phones announce and the one placed are the one the arbitrator selected."""
    move = (request.POST.get("move") or "").strip()[:40]
    if move and move != shown_move(round.chosen, event.board, event.notation):
        round = rounds.top_choose(round=round, move_text=move, by=request.user).round
    return round


@require_POST
@arbitrator_page
def round_place(request: HttpRequest, event_id: int) -> HttpResponse:
    """Place the chosen move, then draw the next rack: at random, or as typed from a
    physical draw (a refused rack places nothing: the arbitrator reads why and types it
    again)."""
    event = arbitrated_event(request, event_id)
    typed = (request.POST.get("typed") or "").strip().upper()[:20]
    with refusals(request):
        # A refused rack below leaves the top selected chosen, not placed (the page shows it).
        round = _selected_top(request, event, unplaced_round(event, request))
        try:
            rejected = _rejected(request.POST) if typed else ()
            following = rounds.round_place(
                round=round, by=request.user, typed=typed or None, rejected=rejected
            )
        except games.RackRefusedError as exc:
            raise ApplicationError(
                _("Nothing was placed: the rack typed, %(rack)s, is refused (%(why)s). Type it again.")
                % {"rack": typed, "why": exc.message}
            ) from exc
        if following is None and game_selectors.game_ended(round.game_id):
            messages.info(request, _("The draw rule ends the game: no rack can be drawn."))
    return back(event)
