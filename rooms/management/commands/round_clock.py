"""``python manage.py round_clock --event X pause|resume|add SECONDS``

The open round's clock from the terminal: held (no slip is late while it is), started
again with the time it had left, or given more time (1 to 3600 seconds), as on the console.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils import timezone

from rooms.management.commands._common import ArbiterCommand, current_round, playing_game
from tournaments.services.rounds import round_add_time, round_pause, round_resume


class Command(ArbiterCommand):
    help = "Pause, resume or add time to the open round's clock."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["pause", "resume", "add"], help="what to do to the clock")
        parser.add_argument("seconds", nargs="?", type=int, help="with add: the seconds given (1 to 3600)")

    def run(self, *args: Any, **opts: Any) -> None:
        action, seconds = opts["action"], opts["seconds"]
        if (action == "add") != (seconds is not None):
            raise CommandError("add takes the seconds given (add 30); pause and resume take nothing")
        round = current_round(playing_game(self.event()))
        if action == "pause":
            round = round_pause(round=round, by=self.user)
        elif action == "resume":
            round = round_resume(round=round, by=self.user)
        else:
            round = round_add_time(round=round, by=self.user, seconds=seconds)
        left = int(round.seconds_left(timezone.now()) or 0)
        if round.paused_at is not None:
            self.say(f"Round {round.number}: clock paused, {left} s left")
        else:
            assert round.deadline is not None
            until = timezone.localtime(round.deadline).strftime("%H:%M:%S")
            self.say(f"Round {round.number}: clock running, slips until {until} ({left} s left)")
