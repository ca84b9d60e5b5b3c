"""``python manage.py multiplex_create --event X [--prepared --starts-at 2026-12-05T14:00+01:00]``

Makes the event the hub of a multiplex (docs/rules.md#multiplex): live (a draw centre's
racks and tops, added with ``centre_add --draws``) or prepared (the event's master games,
served from the agreed start). Then add the centres with ``centre_add``.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import CommandError, CommandParser

from multiplex.models import Multiplex
from multiplex.services.hub import multiplex_create
from rooms.management.commands._common import ArbiterCommand


def parse_start(text: str) -> dt.datetime:
    """A start as typed: ISO 8601 with its offset (a hub and its centres may be in
    different time zones)."""
    try:
        starts_at = dt.datetime.fromisoformat(text)
    except ValueError as exc:
        raise CommandError(f"--starts-at: not an ISO 8601 date and time: {text}") from exc
    if starts_at.tzinfo is None:
        raise CommandError("--starts-at needs its offset, as in 2026-12-05T14:00+01:00")
    return starts_at


class Command(ArbiterCommand):
    help = "Make the event the hub of a multiplex (live, or prepared from its master games)."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--prepared", action="store_true", help="serve the event's master games")
        parser.add_argument(
            "--starts-at", metavar="ISO", help="prepared: the agreed start (ISO 8601, with its offset)"
        )
        parser.add_argument("--max-delay", type=int, default=90, metavar="MINUTES",
                            help="how late a centre may start a game (default 90)")  # fmt: skip

    def run(self, *args: Any, **opts: Any) -> None:
        starts_at = parse_start(opts["starts_at"]) if opts["starts_at"] else None
        mode = Multiplex.Mode.PREPARED if opts["prepared"] else Multiplex.Mode.LIVE
        multiplex = multiplex_create(
            event=self.event(), mode=mode, starts_at=starts_at, max_delay_minutes=opts["max_delay"],
            by=self.user,
        )  # fmt: skip
        self.say(f"{multiplex.event.name} is the hub of a {mode} multiplex; add its centres with centre_add")
