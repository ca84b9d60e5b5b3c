"""The package's public surface, python-chess style: Move.parse, Board.score, legal_moves."""

from __future__ import annotations

import doctest

import pytest

import solver
from solver import Board, IllegalMoveError, InvalidMoveError, Lexicon, Move


def test_the_package_docstring_example_runs() -> None:
    result = doctest.testmod(solver)
    assert result.attempted > 0 and result.failed == 0


def test_move_parse_reads_each_style_and_the_repr_round_trips() -> None:
    move = Move.parse("8D GRAZED")
    assert move == Move.parse("H4 GRAZED", "fisf") == Move.parse("d8,a,grazed", "scramble")
    assert eval(repr(move), {"Move": Move}) == move
    assert str(move) == "8D GRAZED"


def test_move_parse_raises_the_documented_errors() -> None:
    with pytest.raises(InvalidMoveError):
        Move.parse("8 GRAZED")
    with pytest.raises(IllegalMoveError):
        Move.parse("8M GRAZED")  # M..R is off a 15x15 board after O


def test_board_score_and_legal_moves() -> None:
    lex = Lexicon.from_words(["GRAZED", "RAZED", "ZED", "AD"])
    board = Board.empty()
    assert board.score(Move.parse("8D GRAZED")).score == 38
    moves = board.legal_moves("ADEGORZ", lex)
    assert [m.score for m in moves] == sorted((m.score for m in moves), reverse=True)
    assert {str(m) for m in moves if m.score == 38} == {"8D GRAZED", "8G GRAZED"}
    with pytest.raises(IllegalMoveError, match="first word must cover the centre"):
        board.score(Move.parse("1A GRAZED"))
