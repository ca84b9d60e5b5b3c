"""Standings pinned where mutation testing found them loose (scripts/mutation): every key
and value of the JSON row, the rounding of figures handed in by the caller, the error on an
unknown tie-break (docs/rules.md#standings)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring.standings import TIE_BREAKS, PlayerInfo, RoundResult, Row, standings, to_dict

ANNE = PlayerInfo(1, "Anne", club="Paris", category="S", table=3)


def test_the_json_row_has_every_figure_under_its_own_name() -> None:
    results = [
        RoundResult(1, 1, 1, 60, True, True, 1, 0, 20),
        RoundResult(1, 1, 2, 25, False, False, 2, 5, 12),
    ]
    (row,) = standings(results, [ANNE], 100)
    assert to_dict(row) == {
        "rank": 1,
        "player": {"id": 1, "name": "Anne", "club": "Paris", "category": "S", "table": 3},
        "total": 85,
        "tops": 1,
        "solos": 1,
        "warnings": 3,
        "penalties": 5,
        "diff": -15,
        "percent": 85.0,
        "letterpoints": 32,
        "ratio": 2.66,  # 85 / 32 = 2.65625
        "rounds": 2,
    }


def test_the_json_row_rounds_a_callers_figures_to_two_decimals() -> None:
    row = Row(
        rank=1,
        player=ANNE,
        total=1,
        tops=0,
        solos=0,
        warnings=0,
        penalties=0,
        diff=0,
        percent=Decimal("97.256"),
        letterpoints=1,
        ratio=Decimal("1.234"),
        rounds=1,
    )
    data = to_dict(row)
    assert data["percent"] == 97.26
    assert data["ratio"] == 1.23


def test_an_unknown_tie_break_names_the_known_ones() -> None:
    with pytest.raises(ValueError) as refused:
        standings([], [ANNE], 0, tie_break="coin")
    assert ", ".join(TIE_BREAKS) in str(refused.value)


def _result(player: int, game: int, round: int, credited: int) -> RoundResult:
    return RoundResult(player, game, round, credited, False, False, 0, 0, 0)


def _ranked(results: list[RoundResult], players: list[PlayerInfo], tie_break: str) -> list[tuple[int, str]]:
    return [(row.rank, row.player.name) for row in standings(results, players, 100, tie_break=tie_break)]


PLAYERS = [PlayerInfo(1, "Ann", table=1), PlayerInfo(2, "Bob", table=2), PlayerInfo(3, "Cy", table=3)]


def test_the_fisf_tie_break_looks_at_the_last_game_first() -> None:
    # Equal totals, 70: Bob scored more in game 2 (the last) than Ann: Bob first.
    results = [
        _result(1, 1, 1, 40), _result(1, 2, 1, 30),
        _result(2, 1, 1, 30), _result(2, 2, 1, 40),
        _result(3, 1, 1, 10),
    ]  # fmt: skip
    assert _ranked(results, PLAYERS, "fisf") == [(1, "Bob"), (2, "Ann"), (3, "Cy")]
    assert _ranked(results, PLAYERS, "shared") == [(1, "Ann"), (1, "Bob"), (3, "Cy")]


def test_the_fisf_tie_break_then_looks_at_the_last_games_rounds_backwards() -> None:
    # Equal in total and in game 2: round 3 of game 2 first (Ann 20 > Bob 10), whatever
    # round 1 says; a round without a ruling counts 0.
    results = [
        _result(1, 2, 1, 0), _result(1, 2, 2, 10), _result(1, 2, 3, 20),
        _result(2, 2, 1, 10), _result(2, 2, 2, 10), _result(2, 2, 3, 10),
        _result(3, 2, 1, 15), _result(3, 2, 2, 15),  # nothing in round 3: 0 there
    ]  # fmt: skip
    assert _ranked(results, PLAYERS, "fisf") == [(1, "Ann"), (2, "Bob"), (3, "Cy")]
    # Equal in round 3 too (Bob and Cy once Bob's round 3 is 0): round 2 decides.
    results = [
        _result(2, 2, 1, 25), _result(2, 2, 2, 5),
        _result(3, 2, 1, 15), _result(3, 2, 2, 15),
    ]  # fmt: skip
    assert _ranked(results, PLAYERS, "fisf") == [(1, "Cy"), (2, "Bob"), (3, "Ann")]


def test_players_equal_on_every_fisf_criterion_share_the_rank() -> None:
    results = [_result(1, 1, 1, 10), _result(2, 1, 1, 10), _result(3, 1, 2, 5)]
    assert _ranked(results, PLAYERS, "fisf") == [(1, "Ann"), (1, "Bob"), (3, "Cy")]
    # A result twice for one round (the game's credits add up) still compares by round.
    twice = [_result(1, 1, 1, 5), _result(1, 1, 1, 5), _result(2, 1, 1, 10)]
    assert _ranked(twice, PLAYERS[:2], "fisf") == [(1, "Ann"), (1, "Bob")]
    assert standings([], PLAYERS, 0, tie_break="fisf")[0].rank == 1


def test_a_zero_ruled_and_no_ruling_weigh_the_same_in_the_fisf_tie_break() -> None:
    # Ann was ruled 0 in round 2, Bob has no ruling there: equal on every criterion.
    results = [_result(1, 1, 1, 10), _result(1, 1, 2, 0), _result(2, 1, 1, 10)]
    assert _ranked(results, PLAYERS[:2], "fisf") == [(1, "Ann"), (1, "Bob")]
