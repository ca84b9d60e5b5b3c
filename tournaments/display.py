"""How stored moves, racks and boards are shown: in the event's notation, for every view
(terminal commands, console, phone, projector, API). Pure reads, no database writes."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from solver.boards import Layout, layout
from solver.notation import format_move, parse_move
from solver.tiles import BLANK_CHAR, TileSet, letter_code

#: Premium symbols of the board drawings (docs/rules.md#boards) as CSS class names and
#: short labels (what a square says when it is empty). The labels are the French ones:
#: "MT" mot triple, "LD" lettre double.
PREMIUM_CLASS = {
    ".": "",
    "%": "l2",
    "@": "l3",
    "&": "l4",
    "*": "w2",
    "#": "w3",
    "$": "w4",
}

#: Each premium told in letters, not by colour alone: the short mark printed on an empty
#: square (the customary "LD/MT" of French boards, "DL/TW" in English) and its name read
#: out (docs/decisions.md: by colour alone, the double letter is hard to tell from a plain square).
PREMIUM_MARKS = {
    "l2": (pgettext_lazy("premium square", "DL"), _("double letter")),
    "l3": (pgettext_lazy("premium square", "TL"), _("triple letter")),
    "l4": (pgettext_lazy("premium square", "QL"), _("quadruple letter")),
    "w2": (pgettext_lazy("premium square", "DW"), _("double word")),
    "w3": (pgettext_lazy("premium square", "TW"), _("triple word")),
    "w4": (pgettext_lazy("premium square", "QW"), _("quadruple word")),
}


#: How a game ended (the codes of solver.formats.record.END_REASONS), in the page's language.
END_REASON_LABELS = {
    "draw_rule": _("the bag and rack can no longer meet the vowel/consonant minimums"),
    "no_move": _("no legal move"),
    "stopped": _("stopped by the arbitrator"),
    "": _("in progress"),
}


#: A ruling's reason (scoring.adjudication.Reason codes) in the page's language; its
#: detail is said by tournaments.messages from the ruling's notes.
RULING_LABELS = {
    "ok": _("valid move"),
    "missing": _("no slip handed in: 0"),
    "late": _("slip received too late: 0"),
    "blank_slip": _("blank slip: 0"),
    "unreadable": _("the slip cannot be read: 0"),
    "illegal": _("the word cannot be placed there: 0"),
    "not_in_lexicon": _("a word formed is not in the list: 0"),
    "several_slips": _("several slips handed in for the round: 0"),
    "wrong_reference": _("wrong or missing reference, the announced score matches: with the penalty"),
    "omitted_letters": _("letters of the board left out, the announced score matches: with the penalty"),
    "shift_accepted": _("shifted reference accepted, with the penalty"),
    "average": _("average of the other players instead of a second 0"),
    "overridden": _("corrected by the arbitrator"),
}


def ruling_text(code: str) -> str:
    return str(RULING_LABELS.get(code, code))


def end_reason_text(code: str) -> str:
    """The sentence for a game's end reason; the code itself if it is not a known one."""
    return str(END_REASON_LABELS.get(code, code))


def board_size(board: str) -> int:
    return layout(board).size


def shown_move(gcg: str, board: str, notation: str) -> str:
    """A stored move (GCG) in the event's notation; the stored text if it cannot be read."""
    if not gcg:
        return ""
    try:
        return format_move(parse_move(gcg, "gcg", board_size(board)), notation)
    except ValueError:  # InvalidMoveError or IllegalMoveError: show what is stored
        return gcg


#: The keys of a history entry's old and new values that hold a stored move (GCG): the
#: move chosen or placed for a round, a ruling's move, a shifted placement.
HISTORY_MOVE_KEYS = frozenset({"chosen", "move", "shift_candidate"})


def _is_move(key: str, value: object) -> bool:
    return key in HISTORY_MOVE_KEYS and isinstance(value, str)


def shown_values(values: object, board: str, notation: str) -> object:
    """A history entry's old or new values with their moves in the event's notation; the
    entry itself keeps what was stored."""
    if not isinstance(values, dict):
        return values
    return {
        key: shown_move(value, board, notation) if _is_move(key, value) else value
        for key, value in values.items()
    }


def rack_text(reliquat: str, new_tiles: str) -> str:
    """The rack as reliquat+new tiles, as the game sheet prints it."""
    return f"{reliquat}+{new_tiles}" if reliquat else new_tiles


VOWELS = frozenset("AEIOUY")


def sorted_rack(rack: str, order: str = "v") -> str:
    """``--sort`` (docs/rules.md#aids-and-records): ``v`` vowels first then consonants,
    ``a`` alphabetical; the blank last either way."""
    letters = sorted(ch for ch in rack if ch != BLANK_CHAR)
    if order == "v":
        letters = [c for c in letters if c in VOWELS] + [c for c in letters if c not in VOWELS]
    return "".join(letters) + BLANK_CHAR * rack.count(BLANK_CHAR)


def axis_labels(size: int, notation: str) -> tuple[list[str], list[str]]:
    """(row labels, column labels) as the notation reads squares: FISF rows are letters
    and columns numbers; GCG and Scramble rows numbers and columns letters."""
    letters = [chr(65 + i) for i in range(size)]
    numbers = [str(i + 1) for i in range(size)]
    return (letters, numbers) if notation == "fisf" else (numbers, letters)


@dataclass(frozen=True)
class Cell:
    row: int
    col: int
    letter: str  # "" when empty; lowercase for a blank
    premium: str  # CSS class of the premium, "" for a plain square
    value: int  # face value of the tile (0 for a blank or an empty square)
    name: str  # the square in the event's notation, for screen readers
    new: bool = False  # placed by the last placed move
    centre: bool = False


def board_cells(
    rows: list[str], board_layout: Layout, tiles: TileSet, notation: str, last_move: set[tuple[int, int]]
) -> list[list[Cell]]:
    """The board as rows of cells for the templates."""
    size = board_layout.size
    row_labels, col_labels = axis_labels(size, notation)
    centre = divmod(board_layout.centre, size)
    out = []
    for r, text in enumerate(rows):
        line = []
        for c, ch in enumerate(text):
            letter = "" if ch == "." else ch
            value = tiles.value(letter_code(letter)) if letter and letter.isupper() else 0
            name = (
                f"{row_labels[r]}{col_labels[c]}" if notation == "fisf" else f"{col_labels[c]}{row_labels[r]}"
            )
            line.append(
                Cell(
                    row=r,
                    col=c,
                    letter=letter,
                    premium=PREMIUM_CLASS.get(board_layout.symbol(r, c), ""),
                    value=value,
                    name=name,
                    new=(r, c) in last_move,
                    centre=(r, c) == centre,
                )
            )
        out.append(line)
    return out


def tile_values(tiles: TileSet, rack: str) -> list[tuple[str, int]]:
    """(letter, value) for each tile of a rack, in rack order."""
    return [(ch, 0 if ch == BLANK_CHAR else tiles.value(letter_code(ch))) for ch in rack]
