"""``python manage.py event_create NAME [--date YYYY-MM-DD] [--lexicon enable|french|PATH] [settings]``

Creates an event and prints its id and join code. Every rule setting of the event is an
option, generated from the model's fields (``--bingo-bonus 50``, ``--no-first-move-horizontal``,
``--notation gcg``, ...) with the model's default: an option not given keeps the default,
so the command can never drift from the model. ``--lexicon PATH`` imports a word list, here
and now (not through the worker), up to ``ARBITER_LEXICON_MAX_MB``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.db import models, transaction

from rooms.management.commands._common import ArbiterCommand
from solver import lexicon as lexmod
from tournaments.core import EVENT_SETTINGS, ApplicationError
from tournaments.models import Event, Lexicon
from tournaments.selectors.lexicons import lexicon_named
from tournaments.services.events import event_create
from tournaments.services.lexicons import lexicon_bundled, lexicon_import, lexicon_pack, lexicon_size_check

#: The event fields the service accepts, in the model's order (the order of --help).
SETTING_FIELDS: list[models.Field[Any, Any]] = [
    f for f in Event._meta.concrete_fields if f.name in EVENT_SETTINGS
]
#: Lexicon language of each tile language, for an imported list.
LEXICON_LANGUAGE = {"french": "fr", "english": "en"}
#: The bundled list used when --lexicon is not given.
DEFAULT_LEXICON = {"french": "french", "english": "enable"}


def iso_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date: write YYYY-MM-DD") from None


def _option(field: models.Field[Any, Any]) -> str:
    return "--" + field.name.replace("_", "-")


def _default_text(field: models.Field[Any, Any]) -> str:
    if not field.has_default():
        return "none"
    # A callable default (the random seed) is drawn per event: say so, do not call it.
    return "random" if callable(field.default) else str(field.default)


def add_setting_options(parser: CommandParser) -> None:
    group = parser.add_argument_group("event settings (docs/rules.md#event-settings; default: the model's)")
    for field in SETTING_FIELDS:
        help_text = f"{field.verbose_name} (default: {_default_text(field)})"
        # default=None everywhere: only the options given reach the service, the model
        # supplies the rest.
        if isinstance(field, models.BooleanField):
            group.add_argument(
                _option(field), action=argparse.BooleanOptionalAction, default=None, help=help_text
            )
        elif field.choices:
            group.add_argument(
                _option(field), choices=[str(value) for value, _ in field.flatchoices], help=help_text
            )
        elif isinstance(field, models.DateField):
            group.add_argument(_option(field), type=iso_date, metavar="YYYY-MM-DD", help=help_text)
        elif isinstance(field, models.IntegerField):
            group.add_argument(_option(field), type=int, metavar="N", help=help_text)
        else:  # pragma: no cover - a new kind of setting needs a line here
            group.add_argument(_option(field), help=help_text)


class Command(ArbiterCommand):
    help = "Create an event; prints its id and join code."
    event_option = False

    def add_command_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", help="the event's name")
        parser.add_argument("--date", type=iso_date, metavar="YYYY-MM-DD", help="first day (default: today)")
        parser.add_argument(
            "--lexicon",
            metavar="enable|french|PATH",
            help="a bundled list or a word list file to import (default: french, or enable for"
            " English tiles)",
        )
        parser.add_argument(
            "--lexicon-name", metavar="NAME", help="name of an imported list (default: the file's name)"
        )
        add_setting_options(parser)

    def run(self, *args: Any, **opts: Any) -> None:
        settings = {f.name: opts[f.name] for f in SETTING_FIELDS if opts.get(f.name) is not None}
        language = settings.get("language") or Event._meta.get_field("language").default
        with transaction.atomic():  # a refused event leaves no imported list behind
            lexicon = self._lexicon(
                opts["lexicon"] or DEFAULT_LEXICON[language], opts["lexicon_name"], language
            )
            event = event_create(
                name=opts["name"],
                starts_on=opts["date"] or dt.date.today(),
                lexicon=lexicon,
                created_by=self.user,
                **settings,
            )
        self.say(f"Event {event.pk} created: {event.name}, {event.starts_on}")
        self.say(f"  join code: {event.code}")
        self.say(f"  id: {event.pk}  (use --event {event.pk} or --event {event.code})")
        expected = LEXICON_LANGUAGE.get(event.language)
        self.say(
            f"  {event.language} tiles, {event.board} board,"
            f" lexicon {lexicon.name} ({lexicon.word_count} words),"
            f" notation {event.notation}, {event.mode} mode, seed {event.random_seed}"
        )
        if expected and lexicon.language != expected:
            self.say(f"  note: the lexicon is {lexicon.get_language_display()}, the tiles {event.language}")
        changed = [f"{f.name}={getattr(event, f.name)}" for f in SETTING_FIELDS if f.name in settings]
        if changed:
            self.say(f"  settings changed from the defaults: {', '.join(changed)}")

    def _lexicon(self, choice: str, name: str | None, language: str) -> Lexicon:
        if choice in lexmod.BUNDLED:
            return lexicon_bundled(name=choice)
        path = Path(choice)
        if not path.is_file():
            raise CommandError(
                f"no word list file {choice!r}: give a file, or choose {' or '.join(lexmod.BUNDLED)}"
            )
        try:
            # Refused before it is read: a list of millions of words takes a gigabyte to compile.
            lexicon_size_check(size=path.stat().st_size, name=path.name)
            data = path.read_bytes()
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        except OSError as exc:
            raise CommandError(f"{choice}: {exc.strerror}") from exc
        name = name or path.name.split(".")[0] or path.name
        existing = lexicon_named(name)
        if existing is not None:
            if existing.state != Lexicon.State.READY:
                # Uploaded on the console: being imported by a worker, or failed.
                raise CommandError(
                    f"the lexicon named {name!r} is {existing.get_state_display()}: name this one"
                    " with --lexicon-name"
                )
            if existing.checksum == hashlib.sha256(lexicon_pack(data)).hexdigest():
                self.say(f"Lexicon {name}: already imported, the same words are used")
                return existing
            raise CommandError(
                f"a lexicon named {name!r} already exists with other words: name this one with --lexicon-name"
            )
        try:
            lexicon = lexicon_import(
                name=name, language=LEXICON_LANGUAGE[language], data=data, source_name=path.name
            )
        except ApplicationError as exc:
            report = exc.extra.get("report")
            detail = f"\n{_report_text(report)}" if isinstance(report, dict) else ""
            raise CommandError(f"{exc.message}{detail}") from exc
        self.say(f"Lexicon {lexicon.name} imported:")
        self.say(_report_text(lexicon.report))
        return lexicon


def _report_text(report: dict[str, Any]) -> str:
    """The import report as ``python -m solver lexicon build`` prints it."""
    try:
        return lexmod.LexiconReport(**report).summary()
    except TypeError:  # a report stored by another version: show it raw rather than fail
        return str(report)
