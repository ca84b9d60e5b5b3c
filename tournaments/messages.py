"""The rule messages in the reader's language (docs/rules.md#messages).

The solver and the duplicate rules name a message by its code and parameters
(:mod:`solver.messages`); here the English template is looked up in Django's catalogue,
so a French page says it in French, an English page in English, and the terminal (whose
commands run without a language) in English."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext

import scoring.adjudication  # noqa: F401  - registers the ruling notes in the catalogue
from scoring.adjudication import Note
from solver.errors import SolverError
from solver.messages import render


def say(code: str, params: Mapping[str, Any] | None = None) -> str:
    """One message in the active language."""
    return render(code, params or {}, gettext)


def say_error(error: SolverError) -> str:
    return say(error.code, error.params)


def say_notes(notes: Iterable[Note | Mapping[str, Any]]) -> str:
    """A ruling's notes (as the adjudication gives them or as a ruling stores them)."""
    parts = []
    for note in notes:
        if isinstance(note, Note):
            parts.append(say(note.code, note.params))
        else:
            parts.append(say(note["code"], note.get("params")))
    return "; ".join(parts)
