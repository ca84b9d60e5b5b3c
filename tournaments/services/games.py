"""Games and their draws: starting a game (a master game's record checked against the
event's settings), drawing each rack at random or as typed, ending the game.

The draw is checked on a replay of the stored rounds (:func:`tournaments.state.rebuild`):
the rounds are the only record of the bag."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from solver.draw import RackDraw, game_over_by_draw
from solver.errors import IllegalRackError
from solver.formats.record import FinalDraw, GameRecord, RoundRecord
from solver.game import Game as SolverGame
from tournaments import queue
from tournaments.core import RECORD_SETTINGS, ApplicationError, User
from tournaments.linked import linker
from tournaments.messages import say_error
from tournaments.models import Event, Game, Round
from tournaments.services.backups import game_backup_on_commit
from tournaments.services.history import history_record
from tournaments.signals import game_ended, round_drawn
from tournaments.state import (
    game_config,
    lexicon_ready,
    master_final,
    master_round,
    rebuild,
)


def game_start(*, event: Event, by: User = None) -> Game:
    with transaction.atomic():
        # One game number at a time; and the settings and master games read under the
        # lock, not from the caller's copy (a settings change may have just committed).
        event = Event.objects.select_for_update().select_related("lexicon").get(pk=event.pk)
        if event.games.filter(state=Game.State.PLAYING).exists():
            raise ApplicationError(_("a game of this event is still being played: end it first"))
        lexicon_ready(event.lexicon)
        number = (event.games.aggregate(m=Max("number"))["m"] or 0) + 1
        game = Game(event=event, number=number)
        new: dict[str, Any] = {"number": number}
        if number <= len(event.masters):
            record = GameRecord.from_dict(event.masters[number - 1])
            game.master = event.masters[number - 1]
            game.seed_value = record.config.seed
            _check_master_settings(game, record)
            new["master"] = {"rounds": len(record.rounds), "seed": record.config.seed}
        game.save()
        history_record(event=event, entity="game", object_id=game.pk, action="start", by=by, new=new)
        return game


def _check_master_settings(game: Game, record: GameRecord) -> None:
    """A master game replays only with the settings it was played with: the event's may
    have been changed since the import."""
    ours = game_config(game)
    theirs = record.config
    differ = [
        f"{name} ({getattr(theirs, name)!r} / {getattr(ours, name)!r})"
        for name in RECORD_SETTINGS
        if getattr(theirs, name) != getattr(ours, name)
    ]
    if theirs.lexicon_checksum and theirs.lexicon_checksum != ours.lexicon_checksum:
        differ.append(f"lexicon ({theirs.lexicon} / {game.event.lexicon.name})")
    if differ:
        raise ApplicationError(
            _("game %(number)s replays a master game played with other settings (record / event): %(list)s")
            % {"number": game.number, "list": ", ".join(differ)}
        )


class RackRefusedError(ApplicationError):
    """A rack typed from a physical draw that cannot be the next rack (say why)."""


def round_draw(
    *, game: Game, by: User = None, typed: str | None = None, rejected: tuple[str, ...] = ()
) -> Round | None:
    """Draw the next rack, at random or as typed from a physical draw (full rack,
    reliquat included). Returns None when the draw rule ends the game (the game is then
    ended). Raises ApplicationError with the reason when a typed rack is refused."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.state != Game.State.PLAYING:
            raise ApplicationError(_("the game has ended"))
        position = rebuild(game)
        if position.current is not None:
            raise ApplicationError(
                _("round %(number)s is not placed yet") % {"number": position.current.number}
            )
        solver_game = position.game
        number = solver_game.round_number
        planned = master_round(game, number) or master_final(game, number)
        drawn: RackDraw | None
        link = linker(game.event)
        if link.follows(game.event):
            drawn = link.served_draw(game, solver_game, number, typed=typed is not None)
            if drawn is None:
                game_end(game=game, reason=link.ended(game), by=by)
                return None
        elif planned is not None:
            if typed is not None:
                raise RackRefusedError(
                    _("round %(number)s of a master game takes its rack from the record: draw without typing")
                    % {"number": number}
                )
            drawn = _master_draw(solver_game, planned, number)
        elif typed is None:
            drawn = solver_game.draw()
            if drawn is None:
                game_end(game=game, reason="draw_rule", by=by)
                return None
        else:
            try:
                drawn = solver_game.draw_manual(typed, rejected)
            except IllegalRackError as exc:
                raise RackRefusedError(say_error(exc)) from exc
        reliquat, new, rejected = drawn.texts()
        round = Round.objects.create(
            game=game,
            number=drawn.round,
            reliquat=reliquat,
            new_tiles=new,
            rejected=list(rejected),
            manual=drawn.manual,
        )
        history_record(
            event=game.event,
            entity="round",
            object_id=round.pk,
            action="draw",
            by=by,
            new={
                "round": round.number,
                "reliquat": round.reliquat,
                "new": round.new_tiles,
                "rejected": round.rejected,
                "manual": round.manual,
            },
        )
        round_drawn.send(sender=Round, round=round)
        transaction.on_commit(lambda: queue.send(queue.round_solve_task, round.pk))
        return round


def _master_draw(solver_game: SolverGame, planned: RoundRecord | FinalDraw, number: int) -> RackDraw:
    """The rack of a master game's round, redrawn from its seed (or taken from the bag as
    typed): it must come out as recorded, racks put back included."""
    drawn: RackDraw | None
    try:
        if planned.manual:
            drawn = solver_game.draw_manual(planned.rack, planned.rejected)
        else:
            drawn = solver_game.draw()
    except IllegalRackError as exc:
        raise ApplicationError(say_error(exc)) from exc
    if drawn is None or drawn.texts() != (planned.reliquat, planned.new, planned.rejected):
        raise ApplicationError(
            _("round %(number)s does not come out of the bag as the master game's record says")
            % {"number": number}
        )
    return drawn


def check_playing(game: Game) -> None:
    if game.state != Game.State.PLAYING:
        raise ApplicationError(_("game %(number)s has ended") % {"number": game.number})


def game_end(*, game: Game, reason: str, by: User = None) -> Game:
    from solver.formats.record import END_REASONS

    if reason not in END_REASONS or not reason:
        raise ApplicationError(_("unknown end of game %(reason)s") % {"reason": repr(reason)})
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.state == Game.State.ENDED:
            return game
        pending = game.rounds.unplaced().first()
        # A drawn or adjudicated round that is never placed (no move, or stopped) keeps its
        # draw in the record; an open or closing round must be finished first.
        if pending is not None and pending.state in (Round.State.OPEN, Round.State.CLOSED):
            raise ApplicationError(
                _("round %(number)s is still %(state)s")
                % {"number": pending.number, "state": pending.get_state_display()}
            )
        _check_end_reason(game, reason, pending)
        game.state = Game.State.ENDED
        game.end_reason = reason
        game.ended_at = timezone.now()
        game.save(update_fields=["state", "end_reason", "ended_at"])
        history_record(
            event=game.event, entity="game", object_id=game.pk, action="end", by=by, new={"reason": reason}
        )
        game_ended.send(sender=Game, game=game)
        game_backup_on_commit(game=game)
        return game


def _check_end_reason(game: Game, reason: str, pending: Round | None) -> None:
    """The draw rule and "no legal move" are facts the game record states and a replay
    checks: refuse them while they are not true (the arbitrator stops the game instead)."""
    if reason == "no_move":
        if pending is None:
            raise ApplicationError(_("no rack is drawn: draw the next one to see whether it has a move"))
        if pending.solved_at is None:
            raise ApplicationError(
                _("the moves of round %(number)s are not counted yet: try again in a moment")
                % {"number": pending.number}
            )
        if pending.tops:
            raise ApplicationError(
                _("round %(number)s has %(moves)s legal moves (top %(top)s): stop the game instead")
                % {"number": pending.number, "moves": pending.move_count, "top": pending.top_score}
            )
    elif reason == "draw_rule":
        position = rebuild(game)
        solver_game = position.game
        pool = solver_game.bag.tiles + tuple(solver_game.reliquat)
        if position.current is not None or not game_over_by_draw(
            solver_game.tiles, pool, solver_game.round_number, solver_game.draw_rules
        ):
            raise ApplicationError(_("a rack can still be drawn: the draw rule does not end the game"))
