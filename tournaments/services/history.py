"""Who did what: every change to a slip, a ruling, a draw or a setting is kept as a
:class:`~tournaments.models.HistoryEntry` (who, when, old, new, why)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User as AuthUser

from tournaments import statements
from tournaments.core import User
from tournaments.models import Event, HistoryEntry
from tournaments.notify import event_changed
from tournaments.selectors.live import PRIVATE_ACTIONS, PRIVATE_ENTITIES


def actor(by: User) -> tuple[AuthUser | None, str]:
    """The user a row keeps, and the name the history shows (``system``: a task, a phone)."""
    if not isinstance(by, AuthUser):
        return None, "system"
    return by, by.get_username()


def history_record(
    *,
    event: Event,
    entity: str,
    object_id: int,
    action: str,
    by: User,
    old: Any = None,
    new: Any = None,
    reason: str = "",
) -> HistoryEntry:
    user, label = actor(by)
    if entity not in PRIVATE_ENTITIES and action not in PRIVATE_ACTIONS:
        event_changed(event.pk)  # every phone and the projector follow it
    # Written in SQL once (tournaments/statements.py): each slip of a hall writes an entry.
    entry = HistoryEntry(
        event=event,
        entity=entity,
        object_id=object_id,
        action=action,
        actor=user,
        actor_label=label,
        old=old,
        new=new,
        reason=reason,
    )
    statements.insert_history(entry)
    return entry
