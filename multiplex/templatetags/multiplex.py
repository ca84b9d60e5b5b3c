"""The console's round page shows a centre's link to its hub:
``{% load multiplex %}{% hub_state event as hub %}``."""

from __future__ import annotations

from django import template

from multiplex.link import NAME, LinkState, link_state
from tournaments.models import Event

register = template.Library()


@register.simple_tag
def hub_state(event: Event) -> LinkState | None:
    """The event's link to its hub when it is a centre; an event on its own asks nothing."""
    return link_state(event) if event.linked_by == NAME else None
