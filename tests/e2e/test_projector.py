"""The projector at full size (issue 32): read from the back of the hall on every board,
screen role, aspect ratio and player count, nothing outside the screen, every player shown
a page at a time. Real pixels, measured in Chromium: a capital's height is the glyph box of
"H" in the element's own font (canvas ``measureText``), as the issue's table measured it."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from solver.notation import format_move
from tests.e2e import test_browser
from tests.e2e.test_browser import LIVE_MS, SHOTS, console, shot
from tournaments.models import Event, Round
from tournaments.selectors.games import results_being_checked
from tournaments.services.games import game_end, game_start, round_draw
from tournaments.services.players import player_add
from tournaments.services.rounds import analysis_for, round_close, round_open, round_place, round_publish
from tournaments.services.slips import slip_submit

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# test_browser's fixtures, found by pytest under these names: its Chromium, its event of
# three players, its live streams ended with each test.
browser, event = test_browser.browser, test_browser.event
_streams_end = test_browser._streams_end_with_the_test

#: (width, height): 16:9, 16:10 and 4:3 at 1080 and 720 rows.
SCREENS = {
    "16:9 1080p": (1920, 1080),
    "16:10 1080p": (1920, 1200),
    "4:3 1080p": (1440, 1080),
    "16:9 720p": (1280, 720),
    "16:10 720p": (1280, 800),
    "4:3 720p": (960, 720),
}
ROLES = ("all", "board", "round", "standings")
#: Capital heights on a 16:9 screen of 1080 rows (issue 32), scaled by the rows of the
#: screen, and the board's by 15 over the board's rows.
TARGETS = {
    "all": {"clock": 96, "rack": 64, "board": 34, "standings": 48, "code": 48},
    "board": {"board": 40},
    "round": {"clock": 96, "rack": 96},
    "standings": {"standings": 64},
}
SELECTORS = {
    "clock": ".countdown.huge",
    "rack": ".hall-rack .tile",
    "board": "table.board td.sq.tile .l",
    "standings": "table.hall-ranking td.name",
    "code": ".join .code",
}

CAPITALS = """(selector) => {
  const el = [...document.querySelectorAll(selector)].find(e => e.getClientRects().length);
  if (!el) { return null; }
  const cs = getComputedStyle(el);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  return ctx.measureText('H').actualBoundingBoxAscent;
}"""

#: Every element of the projector drawn within the screen, no text cut (a name on one line
#: is shortened on purpose: its cell only), and the page itself not scrolling.
OUTSIDE = """() => {
  const W = innerWidth, H = innerHeight, bad = [];
  const page = document.documentElement;
  if (page.scrollWidth > W || page.scrollHeight > H) {
    bad.push(`page ${page.scrollWidth}x${page.scrollHeight}`);
  }
  for (const el of document.querySelectorAll('#hall *')) {
    if (el.closest('[hidden], .sr')) { continue; }
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) { continue; }
    const name = `${el.tagName}.${el.getAttribute('class') || ''} ${(el.textContent || '').slice(0, 20)}`;
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
      const at = [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
      bad.push(`${name} at ${at}`);
    }
    if (!(el instanceof HTMLElement) || el.matches('td.name')) { continue; }
    const cs = getComputedStyle(el);
    // The boxes that hold the standings' pages have rows hidden on purpose: not a cut.
    const paged = el.matches('.hall-standings, .hall-side, .hall-grid');
    // A cell's text wider than its column spills over its neighbour, clipped or not.
    const cell = el.matches('th, td') && el.scrollWidth > el.clientWidth + 1;
    if (cell || (cs.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1)
        || (cs.overflowY !== 'visible' && el.scrollHeight > el.clientHeight + 1 && !paged)) {
      bad.push(`${name} cut: ${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`);
    }
  }
  return bad.slice(0, 8);
}"""

#: The rows shown now, the page counter, and the standings' box: every row shown whole.
PAGE = """() => {
  const box = document.querySelector('[data-pages]');
  if (!box) { return null; }
  const rows = [...box.querySelectorAll('tbody tr')];
  const shown = rows.filter(r => !r.hidden);
  const bottom = box.getBoundingClientRect().bottom;
  return {rows: rows.length, shown: shown.length, counter: box.querySelector('[data-page-of]').textContent,
          whole: shown.every(r => r.getBoundingClientRect().bottom <= bottom + 0.5),
          first: rows.indexOf(shown[0])};
}"""


def _name(i: int) -> str:
    """Names up to 40 characters, as a hall's list has some."""
    return f"Marie-Christine Delacroix-Beaumont {i:05d}"[:40] if i % 3 else f"Luc Roy {i}"


def _hall_round(event: Event, board: str, players: int) -> Round:
    """``players`` at the event, round 1 placed (standings after it), round 2 open."""
    Event.objects.filter(pk=event.pk).update(board=board)
    event.refresh_from_db()
    for i in range(event.players.count(), players):
        player_add(event=event, name=_name(i))
    game = game_start(event=event)
    round = round_draw(game=game)
    assert round is not None
    round = round_open(round=round, seconds=600)
    ranked = analysis_for(round).ranked
    for n, player in enumerate(event.players.order_by("table")[:30]):
        coordinates, word = format_move(ranked[min(n, len(ranked) - 1)], "gcg").split()
        slip_submit(round=round, player=player, coordinates=coordinates, word=word, announced_score=None)
    round_close(round=Round.objects.get(pk=round.pk))
    following = round_place(round=Round.objects.get(pk=round.pk))
    assert following is not None
    return round_open(round=following, seconds=600)


def _look(hall: Any, base: str, event: Event, role: str, size: tuple[int, int]) -> dict[str, Any]:
    hall.set_viewport_size({"width": size[0], "height": size[1]})
    hall.goto(f"{base}/hall/{event.pk}/?screen={role}")
    hall.wait_for_selector(".hall-grid")
    hall.evaluate("document.fonts.ready")
    return {
        "capitals": {what: hall.evaluate(CAPITALS, SELECTORS[what]) for what in TARGETS[role]},
        "outside": hall.evaluate(OUTSIDE),
        "page": hall.evaluate(PAGE),
    }


def _board_rows(board: str) -> int:
    return 15 if board == "standard" else (19 if board == "large" else 21)


@pytest.mark.parametrize(
    ("board", "players"),
    [
        ("standard", 3),
        ("standard", 8),
        ("standard", 40),
        ("standard", 300),
        ("large", 300),
        ("broad", 300),
        ("grand", 300),
    ],
)
def test_the_projector_fills_every_screen_readably(
    live_server: Any, browser: Any, event: Event, board: str, players: int
) -> None:
    _hall_round(event, board, players)
    desk = console(browser, live_server.url, event, "fr-FR")
    hall = desk.context.new_page()
    hall.set_default_timeout(LIVE_MS)
    folder = SHOTS / "projector"
    folder.mkdir(parents=True, exist_ok=True)
    failures: list[str] = []
    measured: dict[str, object] = {}
    for role in ROLES:
        for label, size in SCREENS.items():
            seen = _look(hall, live_server.url, event, role, size)
            where = f"{board}, {players} players, {role}, {label}"
            measured[f"{role} {label}"] = {**seen["capitals"], "per page": (seen["page"] or {}).get("shown")}
            picture = folder / f"{board}-{players}-{role}-{size[0]}x{size[1]}.jpg"
            hall.screenshot(path=str(picture), quality=70)
            if seen["outside"]:
                failures.append(f"{where}: outside or cut {seen['outside']}")
            page = seen["page"]
            if role in ("all", "standings"):
                assert page is not None, where
                per = page["shown"]
                count = math.ceil(players / per)
                assert page["rows"] == players and page["whole"], (where, page)
                assert page["counter"] == (f"· page 1/{count}" if count > 1 else ""), (where, page)
            # The targets are the at 16:9 (1080 rows); scaled by the screen's rows.
            if size[0] * 9 != size[1] * 16:
                continue
            for what, target in TARGETS[role].items():
                scale = size[1] / 1080 * (15 / _board_rows(board) if what == "board" else 1)
                capital = seen["capitals"][what]
                if capital is None or capital < target * scale - 0.05:
                    failures.append(f"{where}: {what} capitals {capital} px < {target * scale:.1f}")
    # The figures of docs/benchmarks.md, "The projector read from the back of the hall".
    (folder / f"capitals-{board}-{players}.json").write_text(json.dumps(measured, indent=1))
    assert not failures, "\n".join(failures)
    if players == 300 and board == "standard":
        for role in ROLES:
            _look(hall, live_server.url, event, role, SCREENS["16:9 1080p"])
            shot(hall, f"projector-{role}")
    desk.context.close()


def test_the_standings_turn_their_pages_through_every_player(
    live_server: Any, browser: Any, event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rooms.views import hall as hall_view

    monkeypatch.setattr(hall_view, "TURN_MS", 300)
    _hall_round(event, "standard", 40)
    desk = console(browser, live_server.url, event, "fr-FR")
    hall = desk.context.new_page()
    hall.set_default_timeout(LIVE_MS)
    seen = _look(hall, live_server.url, event, "standings", SCREENS["16:9 1080p"])
    per, count = seen["page"]["shown"], math.ceil(40 / seen["page"]["shown"])
    assert count > 1
    names: list[str] = []
    for page in range(1, count + 1):
        hall.wait_for_function(
            "(c) => document.querySelector('[data-page-of]').textContent === c", arg=f"· page {page}/{count}"
        )
        names += hall.locator("table.hall-ranking tbody tr:not([hidden]) td.name").all_inner_texts()
    # Every player once, in the ranking's order; then the first page again.
    assert names == hall.locator("table.hall-ranking tbody td.name").all_text_contents()
    assert len(names) == 40 and per * (count - 1) < 40
    hall.wait_for_function(
        "(c) => document.querySelector('[data-page-of]').textContent === c", arg=f"· page 1/{count}"
    )
    desk.context.close()


def test_a_zoomed_projector_grows_its_text_and_scrolls_down_only(
    live_server: Any, browser: Any, event: Event
) -> None:
    """WCAG 1.4.4: sizes that follow the screen follow the browser's zoom too. Chromium's
    zoom, at 200% on a 1080p screen: a window of 960x540 CSS pixels, two screen pixels
    each, and its outer width in screen pixels (what hall.js reads)."""
    _hall_round(event, "standard", 40)
    desk = console(browser, live_server.url, event, "fr-FR")
    plain = desk.context.new_page()
    plain.set_default_timeout(LIVE_MS)
    before = _look(plain, live_server.url, event, "all", SCREENS["16:9 1080p"])["capitals"]
    zoomed_context = browser.new_context(
        viewport={"width": 960, "height": 540},
        device_scale_factor=2,
        storage_state=desk.context.storage_state(),
    )
    zoomed = zoomed_context.new_page()
    zoomed.add_init_script("Object.defineProperty(window, 'outerWidth', {get: () => window.innerWidth * 2})")
    zoomed.set_default_timeout(LIVE_MS)
    zoomed.goto(f"{live_server.url}/hall/{event.pk}/")
    zoomed.wait_for_selector(".hall-grid")
    after = {what: zoomed.evaluate(CAPITALS, SELECTORS[what]) for what in TARGETS["all"]}
    for what, size in before.items():
        # Screen pixels: the page's times 2. The board is as wide as the window instead.
        grown = after[what] * 2 / size
        assert grown >= (1.5 if what == "board" else 1.9), (what, size, after[what])
    assert zoomed.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert zoomed.evaluate("document.documentElement.scrollHeight > innerHeight")
    zoomed.screenshot(path=str(Path(SHOTS) / "projector-zoomed-200.png"), full_page=True)
    zoomed_context.close()
    desk.context.close()


def test_each_moment_of_a_round_fits_every_screen(live_server: Any, browser: Any, event: Event) -> None:
    """The top announced, the results being checked, the next rack coming, the game over
    and its final standings: each within the screen, on every role, at 16:9 and 4:3."""
    round = _hall_round(event, "standard", 300)
    desk = console(browser, live_server.url, event, "fr-FR")
    hall = desk.context.new_page()
    hall.set_default_timeout(LIVE_MS)
    failures: list[str] = []

    def look(moment: str, shown: str) -> None:
        for role in ROLES:
            for label in ("16:9 1080p", "4:3 720p"):
                seen = _look(hall, live_server.url, event, role, SCREENS[label])
                if role != "standings":
                    assert hall.locator(shown).count(), (moment, role)
                if seen["outside"]:
                    failures.append(f"{moment}, {role}, {label}: {seen['outside']}")
            hall.screenshot(path=str(SHOTS / "projector" / f"moment-{moment}-{role}.jpg"), quality=70)

    round = round_close(round=Round.objects.get(pk=round.pk))
    look("closed", ".hall-msg" if results_being_checked(round) else ".hall-top")
    round = round_publish(round=Round.objects.get(pk=round.pk))
    look("published", ".hall-top")
    following = round_place(round=Round.objects.get(pk=round.pk))
    assert following is not None
    look("drawn", ".hall-msg")
    game_end(game=following.game, reason="stopped")
    look("over", ".hall-msg.over")
    box = hall.evaluate(PAGE)
    assert box["rows"] == 300 and box["whole"], box
    assert hall.locator(".hall-standings h2").inner_text().startswith("Classement final")
    assert not failures, "\n".join(failures)
    desk.context.close()
