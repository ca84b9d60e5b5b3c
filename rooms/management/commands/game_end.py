"""``python manage.py game_end --event X --reason stopped|no_move``

Ends the game being played: stopped by the arbitrator, or no legal move for the drawn
rack. (The draw rule ends a game by itself when the next rack cannot be drawn.) A round
still open or being ruled must be finished first; a drawn round never played stays in
the record.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from rooms.management.commands._common import ArbiterCommand, playing_game, plural
from solver.formats.record import END_REASONS
from tournaments.selectors.games import placed_count
from tournaments.services.games import game_end
from tournaments.standings import top_total


class Command(ArbiterCommand):
    help = "End the game being played (--reason stopped or no_move)."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--reason", required=True, choices=("stopped", "no_move"), help="why the game ends"
        )

    def run(self, *args: Any, **opts: Any) -> None:
        event = self.event()
        game = playing_game(event)
        # "No legal move" is checked by the service: refused while the drawn rack has one.
        game = game_end(game=game, reason=opts["reason"], by=self.user)
        placed = placed_count(game)
        self.say(
            f"Game {game.number} ended ({END_REASONS[game.end_reason]}): {plural(placed, 'round')} placed,"
            f" top total {top_total(game)}"
        )
        self.say(f"  standings: standings --event {event.code} --game {game.number}")
