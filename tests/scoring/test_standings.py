"""Standings (docs/rules.md#standings): hand-computed totals, percentages, ranks and filters."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.standings import PlayerInfo, PlayerSums, RoundResult, Row, standings, standings_of_sums, to_dict


def rr(
    player: int,
    credited: int,
    *,
    game: int = 1,
    round: int = 1,
    is_top: bool = False,
    solo: bool = False,
    warnings: int = 0,
    penalty: int = 0,
    letterpoints: int = 0,
) -> RoundResult:
    return RoundResult(player, game, round, credited, is_top, solo, warnings, penalty, letterpoints)


ANNE = PlayerInfo(1, "Anne", club="Paris", category="S", table=3)
BRUNO = PlayerInfo(2, "Bruno", club="Lyon", category="V", table=1)
CLAIRE = PlayerInfo(3, "Claire", club="Nice", category="S", table=2)
DENIS = PlayerInfo(4, "Denis", club="Lyon", category="V", table=4)
PLAYERS = [ANNE, BRUNO, CLAIRE, DENIS]


def by_name(rows: list[Row]) -> dict[str, Row]:
    return {row.player.name: row for row in rows}


def test_sums_diff_percent_and_ratio_of_one_game() -> None:
    results = [
        rr(1, 1000, round=1, is_top=True, letterpoints=400),
        rr(1, 945, round=2, solo=True, is_top=True, warnings=1, letterpoints=378),
        rr(2, 990, round=1, penalty=10, warnings=2, letterpoints=500),
        rr(2, 900, round=2, letterpoints=300),
    ]
    rows = standings(results, PLAYERS, 2000)
    anne, bruno = by_name(rows)["Anne"], by_name(rows)["Bruno"]

    assert (anne.total, anne.tops, anne.solos, anne.warnings, anne.penalties, anne.rounds) == (
        1945,
        2,
        1,
        1,
        0,
        2,
    )
    assert anne.diff == -55
    assert anne.percent == Decimal("97.25")
    assert anne.letterpoints == 778
    assert anne.ratio == Decimal("2.50")  # 1945 / 778 = 2.5

    assert (bruno.total, bruno.tops, bruno.solos, bruno.warnings, bruno.penalties, bruno.rounds) == (
        1890,
        0,
        0,
        2,
        10,
        2,
    )
    assert bruno.diff == -110
    assert bruno.percent == Decimal("94.50")
    assert bruno.ratio == Decimal("2.36")  # 1890 / 800 = 2.3625 -> 2.36

    assert [row.player.name for row in rows][:2] == ["Anne", "Bruno"]
    assert [row.rank for row in rows] == [1, 2, 3, 3]


def test_players_without_results_get_an_empty_row() -> None:
    rows = standings([rr(1, 50)], PLAYERS, 100)
    claire = by_name(rows)["Claire"]
    assert len(rows) == 4
    assert (claire.total, claire.tops, claire.rounds, claire.letterpoints) == (0, 0, 0, 0)
    assert claire.diff == -100
    assert claire.percent == Decimal("0.00")
    assert claire.ratio is None


@pytest.mark.parametrize(
    ("total", "top_total", "expected"),
    [
        (1945, 2000, "97.25"),
        (2, 3, "66.67"),  # 66.666...
        (1, 3, "33.33"),  # 33.333...
        (1, 32, "3.13"),  # 3.125: half up (half-even would give 3.12)
        (1, 800, "0.13"),  # 0.125: half up
        (3, 8, "37.50"),
        (100, 100, "100.00"),
        (110, 100, "110.00"),  # a solo bonus can lift a player above the top
        (-1, 32, "-3.13"),  # half away from zero for a negative total
    ],
)
def test_percent_is_rounded_half_up_to_two_decimals(total: int, top_total: int, expected: str) -> None:
    (row,) = standings([rr(1, total)], [ANNE], top_total)
    assert row.percent == Decimal(expected)
    assert str(row.percent) == expected
    assert row.diff == total - top_total


def test_top_total_zero_gives_zero_percent() -> None:
    (row,) = standings([], [ANNE], 0)
    assert row.percent == Decimal("0.00") and str(row.percent) == "0.00"
    assert row.diff == 0


def test_ratio_rounding_and_none() -> None:
    rows = standings(
        [rr(1, 100, letterpoints=3), rr(2, 1, letterpoints=8), rr(3, 40, letterpoints=0)],
        [ANNE, BRUNO, CLAIRE],
        100,
    )
    named = by_name(rows)
    assert named["Anne"].ratio == Decimal("33.33")
    assert named["Bruno"].ratio == Decimal("0.13")  # 0.125 half up
    assert str(named["Bruno"].ratio) == "0.13"
    assert named["Claire"].ratio is None


def test_shared_ranks_are_competition_ranks_ordered_by_table_then_name() -> None:
    results = [rr(1, 90), rr(2, 80), rr(3, 80), rr(4, 70)]
    rows = standings(results, PLAYERS, 100)
    assert [row.rank for row in rows] == [1, 2, 2, 4]
    # Bruno (table 1) before Claire (table 2) within the shared rank 2.
    assert [row.player.name for row in rows] == ["Anne", "Bruno", "Claire", "Denis"]


def test_shared_rank_same_table_orders_by_name() -> None:
    zoe = PlayerInfo(10, "Zoé", table=1)
    adam = PlayerInfo(11, "Adam", table=1)
    rows = standings([rr(10, 5), rr(11, 5)], [zoe, adam], 10)
    assert [(row.rank, row.player.name) for row in rows] == [(1, "Adam"), (1, "Zoé")]


def test_letterpoints_tie_break_fewer_letterpoints_wins() -> None:
    results = [
        rr(1, 90, letterpoints=40),
        rr(2, 80, letterpoints=35),
        rr(3, 80, letterpoints=30),
        rr(4, 80, letterpoints=35),
    ]
    rows = standings(results, PLAYERS, 100, tie_break="letterpoints")
    assert [(row.rank, row.player.name) for row in rows] == [
        (1, "Anne"),
        (2, "Claire"),  # 80 with 30 letterpoints beats 80 with 35
        (3, "Bruno"),  # equal on both with Denis: shared, table 1 first
        (3, "Denis"),
    ]
    shared = standings(results, PLAYERS, 100)
    assert [row.rank for row in shared] == [1, 2, 2, 2]


def test_category_filter_reranks_within_the_category() -> None:
    results = [rr(1, 70), rr(2, 90), rr(3, 80), rr(4, 60)]
    overall = standings(results, PLAYERS, 100)
    assert [(row.rank, row.player.name) for row in overall] == [
        (1, "Bruno"),
        (2, "Claire"),
        (3, "Anne"),
        (4, "Denis"),
    ]
    seniors = standings(results, PLAYERS, 100, category="S")
    assert [(row.rank, row.player.name) for row in seniors] == [(1, "Claire"), (2, "Anne")]
    assert seniors[0].percent == Decimal("80.00")
    assert standings(results, PLAYERS, 100, category="J") == []


def test_category_filter_still_checks_every_result() -> None:
    with pytest.raises(ValueError, match="99"):
        standings([rr(99, 10)], PLAYERS, 100, category="S")


def test_unknown_player_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"unknown player 42\b"):
        standings([rr(1, 10), rr(42, 10)], PLAYERS, 100)


def test_unknown_tie_break_is_an_error() -> None:
    with pytest.raises(ValueError, match="tie_break"):
        standings([], PLAYERS, 100, tie_break="coin")


def test_duplicate_player_and_negative_top_total_are_errors() -> None:
    with pytest.raises(ValueError, match="listed twice"):
        standings([], [ANNE, ANNE], 100)
    with pytest.raises(ValueError, match="negative"):
        standings([], [ANNE], -1)


def test_cumulated_over_two_games() -> None:
    game1 = [
        rr(1, 500, game=1, round=1, is_top=True, letterpoints=200),
        rr(1, 480, game=1, round=2, penalty=5, warnings=1, letterpoints=190),
        rr(2, 490, game=1, round=1, letterpoints=210),
        rr(2, 495, game=1, round=2, is_top=True, solo=True, letterpoints=180),
    ]
    game2 = [
        rr(1, 600, game=2, round=1, is_top=True, letterpoints=240),
        rr(2, 580, game=2, round=1, warnings=2, letterpoints=250),
    ]
    tops = {1: 985, 2: 600}  # 500 + 485 (top of round 2 without the solo bonus), 600

    per_game_1 = by_name(standings(game1, [ANNE, BRUNO], tops[1]))
    assert per_game_1["Anne"].total == 980 and per_game_1["Anne"].diff == -5
    assert per_game_1["Bruno"].total == 985 and per_game_1["Bruno"].diff == 0
    assert per_game_1["Bruno"].rank == 1

    rows = standings(game1 + game2, [ANNE, BRUNO], tops[1] + tops[2])
    anne, bruno = by_name(rows)["Anne"], by_name(rows)["Bruno"]
    assert (anne.rank, anne.total, anne.tops, anne.solos, anne.warnings, anne.penalties) == (
        1,
        1580,
        2,
        0,
        1,
        5,
    )
    assert (bruno.rank, bruno.total, bruno.tops, bruno.solos, bruno.warnings, bruno.penalties) == (
        2,
        1565,
        1,
        1,
        2,
        0,
    )
    assert anne.rounds == 3 and bruno.rounds == 3
    assert anne.diff == -5 and bruno.diff == -20
    assert anne.percent == Decimal("99.68")  # 158000 / 1585 = 99.684...
    assert bruno.percent == Decimal("98.74")  # 156500 / 1585 = 98.738...
    assert anne.letterpoints == 630 and anne.ratio == Decimal("2.51")  # 2.5079...
    assert bruno.letterpoints == 640 and bruno.ratio == Decimal("2.45")  # 2.4453...


def test_to_dict_is_json_friendly() -> None:
    rows = standings([rr(1, 1945, is_top=True, letterpoints=778)], [ANNE, BRUNO], 2000)
    data = to_dict(rows[0])
    assert data["percent"] == 97.25
    assert data["ratio"] == 2.5
    assert data["player"] == {"id": 1, "name": "Anne", "club": "Paris", "category": "S", "table": 3}
    assert data["diff"] == -55 and data["rank"] == 1 and data["tops"] == 1
    assert to_dict(rows[1])["ratio"] is None
    assert to_dict(rows[1])["percent"] == 0.0
    assert json.loads(json.dumps(data)) == data


# -- properties ------------------------------------------------------------------------

player_ids = st.lists(st.integers(1, 30), min_size=1, max_size=12, unique=True)


@st.composite
def events(draw: st.DrawFn) -> tuple[list[PlayerInfo], list[RoundResult], int]:
    ids = draw(player_ids)
    players = [
        PlayerInfo(
            pid,
            draw(st.sampled_from(["Anne", "Bruno", "Claire"])),
            category=draw(st.sampled_from(["S", "V"])),
            table=draw(st.integers(0, 3)),
        )
        for pid in ids
    ]
    results = draw(
        st.lists(
            st.builds(
                RoundResult,
                player=st.sampled_from(ids),
                game=st.integers(1, 3),
                round=st.integers(1, 20),
                credited=st.integers(-20, 120),
                is_top=st.booleans(),
                solo=st.booleans(),
                warnings=st.integers(0, 2),
                penalty=st.integers(0, 10),
                letterpoints=st.integers(0, 30),
            ),
            max_size=60,
        )
    )
    return players, results, draw(st.integers(0, 2000))


@given(events(), st.sampled_from(["shared", "letterpoints"]))
def test_totals_add_up_and_ranks_are_competition_ranks(
    event: tuple[list[PlayerInfo], list[RoundResult], int], tie_break: str
) -> None:
    players, results, top_total = event
    rows = standings(results, players, top_total, tie_break=tie_break)

    assert len(rows) == len(players)
    assert sum(row.total for row in rows) == sum(r.credited for r in results)
    assert sum(row.rounds for row in rows) == len(results)
    assert sum(row.tops for row in rows) == sum(r.is_top for r in results)
    assert sum(row.letterpoints for row in rows) == sum(r.letterpoints for r in results)

    def key(row: Row) -> tuple[int, ...]:
        return (-row.total, row.letterpoints) if tie_break == "letterpoints" else (-row.total,)

    assert [row.rank for row in rows] == sorted(row.rank for row in rows)
    assert [key(row) for row in rows] == sorted(key(row) for row in rows)
    for row in rows:
        assert row.rank == 1 + sum(key(other) < key(row) for other in rows)
        assert row.diff == row.total - top_total


@given(events(), st.sampled_from(["S", "V"]))
def test_category_rows_are_the_category_members_reranked(
    event: tuple[list[PlayerInfo], list[RoundResult], int], category: str
) -> None:
    players, results, top_total = event
    rows = standings(results, players, top_total, category=category)
    assert {row.player.id for row in rows} == {p.id for p in players if p.category == category}
    assert all(row.rank == 1 + sum(o.total > row.total for o in rows) for row in rows)


def _sums(results: list[RoundResult], players: set[int], credits_of: set[int]) -> list[PlayerSums]:
    """Each player's results added up; the round by round points of ``credits_of`` only."""
    out = []
    for player in sorted(players):
        mine = [r for r in results if r.player == player]
        if not mine:
            continue
        credits: dict[tuple[int, int], int] = {}
        for r in mine:
            credits[r.game, r.round] = credits.get((r.game, r.round), 0) + r.credited
        out.append(
            PlayerSums(
                player,
                sum(r.credited for r in mine),
                sum(r.is_top for r in mine),
                sum(r.solo for r in mine),
                sum(r.warnings for r in mine),
                sum(r.penalty for r in mine),
                sum(r.letterpoints for r in mine),
                len(mine),
                credits if player in credits_of else {},
            )
        )
    return out


@given(
    st.lists(
        st.builds(
            rr,
            st.integers(1, 6),
            st.sampled_from([-5, 0, 0, 5, 10]),
            game=st.integers(1, 2),
            round=st.integers(1, 4),
            is_top=st.booleans(),
            solo=st.booleans(),
            warnings=st.integers(0, 2),
            penalty=st.sampled_from([0, 5]),
            letterpoints=st.sampled_from([0, 7]),
        ),
        max_size=30,
    ),
    st.sampled_from(["fisf", "shared", "letterpoints"]),
    st.sampled_from([None, "A"]),
)
def test_standings_of_sums_are_the_standings_of_the_results(
    results: list[RoundResult], tie_break: str, category: str | None
) -> None:
    """The same rows from each player's sums as from the rulings one by one, given the round
    by round points of the players who share a total (0 too: a player without any result)."""
    roster = [PlayerInfo(i, f"P{i}", category="A" if i % 2 else "B", table=7 - i) for i in range(1, 7)]
    expected = standings(results, roster, 100, tie_break=tie_break, category=category)
    totals = [sum(r.credited for r in results if r.player == p.id) for p in roster]
    shared = {p.id for p, t in zip(roster, totals, strict=True) if totals.count(t) > 1 or t == 0}
    played = {(r.game, r.round) for r in results}
    everyone = {p.id for p in roster}
    for credits_of in (shared, everyone):
        summed = _sums(results, everyone, credits_of)
        assert (
            standings_of_sums(summed, played, roster, 100, tie_break=tie_break, category=category) == expected
        )


def test_standings_of_sums_refuse_what_the_standings_refuse() -> None:
    sums = [PlayerSums(1, 10, 1, 0, 0, 0, 5, 1)]
    with pytest.raises(ValueError, match="unknown player 9"):
        standings_of_sums([PlayerSums(9, 1, 0, 0, 0, 0, 0, 1)], [(1, 1)], [ANNE], 10)
    with pytest.raises(ValueError, match="summed twice"):
        standings_of_sums(sums * 2, [(1, 1)], [ANNE], 10)
    with pytest.raises(ValueError, match="listed twice"):
        standings_of_sums(sums, [(1, 1)], [ANNE, ANNE], 10)
    with pytest.raises(ValueError, match="unknown tie_break"):
        standings_of_sums(sums, [(1, 1)], [ANNE], 10, tie_break="coin")
    with pytest.raises(ValueError, match="negative"):
        standings_of_sums(sums, [(1, 1)], [ANNE], -1)
    (row,) = standings_of_sums(sums, [(1, 1)], [ANNE], 20)
    assert (row.rank, row.total, row.tops, row.letterpoints, row.rounds, row.diff) == (1, 10, 1, 5, 1, -10)
