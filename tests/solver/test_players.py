"""Virtual players (docs/rules.md#computer-players): level 6 always plays a top, lower levels score less."""

from __future__ import annotations

import statistics

import pytest

from solver.analysis import analyse
from solver.lexicon import Lexicon
from solver.players import VirtualPlayer
from solver.tiles import rack_codes
from tests.conftest import corpus_board, corpus_rows


@pytest.fixture(scope="module")
def positions(enable: Lexicon) -> list:
    rows = [r for r in corpus_rows("enable-15.jsonl") if "?" not in r["rack"]][:12]
    return [analyse(corpus_board(r), enable, rack_codes(r["rack"]), keep="all") for r in rows]


def test_level_6_always_plays_the_chosen_top(positions: list) -> None:
    player = VirtualPlayer(6, seed=1)
    for result in positions:
        assert player.choose(result.ranked, result.tops) == result.chosen


def test_higher_levels_score_more_on_average(positions: list) -> None:
    means = []
    for level in (1, 3, 5):
        player = VirtualPlayer(level, seed=level)
        scores = [player.choose(r.ranked, r.tops).score for _ in range(20) for r in positions]
        means.append(statistics.mean(scores))
    assert means[0] < means[1] < means[2]


def test_a_seeded_player_repeats_its_choices(positions: list) -> None:
    a, b = VirtualPlayer(3, seed=42), VirtualPlayer(3, seed=42)
    assert [a.choose(r.ranked) for r in positions] == [b.choose(r.ranked) for r in positions]


def test_every_choice_is_a_legal_move_from_the_list(positions: list) -> None:
    player = VirtualPlayer(2, seed=5)
    for result in positions:
        assert player.choose(result.ranked) in result.ranked


def test_no_move_gives_none_and_bad_levels_are_refused() -> None:
    assert VirtualPlayer(4, seed=1).choose([]) is None
    with pytest.raises(ValueError, match="1 to 6"):
        VirtualPlayer(7, seed=1)
