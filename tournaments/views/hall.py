"""The projector view and the endpoint every page polls for changes."""

from __future__ import annotations

import io
import time

import segno
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from scoring.selectors import game_standings
from tournaments.display import sorted_rack
from tournaments.models import Event, Round
from tournaments.permissions import can_arbitrate
from tournaments.selectors import RULED, LiveVersions, current_game, current_round, live_versions, public_view
from tournaments.views.common import arbitrated_event, arbitrator_page, is_htmx, session_player

#: Rows of the standings on the projector: the hall reads the top of the table.
HALL_ROWS = 12
#: How long one computation of the versions serves every poll (seconds): with 1,000
#: phones polling each second, the database sees a few queries a second, not 1,000.
LIVE_CACHE_SECONDS = 0.5


def join_url(request: HttpRequest, event: Event) -> str:
    path = reverse("phone:join_code", kwargs={"code": event.code})
    public = str(getattr(settings, "ARBITER_PUBLIC_URL", ""))
    return f"{public}{path}" if public else request.build_absolute_uri(path)


def join_qr_svg(url: str) -> str:
    """The join address as an inline SVG QR code (no file, no network)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", border=2, xmldecl=False, svgns=True, omitsize=True)
    return out.getvalue().decode()


def _hall_context(request: HttpRequest, event: Event) -> dict[str, object]:
    versions = live_versions(event)
    view = public_view(event, versions.public)
    round = current_round(event)
    game = current_game(event)
    placed = game is not None and game.rounds.filter(state=Round.State.PLACED).exists()
    url = join_url(request, event)
    return {
        "event": event,
        "versions": versions,
        "view": view,
        "round": round,
        "rack_sorted": sorted_rack(view.rack, "v") if view else "",
        "ruled": round is not None and round.state in RULED,
        "rows": game_standings(game)[:HALL_ROWS] if game is not None and placed else [],
        "join_url": url,
        "join_qr": join_qr_svg(url),
    }


@arbitrator_page
def hall(request: HttpRequest, event_id: int) -> HttpResponse:
    """Full screen on the hall's projector: nothing to click."""
    event = arbitrated_event(request, event_id)
    context = _hall_context(request, event)
    if is_htmx(request) and request.GET.get("part") == "panel":
        return render(request, "hall/_panel.html", context)
    return render(request, "hall/hall.html", context)


def _versions(event: Event) -> LiveVersions:
    key = f"arbiter:live:{event.pk}"
    versions: LiveVersions | None = cache.get(key)
    if versions is None:
        versions = live_versions(event)
        cache.set(key, versions, LIVE_CACHE_SECONDS)
    return versions


@never_cache
def live(request: HttpRequest, event_id: int) -> JsonResponse:
    """What the pages poll: version strings that change when what they show changes,
    the deadline, and the server's clock (the countdowns follow the server, not the
    phone's own clock)."""
    event = get_object_or_404(Event, pk=event_id)
    arbitrator = can_arbitrate(request.user, event)
    if not arbitrator and session_player(request, event)[0] is None:
        return JsonResponse(
            {"error": {"code": "forbidden", "message": _("join the event first"), "detail": {}}}, status=403
        )
    versions = _versions(event)
    body: dict[str, object] = {
        "public": versions.public,
        "deadline": versions.deadline,
        "state": versions.state,
        "now": int(time.time() * 1000),
    }
    if arbitrator:
        body["full"] = versions.full
    return JsonResponse(body)
