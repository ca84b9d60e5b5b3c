"""``python manage.py event_import RECORD.json NAME [--date YYYY-MM-DD] [--notation N] [--mode M]
[--round-seconds S]``

Creates an event whose first game replays a JSON game record (a "master game", as in
Eliot): exported from another event (``export record``) or written by ``python -m solver
play --out``. The board, tiles, word list and draw rules are the record's; the record is
replayed before the event is created, and a record that does not replay is refused with
the first round that differs.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.db import models

from tournaments import services
from tournaments.management.commands._common import ArbiterCommand
from tournaments.management.commands.event_create import iso_date
from tournaments.models import Event


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

    def run(self, *args: Any, **opts: Any) -> None:
        path = Path(opts["record"])
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from exc
        record = services.record_read(data)
        settings = {
            key: opts[key] for key in ("notation", "mode", "round_seconds") if opts.get(key) is not None
        }
        event = services.event_import(
            name=opts["name"],
            starts_on=opts["date"] or dt.date.today(),
            record=record,
            by=self.user,
            **settings,
        )
        self.say(f"Event {event.pk} created: {event.name}, {event.starts_on}")
        self.say(f"  join code: {event.code}")
        self.say(
            f"  game 1 replays {path.name}: {len(record.rounds)} rounds, top total {record.top_total},"
            f" seed {record.config.seed}, {event.language} tiles, {event.board} board,"
            f" lexicon {event.lexicon.name}"
        )
