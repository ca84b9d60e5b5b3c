"""Creating an event and changing its settings (frozen once a game has started, except the
live ones)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from solver.errors import SolverError
from solver.game import config_rules
from tournaments.core import EVENT_SETTINGS, LIVE_SETTINGS, ApplicationError, User
from tournaments.linked import linker
from tournaments.messages import say_error
from tournaments.models import Event, Game, Lexicon
from tournaments.services.history import actor, history_record
from tournaments.state import (
    game_config,
)


def event_create(
    *, name: str, starts_on: dt.date, lexicon: Lexicon, created_by: User = None, **settings: Any
) -> Event:
    unknown = set(settings) - set(EVENT_SETTINGS)
    if unknown:
        raise ApplicationError(_("unknown event settings: %(names)s") % {"names": ", ".join(sorted(unknown))})
    user, _label = actor(created_by)
    event = Event(name=name, starts_on=starts_on, lexicon=lexicon, created_by=user, **settings)
    try:
        event.full_clean()
        # The solver's own checks of the settings (minimums that fit the rack, ...).
        config_rules(game_config(Game(event=event, number=1)))
    except (ValidationError, ValueError) as exc:
        raise ApplicationError(_("the event cannot be created: %(error)s") % {"error": _said(exc)}) from exc
    event.save()
    return event


def event_update(*, event: Event, by: User = None, **changes: Any) -> Event:
    """Change an event's name or settings. Once a game has started only the time per
    round and the last day may change. Each change is kept in the history."""
    unknown = set(changes) - set(EVENT_SETTINGS) - {"name", "starts_on", "lexicon"}
    if unknown:
        raise ApplicationError(_("unknown event settings: %(names)s") % {"names": ", ".join(sorted(unknown))})
    with transaction.atomic():
        # Locked with game_start: a game cannot start between this check and the save.
        event = Event.objects.select_for_update().get(pk=event.pk)
        changed = {k: v for k, v in changes.items() if getattr(event, k) != v}
        if not changed:
            return event
        if event.games.exists() and set(changed) - LIVE_SETTINGS:
            frozen = ", ".join(sorted(set(changed) - LIVE_SETTINGS))
            raise ApplicationError(
                _("a game has started: these settings can no longer change (%(names)s)") % {"names": frozen},
                {"frozen": frozen},
            )
        why = linker(event).frozen(event) if set(changed) - LIVE_SETTINGS else ""
        if why:
            frozen = ", ".join(sorted(set(changed) - LIVE_SETTINGS))
            raise ApplicationError(
                _("%(why)s: these settings can no longer change (%(names)s)") % {"why": why, "names": frozen},
                {"frozen": frozen},
            )
        old = {k: _plain(getattr(event, k)) for k in changed}
        for key, value in changed.items():
            setattr(event, key, value)
        try:
            event.full_clean()
            config_rules(game_config(Game(event=event, number=1)))
        except (ValidationError, ValueError) as exc:
            raise ApplicationError(
                _("the event cannot be changed: %(error)s") % {"error": _said(exc)}
            ) from exc
        event.save()
        history_record(
            event=event,
            entity="event",
            object_id=event.pk,
            action="settings",
            by=by,
            old=old,
            new={k: _plain(v) for k, v in changed.items()},
        )
        return event


def _plain(value: Any) -> Any:
    """A setting as JSON for the history."""
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, Lexicon):
        return value.name
    return value


def _said(error: Exception) -> object:
    """A refused setting as the solver says it (minimums that do not fit the rack), in
    the active language; Django's validation errors are translated already."""
    return say_error(error) if isinstance(error, SolverError) else error
