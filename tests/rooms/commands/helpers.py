"""Helpers of the terminal commands' tests (the fixtures are in conftest.py)."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from solver.notation import format_move, parse_move
from tournaments.models import Event, Round

PLAYERS_CSV = (
    "name;club;category;table\n"
    "Anne Martin;Paris;A;1\n"
    "Bruno Petit;Lyon;B;2\n"
    "Claire Dubois;Paris;A;3\n"
    "Dan Smith;;B;4\n"
)


@dataclass
class Output:
    out: str
    err: str


def run(name: str, *args: str, stdin: str | io.StringIO | None = None, fails: str | None = None) -> Output:
    """Run a command; ``fails`` is the CommandError message expected (a regex)."""
    out, err = io.StringIO(), io.StringIO()
    kwargs: dict[str, object] = {"stdout": out, "stderr": err}
    if stdin is not None:
        kwargs["stdin"] = io.StringIO(stdin) if isinstance(stdin, str) else stdin
    if fails is None:
        call_command(name, *args, **kwargs)
    else:
        with pytest.raises(CommandError, match=fails):
            call_command(name, *args, **kwargs)
    return Output(out.getvalue(), err.getvalue())


def create(*extra: str) -> Event:
    """An English event made by event_create, with the options given."""
    out = run("event_create", "Club evening", "--date", "2026-11-21", "--language", "english", *extra).out
    code = re.search(r"join code: (\w+)", out)
    assert code is not None
    return Event.objects.get(code=code[1])


def last_round(event: Event) -> Round:
    return Round.objects.filter(game__event=event).order_by("game__number", "number").last()


def fisf(gcg: str) -> str:
    return format_move(parse_move(gcg, "gcg"), "fisf")
