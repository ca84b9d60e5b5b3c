"""Reading and writing moves in the fisf, gcg and scramble notations."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.errors import IllegalMoveError, InvalidMoveError
from solver.move import Move
from solver.notation import (
    STYLES,
    format_coord,
    format_move,
    format_word,
    parse_coord,
    parse_move,
    parse_word,
)
from solver.tiles import ALPHABET

# --- coordinates -------------------------------------------------------------------------


def test_fisf_letter_first_is_horizontal():
    assert parse_coord("H4", "fisf") == (7, 3, True)


def test_fisf_number_first_is_vertical():
    assert parse_coord("4H", "fisf") == (7, 3, False)


def test_gcg_number_first_is_horizontal():
    assert parse_coord("8D", "gcg") == (7, 3, True)


def test_gcg_letter_first_is_vertical():
    assert parse_coord("D8", "gcg") == (7, 3, False)


def test_same_text_means_different_squares_in_fisf_and_gcg():
    assert parse_coord("H4", "fisf") == (7, 3, True)
    assert parse_coord("H4", "gcg") == (3, 7, False)


def test_coordinates_ignore_case_and_surrounding_spaces():
    assert parse_coord(" h4 ", "fisf") == (7, 3, True)
    assert parse_coord("8d", "gcg") == (7, 3, True)


def test_scramble_location_is_column_letter_then_row_number():
    assert parse_coord("h8,a", "scramble") == (7, 7, True)
    assert parse_coord("c7,d", "scramble") == (6, 2, False)


def test_scramble_number_first_location_is_the_same_square():
    assert parse_coord("8h,a", "scramble") == parse_coord("h8,a", "scramble")
    assert parse_coord("7C,D", "scramble") == (6, 2, False)


@pytest.mark.parametrize("style", STYLES)
def test_scramble_coordinates_are_accepted_in_every_style(style):
    assert parse_coord("c7 , d", style) == (6, 2, False)


def test_scramble_direction_may_be_spelt_out():
    assert parse_coord("h8,across", "gcg") == (7, 7, True)
    assert parse_coord("h8,DOWN", "gcg") == (7, 7, False)


def test_corners_of_a_19x19_board():
    assert parse_coord("S19", "fisf", 19) == (18, 18, True)
    assert parse_coord("19S", "gcg", 19) == (18, 18, True)
    assert parse_coord("s19,d", "scramble", 19) == (18, 18, False)


def test_corners_of_a_21x21_board():
    assert parse_coord("U21", "fisf", 21) == (20, 20, True)
    assert parse_coord("U21", "gcg", 21) == (20, 20, False)
    assert parse_coord("21u,a", "scramble", 21) == (20, 20, True)


def test_format_coord_in_each_style():
    assert format_coord(7, 3, True, "fisf") == "H4"
    assert format_coord(7, 3, False, "fisf") == "4H"
    assert format_coord(7, 3, True, "gcg") == "8D"
    assert format_coord(7, 3, False, "gcg") == "D8"
    assert format_coord(7, 7, True, "scramble") == "h8,a"
    assert format_coord(6, 2, False, "scramble") == "c7,d"
    assert format_coord(20, 18, False, "gcg") == "S21"


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("size", [15, 19, 21])
def test_every_square_and_direction_reads_back(style, size):
    for row in range(size):
        for col in range(size):
            for across in (True, False):
                text = format_coord(row, col, across, style)
                assert parse_coord(text, style, size) == (row, col, across)


@pytest.mark.parametrize(
    ("text", "style", "size", "message"),
    [
        ("P1", "fisf", 15, "row P is off a 15x15 board"),
        ("A16", "fisf", 15, "column 16 is off a 15x15 board"),
        ("16A", "gcg", 15, "row 16 is off a 15x15 board"),
        ("P1", "gcg", 15, "column P is off a 15x15 board"),
        ("T1", "fisf", 19, "row T is off a 19x19 board"),
        ("A20", "gcg", 19, "row 20 is off a 19x19 board"),
        ("V1", "gcg", 21, "column V is off a 21x21 board"),
        ("22A", "fisf", 21, "column 22 is off a 21x21 board"),
        ("A0", "fisf", 15, "column 0 is off a 15x15 board"),
        ("Z99", "gcg", 15, "column Z is off a 15x15 board"),
        ("99Z", "gcg", 15, "row 99 is off a 15x15 board"),
        ("Z99", "fisf", 15, "row Z is off a 15x15 board"),
        ("99Z", "fisf", 15, "column 99 is off a 15x15 board"),
        ("99z,a", "scramble", 15, "row 99 is off a 15x15 board"),
        ("A99999999999", "gcg", 15, "row 99999999999 is off a 15x15 board"),
        ("p8,a", "fisf", 15, "column P is off a 15x15 board"),
        ("h16,a", "gcg", 15, "row 16 is off a 15x15 board"),
    ],
)
def test_squares_off_the_board_are_refused(text, style, size, message):
    with pytest.raises(InvalidMoveError, match=message):
        parse_coord(text, style, size)


@pytest.mark.parametrize(
    ("text", "style", "message"),
    [
        ("", "gcg", "missing coordinates"),
        ("H", "gcg", "cannot read the coordinates 'H'"),
        ("88", "fisf", "cannot read the coordinates '88'"),
        ("HH8", "gcg", "cannot read the coordinates 'HH8'"),
        ("8H8", "gcg", "cannot read the coordinates '8H8'"),
        ("H 8", "gcg", "cannot read the coordinates 'H 8'"),
        ("H²", "gcg", "cannot read the coordinates"),
        ("Ｈ８", "gcg", "cannot read the coordinates"),
        ("h8,x", "gcg", r"unknown direction 'x': use a \(across\) or d \(down\)"),
        ("h8,", "gcg", "missing direction after h8"),
        (",a", "gcg", "missing coordinates"),
        ("h8,a,d", "gcg", "unexpected text after the direction"),
        ("h8", "scramble", r"missing direction after h8: use a \(across\) or d \(down\)"),
        ("z8", "scramble", "column Z is off a 15x15 board"),
    ],
)
def test_unreadable_coordinates_are_refused(text, style, message):
    with pytest.raises(InvalidMoveError, match=message):
        parse_coord(text, style)


def test_unknown_style_is_refused():
    with pytest.raises(InvalidMoveError, match="unknown notation style 'foo'"):
        parse_coord("H4", "foo")
    with pytest.raises(InvalidMoveError, match="unknown notation style 'foo'"):
        format_coord(7, 3, True, "foo")
    with pytest.raises(InvalidMoveError, match="unknown notation style 'foo'"):
        parse_move("H4 WORD", "foo")
    with pytest.raises(InvalidMoveError, match="unknown notation style 'foo'"):
        format_move(Move(7, 3, True, "WORD"), "foo")


def test_unsupported_board_size_is_refused():
    with pytest.raises(InvalidMoveError, match="unsupported board size 27"):
        parse_coord("H4", "gcg", 27)
    with pytest.raises(InvalidMoveError, match="unsupported board size 0"):
        parse_move("H4 WORD", "gcg", 0)


def test_format_coord_refuses_a_square_no_letter_can_name():
    with pytest.raises(InvalidMoveError):
        format_coord(26, 0, True, "gcg")
    with pytest.raises(InvalidMoveError):
        format_coord(0, -1, True, "fisf")


# --- words -------------------------------------------------------------------------------


def test_uppercase_letters_are_tiles():
    assert parse_word("OXYDANTE") == "OXYDANTE"


def test_lowercase_letters_in_a_mixed_word_are_blanks():
    assert parse_word("oXYDANtE") == "oXYDANtE"


def test_all_lowercase_word_marks_no_blank():
    assert parse_word("fish") == "FISH"
    assert parse_word("a") == "A"


def test_dash_marks_the_next_letter_as_a_blank():
    assert parse_word("b-anana") == "BaNANA"
    assert parse_word("ban-ana") == "BANaNA"
    assert parse_word("-zoo") == "zOO"
    assert parse_word("-z-o-o") == "zoo"


def test_with_a_dash_the_case_of_other_letters_is_ignored():
    assert parse_word("B-ANANA") == "BaNANA"
    assert parse_word("bAn-A-nA") == "BANanA"


def test_accents_are_folded():
    assert parse_word("ÉTÉ") == "ETE"
    assert parse_word("été") == "ETE"
    assert parse_word("ŒUVRE") == "OEUVRE"
    assert parse_word("œuvre") == "OEUVRE"
    assert parse_word("ÇA") == "CA"
    assert parse_word("NAÏF") == "NAIF"


def test_folded_accents_keep_their_case_for_blank_marking():
    assert parse_word("ÉTé") == "ETe"
    assert parse_word("Œuvre") == "OEuvre"
    assert parse_word("-été") == "eTE"


def test_decomposed_accents_are_folded_too():
    assert parse_word("E\u0301TE\u0301") == "ETE"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "missing word"),
        ("   ", "missing word"),
        ("A1B", "the word 'A1B' holds a character that is not a letter"),
        ("FI SH", "holds a character that is not a letter"),
        ("FISH?", "holds a character that is not a letter"),
        ("ı", "holds a character that is not a letter"),
        ("-", "'-' must be followed by a letter"),
        ("fish-", "'-' must be followed by a letter"),
        ("a--b", "'-' must be followed by a letter"),
        ("\u0301", "holds no letter"),
    ],
)
def test_malformed_words_are_refused(text, message):
    with pytest.raises(InvalidMoveError, match=message):
        parse_word(text)


def test_format_word_keeps_lowercase_blanks_in_fisf_and_gcg():
    assert format_word("oXYDANtE", "fisf") == "oXYDANtE"
    assert format_word("BaNANA", "gcg") == "BaNANA"


def test_format_word_in_scramble_marks_blanks_with_dashes():
    assert format_word("BaNANA", "scramble") == "b-anana"
    assert format_word("FISH", "scramble") == "fish"
    assert format_word("zOO", "scramble") == "-zoo"


def test_format_word_of_only_blanks_uses_dashes_so_it_reads_back():
    assert format_word("ab", "gcg") == "-a-b"
    assert parse_word(format_word("ab", "gcg")) == "ab"
    assert parse_word(format_word("e", "fisf")) == "e"


def test_format_word_refuses_what_is_not_a_word():
    with pytest.raises(InvalidMoveError, match="empty word"):
        format_word("", "gcg")
    with pytest.raises(InvalidMoveError, match="not a letter"):
        format_word("A-B", "gcg")


# --- moves -------------------------------------------------------------------------------


def test_parse_fisf_moves_both_directions():
    assert parse_move("H4 OXYDANtE", "fisf") == Move(7, 3, True, "OXYDANtE")
    assert parse_move("4H OXYDANtE", "fisf") == Move(7, 3, False, "OXYDANtE")


def test_parse_gcg_moves_both_directions():
    assert parse_move("8D WORD", "gcg") == Move(7, 3, True, "WORD")
    assert parse_move("D8 WORD", "gcg") == Move(7, 3, False, "WORD")


def test_parse_move_defaults_to_gcg_on_15x15():
    assert parse_move("8H FISH") == Move(7, 7, True, "FISH")


def test_parse_move_tolerates_extra_spaces():
    assert parse_move("  H4    WORD \t", "fisf") == Move(7, 3, True, "WORD")


def test_parse_scramble_moves():
    assert parse_move("h8,a,fish", "scramble") == Move(7, 7, True, "FISH")
    assert parse_move("c7,d,about", "scramble") == Move(6, 2, False, "ABOUT")


def test_parse_scramble_move_with_number_first_and_spaces():
    assert parse_move(" 8h , a , fish ", "scramble") == Move(7, 7, True, "FISH")
    assert parse_move("8H,D,B-ANANA", "scramble") == Move(7, 7, False, "BaNANA")


@pytest.mark.parametrize("style", STYLES)
def test_scramble_moves_are_read_whatever_the_style(style):
    assert parse_move("h8,a,b-anana", style) == Move(7, 7, True, "BaNANA")


def test_dash_blanks_in_fisf_and_gcg_moves():
    assert parse_move("H4 -zoo", "fisf") == Move(7, 3, True, "zOO")
    assert parse_move("8D b-anana", "gcg") == Move(7, 3, True, "BaNANA")


def test_all_lowercase_move_word_marks_no_blank():
    assert parse_move("8d fish", "gcg") == Move(7, 3, True, "FISH")


def test_accented_move_word_is_folded():
    assert parse_move("H4 ÉTÉ", "fisf") == Move(7, 3, True, "ETE")


def test_moves_on_big_boards():
    assert parse_move("S16 FOUR", "fisf", 19) == Move(18, 15, True, "FOUR")
    assert parse_move("U18 FOUR", "gcg", 21) == Move(17, 20, False, "FOUR")
    assert parse_move("u21,a,x", "scramble", 21) == Move(20, 20, True, "X")


def test_parse_move_leaves_the_score_empty():
    assert parse_move("8D WORD").score is None


def test_format_move_in_each_style():
    move = Move(7, 3, True, "BaNANA")
    assert format_move(move, "gcg") == "8D BaNANA"
    assert format_move(move, "fisf") == "H4 BaNANA"
    assert format_move(move, "scramble") == "d8,a,b-anana"
    down = Move(7, 3, False, "FISH")
    assert format_move(down, "gcg") == "D8 FISH"
    assert format_move(down, "fisf") == "4H FISH"
    assert format_move(down, "scramble") == "d8,d,fish"


def test_format_move_defaults_to_gcg_and_backs_move_str():
    move = Move(7, 7, True, "FISH", score=20)
    assert format_move(move) == "8H FISH"
    assert str(move) == "8H FISH"


@pytest.mark.parametrize(
    ("text", "style", "message"),
    [
        ("", "gcg", "empty move"),
        ("   ", "fisf", "empty move"),
        ("H4", "fisf", "missing word after H4"),
        ("h8,a", "gcg", "missing word after h8,a"),
        ("h8,a,", "scramble", "missing word after h8,a"),
        ("h8,a, ", "scramble", "missing word after h8,a"),
        ("Z99 WORD", "gcg", "column Z is off a 15x15 board"),
        ("FISH", "gcg", "cannot read the coordinates 'FISH'"),
        ("WORD 8D", "gcg", "cannot read the coordinates 'WORD'"),
        ("16A WORD", "gcg", "row 16 is off a 15x15 board"),
        ("A16 WORD", "fisf", "column 16 is off a 15x15 board"),
        ("h8,x,fish", "scramble", r"unknown direction 'x': use a \(across\) or d \(down\)"),
        ("h8,,fish", "scramble", "missing direction after h8"),
        (",a,fish", "scramble", "missing coordinates"),
        ("h8 a fish", "scramble", "missing direction after h8"),
        ("8D WORD 12", "gcg", "unexpected text after the word"),
        ("8D WO RD", "gcg", "unexpected text after the word"),
        ("h8,a,fish,12", "scramble", "unexpected text after the word"),
        ("h8,a,fish 12", "scramble", "unexpected text after the word"),
        ("8D A1B", "gcg", "the word 'A1B' holds a character that is not a letter"),
        ("8D fish-", "gcg", "'-' must be followed by a letter"),
        ("h8,a,-", "scramble", "'-' must be followed by a letter"),
    ],
)
def test_malformed_moves_are_refused(text, style, message):
    with pytest.raises(InvalidMoveError, match=message):
        parse_move(text, style)


@pytest.mark.parametrize(
    ("text", "style", "size"),
    [
        ("8H ABCDEFGHI", "gcg", 15),
        ("H8 ABCDEFGHI", "gcg", 15),
        ("O15 AB", "fisf", 15),
        ("15O AB", "fisf", 15),
        ("s19,a,ab", "scramble", 19),
        ("u1,d,abcdefghijklmnopqrstuv", "scramble", 21),
    ],
)
def test_word_running_off_the_board_breaks_a_rule(text, style, size):
    with pytest.raises(IllegalMoveError, match="the word runs off the board"):
        parse_move(text, style, size)


def test_word_ending_on_the_last_square_fits():
    assert parse_move("O1 ABCDEFGHIJKLMNO", "fisf") == Move(14, 0, True, "ABCDEFGHIJKLMNO")
    assert parse_move("8O A", "gcg") == Move(7, 14, True, "A")


# --- properties --------------------------------------------------------------------------


@st.composite
def moves(draw: st.DrawFn) -> tuple[int, Move]:
    size = draw(st.sampled_from((15, 19, 21)))
    across = draw(st.booleans())
    length = draw(st.integers(1, size))
    # The word must fit: only the squares along its direction are limited by its length.
    along = draw(st.integers(0, size - length))
    other = draw(st.integers(0, size - 1))
    row, col = (other, along) if across else (along, other)
    letters = draw(st.lists(st.sampled_from(ALPHABET), min_size=length, max_size=length))
    blanks = draw(st.lists(st.booleans(), min_size=length, max_size=length))
    word = "".join(ch.lower() if blank else ch for ch, blank in zip(letters, blanks, strict=True))
    return size, Move(row, col, across, word)


@given(moves(), st.sampled_from(STYLES))
def test_formatted_moves_read_back_unchanged(sized_move, style):
    size, move = sized_move
    assert parse_move(format_move(move, style), style, size) == move


_PIECES = [
    "H", "h", "A", "O", "P", "S", "T", "U", "V", "Z", "z",
    "0", "1", "4", "8", "15", "16", "19", "20", "21", "22", "99", "007", "99999",
    "H4", "4H", "8D", "D8", "S19", "U21", "h8", "8h",
    ",", ", ", " ,", ",,", " ", "  ", "\t", "\n", "\u00a0",
    "-", "--", "a", "d", "x", "across", "down",
    "WORD", "fish", "oXYDANtE", "b-anana", "-zoo", "é", "É", "œ", "\u0301", "ı", "ß", "²", "٣", "Ｈ",
    "?", "*", "'", "\x00",
]  # fmt: skip

near_valid = st.lists(st.sampled_from(_PIECES), max_size=8).map("".join)


@given(st.one_of(st.text(), near_valid), st.sampled_from(STYLES), st.sampled_from((15, 19, 21)))
def test_junk_text_raises_only_move_errors(text, style, size):
    try:
        move = parse_move(text, style, size)
    except (InvalidMoveError, IllegalMoveError) as error:
        assert str(error)
    else:
        assert isinstance(move, Move)
        assert move.word.isascii()
        assert move.word.isalpha()
        # Whatever was read is a move that can be written and read back.
        assert parse_move(format_move(move, style), style, size) == move


@given(st.text())
def test_junk_words_raise_only_invalid_move_error(text):
    try:
        word = parse_word(text)
    except InvalidMoveError:
        return
    assert word
    assert word.isascii()
    assert word.isalpha()
