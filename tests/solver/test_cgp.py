"""CGP positions in and out."""

from __future__ import annotations

import pytest

from solver.boards import layout
from solver.formats.cgp import CGPError, format_board, format_position, parse_position
from solver.tiles import rack_codes, tile_set
from tests.conftest import corpus_rows


@pytest.mark.parametrize("file", ["enable-15.jsonl", "bigboards.jsonl"])
def test_every_corpus_board_round_trips(file: str) -> None:
    for row in corpus_rows(file):
        position = parse_position(f"{row['board']} {row['rack']}")
        assert format_board(position.board) == row["board"]


def test_blanks_on_the_board_stay_lowercase_and_rack_blanks_are_question_marks() -> None:
    text = "15/15/15/15/15/15/15/3GRAzED6/15/15/15/15/15/15/15 AB?"
    position = parse_position(text)
    assert position.board.rows()[7] == "...GRAzED......"
    assert position.rack == rack_codes("AB?")
    assert format_position(position.board, position.rack).startswith(text.replace(" AB?", " AB?/"))


def test_a_21x21_board_defaults_to_broad_unless_told() -> None:
    empty21 = "/".join(["21"] * 21)
    assert parse_position(empty21).board.layout.name == "broad"
    grand = layout("grand")
    assert parse_position(empty21, grand, tile_set("french", 21)).board.layout.name == "grand"


def test_opcodes_and_score_fields_are_kept() -> None:
    position = parse_position(
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ABC/DEF 10/20 0 lex ENABLE; note x y;"
    )
    assert position.opcodes == {"lex": "ENABLE", "note": "x y"}
    assert position.extra == ["10/20", "0"]
    assert format_position(position.board, position.rack, "ENABLE").endswith("lex ENABLE;")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A", "15, 19 or 21 rows"),
        (
            "15/15/15/15/15/15/15/15/15/15/15/15/15/15/16 A",
            "row 15 of the CGP board has 16 squares",
        ),
        ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/7.7 A", "holds '.'"),
    ],
)
def test_a_bad_position_is_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(CGPError, match=message):
        parse_position(text)


@pytest.mark.parametrize("run", ["99999999999", "9" * 22, "1٣"])
def test_a_huge_or_non_ascii_run_of_empty_squares_is_refused_at_once(run: str) -> None:
    with pytest.raises(CGPError):
        parse_position(f"{run}/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AB")


def test_output_uses_the_standard_cgp_fields() -> None:
    position = parse_position("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AB")
    assert format_position(position.board, position.rack, "NWL20").endswith(" AB/ 0/0 0 lex NWL20;")
