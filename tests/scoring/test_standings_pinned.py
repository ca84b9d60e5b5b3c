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
