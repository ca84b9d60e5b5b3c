"""The move value object.

A move is where a word starts, its direction, and the word written in full: uppercase for
a tile, lowercase for a blank, letters already on the board included (as on a slip).
Two moves are the same placement when they put the same tiles (blank designation
included) on the same squares: compare :meth:`Move.key` for that.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from solver.tiles import tile_code

if TYPE_CHECKING:
    from solver.boards import Board


@dataclass(frozen=True, order=True)
class Move:
    row: int
    col: int
    across: bool
    word: str
    #: Score filled in by the generator or :func:`solver.rules.score`; not part of identity.
    score: int | None = field(default=None, compare=False)

    def squares(self, size: int) -> list[int]:
        step = 1 if self.across else size
        start = self.row * size + self.col
        return [start + i * step for i in range(len(self.word))]

    def placements(self, board: Board) -> list[tuple[int, int]]:
        """(square, board code) of the tiles this move adds to ``board``."""
        out = []
        for sq, ch in zip(self.squares(board.size), self.word, strict=True):
            if not board.squares[sq]:
                out.append((sq, tile_code(ch)))
        return out

    def key(self, board: Board) -> tuple[tuple[int, int], ...]:
        """Identity as a placement: the same key means the same move."""
        return tuple(sorted(self.placements(board)))

    @classmethod
    def parse(cls, text: str, style: str = "gcg", size: int = 15) -> Move:
        """``Move.parse("8D GRAZED")``; see :func:`solver.notation.parse_move` (raises
        ``InvalidMoveError`` / ``IllegalMoveError``)."""
        from solver.notation import parse_move

        return parse_move(text, style, size)

    def with_score(self, score: int) -> Move:
        return Move(self.row, self.col, self.across, self.word, score)

    def __str__(self) -> str:
        from solver.notation import format_move

        return format_move(self, "gcg")
