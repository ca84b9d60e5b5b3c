"""``python manage.py round_close --event X``

Closes the open round: the slips in are ruled (missing slips too), a slip arriving later
is kept as late and scores 0. Prints a summary of the rulings; ``rulings`` shows them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management.base import CommandError

from rooms.management.commands._common import (
    ArbiterCommand,
    current_round,
    missing_tables,
    playing_game,
    tables_text,
)
from scoring.adjudication import Reason
from tournaments import services
from tournaments.models import Round


class Command(ArbiterCommand):
    help = "Close the open round; its slips are ruled."
    enqueues_tasks = True

    def run(self, *args: Any, **opts: Any) -> None:
        event = self.event()
        round = current_round(playing_game(event))
        if round.state == Round.State.DRAWN:
            raise CommandError(f"round {round.number} is not open yet: open it with round_open")
        missing = missing_tables(round)
        round = services.round_close(round=round, by=self.user)
        self.say(f"Round {round.number} closed; missing slips: {tables_text(missing)}")
        if not self.wait_for(round, lambda r: r.state == Round.State.ADJUDICATED):
            self.say("  the workers are ruling the slips: see them with rulings when they are done")
            return
        reasons = Counter(round.rulings.values_list("reason", flat=True))
        on_top = round.rulings.filter(is_top=True).count()
        scored = reasons[Reason.OK] + reasons[Reason.SHIFT_ACCEPTED]
        invalid = reasons[Reason.ILLEGAL] + reasons[Reason.NOT_IN_LEXICON] + reasons[Reason.UNREADABLE]
        shifts = round.rulings.exclude(shift_candidate="").filter(overridden=False).count()
        self.say(
            f"  ruled: {scored} valid ({on_top} on the top {round.top_score}), {invalid} invalid"
            f" ({shifts} possible shifted references), {reasons[Reason.BLANK_SLIP]} blank,"
            f" {reasons[Reason.MISSING]} missing, {reasons[Reason.LATE]} late"
        )
        self.say(f"  review with: rulings --event {event.code}")
