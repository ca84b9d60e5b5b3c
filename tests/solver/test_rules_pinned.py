"""Validation and scoring pinned where mutation testing found them loose (scripts/mutation):
the edges of the board (a word one letter too long, a tile on the last column or row,
which must not wrap to the next row or the other side), the big boards past column 15, the
blanks a rack holds, and the rule settings handed in (docs/rules.md#legal-moves-and-scores).

These tests assert what is accepted, refused and scored: the error's type, its message
code and its parameters (docs/rules.md#messages), never the English sentence.
"""

from __future__ import annotations

import pytest

from solver import rules
from solver.boards import Board
from solver.errors import IllegalMoveError
from solver.lexicon import Lexicon
from solver.move import Move
from solver.rules import Rules
from solver.tiles import rack_codes

BOARDS = ("standard", "grand")
LEX = Lexicon.from_words(["AT", "ATONE", "TA", "TAT", "RAT", "RATS", "TRAINER", "RETRAIN", "NOTE"])


def board_with(name: str, *moves: Move) -> Board:
    """A board of that layout with these words put on it (not validated)."""
    board = Board.empty(name)
    for move in moves:
        board.play(move)
    return board


def board_size(name: str) -> int:
    return Board.empty(name).size


def assert_refused(board: Board, move: Move, rack: str = "ABCDEFG", given: Rules | None = None) -> None:
    """validate (no lexicon) and score both refuse the move."""
    with pytest.raises(IllegalMoveError):
        rules.validate(board, move, rack_codes(rack), None, given)
    with pytest.raises(IllegalMoveError):
        rules.score(board, move, given)


# --- the edges of the board -----------------------------------------------------------


@pytest.mark.parametrize("name", BOARDS)
def test_a_word_ending_on_the_last_column_is_on_the_board_one_letter_more_is_not(name: str) -> None:
    board = board_with(name, Move(7, 0, False, "TA"))
    n = board.size
    # RAT ends on the last square of the row, on a row already holding a tile there.
    board.play(Move(7, n - 2, True, "AT"))
    ok = rules.validate(board, Move(7, n - 3, True, "RAT"), rack_codes("R"), None)
    assert ok.placed == ((7 * n + n - 3, rack_codes("R")[0]),)
    # One letter more would put the S on the first square of the next row.
    assert_refused(board, Move(7, n - 3, True, "RATS"), "RS")


@pytest.mark.parametrize("name", BOARDS)
def test_a_word_ending_on_the_last_row_is_on_the_board_one_letter_more_is_not(name: str) -> None:
    board = board_with(name, Move(0, 7, True, "TA"))
    n = board.size
    board.play(Move(n - 2, 7, False, "AT"))
    ok = rules.validate(board, Move(n - 3, 7, False, "RAT"), rack_codes("R"), None)
    assert ok.placed == (((n - 3) * n + 7, rack_codes("R")[0]),)
    assert_refused(board, Move(n - 3, 7, False, "RATS"), "RS")


@pytest.mark.parametrize("name", BOARDS)
def test_a_word_may_not_start_off_the_board(name: str) -> None:
    board = board_with(name, Move(7, 7, True, "AT"))
    n = board.size
    for move in (Move(7, n, True, "AT"), Move(n, 7, False, "AT"), Move(-1, 7, False, "RAT")):
        assert_refused(board, move)


@pytest.mark.parametrize("name", BOARDS)
def test_a_tile_on_the_last_column_does_not_touch_the_next_rows_first_square(name: str) -> None:
    board = board_with(name, Move(8, 0, True, "AT"))
    n = board.size
    # TA down the last column, rows 7-8 (index 6-7): the square after (7, n-1) in reading
    # order is (8, 0), which holds the A of AT, but it is not a neighbour.
    assert_refused(board, Move(6, n - 1, False, "TA"), "TA")
    # Under the AT it touches.
    assert rules.validate(board, Move(9, 0, True, "TA"), rack_codes("TA"), None).score > 0


@pytest.mark.parametrize("name", BOARDS)
def test_a_tile_on_the_first_column_does_not_touch_the_previous_rows_last_square(name: str) -> None:
    board = board_with(name, Move(6, 0, False, "AT"))  # (6, 0) and (7, 0)
    n = board.size
    board.play(Move(8, n - 2, True, "AT"))  # (8, n-2) and (8, n-1)
    # TA down the first column from row 10: (9, 0) comes after (8, n-1) in reading order.
    assert_refused(board, Move(9, 0, False, "TA"), "TA")


@pytest.mark.parametrize("name", BOARDS)
def test_a_tile_on_the_first_row_does_not_touch_the_last_row(name: str) -> None:
    board = board_with(name, Move(board_size(name) - 2, 3, False, "AT"))  # down to the last row
    assert_refused(board, Move(0, 2, True, "TAT"), "TAT")


@pytest.mark.parametrize("name", BOARDS)
def test_a_tile_on_the_last_row_touches_only_its_neighbours(name: str) -> None:
    n = board_size(name)
    board = board_with(name, Move(n - 2, 3, True, "AT"))
    ok = rules.validate(board, Move(n - 1, 3, True, "TA"), rack_codes("TA"), None)
    assert len(ok.placed) == 2
    alone = board_with(name, Move(0, 3, True, "AT"))
    assert_refused(alone, Move(n - 1, 6, True, "TA"), "TA")


@pytest.mark.parametrize("name", BOARDS)
def test_a_tile_beside_the_first_column_or_row_touches_it(name: str) -> None:
    board = board_with(name, Move(5, 0, False, "AT"), Move(0, 5, True, "AT"))
    assert rules.validate(board, Move(5, 1, False, "TA"), rack_codes("TA"), None).score > 0
    assert rules.validate(board, Move(1, 5, True, "TA"), rack_codes("TA"), None).score > 0


# --- the big boards past column 15 ----------------------------------------------------


def test_a_word_past_column_15_of_the_21x21_board_scores_its_own_squares() -> None:
    board = board_with("grand", Move(10, 16, True, "AT"))  # Q11 R11 (R11 is a triple word)
    scored = rules.validate(board, Move(10, 16, True, "ATONE"), rack_codes("ONE"), LEX)
    # The premiums of Q11..U11 are under the board tiles or plain: face value.
    assert scored.score == 5
    assert [sq for sq, _ in scored.placed] == [10 * 21 + 18, 10 * 21 + 19, 10 * 21 + 20]
    assert_refused(board, Move(10, 16, True, "ATONES"), "ONES")


def test_a_down_word_on_column_21_crossing_a_triple_word() -> None:
    board = board_with("grand", Move(16, 19, True, "AT"))  # T on (16, 20)
    # RAT down the last column ends on the T: R on (14, 20), A on (15, 20).
    scored = rules.validate(board, Move(14, 20, False, "RAT"), rack_codes("RA"), LEX)
    lay = board.layout
    r_sq, a_sq = 14 * 21 + 20, 15 * 21 + 20
    expected = (1 * lay.letter_mult[r_sq] + 1 * lay.letter_mult[a_sq] + 1) * (
        lay.word_mult[r_sq] * lay.word_mult[a_sq]
    )
    assert scored.score == expected


def test_the_generator_and_the_rules_agree_past_column_15() -> None:
    board = board_with("grand", Move(10, 14, True, "NOTE"))  # O11..R11
    moves = [m for m in board.legal_moves("RATSINE", LEX) if any(sq % 21 >= 16 for sq in m.squares(21))]
    assert moves, "no move past column 15"
    for move in moves:
        assert move.score is not None
        tiles = "".join(
            ch.upper() for ch, sq in zip(move.word, move.squares(21), strict=True) if not board.squares[sq]
        )
        assert rules.validate(board, move, rack_codes(tiles), LEX).score == move.score


# --- the blanks of the rack -----------------------------------------------------------


def test_a_marked_blank_is_not_counted_again_for_a_missing_letter() -> None:
    # RaT on the centre: the blank is the A; the rack has no T and no second blank.
    with pytest.raises(IllegalMoveError) as refusal:
        rules.validate(Board.empty(), Move(7, 6, True, "RaT"), rack_codes("?RXYZQJ"), None)
    assert (refusal.value.code, refusal.value.params) == ("no_letter_in_rack", {"letter": "T"})
    scored = rules.validate(Board.empty(), Move(7, 6, True, "RaT"), rack_codes("??RXYZQ"), None)
    assert scored.implied_blanks == 1
    assert scored.score == 2  # R and the centre's double word; both blanks score 0


def test_resolve_blanks_keeps_marked_blanks_with_its_defaults() -> None:
    move, implied = rules.resolve_blanks(Board.empty(), Move(7, 6, True, "RaT"), rack_codes("?RT"))
    assert (move, implied) == (Move(7, 6, True, "RaT"), 0)
    with pytest.raises(ValueError):
        rules.resolve_blanks(Board.empty(), Move(7, 6, True, "RaT"), rack_codes("?RT"), otherwise="coin")


# --- the settings handed in -----------------------------------------------------------

#: RAINTER on F8..L8: the R on L8 is on a double letter, H8 is the double-word centre.
RAINTER = Move(7, 5, True, "RAINTER")


def test_the_bingo_bonus_of_the_rules_is_scored_by_validate_score_and_the_generator() -> None:
    thirty = Rules(bingo_bonus=30)
    trainer = Move(7, 1, True, "TRAINER")  # B8..H8: the A on a double letter, R on the centre
    assert rules.validate(Board.empty(), trainer, rack_codes("TRAINER"), LEX, thirty).score == 16 + 30
    assert rules.score(Board.empty(), trainer, thirty).score == 16 + 30
    generated = {
        (m.row, m.col, m.across, m.word): m.score for m in Board.empty().legal_moves("TRAINER", LEX, thirty)
    }
    assert generated[(7, 1, True, "TRAINER")] == 16 + 30


def test_the_announced_score_reads_an_unmarked_blank_with_the_events_bingo_bonus() -> None:
    # One R in the rack and a blank for the other: with the blank as the F8 R the word
    # scores (0+1+1+1+1+1 + 2) x 2 + 35 = 49; as the L8 R, (1+1+1+1+1+1 + 0) x 2 + 35 = 47.
    rack = rack_codes("RAINTE?")
    given = Rules(bingo_bonus=35)
    low = rules.validate(Board.empty(), RAINTER, rack, None, given, announced=47)
    assert (low.move.word, low.score, low.implied_blanks) == ("RAINTEr", 47, 1)
    high = rules.validate(Board.empty(), RAINTER, rack, None, given, announced=49)
    assert (high.move.word, high.score) == ("rAINTER", 49)


def test_the_first_move_setting_reaches_the_generator() -> None:
    down = Rules(first_move_horizontal=False)
    assert down.gen_settings().first_move_horizontal is False
    assert down.gen_settings().bingo_bonus == 50
    moves = Board.empty().legal_moves("TRAINER", LEX, down)
    assert any(not m.across for m in moves)
    assert all(m.across for m in Board.empty().legal_moves("TRAINER", LEX))
    assert rules.validate(Board.empty(), Move(1, 7, False, "TRAINER"), rack_codes("TRAINER"), LEX, down)
    assert_refused(Board.empty(), Move(1, 7, False, "TRAINER"), "TRAINER")


def test_every_notation_is_a_rules_setting() -> None:
    for notation in ("fisf", "gcg", "scramble"):
        assert Rules(notation=notation).notation == notation


def test_score_gives_the_move_its_words_its_tiles_and_the_bingo() -> None:
    scored = rules.score(Board.empty(), Move(7, 1, True, "TRAINER"))
    assert scored.move == Move(7, 1, True, "TRAINER") and scored.move.score == 66
    assert scored.score == 66
    assert [(w.word, w.score, w.main) for w in scored.words] == [("TRAINER", 16, True)]
    assert [sq for sq, _ in scored.placed] == list(range(7 * 15 + 1, 7 * 15 + 8))
    assert scored.bingo is True
    assert rules.score(Board.empty(), Move(7, 7, True, "AT")).bingo is False


def test_score_and_validate_name_squares_in_the_events_notation() -> None:
    board = board_with("standard", Move(7, 3, True, "AT"))  # D8 E8 in GCG, H4 H5 in FISF
    fisf = Rules(notation="fisf")
    clash = Move(7, 3, True, "TA")  # T where the A is
    before = Move(7, 4, True, "TA")  # starts on the T with the A just before it
    for move, code in ((clash, "letter_conflict"), (before, "letter_just_before")):
        with pytest.raises(IllegalMoveError) as scored:
            rules.score(board, move, fisf)
        with pytest.raises(IllegalMoveError) as validated:
            rules.validate(board, move, rack_codes("TA"), None, fisf)
        for refusal in (scored, validated):
            assert (refusal.value.code, refusal.value.params["square"]) == (code, "H4")


@pytest.mark.parametrize(
    ("word", "rack", "code", "params"),
    [
        ("BAA", "B?Z", "short_of_letter_one_blank", {"lacking": "2 A"}),
        ("ZZZ", "??", "short_of_letter_blanks", {"lacking": "3 Z", "blanks": 2}),
        ("AB", "C", "short_of_letters_no_blank", {"lacking": "1 A", "last": "1 B"}),
        ("ABC", "?", "short_of_letters_one_blank", {"lacking": "1 A, 1 B", "last": "1 C"}),
        ("ABCD", "??", "short_of_letters_blanks", {"lacking": "1 A, 1 B, 1 C", "last": "1 D", "blanks": 2}),
        ("ZA", "A", "no_letter_in_rack", {"letter": "Z"}),
        ("AAB", "AB", "too_few_in_rack", {"have": 1, "letter": "A", "need": 2}),
    ],
)
def test_a_rack_short_of_letters_says_which_and_the_blanks_that_could_stand_in(
    word: str, rack: str, code: str, params: dict[str, object]
) -> None:
    with pytest.raises(IllegalMoveError) as refusal:
        rules.validate(Board.empty(), Move(7, 7, True, word), rack_codes(rack), None)
    assert (refusal.value.code, refusal.value.params) == (code, params)
