"""Slip rulings pinned where mutation testing found them loose (scripts/mutation,
docs/rules.md#adjudication): the settings that must reach their rule, the board's edges in
the last-letter, raccord and nearby searches, which of several placements is chosen, the
blank reading the announced score names on every path, the codes and parameters of the
notes, and the one-point top of credit_round.

English values (A 1, B 3, C 3, M 3, N 1, O 1, S 1, T 1, X 8, blank 0), boards drawn from
``Move(row, col, across, word)``, 0-based. Premiums used on the standard board: (7, 7) the
centre and (13, 13) double word; (0, 0) and (14, 0) triple word; (5, 9) triple letter;
(6, 8), (8, 6), (8, 8), (7, 3), (7, 11), (11, 14) double letter. In FISF notation a
letter first is across (``H8``: row H, column 8), a number first down (``8H``).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.adjudication import (
    AdjudicationSettings,
    Note,
    Reason,
    SlipInput,
    Verdict,
    accept_shift,
    adjudicate_slip,
    credit_round,
    solo_winner,
    unreadable,
)
from solver.boards import Board
from solver.lexicon import Lexicon
from solver.move import Move
from solver.rules import Rules
from solver.tiles import rack_codes

WORDS = ["CAT", "CATS", "ACT", "AT", "TA", "TACIT", "NO", "AN", "TO", "SCAT", "SCATS", "TOOT", "BAA", "ARC"]
LEX = Lexicon.from_words(WORDS, name="adjudication-pinned")
RULES = Rules(notation="fisf")
#: The event lets the first word go down (Rules.first_move_horizontal off).
DOWN_FIRST = Rules(notation="fisf", first_move_horizontal=False)
FISF = AdjudicationSettings()
#: The FISF rulings with the first slip judged at its reference.
NO_FIRST = replace(FISF, first_slip_best_placement=False)
#: The arbitrator's nearby choice, as the other test files set it.
NEARBY = AdjudicationSettings(reference_rule="nearby", first_slip_best_placement=False, raccord=False)
#: Every fault of a slip is a warning (FISF 5.8 off).
SEVERAL = replace(FISF, single_warning=False)


def _board(*moves: Move, name: str = "standard") -> Board:
    board = Board.empty(name)
    for move in moves:
        board.play(move)
    return board


def _cat() -> Board:
    """CAT across from the centre: C (7, 7), A (7, 8), T (7, 9); FISF H8 CAT."""
    return _board(Move(7, 7, True, "CAT"))


def _judge(
    coords: str,
    word: str,
    announced: int | None = None,
    *,
    rack: str = "SEINORD",
    board: Board | None = None,
    settings: AdjudicationSettings = FISF,
    rules: Rules = RULES,
) -> Verdict:
    slip = SlipInput(coords, word, announced)
    return adjudicate_slip(_cat() if board is None else board, rack_codes(rack), LEX, rules, settings, slip)


def _codes(verdict: Verdict) -> list[str]:
    return [note.code for note in verdict.notes]


# --- notes and slips as typed ------------------------------------------------------------


def test_a_note_as_a_dict_has_its_code_and_a_copy_of_its_parameters() -> None:
    params = {"move": "H8 CATS", "score": 6}
    stored = Note("scores", params).to_dict()
    assert stored == {"code": "scores", "params": {"move": "H8 CATS", "score": 6}}
    assert stored["params"] is not params


def test_spaces_inside_the_coordinates_are_dropped_before_reading_them() -> None:
    # ACT down column 10 ending on the T: 1 x 3 (triple letter) + 3 + 1 = 7. Read as 10F,
    # it is the written location: no penalty (a wrong reference would cost 5).
    verdict = _judge("10 F", "ACT", 7, rack="ACEINOR")
    assert (verdict.reason, verdict.move, verdict.score, verdict.penalty) == (Reason.OK, "J6 ACT", 7, 0)
    assert _codes(verdict) == ["scores"]


@pytest.mark.parametrize(("coords", "code"), [("", "missing_coordinates"), ("Z99", "row_off_board")])
def test_a_word_that_cannot_be_read_is_not_searched_for(coords: str, code: str) -> None:
    # FISF 2016 rule and raccord on: with no word to look for, the slip stays unreadable,
    # said by the first fault the parser meets.
    verdict = _judge(coords, "CA1S", 6)
    assert (verdict.reason, verdict.score, verdict.move) == (Reason.UNREADABLE, 0, "")
    assert _codes(verdict) == [code]


def test_a_missing_score_is_one_warning_even_when_faults_are_counted_one_by_one() -> None:
    verdict = _judge("H8", "CATS", None, settings=SEVERAL)
    assert (verdict.score, verdict.warnings) == (6, 1)
    assert _codes(verdict) == ["scores", "no_score_announced"]


def test_the_words_not_in_the_list_and_what_the_move_would_have_scored() -> None:
    # CATX at H8: 3 + 1 + 1 + 8 = 13, the cap of an average given instead of a second 0.
    verdict = _judge("H8", "CATX", 14, rack="SXEINOR")
    assert verdict.reason == Reason.NOT_IN_LEXICON
    assert verdict.notes == (Note("not_in_lexicon_one", {"words": "CATX", "score": 13}),)


# --- first round ---------------------------------------------------------------------------
# TACIT on an empty board. Rack TACITEO: 16 from H4 (first T on the double letter (7, 3))
# and from H8 (last T on (7, 11)). Rack TACI?EO: the blank is one T; the best is 14, at H8
# with the blank on the first T, at H4 with the blank on the last.


@pytest.mark.parametrize(
    ("word", "setting", "warnings", "codes"),
    [
        ("TACIT", True, 1, ["scores", "blank_not_marked"]),
        ("TACIT", False, 0, ["scores"]),
    ],
)
def test_the_first_slips_blank_fault_by_its_code_and_setting(
    word: str, setting: bool, warnings: int, codes: list[str]
) -> None:
    settings = replace(FISF, unmarked_blank_warning=setting)
    verdict = _judge("H8", word, 14, rack="TACI?EO", board=Board.empty(), settings=settings)
    assert (verdict.reason, verdict.move, verdict.score) == (Reason.OK, "8H tACIT", 14)
    assert verdict.warnings == warnings
    assert _codes(verdict) == codes


@pytest.mark.parametrize("setting", [True, False])
def test_the_first_slips_circled_blank_is_paid_where_that_reading_scores_the_maximum(setting: bool) -> None:
    # FISF 5.4.2.a, "quel que soit l'encerclement éventuel" (issue 29, item 19): TACIt, the
    # blank on the last T, scores the maximum 14 at H4: paid there, no warning.
    settings = replace(FISF, unmarked_blank_warning=setting)
    verdict = _judge("H8", "TACIt", 14, rack="TACI?EO", board=Board.empty(), settings=settings)
    assert (verdict.reason, verdict.move, verdict.score, verdict.warnings) == (Reason.OK, "8D TACIt", 14, 0)
    assert "blank_misplaced" not in _codes(verdict)


def test_a_first_slips_blank_circled_on_a_letter_it_cannot_be_there_is_a_warning() -> None:
    # The I circled, but the rack has no blank: the circle is wrong, a warning.
    verdict = _judge("H8", "TACiT", 16, rack="TACITEO", board=Board.empty())
    assert (verdict.reason, verdict.score, verdict.warnings) == (Reason.OK, 16, 1)
    assert _codes(verdict)[-1] == "blank_misplaced"


def test_a_first_word_not_in_the_list_is_recorded_at_its_placement_nearest_the_slip() -> None:
    # CITAT fits through the centre from H4 to H8; the slip says H8, the last in board order.
    verdict = _judge("H8", "CITAT", 16, rack="TACITEO", board=Board.empty())
    assert verdict == Verdict(
        Reason.NOT_IN_LEXICON,
        (Note("not_in_lexicon_one", {"words": "CITAT", "score": 16}),),
        move="8H CITAT",
        invalid_words=("CITAT",),
    )


@pytest.mark.parametrize(
    ("notation", "coords", "move"),
    [
        ("gcg", "8D", "8D TACIT"),  # GCG 8D: row 8, column D, across: the H4 of FISF
        ("gcg", "8H", "8H TACIT"),
        ("fisf", "d8,a", "8D TACIT"),
        ("fisf", "d8,a,", "8D TACIT"),  # a stray comma after the direction
    ],
)
def test_the_first_slips_reference_is_read_in_the_events_notation(
    notation: str, coords: str, move: str
) -> None:
    # Both best placements score 16: the one written is paid, with no "first round" note.
    settings = replace(FISF, notation=notation)
    verdict = _judge(coords, "TACIT", 16, rack="TACITEO", board=Board.empty(), settings=settings)
    assert (verdict.move, verdict.score, verdict.warnings) == (move, 16, 0)
    assert _codes(verdict) == ["scores"]


def test_a_scramble_square_without_its_direction_is_no_first_round_location() -> None:
    # 8h in the scramble style names a square but no direction: the best placement is said.
    settings = replace(FISF, notation="scramble")
    verdict = _judge("8h", "TACIT", 16, rack="TACITEO", board=Board.empty(), settings=settings)
    assert verdict.move == "8H TACIT"
    assert verdict.notes[0] == Note("first_round", {"move": "h8,a,tacit"})


# --- a blank circled on the wrong letter: read again without the circles ------------------------


def test_a_word_written_all_in_blanks_is_read_again_as_tiles() -> None:
    # -c-a-t-s marks every letter a blank; the rack has none and gives the S: a warning.
    verdict = _judge("H8", "-c-a-t-s", 6)
    assert (verdict.reason, verdict.move, verdict.score, verdict.warnings) == (Reason.OK, "8H CATS", 6, 1)
    assert _codes(verdict) == ["scores", "blank_misplaced"]


def test_read_again_the_words_are_still_checked_against_the_list() -> None:
    verdict = _judge("H8", "CATx", 13, rack="SXEINOR")
    assert (verdict.reason, verdict.invalid_words, verdict.score) == (Reason.NOT_IN_LEXICON, ("CATX",), 0)


def test_read_again_the_events_rules_apply() -> None:
    # A first word down (8H from the centre) with a circle and no blank in the rack, in an
    # event that allows a first word down: (3 + 1 + 1 + 1) x 2 = 12 and a warning.
    verdict = _judge(
        "8H", "CATs", 12, rack="CATSEIN", board=Board.empty(), settings=NO_FIRST, rules=DOWN_FIRST
    )
    assert (verdict.reason, verdict.move, verdict.score, verdict.warnings) == (Reason.OK, "H8 CATS", 12, 1)


@pytest.mark.parametrize("announced", [12, None])
def test_read_again_an_unmarked_blank_takes_the_events_reading(announced: int | None) -> None:
    # TaCIT on rack TACI?EO: the rack has the A, the blank is a T. Without a reading
    # scoring the announced score, the lowest: the blank on the last T, 12 (not 14).
    verdict = _judge("H8", "TaCIT", announced, rack="TACI?EO", board=Board.empty(), settings=NO_FIRST)
    assert (verdict.move, verdict.move_score) == ("8H TACIt", 12)


# --- wrong or missing reference: the FISF 2016 rule -----------------------------------------------


def test_a_reference_written_the_other_way_round_in_the_corner() -> None:
    # TA down from (0, 2); CAT across row A from the corner ends on its T: C on the triple
    # word (3 + 1 + 1) x 3 = 15. 1A reads down from the corner, where CAT is not connected.
    board = _board(Move(0, 2, False, "TA"))
    verdict = _judge("1A", "CAT", 15, rack="CAEINOR", board=board)
    assert (verdict.reason, verdict.move, verdict.score, verdict.warnings) == (Reason.OK, "1A CAT", 15, 1)
    assert verdict.notes[0] == Note("reference_inverted", {"written": "1A", "move": "A1 CAT"})


@pytest.mark.parametrize(("announced", "move"), [(14, "8H tACIT"), (12, "8H TACIt")])
def test_a_reference_the_other_way_round_reads_the_blank_the_announced_score_names(
    announced: int, move: str
) -> None:
    # 8H (down) is not allowed for a first word; H8 across is, with both readings.
    verdict = _judge("8H", "TACIT", announced, rack="TACI?EO", board=Board.empty(), settings=NO_FIRST)
    assert (verdict.reason, verdict.move, verdict.move_score, verdict.score) == (
        Reason.OK,
        move,
        announced,
        announced,
    )
    assert _codes(verdict)[0] == "reference_inverted"


def test_a_square_without_direction_is_not_a_reference_the_other_way_round() -> None:
    # Scramble style, h8 without ",a": no direction to invert; CATS is searched for and
    # paid at H8 with the penalty (raccord off, else CATS prolonging CAT would locate it).
    settings = replace(FISF, notation="scramble", raccord=False)
    verdict = _judge("h8", "CATS", 6, settings=settings)
    assert (verdict.reason, verdict.move, verdict.score, verdict.penalty) == (
        Reason.WRONG_REFERENCE,
        "8H CATS",
        6,
        5,
    )
    assert verdict.notes[0] == Note(
        "reference_wrong", {"written": "h8", "move": "h8,a,cats", "score": 6, "penalty": 5}
    )


def test_of_the_placements_scoring_the_announced_score_the_nearest_is_paid() -> None:
    # First word down allowed, judged at its reference: 8J (down from J8) holds no centre.
    # TACIT on rack TACI?EO scores 14 down from D8 (the first T on the double letter (3, 7),
    # the blank on the last) and down from H8 (the blank on the first T, the last on the
    # double letter (11, 7)); H8 is the nearer.
    verdict = _judge(
        "8J", "TACIT", 14, rack="TACI?EO", board=Board.empty(), settings=NO_FIRST, rules=DOWN_FIRST
    )
    assert (verdict.reason, verdict.move, verdict.score, verdict.penalty) == (
        Reason.WRONG_REFERENCE,
        "H8 tACIT",
        14,
        5,
    )
    assert verdict.notes[0] == Note(
        "reference_wrong", {"written": "8J", "move": "8H tACIT", "score": 14, "penalty": 5}
    )


def test_the_search_reads_the_blank_the_announced_score_names() -> None:
    # H9 TACIT holds no centre. Across through it, 14 is the blank on the first T from H8
    # or on the last from H4 (the lowest reading is 12 everywhere): H8 is the nearer.
    verdict = _judge("H9", "TACIT", 14, rack="TACI?EO", board=Board.empty(), settings=NO_FIRST)
    assert (verdict.reason, verdict.move, verdict.score, verdict.penalty) == (
        Reason.WRONG_REFERENCE,
        "8H tACIT",
        14,
        5,
    )


# --- the last letter, already on the board, left out or miswritten -----------------------------


@pytest.mark.parametrize(("word", "code"), [("AC", "last_letter_omitted"), ("ACX", "last_letter_miswritten")])
def test_the_last_letter_on_the_last_row(word: str, code: str) -> None:
    # AT across the bottom row ends on (14, 14); ACT down the last column ends on its T:
    # 1 + 3 + 1 = 5, exactly the penalty: paid 5 less 5 (only less than 5 is 0).
    board = _board(Move(14, 13, True, "AT"))
    verdict = _judge("15M", word, 5, rack="ACEINOR", board=board)
    assert (verdict.reason, verdict.move, verdict.move_score, verdict.score, verdict.penalty) == (
        Reason.OMITTED_LETTERS,
        "O13 ACT",
        5,
        5,
        5,
    )
    assert verdict.notes[0] == Note(code, {"letter": "T", "move": "15M ACT", "score": 5, "penalty": 5})


def test_the_last_letter_left_out_of_an_across_word_on_the_last_column() -> None:
    # TA down the last column from (13, 14); CAT across row N ends on its T: the A on the
    # double word (13, 13): (3 + 1 + 1) x 2 = 10.
    board = _board(Move(13, 14, False, "TA"))
    verdict = _judge("N13", "CA", 10, rack="ACEINOR", board=board)
    assert (verdict.reason, verdict.move, verdict.score, verdict.penalty) == (
        Reason.OMITTED_LETTERS,
        "14M CAT",
        10,
        5,
    )
    assert verdict.notes[0] == Note(
        "last_letter_omitted", {"letter": "T", "move": "N13 CAT", "score": 10, "penalty": 5}
    )


@pytest.mark.parametrize(("word", "code"), [("CA", "last_letter_omitted"), ("CAA", "last_letter_miswritten")])
def test_the_last_letter_after_a_letter_of_the_board(word: str, code: str) -> None:
    # AT on H9-H10; CAT from the centre: (3 + 1 + 1) x 2 = 10. The A written is the
    # board's; the T is left out, or written as a second A.
    board = _board(Move(7, 8, True, "AT"))
    verdict = _judge("H8", word, 10, rack="CEINORS", board=board)
    assert (verdict.reason, verdict.move, verdict.score, verdict.penalty) == (
        Reason.OMITTED_LETTERS,
        "8H CAT",
        10,
        5,
    )
    assert verdict.notes[0] == Note(code, {"letter": "T", "move": "H8 CAT", "score": 10, "penalty": 5})


def test_a_miswritten_last_letter_that_the_word_has_elsewhere() -> None:
    # BAA down column 9 ends on the A of CAT: B 3 + A 1 x 2 (double letter) + A 1 = 6.
    # Written BAT: its T is a miswritten A, though the word has an A before it.
    verdict = _judge("9F", "BAT", 6, rack="BAEINOR")
    assert (verdict.reason, verdict.move, verdict.score, verdict.penalty) == (
        Reason.OMITTED_LETTERS,
        "I6 BAA",
        6,
        5,
    )
    assert verdict.notes[0] == Note(
        "last_letter_miswritten", {"letter": "A", "move": "9F BAA", "score": 6, "penalty": 5}
    )


def test_a_last_letter_worth_less_than_the_penalty_keeps_the_written_ruling() -> None:
    # AT down column 10 ends on the T of CAT: 1 + 1 = 2 < 5. Written AX: the X is a
    # miswritten T; the slip stays illegal, said why.
    verdict = _judge("10G", "AX", 2, rack="AEINORS")
    assert (verdict.reason, verdict.score, verdict.penalty) == (Reason.ILLEGAL, 0, 0)
    assert _codes(verdict) == ["letter_conflict", "penalty_too_high"]
    assert verdict.notes[1] == Note("penalty_too_high", {"move": "10G AT", "score": 2, "penalty": 5})


def test_the_whole_word_is_read_with_the_blank_the_announced_score_names() -> None:
    # TOOT down column 10 ends on the T of CAT, rack TO?EINR: the blank is an O. On the
    # triple letter (5, 9): 1 + 0 + 1 + 1 = 3; on (6, 9): 1 + 3 + 0 + 1 = 5.
    verdict = _judge("10E", "TOO", 5, rack="TO?EINR")
    assert (verdict.reason, verdict.move, verdict.move_score) == (Reason.OMITTED_LETTERS, "J5 TOoT", 5)


# --- raccord: which board letters locate a word ------------------------------------------------


@pytest.mark.parametrize(
    ("board", "word", "rack", "move", "score"),
    [
        # NO under the A and T of CAT (AN and TO down): the raccord touches above its tiles.
        (_cat(), "NO", "NOEIRSD", "I9 NO", 8),
        # TA over them (TA and AT down), the T on a double letter: 3 + 3 + 2 = 8 (TA
        # down from the T of CAT, 2, would have the raccord in it): below.
        (_cat(), "TA", "TAEIRSD", "G9 TA", 8),
        # CAT down column 8: NO to the right of its A and T, the raccord on their left.
        (_board(Move(7, 7, False, "CAT")), "NO", "NOEIRSD", "9I NO", 8),
        # TA to the left: the raccord on their right.
        (_board(Move(7, 7, False, "CAT")), "TA", "TAEIRSD", "7I TA", 8),
    ],
)
def test_raccord_letters_beside_the_new_tiles(
    board: Board, word: str, rack: str, move: str, score: int
) -> None:
    # No board letter is in the word: CAT locates it only by touching its new tiles.
    verdict = _judge("CAT", word, score, rack=rack, board=board)
    assert (verdict.reason, verdict.score, verdict.warnings, verdict.penalty) == (Reason.OK, score, 0, 0)
    assert verdict.notes[0] == Note("raccord", {"letters": "CAT", "move": move})


def test_raccord_letters_on_the_last_row_beside_the_first_column() -> None:
    # CAT on O2-O4; SCAT from the corner O1 puts the S on the triple word: (1 + 3 + 1 + 1) x 3.
    board = _board(Move(14, 1, True, "CAT"))
    verdict = _judge("CAT", "SCAT", 18, rack="SEINORD", board=board)
    assert (verdict.reason, verdict.score, verdict.warnings) == (Reason.OK, 18, 0)
    assert verdict.notes[0] == Note("raccord", {"letters": "CAT", "move": "O1 SCAT"})


def test_raccord_letters_down_the_last_column() -> None:
    # CAT down column 15 to the bottom row; SCAT from (11, 14), the S on a double letter: 7.
    board = _board(Move(12, 14, False, "CAT"))
    verdict = _judge("CAT", "SCAT", 7, rack="SEINORD", board=board)
    assert (verdict.reason, verdict.score) == (Reason.OK, 7)
    assert verdict.notes[0] == Note("raccord", {"letters": "CAT", "move": "15L SCAT"})


def test_raccord_letters_that_fit_no_run_near_the_last_row() -> None:
    # No CT run on the board (C sits on the last row): no raccord; SCAT prolongs CAT.
    board = _board(Move(14, 1, True, "CAT"))
    verdict = _judge("CT", "SCAT", 18, rack="SEINORD", board=board)
    assert (verdict.reason, verdict.score) == (Reason.OK, 18)
    assert verdict.notes[0] == Note("prolongation", {"word": "CAT", "move": "O1 SCAT"})


def test_a_raccord_letter_in_the_corner() -> None:
    # Board: TA down from the corner, AT across row B from it. AT down column 2 from A2
    # (TA across the first row): 2 + 2 = 4. Of the raccord TA (down column 1), only the
    # corner's T touches the new A; two raccord letters are a warning (FISF 5.5).
    board = _board(Move(0, 0, False, "TA"), Move(1, 0, True, "AT"))
    verdict = _judge("TA", "AT", 4, rack="AEINORS", board=board)
    assert (verdict.reason, verdict.move, verdict.score, verdict.warnings) == (Reason.OK, "B1 AT", 4, 1)
    assert verdict.notes[0] == Note("raccord", {"letters": "TA", "move": "2A AT"})
    assert _codes(verdict)[-1] == "raccord_two_letters"


def test_two_raccord_letters_after_a_two_letter_first_word_are_no_fault() -> None:
    # The board holds only the first word AT (H8-H9): CAT from H7 is the second move.
    board = _board(Move(7, 7, True, "AT"))
    verdict = _judge("AT", "CAT", 5, rack="CEINORS", board=board)
    assert (verdict.reason, verdict.score, verdict.warnings) == (Reason.OK, 5, 0)
    assert _codes(verdict) == ["raccord", "scores"]


def test_two_raccord_letters_are_one_warning_when_faults_are_counted_one_by_one() -> None:
    verdict = _judge("AT", "ACT", 7, rack="ACEINOR", settings=SEVERAL)
    assert (verdict.reason, verdict.score, verdict.warnings) == (Reason.OK, 7, 1)
    assert _codes(verdict) == ["raccord", "scores", "raccord_two_letters"]


def test_a_located_word_counts_each_fault_when_faults_are_counted_one_by_one() -> None:
    # CATS prolongs CAT; the blank is the S (5 points), not circled, and 6 is announced.
    verdict = _judge("", "CATS", 6, rack="?EINORD", settings=SEVERAL)
    assert (verdict.reason, verdict.score, verdict.warnings) == (Reason.OK, 5, 2)
    assert _codes(verdict) == ["prolongation", "scores", "wrong_score", "blank_not_marked"]


# --- several places: the announced score chooses, else the lowest (FISF 5.4.2.b) ---------------
# CAT down column 8 from the centre and AT across row I from its A. CATS prolongs AT across
# row I from (8, 6), the C on a double letter: 6 + 1 + 1 + 1 = 9 (first in board order), and
# CAT down to (10, 7): 6.


def _two_cats() -> Board:
    return _board(Move(7, 7, False, "CAT"), Move(8, 7, True, "AT"))


@pytest.mark.parametrize(
    ("announced", "move", "score", "prolonged"),
    [
        (9, "9G CATS", 9, "AT"),
        (6, "H8 CATS", 6, "CAT"),
        (7, "H8 CATS", 6, "CAT"),
        (None, "H8 CATS", 6, "CAT"),
    ],
)
def test_a_prolongation_in_two_places(announced: int | None, move: str, score: int, prolonged: str) -> None:
    verdict = _judge("", "CATS", announced, rack="CSEINOR", board=_two_cats())
    assert (verdict.reason, verdict.move, verdict.move_score) == (Reason.OK, move, score)
    assert verdict.notes[0].code == "prolongation"
    assert verdict.notes[0].params["word"] == prolonged


@pytest.mark.parametrize(("announced", "move", "score"), [(9, "9G CATS", 9), (7, "H8 CATS", 6)])
def test_a_raccord_in_two_places(announced: int, move: str, score: int) -> None:
    # The raccord CAT (down column 8) is in both.
    verdict = _judge("CAT", "CATS", announced, rack="CSEINOR", board=_two_cats())
    assert (verdict.reason, verdict.move, verdict.move_score) == (Reason.OK, move, score)
    assert verdict.notes[0].code == "raccord"


# ARC across row H from (7, 6) and CAT down column 9 from its C. SCATS down column 9, rack
# S?EINOR: the blank is one S. On (6, 8), a double letter: 0 + 3 + 1 + 1 + 1 = 6; on (10, 8):
# 2 + 3 + 1 + 1 + 0 = 7.


def _arc_cat() -> Board:
    return _board(Move(7, 6, True, "ARC"), Move(7, 8, False, "CAT"))


@pytest.mark.parametrize(("coords", "code"), [("", "prolongation"), ("ARC", "raccord")])
@pytest.mark.parametrize(("announced", "move"), [(7, "I7 SCATs"), (6, "I7 sCATS")])
def test_a_located_word_reads_the_blank_the_announced_score_names(
    coords: str, code: str, announced: int, move: str
) -> None:
    verdict = _judge(coords, "SCATS", announced, rack="S?EINOR", board=_arc_cat())
    assert (verdict.reason, verdict.move, verdict.move_score, verdict.score) == (
        Reason.OK,
        move,
        announced,
        announced,
    )
    assert verdict.notes[0].code == code


# --- nearby placement, the arbitrator's choice ---------------------------------------------------


def test_a_nearby_placement_in_the_corner() -> None:
    # A2 CAT is one column off CAT across the first row from the corner (see above).
    board = _board(Move(0, 2, False, "TA"))
    verdict = _judge("A2", "CAT", 15, rack="CAEINOR", board=board, settings=NEARBY)
    assert (verdict.reason, verdict.shift_candidate) == (Reason.ILLEGAL, "1A CAT")
    assert verdict.notes[-1] == Note("shift_offered", {"move": "A1 CAT", "penalty": 5})


@pytest.mark.parametrize(("notation", "coords"), [("scramble", "j6"), ("fisf", "j6,x")])
def test_without_a_direction_the_written_square_is_tried_down(notation: str, coords: str) -> None:
    # ACT down from j6 (column J, row 6) ends on the T of CAT: the only nearby placement.
    settings = replace(NEARBY, notation=notation)
    verdict = _judge(coords, "ACT", 7, rack="ACEINOR", settings=settings)
    assert (verdict.reason, verdict.shift_candidate) == (Reason.UNREADABLE, "J6 ACT")


def test_the_nearby_search_and_its_acceptance_follow_the_events_rules() -> None:
    # A first word may go down: 8E CAT (down from E8) misses the centre; down from F8 it
    # holds it, the only nearby placement: (3 + 1 + 1) x 2 = 10.
    board, rack = Board.empty(), rack_codes("CATSEIN")
    slip = SlipInput("8E", "CAT", 10)
    verdict = adjudicate_slip(board, rack, LEX, DOWN_FIRST, NEARBY, slip)
    assert verdict.shift_candidate == "H6 CAT"
    accepted = accept_shift(board, rack, LEX, DOWN_FIRST, NEARBY, slip, verdict)
    assert (accepted.reason, accepted.move, accepted.score, accepted.penalty) == (
        Reason.SHIFT_ACCEPTED,
        "H6 CAT",
        10,
        5,
    )


# --- the 21x21 board: past column 15 ----------------------------------------------------------
# CAT on (10, 17)-(10, 19); CATS from it ends on the last column. K19 CATS (one column
# right) runs off the board.


def _grand() -> Board:
    return _board(Move(10, 17, True, "CAT"), name="grand")


def test_a_word_written_off_the_big_board_is_searched_for() -> None:
    verdict = _judge("K19", "CATS", 6, board=_grand())
    assert (verdict.reason, verdict.move, verdict.score) == (Reason.OK, "11R CATS", 6)
    assert verdict.notes[0] == Note("prolongation", {"word": "CAT", "move": "K18 CATS"})


def test_a_nearby_placement_past_column_15_offered_and_accepted() -> None:
    board, rack = _grand(), rack_codes("SEINORD")
    slip = SlipInput("K19", "CATS", 6)
    verdict = adjudicate_slip(board, rack, LEX, RULES, NEARBY, slip)
    assert (verdict.reason, verdict.shift_candidate) == (Reason.ILLEGAL, "11R CATS")
    assert verdict.notes[-1] == Note("shift_offered", {"move": "K18 CATS", "penalty": 5})
    accepted = accept_shift(board, rack, LEX, RULES, NEARBY, slip, verdict)
    assert (accepted.move, accepted.score, accepted.penalty) == ("11R CATS", 6, 5)


def test_an_accepted_nearby_placement_reads_the_blank_the_announced_score_names() -> None:
    # H9 TACIT (rack TACI?EO) holds no centre; H8 is the only nearby placement. Written at
    # H8 with 14 announced, the slip would score 14, the blank on the first T, with the
    # unmarked blank's warning. Accepted, it should be the same less the 5-point penalty.
    board, rack = Board.empty(), rack_codes("TACI?EO")
    settings = replace(NEARBY, single_warning=False)
    assert _judge("H8", "TACIT", 14, rack="TACI?EO", board=board, settings=settings).move_score == 14
    slip = SlipInput("H9", "TACIT", 14)
    verdict = adjudicate_slip(board, rack, LEX, RULES, settings, slip)
    accepted = accept_shift(board, rack, LEX, RULES, settings, slip, verdict)
    assert (accepted.move, accepted.move_score, accepted.penalty) == ("8H tACIT", 14, 5)
    assert _codes(accepted) == ["scores", "blank_not_marked", "shift_accepted"]


# --- crediting a round ----------------------------------------------------------------------------


def test_a_one_point_move_can_be_the_top_and_the_solo() -> None:
    # A move can score 1 (a blank and a tile worth 1, or a blank joining a tile worth 1 on
    # the board): a scored move like any other, on a top of 1 and, alone there, the solo.
    one = Verdict(Reason.OK, move="8H At", move_score=1, score=1)
    credits = credit_round(
        {"ann": one, "bob": Verdict(Reason.ILLEGAL)},
        top_score=1,
        prior_warnings={},
        players_in_game=16,
        settings=FISF,
    )
    assert (credits["ann"].is_top, credits["ann"].solo, credits["ann"].credited) == (True, True, 11)
    assert not credits["bob"].is_top


# --- a phone's slip that cannot be read at all (refused at submission) ---------------------------


@pytest.mark.parametrize(
    ("coordinates", "word", "size", "any_reference", "why"),
    [
        ("", "", 15, False, None),  # a blank slip is handed in as such
        ("H8", "CAT", 15, False, None),
        ("8H", "CAT", 15, False, None),
        ("H 8", "CAT", 15, False, None),  # spaces inside the reference are read through
        ("H8 CAT", "", 15, False, None),  # the word typed in the coordinates' field
        ("A15", "CATS", 15, False, None),  # read: off the board is the close's to judge
        ("Z99", "CAT", 15, False, Note("row_off_board", {"size": 15, "row": "Z"})),
        ("P1", "CAT", 15, False, Note("row_off_board", {"size": 15, "row": "P"})),
        ("A16", "CAT", 15, False, Note("column_off_board", {"size": 15, "column": "16"})),
        ("S19", "CAT", 19, False, None),  # row S is on a 19x19 board
        ("S19", "CAT", 15, False, Note("row_off_board", {"size": 15, "row": "S"})),
        ("H8", "CA5", 15, False, Note("word_not_letters", {"word": "CA5", "char": "5"})),
        ("", "CAT", 15, False, Note("missing_coordinates", {})),
        ("H8", "", 15, False, Note("missing_word_after", {"coordinates": "H8"})),
        # The game's first slip under first_slip_best_placement: only the word is read.
        ("", "CAT", 15, True, None),
        ("Z99", "CAT", 15, True, None),
        ("H8", "CA5", 15, True, Note("word_not_letters", {"word": "CA5", "char": "5"})),
        ("H8", "", 15, True, Note("word_not_letters", {"word": "H8", "char": "8"})),
    ],
)
def test_a_slip_that_cannot_be_read_says_why(
    coordinates: str, word: str, size: int, any_reference: bool, why: Note | None
) -> None:
    assert unreadable(SlipInput(coordinates, word, None), "fisf", size, any_reference) == why


@pytest.mark.parametrize(("notation", "coordinates"), [("gcg", "8H"), ("gcg", "H8"), ("scramble", "h8,a")])
def test_a_slip_is_read_in_the_events_notation(notation: str, coordinates: str) -> None:
    assert unreadable(SlipInput(coordinates, "CAT", None), notation, 15) is None
    assert unreadable(SlipInput("Q1", "CAT", None), notation, 15) is not None


def test_the_first_slips_circled_reading_follows_the_events_rules() -> None:
    # The event lets the first word go down: written 8H (down), the circled reading down
    # from H4 scores the maximum too and is the nearest (a reading judged under other rules
    # would be refused there and paid across).
    verdict = _judge("8H", "TACIt", 14, rack="TACI?EO", board=Board.empty(), rules=DOWN_FIRST)
    assert (verdict.move, verdict.score, verdict.warnings) == ("H4 TACIt", 14, 0)


@pytest.mark.parametrize(("after_time", "code"), [(False, "late_slip"), (True, "time_up")])
def test_a_late_slip_says_whether_time_was_up_or_the_round_closed(after_time: bool, code: str) -> None:
    verdict = adjudicate_slip(
        _cat(),
        rack_codes("SEINORD"),
        LEX,
        RULES,
        FISF,
        SlipInput("H8", "CATS", 6, late=True, after_time=after_time),
    )
    assert (verdict.reason, verdict.notes) == (Reason.LATE, (Note(code),))


def test_without_a_solo_below_the_top_only_the_one_player_on_the_top_gets_it() -> None:
    settings = replace(FISF, solo_below_top=False, solo_min_players=2)
    assert solo_winner({"ann": 40, "bob": 30}, top_score=40, players_in_game=2, settings=settings) == "ann"
    assert solo_winner({"ann": 35, "bob": 30}, top_score=40, players_in_game=2, settings=settings) is None
    assert solo_winner({"ann": 40, "bob": 40}, top_score=40, players_in_game=2, settings=settings) is None
