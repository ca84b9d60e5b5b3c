"""The checks the event rehearsal and the hall benchmark make on what the screens show
(bench/invariants.py): each reads what a person reads, and each can fail."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from bench import invariants
from tests.rooms.helpers import url
from tournaments.models import Event

CATALOGUES = invariants.Catalogues.read(Path(settings.BASE_DIR) / "locale")


def test_the_readers_take_what_a_person_reads() -> None:
    standings = (
        '<table class="list standings"><thead><tr><th>Rang</th><th>Table</th><th>Nom</th><th>Total</th>'
        "<th>Négatif</th><th>%</th></tr></thead><tbody><tr><td>1</td><td>3</td><td>Anne</td><td><b>28</b></td>"
        "<td>0</td><td>100,00</td></tr><tr><td>2</td><td>1</td><td>Bob</td><td><b>\u221212</b></td><td>"
        "\u221240</td><td>0,00</td></tr></tbody></table>"
    )
    assert invariants.standings_totals(standings) == {3: 28, 1: -12}
    phone = '<span class="total">Votre total\u00a0: <b data-mine="total">44</b> / 52</span>'
    assert invariants.phone_total(phone) == (44, 52)
    hall = '<div class="hall-top"><p>Top</p><p class="big"><b>8H PROOF</b> 28</p></div>'
    assert invariants.announced_top(hall) == "8H PROOF"
    result = '<section class="result" aria-labelledby="r"><h2>R</h2><p>Top\u00a0: <b>H8 PROOF</b> · 28</p>'
    assert invariants.announced_top(result) == "H8 PROOF"
    assert invariants.announced_top("<p>nothing announced</p>") is None
    assert invariants.review_rulings(
        '<a data-ruling="4">x</a><a class="ref">y</a><a data-ruling="9">z</a>'
    ) == [4, 9]
    assert invariants.sheet_totals(["1", "Anne", "Vichy", "V", "28", "0"], {3: "Anne", 4: "Bob"}) == {3: 28}


def test_each_check_says_what_disagrees() -> None:
    assert invariants.check_top({"phone 1": "8H PROOF", "projector": None}, "8H PROOF") == []
    assert invariants.check_top({"phone 1": "8D PROOF"}, "8H PROOF") == [
        "phone 1 announced '8D PROOF', '8H PROOF' was placed"
    ]
    assert invariants.check_review([1, 2, 2], [1, 2, 3]) == [
        "ruling 2 listed 2 times",
        "ruling 3 missing from the review",
    ]
    assert invariants.check_totals({"api": {1: 10, 2: 5}, "sheet": {1: 10}}) == ["sheet leaves out table 2"]
    assert invariants.check_totals({"api": {1: 10}}, expected={1: 11}) == ["api gives table 1 10, not 11"]
    report = invariants.Report()
    report.add("totals", ["api gives table 1 10, not 11"])
    report.add("totals", [])
    assert "totals: checked 2 times" in report.summary() and "problems: 1" in report.summary()


@pytest.mark.django_db
def test_a_page_in_one_language_shows_no_sentence_of_the_other(event: Event) -> None:
    from django.contrib.auth import get_user_model

    from tournaments.services.games import game_start, round_draw
    from tournaments.services.players import player_add
    from tournaments.services.rounds import round_open

    for name in ("Anne", "Bruno"):
        player_add(event=event, name=name)
    round_open(round=round_draw(game=game_start(event=event)))
    console = Client()
    console.force_login(get_user_model().objects.create_user("chief", password="x", is_staff=True))
    for language in ("fr", "en"):
        page = console.get(url(event), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        text = invariants.visible_text(page)
        assert invariants.check_language(text, CATALOGUES.foreign_to(language)) == [], language
    french = invariants.visible_text(console.get(url(event), HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    leaked = invariants.check_language(french + " Open the round", CATALOGUES.foreign_to("fr"))
    assert leaked == ["shows 'Open the round'"]
    english = invariants.visible_text(console.get(url(event), HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert invariants.check_language(english + " Ouvrir le coup", CATALOGUES.foreign_to("en")) == [
        "shows 'Ouvrir le coup'"
    ]
