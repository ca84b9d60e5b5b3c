"""Template filters of the pages."""

from __future__ import annotations

from django import template

from tournaments.display import ruling_text

register = template.Library()


@register.filter
def ruling_label(code: str) -> str:
    """A ruling's reason code in the page's language."""
    return ruling_text(code)
