"""Validating and scoring one move (solver.rules).

Expected scores are worked by hand from the premium squares and the tile values of the
pbmserv Scramble help, or copied from the worked examples of the Mattel rules leaflet and
the example positions of the Scramble help (docs/rules.md#legal-moves-and-scores).

Standard board premiums used below (docs/rules.md#boards): row 1 ``# . . % . . . # ...``, row 4
``% . . * ...``, row 5 ``. . . . * . . . . . * ...``, row 7 ``. . % . . . % . % ...``,
row 8 ``# . . % . . . * . . . % . . #``, row 9 ``. . % . . . % . % ...``, row 10
``. @ . . . @ . . . @ ...``, row 11 ``. . . . * . . . . . * ...``.
"""

from __future__ import annotations

from typing import Any

import pytest

from solver import movegen, recorders, rules
from solver.boards import Board, layout
from solver.errors import IllegalMoveError
from solver.formats.cgp import parse_board
from solver.lexicon import Lexicon
from solver.move import Move
from solver.notation import parse_move
from solver.rules import Rules
from solver.tiles import rack_codes, tile_code
from tests.conftest import corpus_board, corpus_rows

WORDS = (
    "TRAIN TRAINER TRAINERS STRAINER STRAINERS THROB THROBS HOB HI ON BE CONQUEST NO SO IN"
    " BANANA ZOO ZOOM MARK MORE ZEBRA BOAR ARK REDNECK NECK RE REAM REAMS MEASURE"
    " CHERRY EH AE AT TA OX AX QI"
)
LEX = Lexicon.from_words(WORDS.split(), name="test")


def _board(rows: dict[int, str], name: str = "standard") -> Board:
    """A board with tiles: {1-based row: CGP row}, other rows empty."""
    size = layout(name).size
    text = "/".join(rows.get(r, str(size)) for r in range(1, size + 1))
    return parse_board(text, layout(name))


def _move(text: str, size: int = 15) -> Move:
    return parse_move(text, "scramble", size)


def _validate(board: Board, text: str, rack: str, lexicon: Lexicon | None = LEX, **kwargs: Any):
    return rules.validate(board, _move(text, board.size), rack_codes(rack), lexicon, **kwargs)


def _words(scored: rules.Scored) -> dict[str, int]:
    return {w.word: w.score for w in scored.words}


# The Mattel leaflet's position: TRAINER across from B8 (A on the 2L at D8, R on the centre).
TRAINER_B8 = {8: "1TRAINER7"}
# The Scramble help, second example position: ZOO at H8, ZEBRA down column H, BOAR on row 10, ARK
# down column K.
SEED_ZOO = {8: "7ZOO5"}
SEED_ZEBRA = {8: "7ZOO5", 9: "7E2A4", 10: "7BOAR4", 11: "7R2K4", 12: "7A7"}
# The Scramble help, third example position (RE.NECK on row 8).
SEED_NECK = {8: "3RE1NECK5", 9: "3E4H6", 10: "3A4E6", 11: "3MEASURE5", 12: "8R6", 13: "8Y6"}


# --- the Mattel leaflet's worked examples ----------------------------------------------


def test_first_move_train_with_t_on_double_letter_scores_12():
    # T(1x2) R A I N(centre 2W) = 6, doubled = 12.
    board = Board.empty()
    scored = _validate(board, "d8,a,train", "AEITRNR")
    assert scored.score == 12
    assert _words(scored) == {"TRAIN": 12}
    assert not scored.bingo
    assert rules.score(board, _move("d8,a,train")).score == 12


@pytest.mark.parametrize("start", ["b8", "d8"])
def test_first_move_trainer_scores_16_plus_50_bingo(start):
    # From B8: T R A(2L) I N E R(centre); from D8 (the leaflet's TRAIN square):
    # T(2L) R A I N(centre) E R. Either way 8 x 2 = 16, all seven tiles: +50 = 66.
    board = Board.empty()
    scored = _validate(board, f"{start},a,trainer", "AEITRNR")
    assert scored.score == 66
    assert scored.move.score == 66
    assert _words(scored) == {"TRAINER": 16}
    assert scored.bingo
    assert len(scored.placed) == 7
    assert scored.implied_blanks == 0
    assert rules.score(board, _move(f"{start},a,trainer")).score == 66


def test_strainers_scores_27_without_the_premiums_already_used():
    # S on the 3W at A8; the 2L under A and the 2W under R were used by TRAINER: 9 x 3.
    board = _board(TRAINER_B8)
    scored = _validate(board, "a8,a,strainers", "SSXYZAB")
    assert scored.score == 27
    assert _words(scored) == {"STRAINERS": 27}
    assert [sq for sq, _ in scored.placed] == [7 * 15 + 0, 7 * 15 + 8]
    assert rules.score(board, _move("a8,a,strainers")).score == 27


def test_throb_scores_12_with_r_on_triple_letter():
    # T(board) 1 + H 4 + R on B10 (3L) 3 + O 1 + B 3 = 12.
    board = _board(TRAINER_B8)
    scored = _validate(board, "b8,d,throb", "HROBXYZ")
    assert scored.score == 12
    assert _words(scored) == {"THROB": 12}


def test_hob_parallel_play_scores_every_word_formed():
    # HOB on row 7 over I N E: B on the 2L at G7 counts in HOB and in BE.
    # HOB 4+1+6 = 11, HI 5, ON 2, BE 6+1 = 7: 25.
    board = _board(TRAINER_B8)
    scored = _validate(board, "e7,a,hob", "HOBXYZA")
    assert scored.score == 25
    assert _words(scored) == {"HOB": 11, "HI": 5, "ON": 2, "BE": 7}
    assert [w.main for w in scored.words] == [True, False, False, False]
    assert rules.score(board, _move("e7,a,hob")).score == 25


def test_throbs_hooking_strainer_scores_69():
    # THROBS down column A, H on the 2L at A4, S on the 3W at A8 hooking TRAINER.
    # THROBS (1+8+1+1+3+1) x 3 = 45, STRAINER 8 x 3 = 24: 69.
    board = _board(TRAINER_B8)
    scored = _validate(board, "a3,d,throbs", "THROBSX")
    assert scored.score == 69
    assert _words(scored) == {"THROBS": 45, "STRAINER": 24}
    assert not scored.bingo
    assert scored.letterpoints(board) == 1 + 4 + 1 + 1 + 3 + 1


def test_conquest_bridging_two_triple_words_scores_261():
    # Row 1 from A1 (3W) to H1 (3W), Q on the 2L at D1; N at C1 and S at G1 on the board.
    # 19 + 10 for the Q = 29, x3 = 87, x3 = 261.
    board = _board({1: "2N3S8", 2: "2O3O8"})
    scored = _validate(board, "a1,a,conquest", "COQUETX")
    assert scored.score == 261
    assert _words(scored) == {"CONQUEST": 261}
    assert len(scored.placed) == 6
    assert rules.score(board, _move("a1,a,conquest")).score == 261


# --- scoring rules ---------------------------------------------------------------------


def test_blank_scores_zero_even_on_a_letter_premium():
    # TRAIN at D8 with a blank T on the 2L: (0 + 1+1+1+1) x 2 = 8.
    scored = _validate(Board.empty(), "d8,a,-train", "RAIN?XY")
    assert scored.score == 8
    assert scored.move.word == "tRAIN"


def test_blank_on_a_word_premium_still_multiplies():
    # TRAIN at D8 with a blank N on the centre 2W: (2+1+1+1+0) x 2 = 10.
    scored = _validate(Board.empty(), "d8,a,trai-n", "TRAI?XY")
    assert scored.score == 10
    assert scored.move.word == "TRAIn"


def test_blank_already_on_the_board_scores_zero_in_a_new_word():
    # TRAINEr on the board (blank R on H8); STRAINERS: (1 + 1+1+1+1+1+1+0 + 1) x 3 = 24.
    board = _board({8: "1TRAINEr7"})
    scored = _validate(board, "a8,a,strainers", "SSXYZAB")
    assert scored.score == 24
    assert scored.move.word == "STRAINErS"


def test_two_double_words_multiply_by_four():
    # Row 5 from E5 (2W) to K5 (2W) through the I at H5: 7 x 4 = 28.
    board = _board({5: "7I7", 6: "7N7"})
    scored = _validate(board, "e5,a,trainer", "TRAENRX")
    assert scored.score == 28
    assert _words(scored) == {"TRAINER": 28}


def test_quadruple_word_on_the_large_board():
    # Large board row 1: A1 4W, E1 2L. REAMS from A1 through the A of AT at C1:
    # R(4W) 1 + E 1 + A(board) 1 + M 3 + S(2L) 2 = 8, x4 = 32.
    board = _board({1: "2A16", 2: "2T16"}, "large")
    scored = rules.validate(board, parse_move("a1,a,reams", "scramble", 19), rack_codes("REMSXYZ"), LEX)
    assert scored.score == 32
    assert _words(scored) == {"REAMS": 32}


def test_bingo_on_the_large_board_needs_eight_tiles():
    # Large board, row 10: J10 2W (centre), N10 2L, Q10 3W.
    # TRAINERS J10-Q10: (1+1+1+1+2+1+1+1) x 2 x 3 = 54, 8 tiles: +50 = 104.
    board = Board.empty("large")
    scored = rules.validate(board, parse_move("j10,a,trainers", "scramble", 19), rack_codes("TRAINERS"), LEX)
    assert scored.score == 104
    assert scored.bingo


def test_seven_tiles_on_the_large_board_is_not_a_bingo():
    # TRAINER J10-P10: (1+1+1+1+2+1+1) x 2 = 16, no bonus with 7 of 8 tiles.
    board = Board.empty("large")
    scored = rules.validate(board, parse_move("j10,a,trainer", "scramble", 19), rack_codes("TRAINERS"), LEX)
    assert scored.score == 16
    assert not scored.bingo


def test_six_tiles_on_the_standard_board_is_not_a_bingo():
    scored = _validate(_board(TRAINER_B8), "a3,d,throbs", "THROBS")
    assert not scored.bingo
    assert scored.score == 69


@pytest.mark.parametrize(("bonus", "expected"), [(50, 66), (30, 46), (0, 16), (100, 116)])
def test_bingo_bonus_is_a_setting(bonus, expected):
    scored = _validate(Board.empty(), "b8,a,trainer", "AEITRNR", rules=Rules(bingo_bonus=bonus))
    assert scored.score == expected
    assert rules.score(Board.empty(), _move("b8,a,trainer"), Rules(bingo_bonus=bonus)).score == expected


def test_premiums_count_only_under_new_tiles_in_cross_words():
    # The Scramble help: K8,D,MORE adds M to ZOO. MORE: M K8, O K9, R K10, E on the 2W at K11:
    # (3+1+1+1) x 2 = 12; ZOOM: 10+1+1+3 = 15 (no premium under Z O O or K8): 27.
    board = _board(SEED_ZOO)
    scored = _validate(board, "k8,d,more", "MOREXYZ")
    assert scored.score == 27
    assert _words(scored) == {"MORE": 12, "ZOOM": 15}


# --- the Scramble help's example positions ---------------------------------------------


def test_seed_on_uses_the_board_o_and_puts_n_on_a_double_letter():
    # I8,D,ON: O on the board, N on the 2L at I9: 1 + 2 = 3.
    scored = _validate(_board(SEED_ZOO), "i8,d,on", "NXYZABC")
    assert scored.score == 3


def test_seed_n_alone_is_not_a_move():
    with pytest.raises(IllegalMoveError, match="at least 2 letters"):
        _validate(_board(SEED_ZOO), "i9,d,n", "NXYZABC")


@pytest.mark.parametrize("text", ["h8,a,zoom", "k8,d,mark"])
def test_one_tile_move_scores_the_same_across_or_down(text):
    # M at K8 makes ZOOM (10+1+1+3 = 15) and MARK (3+1+1+5 = 10): 25 whichever way written.
    board = _board(SEED_ZEBRA)
    scored = _validate(board, text, "MXYZABC")
    assert scored.score == 25
    assert _words(scored) == {"ZOOM": 15, "MARK": 10}
    assert scored.placed == ((7 * 15 + 10, tile_code("M")),)
    assert scored.move.word == text.split(",")[2].upper()


@pytest.mark.parametrize("text", ["k8,a,m", "k8,d,m"])
def test_one_tile_move_written_as_the_single_letter_is_refused(text):
    with pytest.raises(IllegalMoveError, match="at least 2 letters"):
        _validate(_board(SEED_ZEBRA), text, "MXYZABC")


def test_seed_redneck_example():
    # D at F8 makes REDNECK: 1+1+2+1+1+3+5 = 14 (the 2L under R at D8 is already used).
    scored = _validate(_board(SEED_NECK), "d8,a,redneck", "DXYZABC")
    assert scored.score == 14
    assert _words(scored) == {"REDNECK": 14}


def test_seed_repneck_is_not_in_the_lexicon():
    with pytest.raises(IllegalMoveError, match=r"^REPNECK is not in the lexicon$"):
        _validate(_board(SEED_NECK), "d8,a,repneck", "PXYZABC")


def test_seed_rep_must_be_written_in_full():
    with pytest.raises(IllegalMoveError, match="written in full: N on G8 comes just after it"):
        _validate(_board(SEED_NECK), "d8,a,rep", "PXYZABC")


# --- validation errors -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "message"),
    [
        (Move(7, 12, True, "TRAIN"), "the word runs off the board"),
        (Move(12, 7, False, "TRAIN"), "the word runs off the board"),
        (Move(15, 0, True, "TRAIN"), "the word starts off the board"),
        (Move(0, 15, False, "TRAIN"), "the word starts off the board"),
        (Move(-1, 7, True, "TRAIN"), "the word starts off the board"),
        (Move(7, -2, True, "TRAIN"), "the word starts off the board"),
    ],
)
def test_off_the_board_is_refused(move, message):
    with pytest.raises(IllegalMoveError, match=message):
        rules.validate(Board.empty(), move, rack_codes("TRAINXY"), LEX)


def test_one_letter_word_is_refused():
    with pytest.raises(IllegalMoveError, match="a word has at least 2 letters"):
        rules.validate(Board.empty(), Move(7, 7, True, "A"), rack_codes("A"), LEX)


def test_word_not_touching_the_board_is_refused():
    with pytest.raises(IllegalMoveError, match="the word must touch a tile already on the board"):
        _validate(_board(TRAINER_B8), "a12,a,zoo", "ZOOXYAB")


def test_word_touching_only_diagonally_is_refused():
    # ZOO on row 9 from I9: I9 is diagonal to H8 (R) and touches nothing else.
    with pytest.raises(IllegalMoveError, match="must touch a tile already on the board"):
        _validate(_board(TRAINER_B8), "i9,a,zoo", "ZOOXYAB")


def test_first_move_must_cover_the_centre():
    with pytest.raises(IllegalMoveError, match="the first word must cover the centre square H8"):
        _validate(Board.empty(), "a1,a,train", "TRAINXY")


def test_first_move_on_the_large_board_must_cover_j10():
    with pytest.raises(IllegalMoveError, match="centre square J10"):
        rules.validate(Board.empty("large"), Move(8, 8, True, "TRAIN"), rack_codes("TRAIN"), LEX)


def test_first_move_vertical_is_refused_by_default():
    with pytest.raises(IllegalMoveError, match="the first word must be horizontal"):
        _validate(Board.empty(), "h4,d,train", "TRAINXY")


def test_first_move_vertical_is_accepted_when_the_setting_is_off():
    # TRAIN down H4-H8: T on the 2L at H4, N on the centre: (2+1+1+1+1) x 2 = 12.
    scored = _validate(Board.empty(), "h4,d,train", "TRAINXY", rules=Rules(first_move_horizontal=False))
    assert scored.score == 12
    assert rules.score(Board.empty(), _move("h4,d,train"), Rules(first_move_horizontal=False)).score == 12
    with pytest.raises(IllegalMoveError, match="horizontal"):
        rules.score(Board.empty(), _move("h4,d,train"))


def test_letter_different_from_the_board_tile_is_refused():
    with pytest.raises(IllegalMoveError, match="letter 1 of BOOM is B, but H8 already holds Z"):
        _validate(_board(SEED_ZOO), "h8,a,boom", "BMXYZAC")


def test_word_not_written_in_full_letter_before():
    with pytest.raises(IllegalMoveError, match="written in full: Z on H8 comes just before it"):
        _validate(_board(SEED_ZOO), "i8,a,oom", "MXYZABC")


def test_word_not_written_in_full_letter_after():
    with pytest.raises(IllegalMoveError, match="written in full: Z on H8 comes just after it"):
        _validate(_board(SEED_ZOO), "f8,a,at", "ATXYZBC")


def test_word_already_on_the_board_places_no_tile():
    with pytest.raises(IllegalMoveError, match="the move places no new tile"):
        _validate(_board(SEED_ZOO), "h8,a,zoo", "ZOOABCD")


def test_letter_missing_from_the_rack_is_refused():
    with pytest.raises(IllegalMoveError, match=r"^there is no Z in the rack$"):
        _validate(Board.empty(), "h8,a,zoo", "OOABCDE")


def test_too_many_of_a_letter_is_refused():
    with pytest.raises(IllegalMoveError, match=r"^the rack holds 1 O, the word needs 2$"):
        _validate(Board.empty(), "h8,a,zoo", "ZOABCDE")


def test_letters_already_on_the_board_do_not_come_from_the_rack():
    # ZOOM needs only the M from the rack.
    scored = _validate(_board(SEED_ZOO), "h8,a,zoom", "MABCDEF")
    assert scored.score == 15


def test_blank_marked_without_a_blank_in_the_rack_is_refused():
    with pytest.raises(IllegalMoveError, match=r"^there is no blank in the rack$"):
        rules.validate(Board.empty(), Move(7, 7, True, "zOO"), rack_codes("ZOOABCD"), LEX)


def test_more_blanks_marked_than_the_rack_holds_is_refused():
    with pytest.raises(IllegalMoveError, match=r"^the rack holds 1 blank, the word marks 2$"):
        rules.validate(Board.empty(), Move(7, 7, True, "zoO"), rack_codes("ZOO?ABC"), LEX)
    with pytest.raises(IllegalMoveError, match=r"^the rack holds 2 blanks, the word marks 3$"):
        rules.validate(Board.empty(), Move(7, 7, True, "zoo"), rack_codes("??OABCD"), LEX)


def test_word_not_in_the_lexicon_is_refused():
    with pytest.raises(IllegalMoveError, match=r"^AXQ is not in the lexicon$"):
        _validate(Board.empty(), "h8,a,axq", "AXQBCDE")


def test_several_invalid_words_are_all_listed():
    # HOX over I N E makes HOX, HI, ON and XE: HOX and XE are not words.
    with pytest.raises(IllegalMoveError, match=r"^HOX, XE are not in the lexicon$"):
        _validate(_board(TRAINER_B8), "e7,a,hox", "HOXABCD")


def test_nostrict_returns_the_invalid_words_instead_of_raising():
    # HOX 4+1+8x2 = 21, HI 5, ON 2, XE 16+1 = 17: 45.
    scored = _validate(_board(TRAINER_B8), "e7,a,hox", "HOXABCD", enforce_words=False)
    assert scored.invalid_words == ("HOX", "XE")
    assert scored.score == 45
    valid = _validate(_board(TRAINER_B8), "e7,a,hob", "HOBABCD", enforce_words=False)
    assert valid.invalid_words == ()


def test_no_lexicon_checks_no_word():
    scored = _validate(Board.empty(), "h8,a,axq", "AXQBCDE", lexicon=None)
    assert scored.invalid_words == ()
    # A on the centre, X, Q: (1+8+10) x 2 = 38.
    assert scored.score == 38


def test_score_does_not_check_the_rack_or_the_lexicon():
    scored = rules.score(Board.empty(), _move("h8,a,axq"))
    assert scored.score == 38
    assert scored.implied_blanks == 0


# --- blanks ----------------------------------------------------------------------------


def test_letter_missing_from_the_rack_is_played_by_the_blank():
    # ZOO with Z and a blank and one O: the second O is the blank. Z on the centre.
    # Z O o: (10+1+0) x 2 = 22 (either O: equal score, the last one is chosen).
    scored = _validate(Board.empty(), "h8,a,zoo", "ZO?ABCD")
    assert scored.implied_blanks == 1
    assert scored.move.word == "ZOo"
    assert scored.score == 22


def test_implied_blank_ties_go_to_the_last_occurrence():
    # TRAINER from B8 with one R and a blank: R on C8 and on H8 both plain letter squares:
    # (1+0+2+1+1+1+1) x 2 = 14 either way; the blank is the last R. Bingo: 64.
    scored = _validate(Board.empty(), "b8,a,trainer", "AEITRN?")
    assert scored.move.word == "TRAINEr"
    assert scored.implied_blanks == 1
    assert scored.score == 64
    assert scored.bingo


def test_implied_blank_avoids_the_letter_premium():
    # BANANA from G8 with two A's and a blank: A's on H8 (centre), J8 and L8 (2L).
    # Blank on H8 or J8: (3+1+1+0+1+2) x 2 = 16; on L8 (the Scramble help's "third A"): 14.
    # resolve_blanks takes the best score, ties to the last: J8.
    scored = _validate(Board.empty(), "g8,a,banana", "BAANN?X")
    assert scored.move.word == "BANaNA"
    assert scored.score == 16
    assert scored.implied_blanks == 1


def test_dash_notation_marks_the_blank():
    assert parse_move("h8,a,b-anana", "scramble") == Move(7, 7, True, "BaNANA")
    assert parse_move("h8,a,ban-ana", "scramble") == Move(7, 7, True, "BANaNA")
    assert parse_move("h8,a,-zoo", "scramble") == Move(7, 7, True, "zOO")


def test_validate_keeps_a_marked_blank_where_the_slip_puts_it():
    # BaNANA from H8: B on the centre, blank A on I8, N on the 2L at L8:
    # (3+0+1+1+2+1) x 2 = 16; unmarked, the blank would go on the last A (M8).
    marked = _validate(Board.empty(), "h8,a,b-anana", "BAANN?X")
    assert marked.move.word == "BaNANA"
    assert marked.implied_blanks == 0
    assert marked.score == 16
    unmarked = _validate(Board.empty(), "h8,a,banana", "BAANN?X")
    assert unmarked.move.word == "BANANa"
    assert unmarked.implied_blanks == 1
    assert unmarked.score == 16
    assert marked.placed != unmarked.placed


def test_blank_can_stand_for_a_letter_the_rack_holds():
    # The Scramble help: -zoo keeps the Z. zOO: (0+1+1) x 2 = 4; with the Z: (10+1+1) x 2 = 24.
    marked = _validate(Board.empty(), "h8,a,-zoo", "ZOO?ABC")
    assert marked.move.word == "zOO"
    assert marked.score == 4
    assert sorted(rules.placed_codes(marked.placed)) == [0, 15, 15]
    plain = _validate(Board.empty(), "h8,a,zoo", "ZOO?ABC")
    assert plain.move.word == "ZOO"
    assert plain.score == 24


def test_two_implied_blanks():
    # ZOOM from H8 with Z, one O and two blanks: the second O (tie, last) and the M are
    # blanks: (10 + 1 + 0 + 0) x 2 = 22.
    scored = _validate(Board.empty(), "h8,a,zoom", "ZO??")
    assert scored.implied_blanks == 2
    assert scored.move.word == "ZOom"
    assert scored.score == 22


def test_implied_blanks_are_refused_when_the_rack_has_too_few():
    with pytest.raises(
        IllegalMoveError, match=r"^the rack is short of 1 M and 1 O, with only 1 blank to stand in$"
    ):
        _validate(Board.empty(), "h8,a,zoom", "ZO?")


# --- the generator and the validator agree ---------------------------------------------


def _spread(rows: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    return [rows[i * len(rows) // k] for i in range(k)]


def _check_generated_moves(row: dict[str, Any], lexicon: Lexicon) -> None:
    board = corpus_board(row)
    rack = rack_codes(row["rack"])
    recorder = recorders.AllMoves()
    movegen.generate(board, lexicon, rack, recorder)
    keys = set()
    for generated in recorder.moves:
        slip = Move(generated.row, generated.col, generated.across, generated.word)
        scored = rules.validate(board, slip, rack, lexicon)
        assert scored.score == generated.score, (row["rack"], str(generated))
        assert scored.move.word == generated.word, (row["rack"], str(generated))
        keys.add(generated.key(board))
    assert len(keys) == len(recorder.moves)
    assert len(keys) == row["moves"]


_ENABLE_ROWS = corpus_rows("enable-15.jsonl")
_FRENCH_ROWS = corpus_rows("french-15.jsonl")
_BIG_ROWS = corpus_rows("bigboards.jsonl")

ENGLISH_SAMPLE = _spread(_ENABLE_ROWS, 30)
FRENCH_SAMPLE = _spread(_FRENCH_ROWS, 7) + _spread([r for r in _FRENCH_ROWS if "?" in r["rack"]], 3)
# One position of each big board and language (the one a third into the game).
BIG_SAMPLE = [
    [r for r in _BIG_ROWS if r["layout"] == name][len([r for r in _BIG_ROWS if r["layout"] == name]) // 3]
    for name in sorted({r["layout"] for r in _BIG_ROWS})
]


def _id(row: dict[str, Any]) -> str:
    return f"{row['layout']}-t{row['turn']}-{row['rack']}"


@pytest.mark.parametrize("row", ENGLISH_SAMPLE, ids=_id)
def test_every_generated_english_move_validates_with_the_same_score(row, enable):
    _check_generated_moves(row, enable)


@pytest.mark.parametrize("row", FRENCH_SAMPLE, ids=_id)
def test_every_generated_french_move_validates_with_the_same_score(row, frlp):
    _check_generated_moves(row, frlp)


@pytest.mark.parametrize("row", BIG_SAMPLE, ids=_id)
def test_every_generated_big_board_move_validates_with_the_same_score(row, corpus_lexicons):
    _check_generated_moves(row, corpus_lexicons[row["lexicon"]])


def test_samples_cover_blanks_and_every_big_board():
    assert sum("?" in r["rack"] for r in ENGLISH_SAMPLE) >= 5
    assert sum("?" in r["rack"] for r in FRENCH_SAMPLE) >= 3
    assert {r["layout"] for r in BIG_SAMPLE} == {
        f"{b}_{lang}" for b in ("large", "broad", "grand") for lang in ("english", "french")
    }


def test_messages_name_squares_in_the_events_notation() -> None:
    board = Board.empty()
    board.play(Move(7, 3, True, "GRAZED"))  # D8..I8
    lex = Lexicon.from_words(["GRAZED", "AGRAZED"])
    wrong = Move(7, 4, True, "RAZED")  # starts on E8 with G on D8 just before it
    with pytest.raises(IllegalMoveError, match="G on D8 comes just before it"):
        rules.validate(board, wrong, rack_codes("A"), lex, Rules(notation="gcg"))
    with pytest.raises(IllegalMoveError, match="G on H4 comes just before it"):
        rules.validate(board, wrong, rack_codes("A"), lex, Rules(notation="fisf"))
    with pytest.raises(IllegalMoveError, match="centre square H8"):
        rules.validate(
            Board.empty(), Move(0, 0, True, "GRAZED"), rack_codes("ADEGRZ"), lex, Rules(notation="fisf")
        )


@pytest.mark.parametrize(
    ("word", "rack", "message"),
    [
        ("BAA", "B?Z", "the rack is short of 2 A, with only 1 blank to stand in"),
        ("ZZZ", "??", "the rack is short of 3 Z, with only 2 blanks to stand in"),
        ("AAA", "A?", "the rack is short of 2 A, with only 1 blank to stand in"),
        ("ZA", "A", "there is no Z in the rack"),
        ("AAB", "AB", "the rack holds 1 A, the word needs 2"),
    ],
)
def test_rack_messages_count_the_blanks_that_could_stand_in(word: str, rack: str, message: str) -> None:
    lex = Lexicon.from_words([word])
    with pytest.raises(IllegalMoveError, match=message):
        rules.validate(Board.empty(), Move(7, 7, True, word), rack_codes(rack), lex)


def test_an_unknown_notation_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown notation"):
        Rules(notation="xyz")
