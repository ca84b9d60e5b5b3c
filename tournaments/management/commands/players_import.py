"""``python manage.py players_import --event X FILE.csv``

A header row with ``name`` (required) and ``club``, ``licence``, ``category``, ``table``
(optional), comma or semicolon separated. All or nothing: one bad line refuses the file,
naming the line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from tournaments import services
from tournaments.management.commands._common import ArbiterCommand, plural


def read_text(path: Path) -> str:
    """The file as text: UTF-8 (a spreadsheet's BOM dropped), else Latin-1 (old exports)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror}") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


class Command(ArbiterCommand):
    help = "Import the players of an event from a CSV file (header: name, club, licence, category, table)."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE.csv")

    def run(self, *args: Any, **opts: Any) -> None:
        event = self.event()
        created = services.players_import(event=event, csv_text=read_text(Path(opts["file"])))
        self.say(
            f"{plural(len(created), 'player')} imported into {event.name} ({event.players.count()} in all)"
        )
        for p in created:
            extra = ", ".join(x for x in (p.club, p.category and f"category {p.category}") if x)
            self.say(f"  table {p.table:>4}  {p.name}" + (f" ({extra})" if extra else ""))
