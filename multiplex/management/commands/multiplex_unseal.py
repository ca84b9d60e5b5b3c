"""``python manage.py multiplex_unseal --event CODE --game 1 --key KEY``

A centre of a prepared multiplex that cannot reach its hub at a game's start opens the
game it fetched ahead with the key the hub's arbitrator reads out (``multiplex_schedule``
lists it once the game has started). The hub counts its rounds served to this centre,
and takes its results, once it is reached again.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from multiplex.services.centre import hub_unseal
from rooms.management.commands._common import ArbiterCommand


class Command(ArbiterCommand):
    help = "Open a sealed game of a prepared multiplex with the key read out by the hub."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", type=int, required=True, metavar="N")
        parser.add_argument("--key", required=True, help="the game's key, as the hub's arbitrator reads it")

    def run(self, *args: Any, **opts: Any) -> None:
        copied = hub_unseal(event=self.event(), game=opts["game"], key=opts["key"], by=self.user)
        if copied:
            self.say(f"Game {opts['game']} opened: {copied} round(s), their racks and moves")
        else:
            self.say(f"Game {opts['game']} was already open")
