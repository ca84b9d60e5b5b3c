"""``python manage.py print_sheet standings|rounds|round|player|game --event ID_OR_CODE [--game N]
[--round N] [--category C] [--player ID | --table N] [--language fr|en] --out FILE.pdf``

Prints a result sheet to a PDF file: the standings of a game (after one of its rounds with
--round) or (without --game) of the whole event; the result of a round (default: the last
ruled); the round-by-round sheet and the game sheet of a game (default: the last);
the player sheet of one player or (without --player/--table) of every player, one after
the other in table order."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rooms.management.commands._common import find_event, prepare_database, write_file
from tournaments.printing import KINDS, SheetError, render_sheet
from tournaments.selectors.players import player_at_table


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
        parser.add_argument(
            "--round",
            type=int,
            metavar="N",
            help="the round sheet's round (default: the last ruled); the standings after round N of --game",
        )
        parser.add_argument("--category", metavar="C", help="one category / series only")
        who = parser.add_mutually_exclusive_group()
        who.add_argument(
            "--player", type=int, metavar="ID", help="the player sheet's player (id); without: every player"
        )
        who.add_argument(
            "--table",
            type=int,
            metavar="N",
            help="the player sheet's player (table number); without: every player",
        )
        parser.add_argument("--language", choices=("fr", "en"), default="fr")
        parser.add_argument("--out", required=True, metavar="FILE.pdf")

    def handle(self, *args: Any, **opts: Any) -> None:
        prepare_database(self.stderr)
        event = find_event(opts["event"])
        player_id = opts["player"]
        if opts["table"] is not None:
            player = player_at_table(event, opts["table"])
            if player is None:
                raise CommandError(f"{event.name} has no player at table {opts['table']}")
            player_id = player.pk
        try:
            pdf = render_sheet(
                opts["kind"],
                event=event,
                game_number=opts["game"],
                category=opts["category"],
                player_id=player_id,
                language=opts["language"],
                round_number=opts["round"],
            )
        except SheetError as exc:
            raise CommandError(str(exc)) from exc
        out = write_file(opts["out"], pdf)
        self.stdout.write(f"{out}: {opts['kind']} sheet, {len(pdf):,} bytes")
