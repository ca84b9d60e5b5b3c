"""A round: open, close, solve, the top chosen and the placement (tournaments.services.rounds)."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import draw_and_open as _open_round
from tournaments import services
from tournaments.models import Game, Player, Round
from tournaments.services import ApplicationError

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.django_db(transaction=True)
def test_a_round_cannot_open_for_no_time(event) -> None:
    services.player_add(event=event, name="Anne")
    game = services.game_start(event=event)
    round = services.round_draw(game=game)
    assert round is not None
    with pytest.raises(ApplicationError, match="at least one second"):
        services.round_open(round=round, seconds=0)
    round.refresh_from_db()
    assert round.state == "drawn"


def test_a_drawn_round_is_solved_by_the_task(game: Game) -> None:
    round = services.round_draw(game=game)
    assert round is not None
    round.refresh_from_db()
    assert round.solved_at is not None and round.move_count and round.top_score and round.tops


def test_solving_twice_changes_nothing(game: Game) -> None:
    round = services.round_draw(game=game)
    assert round is not None
    first = services.round_solve(round_id=round.pk)
    again = services.round_solve(round_id=round.pk)
    assert (again.solved_at, again.tops, again.move_count) == (first.solved_at, first.tops, first.move_count)


def test_choosing_a_lower_move_needs_a_confirmation(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    services.round_close(round=round)
    analysis = services.analysis_for(round)
    lower = next(m for m in analysis.ranked if (m.score or 0) < round.top_score)
    from solver.notation import format_move

    text = format_move(lower, "gcg")
    with pytest.raises(ApplicationError, match="confirm"):
        services.top_choose(round=round, move_text=text)
    choice = services.top_choose(round=round, move_text=text, confirm_lower=True)
    assert choice.warning and choice.round.chosen_score == lower.score
    with pytest.raises(ApplicationError):
        services.top_choose(round=round, move_text="8D QQQQ")


def test_placing_advances_the_board_and_draws_the_next_rack(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    services.round_close(round=round)
    round.refresh_from_db()
    next_round = services.round_place(round=round)
    round.refresh_from_db()
    assert round.state == Round.State.PLACED and round.chosen == round.tops[0]
    assert next_round is not None and next_round.number == 2
    from tournaments.state import rebuild

    board = rebuild(game).game.board
    assert board.tile_count() == sum(1 for ch in round.chosen.split()[1])
