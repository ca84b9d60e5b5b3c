"""The sheets' layout (scoring.sheets): every PDF parses and says the right names, scores
and totals. The sheets of an event in the database are in tests/tournaments/test_printing.py."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.utils import translation
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepTogether, Table

from scoring.sheets.base import Sheet
from scoring.sheets.player import PlayerRound, PlayerSheet
from scoring.sheets.round import RoundLine, RoundResultSheet
from scoring.sheets.rounds import GameRound, GameSheet, PlayerLine, RoundsSheet
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


def _sheets() -> list[Sheet]:
    """Every sheet with tables, with long names and clubs, in the active language."""
    long_name = "Jean-Christophe de La Rochefoucauld-Montmorency"
    rows = [_row(1, "Élodie Gaëtan", 1120, 1120), _row(2, long_name, 95, 1120)]
    played = PlayerRound(
        number=1,
        rack="ABCDEFGH",
        top="H4 WORDING",
        top_score=88,
        slip="H4 WORDING 88",
        credited=-88,
        ruling="Top; solo; 1 warning",
        cumulative=-1234,
        top_cumulative=1500,
    )
    line = RoundLine(
        rank=1, table=120, name=long_name, move="H4 WORDING", score=-88, ruling="Top", total=-1234
    )
    game = GameRound(
        number=1, rack="ABCDEFGH", rejected=["AEIOUY"], move="H4 WORD", score=88, cumulative=1288
    )
    scores = [None, *([88, -88] * 24), 120]  # a grand board's fifty rounds, joined at the second
    return [
        StandingsSheet(event_name="Club", rows=rows, top_total=1120, game=1, words=WORDS),
        StandingsSheet(
            event_name="Club",
            rows=rows,
            top_total=1120,
            game=None,
            words=WORDS,
            centres={1: "Riom", 2: "Vichy"},
        ),
        RoundsSheet(
            event_name="Club",
            game=1,
            tops=[88] * 50,
            lines=[PlayerLine(rank=1, name=long_name, scores=scores, total=-1200)],
            words=WORDS,
        ),
        RoundsSheet(event_name="Club", game=1, tops=[88] * 20, lines=[], words=WORDS),
        GameSheet(
            event_name="Club",
            game=1,
            rounds=[game],
            board=[],
            columns=[],
            end="",
            words=WORDS,
        ),
        RoundResultSheet(
            event_name="Club",
            game=1,
            round=3,
            rack="ABC",
            top="H4 X",
            top_score=30,
            placed="H4 X",
            lines=[line],
            words=WORDS,
        ),
        PlayerSheet(event_name="Club", game=1, players=[(long_name, [played])], words=WORDS),
    ]


def _tables(story: list[Flowable]) -> list[Table]:
    found: list[Table] = []
    for flowable in story:
        if isinstance(flowable, KeepTogether):
            found += _tables(flowable._content)
        elif isinstance(flowable, Table) and flowable.repeatRows:  # the final board aside
            found.append(flowable)
    return found


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_header_nor_number_is_wider_than_its_column(language: str) -> None:
    # A line that cannot wrap (a header, a number, a move) runs into its neighbour when it
    # is wider than its column: "Total" and "To the top" read as one word.
    with translation.override(language):
        sheets = _sheets()
        for sheet in sheets:
            tables = _tables(sheet.story())
            assert tables, type(sheet).__name__
            for table in tables:
                for r, row in enumerate(table._cellvalues):
                    for c, value in enumerate(row):
                        if isinstance(value, Flowable):
                            continue  # a paragraph wraps to its column
                        style = table._cellStyles[r][c]
                        width = stringWidth(str(value), style.fontname, style.fontsize)
                        room = table._colWidths[c] - style.leftPadding - style.rightPadding
                        assert width <= room + 1e-6, (type(sheet).__name__, language, value, width, room)
    assert len(_tables(sheets[2].story())) == 2  # fifty rounds: two tables, one under the other
