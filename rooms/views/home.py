"""The home page: how to start, for a newcomer on the laptop that runs Arbiter."""

from __future__ import annotations

import ipaddress

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import BaseUserCreationForm
from django.contrib.auth.models import User
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from plumbing.middleware import client_address
from solver.boards import LAYOUT_NAMES
from tournaments.models import Event
from tournaments.models.events import board_choice
from tournaments.selectors.events import arbitrated_events
from tournaments.services.demo import event_demo


class FirstArbitratorForm(BaseUserCreationForm[User]):
    class Meta:
        model = User
        fields = ("username",)


def _from_this_machine(request: HttpRequest) -> bool:
    """The first account may only be made at the laptop itself, not from the hall's Wi-Fi."""
    try:
        return ipaddress.ip_address(client_address(request)).is_loopback
    except ValueError:
        return False


def _first_run(request: HttpRequest) -> bool:
    return not get_user_model().objects.exists() and _from_this_machine(request)


def home(request: HttpRequest) -> HttpResponse:
    """The first page a newcomer sees: how to start, and the events already here."""
    boards = [board_choice(name) for name in LAYOUT_NAMES]
    user = request.user
    events: list[Event] = []
    if user.is_authenticated:
        events = list(arbitrated_events(user)[:20])
    form = FirstArbitratorForm() if _first_run(request) else None
    return render(request, "home.html", {"boards": boards, "events": events, "first_run_form": form})


@require_POST
def first_arbitrator(request: HttpRequest) -> HttpResponse:
    """Create the first arbitrator account (staff), once, from the laptop itself."""
    # Two posts at once must not both find "no account yet": the first takes the lock.
    if not _first_run(request) or not cache.add("arbiter:first-arbitrator", 1, 30):
        messages.error(request, _("An arbitrator account exists already: log in."))
        return redirect("login")
    form = FirstArbitratorForm(request.POST)
    if not form.is_valid():
        cache.delete("arbiter:first-arbitrator")
        return render(request, "home.html", {"boards": [], "events": [], "first_run_form": form})
    user = form.save(commit=False)
    user.is_staff = True
    user.is_superuser = True
    user.save()
    # The backend that checks passwords, as a password login names it (axes' before it only
    # refuses, and cannot read a session's user): the next request must find the user.
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, _("Welcome! Create your event, or load the demo event."))
    return redirect("home")


@require_POST
def demo(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect("login")
    event = event_demo(by=request.user)
    messages.success(
        request,
        _("Demo event ready. Phones join at /j/%(code)s/ with tables 1 to 4: open the round then.")
        % {"code": event.code},
    )
    return redirect("console:event", event_id=event.pk)
