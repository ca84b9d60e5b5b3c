"""The sheets' layout (scoring.sheets): every PDF parses and says the right names, scores
and totals. The sheets of an event in the database are in tests/tournaments/test_printing.py."""

from __future__ import annotations

import io
from decimal import Decimal

from django.utils import translation
from pypdf import PdfReader

from scoring.sheets.standings import StandingsSheet
from scoring.standings import PlayerInfo, Row, minus
from tests.helpers import pdf_text as _text
from tournaments.printing import WORDS


def _row(rank: int, name: str, total: int, top: int) -> Row:
    return Row(
        rank=rank,
        player=PlayerInfo(id=rank, name=name, club="Vichy", category="A", table=rank),
        total=total,
        tops=1,
        solos=0,
        warnings=2,
        penalties=0,
        diff=total - top,
        percent=Decimal(100 * total / top).quantize(Decimal("0.01")),
        letterpoints=0,
        ratio=None,
        rounds=3,
    )


def test_the_minus_sign_is_the_typographic_one() -> None:
    assert minus(-10) == "\u221210" and minus(0) == "0" and minus(5) == "5"


def test_a_standings_sheet_with_accents_and_the_minus_sign() -> None:
    rows = [_row(1, "Élodie Gaëtan", 120, 120), _row(2, "Jérôme Œuvray", 95, 120)]
    with translation.override("fr"):
        pdf = StandingsSheet(
            event_name="Festival de Vichy", rows=rows, top_total=120, game=1, words=WORDS
        ).render()
    (page,) = _text(pdf)
    for expected in (
        "Festival de Vichy",
        "Élodie Gaëtan",
        "Jérôme Œuvray",
        "\u221225",
        "79,17",
        "page 1 sur 1",
    ):
        assert expected in page, expected
    fonts = PdfReader(io.BytesIO(pdf)).pages[0]["/Resources"]["/Font"]
    assert all("DejaVu" in str(font.get_object()["/BaseFont"]) for font in fonts.values())  # embedded TTF


def test_three_hundred_players_paginate_with_the_header_on_every_page() -> None:
    rows = [_row(i, f"Joueur {i:03d}", 1000 - i, 1000) for i in range(1, 301)]
    with translation.override("en"):
        pdf = StandingsSheet(
            event_name="Simultané", rows=rows, top_total=1000, game=None, words=WORDS
        ).render()
    pages = _text(pdf)
    assert len(pages) >= 5
    for number, page in enumerate(pages, start=1):
        assert "Rank" in page and "To the top" in page  # the repeated header row
        assert f"page {number} of {len(pages)}" in page
    everything = "\n".join(pages)
    assert all(f"Joueur {i:03d}" in everything for i in range(1, 301))
    assert "12.30" not in everything and "70.00" in everything  # 700 of 1000, English decimals


def test_a_sheet_without_the_callers_words_is_in_english_with_decimal_points() -> None:
    # The layout is pure: with no translation handed in it says its own (English) words,
    # whatever language Django has active.
    rows = [_row(1, "Élodie Gaëtan", 95, 120)]
    with translation.override("fr"):
        pdf = StandingsSheet(event_name="Club", rows=rows, top_total=120, game=2).render()
    (page,) = _text(pdf)
    assert "Standings, game 2" in page and "page 1 of 1" in page and "79.17" in page
    assert "Classement" not in page
