"""``python manage.py multiplex_sync --event X``

A centre talks to its hub now: sends what it owes (closes, results, the draw centre's
racks and tops) and fetches the rounds published. Prints what was done, and what waits.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from multiplex.models import HubCopy, HubOutbox
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
        waiting = HubOutbox.objects.filter(link__event=event, sent_at__isnull=True).count()
        copies = HubCopy.objects.filter(link__event=event)
        last = copies.order_by("-game", "-number").first()
        if last is not None:
            self.say(f"  the hub has served up to game {last.game}, round {last.number}")
        self.say(f"  waiting to be sent: {waiting}")
