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
from solver.messages import gettext_noop, register
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

#: Why a move's text cannot be read (docs/rules.md#messages), by code; the text is quoted
#: as the player typed it. ``a``/``d`` are the Scramble direction letters in every language.
NOTATION_MESSAGES: dict[str, str] = {
    "unknown_notation_style": gettext_noop("unknown notation style %(style)r: choose fisf, gcg or scramble"),
    "unsupported_board_size": gettext_noop("unsupported board size %(size)s"),
    "row_off_board": gettext_noop("row %(row)s is off a %(size)sx%(size)s board"),
    "column_off_board": gettext_noop("column %(column)s is off a %(size)sx%(size)s board"),
    "unreadable_coordinates": gettext_noop("cannot read the coordinates %(text)r"),
    "missing_direction": gettext_noop("missing direction after %(location)s: use a (across) or d (down)"),
    "unknown_direction": gettext_noop("unknown direction %(text)r: use a (across) or d (down)"),
    "missing_coordinates_before_direction": gettext_noop("missing coordinates before the direction"),
    "missing_coordinates": gettext_noop("missing coordinates"),
    "text_after_direction": gettext_noop("unexpected text after the direction in %(text)r"),
    "square_without_name": gettext_noop("no coordinates for row %(row)s, column %(column)s"),
    "missing_word": gettext_noop("missing word"),
    "word_not_letters": gettext_noop("the word '%(word)s' holds a character that is not a letter: %(char)r"),
    "dash_without_letter": gettext_noop("'-' must be followed by a letter"),
    "word_without_letter": gettext_noop("the word '%(word)s' holds no letter"),
    "empty_word": gettext_noop("empty word"),
    "missing_word_after": gettext_noop("missing word after %(coordinates)s"),
    "text_after_word": gettext_noop("unexpected text after the word"),
    "word_runs_off_board_from": gettext_noop(
        "the word runs off the board: %(word)s needs %(length)s squares from %(coordinates)s,"
        " only %(room)s left"
    ),
    "empty_move": gettext_noop("empty move"),
}
register(NOTATION_MESSAGES)

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
        raise InvalidMoveError("unknown_notation_style", style=style)


def _check_size(size: int) -> None:
    if not 1 <= size <= _MAX_SIZE:
        raise InvalidMoveError("unsupported_board_size", size=size)


def _index(part: str, what: str, size: int) -> int:
    """0-based index of a row or column written as a letter or as digits."""
    if part.isalpha():
        index, shown = ord(part.upper()) - ord("A"), part.upper()
    else:
        index, shown = (int(part) if len(part) <= _MAX_DIGITS else size + 1) - 1, part
    if not 0 <= index < size:
        raise InvalidMoveError(f"{what}_off_board", size=size, **{what: shown})
    return index


def _read_square(text: str, letter_is_row: bool, size: int) -> tuple[int, int, bool]:
    """(row, col, letter first?) of a square such as ``H4`` or ``4H``."""
    match = _LETTER_FIRST.fullmatch(text) or _NUMBER_FIRST.fullmatch(text)
    if not match:
        raise InvalidMoveError("unreadable_coordinates", text=text)
    found: dict[str, int] = {}
    # In written order, so that the player hears first about the first thing typed wrong.
    for part in match.groups():
        what = "row" if part.isalpha() == letter_is_row else "column"
        found[what] = _index(part, what, size)
    return found["row"], found["column"], match[1].isalpha()


def _parse_direction(text: str, location: str) -> bool:
    if not text:
        raise InvalidMoveError("missing_direction", location=location)
    across = _DIRECTIONS.get(text.lower())
    if across is None:
        raise InvalidMoveError("unknown_direction", text=text)
    return across


def _parse_scramble_coord(location: str, direction: str, size: int) -> tuple[int, int, bool]:
    if not location:
        raise InvalidMoveError("missing_coordinates_before_direction")
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
        raise InvalidMoveError("missing_coordinates")
    if "," in text:
        parts = [part.strip() for part in text.split(",")]
        if len(parts) > 2:
            raise InvalidMoveError("text_after_direction", text=text)
        return _parse_scramble_coord(parts[0], parts[1], size)
    if style == "scramble":
        # Only the direction letter is missing; reading 'h8' as a square first gives the
        # player the more useful message when the square itself is wrong.
        _parse_scramble_coord(text, "a", size)
        raise InvalidMoveError("missing_direction", location=text)
    return _parse_plain_coord(text, style, size)


def format_coord(row: int, col: int, across: bool, style: str) -> str:
    """Write 0-based coordinates: fisf ``H4``/``4H``, gcg ``8D``/``D8``, scramble ``h8,a``.

    Raises :class:`InvalidMoveError` for an unknown style or a square no letter can name.
    """
    _check_style(style)
    if not (0 <= row < _MAX_SIZE and 0 <= col < _MAX_SIZE):
        raise InvalidMoveError("square_without_name", row=row, column=col)
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
        raise InvalidMoveError("missing_word")
    folded = _fold(text)
    for ch in folded:
        if ch != "-" and ch not in _LETTERS:
            raise InvalidMoveError("word_not_letters", word=text, char=ch)
    if "-" in folded:
        out: list[str] = []
        blank_next = False
        for ch in folded:
            if ch == "-":
                if blank_next:
                    raise InvalidMoveError("dash_without_letter")
                blank_next = True
            else:
                out.append(ch.lower() if blank_next else ch.upper())
                blank_next = False
        if blank_next:
            raise InvalidMoveError("dash_without_letter")
        return "".join(out)
    if not folded:
        raise InvalidMoveError("word_without_letter", word=text)
    if folded.islower():
        return folded.upper()
    return folded


def _check_word(word: str) -> None:
    if not word:
        raise InvalidMoveError("empty_word")
    for ch in word:
        if ch not in _LETTERS:
            raise InvalidMoveError("word_not_letters", word=word, char=ch)


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
        raise InvalidMoveError("empty_move")
    if "," in text:
        parts = [part.strip() for part in text.split(",")]
        coord_text = ",".join(parts[:2])
        row, col, across = parse_coord(coord_text, style, size)
        if len(parts) < 3 or not parts[2]:
            raise InvalidMoveError("missing_word_after", coordinates=coord_text)
        if len(parts) > 3 or len(parts[2].split()) > 1:
            raise InvalidMoveError("text_after_word")
        word_text = parts[2]
    else:
        tokens = text.split()
        coord_text = tokens[0]
        row, col, across = parse_coord(coord_text, style, size)
        if len(tokens) < 2:
            raise InvalidMoveError("missing_word_after", coordinates=coord_text)
        if len(tokens) > 2:
            raise InvalidMoveError("text_after_word")
        word_text = tokens[1]
    word = parse_word(word_text)
    room = size - (col if across else row)
    if len(word) > room:
        raise IllegalMoveError(
            "word_runs_off_board_from", word=word, length=len(word), coordinates=coord_text, room=room
        )
    return Move(row, col, across, word)


def format_move(move: Move, style: str = "gcg") -> str:
    """Write a move: ``"8D WORD"`` (gcg), ``"H4 WORD"`` (fisf) or ``"h8,a,word"`` (scramble).

    Raises :class:`InvalidMoveError` for an unknown style or a move that cannot be written.
    """
    coord = format_coord(move.row, move.col, move.across, style)
    word = format_word(move.word, style)
    return f"{coord},{word}" if style == "scramble" else f"{coord} {word}"
