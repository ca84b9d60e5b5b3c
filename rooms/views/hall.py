"""The projector view."""

from __future__ import annotations

import io

import segno
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation

from rooms.charts import podium_chart
from rooms.views.common import arbitrated_event, arbitrator_page, is_htmx
from tournaments.display import sorted_rack
from tournaments.models import Event, Game
from tournaments.selectors import (
    current_game,
    current_round,
    live_versions,
    player_sight,
    public_view,
    results_being_checked,
)
from tournaments.standings import counted_round_numbers, game_standings

#: Rows of the standings on the projector: the hall reads the top of the table.
HALL_ROWS = 8
#: The final standings have the side of the screen to themselves.
HALL_ROWS_OVER = 12


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
    counted = counted_round_numbers(game) if game is not None else []
    placed = bool(counted)
    over = game is not None and game.state == Game.State.ENDED
    url = join_url(request, event)
    rows = (
        game_standings(game)[: HALL_ROWS_OVER if over else HALL_ROWS] if game is not None and placed else []
    )
    return {
        "event": event,
        "versions": versions,
        "view": view,
        "round": round,
        "rack_sorted": sorted_rack(view.rack, "v") if view else "",
        "ruled": round is not None and player_sight(round).answers,
        "checking": results_being_checked(round),
        "over": over,
        "rows": rows,
        "after": counted[-1] if counted else None,
        "chart": podium_chart(game, rows) if over and game is not None and rows else "",
        "join_url": url,
        "join_qr": join_qr_svg(url),
    }


@arbitrator_page
def hall(request: HttpRequest, event_id: int) -> HttpResponse:
    """Full screen on the hall's projector: nothing to click."""
    event = arbitrated_event(request, event_id)
    # The hall reads the event's language, whatever the language of the arbitrator's session
    # that opened the page (its FR/EN switch is the console's, not the hall's).
    with translation.override(event.hall_language):
        context = _hall_context(request, event)
        if is_htmx(request) and request.GET.get("part") == "panel":
            return render(request, "hall/_panel.html", context)
        return render(request, "hall/hall.html", context)
