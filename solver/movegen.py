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
used by default) and the pure-Python :func:`_generate_strip_py`, the reference it is
tested against and the fallback where no C compiler was available
(``ARBITER_SOLVER_KERNEL=python`` forces it).

Recorders (macondo's ``PlayRecorderFunc``) decide what is kept: :class:`AllMoves`,
:class:`TopN`, :class:`TopMoves` (every move of the best score), :class:`BestMoves` (the
same without the count, by a bounded best-first search) or :class:`CountOnly`. The
compiled kernel generates a whole board in one call and keeps these moves itself, as flat
records made :class:`Move` objects only when read (:class:`MoveList`); the cross-sets are
kept on the board (:class:`CrossSets`) and redone only for the lines a move changed.
"""

from __future__ import annotations

import heapq
import os
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from solver.boards import Board, Layout
from solver.gaddag import Gaddag
from solver.lexicon import Lexicon
from solver.move import Move
from solver.tiles import ALL_LETTERS, ALPHABET, BLANK_BIT, LETTER_MASK, NUM_LETTERS

_NO_CROSS = -1

try:
    from solver import _kernel
except ImportError:  # built without a C compiler: the pure-Python walker gives the same moves
    _kernel = None  # type: ignore[assignment]

KERNELS = ("c", "python")


def kernels_available() -> tuple[str, ...]:
    """The walkers this installation can run, fastest first."""
    return KERNELS if _kernel is not None else ("python",)


def default_kernel() -> str:
    """``c`` when the compiled kernel is built, unless ``ARBITER_SOLVER_KERNEL=python``."""
    wanted = os.environ.get("ARBITER_SOLVER_KERNEL", "c" if _kernel is not None else "python")
    if wanted not in KERNELS:
        raise ValueError(f"ARBITER_SOLVER_KERNEL={wanted!r}: choose c or python")
    if wanted == "c" and _kernel is None:
        raise ValueError("ARBITER_SOLVER_KERNEL=c but the compiled kernel is not built")
    return wanted


@dataclass(frozen=True)
class GenSettings:
    """Rule settings the generator needs (see :class:`solver.rules.Rules`)."""

    bingo_bonus: int = 50
    first_move_horizontal: bool = True


class Recorder:
    """Receives each generated move. ``threshold``: moves scoring below it are not
    offered (the generator still counts them)."""

    threshold: float = float("-inf")

    def add(self, score: int, across: bool, line: int, start: int, word: list[int], placed: int) -> None:
        raise NotImplementedError


_CHARS = [""] * 128
for _code in range(1, NUM_LETTERS + 1):
    _CHARS[_code] = ALPHABET[_code - 1]
    _CHARS[_code | BLANK_BIT] = ALPHABET[_code - 1].lower()


def _word_text(codes: Sequence[int]) -> str:
    return "".join([_CHARS[c] for c in codes])


def _move(score: int, across: bool, line: int, start: int, word: Sequence[int]) -> Move:
    row, col = (line, start) if across else (start, line)
    return Move(row, col, across, _word_text(word), score)


class MoveList(Sequence[Move]):
    """Moves recorded by the compiled kernel as flat int32 records (see solver/_kernel.c),
    each made a :class:`Move` only when it is read: a caller that wants the count, or a
    page of the moves, builds no object for the others."""

    __slots__ = ("_ints", "_len", "_stride")

    def __init__(self, stride: int, records: bytes):
        self._ints = memoryview(records).cast("i")
        self._stride = stride
        self._len = len(self._ints) // stride if stride else 0

    def __len__(self) -> int:
        return self._len

    def _at(self, k: int) -> Move:
        ints, base = self._ints, k * self._stride
        score, across, line, start, length = ints[base : base + 5]
        return _move(score, bool(across), line, start, ints[base + 6 : base + 6 + length])

    @overload
    def __getitem__(self, index: int) -> Move: ...
    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...
    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        if isinstance(index, slice):
            return [self._at(k) for k in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("move index out of range")
        return self._at(index)

    def __iter__(self) -> Iterator[Move]:
        return (self._at(k) for k in range(self._len))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def feed(self, recorder: Recorder) -> None:
        """Offer each move to ``recorder``, in generation order, as the walkers do."""
        ints, stride = self._ints, self._stride
        for k in range(self._len):
            base = k * stride
            score, across, line, start, length, placed = ints[base : base + 6]
            if score >= recorder.threshold:
                word = list(ints[base + 6 : base + 6 + length])
                recorder.add(score, bool(across), line, start, word, placed)


class AllMoves(Recorder):
    """Keeps every move (can be 100,000+ on a 21x21 board with blanks)."""

    def __init__(self) -> None:
        self.moves: Sequence[Move] = []

    def add(self, score: int, across: bool, line: int, start: int, word: list[int], placed: int) -> None:
        if not isinstance(self.moves, list):  # the kernel's records of an earlier generation
            self.moves = list(self.moves)
        self.moves.append(_move(score, across, line, start, word))


class TopMoves(Recorder):
    """Keeps the best score and every move that reaches it."""

    def __init__(self) -> None:
        self.best: int | None = None
        self.moves: list[Move] = []

    def add(self, score: int, across: bool, line: int, start: int, word: list[int], placed: int) -> None:
        if self.best is None or score > self.best:
            self.best = score
            self.threshold = score
            self.moves = []
        self.moves.append(_move(score, across, line, start, word))


class BestMoves(TopMoves):
    """Every move of the best score, for a caller that does not need the count: the
    compiled kernel searches best first (each anchor with a bound on what it can score,
    the highest walked first, none once the best found beats every bound left) and the
    generator returns -1 for the count. The Python walker walks everything (and counts).

    The search pays only when the rack holds a blank (measured on the whole corpus: 0.78
    against 0.92 ms with one, but 0.104 against 0.084 ms without: the bound, the bingo
    bonus above all, is too loose to skip enough of a blank-free walk to pay for itself),
    so without one the kernel walks everything and counts; ``always`` searches best first
    on any rack (the tests pin the search on every reference position)."""

    def __init__(self, always: bool = False) -> None:
        super().__init__()
        self.always = always


class TopN(Recorder):
    """Keeps the ``n`` best moves (ties at the cut kept in generation order)."""

    def __init__(self, n: int) -> None:
        if n < 1:
            raise ValueError("TopN needs n >= 1")
        self.n = n
        self._heap: list[tuple[int, int, Move]] = []
        self._seq = 0
        self._ranked: list[Move] | None = None

    def add(self, score: int, across: bool, line: int, start: int, word: list[int], placed: int) -> None:
        self._seq += 1
        item = (score, -self._seq, _move(score, across, line, start, word))
        if len(self._heap) < self.n:
            heapq.heappush(self._heap, item)
            if len(self._heap) == self.n:
                self.threshold = self._heap[0][0]
        elif item[:2] > self._heap[0][:2]:
            heapq.heapreplace(self._heap, item)
            self.threshold = self._heap[0][0]

    @property
    def moves(self) -> list[Move]:
        if self._ranked is not None:
            return self._ranked
        return [m for _, _, m in sorted(self._heap, reverse=True)]


class CountOnly(Recorder):
    """Keeps nothing: the generator's ``count`` is the answer."""

    threshold = float("inf")

    def add(self, score: int, across: bool, line: int, start: int, word: list[int], placed: int) -> None:
        pass


# The compiled kernel keeps the moves itself for these recorders (exactly these classes: a
# subclass may add to ``add``, and is fed the moves one by one like any other recorder).
_MODE_COUNT, _MODE_ALL, _MODE_TOP, _MODE_TOPN, _MODE_BEST = range(5)


def _native_mode(recorder: Recorder) -> tuple[int, int] | None:
    kind = type(recorder)
    if kind is CountOnly:
        return _MODE_COUNT, 0
    if kind is AllMoves:
        return _MODE_ALL, 0
    if kind is TopMoves:
        return _MODE_TOP, 0
    if kind is BestMoves:
        return _MODE_BEST, 0
    if kind is TopN:
        assert isinstance(recorder, TopN)
        return _MODE_TOPN, min(recorder.n, 2**31 - 1)  # more than any position has
    return None


def _take(recorder: Recorder, moves: MoveList) -> None:
    if isinstance(recorder, AllMoves) and type(recorder) is AllMoves:
        recorder.moves = moves
    elif isinstance(recorder, TopMoves) and type(recorder) in (TopMoves, BestMoves):
        recorder.moves = list(moves)
        recorder.best = recorder.moves[0].score if recorder.moves else None
    elif isinstance(recorder, TopN) and type(recorder) is TopN:
        recorder._ranked = list(moves)
    elif type(recorder) is not CountOnly:
        moves.feed(recorder)


class CrossSets:
    """The cross-sets of one board for one word list, kept on the board (``Board.cross``)
    and brought up to date before each generation: only the lines whose squares changed
    since the last one are recomputed (a game places one move at a time, touching one
    line one way and a few the other way).

    ``cross_a[sq]``: the letters the word down through empty square ``sq`` allows (for the
    across pass), ``xs_a[sq]`` that word's tiles' face value, or ``_NO_CROSS`` when no tile
    touches ``sq`` up or down; ``cross_d``/``xs_d`` the same across, for the down pass. Flat
    arrays the compiled kernel reads and writes in place."""

    __slots__ = ("cross_a", "cross_d", "face", "fresh", "graph", "snap", "xs_a", "xs_d")

    def __init__(self, graph: Gaddag, face: tuple[int, ...], n: int):
        self.graph = graph
        self.face = face
        self.snap = bytearray(n * n)
        self.cross_a = array("I", [ALL_LETTERS]) * (n * n)
        self.cross_d = array("I", [ALL_LETTERS]) * (n * n)
        self.xs_a = array("i", [_NO_CROSS]) * (n * n)
        self.xs_d = array("i", [_NO_CROSS]) * (n * n)
        self.fresh = False  # nothing computed yet

    def copy(self) -> CrossSets:
        other = CrossSets.__new__(CrossSets)
        other.graph, other.face, other.fresh = self.graph, self.face, self.fresh
        other.snap = bytearray(self.snap)
        other.cross_a, other.cross_d = array("I", self.cross_a), array("I", self.cross_d)
        other.xs_a, other.xs_d = array("i", self.xs_a), array("i", self.xs_d)
        return other

    def update(self, squares: list[int], n: int, kernel: str) -> int:
        """Bring the sets up to date with ``squares``; returns the number of lines redone."""
        full = not self.fresh
        self.fresh = True
        if kernel == "c":
            assert _kernel is not None
            return _kernel.cross_update(
                _graph(self.graph), squares, n, self.face, self.snap,
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
            _cross_line_py(self.graph, squares[c::n], self.face, self.cross_a, self.xs_a, c, n)
        for r in rows:  # a changed row: the words across it, for the down pass
            _cross_line_py(
                self.graph, squares[r * n : r * n + n], self.face, self.cross_d, self.xs_d, r * n, 1
            )
        return len(rows) + len(cols)


def _graph(g: Gaddag) -> object:
    """The compiled kernel's checked view of ``g``, made once per automaton."""
    native = g.native
    if native is None:
        assert _kernel is not None
        native = g.native = _kernel.Graph(g.mask, g.accepts, g.base, g.kids)
    return native


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


def _layout_bytes(lay: Layout) -> tuple[bytes, bytes]:
    hit = _LAYOUTS.get(id(lay))
    if hit is None or hit[0] is not lay:
        hit = _LAYOUTS[id(lay)] = (lay, bytes(lay.letter_mult), bytes(lay.word_mult))
    return hit[1], hit[2]


def cross_sets(board: Board, graph: Gaddag, kernel: str | None = None) -> CrossSets:
    """The board's cross-sets for ``graph``, brought up to date (kept on the board)."""
    face = _face(board.tiles.values)
    cached = board.cross
    if not isinstance(cached, CrossSets) or cached.graph is not graph or cached.face != face:
        cached = board.cross = CrossSets(graph, face, board.size)
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
        if self.kernel not in KERNELS or (self.kernel == "c" and _kernel is None):
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
        cross = cross_sets(board, self.gaddag, self.kernel)
        settings = self.settings
        if self.kernel == "c":
            assert _kernel is not None
            mode, keep = _native_mode(recorder) or (_MODE_ALL, 0)
            if isinstance(recorder, BestMoves) and not counts[0] and not recorder.always:
                mode = _MODE_TOP
            lm, wm = _layout_bytes(lay)
            found, stride, records = _kernel.generate(
                _graph(self.gaddag), board.squares, n, lm, wm,
                cross.cross_a, cross.xs_a, cross.cross_d, cross.xs_d,
                counts, board.tiles.values, lay.rack_size, settings.bingo_bonus,
                not settings.first_move_horizontal, mode, keep,
            )  # fmt: skip
            _take(recorder, MoveList(stride, records))
            return int(found)
        return self._generate_py(counts, cross, recorder)

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
                count += _generate_strip_py(
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
        if xscore[i] != _NO_CROSS or (i > 0 and tiles[i - 1]) or (i + 1 < n and tiles[i + 1]):
            out.append(i)
    return out


def _cross_line_py(
    g: Gaddag,
    perp: Sequence[int],
    face: Sequence[int],
    cross: array[int],
    xscore: array[int],
    at: int,
    step: int,
) -> None:
    """One perpendicular line ``perp``: for each of its empty squares j, the letters the
    word through j allows and the face value of that word's tiles, written at
    ``at + j * step`` (every other square of the line gets no constraint)."""
    mask, accepts, base, kids = g.mask, g.accepts, g.base, g.kids
    n = len(perp)
    for j in range(n):
        sq = at + j * step
        cross[sq] = ALL_LETTERS
        xscore[sq] = _NO_CROSS
        if perp[j] or not ((j > 0 and perp[j - 1]) or (j + 1 < n and perp[j + 1])):
            continue
        above = j - 1
        while above >= 0 and perp[above]:
            above -= 1
        below = j + 1
        while below < n and perp[below]:
            below += 1
        up = perp[above + 1 : j]
        down = perp[j + 1 : below]
        xscore[sq] = sum(face[c] for c in up) + sum(face[c] for c in down)
        # rev(up + L + down) = rev(down) L rev(up): walk rev(down) once, then each L.
        node = 0
        for c in reversed(down):
            bit = 1 << (c & LETTER_MASK)
            m = mask[node]
            if not m & bit:
                node = -1
                break
            node = kids[base[node] + (m & (bit - 1)).bit_count()]
        allowed = 0
        if node >= 0:
            m0 = mask[node]
            letters = m0 & ALL_LETTERS
            while letters:
                bit = letters & -letters
                letters ^= bit
                if not up:
                    if accepts[node] & bit:
                        allowed |= bit
                    continue
                cur = kids[base[node] + (m0 & (bit - 1)).bit_count()]
                ok = True
                for c in reversed(up[1:]):
                    b = 1 << (c & LETTER_MASK)
                    m = mask[cur]
                    if not m & b:
                        ok = False
                        break
                    cur = kids[base[cur] + (m & (b - 1)).bit_count()]
                if ok and accepts[cur] >> (up[0] & LETTER_MASK) & 1:
                    allowed |= bit
        cross[sq] = allowed


def _generate_strip_py(
    g: Gaddag,
    tiles: list[int],
    cross: Sequence[int],
    xscore: Sequence[int],
    lm: Sequence[int],
    wm: Sequence[int],
    anchors: list[int],
    rack: list[int],
    values: list[int],
    face: list[int],
    rack_size: int,
    bingo_bonus: int,
    across: bool,
    line: int,
    recorder: Recorder,
) -> int:
    """Walk every move of one strip; returns the number of distinct placements.

    The recursion visits empty squares only: after a tile is placed, the run of board
    tiles next to it is walked inline, so each call is one (square, GADDAG node) state.
    go_left and go_right repeat their letter loop on purpose: a shared helper would cost
    a Python call per letter on the hottest path (the C kernel shares it for free).
    """
    mask, accepts, base, kids = g.mask, g.accepts, g.base, g.kids
    n = len(tiles)
    buf = [0] * n
    # For an empty square i: tiles lrun[i]..i-1 touch it on the left, i+1..rrun[i]-1 on the right.
    lrun = list(range(n))
    rrun = [i + 1 for i in range(n)]
    for i in range(n):
        j = i - 1
        while j >= 0 and tiles[j]:
            j -= 1
        lrun[i] = j + 1
        j = i + 1
        while j < n and tiles[j]:
            j += 1
        rrun[i] = j
    rack_bits = 0
    for code in range(1, NUM_LETTERS + 1):
        if rack[code]:
            rack_bits |= 1 << code
    found = [0]
    anchor = 0
    right_free = True
    left_limit = 0
    add = recorder.add
    down_single_skip = False
    sep_gate = sep_tile = 0

    def emit(start: int, end: int, nplaced: int, score: int) -> None:
        if nplaced == 1 and down_single_skip:
            return  # the across pass already has this one-tile move
        if nplaced == rack_size:
            score += bingo_bonus
        found[0] += 1
        if score >= recorder.threshold:
            add(score, across, line, start, buf[start : end + 1], nplaced)

    def go_left(pos: int, node: int, nplaced: int, msum: int, wmul: int, xsum: int, rbits: int) -> None:
        blanks = rack[0]
        any_real = ALL_LETTERS if blanks else 0  # letters a blank can still be, after a real tile
        any_blank = ALL_LETTERS if blanks > 1 else 0  # ... after spending a blank here
        m = mask[node]
        allowed = m & cross[pos] if blanks else m & cross[pos] & rbits
        if not allowed:
            return
        acc = accepts[node]
        b0 = base[node]
        lmv = lm[pos]
        wmv = wm[pos]
        xs = xscore[pos]
        nwmul = wmul * wmv
        start = lrun[pos]
        placed = nplaced + 1
        # Letters the square left of the word could take: checked before recursing, since
        # most left extensions die there and a Python call costs more than the test.
        left_gate = cross[start - 1] if start - 1 >= left_limit else 0
        while allowed:
            bit = allowed & -allowed
            allowed ^= bit
            letter = bit.bit_length() - 1
            node2 = kids[b0 + (m & (bit - 1)).bit_count()]
            a = acc & bit
            run_sum = 0
            q = pos - 1
            while q >= start:  # board tiles left of pos, read right to left
                sq = tiles[q]
                mm = mask[node2]
                bb = 1 << (sq & LETTER_MASK)
                if not mm & bb:
                    break
                a = accepts[node2] & bb
                node2 = kids[base[node2] + (mm & (bb - 1)).bit_count()]
                run_sum += face[sq]
                buf[q] = sq
                q -= 1
            if q >= start:
                continue
            m2 = mask[node2]
            lg = m2 & left_gate
            sep = kids[base[node2]] if m2 & 1 and sep_gate else -1
            sep_m = mask[sep] & sep_gate if sep >= 0 else 0
            cnt = rack[letter]
            if cnt:
                tv = values[letter] * lmv
                buf[pos] = letter
                ms = msum + tv + run_sum
                xsum2 = xsum if xs < 0 else xsum + (xs + tv) * wmv
                if a and right_free:
                    emit(start, anchor, placed, ms * nwmul + xsum2)
                if lg or sep_m:
                    rack[letter] = cnt - 1
                    rb = rbits ^ bit if cnt == 1 else rbits
                    if lg & (rb | any_real):
                        go_left(start - 1, node2, placed, ms, nwmul, xsum2, rb)
                    if sep_m & (sep_tile | rb | any_real):
                        go_right_entry(sep, start, placed, ms, nwmul, xsum2, rb)
                    rack[letter] = cnt
            if blanks:
                buf[pos] = letter | BLANK_BIT
                ms = msum + run_sum
                xsum2 = xsum if xs < 0 else xsum + xs * wmv
                if a and right_free:
                    emit(start, anchor, placed, ms * nwmul + xsum2)
                if lg or sep_m:
                    rack[0] = blanks - 1
                    other = rbits | any_blank
                    if lg & other:
                        go_left(start - 1, node2, placed, ms, nwmul, xsum2, rbits)
                    if sep_m & (sep_tile | other):
                        go_right_entry(sep, start, placed, ms, nwmul, xsum2, rbits)
                    rack[0] = blanks

    def go_right_entry(
        node: int, start: int, nplaced: int, msum: int, wmul: int, xsum: int, rbits: int
    ) -> None:
        """Cross the separator: walk the board tiles right of the anchor, if any."""
        pos = anchor + 1
        if tiles[pos]:
            end = rrun[anchor]
            a = 0
            q = pos
            while q < end:
                sq = tiles[q]
                mm = mask[node]
                bb = 1 << (sq & LETTER_MASK)
                if not mm & bb:
                    return
                a = accepts[node] & bb
                node = kids[base[node] + (mm & (bb - 1)).bit_count()]
                msum += face[sq]
                buf[q] = sq
                q += 1
            if a:
                emit(start, end - 1, nplaced, msum * wmul + xsum)
            if end < n and mask[node] and (rbits or rack[0]):
                go_right(end, node, start, nplaced, msum, wmul, xsum, rbits)
        elif rbits or rack[0]:
            go_right(pos, node, start, nplaced, msum, wmul, xsum, rbits)

    def go_right(
        pos: int, node: int, start: int, nplaced: int, msum: int, wmul: int, xsum: int, rbits: int
    ) -> None:
        blanks = rack[0]
        m = mask[node]
        allowed = m & cross[pos] if blanks else m & cross[pos] & rbits
        if not allowed:
            return
        acc = accepts[node]
        b0 = base[node]
        lmv = lm[pos]
        wmv = wm[pos]
        xs = xscore[pos]
        nwmul = wmul * wmv
        end = rrun[pos]
        placed = nplaced + 1
        right_gate = cross[end] if end < n else 0
        any_real = ALL_LETTERS if blanks else 0
        any_blank = ALL_LETTERS if blanks > 1 else 0
        while allowed:
            bit = allowed & -allowed
            allowed ^= bit
            letter = bit.bit_length() - 1
            node2 = kids[b0 + (m & (bit - 1)).bit_count()]
            a = acc & bit
            run_sum = 0
            q = pos + 1
            while q < end:  # board tiles right of pos
                sq = tiles[q]
                mm = mask[node2]
                bb = 1 << (sq & LETTER_MASK)
                if not mm & bb:
                    break
                a = accepts[node2] & bb
                node2 = kids[base[node2] + (mm & (bb - 1)).bit_count()]
                run_sum += face[sq]
                buf[q] = sq
                q += 1
            if q < end:
                continue
            more = mask[node2] & right_gate
            cnt = rack[letter]
            if cnt:
                tv = values[letter] * lmv
                buf[pos] = letter
                ms = msum + tv + run_sum
                xsum2 = xsum if xs < 0 else xsum + (xs + tv) * wmv
                if a:
                    emit(start, end - 1, placed, ms * nwmul + xsum2)
                if more:
                    rb = rbits ^ bit if cnt == 1 else rbits
                    if more & (rb | any_real):
                        rack[letter] = cnt - 1
                        go_right(end, node2, start, placed, ms, nwmul, xsum2, rb)
                        rack[letter] = cnt
            if blanks:
                buf[pos] = letter | BLANK_BIT
                ms = msum + run_sum
                xsum2 = xsum if xs < 0 else xsum + xs * wmv
                if a:
                    emit(start, end - 1, placed, ms * nwmul + xsum2)
                if more & (rbits | any_blank):
                    rack[0] = blanks - 1
                    go_right(end, node2, start, placed, ms, nwmul, xsum2, rbits)
                    rack[0] = blanks

    is_anchor = [False] * n
    for a in anchors:
        is_anchor[a] = True
    for a in anchors:
        anchor = a
        right_free = a + 1 >= n or not tiles[a + 1]
        down_single_skip = not across and xscore[a] != _NO_CROSS
        # What may follow the separator: the board letter right of the anchor (no rack
        # needed), or the letters the empty square there allows.
        if a + 1 >= n:
            sep_gate = sep_tile = 0
        elif tiles[a + 1]:
            sep_gate = sep_tile = 1 << (tiles[a + 1] & LETTER_MASK)
        else:
            sep_gate, sep_tile = cross[a + 1], 0
        p = lrun[a] - 1
        while p >= 0 and not is_anchor[p] and not tiles[p]:
            p -= 1
        left_limit = p + 1
        go_left(a, 0, 0, 0, 1, 0, rack_bits)
    return found[0]


def generate(
    board: Board,
    lexicon: Lexicon | Gaddag,
    rack: list[int],
    recorder: Recorder,
    settings: GenSettings | None = None,
) -> int:
    """Shortcut for ``Generator(board, lexicon, settings).generate(rack, recorder)``."""
    return Generator(board, lexicon, settings).generate(rack, recorder)
