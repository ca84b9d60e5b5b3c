"""Analyse a rack on a board: how many moves, the top score, every top, the chosen top.

When several moves share the top score the arbitrator chooses; the automatic choice
(the simulator, a default the arbitrator may change) orders equal tops by:

1. fewest blanks placed: a blank kept is worth more to the rest of the game;
2. most tiles placed: the game moves on and the bag empties faster;
3. board order: row, then column, across before down, then the word alphabetically;
4. for the same word in the same place, blanks on later squares first (the Scramble
   help's convention for unmarked blanks, docs/rules.md#blanks),

so that the choice never depends on the generator's internal order.

Every equal top is always listed, in that order, the chosen one first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.lexicon import Lexicon
from solver.move import Move
from solver.movegen import Generator
from solver.recorders import AllMoves, BestMoves, TopMoves, TopN
from solver.rules import Rules
from solver.tiles import BLANK_BIT

if TYPE_CHECKING:  # types only: Board.legal_moves imports this module
    from solver.boards import Board


@dataclass(frozen=True)
class Analysis:
    moves: int
    top_score: int | None
    tops: tuple[Move, ...]
    ranked: tuple[Move, ...] = ()

    @property
    def chosen(self) -> Move | None:
        return self.tops[0] if self.tops else None


def order_tops(board: Board, tops: list[Move]) -> list[Move]:
    """Equal tops in the order of the automatic choice (a total order: see the module)."""

    def key(m: Move) -> tuple[int, int, int, int, int, str, tuple[int, ...]]:
        placed = m.placements(board)
        blank_squares = sorted((sq for sq, code in placed if code & BLANK_BIT), reverse=True)
        return (
            len(blank_squares),
            -len(placed),
            m.row,
            m.col,
            0 if m.across else 1,
            m.word.upper(),
            tuple(-sq for sq in blank_squares),
        )

    return sorted(tops, key=key)


def analyse(
    board: Board, lexicon: Lexicon, rack: list[int], rules: Rules | None = None, *, keep: int | str = 0
) -> Analysis:
    """Count the moves and find the tops. ``keep``: also return the ``keep`` best moves
    ranked by score, equal scores in board order (an int), or ``"all"`` of them (virtual
    players need the full list)."""
    rules = rules or Rules()
    gen = Generator(board, lexicon, rules.gen_settings())
    ranked: tuple[Move, ...] = ()
    if keep == "all":
        rec_all = AllMoves()
        count = gen.generate(rack, rec_all)
        # Equal scores in board order: the walkers find them in orders of their own.
        moves = sorted(rec_all.moves, key=lambda m: (-(m.score or 0), m.row, m.col, m.across, m.word))
        ranked = tuple(moves)
        best = moves[0].score if moves else None
        tops = [m for m in moves if m.score == best]
    elif isinstance(keep, int) and keep > 0:
        rec_n = TopN(keep)
        count = gen.generate(rack, rec_n)
        ranked = tuple(rec_n.moves)
        best = ranked[0].score if ranked else None
        tops = [m for m in ranked if m.score == best]
        if len(tops) == keep:
            # The cut may fall inside a tie for the top: list every top with a second pass.
            rec_top = TopMoves()
            gen.generate(rack, rec_top)
            tops = rec_top.moves
    else:
        rec_top = TopMoves()
        count = gen.generate(rack, rec_top)
        best, tops = rec_top.best, rec_top.moves
    return Analysis(count, best, tuple(order_tops(board, tops)), ranked)


def tops(board: Board, lexicon: Lexicon, rack: list[int], rules: Rules | None = None) -> tuple[Move, ...]:
    """Every top, in the order of the automatic choice, without counting the moves (a
    bounded best-first search: see :class:`solver.recorders.BestMoves`)."""
    rules = rules or Rules()
    recorder = BestMoves()
    Generator(board, lexicon, rules.gen_settings()).generate(rack, recorder)
    return tuple(order_tops(board, recorder.moves))
