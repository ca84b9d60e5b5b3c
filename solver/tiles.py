"""Tiles, letter codes and tile sets.

Every letter is a small int so that the move generator works on flat integer arrays:

* letters ``A``..``Z`` are codes 1..26 (``ALPHABET[code - 1]``);
* in a rack, a blank is code 0 (``BLANK``);
* on a board, a blank standing for a letter is ``code | BLANK_BIT``, and an empty
  square is 0.

English and French share the alphabet: French accents and ligatures are folded by the
lexicon reader, as they are on French tiles.

Tile sets (docs/rules.md#tile-sets): the Scramble help gives the standard 15x15 sets
letter by letter. For the bigger boards it gives only the totals (161/163 on 19x19,
200/204 on 21x21); the counts are designed here by :func:`design_counts` (see its
docstring): values never change.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from solver.errors import SolverError
from solver.messages import gettext_noop, register

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
NUM_LETTERS = len(ALPHABET)
BLANK = 0
BLANK_BIT = 0x40
LETTER_MASK = 0x3F
BLANK_CHAR = "?"
#: Bitmask with one bit per letter code 1..26.
ALL_LETTERS = ((1 << (NUM_LETTERS + 1)) - 1) & ~1


#: Why a written tile cannot be read (docs/rules.md#messages), by code.
TILE_MESSAGES: dict[str, str] = {
    "not_a_letter": gettext_noop("%(char)r is not a letter A-Z"),
}
register(TILE_MESSAGES)


def letter_code(ch: str) -> int:
    """Code 1..26 of an ASCII letter, any case. Raises :class:`SolverError` (a
    ``ValueError``) otherwise."""
    up = ch.upper()
    if len(up) != 1 or up not in ALPHABET:
        raise SolverError("not_a_letter", char=ch)
    return ord(up) - 64


def code_char(code: int) -> str:
    """Board code to its letter: uppercase for a tile, lowercase for a blank, ``?`` for a
    rack blank."""
    if code == BLANK:
        return BLANK_CHAR
    ch = ALPHABET[(code & LETTER_MASK) - 1]
    return ch.lower() if code & BLANK_BIT else ch


def tile_code(ch: str) -> int:
    """Board code of a written tile: uppercase letter, lowercase letter = blank."""
    code = letter_code(ch)
    return code | BLANK_BIT if ch.islower() else code


def rack_codes(rack: str) -> list[int]:
    """Codes of a rack written as letters and ``?`` for blanks (case ignored)."""
    return [BLANK if ch == BLANK_CHAR else letter_code(ch) for ch in rack]


def rack_string(codes: list[int] | tuple[int, ...]) -> str:
    return "".join(code_char(c & LETTER_MASK) if c else BLANK_CHAR for c in codes)


class Vowels:
    """How a letter counts for the vowel/consonant rack minimums."""

    VOWEL = "vowel"
    CONSONANT = "consonant"
    BOTH = "both"


@dataclass(frozen=True)
class TileSet:
    """The tiles of one game: counts and values indexed by code (index 0 = blank)."""

    name: str
    language: str
    counts: tuple[int, ...]
    values: tuple[int, ...]
    #: Bitmask over codes (bit 0 = blank) of tiles that count as a vowel.
    vowel_mask: int
    #: Bitmask over codes (bit 0 = blank) of tiles that count as a consonant.
    consonant_mask: int

    def __post_init__(self) -> None:
        if len(self.counts) != NUM_LETTERS + 1 or len(self.values) != NUM_LETTERS + 1:
            raise ValueError("a tile set needs 27 counts and values (blank + A-Z)")

    @property
    def total(self) -> int:
        return sum(self.counts)

    def value(self, code: int) -> int:
        """Face value of a board or rack code (a blank is worth 0)."""
        if code == BLANK or code & BLANK_BIT:
            return 0
        return self.values[code]

    def is_vowel(self, code: int) -> bool:
        return bool(self.vowel_mask >> (code & LETTER_MASK if code else 0) & 1)

    def is_consonant(self, code: int) -> bool:
        return bool(self.consonant_mask >> (code & LETTER_MASK if code else 0) & 1)

    def with_y(self, y_counts_as: str) -> TileSet:
        """The same set with Y counted as a vowel, a consonant or both (a setting)."""
        y = 1 << letter_code("Y")
        vowels, consonants = self.vowel_mask & ~y, self.consonant_mask & ~y
        if y_counts_as in (Vowels.VOWEL, Vowels.BOTH):
            vowels |= y
        if y_counts_as in (Vowels.CONSONANT, Vowels.BOTH):
            consonants |= y
        if y_counts_as not in (Vowels.VOWEL, Vowels.CONSONANT, Vowels.BOTH):
            raise ValueError(f"Y counts as vowel, consonant or both, not {y_counts_as!r}")
        return TileSet(self.name, self.language, self.counts, self.values, vowels, consonants)

    def bag(self) -> list[int]:
        """All tiles as codes, in code order (blanks first)."""
        return [code for code, n in enumerate(self.counts) for _ in range(n)]

    def table(self) -> list[tuple[str, int, int]]:
        """(letter, count, value) rows, blank last: the ``-v`` table (docs/rules.md#aids-and-records)."""
        rows = [(ALPHABET[c - 1], self.counts[c], self.values[c]) for c in range(1, 27)]
        rows.append((BLANK_CHAR, self.counts[0], 0))
        return rows


def _spec(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Parse ``"A 9 1, B 2 3, ..., ? 2 0"`` into (counts, values) indexed by code."""
    counts = [0] * (NUM_LETTERS + 1)
    values = [0] * (NUM_LETTERS + 1)
    for item in text.split(","):
        letter, count, value = item.split()
        code = BLANK if letter == BLANK_CHAR else letter_code(letter)
        counts[code], values[code] = int(count), int(value)
    return tuple(counts), tuple(values)


# The Scramble help's "LETTER FREQUENCY AND VALUES" (docs/rules.md#tile-sets): letter, number,
# points.
_ENGLISH = _spec(
    "A 9 1, B 2 3, C 2 3, D 4 2, E 12 1, F 2 4, G 3 2, H 2 4, I 9 1, J 1 8, K 1 5, L 4 1,"
    " M 2 3, N 6 1, O 8 1, P 2 3, Q 1 10, R 6 1, S 4 1, T 6 1, U 4 1, V 2 4, W 2 4, X 1 8,"
    " Y 2 4, Z 1 10, ? 2 0"
)
_FRENCH = _spec(
    "A 9 1, B 2 3, C 2 3, D 3 2, E 15 1, F 2 4, G 2 2, H 2 4, I 8 1, J 1 8, K 1 10, L 5 1,"
    " M 3 2, N 6 1, O 6 1, P 2 3, Q 1 8, R 6 1, S 6 1, T 6 1, U 6 1, V 2 4, W 1 10, X 1 10,"
    " Y 1 10, Z 1 10, ? 2 0"
)

_VOWEL_LETTERS = "AEIOU"


def _masks() -> tuple[int, int]:
    vowels = 1 << BLANK
    for ch in _VOWEL_LETTERS + "Y":
        vowels |= 1 << letter_code(ch)
    consonants = 1 << BLANK
    for ch in ALPHABET:
        if ch not in _VOWEL_LETTERS:
            consonants |= 1 << letter_code(ch)
    # Y starts as both (docs/rules.md#draws); TileSet.with_y changes it.
    return vowels, consonants


def design_counts(standard: tuple[int, ...], total: int) -> tuple[int, ...]:
    """Counts of a big-board set with ``total`` tiles, from a standard set ("smooth").

    The method, fixed so that any two installations draw from the same bag:

    1. Letters that appear once in the standard set (the heavy letters: J K Q X Z in
       English, J K Q W X Y Z in French) keep a single tile, so a bigger board does not
       multiply the 8- and 10-point tiles.
    2. The other tiles, blanks included, share the remaining ``total - singles`` tiles in
       proportion to their standard counts, by the largest-remainder (Hamilton) method;
       equal remainders go to the letter with the larger standard count, then to the
       earlier code (blank first, then A..Z).

    Values never change. For the exact double, use :func:`double_counts` (``-nosmooth``).
    """
    singles = [code for code, n in enumerate(standard) if n == 1]
    rest = [code for code, n in enumerate(standard) if n > 1]
    seats = total - len(singles)
    weight = sum(standard[c] for c in rest)
    if seats < weight:
        raise ValueError("a big-board set cannot be smaller than the standard set")
    quotas = {c: Fraction(standard[c] * seats, weight) for c in rest}
    counts = [0] * len(standard)
    for c in singles:
        counts[c] = 1
    for c in rest:
        counts[c] = int(quotas[c])
    left = seats - sum(counts[c] for c in rest)
    order = sorted(rest, key=lambda c: (-(quotas[c] - int(quotas[c])), -standard[c], c))
    for c in order[:left]:
        counts[c] += 1
    return tuple(counts)


def double_counts(standard: tuple[int, ...]) -> tuple[int, ...]:
    """``-nosmooth`` for 21x21 boards: two standard sets mixed (200 EN / 204 FR)."""
    return tuple(2 * n for n in standard)


def _make(name: str, language: str, counts: tuple[int, ...], values: tuple[int, ...]) -> TileSet:
    vowels, consonants = _masks()
    return TileSet(name, language, counts, values, vowels, consonants)


@dataclass(frozen=True)
class SizeSets:
    """What a board size decides about the tiles (docs/rules.md#tile-sets)."""

    rack: int  # tiles on a rack
    totals: tuple[int, int] | None  # (English, French) tiles in the bag; None: the standard sets
    doubled: bool  # whether -nosmooth (two standard sets mixed) exists on this size


#: Every board size there is a board of (solver.boards.LAYOUT_NAMES): a board of a new size
#: needs its line here.
SIZES = {
    15: SizeSets(rack=7, totals=None, doubled=False),
    19: SizeSets(rack=8, totals=(161, 163), doubled=False),
    21: SizeSets(rack=8, totals=(200, 204), doubled=True),
}


def size_sets(board_size: int) -> SizeSets:
    sets = SIZES.get(board_size)
    if sets is None:
        raise ValueError(f"no tile set for a {board_size}x{board_size} board")
    return sets


def tile_set(language: str, board_size: int = 15, *, smooth: bool = True) -> TileSet:
    """The tile set for a language (``english``/``en`` or ``french``/``fr``) and board size.

    ``smooth=False`` selects the ``-nosmooth`` distribution, only defined on 21x21 boards.
    """
    lang = {"english": "en", "en": "en", "french": "fr", "fr": "fr"}.get(language.lower())
    if lang is None:
        raise ValueError(f"unknown tile set {language!r}: choose english or french")
    counts, values = _ENGLISH if lang == "en" else _FRENCH
    full = "english" if lang == "en" else "french"
    sets = size_sets(board_size)
    if not smooth:
        if not sets.doubled:
            raise ValueError(f"-nosmooth only exists for the {nosmooth_sizes()} boards")
        return _make(f"{full}-{board_size}-nosmooth", lang, double_counts(counts), values)
    if sets.totals is None:
        return _make(full, lang, counts, values)
    total = sets.totals[0 if lang == "en" else 1]
    return _make(f"{full}-{board_size}", lang, design_counts(counts, total), values)


def nosmooth_sizes() -> str:
    """The sizes with a -nosmooth set, as people read them ("21x21")."""
    return ", ".join(f"{n}x{n}" for n, sets in SIZES.items() if sets.doubled)


def rack_size(board_size: int) -> int:
    """7 tiles on 15x15, 8 on the bigger boards (docs/rules.md#tile-sets)."""
    return size_sets(board_size).rack
