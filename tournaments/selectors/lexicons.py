"""Word lists: one found by its name."""

from __future__ import annotations

from tournaments.models import Lexicon


def lexicon_named(name: str) -> Lexicon | None:
    return Lexicon.objects.filter(name=name).first()


def lexicon_name_taken(name: str) -> bool:
    """Whether a word list is named ``name`` already (read without its words)."""
    return Lexicon.objects.filter(name=name).exists()
