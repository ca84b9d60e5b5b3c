"""``python manage.py round_draw --event X [--new-game] [--rack AEIRSTN [--rejected RACK ...]]``

Draws the next rack of the game being played: at random from the event's seed, or as
typed from a physical draw (the full rack, reliquat included, ``?`` for a blank; the racks
rejected on the table before it with ``--rejected``). Prints the rack as reliquat+new, the
rejected racks, then the tops once solved. ``--new-game`` starts the next game first when
none is being played.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.db import transaction

from rooms.management.commands._common import ArbiterCommand
from tournaments.selectors.games import playing_game
from tournaments.services.games import game_start, round_draw


class Command(ArbiterCommand):
    help = "Draw the next rack (random, or typed from a physical draw with --rack)."
    enqueues_tasks = True

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--new-game", action="store_true", help="start the next game when none is playing"
        )
        parser.add_argument(
            "--rack", metavar="LETTERS", help="the rack drawn on the table, reliquat included"
        )
        parser.add_argument(
            "--rejected",
            nargs="+",
            action="extend",
            default=[],
            metavar="RACK",
            help="racks drawn and rejected on the table before --rack (vowel/consonant minimums)",
        )

    def run(self, *args: Any, **opts: Any) -> None:
        if opts["rejected"] and not opts["rack"]:
            raise CommandError("--rejected goes with --rack: a random draw records its own rejected racks")
        event = self.event()
        game = playing_game(event)
        if game is not None and opts["new_game"]:
            raise CommandError(f"game {game.number} is still being played: end it with game_end first")
        if game is None and not opts["new_game"]:
            raise CommandError(
                f"no game is being played in {event.name}: add --new-game to start game"
                f" {event.games.count() + 1}"
            )
        started = game is None
        # One transaction: a typed rack refused for a new game leaves no empty game behind.
        with transaction.atomic():
            if game is None:
                game = game_start(event=event, by=self.user)
            round = round_draw(game=game, by=self.user, typed=opts["rack"], rejected=tuple(opts["rejected"]))
        if started:
            self.say(f"Game {game.number} started")
        self.report_draw(round, game, event)
