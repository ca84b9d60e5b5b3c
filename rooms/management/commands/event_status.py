"""``python manage.py event_status [--event X] [--no-board]``

Where the event stands: the current game and round, its state, the rack as
reliquat+new, the tops, the slips received and the tables still missing, what to do next,
and the board in the event's notation (premium squares shown with the symbols of
docs/rules.md#boards).
Without ``--event``, lists the events.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser
from django.utils import timezone

from rooms.management.commands._common import (
    ArbiterCommand,
    find_event,
    plural,
    rack_text,
    shown_move,
    tables_text,
    tops_text,
)
from solver.formats.record import END_REASONS
from solver.report import board_lines
from tournaments.models import Event, Game, Round
from tournaments.selectors.events import every_event
from tournaments.selectors.games import current_game, placed_count, playing_game, unplaced_round
from tournaments.selectors.slips import current_slip_count, late_slip_count, tables_without_slip
from tournaments.standings import top_total
from tournaments.state import rebuild

NEXT_STEP = {
    Round.State.DRAWN: "round_open",
    Round.State.OPEN: "slips_enter, then round_close",
    Round.State.CLOSED: "wait for the rulings (Celery workers), then rulings",
    Round.State.ADJUDICATED: "rulings, top_choose, then round_place",
}


class Command(ArbiterCommand):
    help = "Show the current game, round, rack, slips and board of an event (no --event: list the events)."
    event_option = False

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--event", metavar="ID_OR_CODE", help="event id or join code (default: list events)"
        )
        parser.add_argument("--no-board", action="store_true", help="leave the board out")

    def run(self, *args: Any, **opts: Any) -> None:
        if not opts["event"]:
            self._list()
            return
        event = find_event(opts["event"])
        self.say(f"Event {event.pk} {event.name} (join code {event.code}), {event.starts_on}")
        self.say(
            f"  {event.language} tiles, {event.board} board, lexicon {event.lexicon.name},"
            f" notation {event.notation}, {event.mode} mode, {event.round_seconds} s a round"
        )
        players = event.players.count()
        self.say(f"  {plural(players, 'player')}" + ("" if players else ": import them with players_import"))
        game = current_game(event)
        if game is None:
            self.say("No game started: round_draw --new-game")
            return
        placed = placed_count(game)
        state = "playing" if game.state == Game.State.PLAYING else f"ended: {END_REASONS[game.end_reason]}"
        self.say(
            f"Game {game.number} ({state}): {plural(placed, 'round')} placed, top total {top_total(game)}"
        )
        round = unplaced_round(game)
        if round is not None:
            self._round(event, round)
        if game.state == Game.State.ENDED:
            self.say("  next: round_draw --new-game, or standings")
        elif round is None:
            self.say("  next: round_draw")
        if not opts["no_board"]:
            board = rebuild(game).game.board
            self.say("")
            for line in board_lines(board.rows(), board.layout.symbols, board.size, event.notation):
                self.say(line)

    def _round(self, event: Event, round: Round) -> None:
        # A round left unplaced when the game ended stays in the record, never played.
        state = round.get_state_display() if round.game.state == Game.State.PLAYING else "never played"
        self.say(f"Round {round.number} ({state}): rack {rack_text(round)}")
        for rejected in round.rejected:
            self.say(f"  rejected: {rejected}")
        self.say(f"  {tops_text(round, event)}")
        if round.chosen:
            self.say(f"  chosen for the board: {shown_move(round.chosen, event)} {round.chosen_score}")
        if round.state == Round.State.OPEN and round.deadline is not None:
            left = int(round.seconds_left(timezone.now()) or 0)
            if round.paused_at is not None:
                self.say(f"  clock paused, {left} s left")
            else:
                until = timezone.localtime(round.deadline).strftime("%H:%M:%S")
                timing = f"{left} s left" if left > 0 else "time is up"
                self.say(f"  slips until {until} ({timing})")
        if round.state != Round.State.DRAWN:
            received = current_slip_count(round)
            late = late_slip_count(round)
            self.say(
                f"  slips received: {received} of {event.players.count()}"
                + (f", {late} late" if late else "")
                + f"; missing tables: {tables_text(tables_without_slip(round))}"
            )
        if round.game.state == Game.State.PLAYING:
            self.say(f"  next: {NEXT_STEP[Round.State(round.state)]}")

    def _list(self) -> None:
        events = every_event()
        if not events:
            self.say("No event yet: create one with event_create")
            return
        for e in events:
            playing = playing_game(e)
            where = f"game {playing.number} playing" if playing else plural(e.games.count(), "game")
            players = plural(e.players.count(), "player")
            self.say(f"{e.pk:>5}  {e.code}  {e.starts_on}  {e.name}  ({players}, {where})")
