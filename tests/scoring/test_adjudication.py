"""Slip adjudication (scoring.adjudication, docs/rules.md#adjudication).

Scores are worked by hand from the standard board and English values (C 3, A 1,
T 1, S 1, blank 0). Premiums used (0-based row, col): (7, 7) is the centre, double word;
(8, 8) (square I9 in FISF) is a double letter; the other squares touched here are plain.

The main position, ``_cat()``: CAT across on row H from the centre, C (7, 7), A (7, 8),
T (7, 9); in FISF that is ``H8 CAT``, in GCG ``8H CAT``. ``H8 CATS`` then places only the
S, on a plain square: 3 + 1 + 1 + 1 = 6 points, 1 letterpoint.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.adjudication import (
    REASON_TEXT,
    AdjudicationSettings,
    Credit,
    Note,
    Reason,
    SlipInput,
    Verdict,
    accept_shift,
    adjudicate_slip,
    credit_round,
    warning_penalty,
)
from solver.boards import Board
from solver.lexicon import Lexicon
from solver.move import Move
from solver.rules import Rules
from solver.tiles import rack_codes

LEX = Lexicon.from_words(["CAT", "CATS", "AT", "TA"], name="adjudication")
RULES = Rules(notation="fisf")
FISF = AdjudicationSettings()
#: The arbitrator's choice of a nearby placement instead of the FISF 2016 rule, the slip
#: judged at its written reference on the first round too, and no location by raccord or
#: prolongation (CATS prolongs CAT): the rulings "as written".
NEARBY = AdjudicationSettings(reference_rule="nearby", first_slip_best_placement=False, raccord=False)
# Rack with an S and neither C nor T: around CAT, only ``H8 CATS`` can take the word CATS.
RACK_S = "SEINORD"


def _cat() -> Board:
    board = Board.empty()
    board.play(Move(7, 7, True, "CAT"))
    return board


def _judge(
    coords: str,
    word: str,
    announced: int | None = None,
    *,
    rack: str = RACK_S,
    board: Board | None = None,
    settings: AdjudicationSettings = FISF,
    late: bool = False,
) -> Verdict:
    slip = SlipInput(coords, word, announced, late)
    return adjudicate_slip(board or _cat(), rack_codes(rack), LEX, RULES, settings, slip)


def _accept(
    coords: str,
    word: str,
    announced: int | None,
    verdict: Verdict,
    *,
    rack: str = RACK_S,
    board: Board | None = None,
    settings: AdjudicationSettings = FISF,
) -> Verdict:
    slip = SlipInput(coords, word, announced)
    return accept_shift(board or _cat(), rack_codes(rack), LEX, RULES, settings, slip, verdict)


# --- reasons without a move -------------------------------------------------------------


def test_missing_slip_scores_zero() -> None:
    verdict = adjudicate_slip(_cat(), rack_codes(RACK_S), LEX, RULES, FISF, None)
    assert verdict == Verdict(Reason.MISSING, verdict.notes)
    assert verdict.detail == "no slip for this round"


def test_late_slip_scores_zero_even_for_a_valid_move() -> None:
    verdict = _judge("H8", "CATS", 6, late=True)
    assert verdict.reason == Reason.LATE
    assert (verdict.score, verdict.move_score, verdict.move, verdict.warnings) == (0, 0, "", 0)


@pytest.mark.parametrize(("coords", "word"), [("", ""), ("  ", " ")])
def test_blank_slip(coords: str, word: str) -> None:
    verdict = _judge(coords, word, 6)
    assert verdict.reason == Reason.BLANK_SLIP
    assert verdict.score == 0


@pytest.mark.parametrize(
    ("coords", "word", "message"),
    [
        ("H8", "", "missing word after H8"),
        ("", "CATS", "missing coordinates"),
        ("H8", "CA1S", "the word 'CA1S' holds a character that is not a letter: '1'"),
        ("XYZ", "CATS", "cannot read the coordinates 'XYZ'"),
        ("h8,a", "CATS TOO", "unexpected text after the word"),
    ],
)
def test_unreadable_slip_gives_the_parser_message(coords: str, word: str, message: str) -> None:
    verdict = _judge(coords, word, 6, settings=NEARBY)
    assert verdict.reason == Reason.UNREADABLE
    assert verdict.detail == message
    assert (verdict.move, verdict.score, verdict.shift_candidate) == ("", 0, "")


# --- valid moves -----------------------------------------------------------------------


def test_valid_move_is_scored() -> None:
    verdict = _judge("H8", "CATS", 6)
    assert verdict == Verdict(
        reason=Reason.OK,
        notes=(Note("scores", {"move": "H8 CATS", "score": 6}),),
        move="8H CATS",
        move_score=6,
        score=6,
        letterpoints=1,
    )


def test_first_move_with_premium_and_letterpoints() -> None:
    # C A T on (7, 7..9): the centre doubles the word, (3 + 1 + 1) x 2 = 10; face 5.
    verdict = _judge("H8", "CAT", 10, rack="CATSEIN", board=Board.empty())
    assert (verdict.reason, verdict.move_score, verdict.score, verdict.letterpoints) == (Reason.OK, 10, 10, 5)


def test_fisf_and_gcg_read_the_same_coordinates_differently() -> None:
    # FISF H8: row H, column 8, across. GCG H8: column H, row 8, down, which needs A and T.
    assert _judge("H8", "CATS", 6).move == "8H CATS"
    gcg = replace(NEARBY, notation="gcg")
    down = _judge("H8", "CATS", 6, settings=gcg)
    assert down.reason == Reason.ILLEGAL
    assert down.move == "H8 CATS"
    # The GCG way to write the FISF H8 is 8H; in FISF, 8H is column 8, row H, down.
    assert _judge("8H", "CATS", 6, settings=gcg).move == "8H CATS"
    assert _judge("8H", "CATS", 6, settings=NEARBY).move == "H8 CATS"
    # The FISF ignores the reference of a word prolonging a word of the board (CAT).
    assert (_judge("8H", "CATS", 6).move, _judge("8H", "CATS", 6).warnings) == ("8H CATS", 0)


@pytest.mark.parametrize("notation", ["fisf", "gcg", "scramble"])
def test_scramble_coordinates_are_read_in_every_notation(notation: str) -> None:
    verdict = _judge("h8,a", "cats", 6, settings=AdjudicationSettings(notation=notation))
    assert (verdict.reason, verdict.move, verdict.score) == (Reason.OK, "8H CATS", 6)


@pytest.mark.parametrize(
    ("coords", "word"),
    [("H 8", "CATS"), ("H8 CATS", ""), ("h8,a,cats", ""), (" h8 , a ", " CATS ")],
)
def test_slip_typing_slips_are_forgiven(coords: str, word: str) -> None:
    verdict = _judge(coords, word, 6)
    assert (verdict.reason, verdict.move) == (Reason.OK, "8H CATS")


def test_illegal_move_scores_zero_with_the_rule_message() -> None:
    verdict = _judge("H8", "CATS", 6, rack="EINORDL")
    assert verdict.reason == Reason.ILLEGAL
    assert verdict.detail == "there is no S in the rack"
    assert (verdict.move, verdict.move_score, verdict.score, verdict.letterpoints) == ("8H CATS", 0, 0, 0)
    assert verdict.shift_candidate == ""


def test_move_running_off_the_board_is_illegal() -> None:
    verdict = _judge("H13", "CATS", 6, settings=NEARBY)
    assert verdict.reason == Reason.ILLEGAL
    assert verdict.detail.startswith("the word runs off the board")
    assert verdict.move == "8M CATS"


def test_word_not_in_lexicon() -> None:
    verdict = _judge("H8", "CATX", 14, rack="SXEINOR")
    assert verdict.reason == Reason.NOT_IN_LEXICON
    assert verdict.detail == "CATX is not in the lexicon"
    assert verdict.invalid_words == ("CATX",)
    assert (verdict.move, verdict.move_score, verdict.score, verdict.letterpoints) == ("8H CATX", 0, 0, 0)


def test_several_words_not_in_lexicon() -> None:
    # AT on I9 (FISF, row I from column 9) lies under A and T: AA and TT down.
    verdict = _judge("I9", "AT", 4, rack="ATEINOR", settings=NEARBY)
    assert verdict.detail == "AA, TT are not in the lexicon"
    assert verdict.invalid_words == ("AA", "TT")


# --- announced score -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("policy", "announced", "score", "warnings"),
    [
        ("fisf", 6, 6, 0),
        ("fisf", 5, 6, 1),  # lower: warning, real score
        ("fisf", 8, 6, 1),  # higher: warning, real score
        ("fisf", None, 6, 1),  # missing: warning, real score
        ("english", 6, 6, 0),
        ("english", 5, 5, 0),  # lower: credited as written
        ("english", 7, 4, 0),  # higher by 1: 6 - 2 x 1
        ("english", 8, 2, 0),  # higher by 2: 6 - 2 x 2
        ("english", 9, 0, 0),  # higher by 3: 6 - 2 x 3, exactly 0
        ("english", 10, 0, 0),  # higher by 4: 6 - 8 = -2, clamped at 0
        ("english", None, 6, 1),  # missing: warning, real score
    ],
)
def test_announced_score_policy(policy: str, announced: int | None, score: int, warnings: int) -> None:
    verdict = _judge("H8", "CATS", announced, settings=AdjudicationSettings(score_policy=policy))
    assert verdict.reason == Reason.OK
    assert (verdict.move_score, verdict.score, verdict.warnings, verdict.penalty) == (6, score, warnings, 0)


def test_announced_score_notes_in_detail() -> None:
    assert _judge("H8", "CATS", None).detail == "H8 CATS scores 6; no score announced: warning"
    assert _judge("H8", "CATS", 5).detail == "H8 CATS scores 6; announced 5: warning"
    english = AdjudicationSettings(score_policy="english")
    assert "credited as written" in _judge("H8", "CATS", 5, settings=english).detail
    assert "twice the excess" in _judge("H8", "CATS", 8, settings=english).detail


# --- unmarked blank --------------------------------------------------------------------


@pytest.mark.parametrize(("setting", "warnings"), [(True, 1), (False, 0)])
def test_unmarked_blank(setting: bool, warnings: int) -> None:
    # No S in the rack: the blank plays it, worth 0, so 3 + 1 + 1 + 0 = 5.
    settings = AdjudicationSettings(unmarked_blank_warning=setting)
    verdict = _judge("H8", "CATS", 5, rack="?EINORD", settings=settings)
    assert (verdict.reason, verdict.move, verdict.score, verdict.letterpoints) == (Reason.OK, "8H CATs", 5, 0)
    assert verdict.warnings == warnings
    assert ("blank not marked" in verdict.detail) == setting


@pytest.mark.parametrize("setting", [True, False])
def test_marked_blank_earns_no_warning(setting: bool) -> None:
    settings = AdjudicationSettings(unmarked_blank_warning=setting)
    for word in ("CATs", "CAT-s"):
        verdict = _judge("H8", word, 5, rack="?EINORD", settings=settings)
        assert (verdict.move, verdict.score, verdict.warnings) == ("8H CATs", 5, 0)


def test_unmarked_blank_and_wrong_score_are_two_warnings_without_the_single_warning_rule() -> None:
    verdict = _judge("H8", "CATS", 6, rack="?EINORD", settings=replace(FISF, single_warning=False))
    assert verdict.warnings == 2
    assert _judge("H8", "CATS", 6, rack="?EINORD").warnings == 1  # FISF 5.8: one at most


# --- shifted reference, the arbitrator's choice (reference_rule="nearby") -----------------


def test_shift_candidate_along_the_word() -> None:
    # H9 starts CATS on the A: the only nearby fit is one square left, H8.
    verdict = _judge("H9", "CATS", 6, settings=NEARBY)
    assert verdict.reason == Reason.ILLEGAL
    assert verdict.shift_candidate == "8H CATS"
    assert verdict.score == 0  # only the arbitrator may accept it
    assert "the word fits at H8 CATS only" in verdict.detail


def test_shift_candidate_for_swapped_coordinates() -> None:
    # FISF 8H is column 8, row H, down (the player meant H8): same square, other direction.
    verdict = _judge("8H", "CATS", 6, settings=NEARBY)
    assert verdict.reason == Reason.ILLEGAL
    assert verdict.shift_candidate == "8H CATS"


def test_no_shift_candidate_when_two_placements_fit() -> None:
    # With C, T and S in the rack, CATS also fits down column I through the A (FISF 9G):
    # two nearby fits of H9 CATS, so none is offered.
    rack = "SCTINOR"
    assert _judge("H8", "CATS", 6, rack=rack, settings=NEARBY).reason == Reason.OK
    assert _judge("9G", "CATS", 7, rack=rack, settings=NEARBY).reason == Reason.OK
    verdict = _judge("H9", "CATS", 6, rack=rack, settings=NEARBY)
    assert verdict.reason == Reason.ILLEGAL
    assert verdict.shift_candidate == ""
    assert "fits" not in verdict.detail


def test_no_shift_candidate_on_the_first_move_with_two_fits() -> None:
    # 8H CAT (down) is illegal on an empty board; across, both H7 and H8 cover the centre.
    verdict = _judge("8H", "CAT", 10, rack="CATSEIN", board=Board.empty(), settings=NEARBY)
    assert verdict.detail == "the first word must be horizontal"
    assert verdict.shift_candidate == ""


def test_shift_candidate_for_a_word_not_in_the_lexicon() -> None:
    # I8 AT puts A under C (CA, not a word); one row up and across, 9H in FISF is column 9
    # from row H down: A on the board, T on the double letter (8, 8): 1 + 1 x 2 = 3.
    verdict = _judge("I8", "AT", 3, rack="ATEINOR", settings=NEARBY)
    assert verdict.reason == Reason.NOT_IN_LEXICON
    assert verdict.invalid_words == ("CA",)
    assert verdict.shift_candidate == "I8 AT"  # GCG: column I from row 8, down


def test_shift_candidate_for_coordinates_off_the_board() -> None:
    # CAT ends on O8 (T on (7, 14)); the player wrote column 16 for TA down from the T.
    board = Board.empty()
    board.play(Move(7, 12, True, "CAT"))
    verdict = _judge("16H", "TA", 2, rack="ATEINOR", board=board, settings=NEARBY)
    assert verdict.reason == Reason.UNREADABLE
    assert verdict.detail.startswith("column 16 is off a 15x15 board")
    assert verdict.shift_candidate == "O8 TA"


def test_shift_candidate_for_a_missing_direction() -> None:
    # Scramble style without ",a": both directions are tried at h8 and around it.
    verdict = _judge("h8", "CATS", 6, settings=replace(NEARBY, notation="scramble"))
    assert verdict.reason == Reason.UNREADABLE
    assert verdict.detail.startswith("missing direction after h8")
    assert verdict.shift_candidate == "8H CATS"


def test_shift_candidate_for_an_unknown_direction() -> None:
    verdict = _judge("h8,x", "CATS", 6, settings=NEARBY)
    assert verdict.reason == Reason.UNREADABLE
    assert verdict.detail.startswith("unknown direction 'x'")
    assert verdict.shift_candidate == "8H CATS"


def test_no_shift_candidate_when_the_word_is_unreadable() -> None:
    assert _judge("H9", "CA1S", 6, settings=NEARBY).shift_candidate == ""
    assert _judge("Z99", "CA1S", 6, settings=NEARBY).shift_candidate == ""


@pytest.mark.parametrize(("setting", "penalty"), [(5, 5), (10, 10)])
def test_accept_shift(setting: int, penalty: int) -> None:
    settings = replace(NEARBY, shift_penalty=setting)
    verdict = _judge("H9", "CATS", 6, settings=settings)
    accepted = _accept("H9", "CATS", 6, verdict, settings=settings)
    assert accepted.reason == Reason.SHIFT_ACCEPTED
    assert (accepted.move, accepted.move_score, accepted.score) == ("8H CATS", 6, 6)
    assert (accepted.penalty, accepted.warnings, accepted.letterpoints) == (penalty, 0, 1)
    assert accepted.shift_candidate == ""
    assert f"{penalty}-point penalty" in accepted.detail


def test_accept_shift_judges_the_announced_score() -> None:
    several = replace(NEARBY, single_warning=False)
    verdict = _judge("I8", "AT", 5, rack="ATEINOR", settings=several)
    accepted = _accept("I8", "AT", 5, verdict, rack="ATEINOR", settings=several)
    assert (accepted.move, accepted.move_score, accepted.score) == ("I8 AT", 3, 3)
    assert (accepted.warnings, accepted.penalty) == (1, 5)
    # FISF 5.8: no warning beside the penalty.
    fisf = _accept("I8", "AT", 5, verdict, rack="ATEINOR", settings=NEARBY)
    assert (fisf.warnings, fisf.penalty) == (0, 5)
    english = replace(NEARBY, score_policy="english")
    verdict = _judge("I8", "AT", 2, rack="ATEINOR", settings=english)
    accepted = _accept("I8", "AT", 2, verdict, rack="ATEINOR", settings=english)
    assert (accepted.score, accepted.warnings, accepted.penalty) == (2, 0, 5)


def test_accept_shift_without_candidate_is_refused() -> None:
    verdict = _judge("H8", "CATS", 6, rack="EINORDL", settings=NEARBY)
    with pytest.raises(ValueError, match="no shifted placement"):
        _accept("H8", "CATS", 6, verdict, rack="EINORDL", settings=NEARBY)


def test_accept_shift_refuses_a_candidate_the_slip_does_not_give() -> None:
    forged = replace(_judge("H8", "CATS", 6, rack="EINORDL", settings=NEARBY), shift_candidate="8H CATS")
    with pytest.raises(ValueError, match="not the shifted placement"):
        _accept("H8", "CATS", 6, forged, rack="EINORDL", settings=NEARBY)


# --- crediting a round -----------------------------------------------------------------


def _ok(score: int, warnings: int = 0, penalty: int = 0, reason: str = Reason.OK) -> Verdict:
    return Verdict(reason, (), "8H CATS", score, score, warnings, penalty)


def _credit(
    verdicts: dict[str, Verdict],
    top: int,
    players: int,
    prior: dict[str, int] | None = None,
    **kwargs: object,
) -> dict[str, Credit]:
    settings = AdjudicationSettings(**kwargs)  # type: ignore[arg-type]
    return credit_round(
        verdicts, top_score=top, prior_warnings=prior or {}, players_in_game=players, settings=settings
    )


@pytest.mark.parametrize(("players", "solo"), [(16, True), (15, False)])
def test_solo_needs_enough_players(players: int, solo: bool) -> None:
    credits = _credit({"ann": _ok(30), "bob": _ok(20)}, 30, players)
    assert credits["ann"] == Credit(
        credited=40 if solo else 30, penalty=0, solo=solo, is_top=True, warnings=0
    )
    assert credits["bob"] == Credit(credited=20, penalty=0, solo=False, is_top=False, warnings=0)


@pytest.mark.parametrize(("minimum", "bonus", "credited"), [(16, 10, 30), (4, 10, 40), (4, 7, 37)])
def test_solo_settings(minimum: int, bonus: int, credited: int) -> None:
    credits = _credit({"ann": _ok(30), "bob": _ok(20)}, 30, 4, solo_min_players=minimum, solo_bonus=bonus)
    assert credits["ann"].credited == credited
    assert credits["ann"].solo == (credited != 30)


def test_two_players_on_the_top_share_no_solo() -> None:
    credits = _credit({"ann": _ok(30), "bob": _ok(30), "cid": _ok(12)}, 30, 100)
    assert [(c.is_top, c.solo, c.credited) for c in credits.values()] == [
        (True, False, 30),
        (True, False, 30),
        (False, False, 12),
    ]


def test_only_scored_reasons_count_for_the_top() -> None:
    illegal = _ok(30, reason=Reason.ILLEGAL)
    average = _ok(30, reason=Reason.AVERAGE)
    shifted = _ok(30, penalty=5, reason=Reason.SHIFT_ACCEPTED)
    credits = _credit({"ann": illegal, "bob": shifted, "cy": average}, 30, 16)
    assert not credits["ann"].is_top
    assert not credits["cy"].is_top
    assert credits["bob"] == Credit(credited=35, penalty=5, solo=True, is_top=True, warnings=0)


@pytest.mark.parametrize(
    "reason",
    [Reason.OK, Reason.WRONG_REFERENCE, Reason.OMITTED_LETTERS, Reason.SHIFT_ACCEPTED, Reason.OVERRIDDEN],
)
def test_every_credited_move_at_the_top_score_is_a_top(reason: str) -> None:
    credits = _credit({"ann": _ok(30, reason=reason), "bob": _ok(20)}, 30, 16)
    assert (credits["ann"].is_top, credits["ann"].solo) == (True, True)


def test_no_top_when_the_top_score_is_zero() -> None:
    credits = _credit({"ann": Verdict(Reason.MISSING), "bob": _ok(0)}, 0, 16)
    assert not any(c.is_top or c.solo for c in credits.values())


@pytest.mark.parametrize(
    ("prior", "warnings", "penalty"),
    [
        (0, 1, 0),
        (2, 1, 0),  # the 3rd warning is still free
        (3, 1, 5),  # the 4th costs
        (2, 2, 5),  # 3rd free, 4th costs
        (5, 2, 10),  # 6th and 7th cost
        (3, 0, 0),  # no warning this round, nothing to pay
    ],
)
def test_warnings_beyond_the_third(prior: int, warnings: int, penalty: int) -> None:
    credits = _credit({"ann": _ok(20, warnings)}, 30, 2, prior={"ann": prior})
    assert credits["ann"] == Credit(
        credited=20 - penalty, penalty=penalty, solo=False, is_top=False, warnings=warnings
    )


@pytest.mark.parametrize(
    ("free", "each", "penalties"),
    [(3, 5, [0, 0, 5, 10]), (1, 2, [0, 4, 2, 4])],
)
def test_warnings_across_rounds(free: int, each: int, penalties: list[int]) -> None:
    # Warnings per round 1, 2, 1, 2: totals 1, 3, 4, 6.
    prior = 0
    paid = []
    for warnings in (1, 2, 1, 2):
        credit = _credit(
            {"ann": _ok(20, warnings)}, 20, 2, prior={"ann": prior}, free_warnings=free, warning_penalty=each
        )
        paid.append(credit["ann"].penalty)
        prior += credit["ann"].warnings
    assert paid == penalties


@pytest.mark.parametrize(
    ("prior", "this_round", "free", "penalty"),
    [
        (3, 1, 3, 5),  # the free ones used up: the 4th costs
        (2, 2, 3, 5),  # the 3rd is free, the 4th costs
        (0, 1, 3, 0),
        (5, 2, 3, 10),  # already beyond: each one costs
        (0, 2, 0, 10),  # no free warning
        (4, 0, 3, 0),  # none this round, nothing to pay
    ],
)
def test_warning_penalty_counts_this_rounds_warnings_beyond_the_free_ones(
    prior: int, this_round: int, free: int, penalty: int
) -> None:
    settings = AdjudicationSettings(free_warnings=free, warning_penalty=5)
    assert warning_penalty(prior, this_round, settings) == penalty
    doubled = AdjudicationSettings(free_warnings=free, warning_penalty=10)
    assert warning_penalty(prior, this_round, doubled) == 2 * penalty


def test_slip_penalty_and_warning_penalty_add_up() -> None:
    # An accepted shift (5) with a 4th warning (5), on the only top with 16 players (+10).
    credits = _credit(
        {"ann": _ok(30, warnings=1, penalty=5, reason=Reason.SHIFT_ACCEPTED)}, 30, 16, prior={"ann": 3}
    )
    assert credits["ann"] == Credit(credited=30, penalty=10, solo=True, is_top=True, warnings=1)


def test_player_without_prior_warnings_starts_at_zero() -> None:
    credits = _credit({"ann": _ok(20, 3), "bob": _ok(20, 4)}, 30, 2, prior={})
    assert (credits["ann"].penalty, credits["bob"].penalty) == (0, 5)


# --- settings and texts ----------------------------------------------------------------


def test_every_reason_has_a_sentence() -> None:
    codes = {value for name, value in vars(Reason).items() if name.isupper()}
    assert set(REASON_TEXT) == codes
    assert all(text.endswith(".") for text in REASON_TEXT.values())


@pytest.mark.parametrize(
    "kwargs",
    [{"score_policy": "wespa"}, {"notation": "xyz"}, {"free_warnings": -1}, {"shift_penalty": -5}],
)
def test_settings_are_checked(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        AdjudicationSettings(**kwargs)  # type: ignore[arg-type]
