"""Board layouts against the drawings of the pbmserv Scramble help (docs/rules.md#boards),
the Board position and CGP boards.

The help page's text (a copy in tests/data/seeds/) is parsed here with a small parser of
its own, independent of ``solver.boards.parse_drawing``, and every square is compared.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from solver.boards import LAYOUT_NAMES, Board, Layout, layout, parse_drawing
from solver.formats.cgp import CGPError, format_board, parse_board
from solver.move import Move
from solver.tiles import BLANK_BIT, letter_code, tile_code, tile_set

SEED = Path(__file__).resolve().parents[1] / "data" / "seeds" / "000_f76b0ffb34a19bb0.txt"
# The drawings' legend: (letter multiplier, word multiplier).
MULTIPLIERS = {
    ".": (1, 1),
    "%": (2, 1),
    "@": (3, 1),
    "&": (4, 1),
    "*": (1, 2),
    "#": (1, 3),
    "$": (1, 4),
}
# The order of the drawings in the seed: standard, -large, -broad, -grand, then examples.
BOARD_ORDER = ("standard", "large", "broad", "grand")
SIZES = {"standard": 15, "large": 19, "broad": 21, "grand": 21}


def _seed_drawings() -> list[list[list[str]]]:
    """Every drawing of the seed as rows of cells (a premium symbol or a letter).

    A drawing row is a line ``<n> cell cell ... cell <n>``; a drawing starts at row 1.
    """
    drawings: list[list[list[str]]] = []
    for line in SEED.read_text(encoding="utf-8").splitlines():
        tokens = line.split()
        if len(tokens) < 3 or not tokens[0].isdigit():
            continue
        number = int(tokens[0])
        assert tokens[-1] == tokens[0], line
        if number == 1:
            drawings.append([])
        assert number == len(drawings[-1]) + 1, line
        drawings[-1].append(tokens[1:-1])
    return drawings


DRAWINGS = _seed_drawings()
SEED_BOARDS = dict(zip(BOARD_ORDER, DRAWINGS[:4], strict=True))
EXAMPLES = DRAWINGS[4:]


def test_the_seed_has_four_boards_then_three_example_positions():
    assert [len(d) for d in DRAWINGS] == [15, 19, 21, 21, 15, 15, 15]
    for rows in DRAWINGS:
        assert all(len(row) == len(rows) for row in rows)


@pytest.mark.parametrize("name", BOARD_ORDER)
def test_layout_size_matches_the_seed(name):
    assert layout(name).size == SIZES[name] == len(SEED_BOARDS[name])
    assert layout(name).name == name


@pytest.mark.parametrize("name", BOARD_ORDER)
def test_every_square_symbol_matches_the_seed_drawing(name):
    lay = layout(name)
    rows = SEED_BOARDS[name]
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            assert lay.symbol(r, c) == cell, (name, r + 1, chr(65 + c))
            assert lay.symbols[r * lay.size + c] == cell
    assert len(lay.symbols) == lay.size * lay.size


@pytest.mark.parametrize("name", BOARD_ORDER)
def test_every_square_multiplier_matches_the_seed_legend(name):
    lay = layout(name)
    for r, row in enumerate(SEED_BOARDS[name]):
        for c, cell in enumerate(row):
            square = r * lay.size + c
            assert (lay.letter_mult[square], lay.word_mult[square]) == MULTIPLIERS[cell], (
                name,
                r + 1,
                chr(65 + c),
            )


def test_standard_board_has_the_classic_premium_counts():
    # 8 triple words, 17 double words (centre included), 12 triple and 24 double letters.
    symbols = layout("standard").symbols
    assert {s: symbols.count(s) for s in "#*@%&$"} == {"#": 8, "*": 17, "@": 12, "%": 24, "&": 0, "$": 0}


@pytest.mark.parametrize("name", ["large", "broad", "grand"])
def test_big_boards_have_quadruple_squares_at_the_corners(name):
    lay = layout(name)
    n = lay.size
    for r, c in ((0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)):
        assert lay.symbol(r, c) == "$"
        assert lay.word_mult[r * n + c] == 4


@pytest.mark.parametrize("name", BOARD_ORDER)
def test_drawing_rows_are_the_seed_rows(name):
    assert layout(name).drawing() == [" ".join(row) for row in SEED_BOARDS[name]]


@pytest.mark.parametrize("name", BOARD_ORDER)
def test_centre_is_the_start_square_and_a_double_word(name):
    lay = layout(name)
    half = SIZES[name] // 2
    assert lay.centre == half * lay.size + half
    assert SEED_BOARDS[name][half][half] == "*"
    assert lay.word_mult[lay.centre] == 2
    assert lay.letter_mult[lay.centre] == 1


def test_centre_square_names():
    # H8 on 15x15, J10 on 19x19, K11 on 21x21.
    assert divmod(layout("standard").centre, 15) == (7, 7)
    assert divmod(layout("large").centre, 19) == (9, 9)
    assert divmod(layout("broad").centre, 21) == (10, 10)
    assert divmod(layout("grand").centre, 21) == (10, 10)


SYMMETRIES: dict[str, Callable[[int, int, int], tuple[int, int]]] = {
    "left-right mirror": lambda r, c, n: (r, n - 1 - c),
    "top-bottom mirror": lambda r, c, n: (n - 1 - r, c),
    "main diagonal": lambda r, c, n: (c, r),
    "anti-diagonal": lambda r, c, n: (n - 1 - c, n - 1 - r),
    "quarter turn": lambda r, c, n: (c, n - 1 - r),
    "half turn": lambda r, c, n: (n - 1 - r, n - 1 - c),
}


@pytest.mark.parametrize("symmetry", list(SYMMETRIES))
@pytest.mark.parametrize("name", BOARD_ORDER)
def test_every_board_has_the_full_square_symmetry(name, symmetry):
    # All four drawings are symmetric under the 8 symmetries of the square.
    lay = layout(name)
    n = lay.size
    f = SYMMETRIES[symmetry]
    for r in range(n):
        for c in range(n):
            assert lay.symbol(r, c) == lay.symbol(*f(r, c, n)), (r, c)


@pytest.mark.parametrize("index", range(3))
def test_example_positions_are_drawn_on_the_standard_board(index):
    # Every uncovered square of the seed's example positions shows the standard premium.
    lay = layout("standard")
    rows = EXAMPLES[index]
    covered = 0
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell.isalpha():
                covered += 1
            else:
                assert cell == lay.symbol(r, c), (r + 1, chr(65 + c))
    assert covered == [3, 12, 19][index]


def test_layout_is_cached():
    assert layout("grand") is layout("grand")


@pytest.mark.parametrize("bad", ["huge", "", "Standard", "15"])
def test_unknown_layout_name_is_refused(bad):
    with pytest.raises(ValueError, match="unknown board"):
        layout(bad)


def test_layout_names():
    assert LAYOUT_NAMES == BOARD_ORDER


# --- parse_drawing ---------------------------------------------------------------------


def _drawing_text(rows: list[str]) -> str:
    lines = ["     A B C", ""]
    lines += [f" {i + 1:>2}  {row}  {i + 1}" for i, row in enumerate(rows)]
    lines += ["", "     A B C"]
    return "\n".join(lines)


def test_parse_drawing_reads_a_small_square_drawing():
    lay = parse_drawing("tiny", _drawing_text(["# . $", ". * .", "% @ &"]))
    assert isinstance(lay, Layout)
    assert lay.size == 3
    assert lay.symbols == "#.$.*.%@&"
    assert lay.letter_mult == (1, 1, 1, 1, 1, 1, 2, 3, 4)
    assert lay.word_mult == (3, 1, 4, 1, 2, 1, 1, 1, 1)
    assert lay.centre == 4


def test_parse_drawing_of_the_seed_standard_text_equals_the_layout():
    lines = SEED.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if "A B C D E F G H I J K L M N O" in line)
    text = "\n".join(lines[start : start + 20])
    lay = parse_drawing("standard", text)
    assert lay == layout("standard")


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([" 1  # . .  1", " 3  . * .  3", " 2  . . .  2"], "out of order"),
        ([" 2  # . .  2", " 1  . * .  1", " 3  . . .  3"], "out of order"),
        ([" 1  # . .  1", " 2  . * .  9", " 3  . . .  3"], "unlabelled"),
        ([" 1  # . .  1", " 2  . X .  2", " 3  . . .  3"], "unknown symbol"),
        ([" 1  # . .  1", " 2  . * .  2"], "not square"),
        ([" 1  # . . .  1", " 2  . * .  2", " 3  . . .  3"], "not square"),
        (["no drawing here", "at all"], "not square"),
    ],
)
def test_parse_drawing_refuses_malformed_drawings(rows, message):
    with pytest.raises(ValueError, match=message):
        parse_drawing("bad", "\n".join(rows))


# --- Board -----------------------------------------------------------------------------


def test_empty_board_defaults():
    board = Board.empty()
    assert board.size == 15
    assert board.layout is layout("standard")
    assert board.tiles.total == 100
    assert board.is_empty()
    assert board.tile_count() == 0
    assert board.rows() == ["." * 15] * 15


@pytest.mark.parametrize(
    ("name", "language", "smooth", "total"),
    [
        ("large", "english", True, 161),
        ("large", "french", True, 163),
        ("broad", "english", True, 200),
        ("grand", "french", True, 204),
        ("grand", "english", False, 200),
    ],
)
def test_empty_big_boards_get_their_tile_sets(name, language, smooth, total):
    board = Board.empty(name, language, smooth=smooth)
    assert board.size == SIZES[name]
    assert board.tiles.total == total
    assert board.layout.rack_size == 8


def test_board_refuses_a_wrong_number_of_squares():
    with pytest.raises(ValueError, match="225 squares"):
        Board(layout("standard"), tile_set("english"), [0] * 224)


def test_play_puts_only_the_new_tiles():
    board = Board.empty()
    board.play(Move(7, 7, True, "ZOO"))
    assert board.rows()[7] == ".......ZOO....."
    board.play(Move(7, 7, True, "ZOOm"))  # only the blank M is new
    assert board.rows()[7] == ".......ZOOm...."
    assert board.at(7, 10) == letter_code("M") | BLANK_BIT
    assert board.letter_at(7, 10) == letter_code("M")
    assert board.tile_count() == 4
    assert sorted(board.placed_codes()) == [0, 15, 15, 26]
    board.play(Move(7, 9, False, "ON"))  # down from the second O
    assert board.rows()[8] == ".........N....."
    assert not board.is_empty()


def test_play_refuses_a_placement_on_an_occupied_square():
    board = Board.empty()
    board.play(Move(7, 7, True, "ZOO"))

    class Overlapping:
        """A move whose placements land on a tile (a real Move skips occupied squares)."""

        def placements(self, _board: Board) -> list[tuple[int, int]]:
            return [(7 * 15 + 6, tile_code("A")), (7 * 15 + 7, tile_code("B"))]

    with pytest.raises(ValueError, match="occupied"):
        board.play(Overlapping())  # type: ignore[arg-type]


def test_copy_is_independent_and_equal():
    board = Board.empty()
    board.play(Move(7, 6, True, "QUIz"))
    other = board.copy()
    assert other == board
    assert other is not board
    other.play(Move(8, 6, True, "AT"))
    assert other != board
    assert board.rows()[8] == "." * 15


def test_equality_needs_same_layout_tiles_and_squares():
    assert Board.empty() == Board.empty()
    assert Board.empty() != Board.empty(language="french")
    assert Board.empty("broad") != Board.empty("grand")
    assert Board.empty("grand") != Board.empty("grand", smooth=False)
    assert Board.empty() != "not a board"


def test_rows_write_blanks_lowercase_and_empty_squares_as_dots():
    squares = [0] * 225
    squares[0] = tile_code("A")
    squares[14] = tile_code("b")
    squares[224] = tile_code("Z")
    rows = Board(layout("standard"), tile_set("english"), squares).rows()
    assert rows[0] == "A.............b"
    assert rows[14] == "..............Z"


# --- CGP boards ------------------------------------------------------------------------


def _example_board(index: int) -> Board:
    """A seed example position as a Board, from the test's own parse of the seed."""
    squares = [tile_code(cell) if cell.isalpha() else 0 for row in EXAMPLES[index] for cell in row]
    return Board(layout("standard"), tile_set("english"), squares)


def test_format_board_of_the_seed_example_position():
    board = _example_board(1)
    expected = "/".join(["15"] * 7 + ["7ZOO5", "7E2A4", "7BOAR4", "7R2K4", "7A7"] + ["15"] * 3)
    assert format_board(board) == expected
    assert parse_board(expected) == board


def test_empty_board_cgp():
    assert format_board(Board.empty()) == "/".join(["15"] * 15)
    assert parse_board("/".join(["15"] * 15)) == Board.empty()


@pytest.mark.parametrize(
    "text",
    [
        "/".join(["15"] * 7 + ["3RE1NeCK5", "3E4H6", "3A4E6", "3MEASURE5", "8R6", "8Y6"] + ["15"] * 2),
        "/".join(["Aa12b"] + ["15"] * 13 + ["zZ12Q"]),
        "/".join(["15"] * 7 + ["ABCDEFGHIJKLMNO"] + ["15"] * 7),
    ],
)
def test_cgp_board_round_trip_15(text):
    board = parse_board(text)
    assert board.size == 15
    assert format_board(board) == text


def test_cgp_blanks_are_lowercase():
    text = "/".join(["15"] * 7 + ["7Zoo5"] + ["15"] * 7)
    board = parse_board(text)
    assert board.at(7, 7) == letter_code("Z")
    assert board.at(7, 8) == letter_code("O") | BLANK_BIT
    assert board.rows()[7] == ".......Zoo....."
    assert board.placed_codes().count(0) == 2


@pytest.mark.parametrize(("size", "name"), [(19, "large"), (21, "broad")])
def test_cgp_big_board_round_trip_and_default_layout(size, name):
    rows = [str(size)] * size
    rows[size // 2] = f"{size // 2 - 2}QUiZ{size // 2 - 1}"
    rows[0] = f"a{size - 2}B"
    text = "/".join(rows)
    board = parse_board(text)
    assert board.size == size
    assert board.layout.name == name
    assert board.tiles.total == {19: 161, 21: 200}[size]
    assert board.at(size // 2, size // 2) == letter_code("I") | BLANK_BIT
    assert format_board(board) == text


def test_cgp_21_rows_with_the_grand_layout():
    text = "/".join(["21"] * 21)
    board = parse_board(text, layout("grand"), tile_set("french", 21))
    assert board.layout.name == "grand"
    assert board.tiles.total == 204


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("/".join(["15"] * 7 + ["14"] + ["15"] * 7), "has 14 squares, not 15"),
        ("/".join(["15"] * 7 + ["7ZOO6"] + ["15"] * 7), "has 16 squares, not 15"),
        ("/".join(["15"] * 7 + ["7Z?O5"] + ["15"] * 7), "holds '\\?'"),
        ("/".join(["15"] * 7 + ["7Z.O5"] + ["15"] * 7), "holds '\\.'"),
        ("/".join(["15"] * 7 + ["7ZÖO5"] + ["15"] * 7), "row 8"),
        ("/".join(["15"] * 14), "15, 19 or 21 rows"),
        ("/".join(["20"] * 20), "15, 19 or 21 rows"),
    ],
)
def test_cgp_board_errors(text, message):
    with pytest.raises(CGPError, match=message):
        parse_board(text)


def test_cgp_board_size_must_match_the_layout():
    with pytest.raises(CGPError, match="the large board has 19 rows"):
        parse_board("/".join(["15"] * 15), layout("large"))
