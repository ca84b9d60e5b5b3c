"""``python manage.py round_open --event X [--seconds N]``

Opens the drawn round: slips are accepted until the deadline (the event's time per round,
or ``--seconds``, 1 to 86400).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils import timezone

from rooms.management.commands._common import ArbiterCommand, current_round, playing_game, rack_text
from tournaments.services.rounds import round_open

#: The longest round ``--seconds`` accepts: a day (more is a typing slip).
MAX_SECONDS = 86400


class Command(ArbiterCommand):
    help = "Open the drawn round for slips."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--seconds", type=int, metavar="N", help="time for this round (default: the event's)"
        )

    def run(self, *args: Any, **opts: Any) -> None:
        if opts["seconds"] is not None and not 1 <= opts["seconds"] <= MAX_SECONDS:
            raise CommandError(
                f"--seconds must be a positive number of seconds, at most {MAX_SECONDS} (a day)"
            )
        event = self.event()
        round = current_round(playing_game(event))
        round = round_open(round=round, by=self.user, seconds=opts["seconds"])
        assert round.deadline is not None and round.opened_at is not None
        length = int((round.deadline - round.opened_at).total_seconds())
        until = timezone.localtime(round.deadline).strftime("%H:%M:%S")
        self.say(f"Round {round.number} open: rack {rack_text(round)}, slips until {until} ({length} s)")
