"""CGP positions (Crossword Game Position, after chess's EPD): ``BOARD RACK[/RACK2] ...``.

The board field lists the rows top to bottom separated by ``/``: a number is that many
empty squares, an uppercase letter a tile, a lowercase letter a blank. The rack uses
``?`` for a blank. Further fields (scores ``10/20``, consecutive zeros, ``op value;``
opcodes such as ``lex NAME;``) are kept in :class:`Position` but not interpreted. Output
follows macondo's form: ``BOARD RACK/ 0/0 0 lex NAME;``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from solver.boards import Board, Layout, board_for_size, board_sizes, layout
from solver.errors import InvalidMoveError
from solver.tiles import BLANK_CHAR, TileSet, code_char, rack_codes, rack_string, tile_code, tile_set

_TOKEN = re.compile(r"([0-9]+)|([A-Za-z])|(.)", re.ASCII)


class CGPError(InvalidMoveError):
    """A CGP position that cannot be read."""


@dataclass
class Position:
    board: Board
    rack: list[int]
    opcodes: dict[str, str] = field(default_factory=dict)
    extra: list[str] = field(default_factory=list)


def parse_board(text: str, lay: Layout | None = None, tiles: TileSet | None = None) -> Board:
    """Read the board field. Without a layout, the size decides (the first board of that
    size, :func:`solver.boards.board_for_size`: 21x21 is read on the broad board)."""
    rows = text.strip().split("/")
    size = len(rows)
    if lay is None:
        name = board_for_size(size)
        if name is None:
            *others, last = board_sizes()
            raise CGPError(f"a CGP board has {', '.join(map(str, others))} or {last} rows, not {size}")
        lay = layout(name)
    if size != lay.size:
        raise CGPError(f"the {lay.name} board has {lay.size} rows, the position has {size}")
    squares: list[int] = []
    for r, row in enumerate(rows, start=1):
        cells: list[int] = []
        for num, letter, other in _TOKEN.findall(row):
            if num:
                # A run of 3+ digits cannot fit any board: refuse it before expanding it.
                if len(num) > 2:
                    raise CGPError(f"row {r} of the CGP board has more than {size} squares")
                cells.extend([0] * int(num))
            elif letter:
                cells.append(tile_code(letter))
            else:
                raise CGPError(f"row {r} of the CGP board holds {other!r}")
        if len(cells) != size:
            raise CGPError(f"row {r} of the CGP board has {len(cells)} squares, not {size}")
        squares.extend(cells)
    return Board(lay, tiles or tile_set("english", lay.size), squares)


def format_board(board: Board) -> str:
    out = []
    n = board.size
    for r in range(n):
        row, run = [], 0
        for code in board.squares[r * n : (r + 1) * n]:
            if not code:
                run += 1
                continue
            if run:
                row.append(str(run))
                run = 0
            row.append(code_char(code))
        if run:
            row.append(str(run))
        out.append("".join(row))
    return "/".join(out)


def parse_position(text: str, lay: Layout | None = None, tiles: TileSet | None = None) -> Position:
    """Read ``BOARD RACK[/RACK2] [fields...] [op value; ...]``; the rack may be absent."""
    fields = text.split()
    if not fields:
        raise CGPError("empty CGP position")
    board = parse_board(fields[0], lay, tiles)
    rack: list[int] = []
    if len(fields) > 1:
        rack_text = fields[1].split("/")[0]
        try:
            rack = rack_codes(rack_text)
        except ValueError:
            raise CGPError(
                f"cannot read the rack {rack_text!r}: use letters and {BLANK_CHAR} for a blank"
            ) from None
        if len(rack) > board.layout.rack_size:
            raise CGPError(f"a rack holds at most {board.layout.rack_size} tiles, not {len(rack)}")
    opcodes: dict[str, str] = {}
    extra: list[str] = []
    rest = fields[2:]
    # Scores and the zero-turn count come first and are numbers ("10/20", "0"); opcodes follow.
    while rest and rest[0].replace("/", "").lstrip("-").isdigit():
        extra.append(rest.pop(0))
    for chunk in " ".join(rest).split(";"):
        words = chunk.split()
        if words:
            opcodes[words[0]] = " ".join(words[1:])
    return Position(board, rack, opcodes, extra)


def format_position(board: Board, rack: list[int] | None = None, lexicon: str | None = None) -> str:
    """``BOARD RACK/ 0/0 0[ lex NAME;]``: the racks, scores and zero-turn count fields."""
    text = f"{format_board(board)} {rack_string(rack or [])}/ 0/0 0"
    if lexicon:
        text += f" lex {lexicon};"
    return text
