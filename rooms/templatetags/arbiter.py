"""Template filters of the pages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils import translation

from tournaments.display import PREMIUM_MARKS, end_reason_text, ruling_text
from tournaments.messages import say_notes
from tournaments.models import Event, Ruling

register = template.Library()


@register.simple_tag
def colon() -> str:
    """A colon after a label in the page's language: French sets it off with a no-break
    space ("Reçu à 12:04:05 :"), English does not ("Received at 12:04:05:")."""
    return "\u00a0:" if (translation.get_language() or "").startswith("fr") else ":"


@register.inclusion_tag("console/_lexicon.html")
def lexicon_status(event: Event) -> dict[str, Any]:
    """Where the import of the event's word list is, on each of the event's pages until it
    is ready (nothing once it is)."""
    return {"event": event, "lexicon": event.lexicon, "quiet": True}


@register.filter
def ruling_label(code: str) -> str:
    """A ruling's reason code in the page's language."""
    return ruling_text(code)


@register.filter
def ruling_detail(ruling: Ruling) -> str:
    """Why a ruling is what it is, in the page's language (a ruling stored before the
    notes existed keeps its English sentence)."""
    return say_notes(ruling.notes) if ruling.notes else ruling.detail


@register.filter
def premium_mark(premium: str) -> str:
    """The short mark of a premium square's CSS class ("TW", "MT"), "" for a plain one."""
    return str(PREMIUM_MARKS[premium][0]) if premium in PREMIUM_MARKS else ""


@register.filter
def premium_name(premium: str) -> str:
    """The premium said in words ("triple word"), "" for a plain square."""
    return str(PREMIUM_MARKS[premium][1]) if premium in PREMIUM_MARKS else ""


#: The typographic minus: a hyphen is small and thin from the back of a hall.
MINUS = "\u2212"


@register.filter
def signed(value: int | float | None) -> str:
    """A number with a real minus sign when it is negative (gaps to the top, totals below
    zero after penalties)."""
    if value is None:
        return ""
    text = str(value)
    return MINUS + text[1:] if text.startswith("-") else text


@register.filter
def item(mapping: Mapping[Any, Any] | None, key: Any) -> Any:
    """``mapping[key]`` in a template (the centre of a merged ranking's row); "" if absent."""
    return (mapping or {}).get(key, "")


@register.filter
def end_text(reason: str) -> str:
    """How a game ended, in the page's language ("" while it goes on)."""
    return end_reason_text(reason) if reason else ""
