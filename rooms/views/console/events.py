"""Setting up an event: the list of events, a new event (its word list imported in the
background), one imported from a file, its settings."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from rooms.forms import (
    EventForm,
    MasterImportForm,
)
from rooms.views.common import arbitrated_event, arbitrator_page, number, refusals
from rooms.views.console.base import back
from tournaments.models import (
    Event,
    Lexicon,
)
from tournaments.selectors.events import arbitrated_events
from tournaments.selectors.lexicons import lexicon_name_taken
from tournaments.services import transfer
from tournaments.services.events import event_create, event_update
from tournaments.services.lexicons import lexicon_bundled, lexicon_upload


@arbitrator_page
def events(request: HttpRequest) -> HttpResponse:
    return render(request, "console/events.html", {"events": arbitrated_events(request.user)})


def _lexicon(form: EventForm) -> Lexicon:
    """The word list chosen in the form: bundled, imported before, or uploaded now (its
    size checked by the form; a worker compiles it)."""
    upload = form.cleaned_data.get("word_list")
    if upload is not None:
        name = upload.name.rsplit(".", 1)[0][:80] or "list"
        language = "fr" if form.cleaned_data["language"] == Event.Language.FRENCH else "en"
        suffix = 2
        unique = name
        while lexicon_name_taken(unique):
            unique, suffix = f"{name} ({suffix})", suffix + 1
        return lexicon_upload(name=unique, language=language, data=upload.read(), source_name=upload.name)
    kind, _sep, value = form.cleaned_data["lexicon_choice"].partition(":")
    if kind == "bundled":
        return lexicon_bundled(name=value)
    return get_object_or_404(Lexicon.objects.defer("content"), pk=number(value) or 0)


def _lexicon_said(request: HttpRequest, lexicon: Lexicon) -> None:
    if lexicon.state == Lexicon.State.IMPORTING:
        messages.info(
            request,
            _(
                "The word list %(name)s is being imported by the worker: its progress shows on the"
                " event's pages. A game can start once it is ready."
            )
            % {"name": lexicon.name},
        )


@arbitrator_page
def lexicon_progress(request: HttpRequest, event_id: int) -> HttpResponse:
    """Where the import of the event's word list is (its part of the event's pages asks
    every few seconds while it is importing)."""
    event = arbitrated_event(request, event_id)
    return render(request, "console/_lexicon.html", {"event": event, "lexicon": event.lexicon})


@arbitrator_page
def event_new(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = EventForm(request.POST, request.FILES)
        if form.is_valid():
            # Atomic: an event refused leaves no word list behind, nor its import queued.
            with refusals(request), transaction.atomic():
                event = event_create(
                    name=form.cleaned_data["name"],
                    starts_on=form.cleaned_data["starts_on"],
                    lexicon=_lexicon(form),
                    created_by=request.user,
                    **form.settings(),
                )
                messages.success(
                    request, _("Event created. Its join code is %(code)s.") % {"code": event.code}
                )
                _lexicon_said(request, event.lexicon)
                return redirect("console:players", event_id=event.pk)
    else:
        form = EventForm(initial={"starts_on": dt.date.today()})
    return render(request, "console/event_form.html", {"form": form, "event": None})


@arbitrator_page
def event_import(request: HttpRequest) -> HttpResponse:
    """A new event whose first game replays an imported game record (a master game)."""
    if request.method == "POST":
        form = MasterImportForm(request.POST, request.FILES)
        if form.is_valid():
            with refusals(request):
                restore = form.cleaned_data["restore"]
                settings = form.settings()
                if restore:
                    # The notation and mode the slips were written and ruled with come with them.
                    settings = {key: settings[key] for key in transfer.FREE_SETTINGS}
                event = transfer.event_import(
                    name=form.cleaned_data["name"],
                    starts_on=form.cleaned_data["starts_on"],
                    game_file=transfer.read_game_file(form.cleaned_data["record"].read()),
                    restore=restore,
                    by=request.user,
                    **settings,
                )
                done = (
                    _("Event created with the game restored. Its join code is %(code)s.")
                    if restore
                    else _(
                        "Event created: its first game replays the imported game. Its join code is %(code)s."
                    )
                )
                messages.success(request, done % {"code": event.code})
                return redirect("console:players", event_id=event.pk)
    else:
        form = MasterImportForm(initial={"starts_on": dt.date.today()})
    return render(request, "console/event_import.html", {"form": form})


@arbitrator_page
def event_settings(request: HttpRequest, event_id: int) -> HttpResponse:
    event = arbitrated_event(request, event_id)
    started = event.games.exists()
    if request.method == "POST":
        form = EventForm(request.POST, request.FILES, instance=Event.objects.get(pk=event.pk))
        if started:
            form.lock()
        if form.is_valid():
            with refusals(request), transaction.atomic():
                changes = form.settings()
                changes["name"] = form.cleaned_data["name"]
                changes["starts_on"] = form.cleaned_data["starts_on"]
                if not started:
                    changes["lexicon"] = _lexicon(form)
                event_update(event=event, by=request.user, **changes)
                messages.success(request, _("Settings saved."))
                if not started:
                    _lexicon_said(request, changes["lexicon"])
                return back(event)
    else:
        form = EventForm(instance=event)
        if started:
            form.lock()
    return render(request, "console/event_form.html", {"form": form, "event": event, "started": started})
