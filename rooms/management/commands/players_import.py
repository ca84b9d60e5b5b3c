"""``python manage.py players_import --event X FILE.csv``

A header row with ``name`` (required) and ``club``, ``licence``, ``category``, ``table``
(optional), comma or semicolon separated. All or nothing: one bad line refuses the file,
naming the line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser

from rooms.management.commands._common import ArbiterCommand, plural
from tournaments.core import ApplicationError
from tournaments.services.players import players_import

#: Control characters no CSV text holds (tab, line and page breaks are text); binary files
#: (a spreadsheet's .xlsx or .ods, a PDF, an image) are full of them.
_BINARY = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


def read_text(path: Path) -> str:
    """The file as text: UTF-8 (a spreadsheet's BOM dropped), else Latin-1 (old exports).
    Latin-1 decodes any bytes, so a binary file is recognised by its control characters
    and refused, instead of being read as garbage."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror}") from exc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    control = _BINARY.search(text)
    if control is not None:
        line = text.count("\n", 0, control.start()) + 1
        raise CommandError(
            f"cannot read {path}: not a CSV text file (control character {ord(control[0]):#04x}"
            f" on line {line}); save the spreadsheet as CSV"
        )
    return text


class Command(ArbiterCommand):
    help = "Import the players of an event from a CSV file (header: name, club, licence, category, table)."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE.csv")

    def run(self, *args: Any, **opts: Any) -> None:
        event = self.event()
        path = Path(opts["file"])
        try:
            created = players_import(event=event, csv_text=read_text(path))
        except ApplicationError as exc:  # the line and why: said with the file
            raise CommandError(f"{path}: {exc.message}") from exc
        self.say(
            f"{plural(len(created), 'player')} imported into {event.name} ({event.players.count()} in all)"
        )
        for p in created:
            extra = ", ".join(x for x in (p.club, p.category and f"category {p.category}") if x)
            self.say(f"  table {p.table:>4}  {p.name}" + (f" ({extra})" if extra else ""))
