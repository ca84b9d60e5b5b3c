"""The phones' panels as the production server sends them, in a real browser.

Under the ASGI server (uvicorn, as ``serve`` and the production setup run it) a phone's
live stream sends its new panel at each public change, with the player's own lines beside
it (rooms/views/panels.py); the phone does not ask for it. Django's ``live_server`` (WSGI)
streams nothing of the kind, so here the ASGI application is served by uvicorn. Two
phones, one in French and one in English, 360 px wide: the round opens, each hands in a
slip, the round closes and the top is placed; each phone shows its own receipt, its own
ruling and total, in its own language, without asking for its panel.

Needs PostgreSQL (the server is a process of its own on the test's database: an
in-memory SQLite database is one connection's) and chromium: skipped locally without them,
failed in CI."""

from __future__ import annotations

import datetime as dt
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from tests.e2e.test_browser import PHONE, browser, join, shot  # noqa: F401  (the browser fixture)
from tests.integration.conftest import (  # noqa: F401  (procs: the fixture)
    READY_TIMEOUT,
    ROOT,
    Procs,
    child_env,
    free_port,
    procs,
    require_postgres,
)
from tournaments.models import Round, Ruling
from tournaments.services.events import event_create
from tournaments.services.games import game_start, round_draw
from tournaments.services.lexicons import lexicon_bundled
from tournaments.services.players import player_add
from tournaments.services.rounds import round_close, round_open, round_place, round_publish

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

#: The request that asks for a panel (htmx): a phone whose stream sends panels makes none.
PANEL_ASKED = "part=panel"
COUNTDOWN_SHOWN = "() => /\\d\\d:\\d\\d/.test(document.querySelector('[data-countdown]').textContent)"


@pytest.fixture
def asgi_url(
    transactional_db: None,
    procs: Procs,  # noqa: F811
    tmp_path: Path,
) -> Iterator[str]:
    """The ASGI application under uvicorn, as ``serve`` runs it, in a process of its own
    on the test's database (so that its connections end with it)."""
    require_postgres()
    if connection.vendor != "postgresql":
        pytest.fail("DATABASE_URL is PostgreSQL but the test database is not", pytrace=False)
    db = connection.settings_dict
    url = f"postgresql://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    extra = {"DATABASE_URL": url}
    if os.environ.get("REDIS_URL"):
        extra["REDIS_URL"] = os.environ["REDIS_URL"]  # the services' notifications reach it
    env = child_env(tmp_path / "var", **extra)
    port = free_port()
    argv = [sys.executable, "-m", "uvicorn", "arbiter.asgi:application", "--port", str(port)]
    argv += ["--lifespan", "off"]
    server = procs.start("uvicorn", argv, env, ROOT)
    server.wait_for(r"Uvicorn running on", READY_TIMEOUT)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.kill()  # before the test's database is emptied: its connections go with it


def _event(name: str, seed: int, *players: str) -> Any:
    """An English event on the bundled word list, its players added."""
    event = event_create(
        name=name,
        starts_on=dt.date(2026, 11, 24),
        lexicon=lexicon_bundled(name="enable"),
        language="english",
        notation="gcg",
        random_seed=seed,
    )
    for player in players:
        player_add(event=event, name=player)
    return event


def test_each_phone_gets_its_panel_and_only_its_own_lines_in_its_language(
    asgi_url: str,
    browser: Any,  # noqa: F811
) -> None:
    event = _event("Pushed panels", 7, "Anne", "Bruno")
    game = game_start(event=event)
    round = round_draw(game=game)
    assert round is not None

    phones: dict[str, Any] = {}
    asked: dict[str, list[str]] = {}
    for table, locale in ((1, "fr-FR"), (2, "en-GB")):
        page = join(browser, asgi_url, event, table, locale)
        assert page.evaluate("() => document.documentElement.lang") == locale[:2]
        asked[locale] = []
        page.on("request", lambda request, log=asked[locale]: log.append(request.url))
        phones[locale] = page
    anne, bruno = phones["fr-FR"], phones["en-GB"]
    # Each stream is open before the round opens (its first message is the version).
    for page in phones.values():
        page.wait_for_function("() => !!document.querySelector('[data-stream]')")
    time.sleep(1.5)

    round_open(round=Round.objects.get(pk=round.pk), seconds=240)
    round.refresh_from_db()
    coordinates, word = round.tops[0].split()
    for page in phones.values():
        page.wait_for_selector("ol.rack .tile")
        page.wait_for_function(COUNTDOWN_SHOWN)
    shot(anne, "pushed-phone-open-fr")
    shot(bruno, "pushed-phone-open-en")

    # Anne plays the top; Bruno a word of his own.
    anne.fill("#slip input[name=coordinates]", coordinates)
    anne.fill("#slip input[name=word]", word)
    anne.locator("#slip button.primary").click()
    anne.wait_for_selector("#receipt .receipt.ok")
    assert "reçu" in anne.locator("#receipt").inner_text().lower()
    bruno.fill("#slip input[name=coordinates]", "8H")
    bruno.fill("#slip input[name=word]", "ZZZ")
    bruno.locator("#slip button.primary").click()
    bruno.wait_for_selector("#receipt .receipt.ok")
    assert "received" in bruno.locator("#receipt").inner_text().lower()

    # The close, then the arbitrator's review published: the results come to each phone,
    # its own ruling beside the shared panel.
    round_close(round=Round.objects.get(pk=round.pk))
    rulings = {r.player.name: r for r in Ruling.objects.filter(round=round).select_related("player")}
    assert rulings["Anne"].credited == round.top_score and rulings["Bruno"].credited == 0
    for page in phones.values():
        page.wait_for_selector("p.checking")
    round_publish(round=Round.objects.get(pk=round.pk))
    for page in phones.values():
        page.wait_for_selector("#result-title")
    anne.wait_for_function(
        "s => document.querySelector('[data-mine=result]').textContent.includes(s)", arg=str(round.top_score)
    )
    anne_result = anne.locator("[data-mine=result]").inner_text()
    bruno_result = bruno.locator("[data-mine=result]").inner_text()
    assert word in anne_result and "ZZZ" not in anne_result  # her slip, not his
    assert "ZZZ" in bruno_result and word not in bruno_result
    assert "Votre bulletin" in anne_result and "Your slip" in bruno_result
    shot(anne, "pushed-phone-result-fr")
    shot(bruno, "pushed-phone-result-en")

    # Placed: the totals in the players' own slots.
    round_place(round=Round.objects.get(pk=round.pk))
    anne.wait_for_function(
        "s => document.querySelector('[data-mine=total]').textContent.trim() === s", arg=str(round.top_score)
    )
    bruno.wait_for_function("() => document.querySelector('[data-mine=total]').textContent.trim() === '0'")

    # Nothing fits wider than the phone, and no phone asked for its panel: the streams sent them.
    for locale, page in phones.items():
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"], locale
        assert [url for url in asked[locale] if PANEL_ASKED in url] == [], locale
    for page in phones.values():
        page.context.close()


BOARD = "() => document.querySelector('[data-keep^=board]')"


def test_a_phone_keeps_its_board_until_a_move_changes_it(
    asgi_url: str,
    browser: Any,  # noqa: F811
) -> None:
    """The stream leaves out the parts the phone holds (rooms/views/panels.py): the board
    stays the same element until a move is placed; a phone
    that lost a part it is told to keep asks for its panel."""
    event = _event("Kept board", 11, "Anne")
    game = game_start(event=event)
    round = round_draw(game=game)
    assert round is not None
    page = join(browser, asgi_url, event, 1, "en-GB")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.wait_for_function("() => !!document.querySelector('[data-stream]')")
    time.sleep(1.5)

    round_open(round=Round.objects.get(pk=round.pk), seconds=240)
    page.wait_for_selector("ol.rack .tile:not([disabled])")
    page.evaluate(f"() => {{ window.heldBoard = ({BOARD})(); }}")
    round_close(round=Round.objects.get(pk=round.pk))
    page.wait_for_selector("p.checking")
    assert page.evaluate(f"() => ({BOARD})() === window.heldBoard && window.heldBoard.isConnected")
    assert page.evaluate("() => document.querySelectorAll('[data-kept]').length") == 0
    round_publish(round=Round.objects.get(pk=round.pk))
    page.wait_for_selector("#result-title")
    assert page.evaluate(f"() => ({BOARD})() === window.heldBoard")
    assert [url for url in asked if PANEL_ASKED in url] == []

    # Placed: a new board, with the move on it; the rows the move left alone are the
    # phone's own (a first move of at most 7 tiles through the centre never reaches row 1).
    page.evaluate("() => { window.heldRow = document.querySelector('table.board tbody tr'); }")
    round.refresh_from_db()
    round_place(round=Round.objects.get(pk=round.pk))
    page.wait_for_function(f"() => ({BOARD})() !== window.heldBoard")
    letters = len(round.tops[0].split()[1])
    assert page.locator("table.board td.sq.tile").count() == letters
    assert page.evaluate("() => document.querySelector('table.board tbody tr') === window.heldRow")
    assert page.evaluate("() => document.querySelectorAll('table.board tbody tr').length") == 15
    assert page.evaluate("() => document.querySelectorAll('[data-kept]').length") == 0
    assert [url for url in asked if PANEL_ASKED in url] == []

    next_round = Round.objects.filter(game=game).order_by("-number").first()  # drawn with the placing
    assert next_round is not None and next_round.number == 2
    round_open(round=next_round, seconds=240)
    page.wait_for_function("() => document.querySelectorAll('ol.rack .tile:not([disabled])').length > 0")

    # A phone without the board it is told to keep (a panel reloaded meanwhile, say): it
    # asks for its panel, and shows the board again.
    assert [url for url in asked if PANEL_ASKED in url] == []
    page.evaluate(f"() => {{ ({BOARD})().dataset.keep = 'board-lost'; }}")
    round_close(round=Round.objects.get(pk=next_round.pk))
    page.wait_for_selector("p.checking")
    page.wait_for_function(f"() => !!({BOARD})() && ({BOARD})().dataset.keep !== 'board-lost'")
    assert page.evaluate("() => document.querySelectorAll('[data-kept]').length") == 0
    assert page.locator("table.board td.sq.tile").count() == letters
    assert [url for url in asked if PANEL_ASKED in url] != []
    page.context.close()
