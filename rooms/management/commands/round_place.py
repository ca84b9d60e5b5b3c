"""``python manage.py round_place --event X [--no-draw]``

Places the chosen move (default: the automatic choice among the tops) on the board for
everyone, then draws the next rack at random and prints it with its tops; ``--no-draw``
leaves the next draw to ``round_draw`` (a rack typed from a physical draw).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from rooms.management.commands._common import ArbiterCommand, current_round, playing_game, shown_move
from tournaments.models import Round
from tournaments.services.rounds import round_place

WHAT_FIRST = {
    Round.State.DRAWN: "open it (round_open), type the slips, then close it (round_close) first",
    Round.State.OPEN: "close it with round_close first",
    Round.State.CLOSED: "its slips are being ruled: try again in a moment",
}


class Command(ArbiterCommand):
    help = "Place the chosen move for everyone, then draw the next rack (unless --no-draw)."
    enqueues_tasks = True

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--no-draw", action="store_true", help="do not draw the next rack at random")

    def run(self, *args: Any, **opts: Any) -> None:
        event = self.event()
        game = playing_game(event)
        round = current_round(game)
        # The service only says "adjudicate it first"; the arbitrator needs the next step.
        first = WHAT_FIRST.get(Round.State(round.state))
        if first:
            raise CommandError(f"round {round.number} is {round.get_state_display()}: {first}")
        next_round = round_place(round=round, by=self.user, draw_next=not opts["no_draw"])
        round.refresh_from_db()
        self.say(
            f"Round {round.number} placed: {shown_move(round.chosen, event)} {round.chosen_score}"
            f" (top {round.top_score})"
        )
        if opts["no_draw"]:
            self.say("  next: round_draw (at random, or --rack as drawn on the table)")
            return
        self.report_draw(next_round, game, event)
