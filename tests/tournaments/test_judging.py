"""A round handed to the pure rules (tournaments.judging): the event's notation and
settings, the players' warnings so far, the judge of one slip.

The warnings: one free a game here, 7 points for each beyond. Anne's round-1 slip plays a
top with its blank not marked and announces no score (two warnings, one of them beyond the
free one); Bruno hands in nothing. The judge of round 2 must count those warnings as the
close does (scoring.adjudication.warning_penalty)."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.tournaments.helpers import BLANK_RACK, blank_rack_round, blank_top, warned_twice
from tournaments.judging import SlipJudge, move_preview, prior_warnings
from tournaments.models import Event, Game, Lexicon, Player, Round, Ruling
from tournaments.services.events import event_create
from tournaments.services.games import game_start
from tournaments.services.players import player_add
from tournaments.services.rounds import round_close, round_place
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db


def test_slips_are_judged_with_the_events_notation(event: Event, game: Game) -> None:
    from tournaments.judging import judging_rules
    from tournaments.state import rebuild

    for notation in ("fisf", "gcg"):
        Event.objects.filter(pk=event.pk).update(notation=notation)
        event.refresh_from_db()
        assert judging_rules(rebuild(game), event).notation == notation


# ------------------------------------------------------------------ warnings of the game


@pytest.fixture
def strict(enable_lexicon: Lexicon) -> Event:
    """One free warning a game, 7 points for each further one; every warning of a slip
    counts (not the FISF's one a round), to see several beyond the free ones at once."""
    return event_create(
        name="Strict",
        starts_on=dt.date(2026, 11, 21),
        lexicon=enable_lexicon,
        language="english",
        notation="gcg",
        random_seed=7,
        free_warnings=1,
        warning_penalty=7,
        single_warning=False,
    )


@pytest.fixture
def anne_bruno(strict: Event) -> list[Player]:
    return [player_add(event=strict, name=name) for name in ("Anne", "Bruno")]


@pytest.fixture
def second_round(strict: Event, anne_bruno: list[Player]) -> Round:
    """Round 2 open; Anne has two warnings from round 1, Bruno none."""
    return warned_twice(game_start(event=strict), anne_bruno[0])


def test_the_prior_warnings_are_the_earlier_rounds_of_the_game(second_round: Round, anne_bruno) -> None:
    anne, bruno = anne_bruno
    first = second_round.game.rounds.get(number=1)
    assert Ruling.objects.get(round=first, player=anne).warnings == 2
    assert prior_warnings(first) == {}
    prior = prior_warnings(second_round)
    assert prior[anne.pk] == 2 and prior.get(bruno.pk, 0) == 0


def test_the_preview_adds_the_warnings_of_the_game_beyond_the_free_ones(
    strict: Event, second_round: Round, anne_bruno: list[Player]
) -> None:
    anne, bruno = anne_bruno
    coordinates, word = blank_top(second_round, marked=True)  # no score announced: one warning
    judge = SlipJudge(second_round)
    preview = judge.preview(coordinates, word, None, player=anne)
    assert preview.ok and preview.warnings == 1
    assert preview.game_warnings == 2 + 1
    assert preview.warning_penalty == strict.warning_penalty == 7
    first_one = judge.preview(coordinates, word, None, player=bruno)
    assert (first_one.game_warnings, first_one.warning_penalty) == (1, 0)  # his free one


def test_without_a_player_the_preview_has_no_warning_penalty(second_round: Round) -> None:
    coordinates, word = blank_top(second_round, marked=True)
    preview = move_preview(second_round, coordinates, word, None)
    assert preview.ok and preview.warnings == 1
    assert (preview.game_warnings, preview.warning_penalty) == (0, 0)
    assert preview.credited == preview.move_score  # the slip's own score, before any penalty


def test_two_warnings_of_one_slip_beyond_the_free_ones_cost_the_penalty_twice(
    strict: Event, second_round: Round, anne_bruno: list[Player]
) -> None:
    anne, bruno = anne_bruno
    coordinates, word = blank_top(second_round, marked=False)  # blank not marked, no score
    preview = move_preview(second_round, coordinates, word, None, player=anne)
    assert preview.warnings == 2 and preview.game_warnings == 4
    assert preview.warning_penalty == 2 * strict.warning_penalty
    # Bruno's first warning is free, his second costs.
    preview = move_preview(second_round, coordinates, word, None, player=bruno)
    assert (preview.game_warnings, preview.warning_penalty) == (2, strict.warning_penalty)


def test_the_close_gives_the_penalty_the_preview_announced(strict: Event, anne_bruno: list[Player]) -> None:
    anne, bruno = anne_bruno
    game = game_start(event=strict)
    previews = []
    for number in (1, 2):
        round = blank_rack_round(game)
        assert round.number == number and round.rack == BLANK_RACK
        unmarked, marked = blank_top(round, marked=False), blank_top(round, marked=True)
        slips = {anne: unmarked, bruno: marked}
        judge = SlipJudge(round)
        for player, (coordinates, word) in slips.items():
            previews.append((round, player, judge.preview(coordinates, word, None, player=player)))
            slip_submit(round=round, player=player, coordinates=coordinates, word=word, announced_score=None)
        round_close(round=round)
        round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
    penalties = []
    for round, player, preview in previews:
        ruling = Ruling.objects.get(round=round, player=player)
        assert ruling.warnings == preview.warnings
        assert ruling.penalty == preview.warning_penalty
        assert ruling.credited == preview.credited - preview.warning_penalty
        penalties.append(ruling.penalty)
    # Anne: 2 warnings (1 beyond the free one), then 2 more; Bruno: 1 (free), then 1 more.
    assert penalties == [7, 0, 14, 7]
