"""``python manage.py round_close --event X``

Closes the open round: the slips in are ruled (missing slips too), a slip arriving later
is kept as late and scores 0. Prints a summary of the rulings; ``rulings`` shows them.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from rooms.management.commands._common import (
    ArbiterCommand,
    current_round,
    playing_game,
    tables_text,
)
from tournaments.models import Round
from tournaments.selectors.review import round_review
from tournaments.selectors.slips import tables_without_slip
from tournaments.services.rounds import round_close


class Command(ArbiterCommand):
    help = "Close the open round; its slips are ruled."
    enqueues_tasks = True

    def run(self, *args: Any, **opts: Any) -> None:
        event = self.event()
        round = current_round(playing_game(event))
        if round.state == Round.State.DRAWN:
            raise CommandError(f"round {round.number} is not open yet: open it with round_open")
        missing = tables_without_slip(round)
        round = round_close(round=round, by=self.user)
        self.say(f"Round {round.number} closed; missing slips: {tables_text(missing)}")
        if not self.wait_for(round, lambda r: r.state == Round.State.ADJUDICATED):
            self.say("  the workers are ruling the slips: see them with rulings when they are done")
            return
        review = round_review(round)
        shifts = sum(1 for r in review.rulings if r.shift_candidate and not r.overridden)
        several = f", {len(review.several)} several slips" if review.several else ""
        self.say(
            f"  ruled: {review.valid} valid ({len(review.found_top)} on the top {round.top_score},"
            f" {len(review.penalties)} with a penalty), {len(review.invalid)} invalid"
            f" ({shifts} possible shifted references){several}, {len(review.blank)} blank,"
            f" {len(review.missing)} missing, {len(review.late)} late"
        )
        self.say(f"  review with: rulings --event {event.code}")
