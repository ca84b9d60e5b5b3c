"""``python manage.py multiplex_sync --event X``

A centre talks to its hub now: sends what it owes (closes, results, the draw centre's
racks and tops) and fetches the rounds published. Prints what was done, and what waits.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from multiplex.link import link_state
from multiplex.services.centre import hub_sync
from rooms.management.commands._common import ArbiterCommand


class Command(ArbiterCommand):
    help = "Sync a centre of a multiplex with its hub now."

    def run(self, *args: Any, **opts: Any) -> None:
        event = self.event()
        report = hub_sync(event=event)
        if not report.reached:
            raise CommandError(f"{report.error}; everything is kept and sent at the next sync")
        self.say(f"Sent {report.sent}, fetched {report.fetched} round(s).")
        for refused in report.refused:
            self.say(f"  refused by the hub: {refused}")
        state = link_state(event)
        if state is not None and state.served is not None:
            self.say(f"  the hub has served up to game {state.served[0]}, round {state.served[1]}")
        self.say(f"  waiting to be sent: {state.waiting if state is not None else 0}")
