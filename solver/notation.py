"""Reading and writing moves: coordinates and word, in the three notation styles.

* ``"fisf"`` (French federation, docs/rules.md#notation): rows are letters and columns
  numbers. Row letter first is horizontal (``H4``: row H, column 4, across); column number
  first is vertical (``4H``: column 4, row H, down).
* ``"gcg"`` (English): rows are numbers and columns letters. Row number first is
  horizontal (``8D``: row 8, column D, across); column letter first is vertical (``D8``).
* ``"scramble"`` (the Scramble help): ``location,direction,word`` as in ``h8,a,fish``; the
  location is column letter + row number, or the same square written number first (``8h``).

``H4`` is across in FISF and down in GCG, so the "COORD WORD" form can only be read with
the event's notation setting. The comma form carries its own direction and is accepted
whatever the style.

Words are written in full (docs/rules.md#notation). Uppercase is a tile and lowercase a
blank, or (Scramble help) a ``-`` marks the next letter as a blank, in which case case
means nothing. A word typed all in lowercase without ``-`` is taken as "case not
significant" (no blank marked): that is the scramble habit and the phone keyboard's.
French accents and ligatures are folded.

Internally rows and columns are 0-based; the resulting :class:`~solver.move.Move` word uses
uppercase for a tile and lowercase for a blank.
"""

from __future__ import annotations

import re
import unicodedata

from solver.errors import IllegalMoveError, InvalidMoveError
from solver.move import Move
from solver.tiles import ALPHABET

__all__ = [
    "STYLES",
    "format_coord",
    "format_move",
    "format_word",
    "parse_coord",
    "parse_move",
    "parse_word",
]

STYLES = ("fisf", "gcg", "scramble")

# Coordinates name a column or a row by one letter, so no board can be wider than this.
_MAX_SIZE = len(ALPHABET)
_LETTERS = frozenset(ALPHABET + ALPHABET.lower())
# re.ASCII keeps Unicode digits such as '٣' or '²' out: int() refuses some of them.
_LETTER_FIRST = re.compile(r"([A-Za-z])([0-9]+)", re.ASCII)
_NUMBER_FIRST = re.compile(r"([0-9]+)([A-Za-z])", re.ASCII)
_DIRECTIONS = {"a": True, "across": True, "d": False, "down": False}
# Ligatures have no canonical decomposition, so NFKD alone leaves them as non-letters.
_LIGATURES = str.maketrans({"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE"})
# Enough digits for any board while keeping int() far from its digit-count limit.
_MAX_DIGITS = 4


def _check_style(style: str) -> None:
    if style not in STYLES:
        raise InvalidMoveError(f"unknown notation style {style!r}: choose fisf, gcg or scramble")


def _check_size(size: int) -> None:
    if not 1 <= size <= _MAX_SIZE:
        raise InvalidMoveError(f"unsupported board size {size}")


def _board_name(size: int) -> str:
    return f"a {size}x{size} board"


def _index(part: str, what: str, size: int) -> int:
    """0-based index of a row or column written as a letter or as digits."""
    if part.isalpha():
        index, shown = ord(part.upper()) - ord("A"), part.upper()
    else:
        index, shown = (int(part) if len(part) <= _MAX_DIGITS else size + 1) - 1, part
    if not 0 <= index < size:
        raise InvalidMoveError(f"{what} {shown} is off {_board_name(size)}")
    return index


def _read_square(text: str, letter_is_row: bool, size: int) -> tuple[int, int, bool]:
    """(row, col, letter first?) of a square such as ``H4`` or ``4H``."""
    match = _LETTER_FIRST.fullmatch(text) or _NUMBER_FIRST.fullmatch(text)
    if not match:
        raise InvalidMoveError(f"cannot read the coordinates {text!r}")
    found: dict[str, int] = {}
    # In written order, so that the player hears first about the first thing typed wrong.
    for part in match.groups():
        what = "row" if part.isalpha() == letter_is_row else "column"
        found[what] = _index(part, what, size)
    return found["row"], found["column"], match[1].isalpha()


def _parse_direction(text: str, location: str) -> bool:
    if not text:
        raise InvalidMoveError(f"missing direction after {location}: use a (across) or d (down)")
    across = _DIRECTIONS.get(text.lower())
    if across is None:
        raise InvalidMoveError(f"unknown direction {text!r}: use a (across) or d (down)")
    return across


def _parse_scramble_coord(location: str, direction: str, size: int) -> tuple[int, int, bool]:
    if not location:
        raise InvalidMoveError("missing coordinates before the direction")
    # The Scramble help reads both H8 and 8H as column H, row 8: the order carries no
    # direction (docs/rules.md#notation).
    row, col, _ = _read_square(location, False, size)
    return row, col, _parse_direction(direction, location)


def _parse_plain_coord(text: str, style: str, size: int) -> tuple[int, int, bool]:
    # Both styles write the row first for an across move; they differ only in whether the
    # row is named by the letter (fisf) or by the number (gcg).
    letter_is_row = style == "fisf"
    row, col, letter_first = _read_square(text, letter_is_row, size)
    return row, col, letter_first == letter_is_row


def parse_coord(text: str, style: str, size: int = 15) -> tuple[int, int, bool]:
    """Read coordinates into ``(row, col, across)``, 0-based.

    ``H4``/``4H`` are read in the ``style`` given (``fisf`` or ``gcg``); the scramble form
    ``h8,a`` (also ``8h, d``) is accepted in every style, and is the only form the
    ``scramble`` style reads.

    Raises :class:`InvalidMoveError` when the text cannot be read, the square is off a
    ``size`` x ``size`` board, the direction is unknown, or the style or size is not
    supported.
    """
    _check_style(style)
    _check_size(size)
    text = text.strip()
    if not text:
        raise InvalidMoveError("missing coordinates")
    if "," in text:
        parts = [part.strip() for part in text.split(",")]
        if len(parts) > 2:
            raise InvalidMoveError(f"unexpected text after the direction in {text!r}")
        return _parse_scramble_coord(parts[0], parts[1], size)
    if style == "scramble":
        # Only the direction letter is missing; reading 'h8' as a square first gives the
        # player the more useful message when the square itself is wrong.
        _parse_scramble_coord(text, "a", size)
        raise InvalidMoveError(f"missing direction after {text}: use a (across) or d (down)")
    return _parse_plain_coord(text, style, size)


def format_coord(row: int, col: int, across: bool, style: str) -> str:
    """Write 0-based coordinates: fisf ``H4``/``4H``, gcg ``8D``/``D8``, scramble ``h8,a``.

    Raises :class:`InvalidMoveError` for an unknown style or a square no letter can name.
    """
    _check_style(style)
    if not (0 <= row < _MAX_SIZE and 0 <= col < _MAX_SIZE):
        raise InvalidMoveError(f"no coordinates for row {row}, column {col}")
    if style == "fisf":
        return f"{ALPHABET[row]}{col + 1}" if across else f"{col + 1}{ALPHABET[row]}"
    if style == "gcg":
        return f"{row + 1}{ALPHABET[col]}" if across else f"{ALPHABET[col]}{row + 1}"
    return f"{ALPHABET[col].lower()}{row + 1},{'a' if across else 'd'}"


def _fold(text: str) -> str:
    """Drop accents and split ligatures, keeping each base letter's case (it marks blanks)."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_LIGATURES))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def parse_word(text: str) -> str:
    """Read a written word into the :class:`~solver.move.Move` convention.

    Uppercase is a tile and lowercase a blank; with any ``-`` in the word, a letter after
    ``-`` is a blank and every other letter a tile, whatever its case; a word all in
    lowercase without ``-`` has no blank marked (all tiles).

    Raises :class:`InvalidMoveError` when the word is empty, holds a character that is not
    a letter, or has a ``-`` not followed by a letter.
    """
    text = text.strip()
    if not text:
        raise InvalidMoveError("missing word")
    folded = _fold(text)
    for ch in folded:
        if ch != "-" and ch not in _LETTERS:
            raise InvalidMoveError(f"the word '{text}' holds a character that is not a letter: {ch!r}")
    if "-" in folded:
        out: list[str] = []
        blank_next = False
        for ch in folded:
            if ch == "-":
                if blank_next:
                    raise InvalidMoveError("'-' must be followed by a letter")
                blank_next = True
            else:
                out.append(ch.lower() if blank_next else ch.upper())
                blank_next = False
        if blank_next:
            raise InvalidMoveError("'-' must be followed by a letter")
        return "".join(out)
    if not folded:
        raise InvalidMoveError(f"the word '{text}' holds no letter")
    if folded.islower():
        return folded.upper()
    return folded


def _check_word(word: str) -> None:
    if not word:
        raise InvalidMoveError("empty word")
    for ch in word:
        if ch not in _LETTERS:
            raise InvalidMoveError(f"the word '{word}' holds a character that is not a letter: {ch!r}")


def _dashed(word: str) -> str:
    return "".join(f"-{ch}" if ch.islower() else ch.lower() for ch in word)


def format_word(word: str, style: str) -> str:
    """Write a :class:`~solver.move.Move` word (uppercase tile, lowercase blank).

    fisf/gcg: unchanged, blanks in lowercase, except a word made only of blanks, written
    with ``-`` marks (``-a-b``) since all lowercase would read back as "no blank marked".
    scramble: lowercase with ``-`` before each blank (``BaNANA`` -> ``b-anana``).

    Raises :class:`InvalidMoveError` for an unknown style or a word that is not letters.
    """
    _check_style(style)
    _check_word(word)
    if style == "scramble" or word.islower():
        return _dashed(word)
    return word


def parse_move(text: str, style: str = "gcg", size: int = 15) -> Move:
    """Read a move: ``"H4 WORD"`` (fisf), ``"8D WORD"`` (gcg) or ``"h8,a,word"`` (any style).

    Raises :class:`InvalidMoveError` when the text cannot be read (coordinates, direction,
    word, missing or extra parts, unknown style or size), and :class:`IllegalMoveError`
    when the word, read correctly, runs off the board.
    """
    _check_style(style)
    _check_size(size)
    text = text.strip()
    if not text:
        raise InvalidMoveError("empty move")
    if "," in text:
        parts = [part.strip() for part in text.split(",")]
        coord_text = ",".join(parts[:2])
        row, col, across = parse_coord(coord_text, style, size)
        if len(parts) < 3 or not parts[2]:
            raise InvalidMoveError(f"missing word after {coord_text}")
        if len(parts) > 3 or len(parts[2].split()) > 1:
            raise InvalidMoveError("unexpected text after the word")
        word_text = parts[2]
    else:
        tokens = text.split()
        coord_text = tokens[0]
        row, col, across = parse_coord(coord_text, style, size)
        if len(tokens) < 2:
            raise InvalidMoveError(f"missing word after {coord_text}")
        if len(tokens) > 2:
            raise InvalidMoveError("unexpected text after the word")
        word_text = tokens[1]
    word = parse_word(word_text)
    room = size - (col if across else row)
    if len(word) > room:
        raise IllegalMoveError(
            f"the word runs off the board: {word} needs {len(word)} squares from {coord_text},"
            f" only {room} left"
        )
    return Move(row, col, across, word)


def format_move(move: Move, style: str = "gcg") -> str:
    """Write a move: ``"8D WORD"`` (gcg), ``"H4 WORD"`` (fisf) or ``"h8,a,word"`` (scramble).

    Raises :class:`InvalidMoveError` for an unknown style or a move that cannot be written.
    """
    coord = format_coord(move.row, move.col, move.across, style)
    word = format_word(move.word, style)
    return f"{coord},{word}" if style == "scramble" else f"{coord} {word}"
