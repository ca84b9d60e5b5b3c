"""What axe-core cannot see (issue 32): the board placed from the keyboard alone, and every
page at 200% zoom without scrolling sideways."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e import test_browser
from tests.e2e.test_browser import console, join, open_round, shot
from tournaments.models import Event, Round
from tournaments.services.rounds import round_close, round_publish
from tournaments.services.slips import slip_submit

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# test_browser's fixtures, found by pytest under these names.
browser, event = test_browser.browser, test_browser.event
_streams_end = test_browser._streams_end_with_the_test

#: (row, column) of the board's square that has the focus, or None.
FOCUSED = """() => { const a = document.activeElement;
  return a && a.matches('td.sq') ? [+a.dataset.r, +a.dataset.c] : null; }"""


def _square(move: str) -> tuple[int, int, bool]:
    """(row, column, across) of a GCG move's first square ("8D": row 8 across)."""
    start = move.split(maxsplit=1)[0]
    across = start[0].isdigit()
    digits = "".join(ch for ch in start if ch.isdigit())
    letter = "".join(ch for ch in start if ch.isalpha())
    return int(digits) - 1, ord(letter.upper()) - ord("A"), across


def _walk(phone: Any, to: tuple[int, int]) -> None:
    """The arrow keys from the square that has the board's focus to ``to``."""
    r, c = phone.evaluate(FOCUSED)
    steps = {"ArrowDown": to[0] - r, "ArrowUp": r - to[0], "ArrowRight": to[1] - c, "ArrowLeft": c - to[1]}
    for key, count in steps.items():
        for _ in range(max(0, count)):
            phone.keyboard.press(key)
    assert phone.evaluate(FOCUSED) == [to[0], to[1]]


def test_the_board_is_played_from_the_keyboard(live_server: Any, browser: Any, event: Event) -> None:
    """A grid that is one tab stop: the arrow keys move between its squares; Enter places the
    rack tile chosen (with Enter on the rack), again takes it back; a letter of the rack
    typed on a square places that tile and moves on along the word's direction."""
    round = open_round(event, seconds=600)
    move = next(t for t in round.tops if t.split()[1] == t.split()[1].upper())
    row, col, across = _square(move)
    word = move.split()[1]
    phone = join(browser, live_server.url, event, 1, "fr-FR")
    phone.wait_for_selector("ol.rack .tile")
    assert phone.locator("table.board[role=grid]").count() == 1
    assert phone.locator("td.sq[tabindex='0']").count() == 1  # one tab stop for 225 squares
    for _ in range(30):
        phone.keyboard.press("Tab")
        if phone.evaluate(FOCUSED):
            break
    assert phone.evaluate(FOCUSED) == [7, 7]  # the centre first

    # Enter on a rack tile chooses it; back on the board (Shift+Tab), Enter places it.
    spare = (row + 2) % 15, (col + 2) % 15
    phone.keyboard.press("Tab")
    first = phone.evaluate("() => document.activeElement.dataset.letter")
    assert first, "the rack's first tile comes after the board"
    phone.keyboard.press("Enter")
    assert phone.locator("ol.rack .tile.selected").count() == 1
    phone.keyboard.press("Shift+Tab")
    assert phone.evaluate(FOCUSED) == [7, 7]  # the board's focus kept its square
    _walk(phone, spare)
    phone.keyboard.press("Enter")
    placed = phone.locator(f'td.sq.pending[data-r="{spare[0]}"][data-c="{spare[1]}"]')
    assert placed.count() == 1 and first.upper() in placed.inner_text()
    assert phone.locator("#slip input[name=word]").input_value() == first.upper()
    phone.keyboard.press("Enter")  # again: taken back
    assert phone.locator("td.sq.pending").count() == 0
    assert phone.locator("#slip input[name=word]").input_value() == ""

    # The top typed square by square: each letter placed, the focus moving on.
    if not across:
        phone.locator("[data-dir]").click()  # the direction, as a player sets it
        _walk(phone, spare)
    _walk(phone, (row, col))
    for letter in word:
        if phone.locator(f'td.sq[data-r="{row}"][data-c="{col}"][data-letter]').count():
            phone.keyboard.press("ArrowRight" if across else "ArrowDown")  # a letter on the board
        else:
            phone.keyboard.press(letter.lower())
        row, col = (row, col + 1) if across else (row + 1, col)
    assert phone.locator("#slip input[name=coordinates]").input_value() == move.split()[0]
    assert phone.locator("#slip input[name=word]").input_value() == word
    assert phone.evaluate(FOCUSED) is not None  # the focus stays on the board
    shot(phone, "phone-board-keyboard")
    phone.context.close()


def test_a_letter_the_rack_lacks_is_played_with_its_blank_from_the_keyboard(
    live_server: Any, browser: Any, event: Event
) -> None:
    open_round(event, typed="?EIRSTN", seconds=600)
    phone = join(browser, live_server.url, event, 1, "fr-FR")
    phone.wait_for_selector("ol.rack .tile")
    phone.locator("td.sq[tabindex='0']").focus()
    assert phone.evaluate(FOCUSED) == [7, 7]
    for key in ("ArrowLeft", "ArrowLeft", "ArrowLeft"):
        phone.keyboard.press(key)
    for key in "qeiw":  # no Q and no W in the rack: the blank is the Q, the W is refused
        phone.keyboard.press(key)
    assert phone.locator("#slip input[name=word]").input_value() == "qEI"
    assert phone.locator("#slip input[name=coordinates]").input_value() == "8E"
    assert phone.locator("td.sq.pending.blank").count() == 1  # circled, as on paper
    assert phone.evaluate(FOCUSED) == [7, 7]  # after the I: W placed nothing, the focus stayed
    phone.context.close()


def test_every_page_at_200_percent_zoom_keeps_to_the_width(
    live_server: Any, browser: Any, event: Event
) -> None:
    """WCAG 1.4.10 at 200%: a 1280 px screen is 640 CSS pixels wide; nothing scrolls
    sideways but the tables that scroll in their own box."""
    round = open_round(event, seconds=600)
    anne = event.players.get(table=1)
    coordinates, word = round.tops[0].split()
    slip_submit(round=round, player=anne, coordinates=coordinates, word=word, announced_score=None)
    round_close(round=Round.objects.get(pk=round.pk))
    round_publish(round=Round.objects.get(pk=round.pk))
    base = live_server.url
    desk = console(browser, base, event, "fr-FR")
    desk.set_viewport_size({"width": 640, "height": 400})
    phone = join(browser, base, event, 2, "fr-FR")
    phone.set_viewport_size({"width": 640, "height": 400})
    pages = [(desk, f"{base}/console/")]
    parts = ("", "players/", "settings/", "standings/", "history/", "sheets/")
    pages += [(desk, f"{base}/console/{event.pk}/{part}") for part in parts]
    pages += [(desk, f"{base}/hall/{event.pk}/"), (phone, phone.url)]
    for page, url in pages:
        page.goto(url)
        page.wait_for_load_state()
        wide = page.evaluate(
            "() => [...document.body.querySelectorAll('*')]"
            ".filter(e => e.getBoundingClientRect().right > innerWidth + 1"
            " && !e.closest('.scroll-x, .board-wrap, .sr'))"
            ".map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || '').slice(0, 30)).slice(0, 5)"
        )
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 640, (url, wide)
    # The projector's screens, a link each, within the window when the list is open.
    desk.goto(f"{base}/console/{event.pk}/")
    desk.locator("details.screens summary").click()
    links = desk.locator("details.screens a")
    assert links.all_inner_texts() == ["La grille", "Le tirage et le chrono", "Le classement"]
    for i in range(3):
        box = links.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 640 and box["height"] >= 44
    assert links.nth(2).get_attribute("href") == f"/hall/{event.pk}/?screen=standings"
    shot(desk, "console-round-200-percent")
    phone.context.close()
    desk.context.close()
