"""``python manage.py print_sheet standings|rounds|player|game --event ID_OR_CODE [--game N]
[--category C] [--language fr|en] --out FILE.pdf``

Prints a result sheet to a PDF file: the standings of a game or (without --game) of the
whole event; the round-by-round sheet and the game sheet of a game (default: the last)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.printing import KINDS, SheetError, render_sheet
from tournaments.management.commands._common import find_event


class Command(BaseCommand):
    help = "Print a result sheet (PDF)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("kind", choices=KINDS)
        parser.add_argument("--event", required=True, metavar="ID_OR_CODE")
        parser.add_argument(
            "--game",
            type=int,
            metavar="N",
            help="one game; default: the whole event (standings), the last game (the others)",
        )
        parser.add_argument("--category", metavar="C", help="one category / series only")
        parser.add_argument("--player", type=int, metavar="ID", help="the player sheet's player (id)")
        parser.add_argument("--language", choices=("fr", "en"), default="fr")
        parser.add_argument("--out", required=True, metavar="FILE.pdf")

    def handle(self, *args: Any, **opts: Any) -> None:
        event = find_event(opts["event"])
        try:
            pdf = render_sheet(
                opts["kind"],
                event=event,
                game_number=opts["game"],
                category=opts["category"],
                player_id=opts["player"],
                language=opts["language"],
            )
        except SheetError as exc:
            raise CommandError(str(exc)) from exc
        out = Path(opts["out"])
        try:
            out.write_bytes(pdf)
        except OSError as exc:
            raise CommandError(f"cannot write {out}: {exc.strerror}") from exc
        self.stdout.write(f"{out}: {opts['kind']} sheet, {len(pdf):,} bytes")
