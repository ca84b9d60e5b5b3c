"""Games: the start, the draws and the end (tournaments.services.games)."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import draw_round as _drawn
from tests.tournaments.helpers import play_out as _play_out
from tournaments import services
from tournaments.models import Event, Game, Lexicon, Player, Round
from tournaments.services import ApplicationError

pytestmark = pytest.mark.django_db(transaction=True)


# ------------------------------------------------------------------ games


def test_only_one_game_is_played_at_a_time(event: Event, players: list[Player]) -> None:
    first = services.game_start(event=event)
    with pytest.raises(ApplicationError, match="still being played"):
        services.game_start(event=event)
    services.game_end(game=first, reason="stopped")
    assert services.game_start(event=event).number == 2


def test_an_ended_game_takes_no_more_slips_or_placements(event: Event) -> None:
    player = services.player_add(event=event, name="Anne")
    game = services.game_start(event=event)
    round = services.round_draw(game=game)
    assert round is not None
    services.game_end(game=game, reason="stopped")
    with pytest.raises(ApplicationError, match="has ended"):
        services.round_open(round=round)
    Round.objects.filter(pk=round.pk).update(state=Round.State.OPEN)
    with pytest.raises(ApplicationError, match="has ended"):
        services.slip_submit(round=round, player=player, coordinates="8D", word="AB", announced_score=2)


def test_the_end_reasons_are_checked_by_the_service(event: Event) -> None:
    services.player_add(event=event, name="Alice")
    game = services.game_start(event=event)
    with pytest.raises(ApplicationError, match="no rack is drawn"):
        services.game_end(game=game, reason="no_move")
    _play_out(_drawn(game))
    with pytest.raises(ApplicationError, match="the draw rule does not end the game"):
        services.game_end(game=game, reason="draw_rule")
    _drawn(game)
    with pytest.raises(ApplicationError, match=r"legal moves \(top \d+\): stop the game instead"):
        services.game_end(game=game, reason="no_move")
    assert services.game_end(game=game, reason="stopped").end_reason == "stopped"


# ------------------------------------------------------------------ draws


def test_random_draws_follow_the_event_seed(event: Event, game: Game, enable_lexicon: Lexicon) -> None:
    twin = services.event_create(
        name="Twin", starts_on=event.starts_on, lexicon=enable_lexicon, random_seed=7, language="english"
    )
    services.player_add(event=twin, name="Solo")
    twin_game = services.game_start(event=twin)
    a = services.round_draw(game=game)
    b = services.round_draw(game=twin_game)
    assert a is not None and b is not None and a.rack == b.rack


def test_a_typed_rack_is_checked_against_the_bag(game: Game) -> None:
    with pytest.raises(ApplicationError, match=r"^there is no second Z in the bag$"):
        services.round_draw(game=game, typed="ZZAEIRT")
    assert not game.rounds.exists()
    with pytest.raises(ApplicationError, match="at least 2 vowels"):
        services.round_draw(game=game, typed="BCDFGHA")
    round = services.round_draw(game=game, typed="aeirstn")
    assert round is not None and round.manual and round.rack == "AEIRSTN"


def test_the_next_rack_waits_for_the_placement(game: Game) -> None:
    services.round_draw(game=game)
    with pytest.raises(ApplicationError, match="round 1 is not placed yet"):
        services.round_draw(game=game)
