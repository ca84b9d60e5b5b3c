"""Who arbitrates an event: used by the pages and the API alike."""

from __future__ import annotations

from typing import Any

from tournaments.models import Event


def can_arbitrate(user: Any, event: Event) -> bool:
    """Staff arbitrate every event; another user the events they created."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return bool(user.is_staff) or event.created_by_id == user.pk
