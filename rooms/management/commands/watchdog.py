"""``python manage.py watchdog [--every 2] [--once]``

Sends again the tasks of rounds left waiting (drawn and not solved, closed and not ruled)
and of sheets not printed: a worker killed mid-task, a broker that was down when the round
closed (:mod:`tournaments.services.watchdog`). ``serve`` runs the same watchdog in its
supervisor; on several machines, run this beside the workers (one is enough; two only send
a few duplicates, which find the work done).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, connections

from rooms.management.commands._common import prepare_database
from tournaments.services.watchdog import Watchdog, tasks_requeue_pending


class Command(BaseCommand):
    help = "Send again the tasks of rounds and sheets left waiting (Ctrl-C stops it)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--every", type=float, default=2.0, help="seconds between two looks (default 2)")
        parser.add_argument(
            "--once", action="store_true", help="send every waiting task at once, then stop (no waiting time)"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        prepare_database(self.stderr)
        if opts["once"]:
            self.stdout.write(f"Sent {tasks_requeue_pending()} task(s).")
            return
        if opts["every"] <= 0:
            raise CommandError("--every is a number of seconds above 0")
        watchdog = Watchdog()
        self.stdout.write(f"Watching every {opts['every']:g} s (Ctrl-C stops).")
        try:
            while True:
                try:
                    for kind, pk in watchdog.tick():
                        self.stdout.write(f"{time.strftime('%H:%M:%S')} sent again: {kind} {pk}")
                except DatabaseError as exc:
                    # The database restarting: say so, and look again next time.
                    self.stderr.write(f"{time.strftime('%H:%M:%S')} cannot read the database: {exc}")
                    connections.close_all()
                time.sleep(opts["every"])
        except KeyboardInterrupt:
            self.stdout.write("Stopped.")
