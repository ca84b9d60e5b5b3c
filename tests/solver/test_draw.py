"""The duplicate draw: minimums, rejections, the end of the game, manual racks."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.draw import (
    Bag,
    DrawRules,
    Minimums,
    RackDraw,
    check_manual_rack,
    draw_rack,
    game_over_by_draw,
    minimums_in_force,
    parse_tiles,
    rack_meets,
)
from solver.errors import IllegalRackError
from solver.tiles import TileSet, rack_codes, rack_string, tile_set

EN = tile_set("english")
FR = tile_set("french")
RULES = DrawRules()
#: The end of the game before the FISF practice: the early minimums or nothing.
NO_FALLBACK = DrawRules(early_fallback=False)


def codes(letters: str) -> tuple[int, ...]:
    return tuple(rack_codes(letters))


def meets(letters: str, vowels: int, consonants: int, tileset=EN) -> bool:
    return rack_meets(tileset, codes(letters), vowels, consonants)


def play_game(seed: int, play_seed: int, tileset=EN, rules=RULES):
    """Draw a whole game, "playing" a random non-empty part of each rack."""
    bag = Bag(tileset, seed)
    player = random.Random(play_seed)
    reliquat: tuple[int, ...] = ()
    draws, played = [], 0
    for round_number in range(1, 500):
        draw = draw_rack(bag, reliquat, round_number, tileset, rules)
        if draw is None:
            break
        draws.append(draw)
        rack = list(draw.rack)
        player.shuffle(rack)
        n = player.randint(1, len(rack))
        played += n
        reliquat = tuple(rack[n:])
    return draws, bag, reliquat, played


# --- rules and minimums ---------------------------------------------------------------


def test_rounds_1_to_15_need_two_vowels_and_two_consonants_then_one_of_each():
    assert RULES.minimums(1) == (2, 2)
    assert RULES.minimums(15) == (2, 2)
    assert RULES.minimums(16) == (1, 1)
    assert RULES.minimums(40) == (1, 1)


def test_the_minimums_and_their_last_round_are_settings():
    rules = DrawRules(early_rounds=10, early_vowels=3, early_consonants=3, late_vowels=0)
    assert rules.minimums(10) == (3, 3)
    assert rules.minimums(11) == (0, 1)


def test_it_refuses_round_zero_and_minimums_that_do_not_fit_the_rack():
    with pytest.raises(ValueError, match="from 1"):
        RULES.minimums(0)
    with pytest.raises(ValueError, match="do not fit"):
        DrawRules(rack_size=3, early_vowels=2, early_consonants=2)


def test_the_big_boards_draw_racks_of_eight():
    assert DrawRules.for_board(15).rack_size == 7
    assert DrawRules.for_board(21, early_rounds=12) == DrawRules(rack_size=8, early_rounds=12)


def test_a_rack_meets_the_minimums_with_enough_vowels_and_consonants():
    assert meets("AEBCDFG", 2, 2)
    assert not meets("ABCDFGH", 2, 2)
    assert meets("ABCDFGH", 1, 1)
    assert not meets("BCDFGHJ", 1, 1)
    assert not meets("AEIOUAE", 1, 1)


def test_a_blank_counts_as_either_a_vowel_or_a_consonant():
    assert meets("?BCDFGH", 1, 1)
    assert meets("A?BCDFG", 2, 2)
    assert meets("AEIOU?B", 2, 2)
    assert meets("??BCDFG", 2, 2)
    assert meets("??", 1, 1)


def test_each_tile_counts_once_even_when_it_could_be_both():
    assert not meets("?BCDFGH", 2, 2)
    assert not meets("??", 2, 1)
    assert not meets("AY", 1, 2)
    assert meets("AY", 1, 1)


def test_y_counts_as_both_by_default():
    assert meets("AYBCDFG", 2, 2)
    assert meets("AEIOUYA", 1, 1)
    assert meets("YYBCDFG", 2, 2)
    assert not meets("YBCDFGH", 2, 2)


def test_y_counted_as_a_consonant_no_longer_fills_a_vowel():
    consonant_y = EN.with_y("consonant")
    assert not meets("AYBCDFG", 2, 2, consonant_y)
    assert meets("AEIOUYA", 1, 1, consonant_y)
    assert not meets("YBCDFGH", 1, 1, consonant_y)


def test_y_counted_as_a_vowel_no_longer_fills_a_consonant():
    vowel_y = EN.with_y("vowel")
    assert meets("AYBCDFG", 2, 2, vowel_y)
    assert not meets("AEIOUYB", 2, 2, vowel_y)


# --- the bag --------------------------------------------------------------------------


def test_a_full_bag_holds_the_whole_tile_set():
    bag = Bag(EN, seed=1)
    assert len(bag) == EN.total == 100
    assert bag.counts() == EN.counts
    assert bag.remaining_string().startswith("??AAAAAAAAABB")


def test_the_bag_draws_the_same_tiles_whatever_order_it_was_filled_in():
    letters = "AEIOUBCDFGHKLMNPRST??"
    forward = Bag(codes(letters), seed=7)
    backward = Bag(codes(letters[::-1]), seed=7)
    assert forward.draw(10) == backward.draw(10)

    forward.put_back(codes("ZXA"))
    backward.put_back(codes("AXZ"))
    assert forward.draw(5) == backward.draw(5)


def test_the_first_rack_of_a_seed_never_changes():
    # Pinned: a stored event is replayed from its seed, on any Python version.
    first = draw_rack(Bag(EN, seed=1), (), 1, EN, RULES)
    assert first is not None
    assert rack_string(first.rack) == "CTRELIO"
    bag = Bag(EN, seed=2024)
    racks = []
    for _ in range(3):
        draw = draw_rack(bag, (), 1, EN, RULES)
        assert draw is not None
        racks.append(rack_string(draw.rack))
    assert racks == ["JREUIQE", "ESLIRXE", "OLRZDRI"]


def test_removing_a_missing_tile_names_it_and_takes_nothing():
    bag = Bag.from_string("AEEBK?", seed=1)
    with pytest.raises(IllegalRackError, match=r"^there is no Z left in the bag$"):
        bag.remove(codes("AZ"))
    with pytest.raises(IllegalRackError, match=r"^only 1 K left in the bag, the rack asks for 2$"):
        bag.remove(codes("KK"))
    with pytest.raises(IllegalRackError, match=r"^there is no blank left in the bag$"):
        Bag.from_string("AB", seed=1).remove(codes("?"))
    assert bag.remaining_string() == "?ABEEK"
    bag.remove(codes("EK?"))
    assert bag.remaining_string() == "ABE"


def test_the_bag_refuses_to_draw_more_tiles_than_it_holds():
    bag = Bag.from_string("ABC", seed=1)
    with pytest.raises(IllegalRackError, match="only 3 tiles left in the bag, cannot draw 4"):
        bag.draw(4)
    assert len(bag) == 3


def test_the_bag_refuses_codes_that_are_not_rack_tiles():
    with pytest.raises(ValueError, match="not a rack tile code"):
        Bag([1, 27], seed=1)


# --- random draws ---------------------------------------------------------------------


def test_a_rack_is_the_reliquat_plus_tiles_drawn_up_to_the_rack_size():
    bag = Bag(EN, seed=3)
    reliquat = codes("AEB")
    bag.remove(reliquat)
    draw = draw_rack(bag, reliquat, 2, EN, RULES)
    assert draw is not None
    assert not draw.rejected
    assert draw.reliquat == reliquat
    assert len(draw.new) == 4
    assert draw.rack == reliquat + draw.new
    assert len(bag) == 100 - 7


def test_it_rejects_a_rack_without_vowels_and_redraws_everything():
    # Six consonants kept: the seventh tile cannot make two vowels, so the first rack
    # always fails round 1.
    reliquat = codes("BCDFGH")
    bag = Bag.from_string("AEIOUAEIOU" + "LMNPRSTLMNPRST", seed=5)
    before = len(bag)
    draw = draw_rack(bag, reliquat, 1, EN, RULES)
    assert draw is not None
    assert draw.reliquat == ()
    assert len(draw.new) == 7
    assert draw.rejected[0][:6] == reliquat
    assert len(draw.rejected[0]) == 7
    for rejected in draw.rejected:
        assert not rack_meets(EN, rejected, 2, 2)
    assert rack_meets(EN, draw.rack, 2, 2)
    # Every tile of the rejected racks went back: only the new rack is out of the bag.
    assert len(bag) == before + len(reliquat) - len(draw.new)


def test_rejected_racks_are_recorded_in_order_and_put_back_whole():
    # One vowel in seven tiles of each kind: most round 1 racks fail.
    bag = Bag.from_string("A" + "BCDFGHJKLMNP" + "E" + "RSTVWXZ", seed=11)
    draw = draw_rack(bag, (), 1, EN, RULES)
    assert draw is not None
    assert len(draw.rejected) >= 1
    assert all(len(r) == 7 for r in draw.rejected)
    assert sorted(bag.tiles + draw.rack) == sorted(codes("ABCDFGHJKLMNPERSTVWXZ"))


def test_the_last_rack_takes_whatever_is_left_in_the_bag():
    bag = Bag.from_string("EBT", seed=1)
    draw = draw_rack(bag, codes("AS"), 20, EN, RULES)
    assert draw is not None
    assert sorted(draw.rack) == sorted(codes("ASEBT"))
    assert len(bag) == 0


def test_the_same_seed_and_play_give_the_same_whole_game_of_draws():
    first, *_ = play_game(seed=42, play_seed=9)
    second, *_ = play_game(seed=42, play_seed=9)
    assert len(first) > 15
    assert first == second
    assert [d.to_dict() for d in first] == [d.to_dict() for d in second]


def test_different_seeds_draw_different_games():
    first, *_ = play_game(seed=1, play_seed=9)
    second, *_ = play_game(seed=2, play_seed=9)
    assert [d.rack for d in first] != [d.rack for d in second]


def test_it_gives_up_with_a_clear_message_after_max_attempts_and_keeps_the_tiles():
    # Two vowels among 200 consonants: a valid round 1 rack exists but is almost never drawn.
    letters = "AE" + "BCDFGHJKLMNPQRSTVWXZ" * 10
    bag = Bag.from_string(letters, seed=1)
    reliquat = codes("BC")
    rules = DrawRules(max_attempts=5)
    assert not game_over_by_draw(EN, bag.tiles + reliquat, 1, rules)
    with pytest.raises(IllegalRackError, match="no rack with 2 vowels and 2 consonants was drawn in 5"):
        draw_rack(bag, reliquat, 1, EN, rules)
    assert sorted(bag.tiles) == sorted(codes(letters))


def test_a_reliquat_bigger_than_the_rack_is_refused():
    with pytest.raises(IllegalRackError, match="does not fit"):
        draw_rack(Bag(EN, seed=1), codes("ABCDEFGH"), 1, EN, RULES)


# --- the end of the game by the draw --------------------------------------------------


def test_the_game_is_over_when_the_bag_and_reliquat_are_empty():
    assert game_over_by_draw(EN, (), 30, RULES)
    assert draw_rack(Bag([], seed=1), (), 30, EN, RULES) is None


def test_the_game_is_over_when_no_vowels_are_left():
    pool = codes("BCDFGHJKLMNPRST")
    assert game_over_by_draw(EN, pool, 20, RULES)
    bag = Bag(pool[2:], seed=1)
    assert draw_rack(bag, pool[:2], 20, EN, RULES) is None
    assert bag.tiles == pool[2:]


def test_the_game_is_over_when_the_last_tiles_hold_no_consonant():
    assert game_over_by_draw(EN, codes("AEIOU"), 20, RULES)
    assert not game_over_by_draw(EN, codes("AEIOB"), 20, RULES)
    assert not game_over_by_draw(EN, codes("AEIO?"), 20, RULES)
    assert not game_over_by_draw(EN, codes("AEIOY"), 20, RULES)
    assert game_over_by_draw(EN.with_y("vowel"), codes("AEIOY"), 20, RULES)


def test_without_the_fallback_the_early_rounds_end_when_two_of_each_cannot_be_drawn():
    assert game_over_by_draw(EN, codes("AEB"), 3, NO_FALLBACK)
    assert not game_over_by_draw(EN, codes("AEB"), 16, NO_FALLBACK)
    many_consonants = codes("A" + "BCDFGHJKLMNP")
    assert game_over_by_draw(EN, many_consonants, 5, NO_FALLBACK)
    assert not game_over_by_draw(EN, many_consonants, 16, NO_FALLBACK)
    assert not game_over_by_draw(EN, codes("A?" + "BCDFGHJKLMNP"), 5, NO_FALLBACK)


def test_a_game_ends_by_the_draw_and_every_rack_met_its_minimums():
    draws, bag, reliquat, played = play_game(seed=8, play_seed=3)
    for draw in draws:
        assert rack_meets(EN, draw.rack, *RULES.minimums(draw.round))
    assert [d.round for d in draws] == list(range(1, len(draws) + 1))
    assert game_over_by_draw(EN, bag.tiles + reliquat, len(draws) + 1, RULES)
    assert len(bag) + len(reliquat) + played == EN.total


# --- the early rounds when the bag runs low (FISF) ------------------------------------

#: Round 10: one vowel left among ten tiles, so no rack can hold 2 vowels, but a rack
#: with 1 vowel and 1 consonant can be drawn.
ONE_VOWEL = "ABCDFGHKLM"


def test_the_early_minimums_apply_while_the_pool_can_give_them():
    assert minimums_in_force(EN, codes("AEBCDFGH"), 10, RULES) == Minimums(2, 2)
    assert minimums_in_force(EN, codes("AEBCDFGH"), 16, RULES) == Minimums(1, 1)


def test_an_early_round_falls_back_to_one_and_one_when_two_and_two_cannot_be_drawn():
    assert minimums_in_force(EN, codes(ONE_VOWEL), 10, RULES) == Minimums(1, 1, fallback=True)
    assert minimums_in_force(EN, codes(ONE_VOWEL), 10, NO_FALLBACK) is None
    assert not game_over_by_draw(EN, codes(ONE_VOWEL), 10, RULES)
    assert game_over_by_draw(EN, codes(ONE_VOWEL), 10, NO_FALLBACK)


def test_the_fallback_ends_the_game_only_when_not_even_one_and_one_can_be_drawn():
    assert game_over_by_draw(EN, codes("BCDFGHKLM"), 10, RULES)
    assert game_over_by_draw(EN, codes("AEIOUAEIO"), 10, RULES)
    assert game_over_by_draw(EN, (), 10, RULES)


def test_the_fallback_is_for_the_early_rounds_only():
    # Round 15 is the last early round; from round 16 the late minimums are the round's own.
    assert minimums_in_force(EN, codes(ONE_VOWEL), 15, RULES) == Minimums(1, 1, fallback=True)
    assert minimums_in_force(EN, codes(ONE_VOWEL), 16, RULES) == Minimums(1, 1)
    assert minimums_in_force(EN, codes(ONE_VOWEL), 16, NO_FALLBACK) == Minimums(1, 1)
    rules = DrawRules(early_rounds=9)
    assert minimums_in_force(EN, codes(ONE_VOWEL), 10, rules) == Minimums(1, 1)
    assert game_over_by_draw(EN, codes(ONE_VOWEL), 9, DrawRules(early_rounds=9, early_fallback=False))


def test_the_fallback_takes_the_late_minimums_of_the_settings():
    rules = DrawRules(early_vowels=3, early_consonants=3, late_vowels=2, late_consonants=0)
    assert minimums_in_force(EN, codes("AEBCDFGHK"), 4, rules) == Minimums(2, 0, fallback=True)
    assert game_over_by_draw(EN, codes("ABCDFGHKL"), 4, rules)


@pytest.mark.parametrize("seed", range(8))
def test_with_the_fallback_an_early_round_draws_a_rack_with_one_vowel(seed):
    bag = Bag.from_string(ONE_VOWEL, seed=seed)
    draw = draw_rack(bag, (), 10, EN, RULES)
    assert draw is not None
    assert len(draw.rack) == 7
    assert codes("A")[0] in draw.rack
    # Every rack drawn without the A was put back whole.
    assert all(codes("A")[0] not in rejected and len(rejected) == 7 for rejected in draw.rejected)
    assert sorted(bag.tiles + draw.rack) == sorted(codes(ONE_VOWEL))


def test_without_the_fallback_the_same_early_round_ends_the_game():
    bag = Bag.from_string(ONE_VOWEL, seed=1)
    assert draw_rack(bag, (), 10, EN, NO_FALLBACK) is None
    assert bag.tiles == tuple(sorted(codes(ONE_VOWEL)))


def test_the_fallback_counts_the_reliquat_in_the_pool():
    # The reliquat holds the second vowel: 2 and 2 can still be drawn, the rack needs them.
    bag = Bag.from_string("ABCDFGHKLM", seed=3)
    draw = draw_rack(bag, codes("E"), 10, EN, RULES)
    assert draw is not None
    assert rack_meets(EN, draw.rack, 2, 2)
    assert all(not rack_meets(EN, rejected, 2, 2) for rejected in draw.rejected)


def test_a_typed_one_vowel_rack_is_accepted_when_two_vowels_cannot_be_drawn():
    bag = Bag.from_string(ONE_VOWEL, seed=1)
    draw = check_manual_rack(bag, (), "ABCDFGH", 10, EN, RULES)
    assert draw.rack == codes("ABCDFGH")
    assert bag.tiles == codes("KLM")


def test_a_typed_rack_without_the_fallback_is_refused_as_the_game_is_over():
    bag = Bag.from_string(ONE_VOWEL, seed=1)
    with pytest.raises(IllegalRackError) as refused:
        check_manual_rack(bag, (), "ABCDFGH", 10, EN, NO_FALLBACK)
    assert str(refused.value) == (
        "the game is over: the 10 tiles left cannot make a rack with 2 vowels and 2 consonants"
    )
    assert len(bag) == 10


def test_a_typed_one_vowel_rack_is_refused_while_two_vowels_can_be_drawn():
    bag = Bag.from_string("AE" + ONE_VOWEL[1:], seed=1)
    with pytest.raises(IllegalRackError) as refused:
        check_manual_rack(bag, (), "ABCDFGH", 10, EN, RULES)
    assert str(refused.value) == (
        "the rack needs at least 2 vowels in round 10 (it has 1): the bag and reliquat can still"
        " give 2 vowels and 2 consonants, so 1 vowel and 1 consonant are not enough"
    )
    with pytest.raises(IllegalRackError) as refused:
        check_manual_rack(bag, (), "ABCDFGH", 10, EN, NO_FALLBACK)
    assert str(refused.value) == "the rack needs at least 2 vowels in round 10 (it has 1)"
    assert len(bag) == 11


def test_a_typed_rack_under_the_fallback_says_the_later_minimums_apply_and_why():
    bag = Bag.from_string(ONE_VOWEL, seed=1)
    with pytest.raises(IllegalRackError) as refused:
        check_manual_rack(bag, (), "BCDFGHK", 10, EN, RULES)
    assert str(refused.value) == (
        "the rack needs at least 1 vowel in round 10 (it has 0): the later minimums apply"
        " (1 vowel and 1 consonant), as the bag and reliquat can no longer give 2 vowels and 2 consonants"
    )
    assert len(bag) == 10


def test_a_typed_rack_rejected_under_the_fallback_must_miss_one_and_one():
    bag = Bag.from_string(ONE_VOWEL, seed=1)
    with pytest.raises(IllegalRackError) as refused:
        check_manual_rack(bag, (), "ABCDFGK", 10, EN, RULES, rejected=["ABCDFGH"])
    assert str(refused.value) == (
        "the rejected rack ABCDFGH meets the minimums of round 10 (1 vowel and 1 consonant):"
        " it cannot be rejected"
    )
    draw = check_manual_rack(bag, (), "ABCDFGK", 10, EN, RULES, rejected=["BCDFGHK"])
    assert draw.rejected == (codes("BCDFGHK"),)
    assert bag.tiles == codes("HLM")


def test_a_typed_rack_when_not_even_one_and_one_can_be_drawn_says_both():
    bag = Bag.from_string("BCDFGHKLM", seed=1)
    with pytest.raises(IllegalRackError) as refused:
        check_manual_rack(bag, (), "BCDFGHK", 10, EN, RULES)
    assert str(refused.value) == (
        "the game is over: the 9 tiles left cannot make a rack with 2 vowels and 2 consonants,"
        " nor with 1 vowel and 1 consonant"
    )


def test_the_round_after_the_early_rounds_is_unchanged_by_the_setting():
    for rules in (RULES, NO_FALLBACK):
        bag = Bag.from_string(ONE_VOWEL, seed=1)
        with pytest.raises(IllegalRackError) as refused:
            check_manual_rack(bag, (), "BCDFGHK", 16, EN, rules)
        assert str(refused.value) == "the rack needs at least 1 vowel in round 16 (it has 0)"
        assert check_manual_rack(bag, (), "ABCDFGH", 16, EN, rules).rack == codes("ABCDFGH")
        assert draw_rack(Bag.from_string("BCDFGHKLM", seed=1), (), 16, EN, rules) is None


# --- records --------------------------------------------------------------------------


def test_a_rack_draw_survives_a_json_round_trip():
    draw = RackDraw(4, codes("AE"), codes("T?S"), (codes("BCDFGHA"), codes("KLMNPRS")), manual=True)
    data = json.loads(json.dumps(draw.to_dict()))
    assert data == {
        "round": 4,
        "reliquat": "AE",
        "new": "T?S",
        "rejected": ["BCDFGHA", "KLMNPRS"],
        "manual": True,
    }
    assert RackDraw.from_dict(data) == draw
    assert RackDraw.from_dict(data).rack == codes("AET?S")


# --- manual racks ---------------------------------------------------------------------


def manual_bag() -> Bag:
    bag = Bag(EN, seed=1)
    bag.remove(codes("AEI"))
    return bag


def test_a_manual_rack_keeps_the_reliquat_and_takes_the_rest_from_the_bag():
    bag = manual_bag()
    draw = check_manual_rack(bag, codes("AEI"), "AEITRSN", 3, EN, RULES)
    assert draw == RackDraw(3, codes("AEI"), codes("TRSN"), (), manual=True)
    assert len(bag) == 100 - 7
    assert bag.counts()[rack_codes("T")[0]] == EN.counts[rack_codes("T")[0]] - 1


def test_a_manual_rack_may_be_typed_in_any_order_and_case_with_spaces():
    bag = manual_bag()
    draw = check_manual_rack(bag, codes("AEI"), "t a e r ? i n", 3, EN, RULES)
    assert draw.reliquat == codes("AEI")
    assert draw.new == codes("TR?N")
    assert bag.counts()[0] == 1


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("AEITRS", "the rack must hold 7 tiles, not 6"),
        ("AEITRSNL", "the rack must hold 7 tiles, not 8"),
        ("AETRSNL", "the rack must keep the reliquat AEI"),
        ("AEIKKRS", "there is no second K in the bag"),
        ("AEIJJRS", "there is no second J in the bag"),
        ("AEIQRS3", "'3' is not a tile"),
        ("AEI-RST", "'-' is not a tile"),
        ("AEI???S", "there is no third blank in the bag"),
    ],
)
def test_a_manual_rack_is_refused_with_its_reason_and_the_bag_is_unchanged(typed, message):
    bag = manual_bag()
    before = bag.tiles
    with pytest.raises(IllegalRackError) as refused:
        check_manual_rack(bag, codes("AEI"), typed, 3, EN, RULES)
    assert str(refused.value) == message
    assert bag.tiles == before


def test_a_manual_rack_that_misses_the_minimums_is_refused_with_the_count():
    bag = Bag(EN, seed=1)
    before = bag.tiles
    with pytest.raises(IllegalRackError) as refused:
        check_manual_rack(bag, (), "ABCDFGH", 3, EN, NO_FALLBACK)
    assert str(refused.value) == "the rack needs at least 2 vowels in round 3 (it has 1)"
    with pytest.raises(IllegalRackError) as refused:
        check_manual_rack(bag, (), "BCDFGHJ", 3, EN, RULES)
    assert str(refused.value) == "the rack needs at least 2 vowels in round 3 (it has 0)"
    with pytest.raises(IllegalRackError) as refused:
        check_manual_rack(bag, (), "AEIOUEB", 3, EN, RULES)
    assert str(refused.value) == (
        "the rack needs at least 2 consonants in round 3 (it has 1): the bag and reliquat can still"
        " give 2 vowels and 2 consonants, so 1 vowel and 1 consonant are not enough"
    )
    with pytest.raises(IllegalRackError) as refused:
        check_manual_rack(bag, (), "AEIOUEA", 16, EN, RULES)
    assert str(refused.value) == "the rack needs at least 1 consonant in round 16 (it has 0)"
    with pytest.raises(IllegalRackError) as refused:
        check_manual_rack(bag, (), "A?BCDFG", 3, EN, DrawRules(early_vowels=3))
    assert str(refused.value) == (
        "the rack needs at least 3 vowels in round 3 (it has 2): the bag and reliquat can still"
        " give 3 vowels and 2 consonants, so 1 vowel and 1 consonant are not enough"
    )
    assert bag.tiles == before


def test_a_manual_rack_where_the_blank_cannot_fill_both_minimums_is_refused():
    # Only a tile that is neither vowel nor consonant (a Y set so) leaves the blank short.
    y = 1 << rack_codes("Y")[0]
    neither_y = TileSet(
        EN.name, EN.language, EN.counts, EN.values, EN.vowel_mask & ~y, EN.consonant_mask & ~y
    )
    rules = DrawRules(rack_size=4)
    bag = Bag(EN, seed=1)
    with pytest.raises(IllegalRackError) as refused:
        check_manual_rack(bag, (), "?ABY", 1, neither_y, rules)
    assert str(refused.value) == (
        "the rack needs at least 2 vowels and 2 consonants in round 1"
        " (a blank or a tile that is both counts as one or the other, not both):"
        " the bag and reliquat can still give 2 vowels and 2 consonants,"
        " so 1 vowel and 1 consonant are not enough"
    )
    assert len(bag) == 100


def test_a_second_typed_tile_counts_the_one_in_the_reliquat():
    bag = Bag(EN, seed=1)
    bag.remove(codes("KA"))
    with pytest.raises(IllegalRackError, match=r"^there is no second K in the reliquat and the bag$"):
        check_manual_rack(bag, codes("KA"), "KAKEIRS", 3, EN, RULES)
    assert len(bag) == 98


def test_a_manual_rack_after_a_rejection_puts_the_reliquat_back_and_records_the_rejection():
    bag = Bag(EN, seed=1)
    bag.remove(codes("BCD"))
    draw = check_manual_rack(
        bag, codes("BCD"), "AEIRSTN", 2, EN, RULES, after_rejection=True, rejected=["BCDFGHA"]
    )
    assert draw.reliquat == ()
    assert draw.new == codes("AEIRSTN")
    assert draw.rejected == (codes("BCDFGHA"),)
    assert draw.manual
    # The reliquat went back to the bag; only the new rack is out of it.
    assert len(bag) == 100 - 7


def test_several_rejections_in_a_row_are_all_recorded():
    bag = Bag(EN, seed=1)
    bag.remove(codes("BC"))
    draw = check_manual_rack(bag, codes("BC"), "AEIRSTN", 2, EN, RULES, rejected=["BCDFGHA", "UUEIOAS"])
    assert draw.rejected == (codes("BCDFGHA"), codes("UUEIOAS"))


@pytest.mark.parametrize(
    ("rejected", "message"),
    [
        (
            ["BCDFGAE"],
            "the rejected rack BCDFGAE meets the minimums of round 2 (2 vowels and 2 consonants):"
            " it cannot be rejected",
        ),
        (["DFGHJAL"], "the rejected rack DFGHJAL must keep the reliquat BC"),
        (["BCDFGA"], "the rejected rack BCDFGA must hold 7 tiles, not 6"),
        (["BCDFGHA", "BCDZZZA"], "there is no second Z in the bag"),
        ([], "type the rejected rack as well: every rejection is recorded on the game sheet"),
    ],
)
def test_a_manual_rack_after_a_doubtful_rejection_is_refused_and_the_bag_is_unchanged(rejected, message):
    bag = Bag(EN, seed=1)
    bag.remove(codes("BC"))
    before = bag.tiles
    with pytest.raises(IllegalRackError) as refused:
        check_manual_rack(bag, codes("BC"), "AEIRSTN", 2, EN, RULES, after_rejection=True, rejected=rejected)
    assert str(refused.value) == message
    assert bag.tiles == before


def test_a_manual_rack_at_the_end_of_the_bag_holds_what_is_left():
    bag = Bag.from_string("EBT", seed=1)
    draw = check_manual_rack(bag, codes("AS"), "asebt", 20, EN, RULES)
    assert sorted(draw.new) == sorted(codes("EBT"))
    assert len(bag) == 0
    with pytest.raises(IllegalRackError, match="must hold 4 tiles, not 5"):
        check_manual_rack(Bag.from_string("EB", seed=1), codes("AS"), "ASEBT", 20, EN, RULES)


def test_no_manual_rack_is_accepted_once_the_game_is_over():
    with pytest.raises(IllegalRackError, match=r"^the game is over: no tiles are left$"):
        check_manual_rack(Bag([], seed=1), (), "", 30, EN, RULES)
    bag = Bag.from_string("BCD", seed=1)
    with pytest.raises(IllegalRackError, match="the 5 tiles left cannot make a rack with 1 vowel"):
        check_manual_rack(bag, codes("FG"), "FGBCD", 20, EN, RULES)
    assert len(bag) == 3


def test_typed_tiles_ignore_case_and_spaces_and_read_a_blank():
    assert parse_tiles(" a?Z ") == [1, 0, 26]
    with pytest.raises(IllegalRackError, match=r"^'é' is not a tile$"):
        parse_tiles("é")


# --- properties -----------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    play_seed=st.integers(min_value=0, max_value=2**32),
    tileset=st.sampled_from([EN, FR, EN.with_y("consonant"), tile_set("french", 21)]),
)
def test_tiles_are_conserved_and_every_rack_meets_its_minimums(seed, play_seed, tileset):
    rules = DrawRules(rack_size=7 if tileset.total <= 102 else 8)
    bag = Bag(tileset, seed)
    player = random.Random(play_seed)
    reliquat: tuple[int, ...] = ()
    played: list[int] = []
    for round_number in range(1, 500):
        in_force = minimums_in_force(tileset, bag.tiles + reliquat, round_number, rules)
        draw = draw_rack(bag, reliquat, round_number, tileset, rules)
        if draw is None:
            assert in_force is None
            break
        assert in_force is not None
        assert in_force.fallback == (
            not rack_meets(tileset, draw.rack + bag.tiles, *rules.minimums(round_number))
        )
        assert len(draw.rack) == min(rules.rack_size, len(bag) + len(draw.rack))
        assert rack_meets(tileset, draw.rack, in_force.vowels, in_force.consonants)
        for rejected in draw.rejected:
            assert not rack_meets(tileset, rejected, in_force.vowels, in_force.consonants)
        rack = list(draw.rack)
        player.shuffle(rack)
        n = player.randint(1, len(rack))
        played += rack[:n]
        reliquat = tuple(rack[n:])
        assert len(bag) + len(reliquat) + len(played) == tileset.total
    else:
        pytest.fail("the game did not end")
    assert sorted(list(bag.tiles) + list(reliquat) + played) == tileset.bag()
    assert game_over_by_draw(tileset, bag.tiles + reliquat, round_number, rules)
