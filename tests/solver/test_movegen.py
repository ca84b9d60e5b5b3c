"""The generator's recorders, distinctness, the first-move rule and the top choice."""

from __future__ import annotations

import pytest

from solver import movegen, recorders
from solver.analysis import analyse, order_tops
from solver.boards import Board
from solver.lexicon import Lexicon
from solver.move import Move
from solver.notation import format_move, parse_move
from solver.rules import Rules, validate
from solver.tiles import rack_codes
from tests.conftest import corpus_board, corpus_rows

EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"


@pytest.fixture(scope="module")
def row_with_many_moves() -> dict:
    rows = corpus_rows("enable-15.jsonl")
    return max((r for r in rows if "?" not in r["rack"]), key=lambda r: r["moves"])


def test_all_moves_lists_each_placement_once(enable: Lexicon, row_with_many_moves: dict) -> None:
    board = corpus_board(row_with_many_moves)
    recorder = recorders.AllMoves()
    count = movegen.generate(board, enable, rack_codes(row_with_many_moves["rack"]), recorder)
    keys = [m.key(board) for m in recorder.moves]
    assert count == len(recorder.moves) == len(set(keys)) == row_with_many_moves["moves"]


def test_top_n_keeps_the_n_best_in_score_order(enable: Lexicon, row_with_many_moves: dict) -> None:
    board = corpus_board(row_with_many_moves)
    rack = rack_codes(row_with_many_moves["rack"])
    every = recorders.AllMoves()
    movegen.generate(board, enable, rack, every)
    best_scores = sorted((m.score for m in every.moves), reverse=True)[:10]
    top10 = recorders.TopN(10)
    movegen.generate(board, enable, rack, top10)
    assert [m.score for m in top10.moves] == best_scores


def test_count_only_counts_without_keeping(enable: Lexicon, row_with_many_moves: dict) -> None:
    board = corpus_board(row_with_many_moves)
    assert (
        movegen.generate(board, enable, rack_codes(row_with_many_moves["rack"]), recorders.CountOnly())
        == row_with_many_moves["moves"]
    )


def test_top_n_refuses_zero() -> None:
    with pytest.raises(ValueError, match="n >= 1"):
        recorders.TopN(0)


def test_a_one_tile_move_forming_words_both_ways_is_listed_once_across() -> None:
    lex = Lexicon.from_words(["AT", "TA", "AA", "TAT", "ATT"])
    board = Board.empty()
    board.play(parse_move("8G AT", "gcg"))
    board.play(parse_move("H7 TAT", "gcg"))  # H7 T, H8 A (shared), H9 T
    assert board.rows()[7][6:8] == "AT" and board.rows()[8][7] == "T"
    rec = recorders.AllMoves()
    movegen.generate(board, lex, rack_codes("A"), rec)
    keys = [m.key(board) for m in rec.moves]
    assert len(keys) == len(set(keys))
    # G9 is next to G8 (A) above and H9 (T) on its right: A there makes "AA" down and "AT" across.
    g9 = [m for m in rec.moves if m.key(board) == ((8 * 15 + 6, 1),)]
    assert len(g9) == 1 and g9[0].across


def test_first_move_is_horizontal_by_default_and_vertical_when_allowed(enable: Lexicon) -> None:
    board = Board.empty()
    rack = rack_codes("ADEGORZ")
    across_only = movegen.generate(board, enable, rack, recorders.CountOnly())
    both = movegen.generate(
        board, enable, rack, recorders.CountOnly(), movegen.GenSettings(first_move_horizontal=False)
    )
    assert across_only == 336
    assert both == 2 * 336


def test_bingo_bonus_setting_changes_the_top(enable: Lexicon) -> None:
    board = Board.empty()
    rack = rack_codes("AEINRST")
    default = analyse(board, enable, rack)
    bigger = analyse(board, enable, rack, Rules(bingo_bonus=70))
    assert bigger.top_score == default.top_score + 20


def test_an_empty_rack_or_a_rack_without_moves_gives_no_top(enable: Lexicon) -> None:
    result = analyse(Board.empty(), enable, rack_codes("QQ"))
    assert result.moves == 0 and result.top_score is None and result.chosen is None


def test_a_rack_longer_than_the_board_allows_is_refused(enable: Lexicon) -> None:
    with pytest.raises(ValueError, match="at most 7"):
        movegen.generate(Board.empty(), enable, rack_codes("AEINRSTX"), recorders.CountOnly())


def test_equal_tops_put_fewest_blanks_first() -> None:
    board = Board.empty()
    with_blank = Move(7, 3, True, "GRAzED")
    plain = Move(7, 6, True, "GRAZED")
    assert order_tops(board, [with_blank, plain])[0] == plain


def test_equal_tops_then_put_most_tiles_first() -> None:
    board = Board.empty()
    board.play(Move(7, 7, True, "AT"))
    short = Move(6, 7, True, "AT")  # 2 tiles
    longer = Move(8, 4, True, "BEAST")  # 5 tiles
    assert order_tops(board, [short, longer])[0] == longer


def test_equal_tops_finally_follow_board_order() -> None:
    board = Board.empty()
    a, b = Move(7, 6, True, "GRAZED"), Move(7, 3, True, "GRAZED")
    assert order_tops(board, [a, b]) == [b, a]


def test_every_top_of_the_analysis_scores_the_top_score(enable: Lexicon) -> None:
    rows = corpus_rows("enable-15.jsonl")
    row = next(r for r in rows if len(r["top_moves"]) > 3)
    board = corpus_board(row)
    rack = rack_codes(row["rack"])
    result = analyse(board, enable, rack, keep=5)
    assert sorted(format_move(m, "gcg") for m in result.tops) == sorted(row["top_moves"])
    for move in result.tops:
        assert validate(board, move, rack, enable).score == row["top_score"]
    assert result.ranked[0].score == row["top_score"]


@pytest.mark.skipif("c" not in movegen.kernels_available(), reason="compiled kernel not built here")
def test_both_kernels_give_the_same_moves_in_the_same_order_without_blanks(
    enable: Lexicon, frlp: Lexicon
) -> None:
    """With a blank the compiled walk chooses which tiles are blanks at the end of each word
    (solver/_kernel.c), so it finds the same moves in another order; without, the same."""
    rows = (
        corpus_rows("enable-15.jsonl")[::25]
        + [r for r in corpus_rows("bigboards.jsonl") if "?" in r["rack"]][:3]
    )
    assert any("?" in r["rack"] for r in rows) and any("?" not in r["rack"] for r in rows)
    for row in rows:
        board = corpus_board(row)
        lex = enable if row["lexicon"] == "ENABLE" else frlp
        results = []
        for kernel in movegen.KERNELS:
            rec = recorders.AllMoves()
            movegen.Generator(board, lex, kernel=kernel).generate(rack_codes(row["rack"]), rec)
            results.append([(m, m.score) for m in rec.moves])
        if "?" in row["rack"]:
            results = [sorted(r) for r in results]
        assert results[0] == results[1]


def test_an_unknown_kernel_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="not available"):
        movegen.Generator(Board.empty(), Lexicon.from_words(["AA"]), kernel="fortran")
    monkeypatch.setenv("ARBITER_SOLVER_KERNEL", "fortran")
    with pytest.raises(ValueError, match="choose c or python"):
        movegen.default_kernel()


def test_the_python_kernel_can_be_forced_by_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITER_SOLVER_KERNEL", "python")
    assert movegen.Generator(Board.empty(), Lexicon.from_words(["AA"])).kernel == "python"


def test_a_recorder_error_stops_the_generator_and_propagates(enable: Lexicon) -> None:
    class Boom(recorders.Recorder):
        def add(self, score: int, across: bool, line: int, start: int, word: list[int], placed: int) -> None:
            raise RuntimeError("recorder failed")

    for kernel in movegen.kernels_available():
        with pytest.raises(RuntimeError, match="recorder failed"):
            movegen.Generator(Board.empty(), enable, kernel=kernel).generate(rack_codes("ADEGORZ"), Boom())


def test_equal_tops_differing_only_by_the_blank_square_have_one_order() -> None:
    board = Board.empty()
    tops = [Move(7, 3, True, "BANANa"), Move(7, 3, True, "BaNANA"), Move(7, 3, True, "BANaNA")]
    assert order_tops(board, tops) == order_tops(board, tops[::-1])
    assert order_tops(board, tops)[0].word == "BANANa"  # the blank on the last A


@pytest.mark.skipif("c" not in movegen.kernels_available(), reason="compiled kernel not built here")
def test_the_compiled_kernel_refuses_a_damaged_automaton_instead_of_crashing() -> None:
    from array import array

    from solver.gaddag import Gaddag

    nodes = 3
    damaged = Gaddag(
        array("I", [0x7FFFFFE] * nodes),
        array("I", [0] * nodes),
        array("I", [0] * nodes),
        array("I", [50_000_000] * 26),
    )
    with pytest.raises(ValueError, match="damaged lexicon"):
        movegen.Generator(Board.empty(), damaged, kernel="c").generate(
            rack_codes("AB"), recorders.CountOnly()
        )


@pytest.mark.parametrize("kernel", movegen.kernels_available())
def test_a_cut_inside_a_tie_keeps_the_first_moves_in_board_order(enable: Lexicon, kernel: str) -> None:
    rows = corpus_rows("enable-15.jsonl")
    row = next(r for r in rows if "?" in r["rack"] and len(r["top_moves"]) >= 3)
    board = corpus_board(row)
    gen = movegen.Generator(board, enable, kernel=kernel)
    every = recorders.AllMoves()
    gen.generate(rack_codes(row["rack"]), every)
    ranked = sorted(every.moves, key=lambda m: (-(m.score or 0), m))
    for n in (1, 2, len(row["top_moves"]) - 1, 25):
        cut = recorders.TopN(n)
        gen.generate(rack_codes(row["rack"]), cut)
        assert [(m, m.score) for m in cut.moves] == [(m, m.score) for m in ranked[:n]]
    analysed = analyse(board, enable, rack_codes(row["rack"]), keep="all").ranked
    assert [(m, m.score) for m in analysed] == [(m, m.score) for m in ranked]
