"""The sentences of the game rules, by code, in English (docs/rules.md#messages).

The solver and the duplicate rules (:mod:`scoring.adjudication`) never build a sentence
for a person themselves: they name a code and its parameters. The terminal reads them in
English through :func:`render`; the pages translate the same English template through
Django's catalogue (``tournaments.messages``), which is why every template here is marked
with :func:`gettext_noop` for ``makemessages`` and keeps its ``%(name)s`` parameters.

Parameters are values a person reads the same in every language: letters, words,
squares already written in the event's notation, numbers. A part of the sentence that is
itself words ("2 vowels and 2 consonants", an ordinal, why the minimums are these) is a
:func:`phrase`: a code with its own parameters, said in the same language as the sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def gettext_noop(message: str) -> str:
    """Marks ``message`` for translation (Django's keyword of the same name); the pure
    layers cannot import Django, and the marking is all they need."""
    return message


#: code -> English template. The modules that raise or note a code register it here,
#: so that the catalogue is complete once they are imported (see :func:`register`).
MESSAGES: dict[str, str] = {}


def register(templates: Mapping[str, str]) -> None:
    """Add a module's templates; a code means one sentence only."""
    for code, template in templates.items():
        if MESSAGES.get(code, template) != template:
            raise ValueError(f"message code {code!r} registered twice with different sentences")
        MESSAGES[code] = template


def phrase(code: str, **params: Any) -> dict[str, Any]:
    """A parameter that is words too: rendered in the sentence's language. A plain dict,
    so that a ruling's notes holding one are still stored as JSON."""
    return {"code": code, "params": params}


def _said(value: Any, translate: Callable[[str], str]) -> Any:
    if isinstance(value, Mapping) and "code" in value:
        return render(value["code"], value.get("params") or {}, translate)
    return value


def render(code: str, params: Mapping[str, Any], translate: Callable[[str], str] = str) -> str:
    """The sentence of ``code`` with its parameters; ``translate`` maps the English
    template to the reader's language, phrases included. A code absent from the catalogue
    is a sentence written directly (the terminal-only messages of file formats), shown as
    it is."""
    template = MESSAGES.get(code)
    if template is None:
        return code
    if not params:
        return translate(template)
    return translate(template) % {name: _said(value, translate) for name, value in params.items()}
