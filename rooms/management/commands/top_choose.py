"""``python manage.py top_choose --event X [MOVE | N] [--confirm-lower]``

Chooses the move placed on the board for everyone: ``MOVE`` in the event's notation
(``H4 WORD``, or ``h8,a,word``), or ``N``, the N-th of the equal tops as listed. Without
an argument, lists the equal tops. A move scoring less than the top needs
``--confirm-lower``.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from rooms.management.commands._common import (
    ArbiterCommand,
    current_round,
    decimal_number,
    playing_game,
    rack_text,
    shown_move,
    tops_text,
)
from tournaments.services.rounds import top_choose


class Command(ArbiterCommand):
    help = "Choose the move placed for everyone (default: the automatic choice among the tops)."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "move", nargs="*", metavar="MOVE", help="'H4 WORD', 'h8,a,word', or a top's number"
        )
        parser.add_argument(
            "--confirm-lower", action="store_true", help="place a move scoring less than the top"
        )

    def run(self, *args: Any, **opts: Any) -> None:
        event = self.event()
        round = current_round(playing_game(event))
        text = " ".join(opts["move"]).strip()
        if not text:
            self.say(f"Round {round.number}: rack {rack_text(round)}, {tops_text(round, event)}")
            for number, top in enumerate(round.tops, start=1):
                mark = "  <- chosen" if top == (round.chosen or round.tops[0]) else ""
                self.say(f"  {number}. {shown_move(top, event)}{mark}")
            if round.chosen and round.chosen not in round.tops:
                self.say(
                    f"  chosen: {shown_move(round.chosen, event)} {round.chosen_score} (lower than the top)"
                )
            return
        if text.isdecimal():  # not isdigit(): "²" is a digit that int() refuses
            index = decimal_number(text) or 0  # None: more digits than int() reads
            if round.solved_at is None:
                raise CommandError("the tops are not computed yet")
            if not 1 <= index <= len(round.tops):
                raise CommandError(f"there are {len(round.tops)} equal tops: choose 1 to {len(round.tops)}")
            text = shown_move(round.tops[index - 1], event)
        choice = top_choose(round=round, move_text=text, by=self.user, confirm_lower=opts["confirm_lower"])
        chosen = choice.round
        self.say(
            f"Round {chosen.number}: {shown_move(chosen.chosen, event)} {chosen.chosen_score} will be placed"
            f" (top {chosen.top_score})"
        )
        if choice.warning:
            self.say(f"  warning: {choice.warning}")
