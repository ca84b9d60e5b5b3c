"""The merged solo of a multiplex (scoring.multiplex): the same rule as one hall's, over
every centre's players."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scoring.adjudication import AdjudicationSettings, Reason, Verdict, credit_round
from scoring.multiplex import CentreRuling, merge_round

SETTINGS = AdjudicationSettings(solo_min_players=4)
TOP = 40


def _verdict(reason: str, score: int) -> Verdict:
    return Verdict(reason=reason, notes=(), move="8D X", move_score=score, score=score, warnings=0, penalty=0,
                   letterpoints=0)  # fmt: skip


def test_a_solo_in_its_hall_is_not_a_solo_of_the_multiplex() -> None:
    # Two centres, each with one player alone on the top of its hall (each credited the
    # bonus there); merged, two players share the top: no solo.
    sent = [
        CentreRuling(key=("A", 1), reason=Reason.OK, move_score=TOP, credited=TOP + 10, solo=True),
        CentreRuling(key=("A", 2), reason=Reason.OK, move_score=20, credited=20, solo=False),
        CentreRuling(key=("B", 1), reason=Reason.OK, move_score=TOP, credited=TOP + 10, solo=True),
        CentreRuling(key=("B", 2), reason=Reason.MISSING, move_score=0, credited=0, solo=False),
    ]
    merged = merge_round(sent, top_score=TOP, players_in_game=4, settings=SETTINGS)
    assert merged[("A", 1)].credited == TOP and not merged[("A", 1)].solo
    assert merged[("B", 1)].credited == TOP and not merged[("B", 1)].solo
    assert merged[("A", 1)].is_top and merged[("B", 1)].is_top and not merged[("A", 2)].is_top


def test_a_hall_too_small_for_a_solo_gets_it_in_the_multiplex() -> None:
    # Alone on the top of the whole multiplex, in a hall of 2 (below the 4 players a solo
    # needs there): the merged game has 4 players, so the solo is given.
    sent = [
        CentreRuling(key=("A", 1), reason=Reason.OK, move_score=TOP, credited=TOP - 5, solo=False),
        CentreRuling(key=("A", 2), reason=Reason.OK, move_score=12, credited=12, solo=False),
        CentreRuling(key=("B", 1), reason=Reason.OK, move_score=30, credited=30, solo=False),
        CentreRuling(key=("B", 2), reason=Reason.OK, move_score=30, credited=30, solo=False),
    ]
    merged = merge_round(sent, top_score=TOP, players_in_game=4, settings=SETTINGS)
    assert merged[("A", 1)].solo and merged[("A", 1)].credited == TOP - 5 + 10
    assert [m.solo for k, m in merged.items() if k != ("A", 1)] == [False, False, False]
    # With 3 players in the game, no solo.
    merged = merge_round(sent, top_score=TOP, players_in_game=3, settings=SETTINGS)
    assert not merged[("A", 1)].solo and merged[("A", 1)].credited == TOP - 5


REASONS = st.sampled_from([Reason.OK, Reason.MISSING, Reason.NOT_IN_LEXICON, Reason.WRONG_REFERENCE])


@given(
    st.lists(st.tuples(REASONS, st.integers(0, TOP), st.integers(0, 1)), min_size=1, max_size=12),
    st.booleans(),
)
def test_merging_the_halls_gives_what_one_hall_would(
    players: list[tuple[str, int, int]], below: bool
) -> None:
    """Split a round's players between two halls, each crediting its own solo; the merge
    gives every player what credit_round gives them in one hall."""
    settings = AdjudicationSettings(solo_min_players=2, solo_below_top=below)
    verdicts = {
        i: _verdict(reason, score if reason != Reason.MISSING else 0)
        for i, (reason, score, _h) in enumerate(players)
    }
    whole = credit_round(
        verdicts, top_score=TOP, prior_warnings={}, players_in_game=len(players), settings=settings
    )
    sent = []
    for hall in (0, 1):
        mine = {i: v for i, v in verdicts.items() if players[i][2] == hall}
        local = credit_round(
            mine, top_score=TOP, prior_warnings={}, players_in_game=len(mine), settings=settings
        )
        sent += [CentreRuling(key=i, reason=v.reason, move_score=v.move_score, credited=local[i].credited,
                              solo=local[i].solo) for i, v in mine.items()]  # fmt: skip
    merged = merge_round(sent, top_score=TOP, players_in_game=len(players), settings=settings)
    assert {i: (m.credited, m.solo, m.is_top) for i, m in merged.items()} == {
        i: (c.credited, c.solo, c.is_top) for i, c in whole.items()
    }
