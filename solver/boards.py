"""Board layouts (premium squares) and the board position.

The four layouts are the drawings of the Scramble help (docs/rules.md#boards), kept
verbatim as text in ``solver/data/boards/`` and parsed here, so the data can be checked
against that page.

A square is a flat index ``row * size + col`` (0-based). A :class:`Board` holds the tiles
as a flat list of codes (see :mod:`solver.tiles`); the move generator's caches
(cross-sets, anchors) live in :mod:`solver.movegen`, not here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from solver.tiles import BLANK_BIT, LETTER_MASK, TileSet, code_char, rack_size, size_sets, tile_set

if TYPE_CHECKING:
    from solver.lexicon import Lexicon
    from solver.move import Move
    from solver.rules import Rules, Scored

#: Premium symbols of the board drawings (docs/rules.md#boards): (letter multiplier, word
#: multiplier).
PREMIUMS = {
    ".": (1, 1),
    "%": (2, 1),
    "@": (3, 1),
    "&": (4, 1),
    "*": (1, 2),
    "#": (1, 3),
    "$": (1, 4),
}
#: Every board, in the order offered to people; the drawing of each is
#: ``solver/data/boards/NAME.txt``. Adding a board is a drawing and a name here (a board
#: of a new size also needs the size's line in :data:`solver.tiles.SIZES`): the event
#: model's choices, the commands' options and the CGP reader follow from this list.
LAYOUT_NAMES = ("standard", "large", "broad", "grand")


@dataclass(frozen=True)
class Layout:
    """The premium squares of one board, as flat tuples indexed by square."""

    name: str
    size: int
    letter_mult: tuple[int, ...]
    word_mult: tuple[int, ...]
    symbols: str

    @property
    def centre(self) -> int:
        half = self.size // 2
        return half * self.size + half

    @property
    def rack_size(self) -> int:
        return rack_size(self.size)

    def symbol(self, row: int, col: int) -> str:
        return self.symbols[row * self.size + col]

    def drawing(self) -> list[str]:
        """The rows of premium symbols, one string a row, separated by spaces."""
        n = self.size
        return [" ".join(self.symbols[r * n : (r + 1) * n]) for r in range(n)]


def parse_drawing(name: str, text: str) -> Layout:
    """Parse a board drawing (docs/rules.md#boards): lines ``  1  # . . % ...  1``; other
    lines ignored."""
    rows: list[str] = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 3 or not parts[0].isdigit():
            continue
        if int(parts[0]) != len(rows) + 1 or parts[-1] != parts[0]:
            raise ValueError(f"board {name}: row {parts[0]} out of order or unlabelled")
        cells = parts[1:-1]
        if any(c not in PREMIUMS for c in cells):
            raise ValueError(f"board {name}: unknown symbol in row {parts[0]}")
        rows.append("".join(cells))
    size = len(rows)
    if size == 0 or any(len(r) != size for r in rows):
        raise ValueError(f"board {name}: the drawing is not square")
    symbols = "".join(rows)
    return Layout(
        name=name,
        size=size,
        letter_mult=tuple(PREMIUMS[s][0] for s in symbols),
        word_mult=tuple(PREMIUMS[s][1] for s in symbols),
        symbols=symbols,
    )


@cache
def layout(name: str) -> Layout:
    """One of ``standard`` (15x15), ``large`` (19x19), ``broad`` and ``grand`` (21x21)."""
    if name not in LAYOUT_NAMES:
        raise ValueError(f"unknown board {name!r}: choose one of {', '.join(LAYOUT_NAMES)}")
    text = resources.files("solver.data.boards").joinpath(f"{name}.txt").read_text("utf-8")
    return parse_drawing(name, text)


def board_sizes() -> list[int]:
    return sorted({layout(name).size for name in LAYOUT_NAMES})


def board_for_size(size: int) -> str | None:
    """The board a position of ``size`` rows is read on when nobody says which: the first
    of that size in :data:`LAYOUT_NAMES` (None: no board has that size)."""
    return next((name for name in LAYOUT_NAMES if layout(name).size == size), None)


def has_nosmooth(name: str) -> bool:
    """Whether the board offers the -nosmooth tile distribution."""
    return size_sets(layout(name).size).doubled


class Board:
    """A position: a layout, a tile set and the tiles on the squares.

    ``squares[i]`` is 0 for an empty square, else a tile code (``| BLANK_BIT`` for a
    blank). Use :meth:`play` to place a move; :mod:`solver.rules` validates and scores.
    """

    __slots__ = ("cross", "layout", "squares", "tiles")

    def __init__(self, layout: Layout, tiles: TileSet, squares: list[int] | None = None):
        self.layout = layout
        self.tiles = tiles
        #: The move generator's cross-sets (``solver.movegen.CrossSets``), kept between
        #: generations and brought up to date from ``squares`` before each one.
        self.cross: object | None = None
        n = layout.size * layout.size
        if squares is None:
            squares = [0] * n
        if len(squares) != n:
            raise ValueError(f"a {layout.size}x{layout.size} board has {n} squares")
        self.squares = squares

    @classmethod
    def empty(cls, board: str = "standard", language: str = "english", *, smooth: bool = True) -> Board:
        lay = layout(board)
        return cls(lay, tile_set(language, lay.size, smooth=smooth))

    @property
    def size(self) -> int:
        return self.layout.size

    def __getstate__(self) -> tuple[Layout, TileSet, list[int]]:
        # Pickled or deep-copied without the generator's cache: it holds views of a mapped
        # file, and is rebuilt from the squares on the next generation anyway.
        return self.layout, self.tiles, self.squares

    def __setstate__(self, state: tuple[Layout, TileSet, list[int]]) -> None:
        self.layout, self.tiles, self.squares = state
        self.cross = None

    def copy(self) -> Board:
        board = Board(self.layout, self.tiles, list(self.squares))
        copy = getattr(self.cross, "copy", None)
        board.cross = copy() if copy is not None else None  # the copy stays incremental
        return board

    def at(self, row: int, col: int) -> int:
        return self.squares[row * self.layout.size + col]

    def is_empty(self) -> bool:
        return not any(self.squares)

    def tile_count(self) -> int:
        return sum(1 for s in self.squares if s)

    def placed_codes(self) -> list[int]:
        """Rack codes of the tiles on the board (a blank is 0)."""
        return [0 if s & BLANK_BIT else s for s in self.squares if s]

    def play(self, move: Move) -> None:
        """Put the move's new tiles on the board (no check: see :func:`solver.rules.validate`)."""
        for square, code in move.placements(self):
            if self.squares[square]:
                raise ValueError(f"square {square} is already occupied")
            self.squares[square] = code

    def score(self, move: Move, rules: Rules | None = None) -> Scored:
        """Score a move (blanks marked) without rack or lexicon: see :func:`solver.rules.score`."""
        from solver.rules import score

        return score(self, move, rules)

    def legal_moves(self, rack: str | list[int], lexicon: Lexicon, rules: Rules | None = None) -> list[Move]:
        """Every legal placement of ``rack`` (``"AB?"`` or codes), best score first."""
        from solver.analysis import analyse
        from solver.tiles import rack_codes

        codes = rack_codes(rack) if isinstance(rack, str) else rack
        return list(analyse(self, lexicon, codes, rules, keep="all").ranked)

    def rows(self) -> list[str]:
        """The board as text rows: letters (lowercase for blanks) and ``.`` for empty."""
        n = self.layout.size
        return [
            "".join(code_char(s) if s else "." for s in self.squares[r * n : (r + 1) * n]) for r in range(n)
        ]

    def letter_at(self, row: int, col: int) -> int:
        return self.at(row, col) & LETTER_MASK

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.layout == other.layout and self.tiles == other.tiles and self.squares == other.squares

    __hash__ = None  # type: ignore[assignment]  # mutable: equal boards, no hashing

    def __repr__(self) -> str:
        return f"<Board {self.layout.name} {self.tiles.name} tiles={self.tile_count()}>"
