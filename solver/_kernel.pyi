from array import array
from collections.abc import Sequence

from solver.movegen import Recorder

def generate_strip(
    mask: array[int],
    accepts: array[int],
    base: array[int],
    kids: array[int],
    tiles: Sequence[int],
    cross: Sequence[int],
    xscore: Sequence[int],
    lm: Sequence[int],
    wm: Sequence[int],
    anchors: Sequence[int],
    rack: Sequence[int],
    values: Sequence[int],
    face: Sequence[int],
    rack_size: int,
    bingo_bonus: int,
    across: bool,
    line: int,
    recorder: Recorder,
    /,
) -> int: ...
