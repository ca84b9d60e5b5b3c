from collections.abc import Sequence

from _typeshed import ReadableBuffer, WriteableBuffer

class Graph:
    nodes: int
    def __init__(
        self,
        mask: ReadableBuffer,
        accepts: ReadableBuffer,
        base: ReadableBuffer,
        kids: ReadableBuffer,
        check: int | None = None,
    ) -> None: ...

def build(words: ReadableBuffer, /) -> tuple[bytes, bytes, bytes, bytes]: ...
def checksum(
    mask: ReadableBuffer, accepts: ReadableBuffer, base: ReadableBuffer, kids: ReadableBuffer, /
) -> int: ...
def cross_update(
    graph: object,
    squares: Sequence[int],
    n: int,
    face: ReadableBuffer,
    snap: WriteableBuffer,
    cross_a: WriteableBuffer,
    xs_a: WriteableBuffer,
    cross_d: WriteableBuffer,
    xs_d: WriteableBuffer,
    full: bool,
    /,
) -> int: ...
def generate(
    graph: object,
    squares: Sequence[int],
    n: int,
    lm: ReadableBuffer,
    wm: ReadableBuffer,
    face: ReadableBuffer,
    snap: WriteableBuffer,
    cross_a: WriteableBuffer,
    xs_a: WriteableBuffer,
    cross_d: WriteableBuffer,
    xs_d: WriteableBuffer,
    full: bool,
    rack: Sequence[int],
    values: Sequence[int],
    rack_size: int,
    bingo_bonus: int,
    down_on_empty: bool,
    mode: int,
    keep: int,
    /,
) -> tuple[int, int, bytes]: ...
