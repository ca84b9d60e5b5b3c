"""The draw pinned where mutation testing found it loose (scripts/mutation): the bounds of
the draw settings, a reliquat as big as the rack, the last early round under the FISF
fallback, the refusals of typed racks and of the bag, a record without its optional keys,
the bag's seed (docs/rules.md#draws, docs/rules.md#game-end).

These tests assert what is drawn, accepted or refused: the error's type, its message code
and its parameters (docs/rules.md#messages), never the English sentence.
"""

from __future__ import annotations

from typing import Any

import pytest

from solver.draw import (
    Bag,
    DrawRules,
    Minimums,
    RackDraw,
    check_manual_rack,
    draw_rack,
    minimums_in_force,
)
from solver.errors import IllegalRackError, SolverError
from solver.messages import phrase
from solver.tiles import rack_codes, tile_set

EN = tile_set("english")
RULES = DrawRules()
NO_MINIMUMS: dict[str, Any] = {
    "early_vowels": 0,
    "early_consonants": 0,
    "late_vowels": 0,
    "late_consonants": 0,
}
#: One vowel among ten tiles: 2 vowels cannot be drawn, 1 and 1 can.
ONE_VOWEL = "ABCDFGHKLM"


def codes(letters: str) -> tuple[int, ...]:
    return tuple(rack_codes(letters))


def count(n: int, kind: str) -> dict[str, Any]:
    return phrase(f"{kind}_one" if n == 1 else f"{kind}_many", count=n)


def pair(vowels: int, consonants: int) -> dict[str, Any]:
    return phrase("minimums_pair", vowels=count(vowels, "vowels"), consonants=count(consonants, "consonants"))


def refusal(
    bag: Bag, typed: str, round_number: int, rules: DrawRules = RULES, **kwargs: Any
) -> IllegalRackError:
    """The refusal of a typed rack (the bag is left as it was)."""
    before = bag.tiles
    with pytest.raises(IllegalRackError) as refused:
        check_manual_rack(bag, (), typed, round_number, EN, rules, **kwargs)
    assert bag.tiles == before
    return refused.value


# --- the settings ---------------------------------------------------------------------


def test_the_smallest_settings_are_allowed() -> None:
    assert DrawRules(rack_size=1, **NO_MINIMUMS).rack_size == 1
    assert DrawRules(early_rounds=0).minimums(1) == (1, 1)
    assert DrawRules(max_attempts=1).max_attempts == 1
    # Minimums that fill the rack exactly fit in it.
    full = DrawRules(rack_size=4, early_vowels=2, early_consonants=2, late_vowels=2, late_consonants=2)
    assert full.minimums(20) == (2, 2)


@pytest.mark.parametrize(
    "settings",
    [
        {"rack_size": 0, **NO_MINIMUMS},
        {"early_rounds": -1},
        {"early_vowels": -1},
        {"early_consonants": -1},
        {"late_vowels": -1},
        {"late_consonants": -1},
        {"max_attempts": 0},
    ],
)
def test_settings_out_of_bounds_are_value_errors(settings: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        DrawRules(**settings)


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"rack_size": 4, "late_vowels": 3, "late_consonants": 2}, "late_minimums_too_big"),
        ({"rack_size": 4, "late_vowels": 5, "late_consonants": 0}, "late_minimums_too_big"),
        ({"rack_size": 4, "early_vowels": 1, "early_consonants": 4}, "early_minimums_too_big"),
    ],
)
def test_minimums_that_do_not_fit_the_rack_say_which(settings: dict[str, Any], code: str) -> None:
    with pytest.raises(SolverError) as refused:
        DrawRules(**settings)
    assert refused.value.code == code


# --- the reliquat ---------------------------------------------------------------------


def test_a_reliquat_as_big_as_the_rack_is_the_whole_rack() -> None:
    bag = Bag(EN, seed=1)
    drawn = draw_rack(bag, codes("AEBCDFG"), 3, EN, RULES)
    assert drawn is not None
    assert (drawn.reliquat, drawn.new) == (codes("AEBCDFG"), ())
    assert len(bag) == 100
    with pytest.raises(IllegalRackError) as refused:
        draw_rack(bag, codes("AEBCDFGH"), 3, EN, RULES)
    assert (refused.value.code, refused.value.params) == ("reliquat_too_big", {"count": 8, "size": 7})


# --- the last early round under the fallback ------------------------------------------


def test_the_last_early_round_falls_back_like_the_others() -> None:
    for round_number in (1, 15):
        assert minimums_in_force(EN, codes(ONE_VOWEL), round_number, RULES) == Minimums(1, 1, fallback=True)
        bag = Bag.from_string(ONE_VOWEL, seed=4)
        drawn = draw_rack(bag, (), round_number, EN, RULES)
        assert drawn is not None and codes("A")[0] in drawn.rack


def test_a_one_vowel_rack_is_refused_with_the_reason_up_to_the_last_early_round() -> None:
    bag = Bag.from_string("AE" + ONE_VOWEL[1:], seed=1)
    for round_number in (10, 15):
        refused = refusal(bag, "ABCDFGH", round_number)
        assert refused.code == "needs_vowels_because"
        assert refused.params == {
            "vowels": count(2, "vowels"),
            "round": round_number,
            "has": 1,
            "why": phrase("why_early_minimums", early=pair(2, 2), late=pair(1, 1)),
        }
    assert check_manual_rack(bag, (), "ABCDFGH", 16, EN, RULES).rack == codes("ABCDFGH")


def test_the_end_of_the_game_names_both_minimums_up_to_the_last_early_round() -> None:
    bag = Bag.from_string("BCDFGHKLM", seed=1)
    for round_number in (10, 15):
        refused = refusal(bag, "BCDFGHK", round_number)
        assert refused.code == "game_over_tiles"
        assert refused.params == {
            "count": 9,
            "minimums": phrase("minimums_nor", early=pair(2, 2), late=pair(1, 1)),
        }
    # From round 16 only the late minimums were ever in force.
    assert refusal(bag, "BCDFGHK", 16).params == {"count": 9, "minimums": pair(1, 1)}


def test_a_refusal_without_a_reason_to_give_has_none() -> None:
    refused = refusal(Bag.from_string(ONE_VOWEL, seed=1), "BCDFGHK", 16)
    assert refused.code == "needs_vowels"
    assert refused.params == {"vowels": count(1, "vowels"), "round": 16, "has": 0}


def test_a_blank_short_of_consonants_is_counted_as_one() -> None:
    refused = refusal(Bag(EN, seed=1), "AEIOUA?", 3)
    assert (refused.code, refused.params["has"]) == ("needs_consonants_because", 1)


# --- typed racks ----------------------------------------------------------------------


def test_a_rack_typed_after_a_rejection_is_the_rack_of_its_round() -> None:
    bag = Bag(EN, seed=1)
    bag.remove(codes("BC"))
    drawn = check_manual_rack(bag, codes("BC"), "AEIRSTN", 7, EN, RULES, rejected=["BCDFGHA"])
    assert drawn.round == 7
    assert drawn == RackDraw(7, (), codes("AEIRSTN"), (codes("BCDFGHA"),), manual=True)


def test_a_typed_rack_of_the_wrong_size_names_no_rejected_rack() -> None:
    refused = refusal(Bag(EN, seed=1), "AEIRST", 3)
    assert (refused.code, refused.params) == ("rack_size_wrong", {"tiles": count(7, "tiles"), "count": 6})


def test_a_typed_tile_the_bag_has_none_of_is_named() -> None:
    bag = Bag.from_string("AEBCDFGH", seed=1)
    refused = refusal(bag, "AEBCDFZ", 3)
    assert (refused.code, refused.params) == ("no_letter_left", {"letter": "Z"})
    refused = refusal(bag, "AEBCDF?", 3)
    assert (refused.code, refused.params) == ("no_blank_left", {})


def test_the_last_tile_that_cannot_make_a_rack_ends_the_game() -> None:
    refused = refusal(Bag.from_string("B", seed=1), "B", 20)
    assert (refused.code, refused.params) == ("game_over_one_tile", {"minimums": pair(1, 1)})


@pytest.mark.parametrize(
    ("n", "nth"),
    [
        (2, phrase("ordinal_2")),
        (8, phrase("ordinal_8")),
        (9, phrase("ordinal_th", n=9)),
        (10, phrase("ordinal_th", n=10)),
        (11, phrase("ordinal_th", n=11)),
        (12, phrase("ordinal_th", n=12)),
        (13, phrase("ordinal_th", n=13)),
        (20, phrase("ordinal_th", n=20)),
        (21, phrase("ordinal_st", n=21)),
        (22, phrase("ordinal_nd", n=22)),
        (23, phrase("ordinal_rd", n=23)),
        (24, phrase("ordinal_th", n=24)),
        (101, phrase("ordinal_st", n=101)),
        (111, phrase("ordinal_th", n=111)),
        (112, phrase("ordinal_th", n=112)),
        (113, phrase("ordinal_th", n=113)),
        (121, phrase("ordinal_st", n=121)),
        (122, phrase("ordinal_nd", n=122)),
        (123, phrase("ordinal_rd", n=123)),
    ],
)
def test_a_typed_tile_the_bag_lacks_is_named_by_its_rank(n: int, nth: dict[str, Any]) -> None:
    """The n-th E when the bag holds n - 1 (a rack of n tiles, no minimums): its rank is a
    word up to the eighth, then 9th, 21st, 111th, 122nd..."""
    bag = Bag.from_string("E" * (n - 1) + "A", seed=1)
    refused = refusal(bag, "E" * n, 1, DrawRules(rack_size=n, **NO_MINIMUMS))
    assert (refused.code, refused.params) == ("no_nth_letter", {"nth": nth, "letter": "E"})


# --- the draw and the bag -------------------------------------------------------------


def test_the_draw_that_gives_up_says_where_it_stood() -> None:
    letters = "AE" + "BCDFGHJKLMNPQRSTVWXZ" * 10
    rules = DrawRules(max_attempts=3)
    with pytest.raises(IllegalRackError) as kept:
        draw_rack(Bag.from_string(letters, seed=1), codes("QZ"), 1, EN, rules)
    bag = Bag.from_string(letters, seed=1)
    with pytest.raises(IllegalRackError) as none:
        draw_rack(bag, (), 1, EN, rules)
    expected = {"minimums": pair(2, 2), "attempts": 3, "round": 1, "bag": bag.remaining_string()}
    assert (none.value.code, none.value.params) == ("no_rack_drawn_no_reliquat", expected)
    assert kept.value.code == "no_rack_drawn"
    assert kept.value.params["reliquat"] == "QZ"


def test_the_bag_says_how_many_tiles_or_blanks_it_lacks() -> None:
    with pytest.raises(IllegalRackError) as refused:
        Bag.from_string("B", seed=1).draw(2)
    assert (refused.value.code, refused.value.params) == ("bag_too_small_one", {"count": 2})
    with pytest.raises(IllegalRackError) as refused:
        Bag.from_string("BC", seed=1).draw(3)
    assert (refused.value.code, refused.value.params) == ("bag_too_small", {"left": 2, "count": 3})
    with pytest.raises(IllegalRackError) as refused:
        Bag.from_string("?A", seed=1).remove(codes("??"))
    assert (refused.value.code, refused.value.params) == ("one_blank_left", {"wanted": 2})
    with pytest.raises(IllegalRackError) as refused:
        Bag.from_string("??A", seed=1).remove(codes("???"))
    assert (refused.value.code, refused.value.params) == ("too_few_blanks_left", {"left": 2, "wanted": 3})
    with pytest.raises(IllegalRackError) as refused:
        Bag.from_string("A", seed=1).remove(codes("?"))
    assert (refused.value.code, refused.value.params) == ("no_blank_left", {})


def test_a_record_without_its_optional_keys_reads_them_as_empty() -> None:
    assert RackDraw.from_dict({"round": 3, "new": "ABC"}) == RackDraw(3, (), codes("ABC"), (), manual=False)
    assert RackDraw.from_dict({"round": 4, "reliquat": "DE"}) == RackDraw(4, codes("DE"), (), ())
    read = RackDraw.from_dict({"round": 5})
    assert (read.reliquat, read.new, read.rejected, read.manual) == ((), (), (), False)


def test_the_bag_keeps_its_seed() -> None:
    bag = Bag(EN, seed=12)
    assert bag.seed == 12
    assert repr(Bag.from_string("BA", seed=12)) == "Bag('AB', seed=12)"
