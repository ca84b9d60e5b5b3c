"""What the move generator keeps of the moves it finds (macondo's ``PlayRecorderFunc``):
:class:`AllMoves`, :class:`TopN`, :class:`TopMoves` (every move of the best score),
:class:`BestMoves` (the same without the count, by a bounded best-first search) or
:class:`CountOnly`; any other :class:`Recorder` is offered the moves one by one.

The compiled kernel keeps the moves itself for the recorders it knows, as flat records
made :class:`Move` objects only when read (:class:`MoveList`).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from typing import overload

from solver.move import Move
from solver.tiles import ALPHABET, BLANK_BIT, NUM_LETTERS


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

    The search pays only when the rack holds a blank (docs/benchmarks.md: the bound, the
    bingo bonus above all, is too loose to skip enough of a blank-free walk to pay for itself),
    so without one the kernel walks everything and counts; ``always`` searches best first
    on any rack (the tests pin the search on every reference position)."""

    def __init__(self, always: bool = False) -> None:
        super().__init__()
        self.always = always


class _Later:
    """A move that ranks lower the later it comes in board order (:class:`Move`'s own)."""

    __slots__ = ("move",)

    def __init__(self, move: Move):
        self.move = move

    def __lt__(self, other: _Later) -> bool:
        return other.move < self.move


class TopN(Recorder):
    """Keeps the ``n`` best moves; at a tie at the cut, the first in board order (row,
    column, down before across, the word), whatever order the walk finds them in."""

    def __init__(self, n: int) -> None:
        if n < 1:
            raise ValueError("TopN needs n >= 1")
        self.n = n
        self._heap: list[tuple[int, _Later]] = []  # the worst kept move on top
        self._ranked: list[Move] | None = None

    def add(self, score: int, across: bool, line: int, start: int, word: list[int], placed: int) -> None:
        item = (score, _Later(_move(score, across, line, start, word)))
        if len(self._heap) < self.n:
            heapq.heappush(self._heap, item)
            if len(self._heap) == self.n:
                self.threshold = self._heap[0][0]
        elif self._heap[0] < item:
            heapq.heapreplace(self._heap, item)
            self.threshold = self._heap[0][0]

    @property
    def moves(self) -> list[Move]:
        if self._ranked is not None:
            return self._ranked
        return [item.move for _, item in sorted(self._heap, reverse=True)]


class CountOnly(Recorder):
    """Keeps nothing: the generator's ``count`` is the answer."""

    threshold = float("inf")

    def add(self, score: int, across: bool, line: int, start: int, word: list[int], placed: int) -> None:
        pass


# The compiled kernel keeps the moves itself for these recorders (exactly these classes: a
# subclass may add to ``add``, and is fed the moves one by one like any other recorder).
MODE_COUNT, MODE_ALL, MODE_TOP, MODE_TOPN, MODE_BEST = range(5)


def native_mode(recorder: Recorder) -> tuple[int, int] | None:
    """The compiled kernel's mode for ``recorder`` and how many moves it keeps, or None
    when the recorder is to be offered the moves one by one."""
    kind = type(recorder)
    if kind is CountOnly:
        return MODE_COUNT, 0
    if kind is AllMoves:
        return MODE_ALL, 0
    if kind is TopMoves:
        return MODE_TOP, 0
    if kind is BestMoves:
        return MODE_BEST, 0
    if kind is TopN:
        assert isinstance(recorder, TopN)
        return MODE_TOPN, min(recorder.n, 2**31 - 1)  # more than any position has
    return None


def take(recorder: Recorder, moves: MoveList) -> None:
    """Hand ``recorder`` the moves the compiled kernel kept for it."""
    if isinstance(recorder, AllMoves) and type(recorder) is AllMoves:
        recorder.moves = moves
    elif isinstance(recorder, TopMoves) and type(recorder) in (TopMoves, BestMoves):
        recorder.moves = list(moves)
        recorder.best = recorder.moves[0].score if recorder.moves else None
    elif isinstance(recorder, TopN) and type(recorder) is TopN:
        recorder._ranked = list(moves)
    elif type(recorder) is not CountOnly:
        moves.feed(recorder)
