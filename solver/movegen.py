"""The exact move generator: every legal placement of a rack on a board, each once.

Both directions are reduced to one 1-D problem (wolges' "strip"): for the across pass
each row is a strip, for the down pass each column, with per-square arrays of tiles,
cross-sets (bitmask of letters allowed by the perpendicular word), cross-scores and
premiums. Moves are walked through the GADDAG from anchor squares (Gordon 1994); a move
is generated from the leftmost anchor it covers, so each placement comes once per
direction, and a one-tile move that forms words both ways is kept in the across pass
only (the corpus convention).

Everything on the hot path is a small int, a list of small ints or a bitmask. Two walkers
share that layout: the compiled kernel ``solver/_kernel.c`` (built by ``pip install``,
used by default) and the pure-Python :mod:`solver.walker`, the reference it is tested
against and the fallback where no C compiler was available
(``ARBITER_SOLVER_KERNEL=python`` forces it).

Recorders (:mod:`solver.recorders`, macondo's ``PlayRecorderFunc``) decide what is kept.
The compiled kernel generates a whole board in one call and keeps the moves itself for
the recorders it knows; the cross-sets are kept on the board (:class:`CrossSets`) and
redone only for the lines a move changed.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver import compiled
from solver.gaddag import Gaddag
from solver.lexicon import Lexicon
from solver.recorders import MODE_ALL, MODE_TOP, BestMoves, MoveList, Recorder, native_mode, take
from solver.tiles import ALL_LETTERS, NUM_LETTERS
from solver.walker import NO_CROSS, cross_line, generate_strip

if TYPE_CHECKING:  # types only: Board.legal_moves reaches this module (solver.analysis)
    from solver.boards import Board, Layout

KERNELS = ("c", "python")


def kernels_available() -> tuple[str, ...]:
    """The walkers this installation can run, fastest first."""
    return KERNELS if compiled.BUILT else ("python",)


def default_kernel() -> str:
    """``c`` when the compiled kernel is built, unless ``ARBITER_SOLVER_KERNEL=python``."""
    wanted = os.environ.get("ARBITER_SOLVER_KERNEL", "c" if compiled.BUILT else "python")
    if wanted not in KERNELS:
        raise ValueError(f"ARBITER_SOLVER_KERNEL={wanted!r}: choose c or python")
    if wanted == "c" and not compiled.BUILT:
        raise ValueError("ARBITER_SOLVER_KERNEL=c but the compiled kernel is not built")
    return wanted


@dataclass(frozen=True)
class GenSettings:
    """Rule settings the generator needs (see :class:`solver.rules.Rules`)."""

    bingo_bonus: int = 50
    first_move_horizontal: bool = True


class CrossSets:
    """The cross-sets of one board for one word list, kept on the board (``Board.cross``)
    and brought up to date before each generation: only the lines whose squares changed
    since the last one are recomputed (a game places one move at a time, touching one
    line one way and a few the other way).

    ``cross_a[sq]``: the letters the word down through empty square ``sq`` allows (for the
    across pass), ``xs_a[sq]`` that word's tiles' face value, or ``NO_CROSS`` when no tile
    touches ``sq`` up or down; ``cross_d``/``xs_d`` the same across, for the down pass. Flat
    arrays the compiled kernel reads and writes in place."""

    __slots__ = ("cross_a", "cross_d", "face", "face_buf", "fresh", "graph", "snap", "xs_a", "xs_d")

    def __init__(self, graph: Gaddag, face: tuple[int, ...], n: int):
        self.graph = graph
        self.face = face
        self.face_buf = _face_buf(face)  # what the compiled kernel reads
        self.snap = bytearray(n * n)
        letters, no_cross = _unconstrained(n)
        self.cross_a, self.cross_d = letters[:], letters[:]
        self.xs_a, self.xs_d = no_cross[:], no_cross[:]
        self.fresh = False  # nothing computed yet

    def copy(self) -> CrossSets:
        other = CrossSets.__new__(CrossSets)
        other.graph, other.face, other.fresh = self.graph, self.face, self.fresh
        other.face_buf = self.face_buf  # never written
        other.snap = bytearray(self.snap)
        other.cross_a, other.cross_d = array("I", self.cross_a), array("I", self.cross_d)
        other.xs_a, other.xs_d = array("i", self.xs_a), array("i", self.xs_d)
        return other

    def update(self, squares: list[int], n: int, kernel: str) -> int:
        """Bring the sets up to date with ``squares``; returns the number of lines redone."""
        full = not self.fresh
        self.fresh = True
        if kernel == "c":
            return compiled.cross_update(
                _graph(self.graph), squares, n, self.face_buf, self.snap,
                self.cross_a, self.xs_a, self.cross_d, self.xs_d, full,
            )  # fmt: skip
        snap = self.snap
        rows: set[int] = set()
        cols: set[int] = set()
        for i, code in enumerate(squares):
            if full or snap[i] != code:
                if not 0 <= code < 128:
                    raise ValueError(f"square {i} holds the bad tile code {code}")
                rows.add(i // n)
                cols.add(i % n)
                snap[i] = code
        for c in cols:  # a changed column: the words down it, for the across pass
            cross_line(self.graph, squares[c::n], self.face, self.cross_a, self.xs_a, c, n)
        for r in rows:  # a changed row: the words across it, for the down pass
            cross_line(self.graph, squares[r * n : r * n + n], self.face, self.cross_d, self.xs_d, r * n, 1)
        return len(rows) + len(cols)


def _graph(g: Gaddag) -> object:
    """The compiled kernel's checked view of ``g``, made once per automaton."""
    view = g.native
    if view is None:
        view = g.native = compiled.Graph(g.mask, g.accepts, g.base, g.kids)
    return view


_FACES: dict[int, tuple[object, tuple[int, ...], tuple[int, ...]]] = {}
_LAYOUTS: dict[int, tuple[object, bytes, bytes]] = {}


def _face(values: tuple[int, ...]) -> tuple[int, ...]:
    """Face value of each board code (blanks, ``| BLANK_BIT``, are worth 0)."""
    hit = _FACES.get(id(values))
    if hit is None or hit[0] is not values:
        face = [0] * 128
        for code in range(1, NUM_LETTERS + 1):
            face[code] = values[code]
        hit = _FACES[id(values)] = (values, tuple(values), tuple(face))
    return hit[2]


_FACE_BUFS: dict[int, tuple[tuple[int, ...], array[int]]] = {}
_UNCONSTRAINED: dict[int, tuple[array[int], array[int]]] = {}


def _unconstrained(n: int) -> tuple[array[int], array[int]]:
    """Every letter allowed, no cross word: an n x n board's sets before any is computed,
    copied for each new board (a copy costs a third of building them)."""
    hit = _UNCONSTRAINED.get(n)
    if hit is None:
        hit = _UNCONSTRAINED[n] = (array("I", [ALL_LETTERS]) * (n * n), array("i", [NO_CROSS]) * (n * n))
    return hit


def _face_buf(face: tuple[int, ...]) -> array[int]:
    """``face`` as the int32 buffer the compiled kernel reads, made once per tile set."""
    hit = _FACE_BUFS.get(id(face))
    if hit is None or hit[0] is not face:
        hit = _FACE_BUFS[id(face)] = (face, array("i", face))
    return hit[1]


def _layout_bytes(lay: Layout) -> tuple[bytes, bytes]:
    hit = _LAYOUTS.get(id(lay))
    if hit is None or hit[0] is not lay:
        hit = _LAYOUTS[id(lay)] = (lay, bytes(lay.letter_mult), bytes(lay.word_mult))
    return hit[1], hit[2]


def kept_cross_sets(board: Board, graph: Gaddag) -> CrossSets:
    """The cross-sets kept on the board for ``graph``, as they are (new ones if none)."""
    face = _face(board.tiles.values)
    cached = board.cross
    if not isinstance(cached, CrossSets) or cached.graph is not graph or cached.face != face:
        cached = board.cross = CrossSets(graph, face, board.size)
    return cached


def cross_sets(board: Board, graph: Gaddag, kernel: str | None = None) -> CrossSets:
    """The board's cross-sets for ``graph``, brought up to date (kept on the board)."""
    cached = kept_cross_sets(board, graph)
    cached.update(board.squares, board.size, kernel or default_kernel())
    return cached


class Generator:
    """Generate the moves of ``rack`` (codes, 0 = blank) on ``board``."""

    def __init__(
        self,
        board: Board,
        lexicon: Lexicon | Gaddag,
        settings: GenSettings | None = None,
        *,
        kernel: str | None = None,
    ):
        self.board = board
        self.gaddag = lexicon.gaddag if isinstance(lexicon, Lexicon) else lexicon
        self.settings = settings or GenSettings()
        self.kernel = kernel or default_kernel()
        if self.kernel not in KERNELS or (self.kernel == "c" and not compiled.BUILT):
            raise ValueError(f"kernel {self.kernel!r} is not available")

    def generate(self, rack: list[int], recorder: Recorder) -> int:
        """Feed every legal placement to ``recorder``; returns how many there are (-1 when
        :class:`BestMoves` searched best first, which does not count)."""
        board = self.board
        n = board.size
        lay = board.layout
        if len(rack) > lay.rack_size:
            raise ValueError(f"a rack holds at most {lay.rack_size} tiles")
        counts = [0] * (NUM_LETTERS + 1)
        for code in rack:
            counts[code] += 1
        settings = self.settings
        if self.kernel == "c":
            mode, keep = native_mode(recorder) or (MODE_ALL, 0)
            if isinstance(recorder, BestMoves) and not counts[0] and not recorder.always:
                mode = MODE_TOP
            lm, wm = _layout_bytes(lay)
            cross = kept_cross_sets(board, self.gaddag)
            # One call: the kernel brings the cross-sets up to date, then walks.
            found, stride, records = compiled.generate(
                _graph(self.gaddag), board.squares, n, lm, wm, cross.face_buf, cross.snap,
                cross.cross_a, cross.xs_a, cross.cross_d, cross.xs_d, not cross.fresh,
                counts, board.tiles.values, lay.rack_size, settings.bingo_bonus,
                not settings.first_move_horizontal, mode, keep,
            )  # fmt: skip
            cross.fresh = True
            take(recorder, MoveList(stride, records))
            return int(found)
        return self._generate_py(counts, cross_sets(board, self.gaddag, self.kernel), recorder)

    def _generate_py(self, counts: list[int], cross: CrossSets, recorder: Recorder) -> int:
        board = self.board
        n = board.size
        lay = board.layout
        squares = board.squares
        values = list(board.tiles.values)
        face = list(cross.face)
        empty_board = not any(squares)
        count = 0
        for across in (True, False):
            if empty_board and not across and self.settings.first_move_horizontal:
                continue
            for line in range(n):
                if across:
                    part = slice(line * n, line * n + n)
                    cx, xs = cross.cross_a[part], cross.xs_a[part]
                else:
                    part = slice(line, n * n, n)
                    cx, xs = cross.cross_d[part], cross.xs_d[part]
                tiles = squares[part]
                centre = [n // 2] if line == n // 2 else []
                anchors = centre if empty_board else _anchors(tiles, xs, n)
                if not anchors:
                    continue
                count += generate_strip(
                    self.gaddag, tiles, cx, xs, lay.letter_mult[part], lay.word_mult[part], anchors,
                    counts, values, face, lay.rack_size, self.settings.bingo_bonus, across, line, recorder,
                )  # fmt: skip
        return count


def _anchors(tiles: Sequence[int], xscore: Sequence[int], n: int) -> list[int]:
    """Empty squares next to a tile along the strip or across it."""
    out = []
    for i in range(n):
        if tiles[i]:
            continue
        if xscore[i] != NO_CROSS or (i > 0 and tiles[i - 1]) or (i + 1 < n and tiles[i + 1]):
            out.append(i)
    return out


def generate(
    board: Board,
    lexicon: Lexicon | Gaddag,
    rack: list[int],
    recorder: Recorder,
    settings: GenSettings | None = None,
) -> int:
    """Shortcut for ``Generator(board, lexicon, settings).generate(rack, recorder)``."""
    return Generator(board, lexicon, settings).generate(rack, recorder)
