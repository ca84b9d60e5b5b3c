"""``python manage.py centre_add --event X --name "Dakar" [--draws]``

Adds a centre to the event's multiplex and prints its key, this once (the hub keeps only
its hash): give it to the centre's arbitrator for ``multiplex_join``.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from multiplex.selectors import multiplex_of
from multiplex.services.hub import centre_add
from rooms.management.commands._common import ArbiterCommand


class Command(ArbiterCommand):
    help = "Add a centre to the event's multiplex; prints its key once."

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", required=True, help="the centre's name (its hall, its town)")
        parser.add_argument("--draws", action="store_true", help="the draw centre of a live multiplex")

    def run(self, *args: Any, **opts: Any) -> None:
        multiplex = multiplex_of(self.event())
        if multiplex is None:
            raise CommandError("this event is not a multiplex: run multiplex_create first")
        centre, key = centre_add(multiplex=multiplex, name=opts["name"], draws=opts["draws"], by=self.user)
        role = " (draw centre)" if centre.draws else ""
        self.say(f"Centre {centre.name} added{role}. Its key, shown once:")
        self.say(key)
