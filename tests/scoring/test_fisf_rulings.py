"""The rulings where the FISF practice and the "as written" reading differ
(docs/rules.md#adjudication), each an event setting defaulting to the FISF.

English values, standard board. Squares used (0-based row, col): (7, 7) the centre,
double word; (7, 11) a double letter; (5, 9) a triple letter; the others plain. The
position ``_cat()`` is CAT across from the centre: C (7, 7), A (7, 8), T (7, 9), FISF
``H8 CAT``; ``H8 CATS`` then scores 3 + 1 + 1 + 1 = 6.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.adjudication import (
    AdjudicationSettings,
    Reason,
    SlipInput,
    Verdict,
    adjudicate_slip,
    adjudicate_slips,
    credit_round,
)
from solver.boards import Board
from solver.lexicon import Lexicon
from solver.move import Move
from solver.rules import Rules
from solver.tiles import rack_codes

LEX = Lexicon.from_words(["CAT", "CATS", "ACT", "AT", "TA", "TACIT", "TATS"], name="fisf-rulings")
RULES = Rules(notation="fisf")
FISF = AdjudicationSettings()
AS_WRITTEN = AdjudicationSettings(reference_rule="nearby", first_slip_best_placement=False, raccord=False)
#: The FISF rulings, with the first slip judged at its reference (to test the rest alone).
NO_FIRST = replace(FISF, first_slip_best_placement=False)


def _cat() -> Board:
    board = Board.empty()
    board.play(Move(7, 7, True, "CAT"))
    return board


def _judge(
    coords: str,
    word: str,
    announced: int | None,
    *,
    rack: str = "SEINORD",
    board: Board | None = None,
    settings: AdjudicationSettings = FISF,
) -> Verdict:
    slip = SlipInput(coords, word, announced)
    return adjudicate_slip(board or _cat(), rack_codes(rack), LEX, RULES, settings, slip)


# --- 1. first round: the word at its best placement --------------------------------------
# TACIT on rack TACITEO, across through the centre (7, 7): from H4 (column 3) the first T is
# on the double letter (7, 3): (1 x 2 + 1 + 3 + 1 + 1) x 2 = 16; from H8 the last T is on the
# double letter (7, 11): 16 too; from H5-H7 no letter is on a premium but the centre: 14.


@pytest.mark.parametrize(
    ("coords", "announced", "move", "warnings"),
    [
        ("H8", 16, "8H TACIT", 0),  # written at a best placement
        ("H4", 16, "8D TACIT", 0),  # the other one
        ("H5", 14, "8D TACIT", 1),  # legal there for 14: paid 16 at the nearest best, a warning
        ("H7", 16, "8H TACIT", 0),  # the reference is not needed: the maximum announced
        ("7H", 16, "8H TACIT", 0),  # down, illegal as written: the reference does not matter
        ("", 16, "8D TACIT", 0),  # no reference at all: the first best in board order
        ("Z99", 16, "8H TACIT", 0),  # an unreadable reference
        ("H8", None, "8H TACIT", 1),  # no score announced: warning
    ],
)
def test_first_slip_is_paid_at_the_best_placement(
    coords: str, announced: int | None, move: str, warnings: int
) -> None:
    verdict = _judge(coords, "TACIT", announced, rack="TACITEO", board=Board.empty())
    assert (verdict.reason, verdict.move, verdict.score, verdict.move_score) == (Reason.OK, move, 16, 16)
    assert (verdict.warnings, verdict.penalty) == (warnings, 0)


def test_first_slip_says_the_best_placement_when_the_reference_differs() -> None:
    verdict = _judge("H5", "TACIT", 14, rack="TACITEO", board=Board.empty())
    assert verdict.detail == (
        "first round: the word is paid at its best placement, H4 TACIT; H4 TACIT scores 16;"
        " announced 14: warning"
    )
    assert _judge("H8", "TACIT", 16, rack="TACITEO", board=Board.empty()).detail == "H8 TACIT scores 16"


def test_first_slip_pays_the_maximum_whatever_the_circled_letter() -> None:
    # Rack TACI?EO: the blank is one T. On the best placement H8 the blank on the first T
    # (centre) leaves the last T on the double letter: (0 + 1 + 3 + 1 + 2) x 2 = 14, the blank
    # on the last T: (1 + 1 + 3 + 1 + 0) x 2 = 12; from H4, blank on the last T (centre):
    # (2 + 1 + 3 + 1 + 0) x 2 = 14. The maximum, 14, whatever is circled (FISF 5.4.2.a,
    # "quel que soit l'encerclement éventuel"): TACIt written at H8 scores the maximum at H4,
    # paid there with no warning (issue 29, item 19); a warning when nothing is circled.
    rack, empty = "TACI?EO", Board.empty()
    right = _judge("H4", "TACIt", 14, rack=rack, board=empty)
    assert (right.score, right.warnings, right.move) == (14, 0, "8D TACIt")
    elsewhere = _judge("H8", "TACIt", 14, rack=rack, board=empty)
    assert (elsewhere.score, elsewhere.warnings, elsewhere.move) == (14, 0, "8D TACIt")
    unmarked = _judge("H8", "TACIT", 14, rack=rack, board=empty)
    assert (unmarked.score, unmarked.warnings) == (14, 1)


def test_first_slip_as_written_when_the_setting_is_off() -> None:
    verdict = _judge("H5", "TACIT", 14, rack="TACITEO", board=Board.empty(), settings=AS_WRITTEN)
    assert (verdict.reason, verdict.move, verdict.score, verdict.warnings) == (Reason.OK, "8E TACIT", 14, 0)
    assert _judge("", "TACIT", 16, rack="TACITEO", board=Board.empty(), settings=AS_WRITTEN).score == 0


def test_first_slip_of_a_word_the_rack_cannot_make_is_ruled_as_written() -> None:
    verdict = _judge("H7", "TACIT", 16, rack="TACEIOU", board=Board.empty())
    assert (verdict.reason, verdict.score) == (Reason.ILLEGAL, 0)


def test_first_slip_of_a_word_not_in_the_list_scores_zero() -> None:
    verdict = _judge("", "CITAT", 16, rack="TACITEO", board=Board.empty())
    assert (verdict.reason, verdict.invalid_words, verdict.score) == (Reason.NOT_IN_LEXICON, ("CITAT",), 0)


def test_first_slip_follows_the_events_first_move_direction() -> None:
    # Down allowed too: 8D TACIT from row D down puts the first T on (3, 7), a double letter;
    # written down from there, it is paid there.
    rules = Rules(notation="fisf", first_move_horizontal=False)
    slip = SlipInput("8D", "TACIT", 16)
    verdict = adjudicate_slip(Board.empty(), rack_codes("TACITEO"), LEX, rules, FISF, slip)
    assert (verdict.reason, verdict.score, verdict.move) == (Reason.OK, 16, "H4 TACIT")
    across_only = adjudicate_slip(Board.empty(), rack_codes("TACITEO"), LEX, RULES, FISF, slip)
    assert across_only.move in ("8D TACIT", "8H TACIT")


# --- 2. wrong, unreadable or missing reference: the FISF 2016 rule ------------------------
# ACT down column 10 ending on the T of CAT (FISF 10F): A on (5, 9) triple letter, C on
# (6, 9): 1 x 3 + 3 + 1 = 7. It prolongs no word (one board letter), so its reference
# counts. Rack ACEINOR.


def _act(coords: str, announced: int | None, settings: AdjudicationSettings = FISF) -> Verdict:
    return _judge(coords, "ACT", announced, rack="ACEINOR", settings=settings)


@pytest.mark.parametrize(
    ("coords", "note"),
    [
        ("10E", "reference 10E wrong: 10F ACT scores the announced 7, 5-point penalty"),  # one off
        ("10J", "reference 10J wrong: 10F ACT scores the announced 7, 5-point penalty"),  # four rows off
        ("99F", "reference 99F wrong: 10F ACT scores the announced 7, 5-point penalty"),  # off the board
        ("", "no reference: 10F ACT scores the announced 7, 5-point penalty"),  # missing
        ("XYZ", "reference XYZ wrong: 10F ACT scores the announced 7, 5-point penalty"),  # unreadable
    ],
)
def test_a_wrong_reference_with_the_right_score_costs_five_points(coords: str, note: str) -> None:
    verdict = _act(coords, 7)
    assert (verdict.reason, verdict.move, verdict.move_score, verdict.score) == (
        Reason.WRONG_REFERENCE,
        "J6 ACT",
        7,
        7,
    )
    assert (verdict.penalty, verdict.warnings, verdict.shift_candidate) == (5, 0, "")
    assert verdict.detail.startswith(note)
    credit = credit_round({"p": verdict}, top_score=7, prior_warnings={}, players_in_game=2, settings=FISF)[
        "p"
    ]
    assert (credit.credited, credit.penalty, credit.is_top) == (2, 5, True)


@pytest.mark.parametrize(
    ("announced", "note"), [(8, "no placement of ACT scores the announced 8"), (None, "no score")]
)
def test_a_wrong_reference_with_a_wrong_or_missing_score_scores_zero(
    announced: int | None, note: str
) -> None:
    verdict = _act("10E", announced)
    assert (verdict.reason, verdict.score, verdict.penalty, verdict.shift_candidate) == (
        Reason.ILLEGAL,
        0,
        0,
        "",
    )
    assert note in verdict.detail


@pytest.mark.parametrize(("announced", "warnings"), [(7, 1), (8, 1), (None, 1)])
def test_a_reference_written_the_other_way_round_is_a_warning(announced: int | None, warnings: int) -> None:
    # F10 is across in FISF: ACT is played down from that square (10F). FISF 5.3: a correct
    # location with a warning, the real score; one warning however many faults (5.8).
    verdict = _act("F10", announced)
    assert (verdict.reason, verdict.move, verdict.score, verdict.penalty) == (Reason.OK, "J6 ACT", 7, 0)
    assert verdict.warnings == warnings
    assert verdict.detail.startswith("reference F10 written the other way round, 10F ACT: warning")


def test_the_written_direction_is_kept() -> None:
    # J1 is across: no placement of ACT across exists here, so nothing is credited, though
    # 10F down scores the 7 announced.
    assert _act("J1", 7).reason == Reason.ILLEGAL


def test_the_shift_penalty_setting_is_the_penalty() -> None:
    verdict = _act("10E", 7, settings=replace(FISF, shift_penalty=3))
    assert verdict.penalty == 3 and "3-point penalty" in verdict.detail


def test_a_wrong_reference_worth_four_points_or_less_scores_zero() -> None:
    # TA down from the T of CAT: T on the board, A on (8, 9): 1 + 1 = 2 points; without
    # a reference but with the right score, 2 - 5 would be negative: 0 (FISF 5.3.3).
    verdict = _judge("", "TA", 2, rack="AEINORS")
    assert (verdict.reason, verdict.score, verdict.penalty) == (Reason.UNREADABLE, 0, 0)
    assert "with the 5-point penalty nothing is left" in verdict.detail


def test_a_word_legal_where_written_is_scored_there_even_if_the_score_fits_elsewhere() -> None:
    # Rack with C, T and S: CATS fits at H8 across (6) and 9G down through the A (7).
    verdict = _judge("H8", "CATS", 7, rack="SCTINOR")
    assert (verdict.reason, verdict.move, verdict.score, verdict.warnings) == (Reason.OK, "8H CATS", 6, 1)


def test_the_nearby_choice_is_one_setting_away() -> None:
    verdict = _act("10E", 7, settings=AS_WRITTEN)
    assert (verdict.reason, verdict.score, verdict.shift_candidate) == (Reason.ILLEGAL, 0, "J6 ACT")


# --- 11. raccord and prolongation: located without coordinates ----------------------------


@pytest.mark.parametrize("coords", ["H9", "", "Z99", "8Z"])
def test_a_word_prolonging_a_word_of_three_letters_needs_no_reference(coords: str) -> None:
    # CATS prolongs CAT: the reference is ignored, neither penalised nor counted (FISF 5.3).
    verdict = _judge(coords, "CATS", 6)
    assert (verdict.reason, verdict.move, verdict.score, verdict.warnings, verdict.penalty) == (
        Reason.OK,
        "8H CATS",
        6,
        0,
        0,
    )
    assert verdict.detail.startswith("H8 CATS prolongs CAT: no reference needed")
    assert _judge(coords, "CATS", 7).warnings == 1  # a wrong score is still a warning


def test_a_two_letter_word_prolonged_without_a_correct_reference_is_a_warning() -> None:
    board = Board.empty()
    board.play(Move(7, 7, True, "AT"))  # AT on H8-H9; CAT from H7 prolongs it
    verdict = _judge("H6", "CAT", 5, rack="CEINORS", board=board)
    assert (verdict.reason, verdict.move, verdict.score, verdict.warnings) == (Reason.OK, "8G CAT", 5, 1)
    assert "a two-letter word prolonged without a third raccord letter" in verdict.detail
    assert _judge("H7", "CAT", 5, rack="CEINORS", board=board).warnings == 0  # its own reference


@pytest.mark.parametrize(("letters", "warnings"), [("CAT", 0), ("cat", 0), ("AT", 1)])
def test_a_word_located_by_its_raccord_letters(letters: str, warnings: int) -> None:
    # ACT down column 10 joins the T of CAT: C, A, T are board letters in a row, the T in
    # the word. Three letters locate it; two are a warning (FISF 5.5).
    verdict = _act(letters, 7)
    assert (verdict.reason, verdict.move, verdict.score, verdict.penalty) == (Reason.OK, "J6 ACT", 7, 0)
    assert verdict.warnings == warnings
    assert verdict.detail.startswith(f"located by the raccord {letters.upper()}: 10F ACT")


def test_raccord_letters_that_the_word_does_not_join_are_a_wrong_reference() -> None:
    verdict = _act("TAC", 7)
    assert verdict.reason == Reason.WRONG_REFERENCE and verdict.score == 7 and verdict.penalty == 5


def test_without_the_raccord_setting_letters_are_no_location() -> None:
    off = replace(FISF, raccord=False)
    assert _act("CAT", 7, settings=off).reason == Reason.WRONG_REFERENCE
    assert _judge("H9", "CATS", 6, settings=off).reason == Reason.WRONG_REFERENCE


# --- 3. letters already on the board left out ------------------------------------------------
# ACT down column 10 ending on the T of CAT: A on (5, 9) triple letter, C on (6, 9):
# 1 x 3 + 3 + 1 = 7. Written without its T: "10F AC".


@pytest.mark.parametrize(("word", "how"), [("AC", "left out of the word"), ("ACX", "miswritten")])
def test_the_last_letter_on_the_board_left_out_or_miswritten_costs_five_points(word: str, how: str) -> None:
    verdict = _judge("10F", word, 7, rack="ACEINOR")
    assert (verdict.reason, verdict.move, verdict.move_score, verdict.score, verdict.penalty) == (
        Reason.OMITTED_LETTERS,
        "J6 ACT",
        7,
        7,
        5,
    )
    assert verdict.detail.startswith(f"the last letter T, already on the board, {how}: 10F ACT scores the")
    credit = credit_round({"p": verdict}, top_score=20, prior_warnings={}, players_in_game=2, settings=FISF)
    assert credit["p"].credited == 2


def test_only_the_last_letter_is_forgiven() -> None:
    # Two board letters after the written word: not the 2016 case, 0.
    board = _cat()
    verdict = _judge("10D", "AC", 7, rack="ACEINOR", board=board)
    assert verdict.reason != Reason.OMITTED_LETTERS


def test_a_left_out_last_letter_scores_zero_when_the_setting_is_off() -> None:
    off = replace(FISF, omitted_last_letter=False)  # the FISF 2023 text: written in full or 0
    assert _judge("10F", "AC", 7, rack="ACEINOR", settings=off).reason == Reason.ILLEGAL


@pytest.mark.parametrize("announced", [6, None])
def test_left_out_letters_with_a_wrong_or_missing_score_score_zero(announced: int | None) -> None:
    verdict = _judge("10F", "AC", announced, rack="ACEINOR")
    assert (verdict.reason, verdict.score) == (Reason.ILLEGAL, 0)


def test_left_out_letters_score_zero_under_the_nearby_choice() -> None:
    assert _judge("10F", "AC", 7, rack="ACEINOR", settings=AS_WRITTEN).reason == Reason.ILLEGAL


# --- 4. a blank circled on the wrong letter ---------------------------------------------------


def test_a_blank_circled_with_no_blank_in_the_rack_is_a_warning() -> None:
    verdict = _judge("H8", "CATs", 6)
    assert (verdict.reason, verdict.move, verdict.score, verdict.warnings) == (Reason.OK, "8H CATS", 6, 1)
    assert "blank marked on a letter it cannot stand for: warning" in verdict.detail


def test_a_blank_circled_on_a_letter_the_rack_gives_while_it_stands_for_another() -> None:
    # TATS on rack TA?SEIO: one T in the rack, the blank is the other T; the slip circles
    # the A. Read without the circle, the word is playable: one warning, not 0.
    verdict = _judge("H8", "TaTS", 6, rack="TA?SEIO", board=Board.empty(), settings=NO_FIRST)
    assert (verdict.reason, verdict.score, verdict.warnings) == (Reason.OK, 6, 1)
    assert verdict.move in ("8H tATS", "8H TAtS")


def test_a_wrongly_circled_blank_scores_zero_when_the_setting_is_off() -> None:
    off = replace(FISF, misplaced_blank_warning=False)
    assert _judge("H8", "CATs", 6, settings=off).reason == Reason.ILLEGAL


def test_a_circled_blank_the_rack_cannot_give_anyway_stays_illegal() -> None:
    assert _judge("H8", "CATx", 6).reason == Reason.ILLEGAL


# --- 5. an unmarked blank is read as the announced score says --------------------------------
# TACIT from the centre on rack TACI?EO: one T, the blank is the other. Blank on the first T
# (centre): (0 + 1 + 3 + 1 + 1 x 2) x 2 = 14; on the last T (double letter): (1+1+3+1+0) x 2 = 12.


@pytest.mark.parametrize(
    ("announced", "move", "score", "warnings"),
    [
        (12, "8H TACIt", 12, 1),  # the lower reading announced: that one, one warning
        (14, "8H tACIT", 14, 1),  # the higher reading announced
        (13, "8H TACIt", 12, 1),  # no reading scores 13: the lowest; one warning (FISF 5.8)
        (None, "8H TACIt", 12, 1),
    ],
)
def test_an_unmarked_blank_takes_the_reading_of_the_announced_score(
    announced: int | None, move: str, score: int, warnings: int
) -> None:
    verdict = _judge("H8", "TACIT", announced, rack="TACI?EO", board=Board.empty(), settings=NO_FIRST)
    assert (verdict.move, verdict.score, verdict.warnings) == (move, score, warnings)


def test_the_highest_reading_is_one_setting_away() -> None:
    best = replace(NO_FIRST, blank_reading="best")
    verdict = _judge("H8", "TACIT", 12, rack="TACI?EO", board=Board.empty(), settings=best)
    assert (verdict.move, verdict.score, verdict.warnings) == ("8H tACIT", 14, 1)


@pytest.mark.parametrize(
    ("reading", "move", "score"), [("announced", "8D tACIT", 12), ("last", "8D TACIt", 14)]
)
def test_without_a_matching_reading_the_lowest_or_the_last_occurrence(
    reading: str, move: str, score: int
) -> None:
    # From H4 the first T is on the double letter (7, 3), the last on the centre: blank on
    # the first T (0 + 1 + 3 + 1 + 1) x 2 = 12, on the last (1 x 2 + 1 + 3 + 1 + 0) x 2 = 14.
    settings = replace(NO_FIRST, blank_reading=reading)
    verdict = _judge("H4", "TACIT", 13, rack="TACI?EO", board=Board.empty(), settings=settings)
    assert (verdict.move, verdict.score) == (move, score)


def test_several_warnings_on_one_slip_without_the_single_warning_rule() -> None:
    several = replace(NO_FIRST, single_warning=False)
    verdict = _judge("H8", "TACIT", 13, rack="TACI?EO", board=Board.empty(), settings=several)
    assert verdict.warnings == 2


# --- 6. several slips for one round -------------------------------------------------------------


def test_several_slips_are_void() -> None:
    slips = [SlipInput("H8", "CATS", 6), SlipInput("H8", "CATS", 6)]
    verdict = adjudicate_slips(_cat(), rack_codes("SEINORD"), LEX, RULES, FISF, slips)
    assert (verdict.reason, verdict.score, verdict.detail) == (
        Reason.SEVERAL_SLIPS,
        0,
        "2 slips handed in for this round: several slips make it void",
    )


def test_the_last_slip_counts_when_several_are_not_void() -> None:
    slips = [SlipInput("H8", "CATX", 6), SlipInput("H8", "CATS", 6)]
    last = replace(FISF, several_slips_void=False)
    verdict = adjudicate_slips(_cat(), rack_codes("SEINORD"), LEX, RULES, last, slips)
    assert (verdict.reason, verdict.score) == (Reason.OK, 6)


@pytest.mark.parametrize("order", ["blank first", "blank last"])
def test_a_blank_slip_beside_a_filled_one_is_no_second_slip(order: str) -> None:
    # FISF 5.7 voids several slips "non vierges": the filled one is ruled (issue 29, item 18).
    filled, blank = SlipInput("H8", "CATS", 6), SlipInput("", "", None)
    slips = [blank, filled] if order == "blank first" else [filled, blank]
    verdict = adjudicate_slips(_cat(), rack_codes("SEINORD"), LEX, RULES, FISF, slips)
    assert (verdict.reason, verdict.score) == (Reason.OK, 6)
    two_filled = adjudicate_slips(_cat(), rack_codes("SEINORD"), LEX, RULES, FISF, [filled, blank, filled])
    assert two_filled.reason == Reason.SEVERAL_SLIPS and "2 slips" in two_filled.detail
    blanks = adjudicate_slips(_cat(), rack_codes("SEINORD"), LEX, RULES, FISF, [blank, blank])
    assert blanks.reason == Reason.BLANK_SLIP


def test_a_late_slip_beside_an_on_time_one_is_not_a_second_slip() -> None:
    slips = [SlipInput("H8", "CATS", 6), SlipInput("H8", "CATS", 6, late=True)]
    verdict = adjudicate_slips(_cat(), rack_codes("SEINORD"), LEX, RULES, FISF, slips)
    assert (verdict.reason, verdict.score) == (Reason.OK, 6)


def test_only_late_slips_are_late_and_none_is_missing() -> None:
    rack = rack_codes("SEINORD")
    late = adjudicate_slips(_cat(), rack, LEX, RULES, FISF, [SlipInput("H8", "CATS", 6, late=True)])
    assert late.reason == Reason.LATE
    assert adjudicate_slips(_cat(), rack, LEX, RULES, FISF, []).reason == Reason.MISSING


# --- 7. an override moves the tops and the solo -------------------------------------------------


def test_an_override_to_zero_takes_the_top_away_and_gives_the_other_the_solo() -> None:
    ann = Verdict(Reason.OK, move="8H CATS", move_score=30, score=30)
    bob = Verdict(Reason.OK, move="8H CATS", move_score=30, score=30)
    overridden = replace(ann, reason=Reason.OVERRIDDEN, move_score=0, score=0)
    credits = credit_round(
        {"ann": overridden, "bob": bob}, top_score=30, prior_warnings={}, players_in_game=16, settings=FISF
    )
    assert (credits["ann"].is_top, credits["ann"].credited) == (False, 0)
    assert (credits["bob"].is_top, credits["bob"].solo, credits["bob"].credited) == (True, True, 40)


def _move(score: int, reason: str = Reason.OK) -> Verdict:
    return Verdict(reason, move="8H CATS", move_score=score, score=score)


def test_the_solo_goes_to_the_one_best_score_even_below_the_top() -> None:
    credits = credit_round(
        {"ann": _move(25), "bob": _move(20)},
        top_score=30,
        prior_warnings={},
        players_in_game=16,
        settings=FISF,
    )
    assert (credits["ann"].solo, credits["ann"].is_top, credits["ann"].credited) == (True, False, 35)
    top_only = replace(FISF, solo_below_top=False)
    credits = credit_round(
        {"ann": _move(25), "bob": _move(20)},
        top_score=30,
        prior_warnings={},
        players_in_game=16,
        settings=top_only,
    )
    assert not credits["ann"].solo


def test_the_solo_compares_scores_before_the_penalty() -> None:
    penalised = replace(_move(30, Reason.WRONG_REFERENCE), penalty=5)
    credits = credit_round(
        {"ann": penalised, "bob": _move(28)},
        top_score=30,
        prior_warnings={},
        players_in_game=16,
        settings=FISF,
    )
    assert (credits["ann"].solo, credits["ann"].credited) == (True, 35)


def test_an_overridden_penalty_is_kept_as_set() -> None:
    set_by_hand = Verdict(Reason.OVERRIDDEN, move_score=25, score=25, warnings=5, penalty=2)
    credit = credit_round(
        {"p": set_by_hand}, top_score=30, prior_warnings={"p": 3}, players_in_game=2, settings=FISF
    )["p"]
    assert (credit.credited, credit.penalty) == (23, 2)
