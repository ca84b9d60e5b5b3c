"""Django's ``createsuperuser``, run before anything else on a fresh checkout: the
embedded default's database is prepared first (the guides name it for the first login)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.management.commands import createsuperuser

from rooms.management.commands._common import prepare_database


class Command(createsuperuser.Command):
    def handle(self, *args: Any, **options: Any) -> None:
        prepare_database(self.stderr)
        super().handle(*args, **options)
