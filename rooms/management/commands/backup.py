"""``python manage.py backup --event ID_OR_CODE [--game N]``

Writes the backup of each game of the event now (or of game N), as every placed round
does by itself (:mod:`tournaments.services.backups`): the game file in the data folder's
``backups/`` and in ``ARBITER_BACKUP_DIR`` when it is set. A folder that cannot take it is
named with the reason (and recorded in the event's history); the command then ends with
an error, after writing to the folders that could take it.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from rooms.management.commands._common import ArbiterCommand, latest_game
from tournaments.selectors.games import event_games
from tournaments.services.backups import game_backup


class Command(ArbiterCommand):
    help = "Write the backup of the event's games now (var/backups/ and ARBITER_BACKUP_DIR)."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", type=int, metavar="N", help="this game only (default: every game)")

    def run(self, *args: Any, **opts: Any) -> None:
        event = self.event()
        games = [latest_game(event, opts["game"])] if opts["game"] else list(event_games(event))
        if not games:
            raise CommandError(f"no game has been started in {event.name}: nothing to back up")
        failures = []
        for game in games:
            backup = game_backup(game=game)
            if not backup.written and not backup.failures:
                self.say(f"Game {game.number}: no round placed yet, nothing to back up")
            for path in backup.written:
                self.say(f"Game {game.number}: {path}")
            failures += backup.failures
        if failures:
            raise CommandError("; ".join(failures))
