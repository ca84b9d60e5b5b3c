"""Events: the ones a caller may list, one found by its join code, an event's history and
its printed sheets."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser
from django.db.models import QuerySet

from tournaments.models import Event, HistoryEntry, PlayerToken, PrintedSheet, Ruling


def events_for(*, user: object, token: object) -> QuerySet[Event]:
    """The events a caller may list: all for staff, their own for a user, the token's one."""
    if isinstance(token, PlayerToken):
        return Event.objects.filter(pk=token.player.event_id)
    if isinstance(user, AuthUser) and user.is_active:
        return Event.objects.all() if user.is_staff else Event.objects.filter(created_by=user)
    return Event.objects.none()


def arbitrated_events(user: AuthUser | AnonymousUser) -> QuerySet[Event]:
    """The events an arbitrator's pages list, the latest first: all for staff, else their own."""
    listed = Event.objects.all() if user.is_staff else Event.objects.filter(created_by=user.pk)
    return listed.order_by("-starts_on", "name")


def every_event() -> QuerySet[Event]:
    """Every event, the latest first (the terminal's list)."""
    return Event.objects.order_by("-starts_on", "name")


def event_with_code(code: str) -> Event | None:
    """The event whose join code is ``code``, in any case."""
    return Event.objects.filter(code__iexact=code).first()


def event_by_id_or_code(number: int | None, code: str) -> Event | None:
    """Event ``number``, else the one of join code ``code`` (a join code may be all digits
    too: tried when no id matches), with its word list."""
    events = Event.objects.select_related("lexicon")
    event = events.filter(pk=number).first() if number is not None else None
    return event if event is not None else events.filter(code__iexact=code).first()


def event_history(event: Event, *, entity: str | None = None) -> QuerySet[HistoryEntry]:
    """Newest first: the console shows the last changes at the top. Only those of
    ``entity`` ("round", "slip", ...) when it is given; each with who made it."""
    entries = HistoryEntry.objects.filter(event=event).select_related("actor").order_by("-at", "-pk")
    return entries.filter(entity=entity) if entity else entries


def ruling_history(event: Event, ruling: Ruling) -> QuerySet[HistoryEntry]:
    """The changes of ``ruling``, a ruling of ``event``, newest first."""
    return HistoryEntry.objects.filter(event=event, entity="ruling", object_id=ruling.pk).order_by("-at")


#: The console lists this many of an event's printed sheets.
SHEETS_LISTED = 50


def printed_sheets(event: Event) -> QuerySet[PrintedSheet]:
    """The event's last printed sheets (and those being printed), without their PDF."""
    return PrintedSheet.objects.filter(event=event).defer("pdf").select_related("player")[:SHEETS_LISTED]
