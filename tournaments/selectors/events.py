"""Events: the ones a caller may list, and an event's history."""

from __future__ import annotations

from django.contrib.auth.models import User as AuthUser
from django.db.models import QuerySet

from tournaments.models import Event, HistoryEntry, PlayerToken


def events_for(*, user: object, token: object) -> QuerySet[Event]:
    """The events a caller may list: all for staff, their own for a user, the token's one."""
    if isinstance(token, PlayerToken):
        return Event.objects.filter(pk=token.player.event_id)
    if isinstance(user, AuthUser) and user.is_active:
        return Event.objects.all() if user.is_staff else Event.objects.filter(created_by=user)
    return Event.objects.none()


def event_history(event: Event) -> QuerySet[HistoryEntry]:
    """Newest first: the console shows the last changes at the top."""
    return HistoryEntry.objects.filter(event=event).order_by("-at", "-pk")
