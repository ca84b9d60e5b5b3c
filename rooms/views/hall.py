"""The projector view."""

from __future__ import annotations

import io
from dataclasses import dataclass

import segno
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from rooms.charts import podium_chart
from rooms.templatetags.arbiter import signed
from rooms.views.common import arbitrated_event, arbitrator_page, is_htmx
from scoring.standings import Row
from tournaments.display import sorted_rack
from tournaments.models import Event, Game
from tournaments.selectors.games import current_game, current_round, player_sight, results_being_checked
from tournaments.selectors.live import live_versions
from tournaments.selectors.shown import public_view
from tournaments.standings import counted_round_numbers, game_standings

#: What one screen of the hall shows (``?screen=``): everything (a single screen), or one
#: thing at its largest when a hall has several: the board; the rack, clock and round's
#: state; the standings.
SCREENS = ("all", "board", "round", "standings")


def join_url(request: HttpRequest, event: Event) -> str:
    path = reverse("phone:join_code", kwargs={"code": event.code})
    public = str(getattr(settings, "ARBITER_PUBLIC_URL", ""))
    return f"{public}{path}" if public else request.build_absolute_uri(path)


def join_qr_svg(url: str) -> str:
    """The join address as an inline SVG QR code (no file, no network)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", border=2, xmldecl=False, svgns=True, omitsize=True)
    return out.getvalue().decode()


#: How long a page of the standings stays on the projector (ms).
TURN_MS = 8000


def _widths(rows: list[Row]) -> str:
    """The standings' number columns as wide as their longest figure (classes of app.css):
    the rest of the screen's width goes to the names."""
    if not rows:
        return ""
    rank = max(len(str(r.rank)) for r in rows)
    total = max(len(str(r.total)) for r in rows)
    gap = max(len(str(r.diff)) for r in rows)
    return f"r{min(rank, 5)} t{min(total, 6)} g{min(gap, 6)}"


def hall_screen(request: HttpRequest) -> str:
    screen = request.GET.get("screen", "all")
    return screen if screen in SCREENS else "all"


@dataclass(frozen=True)
class _Standings:
    rows: list[Row]
    #: The table's rows as HTML, the same in every language: written once for the hall's
    #: screens, where the template language is slow for a hall (docs/decisions.md).
    html: SafeString


def _standings_rows(rows: list[Row]) -> SafeString:
    return mark_safe(  # numbers, and names escaped
        "".join(
            f'<tr data-table="{r.player.table}"><td>{r.rank}</td>'
            f'<td class="name">{escape(r.player.name)}</td>'
            f"<td><b>{signed(r.total)}</b></td><td>{signed(r.diff)}</td></tr>"
            for r in rows
        )
    )


#: game id -> (public version, its standings). A hall's screens reload together at each
#: public change (one each for the board, the round and the standings, say), and reading
#: and ranking 2,000 players over a game is worth doing once (docs/decisions.md).
#: The public version changes with everything the standings show that makes a screen
#: reload.
_standings_at: dict[int, tuple[str, _Standings]] = {}


def _standings(game: Game, public: str) -> _Standings:
    known = _standings_at.get(game.pk)
    if known is not None and known[0] == public:
        return known[1]
    rows = game_standings(game)
    standings = _Standings(rows, _standings_rows(rows))
    _standings_at[game.pk] = (public, standings)
    return standings


def forget_standings() -> None:
    """Drop the standings read (tests: a new database may give the same ids again)."""
    _standings_at.clear()


def _hall_context(request: HttpRequest, event: Event) -> dict[str, object]:
    versions = live_versions(event)
    view = public_view(event, versions.public)
    round = current_round(event)
    game = current_game(event)
    counted = counted_round_numbers(game) if game is not None else []
    placed = bool(counted)
    over = game is not None and game.state == Game.State.ENDED
    url = join_url(request, event)
    screen = hall_screen(request)
    # Every player: the projector turns the pages (hall.js), as many rows a page as fit.
    standings = _standings(game, versions.public) if game is not None and placed else None
    rows = standings.rows if standings is not None else []
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
        "rows_html": standings.html if standings is not None else "",
        "after": counted[-1] if counted else None,
        "chart": podium_chart(game, rows) if over and game is not None and rows else "",
        "join_url": url,
        "join_qr": join_qr_svg(url),
        "screen": screen,
        "widths": _widths(rows),
        "turn_ms": TURN_MS,
        # The code a latecomer joins with, on every screen that has the room for it.
        "show_join": not over and (screen in ("all", "round") or (screen == "standings" and not rows)),
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
