"""Games: the start, the draws and the end (tournaments.services.games)."""

from __future__ import annotations

import datetime as dt

import pytest

from solver.draw import rack_meets
from tests.tournaments.helpers import draw_round as _drawn
from tests.tournaments.helpers import play_out as _play_out
from tournaments.core import ApplicationError
from tournaments.models import Event, Game, Lexicon, Player, Round
from tournaments.services.events import event_create
from tournaments.services.games import game_end, game_start, round_draw
from tournaments.services.players import player_add
from tournaments.services.rounds import round_open
from tournaments.services.slips import slip_submit
from tournaments.state import rebuild

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ games


def test_only_one_game_is_played_at_a_time(event: Event, players: list[Player]) -> None:
    first = game_start(event=event)
    with pytest.raises(ApplicationError, match="still being played"):
        game_start(event=event)
    game_end(game=first, reason="stopped")
    assert game_start(event=event).number == 2


def test_an_ended_game_takes_no_more_slips_or_placements(event: Event) -> None:
    player = player_add(event=event, name="Anne")
    game = game_start(event=event)
    round = round_draw(game=game)
    assert round is not None
    game_end(game=game, reason="stopped")
    with pytest.raises(ApplicationError, match="has ended"):
        round_open(round=round)
    Round.objects.filter(pk=round.pk).update(state=Round.State.OPEN)
    with pytest.raises(ApplicationError, match="has ended"):
        slip_submit(round=round, player=player, coordinates="8D", word="AB", announced_score=2)


def test_the_end_reasons_are_checked_by_the_service(event: Event) -> None:
    player_add(event=event, name="Alice")
    game = game_start(event=event)
    with pytest.raises(ApplicationError, match="no rack is drawn"):
        game_end(game=game, reason="no_move")
    _play_out(_drawn(game))
    with pytest.raises(ApplicationError, match="the draw rule does not end the game"):
        game_end(game=game, reason="draw_rule")
    _drawn(game)
    with pytest.raises(ApplicationError, match=r"legal moves \(top \d+\): stop the game instead"):
        game_end(game=game, reason="no_move")
    assert game_end(game=game, reason="stopped").end_reason == "stopped"


# ------------------------------------------------------------------ draws


def test_random_draws_follow_the_event_seed(event: Event, game: Game, enable_lexicon: Lexicon) -> None:
    twin = event_create(
        name="Twin", starts_on=event.starts_on, lexicon=enable_lexicon, random_seed=7, language="english"
    )
    player_add(event=twin, name="Solo")
    twin_game = game_start(event=twin)
    a = round_draw(game=game)
    b = round_draw(game=twin_game)
    assert a is not None and b is not None and a.rack == b.rack


def test_a_typed_rack_is_checked_against_the_bag(game: Game) -> None:
    with pytest.raises(ApplicationError, match=r"^there is no second Z in the bag$"):
        round_draw(game=game, typed="ZZAEIRT")
    assert not game.rounds.exists()
    with pytest.raises(ApplicationError, match="at least 2 vowels"):
        round_draw(game=game, typed="BCDFGHA")
    round = round_draw(game=game, typed="aeirstn")
    assert round is not None and round.manual and round.rack == "AEIRSTN"


def test_the_next_rack_waits_for_the_placement(game: Game) -> None:
    round_draw(game=game)
    with pytest.raises(ApplicationError, match="round 1 is not placed yet"):
        round_draw(game=game)


# ------------------------------------------------------------------ the end by the draw rule


def _long_early_game(lexicon: Lexicon, **settings) -> Game:
    """A game whose every round is an early one (early_rounds 99), so that the end of the
    bag falls in the early rounds; seed 7, as the event fixture's."""
    event = event_create(
        name=f"Early rounds {settings}",
        starts_on=dt.date(2026, 11, 21),
        lexicon=lexicon,
        language="english",
        random_seed=7,
        early_rounds=99,
        **settings,
    )
    player_add(event=event, name="Solo")
    return game_start(event=event)


def test_an_event_without_the_early_fallback_ends_where_the_default_one_goes_on(
    enable_lexicon: Lexicon,
) -> None:
    fisf = _long_early_game(enable_lexicon)
    strict = _long_early_game(enable_lexicon, early_fallback=False)
    while True:
        # The default event's next rack, as its draw would give it (the same bag and
        # reliquat as the other event's: same seed, same tops placed).
        position = rebuild(fisf)
        tiles, drawn = position.game.tiles, position.game.draw()
        assert drawn is not None
        if not rack_meets(tiles, drawn.rack, 2, 2):
            break
        round = round_draw(game=strict)
        twin = round_draw(game=fisf)
        assert round is not None and twin is not None and twin.rack == round.rack
        _play_out(round)
        _play_out(twin)
    rack = "".join(drawn.texts()[:2])
    assert rack_meets(tiles, drawn.rack, 1, 1)

    # Where 2 vowels and 2 consonants can no longer be drawn, the event without the
    # fallback refuses the typed rack and its draw ends the game...
    with pytest.raises(
        ApplicationError,
        match=r"^the game is over: the \d+ tiles left cannot make a rack with 2 vowels and 2 consonants$",
    ):
        round_draw(game=strict, typed=rack)
    assert round_draw(game=strict) is None
    strict.refresh_from_db()
    assert (strict.state, strict.end_reason) == (Game.State.ENDED, "draw_rule")

    # ... the default event refuses the draw rule's end, takes the same rack typed, and
    # draws it at random.
    with pytest.raises(ApplicationError, match="the draw rule does not end the game"):
        game_end(game=fisf, reason="draw_rule")
    typed = round_draw(game=fisf, typed=rack)
    assert typed is not None and typed.manual and typed.rack == rack
    fisf.refresh_from_db()
    assert fisf.state == Game.State.PLAYING
    # No service takes a draw back; the test does, to draw the same round at random.
    Round.objects.filter(pk=typed.pk).delete()
    random = round_draw(game=fisf)
    assert random is not None and not random.manual and random.rack == rack
