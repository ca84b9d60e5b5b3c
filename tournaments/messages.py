"""The rule messages in the reader's language (docs/rules.md#messages).

The solver and the duplicate rules name a message by its code and parameters
(:mod:`solver.messages`); here the English template is looked up in Django's catalogue,
so a French page says it in French, an English page in English, and the terminal (whose
commands run without a language) in English."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.translation import gettext

# Imported for their catalogues: every code the rules note and the solver raises (moves,
# coordinates and words, typed racks and the bag, tiles, word lists) is registered once
# they are, whichever module raised it in this process.
import scoring.adjudication  # noqa: F401
from scoring.adjudication import Note
from solver import draw, lexicon, notation, rules, tiles  # noqa: F401
from solver.errors import SolverError
from solver.messages import render


def say(code: str, params: Mapping[str, Any] | None = None) -> str:
    """One message in the active language."""
    return render(code, params or {}, gettext)


def say_error(error: SolverError) -> str:
    """A solver's refusal in the active language (its ``str`` is the English sentence)."""
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
