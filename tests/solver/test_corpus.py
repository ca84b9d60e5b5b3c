"""The move generator pinned by the reference corpus (the perft files of this project).

Every position of ../shared/corpus (copied into tests/data/corpus) must give exactly the
reference number of distinct placements, the top score and the set of top moves.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from solver import movegen, recorders
from solver.lexicon import Lexicon
from solver.notation import format_move
from solver.tiles import rack_codes
from tests.conftest import corpus_board, corpus_rows

FILES = ("enable-15.jsonl", "french-15.jsonl", "bigboards.jsonl")
ROWS = [row for name in FILES for row in corpus_rows(name)]


def _id(row: dict[str, Any]) -> str:
    return f"{row['game']}-t{row['turn']}-{row['rack']}"


def test_the_corpus_has_every_file_and_position() -> None:
    assert len(ROWS) == 492 + 481 + 241


@pytest.fixture(params=movegen.KERNELS)
def kernel(request: pytest.FixtureRequest) -> str:
    """Both walkers are pinned: the compiled kernel and the pure-Python reference."""
    name: str = request.param
    if name not in movegen.kernels_available():
        if os.environ.get("CI"):
            pytest.fail(
                "the compiled kernel is not built in CI (pip install -e . must compile solver/_kernel.c)"
            )
        pytest.skip("compiled kernel not built here")
    return name


def test_ci_builds_the_compiled_kernel() -> None:
    if not os.environ.get("CI"):
        pytest.skip("only required in CI")
    assert movegen.kernels_available()[0] == "c" and movegen.default_kernel() == "c"


@pytest.mark.parametrize("row", ROWS, ids=_id)
def test_position_matches_the_reference(
    row: dict[str, Any], corpus_lexicons: dict[str, Lexicon], kernel: str
) -> None:
    board = corpus_board(row)
    recorder = recorders.TopMoves()
    generator = movegen.Generator(board, corpus_lexicons[row["lexicon"]], kernel=kernel)
    count = generator.generate(rack_codes(row["rack"]), recorder)
    assert count == row["moves"]
    assert recorder.best == row["top_score"]
    assert sorted(format_move(m, "gcg") for m in recorder.moves) == sorted(row["top_moves"])


@pytest.mark.parametrize("row", ROWS, ids=_id)
def test_the_bounded_top_search_finds_every_reference_top(
    row: dict[str, Any], corpus_lexicons: dict[str, Lexicon], kernel: str
) -> None:
    """The best-first search that does not count (solver.recorders.BestMoves) skips anchors
    whose bound is below the best found: it must still find every top of every position."""
    board = corpus_board(row)
    recorder = recorders.BestMoves(always=True)
    generator = movegen.Generator(board, corpus_lexicons[row["lexicon"]], kernel=kernel)
    count = generator.generate(rack_codes(row["rack"]), recorder)
    assert count == (-1 if kernel == "c" else row["moves"])
    quick = recorders.BestMoves()  # best first with a blank only: it does not pay without one
    count = generator.generate(rack_codes(row["rack"]), quick)
    assert count == (-1 if kernel == "c" and "?" in row["rack"] else row["moves"])
    assert sorted(format_move(m, "gcg") for m in quick.moves) == sorted(row["top_moves"])
    assert recorder.best == row["top_score"]
    assert sorted(format_move(m, "gcg") for m in recorder.moves) == sorted(row["top_moves"])
