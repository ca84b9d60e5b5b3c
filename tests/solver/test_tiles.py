"""Tile sets, letter codes and rack sizes (docs/rules.md#tile-sets).

The standard tables below are copied by hand from the pbmserv Scramble help ("LETTER FREQUENCY AND
VALUES"); the big-set expectations come from the totals it gives and from the rule
documented in ``design_counts``, re-implemented here independently.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from solver.tiles import (
    ALPHABET,
    BLANK,
    BLANK_BIT,
    TileSet,
    Vowels,
    code_char,
    design_counts,
    letter_code,
    rack_codes,
    rack_size,
    rack_string,
    tile_code,
    tile_set,
)

# The Scramble help, English table: letter -> (number, points). "?" is the blank.
ENGLISH = {
    "A": (9, 1), "B": (2, 3), "C": (2, 3), "D": (4, 2), "E": (12, 1), "F": (2, 4),
    "G": (3, 2), "H": (2, 4), "I": (9, 1), "J": (1, 8), "K": (1, 5), "L": (4, 1),
    "M": (2, 3), "N": (6, 1), "O": (8, 1), "P": (2, 3), "Q": (1, 10), "R": (6, 1),
    "S": (4, 1), "T": (6, 1), "U": (4, 1), "V": (2, 4), "W": (2, 4), "X": (1, 8),
    "Y": (2, 4), "Z": (1, 10), "?": (2, 0),
}  # fmt: skip

# The Scramble help, French table.
FRENCH = {
    "A": (9, 1), "B": (2, 3), "C": (2, 3), "D": (3, 2), "E": (15, 1), "F": (2, 4),
    "G": (2, 2), "H": (2, 4), "I": (8, 1), "J": (1, 8), "K": (1, 10), "L": (5, 1),
    "M": (3, 2), "N": (6, 1), "O": (6, 1), "P": (2, 3), "Q": (1, 8), "R": (6, 1),
    "S": (6, 1), "T": (6, 1), "U": (6, 1), "V": (2, 4), "W": (1, 10), "X": (1, 10),
    "Y": (1, 10), "Z": (1, 10), "?": (2, 0),
}  # fmt: skip

TABLES = {"english": ENGLISH, "french": FRENCH}
# The Scramble help: 161/163 tiles on 19x19, 200/204 on 21x21.
BIG_TOTALS = {("english", 19): 161, ("french", 19): 163, ("english", 21): 200, ("french", 21): 204}


def _code(letter: str) -> int:
    return BLANK if letter == "?" else ord(letter) - ord("A") + 1


def _count(ts: TileSet, letter: str) -> int:
    return ts.counts[_code(letter)]


def _value(ts: TileSet, letter: str) -> int:
    return ts.values[_code(letter)]


# --- standard sets ---------------------------------------------------------------------


@pytest.mark.parametrize("language", ["english", "french"])
def test_standard_set_matches_the_seed_table_letter_by_letter(language):
    ts = tile_set(language)
    for letter, (count, value) in TABLES[language].items():
        assert (_count(ts, letter), _value(ts, letter)) == (count, value), letter


@pytest.mark.parametrize(("language", "total"), [("english", 100), ("french", 102)])
def test_standard_set_totals(language, total):
    ts = tile_set(language)
    assert ts.total == total
    assert len(ts.bag()) == total


def test_language_short_names_and_case_are_accepted():
    assert tile_set("EN").counts == tile_set("english").counts
    assert tile_set("fr").counts == tile_set("French").counts
    assert tile_set("en").language == "en"
    assert tile_set("french").language == "fr"


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="unknown tile set"):
        tile_set("german")


@pytest.mark.parametrize("size", [13, 17, 20, 22])
def test_unknown_board_size_is_refused(size):
    with pytest.raises(ValueError, match="no tile set"):
        tile_set("english", size)


def test_blank_is_worth_zero_on_board_and_in_rack():
    ts = tile_set("english")
    assert ts.value(BLANK) == 0
    assert ts.value(letter_code("Z") | BLANK_BIT) == 0
    assert ts.value(letter_code("Z")) == 10
    assert tile_set("french").value(letter_code("K")) == 10


def test_bag_holds_each_tile_its_count_in_code_order():
    ts = tile_set("english")
    bag = ts.bag()
    assert bag[:2] == [BLANK, BLANK]
    assert bag == sorted(bag)
    for letter, (count, _) in ENGLISH.items():
        assert bag.count(_code(letter)) == count


def test_table_lists_letters_then_blank():
    rows = tile_set("french").table()
    assert rows[0] == ("A", 9, 1)
    assert rows[10] == ("K", 1, 10)
    assert rows[-1] == ("?", 2, 0)
    assert len(rows) == 27


def test_tile_set_needs_27_counts_and_values():
    with pytest.raises(ValueError, match="27"):
        TileSet("bad", "en", (1,) * 26, (1,) * 27, 0, 0)


# --- big sets --------------------------------------------------------------------------


@pytest.mark.parametrize(("language", "size"), list(BIG_TOTALS))
def test_big_set_total_is_exactly_the_seed_total(language, size):
    ts = tile_set(language, size)
    assert ts.total == BIG_TOTALS[(language, size)]
    assert len(ts.bag()) == BIG_TOTALS[(language, size)]


@pytest.mark.parametrize("language", ["english", "french"])
def test_nosmooth_on_21x21_is_exactly_two_standard_sets(language):
    ts = tile_set(language, 21, smooth=False)
    for letter, (count, value) in TABLES[language].items():
        assert _count(ts, letter) == 2 * count, letter
        assert _value(ts, letter) == value, letter
    assert ts.total == {"english": 200, "french": 204}[language]


@pytest.mark.parametrize("size", [15, 19])
@pytest.mark.parametrize("language", ["english", "french"])
def test_nosmooth_is_refused_outside_21x21(language, size):
    with pytest.raises(ValueError, match="nosmooth"):
        tile_set(language, size, smooth=False)


@pytest.mark.parametrize("language", ["english", "french"])
@pytest.mark.parametrize(("size", "smooth"), [(19, True), (21, True), (21, False)])
def test_values_are_the_same_on_every_board_size(language, size, smooth):
    ts = tile_set(language, size, smooth=smooth)
    for letter, (_, value) in TABLES[language].items():
        assert _value(ts, letter) == value, letter


@pytest.mark.parametrize(("language", "size"), list(BIG_TOTALS))
def test_big_set_keeps_single_heavy_letters_at_one(language, size):
    ts = tile_set(language, size)
    singles = {letter for letter, (count, _) in TABLES[language].items() if count == 1}
    expected = {"english": set("JKQXZ"), "french": set("JKQWXYZ")}[language]
    assert singles == expected
    for letter in singles:
        assert _count(ts, letter) == 1, letter


@pytest.mark.parametrize(("language", "size"), list(BIG_TOTALS))
def test_big_set_scales_the_other_letters_up(language, size):
    ts = tile_set(language, size)
    table = TABLES[language]
    for letter, (count, _) in table.items():
        if count > 1:
            assert _count(ts, letter) >= count, letter
    # E is the most frequent tile in both standard sets and stays so.
    assert _count(ts, "E") == max(ts.counts)
    assert all(_count(ts, letter) < _count(ts, "E") for letter in table if letter != "E")
    # Proportional: a letter more frequent than another in the standard set is not less
    # frequent in the big set.
    multi = [letter for letter, (count, _) in table.items() if count > 1]
    for a in multi:
        for b in multi:
            if table[a][0] > table[b][0]:
                assert _count(ts, a) >= _count(ts, b), (a, b)


def _hamilton(table: dict[str, tuple[int, int]], total: int) -> dict[str, int]:
    """The documented rule of ``design_counts``, written independently for the test."""
    singles = [letter for letter, (n, _) in table.items() if n == 1]
    rest = [letter for letter, (n, _) in table.items() if n > 1]
    seats = total - len(singles)
    weight = sum(table[letter][0] for letter in rest)
    quota = {letter: Fraction(table[letter][0] * seats, weight) for letter in rest}
    out = dict.fromkeys(singles, 1)
    out.update({letter: int(quota[letter]) for letter in rest})
    left = seats - sum(out[letter] for letter in rest)
    # Ties: larger standard count first, then blank, then A..Z.
    ranked = sorted(
        rest,
        key=lambda letter: (-(quota[letter] - int(quota[letter])), -table[letter][0], _code(letter)),
    )
    for letter in ranked[:left]:
        out[letter] += 1
    return out


@pytest.mark.parametrize(("language", "size"), list(BIG_TOTALS))
def test_big_set_follows_the_largest_remainder_rule(language, size):
    ts = tile_set(language, size)
    expected = _hamilton(TABLES[language], BIG_TOTALS[(language, size)])
    assert {letter: _count(ts, letter) for letter in TABLES[language]} == expected


def test_english_19x19_counts_worked_by_hand():
    # 5 singles (JKQXZ) leave 156 seats for 95 standard tiles: quota = count * 156 / 95.
    # Floors: 2 -> 3 (r .28), 3 -> 4 (r .93), 4 -> 6 (r .57), 6 -> 9 (r .85), 8 -> 13
    # (r .14), 9 -> 14 (r .78), 12 -> 19 (r .71): 145 seats, 11 left, given by remainder
    # to G, N R T, A I, E, D L S U.
    ts = tile_set("english", 19)
    expected = {
        "?": 3, "A": 15, "B": 3, "C": 3, "D": 7, "E": 20, "F": 3, "G": 5, "H": 3, "I": 15,
        "J": 1, "K": 1, "L": 7, "M": 3, "N": 10, "O": 13, "P": 3, "Q": 1, "R": 10, "S": 7,
        "T": 10, "U": 7, "V": 3, "W": 3, "X": 1, "Y": 3, "Z": 1,
    }  # fmt: skip
    assert {letter: _count(ts, letter) for letter in expected} == expected


def test_design_counts_is_reproducible_and_refuses_shrinking():
    standard = tile_set("english").counts
    assert design_counts(standard, 161) == design_counts(standard, 161)
    assert sum(design_counts(standard, 130)) == 130
    with pytest.raises(ValueError, match="smaller"):
        design_counts(standard, 90)


def test_big_set_names_say_size_and_distribution():
    assert tile_set("english", 19).name == "english-19"
    assert tile_set("french", 21, smooth=False).name == "french-21-nosmooth"
    assert tile_set("french").name == "french"


# --- vowels and consonants -------------------------------------------------------------


@pytest.mark.parametrize("language", ["english", "french"])
def test_aeiou_are_vowels_only(language):
    ts = tile_set(language)
    for letter in "AEIOU":
        assert ts.is_vowel(letter_code(letter)), letter
        assert not ts.is_consonant(letter_code(letter)), letter


@pytest.mark.parametrize("language", ["english", "french"])
def test_other_letters_are_consonants_only(language):
    ts = tile_set(language)
    for letter in "BCDFGHJKLMNPQRSTVWXZ":
        assert ts.is_consonant(letter_code(letter)), letter
        assert not ts.is_vowel(letter_code(letter)), letter


@pytest.mark.parametrize("language", ["english", "french"])
def test_blank_counts_as_both(language):
    ts = tile_set(language)
    assert ts.is_vowel(BLANK)
    assert ts.is_consonant(BLANK)


@pytest.mark.parametrize(("language", "size"), [("english", 15), ("french", 15), ("french", 21)])
def test_y_counts_as_both_by_default(language, size):
    ts = tile_set(language, size)
    y = letter_code("Y")
    assert ts.is_vowel(y)
    assert ts.is_consonant(y)


def test_with_y_vowel_or_consonant_changes_only_y():
    ts = tile_set("english")
    y = letter_code("Y")
    as_vowel = ts.with_y("vowel")
    assert as_vowel.is_vowel(y)
    assert not as_vowel.is_consonant(y)
    as_consonant = ts.with_y(Vowels.CONSONANT)
    assert as_consonant.is_consonant(y)
    assert not as_consonant.is_vowel(y)
    back = as_consonant.with_y("both")
    assert back.is_vowel(y)
    assert back.is_consonant(y)
    # Nothing else moves: counts, values, the other letters, the blank.
    for other in (as_vowel, as_consonant):
        assert other.counts == ts.counts
        assert other.values == ts.values
        assert other.is_vowel(letter_code("A"))
        assert other.is_consonant(letter_code("B"))
        assert other.is_vowel(BLANK)
        assert other.is_consonant(BLANK)
    # The original is unchanged (frozen, a new set is returned).
    assert ts.is_vowel(y)
    assert ts.is_consonant(y)


def test_vowel_class_of_a_blank_on_the_board_is_its_letter():
    ts = tile_set("english")
    assert ts.is_vowel(letter_code("A") | BLANK_BIT)
    assert not ts.is_vowel(letter_code("B") | BLANK_BIT)


@pytest.mark.parametrize("bad", ["", "Vowel", "none", "y"])
def test_with_y_refuses_an_unknown_class(bad):
    with pytest.raises(ValueError, match="vowel, consonant or both"):
        tile_set("english").with_y(bad)


# --- rack size -------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "expected"), [(15, 7), (19, 8), (21, 8)])
def test_rack_size(size, expected):
    assert rack_size(size) == expected


# --- codes -----------------------------------------------------------------------------


def test_letter_code_is_1_to_26_case_insensitive():
    assert letter_code("A") == 1
    assert letter_code("a") == 1
    assert letter_code("Z") == 26
    assert letter_code("m") == 13
    assert [letter_code(ch) for ch in ALPHABET] == list(range(1, 27))


@pytest.mark.parametrize("bad", ["", "?", "AB", "1", "é", " ", "-"])
def test_letter_code_refuses_non_letters(bad):
    with pytest.raises(ValueError, match="not a letter"):
        letter_code(bad)


def test_tile_code_uppercase_is_a_tile_lowercase_a_blank():
    assert tile_code("Q") == 17
    assert tile_code("q") == 17 | BLANK_BIT
    assert tile_code("q") != tile_code("Q")


def test_code_char_round_trips_board_codes():
    for ch in ALPHABET + ALPHABET.lower():
        assert code_char(tile_code(ch)) == ch
    assert code_char(BLANK) == "?"


def test_rack_codes_and_rack_string_round_trip():
    assert rack_codes("AB?z") == [1, 2, BLANK, 26]
    assert rack_codes("") == []
    assert rack_string([1, 2, BLANK, 26]) == "AB?Z"
    assert rack_string(rack_codes("eeRT??x")) == "EERT??X"


@pytest.mark.parametrize("bad", ["AB1", "A B", "*", "É"])
def test_rack_codes_refuses_other_characters(bad):
    with pytest.raises(ValueError):
        rack_codes(bad)
