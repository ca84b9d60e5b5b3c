"""A whole club event rehearsed in a real browser on the production setup, every screen
checked against the others after every step (issue 29).

The site runs as ``serve`` runs it in production: uvicorn (ASGI) and a Celery worker, on
PostgreSQL and Redis, in processes of their own on the test's database. An arbitrator's
laptop (the console, in French), the hall's projector (French) and four phones at 360 px
(three in French, one in English) follow an event of 12 players (4 phones, 8 on paper)
through two games: equal tops with one selected, a penalty, a replaced slip, a late slip,
a blank slip, a correction, a publication, an undone placement, a game ended and a second
one. After each step the invariants of ``bench/invariants.py`` are checked on what the
screens show: the top announced is the one then placed; every slip handed in is once in
the review, linked to its ruling; the phones, the projector, the console, the API and the
standings sheet give every player the same total; no page shows the other language's
words; a round whose results are public reopens only with a reason. The summary is
printed at the end (``-s`` shows it) and kept in var/rehearsal.txt.

Needs PostgreSQL, Redis and chromium: skipped locally without them, failed in CI."""

from __future__ import annotations

import datetime as dt
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection

from bench import invariants
from tests.e2e.test_browser import LIVE_MS, browser, console, join, shot  # noqa: F401 (the fixture)
from tests.helpers import pdf_text
from tests.integration.conftest import (  # noqa: F401  (procs: the fixture)
    READY_TIMEOUT,
    ROOT,
    Procs,
    child_env,
    free_port,
    procs,
    require_postgres,
    require_redis,
    worker_argv,
)
from tournaments.core import ApplicationError
from tournaments.display import shown_move
from tournaments.models import Event, Game, Player, Round, Ruling
from tournaments.printing import render_sheet
from tournaments.services.events import event_create
from tournaments.services.lexicons import lexicon_bundled
from tournaments.services.players import players_import
from tournaments.services.rounds import analysis_for, round_reopen
from tournaments.services.slips import slip_submit
from tournaments.standings import event_standings, game_standings

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

PHONES = {1: "fr-FR", 2: "fr-FR", 3: "fr-FR", 4: "en-GB"}
PAPER = range(5, 13)
NAMES = ["Anne", "Bruno", "Chloé", "Dan", "Émile", "Fanny", "Gaël", "Hélène", "Inès", "Jules", "Karim", "Léa"]
SUMMARY = ROOT / "var" / "rehearsal.txt"


@pytest.fixture
def production(transactional_db: None, procs: Procs, tmp_path: Path) -> Iterator[str]:  # noqa: F811
    """uvicorn and a Celery worker on PostgreSQL and Redis, on the test's database."""
    require_postgres()
    redis_url = require_redis()
    if connection.vendor != "postgresql":
        pytest.fail("DATABASE_URL is PostgreSQL but the test database is not", pytrace=False)
    db = connection.settings_dict
    url = f"postgresql://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = child_env(tmp_path / "var", DATABASE_URL=url, REDIS_URL=redis_url)
    worker = procs.start("worker", worker_argv("solve,adjudicate,default", "rehearsal"), env, ROOT)
    worker.wait_for(r"ready\.", READY_TIMEOUT)
    port = free_port()
    argv = [
        sys.executable,
        "-m",
        "uvicorn",
        "arbiter.asgi:application",
        "--port",
        str(port),
        "--lifespan",
        "off",
    ]
    server = procs.start("uvicorn", argv, env, ROOT)
    server.wait_for(r"Uvicorn running on", READY_TIMEOUT)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.kill()  # before the test's database is emptied: their connections go with them
        worker.kill()


class Rehearsal:
    """The screens of the hall and the checks made on them."""

    def __init__(self, base: str, browser: Any, event: Event) -> None:  # noqa: F811
        self.base, self.event = base, event
        self.report = invariants.Report()
        self.catalogues = invariants.Catalogues.read(ROOT / "locale")
        self.desk = console(browser, base, event, "fr-FR")
        self.hall = self.desk.context.new_page()  # the projector: the arbitrator's login
        self.hall.set_viewport_size({"width": 1920, "height": 1080})
        self.hall.set_default_timeout(LIVE_MS)
        self.hall.goto(f"{base}/hall/{event.pk}/")
        self.side = self.desk.context.new_page()  # the arbitrator's second tab: standings, API
        self.side.set_default_timeout(LIVE_MS)
        self.phones = {table: join(browser, base, event, table, locale) for table, locale in PHONES.items()}

    # -------------------------------------------------------------- the console's actions

    def settled(self, state: str) -> None:
        """The console's round in ``state``, its live updates over."""
        self.desk.wait_for_selector(f'#status [data-round-key$="-{state}"]', state="attached", timeout=30_000)
        self.desk.wait_for_timeout(1200)

    def click(self, name: str | re.Pattern[str], *, confirm: bool = False) -> None:
        if confirm:
            self.desk.once("dialog", lambda d: d.accept())
        self.desk.get_by_role("button", name=name).first.click()

    def paper(self, table: int, coordinates: str, word: str, score: int | None = None) -> None:
        """A paper slip typed with the keyboard, as the arbitrator types it."""
        self.desk.wait_for_function("() => document.activeElement.id === 'slip-table'")
        self.desk.fill("#slip-table", str(table))
        self.desk.fill("#slip-form input[name=coordinates]", coordinates)
        self.desk.fill("#slip-form input[name=word]", word)
        self.desk.fill("#slip-form input[name=announced_score]", "" if score is None else str(score))
        self.desk.press("#slip-form input[name=word]", "Enter")
        self.desk.wait_for_function(
            "t => (document.querySelector('#preview .stored') || {textContent: ''}).textContent.includes(t)",
            arg=f"Table {table} (",
        )

    def phone_slip(self, table: int, coordinates: str, word: str) -> None:
        phone = self.phones[table]
        phone.fill("#slip input[name=coordinates]", coordinates)
        phone.fill("#slip input[name=word]", word)
        phone.locator("#slip button.primary").click()
        phone.wait_for_selector("#receipt .receipt.ok")

    # -------------------------------------------------------------- the checks

    def round(self) -> Round:
        found = Round.objects.filter(game__event=self.event).order_by("-game__number", "-number").first()
        assert found is not None
        return found

    def language(self, step: str) -> None:
        pages = {"console": (self.desk, "fr"), "projector": (self.hall, "fr")}
        pages.update({f"phone {t}": (p, PHONES[t][:2]) for t, p in self.phones.items()})
        for name, (page, language) in pages.items():
            text = invariants.visible_text(page.content())
            self.report.add(
                "language",
                (
                    f"{step}, {name}: {p}"
                    for p in invariants.check_language(text, self.catalogues.foreign_to(language))
                ),
            )

    def review(self, step: str) -> None:
        round = self.round()
        self.desk.wait_for_selector("#review table.review", state="attached")
        listed = invariants.review_rulings(self.desk.inner_html("#review"))
        rulings = list(Ruling.objects.filter(round=round).values_list("pk", flat=True))
        assert len(rulings) == Player.objects.filter(event=self.event).count()
        self.report.add("review", (f"{step}: {p}" for p in invariants.check_review(listed, rulings)))

    def announced(self, step: str) -> str:
        """The top the phones and the projector announce, once they all show the result."""
        round = self.round()
        expected = shown_move(round.chosen, self.event.board, self.event.notation)
        self.hall.wait_for_function(
            "m => (document.querySelector('.hall-top') || {}).textContent?.includes(m)", arg=expected
        )
        for phone in self.phones.values():
            phone.wait_for_function(
                "m => (document.querySelector('#result-title') && document.body.textContent.includes(m))",
                arg=expected,
            )
        seen = {"projector": invariants.announced_top(self.hall.content())}
        seen.update({f"phone {t}": invariants.announced_top(p.content()) for t, p in self.phones.items()})
        self.report.add("top announced", (f"{step}: {p}" for p in invariants.check_top(seen, expected)))
        return expected

    def placed_as_announced(self, step: str, announced: str, round: Round) -> None:
        round.refresh_from_db()
        placed = shown_move(round.chosen, self.event.board, self.event.notation)
        self.report.add(
            "top placed", (f"{step}: {p}" for p in invariants.check_top({"announced": announced}, placed))
        )

    def totals(self, step: str, game: Game) -> None:
        """Every screen gives every player the same total (game ``game``; the cumulated
        standings too)."""
        expected = {row.player.table: row.total for row in game_standings(game)}
        # The phones follow their live streams.
        for table, phone in self.phones.items():
            phone.wait_for_function(
                "t => (document.querySelector('[data-mine=total]') || {}).textContent?.trim() === t",
                arg=str(expected[table]),
            )
        phones = {t: total for t, p in self.phones.items() if (total := invariants.phone_total(p.content()))}
        hall = invariants.standings_totals(self.hall.content())
        self.side.goto(f"{self.base}/console/{self.event.pk}/standings/?game={game.number}")
        console_rows = invariants.standings_totals(self.side.content())
        api = self.side.request.get(
            f"{self.base}/api/events/{self.event.pk}/standings/?game={game.number}"
        ).json()
        cells = [
            line
            for page in pdf_text(render_sheet("standings", event=self.event, game_number=game.number))
            for line in page.splitlines()
        ]
        names = dict(Player.objects.filter(event=self.event).values_list("table", "name"))
        phones_totals = {t: v[0] for t, v in phones.items()}
        views = {
            "console": console_rows,
            "api": {r["player"]["table"]: r["total"] for r in api["rows"]},
            "sheet": invariants.sheet_totals(cells, names),
            # Every player, on the page shown now or in the pages it turns to (hall.js).
            "projector": hall,
        }
        problems = invariants.check_totals(views, expected=expected)
        # The phones show their own tables only: each of those.
        mine = {t: expected[t] for t in phones_totals}
        problems += invariants.check_totals({"phones": phones_totals}, expected=mine)
        self.report.add("totals", (f"{step}: {p}" for p in problems))
        # The event's cumulated standings, on the console and the API.
        cumulated = {row.player.table: row.total for row in event_standings(self.event)}
        self.side.goto(f"{self.base}/console/{self.event.pk}/standings/")
        api_all = self.side.request.get(f"{self.base}/api/events/{self.event.pk}/standings/").json()
        self.report.add(
            "cumulated totals",
            (
                f"{step}: {p}"
                for p in invariants.check_totals(
                    {
                        "console": invariants.standings_totals(self.side.content()),
                        "api": {r["player"]["table"]: r["total"] for r in api_all["rows"]},
                    },
                    expected=cumulated,
                )
            ),
        )

    def public_round_reopens_only_with_a_reason(self, step: str) -> None:
        round = Round.objects.filter(game__event=self.event).order_by("-game__number", "-number").first()
        problems = []
        if (
            round is not None
            and round.first_published_at is not None
            and round.state == Round.State.ADJUDICATED
        ):
            content = self.desk.content()
            if "data-public" not in content or not re.search(r'name="reason" required', content):
                problems.append("the reopen form asks for no reason once the results are public")
            try:
                round_reopen(round=round)
            except ApplicationError:
                pass
            else:
                problems.append("the round reopened without a reason")
        self.report.add("reopen", (f"{step}: {p}" for p in problems))

    def publish(self, step: str) -> str:
        """Publish the results (with the top selected, if any); the top the screens announce."""
        self.click("Publier les résultats")
        self.settled("adjudicated")
        announced = self.announced(f"{step} published")
        self.check(f"{step} published", self.round().game)
        return announced

    def place(self, step: str, announced: str, round: Round) -> None:
        """Place the top: the one announced."""
        self.click(re.compile("^Placer "))
        self.settled("drawn")
        self.placed_as_announced(f"{step} placed", announced, round)
        self.check(f"{step} placed", round.game)

    def check(self, step: str, game: Game | None = None) -> None:
        self.language(step)
        self.public_round_reopens_only_with_a_reason(step)
        if game is not None:
            self.totals(step, game)


@pytest.fixture
def rehearsal(production: str, browser: Any) -> Iterator[Rehearsal]:  # noqa: F811
    # The server's hasher (the tests' own is a fast one it does not know).
    password = PBKDF2PasswordHasher().encode("secret-pass", PBKDF2PasswordHasher().salt())
    user = get_user_model().objects.create(username="arbitre", password=password)
    event = event_create(
        name="Club de Vichy",
        starts_on=dt.date(2026, 11, 28),
        lexicon=lexicon_bundled(name="enable"),
        language="english",
        notation="gcg",
        random_seed=29,
        solo_min_players=12,
        created_by=user,
    )
    csv = "nom;club;licence;catégorie;table\n" + "".join(
        f"{name};Vichy;{1000 + i};{'V' if i % 2 else 'S'};{i}\n" for i, name in enumerate(NAMES, start=1)
    )
    players_import(event=event, csv_text=csv, by=user)
    hall = Rehearsal(production, browser, event)
    try:
        yield hall
    finally:
        for page in hall.phones.values():
            page.context.close()
        hall.desk.context.close()


def test_a_whole_event_agrees_on_every_screen(rehearsal: Rehearsal) -> None:
    hall, event = rehearsal, rehearsal.event
    hall.check("before the game")

    # Game 1, round 1: the first rack typed from a physical draw, seven equal tops.
    hall.desk.fill("input[name=typed]", "AEGINRS")
    hall.click("Commencer la première partie")
    hall.desk.wait_for_selector("#status [data-round-key$='-drawn']", state="attached", timeout=30_000)
    hall.desk.wait_for_function("() => !document.querySelector('#status .busy')", timeout=30_000)
    hall.settled("drawn")
    hall.click("Ouvrir le coup")
    hall.settled("open")
    round = hall.round()
    tops = list(round.tops)
    assert len(tops) == 7
    hall.phone_slip(1, *tops[0].split())
    hall.phone_slip(2, "8D", "GAINER")  # a lower move first...
    hall.phone_slip(2, *tops[1].split())  # ... replaced by a top
    hall.phone_slip(3, "8H", "ZQXJ")  # no such word
    hall.phones[4].locator("#slip button[data-pass]").click()  # the English phone passes
    hall.phones[4].wait_for_selector("#receipt .receipt.ok")
    for table in PAPER:
        if table % 3 == 0:
            hall.paper(table, *tops[table % 7].split())
        elif table % 3 == 1:
            hall.paper(table, "8H", "SEARING", 14)
        # the others hand in nothing: missing
    hall.check("round 1 open")
    hall.click("Fermer le coup", confirm=True)
    hall.settled("adjudicated")
    hall.review("round 1 ruled")
    hall.check("round 1 ruled")
    # Publish with the fourth equal top selected: the one announced, then the one placed.
    hall.desk.get_by_label(tops[3]).check()
    announced = hall.publish("round 1")
    # A correction after the publication (a paper slip read wrong): every screen follows.
    ruling = Ruling.objects.get(round=round, player__table=7)
    hall.side.goto(f"{hall.base}/console/{event.pk}/rulings/{ruling.pk}/")
    hall.side.fill("#id_credited", "5")
    hall.side.fill("#id_reason", "mal lu à la saisie")
    hall.side.get_by_role("button", name="Corriger", exact=True).click()
    hall.side.wait_for_url(re.compile(r"/console/\d+/$"))
    hall.desk.reload()
    hall.settled("adjudicated")
    hall.review("round 1 corrected")
    hall.check("round 1 corrected", round.game)
    hall.place("round 1", announced, round)

    # Round 2: a penalty (a wrong reference with the right score), a late slip.
    hall.click("Ouvrir le coup")
    hall.settled("open")
    round = hall.round()
    top_coordinates, top_word = round.tops[0].split()
    hall.phone_slip(1, top_coordinates, top_word)
    hall.phone_slip(2, top_coordinates, top_word)
    # A move no other placement of its word scores the same: its wrong reference is found.
    ranked = analysis_for(round).ranked
    same = Counter((m.word.upper(), m.score) for m in ranked)
    penalised_move = next(
        m for m in ranked if same[m.word.upper(), m.score] == 1 and m.score > 10 and (m.row, m.col) != (0, 0)
    )
    # Written far from it (the first square, in the move's direction), its score right.
    hall.paper(5, "1A" if penalised_move.across else "A1", penalised_move.word, penalised_move.score)
    hall.paper(6, top_coordinates, top_word)
    hall.click("Fermer le coup", confirm=True)
    hall.settled("adjudicated")
    slip_submit(  # a phone's slip that reached the server after the close
        round=Round.objects.get(pk=round.pk),
        player=Player.objects.get(event=event, table=3),
        coordinates=top_coordinates,
        word=top_word,
        announced_score=None,
    )
    hall.desk.reload()
    hall.settled("adjudicated")
    penalised = Ruling.objects.get(round=round, player__table=5)
    assert penalised.penalty == 5, (penalised.reason, penalised.detail)
    assert Ruling.objects.get(round=round, player__table=3).reason == "late"
    hall.review("round 2 ruled")
    announced = hall.publish("round 2")
    hall.place("round 2", announced, round)
    # The placement undone (the rack drawn after it goes back), then placed again.
    hall.desk.locator("details.unplace summary").first.click()
    hall.click("Annuler la pose", confirm=True)
    hall.settled("adjudicated")
    hall.check("round 2 unplaced", round.game)
    hall.place("round 2 again", announced, round)

    # Game 1 ends; game 2 starts at random, one round played through.
    hall.desk.locator("details.end summary").click()
    hall.click("Terminer la partie maintenant", confirm=True)
    hall.desk.wait_for_selector("text=Commencer la partie suivante")
    first_game = Game.objects.get(event=event, number=1)
    hall.check("game 1 ended", first_game)
    hall.click("Commencer la partie suivante")
    hall.settled("drawn")
    hall.desk.wait_for_function("() => !document.querySelector('#status .busy')", timeout=30_000)
    hall.click("Ouvrir le coup")
    hall.settled("open")
    round = hall.round()
    coordinates, word = round.tops[0].split()
    for table in (1, 4):
        hall.phone_slip(table, coordinates, word)
    hall.paper(8, coordinates, word)
    hall.click("Fermer le coup", confirm=True)
    hall.settled("adjudicated")
    hall.review("game 2, round 1 ruled")
    announced = hall.publish("game 2, round 1")
    hall.place("game 2, round 1", announced, round)
    for name, page in {
        "console": hall.desk,
        "projector": hall.hall,
        **{f"phone-{t}": p for t, p in hall.phones.items()},
    }.items():
        shot(page, f"rehearsal-{name}")

    summary = hall.report.summary()
    SUMMARY.parent.mkdir(parents=True, exist_ok=True)
    SUMMARY.write_text(summary + "\n", "utf-8")
    print("\n" + summary)
    assert not hall.report.problems, summary
