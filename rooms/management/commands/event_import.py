"""``python manage.py event_import RECORD.json NAME [--restore] [--date YYYY-MM-DD] [--notation N]
[--mode M] [--round-seconds S]``

Creates an event from a game file (see :mod:`tournaments.services.transfer`): exported from another
event (``export record``) or written by ``python -m solver play --out``. By default its
first game replays the record's racks and moves (a "master game", as in Eliot); with
``--restore`` the game is restored as it was, with the file's players, slips and
corrections. The board, tiles, word list and draw rules are the record's; the file is
checked before anything is stored, and a record that does not replay is refused with the
first round that differs.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.db import models

from rooms.management.commands._common import ArbiterCommand
from rooms.management.commands.event_create import iso_date
from tournaments.models import Event
from tournaments.services.transfer import event_import, read_game_file


def _choices(name: str) -> list[str]:
    field = Event._meta.get_field(name)
    assert isinstance(field, models.Field)
    return [str(value) for value, _label in field.flatchoices]


class Command(ArbiterCommand):
    help = "Create an event whose first game replays a JSON game record (master game)."
    event_option = False

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("record", metavar="RECORD.json", help="the game record")
        parser.add_argument("name", help="the new event's name")
        parser.add_argument("--date", type=iso_date, metavar="YYYY-MM-DD", help="first day (default: today)")
        parser.add_argument("--notation", choices=_choices("notation"), help="default: the model's")
        parser.add_argument("--mode", choices=_choices("mode"), help="default: the model's")
        parser.add_argument("--round-seconds", type=int, metavar="S", help="time per round (default: 180)")
        parser.add_argument(
            "--restore",
            action="store_true",
            help="restore the game with the file's players, slips and corrections (default: a master game)",
        )

    def run(self, *args: Any, **opts: Any) -> None:
        path = Path(opts["record"])
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from exc
        game_file = read_game_file(data)
        record = game_file.record
        settings = {
            key: opts[key] for key in ("notation", "mode", "round_seconds") if opts.get(key) is not None
        }
        event = event_import(
            name=opts["name"],
            starts_on=opts["date"] or dt.date.today(),
            game_file=game_file,
            restore=opts["restore"],
            by=self.user,
            **settings,
        )
        self.say(f"Event {event.pk} created: {event.name}, {event.starts_on}")
        self.say(f"  join code: {event.code}")
        what = "restores" if opts["restore"] else "replays"
        self.say(
            f"  game 1 {what} {path.name}: {len(record.rounds)} rounds, top total {record.top_total},"
            f" seed {record.config.seed}, {event.language} tiles, {event.board} board,"
            f" lexicon {event.lexicon.name}"
        )
        if opts["restore"]:
            game = event.games.get()
            self.say(
                f"  {event.players.count()} players, {len(game_file.slips)} slips,"
                f" {len(game_file.corrections)} corrections; game {game.get_state_display()}"
            )
