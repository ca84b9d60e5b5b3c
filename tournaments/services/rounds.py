"""A round's life after its draw: opened with a deadline, closed, solved by a worker, its
top chosen and placed on the board for everyone.

Races between players and the arbitrator are settled on the Round row: ``round_close``
locks it (``select_for_update``) before reading its state, and ``slip_submit`` locks it
too, in SHARE mode on PostgreSQL (slips do not wait for each other; the close waits for
the slips already in, the slips after it wait for the close: tournaments/services/slips.py),
so a slip is either in before the close or marked late after it, never lost or
half-counted. On SQLite, where row locks do not exist, the IMMEDIATE transactions of the
settings serialize the writers instead."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from solver.analysis import analyse, order_tops
from solver.errors import IllegalMoveError, InvalidMoveError
from solver.notation import format_move, parse_move
from solver.rules import validate
from solver.tiles import rack_codes
from tournaments import queue
from tournaments.core import ApplicationError, User
from tournaments.judging import judging_rules
from tournaments.linked import linker
from tournaments.messages import say_error
from tournaments.models import Game, Round
from tournaments.services.backups import game_backup_on_commit
from tournaments.services.games import check_playing, round_draw
from tournaments.services.history import actor, history_record
from tournaments.signals import round_closed, round_placed, round_unplaced
from tournaments.state import (
    Position,
    master_round,
    rebuild,
)


def round_open(
    *, round: Round, by: User = None, seconds: int | None = None, now: dt.datetime | None = None
) -> Round:
    with transaction.atomic():
        round = Round.objects.select_for_update().get(pk=round.pk)
        check_playing(round.game)
        if round.state != Round.State.DRAWN:
            raise ApplicationError(
                _("round %(number)s is %(state)s, it cannot be opened")
                % {"number": round.number, "state": round.get_state_display()}
            )
        now = now or timezone.now()
        length = seconds if seconds is not None else round.game.event.round_seconds
        if length < 1:
            raise ApplicationError(_("a round lasts at least one second"))
        round.state = Round.State.OPEN
        round.opened_at = now
        round.deadline = now + dt.timedelta(seconds=length)
        round.save(update_fields=["state", "opened_at", "deadline"])
        history_record(
            event=round.game.event,
            entity="round",
            object_id=round.pk,
            action="open",
            by=by,
            new={"deadline": round.deadline.isoformat()},
        )
        ahead = queue.round_rule_ahead_task
        if settings.ARBITER_RULE_AHEAD and not ahead.app.conf.task_always_eager:
            # The slips ruled as they come, so that the close has little left to write
            # (tournaments/services/rulings.py, round_rule_ahead); lost with the broker,
            # the close rules them all as before. Not with the tasks run in the caller:
            # each pass would run the next at once.
            transaction.on_commit(lambda: queue.send(ahead, round.pk, 0, countdown=queue.RULE_AHEAD_EVERY))
        return round


def round_close(*, round: Round, by: User = None, now: dt.datetime | None = None) -> Round:
    with transaction.atomic():
        # Same lock as slip_submit: slips committed before this point are in, later ones late.
        round = Round.objects.select_for_update().get(pk=round.pk)
        check_playing(round.game)
        if round.state != Round.State.OPEN:
            raise ApplicationError(
                _("round %(number)s is %(state)s, it cannot be closed")
                % {"number": round.number, "state": round.get_state_display()}
            )
        round.state = Round.State.CLOSED
        round.closed_at = now or timezone.now()
        fields = ["state", "closed_at"]
        if round.paused_at is not None:
            # Closed with its clock held: the deadline becomes the one a resume would have
            # given, so that the time left at the close (a reopen gives it back) is kept.
            round.deadline = _resumed_deadline(round, round.closed_at)
            round.paused_at = None
            fields += ["deadline", "paused_at"]
        round.save(update_fields=fields)
        history_record(event=round.game.event, entity="round", object_id=round.pk, action="close", by=by)
        round_closed.send(sender=Round, round=round)
        # Sent after the commit; if the broker cannot take it, the watchdog sends it again.
        transaction.on_commit(lambda: queue.send(queue.round_adjudicate_task, round.pk))
        return round


def _resumed_deadline(round: Round, now: dt.datetime) -> dt.datetime:
    assert round.deadline is not None and round.paused_at is not None
    return round.deadline + max(dt.timedelta(0), now - round.paused_at)


def _running_round(round: Round) -> Round:
    """The open round, locked as the close and the slips lock it: a slip is judged late
    or not against the clock as it stands when it takes the lock."""
    round = Round.objects.select_for_update().select_related("game__event").get(pk=round.pk)
    check_playing(round.game)
    if round.state != Round.State.OPEN or round.deadline is None:
        raise ApplicationError(
            _("round %(number)s is %(state)s: its clock runs only while it is open")
            % {"number": round.number, "state": round.get_state_display()}
        )
    return round


def _clock_record(round: Round, action: str, by: User, old: dict[str, Any]) -> None:
    history_record(
        event=round.game.event,
        entity="round",
        object_id=round.pk,
        action=action,
        by=by,
        old=old,
        new=_clock(round),
    )


def _clock(round: Round) -> dict[str, Any]:
    return {
        "deadline": round.deadline.isoformat() if round.deadline else None,
        "paused_at": round.paused_at.isoformat() if round.paused_at else None,
    }


def round_pause(*, round: Round, by: User = None, now: dt.datetime | None = None) -> Round:
    """Hold the clock (a disturbance in the hall, a player taken ill). While it is held the
    time left does not run down and no slip is late by the clock."""
    now = now or timezone.now()
    with transaction.atomic():
        round = _running_round(round)
        if round.paused_at is not None:
            raise ApplicationError(
                _("the clock of round %(number)s is paused already") % {"number": round.number}
            )
        if round.time_up(now):
            raise ApplicationError(
                _("the time of round %(number)s is up: its clock can no longer be paused")
                % {"number": round.number}
            )
        old = _clock(round)
        round.paused_at = now
        round.save(update_fields=["paused_at"])
        _clock_record(round, "pause", by, old)
        return round


def round_resume(*, round: Round, by: User = None, now: dt.datetime | None = None) -> Round:
    """Start the held clock again with the time it had left when it was paused."""
    now = now or timezone.now()
    with transaction.atomic():
        round = _running_round(round)
        if round.paused_at is None:
            raise ApplicationError(
                _("the clock of round %(number)s is not paused") % {"number": round.number}
            )
        old = _clock(round)
        round.deadline = _resumed_deadline(round, now)
        round.paused_at = None
        round.save(update_fields=["deadline", "paused_at"])
        _clock_record(round, "resume", by, old)
        return round


#: The most time added to a clock at once (seconds).
MAX_ADDED_SECONDS = 3600


def round_add_time(*, round: Round, by: User = None, seconds: int, now: dt.datetime | None = None) -> Round:
    """Give the players ``seconds`` more, running or paused. Not once the time is up: the
    slips that came after it are late already; closing and reopening the round gives
    time again, and those players hand their slips in again."""
    now = now or timezone.now()
    if not 1 <= seconds <= MAX_ADDED_SECONDS:
        raise ApplicationError(
            _("the time added must be between 1 and %(most)s seconds") % {"most": MAX_ADDED_SECONDS}
        )
    with transaction.atomic():
        round = _running_round(round)
        if round.time_up(now):
            raise ApplicationError(
                _("the time of round %(number)s is up: close it and reopen it to give time again")
                % {"number": round.number}
            )
        old = _clock(round)
        assert round.deadline is not None
        round.deadline += dt.timedelta(seconds=seconds)
        round.save(update_fields=["deadline"])
        _clock_record(round, "add_time", by, old)
        return round


#: A round reopened after it was closed at or after its deadline gets this long (seconds)
#: unless the arbitrator says otherwise.
REOPEN_SECONDS = 60


def round_reopen(
    *,
    round: Round,
    by: User = None,
    seconds: int | None = None,
    now: dt.datetime | None = None,
    reason: str = "",
) -> Round:
    """Open again a round closed by mistake, before its move is placed. Its slips and
    rulings are kept (the rulings are written again at the next close). The clock gets
    ``seconds``, by default the time that was left when it was closed (the close came
    early), else :data:`REOPEN_SECONDS`. Slips that arrived while it was closed stay late:
    the players hand them in again. Once its results have been shown to the players the
    top is public: it reopens only with the arbitrator's ``reason`` (kept in the history),
    and every slip received after that first publication is late."""
    now = now or timezone.now()
    with transaction.atomic():
        # The round's lock, as the close and the slips take it.
        round = Round.objects.select_for_update().get(pk=round.pk)
        check_playing(round.game)
        if round.state not in (Round.State.CLOSED, Round.State.ADJUDICATED):
            raise ApplicationError(
                _("round %(number)s is %(state)s: only a closed round not yet placed can be reopened")
                % {"number": round.number, "state": round.get_state_display()}
            )
        if round.first_published_at is not None and not reason.strip():
            shown = timezone.localtime(round.first_published_at).strftime("%H:%M:%S")
            raise ApplicationError(
                _(
                    "the results of round %(number)s were shown to the players at %(time)s: the top is"
                    " public. Reopen it only with a reason, kept in the history; every slip received"
                    " after %(time)s is then late"
                )
                % {"number": round.number, "time": shown},
                {"reason": "results_public"},
            )
        if seconds is None:
            left = 0.0
            if round.deadline is not None and round.closed_at is not None:
                left = (round.deadline - round.closed_at).total_seconds()
            seconds = int(left) if left >= 1 else REOPEN_SECONDS
        if not 1 <= seconds <= 3600:
            raise ApplicationError(_("the time must be between 1 and 3600 seconds"))
        old = {
            "state": round.state,
            "deadline": round.deadline.isoformat() if round.deadline else None,
            "closed_at": round.closed_at.isoformat() if round.closed_at else None,
        }
        round.state = Round.State.OPEN
        round.closed_at = None
        round.deadline = now + dt.timedelta(seconds=seconds)
        # Its results are shown again at the next close, ruled anew (published there or
        # reviewed again, as the event says).
        round.published_at = None
        round.save(update_fields=["state", "closed_at", "deadline", "published_at"])
        history_record(
            event=round.game.event,
            entity="round",
            object_id=round.pk,
            action="reopen",
            by=by,
            old=old,
            new={"state": round.state, "deadline": round.deadline.isoformat()},
            reason=reason.strip(),
        )
        return round


def round_publish(*, round: Round, by: User = None, now: dt.datetime | None = None) -> Round:
    """Show the players the round's top and their rulings: the arbitrator has reviewed
    them. Placing the move publishes too; publishing twice changes nothing."""
    with transaction.atomic():
        # The lock of the rulings' corrections and the placement: what is published is
        # what they wrote.
        round = Round.objects.select_for_update().select_related("game__event").get(pk=round.pk)
        check_playing(round.game)
        if round.state != Round.State.ADJUDICATED:
            raise ApplicationError(
                _("round %(number)s is %(state)s: its results can be published once its slips are ruled")
                % {"number": round.number, "state": round.get_state_display()}
            )
        if round.published_at is not None:
            return round
        at = now or timezone.now()
        fields = round.publish(at)
        choice = announced_choice(round)
        round.save(update_fields=[*fields, "chosen", "chosen_score"])
        history_record(
            event=round.game.event,
            entity="round",
            object_id=round.pk,
            action="publish",
            by=by,
            new={"published_at": at.isoformat(), **choice},
        )
        return round


def announced_choice(round: Round) -> dict[str, Any]:
    """Fix the move the players are told is placed, as they are told it: the arbitrator's
    choice, else the automatic one among the tops (a master game's or the hub's move is
    chosen at the solve). Returns it for the history, or {} when nothing is chosen yet (a
    centre still waiting for the hub's move: the phones then announce the top score
    alone). The caller saves the round."""
    event = round.game.event
    arbitrated = planned_move(round) is None and not linker(event).follows(event)
    if not round.chosen and round.tops and arbitrated:
        round.chosen = automatic_top(round)
        round.chosen_score = round.top_score
    if not round.chosen:
        return {}
    return {"chosen": round.chosen, "score": round.chosen_score}


def automatic_top(round: Round) -> str:
    """The move placed when the arbitrator chooses none among equal tops (GCG)."""
    position = rebuild(round.game)
    tops = [parse_move(t, "gcg", position.game.board.size) for t in round.tops]
    return format_move(order_tops(position.game.board, tops)[0], "gcg")


def round_solve(*, round_id: int) -> Round:
    """Count the moves and find the tops of a drawn round. Idempotent."""
    round = Round.objects.select_related("game__event__lexicon").get(pk=round_id)
    if round.solved_at is not None:
        return round
    position = rebuild(round.game)
    if position.current is None or position.current.pk != round.pk:
        raise ApplicationError(
            _("round %(number)s is not the game's current round") % {"number": round.number}
        )
    result = position.game.analyse(rack_codes(round.rack))
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=round_id)
        if locked.solved_at is None:
            locked.move_count = result.moves
            locked.top_score = result.top_score or 0
            locked.tops = [format_move(m, "gcg") for m in result.tops]
            locked.solved_at = timezone.now()
            fields = ["move_count", "top_score", "tops", "solved_at"]
            planned = planned_move(round)
            if planned is not None:
                # A master game places its recorded move, a centre the hub's, whatever the
                # tops found here; scored on this board with this event's rules, not copied.
                locked.chosen, locked.chosen_score = _scored(position, round, planned)
                fields += ["chosen", "chosen_score"]
            locked.save(update_fields=fields)
        return locked


def planned_move(round: Round) -> str | None:
    """The move a round must place (GCG notation): a master game's recorded one, or for a
    centre of a multiplex the hub's once it has given it; None when the arbitrator chooses."""
    planned = master_round(round.game, round.number)
    if planned is not None:
        return planned.played
    served = linker(round.game.event).served_move(round.game, round.number)
    return served[0] if served is not None else None


def _scored(position: Position, round: Round, played: str) -> tuple[str, int]:
    game = position.game
    move = parse_move(played, "gcg", game.board.size)
    scored = validate(game.board, move, rack_codes(round.rack), game.lexicon, game.rules)
    return format_move(scored.move, "gcg"), scored.score


def round_take_served_move(*, round: Round, reason: str) -> Round:
    """A round of a linked event gets the move it must place once it is given (after the
    round was solved: the move came later). Idempotent."""
    with transaction.atomic():
        round = Round.objects.select_for_update().get(pk=round.pk)
        played = planned_move(round)
        if played is None or round.chosen or round.solved_at is None or round.state == Round.State.PLACED:
            return round
        round.chosen, round.chosen_score = _scored(rebuild(round.game), round, played)
        round.save(update_fields=["chosen", "chosen_score"])
        history_record(
            event=round.game.event,
            entity="round",
            object_id=round.pk,
            action="choose_top",
            by=None,
            new={"chosen": round.chosen, "score": round.chosen_score},
            reason=reason,
        )
        return round


@dataclass
class TopChoice:
    round: Round
    #: Set when the arbitrator picked a move scoring less than the top.
    warning: str = ""


def top_choose(*, round: Round, move_text: str, by: User = None, confirm_lower: bool = False) -> TopChoice:
    """Choose the move placed for everyone. A lower move than the top needs
    ``confirm_lower``: the result carries a warning either way."""
    with transaction.atomic():
        round = Round.objects.select_for_update().get(pk=round.pk)
        check_playing(round.game)
        if round.state == Round.State.PLACED:
            raise ApplicationError(_("the round is already placed"))
        if round.solved_at is None:
            raise ApplicationError(_("the tops are not computed yet"))
        position = rebuild(round.game)
        game = position.game
        try:
            move = parse_move(move_text, round.game.event.notation, game.board.size)
            # A refusal names the squares in the event's notation, as the slips' rulings do.
            rules = judging_rules(position, round.game.event)
            scored = validate(game.board, move, rack_codes(round.rack), game.lexicon, rules)
        except (InvalidMoveError, IllegalMoveError) as exc:
            raise ApplicationError(say_error(exc)) from exc
        planned = master_round(round.game, round.number)
        if planned is not None and format_move(scored.move, "gcg") != planned.played:
            recorded = parse_move(planned.played, "gcg", game.board.size)
            raise ApplicationError(
                _("round %(number)s of a master game places the recorded move %(move)s")
                % {"number": round.number, "move": format_move(recorded, round.game.event.notation)}
            )
        link = linker(round.game.event)
        if link.follows(round.game.event):
            link.check_move(round, format_move(scored.move, "gcg"))
        warning = ""
        if scored.score < (round.top_score or 0):
            shown = format_move(scored.move, round.game.event.notation)
            warning = _("%(move)s scores %(score)s, the top is %(top)s") % {
                "move": shown,
                "score": scored.score,
                "top": round.top_score,
            }
            if not confirm_lower:
                raise ApplicationError(
                    _("%(warning)s: confirm to place a lower move") % {"warning": warning},
                    {"warning": warning},
                )
        old = {"chosen": round.chosen, "score": round.chosen_score}
        round.chosen = format_move(scored.move, "gcg")
        round.chosen_score = scored.score
        user, _label = actor(by)
        round.chosen_by = user
        round.save(update_fields=["chosen", "chosen_score", "chosen_by"])
        history_record(
            event=round.game.event,
            entity="round",
            object_id=round.pk,
            action="choose_top",
            by=by,
            old=old,
            new={"chosen": round.chosen, "score": scored.score},
            reason=warning,
        )
        return TopChoice(round, warning)


def round_place(
    *,
    round: Round,
    by: User = None,
    draw_next: bool = True,
    typed: str | None = None,
    rejected: tuple[str, ...] = (),
) -> Round | None:
    """Place the chosen move (default: the automatic choice among the tops) on the board
    for everyone; then draw the next rack: as ``typed`` from a physical draw (with the
    tiles ``rejected`` back to the bag), else at random unless ``draw_next`` is False.
    A typed rack that is refused refuses the placement with it: nothing is placed, the
    arbitrator types the rack again. Returns the next round, or None (no next round
    drawn, or the game ended)."""
    # One transaction for the placement and the next draw: a refused draw leaves the
    # round unplaced rather than a placed round with no next rack.
    with transaction.atomic():
        round = Round.objects.select_for_update().get(pk=round.pk)
        check_playing(round.game)
        if round.state != Round.State.ADJUDICATED:
            raise ApplicationError(
                _("round %(number)s is %(state)s: adjudicate it first")
                % {"number": round.number, "state": round.get_state_display()}
            )
        link = linker(round.game.event)
        follows = link.follows(round.game.event)
        if follows:
            played = link.check_move(round, round.chosen)
            if not round.chosen:  # the served move came after the solve, not taken yet
                round.chosen, round.chosen_score = _scored(rebuild(round.game), round, played)
        if not round.chosen:
            if not round.tops:
                raise ApplicationError(_("no legal move: end the game"))
            round.chosen = automatic_top(round)
            round.chosen_score = round.top_score
        round.state = Round.State.PLACED
        round.placed_at = timezone.now()
        shown = round.publish(round.published_at or round.placed_at)  # placing is publishing
        round.save(update_fields=["chosen", "chosen_score", "state", "placed_at", *shown])
        history_record(
            event=round.game.event,
            entity="round",
            object_id=round.pk,
            action="place",
            by=by,
            new={"chosen": round.chosen, "score": round.chosen_score},
        )
        rebuild(round.game)  # the placed move must replay: refuse the commit otherwise
        game_backup_on_commit(game=round.game)
        round_placed.send(sender=Round, round=round)
        if follows and not link.next_served(round):
            return None  # drawn once it is served
        if typed is not None:
            return round_draw(game=round.game, by=by, typed=typed, rejected=rejected)
        if draw_next:
            return round_draw(game=round.game, by=by)
        return None


def round_unplace(*, game: Game, by: User = None) -> Round:
    """Undo the game's last placement: its move leaves the board, the round is ruled and
    unplaced again (its rulings and chosen move kept), and the rack drawn after it goes
    back to the bag (drawn again, a random draw gives the same rack: the draws replay from
    the game's seed). A game that ended since (the placement emptied the bag, the next rack
    had no move, or the arbitrator stopped it) is played on again. Refused when it would
    lose what the players did since: slips handed in for the next round (the message says
    how many), or the event's next game started."""
    linker(game.event).check_unplace(game)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        ended = game.state == Game.State.ENDED
        if ended:
            later = game.event.games.filter(number__gt=game.number).order_by("number").first()
            if later is not None:
                raise ApplicationError(
                    _("game %(later)s has started: the placements of game %(number)s can no longer be undone")
                    % {"later": later.number, "number": game.number}
                )
        placed = game.rounds.filter(state=Round.State.PLACED).order_by("-number").first()
        if placed is None:
            raise ApplicationError(_("no move of this game is placed yet"))
        placed = Round.objects.select_for_update().get(pk=placed.pk)
        next_round = Round.objects.select_for_update().filter(game=game, number__gt=placed.number).first()
        if next_round is not None:
            slips = next_round.slips.count()
            if slips:
                raise ApplicationError(
                    ngettext(
                        "round %(number)s already has %(count)s slip: undoing the placement would lose it",
                        "round %(number)s already has %(count)s slips: undoing the placement would lose them",
                        slips,
                    )
                    % {"number": next_round.number, "count": slips}
                )
        if ended:
            # Nothing the players did is lost: the game is simply not over any more.
            history_record(
                event=game.event,
                entity="game",
                object_id=game.pk,
                action="end_undone",
                by=by,
                old={
                    "state": game.state,
                    "reason": game.end_reason,
                    "ended_at": game.ended_at.isoformat() if game.ended_at else None,
                },
                new={"state": Game.State.PLAYING},
                reason="its last placement was undone: the game is played on",
            )
            game.state, game.end_reason, game.ended_at = Game.State.PLAYING, "", None
            game.save(update_fields=["state", "end_reason", "ended_at"])
        if next_round is not None:
            history_record(
                event=game.event,
                entity="round",
                object_id=next_round.pk,
                action="draw_undone",
                by=by,
                old={
                    "round": next_round.number,
                    "reliquat": next_round.reliquat,
                    "new": next_round.new_tiles,
                    "rejected": next_round.rejected,
                    "manual": next_round.manual,
                    "state": next_round.state,
                },
                reason="the placement before it was undone: its tiles are back in the bag",
            )
            next_round.delete()
        old = {
            "state": placed.state,
            "chosen": placed.chosen,
            "placed_at": placed.placed_at.isoformat() if placed.placed_at else None,
        }
        placed.state = Round.State.ADJUDICATED
        placed.placed_at = None
        placed.save(update_fields=["state", "placed_at"])
        history_record(
            event=game.event,
            entity="round",
            object_id=placed.pk,
            action="unplace",
            by=by,
            old=old,
            new={"state": placed.state},
        )
        rebuild(game)  # the game must replay without it: refuse the commit otherwise
        game_backup_on_commit(game=game)
        round_unplaced.send(sender=Round, round=placed)
        return placed


def analysis_for(round: Round) -> Any:
    """The full analysis of a round (all moves ranked), for virtual players and review."""
    position = rebuild(round.game)
    return analyse(
        position.game.board, position.game.lexicon, rack_codes(round.rack), position.game.rules, keep="all"
    )
