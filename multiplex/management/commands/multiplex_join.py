"""``python manage.py multiplex_join --event X --hub https://hub.example.org --key KEY``

Makes the event a centre of the multiplex at the hub's address, with the key the hub's
arbitrator gave (``centre_add``). The event must have the hub's settings and no game yet.
From then on its racks and tops come from the hub, and its closes and results go there:
``serve``'s watchdog syncs every few seconds; ``multiplex_sync`` does it at once.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from multiplex.services.centre import hub_join
from rooms.management.commands._common import ArbiterCommand


class Command(ArbiterCommand):
    help = "Make the event a centre of a multiplex (the hub's address and the centre key)."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hub", required=True, metavar="URL", help="the hub's address, http(s)://...")
        parser.add_argument("--key", required=True, help="the centre key the hub's arbitrator gave")

    def run(self, *args: Any, **opts: Any) -> None:
        link = hub_join(event=self.event(), url=opts["hub"], key=opts["key"], by=self.user)
        role = "the draw centre" if link.draws else "a centre"
        self.say(f"{link.event.name} is {role} of {link.multiplex_name}, as {link.centre_name}")
