from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from solver.boards import LAYOUT_NAMES, layout
from tournaments.models import Event


def home(request: HttpRequest) -> HttpResponse:
    """The first page a newcomer sees: how to start, and the events already here."""
    boards = [layout(name) for name in LAYOUT_NAMES]
    events = Event.objects.order_by("-starts_on")[:20] if request.user.is_staff else []
    return render(request, "home.html", {"boards": boards, "events": events})
