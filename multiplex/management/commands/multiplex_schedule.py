"""``python manage.py multiplex_schedule --event HUB --game 2 --starts-at 2026-12-05T16:30+01:00``

Moves the start of a prepared multiplex's game (each game of a simultané may have its own),
until it has started: the centres fetch the game ahead, sealed, and get its key from then.
Without ``--game`` and ``--starts-at``: lists the games with their start, and the key of
each game that has started (to read out to a centre that cannot reach the hub).
``--read-out CENTRE --game N`` records that the key was read out to that centre: its
rounds count as served to it from now, so its results are taken when it is back.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils import timezone

from multiplex.management.commands.multiplex_create import parse_start
from multiplex.models import Multiplex
from multiplex.selectors import centre_named, hub_games, multiplex_of
from multiplex.services.serving import game_schedule, key_read_out
from rooms.management.commands._common import ArbiterCommand


class Command(ArbiterCommand):
    help = "Move the start of a prepared multiplex's game, or list the games, their starts and keys."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", type=int, metavar="N")
        parser.add_argument("--starts-at", metavar="ISO", help="the new start (ISO 8601, with its offset)")
        parser.add_argument("--read-out", metavar="CENTRE", help="the centre the game's key was read out to")

    def run(self, *args: Any, **opts: Any) -> None:
        multiplex = multiplex_of(self.event())
        if multiplex is None:
            raise CommandError("this event is not a multiplex: run multiplex_create first")
        if opts["read_out"]:
            centre = centre_named(multiplex, opts["read_out"])
            if centre is None or opts["game"] is None:
                raise CommandError("--read-out needs --game and the name of one of the multiplex's centres")
            key_read_out(multiplex=multiplex, game=opts["game"], centre=centre, by=self.user)
            self.say(f"Game {opts['game']}: the key read out to {centre.name} is on the record")
        elif (opts["game"] is None) != (opts["starts_at"] is None):
            raise CommandError("--game and --starts-at go together")
        elif opts["game"] is not None:
            game_schedule(
                multiplex=multiplex, game=opts["game"], starts_at=parse_start(opts["starts_at"]), by=self.user
            )
        now = timezone.now()
        for game in hub_games(multiplex):
            start = timezone.localtime(game.started_at).isoformat(timespec="minutes")
            started = game.started_at <= now and multiplex.mode == Multiplex.Mode.PREPARED
            key = f"  key {game.seal_key}" if started and game.seal_key else ""
            self.say(f"Game {game.number}: starts {start}{key}")
