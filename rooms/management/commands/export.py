"""``python manage.py export standings|slips|record|gcg --event ID_OR_CODE [--game N] [--out FILE]``

Writes an export: the standings as CSV (of one game, or without --game of the whole event),
every slip with its ruling as CSV, the JSON game record or the GCG of a game (default: the
last). Without --out the export goes to the standard output.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser, no_translations

from rooms.management.commands._common import find_event, prepare_database, write_file
from tournaments.exports import EXPORTS, export


class Command(BaseCommand):
    help = "Export the standings or the slips (CSV), or a game (JSON record, GCG)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kind", choices=list(EXPORTS))
        parser.add_argument("--event", required=True, metavar="ID_OR_CODE")
        parser.add_argument(
            "--game",
            type=int,
            metavar="N",
            help="one game; default: the whole event (standings), the last game (record, gcg)",
        )
        parser.add_argument("--out", metavar="FILE", help="default: the standard output")

    @no_translations
    def handle(self, *args: Any, **opts: Any) -> None:
        prepare_database(self.stderr)
        event = find_event(opts["event"])
        try:
            data = export(opts["kind"], event, opts["game"])
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        if not opts["out"]:
            self.stdout.write(data.decode("utf-8"), ending="")
            return
        out = write_file(opts["out"], data)
        self.stderr.write(f"{out}: {opts['kind']}, {len(data):,} bytes")
