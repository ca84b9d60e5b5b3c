"""Arbiter's game engine: boards, tiles, lexicons, notation, rules, the exact move
generator, draws, the game simulator and file formats. Pure Python (an optional compiled
kernel speeds up the move generator); no Django import anywhere in it.

    >>> from solver import Board, Move, lexicon
    >>> board = Board.empty("standard", "english")
    >>> board.score(Move.parse("8D GRAZED")).score
    38
"""

from solver.analysis import Analysis, analyse
from solver.boards import Board, Layout, layout
from solver.errors import IllegalMoveError, IllegalRackError, InvalidMoveError
from solver.lexicon import Lexicon, LexiconError
from solver.move import Move
from solver.rules import Rules, Scored
from solver.tiles import TileSet, tile_set

__all__ = [
    "Analysis",
    "Board",
    "IllegalMoveError",
    "IllegalRackError",
    "InvalidMoveError",
    "Layout",
    "Lexicon",
    "LexiconError",
    "Move",
    "Rules",
    "Scored",
    "TileSet",
    "analyse",
    "layout",
    "tile_set",
]
