"""The read layer (tournaments.selectors and the models' QuerySet methods): the game being
played, the round the arbitrator acts on, the player at a table, and what a player may see
of a round, as the pages and the API hide by it."""

from __future__ import annotations

import pytest
from django.utils import timezone

from api.serializers.rounds import RoundSerializer
from tests.tournaments.helpers import closed_unruled, draw_and_open, draw_round
from tournaments.models import Event, Game, HistoryEntry, Lexicon, Player, Round, Slip
from tournaments.selectors.games import (
    PlayerSight,
    current_game,
    player_sight,
    playing_game,
    results_being_checked,
    unplaced_round,
)
from tournaments.selectors.live import live_versions
from tournaments.selectors.players import player_at_table
from tournaments.selectors.shown import game_view
from tournaments.selectors.slips import slip_watch
from tournaments.services.events import event_create
from tournaments.services.games import game_end, game_start
from tournaments.services.players import player_add
from tournaments.services.rounds import round_close, round_open, round_place, round_publish, round_solve
from tournaments.services.rulings import round_adjudicate
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db


def _ruled(game: Game) -> Round:
    """The game's next round drawn, opened, closed and ruled."""
    round = draw_and_open(game)
    round_close(round=round)
    round.refresh_from_db()
    assert round.state == Round.State.ADJUDICATED
    return round


# ------------------------------------------------------------------ the game being played


def test_no_game_is_played_or_current_before_the_first_start(event: Event, players: list[Player]) -> None:
    assert playing_game(event) is None and current_game(event) is None


def test_the_playing_game_is_the_current_one(event: Event, game: Game) -> None:
    assert playing_game(event) == game
    assert current_game(event) == game


def test_after_its_end_the_last_game_is_current_and_none_is_playing(event: Event, game: Game) -> None:
    game_end(game=game, reason="stopped")
    assert playing_game(event) is None
    assert current_game(event) == game
    second = game_start(event=event)
    game_end(game=second, reason="stopped")
    assert current_game(event) == second  # the last one, not the first
    third = game_start(event=event)
    assert playing_game(event) == third == current_game(event)


def test_the_playing_game_is_the_events_own(event: Event, game: Game, enable_lexicon: Lexicon) -> None:
    other = event_create(name="Other", starts_on=event.starts_on, lexicon=enable_lexicon)
    player_add(event=other, name="Solo")
    assert playing_game(other) is None
    other_game = game_start(event=other)
    assert playing_game(event) == game and playing_game(other) == other_game


def test_game_queryset_playing_leaves_the_ended_games_out(event: Event, game: Game) -> None:
    game_end(game=game, reason="stopped")
    assert not Game.objects.playing().exists()
    second = game_start(event=event)
    assert list(Game.objects.playing()) == [second]
    assert list(event.games.playing()) == [second]


# ------------------------------------------------------------------ the round the arbitrator acts on


def test_no_round_is_unplaced_before_the_first_draw(game: Game) -> None:
    assert unplaced_round(game) is None


def test_the_unplaced_round_is_the_drawn_open_and_ruled_round(game: Game) -> None:
    round = draw_round(game)
    assert unplaced_round(game) == round
    round_open(round=round)
    assert unplaced_round(game) == round
    round_close(round=round)
    unplaced = unplaced_round(game)
    assert unplaced == round and unplaced.state == Round.State.ADJUDICATED


def test_a_placed_round_is_never_the_unplaced_one(game: Game) -> None:
    first = _ruled(game)
    round_place(round=first, draw_next=False)
    assert unplaced_round(game) is None  # placed, and no next rack drawn
    second = draw_round(game)
    assert second.number == 2 and unplaced_round(game) == second
    round_open(round=second)
    round_close(round=second)
    third = round_place(round=Round.objects.get(pk=second.pk))  # draws round 3
    assert third is not None and unplaced_round(game) == third


def test_round_queryset_unplaced_leaves_the_placed_rounds_out(game: Game) -> None:
    first = _ruled(game)
    assert list(Round.objects.unplaced()) == [first]
    second = round_place(round=first)
    assert second is not None
    assert list(Round.objects.unplaced()) == [second]
    assert list(game.rounds.unplaced()) == [second]
    assert Round.objects.get(pk=first.pk).state == Round.State.PLACED


# ------------------------------------------------------------------ players


def test_the_player_at_a_table_or_none_for_an_empty_table(event: Event, players: list[Player]) -> None:
    assert player_at_table(event, 2) == players[1]
    assert player_at_table(event, 99) is None


def test_the_player_at_a_table_is_in_the_event_asked(
    event: Event, players: list[Player], enable_lexicon: Lexicon
) -> None:
    other = event_create(name="Other", starts_on=event.starts_on, lexicon=enable_lexicon)
    assert player_at_table(other, 1) is None
    stranger = player_add(event=other, name="Stranger")
    assert player_at_table(other, 1) == stranger
    assert player_at_table(event, 1) == players[0]


def test_player_queryset_at_table(event: Event, players: list[Player]) -> None:
    assert list(event.players.at_table(3)) == [players[2]]
    assert not event.players.at_table(7).exists()
    assert list(Player.objects.at_table(1)) == [players[0]]


def test_player_queryset_people_leaves_the_virtual_players_out(event: Event, players: list[Player]) -> None:
    bot = player_add(event=event, name="Bot", virtual_level=3)
    assert bot in event.players.all()
    assert list(event.players.people()) == players
    assert not Player.objects.people().filter(pk=bot.pk).exists()
    assert list(event.players.people().at_table(bot.table)) == []


def test_the_slip_watch_expects_no_slip_from_a_virtual_player(event: Event, players: list[Player]) -> None:
    bot = player_add(event=event, name="Bot", virtual_level=3)
    round = draw_and_open(game_start(event=event))
    watch = slip_watch(round)
    assert watch.expected == len(players) and bot.table not in watch.missing_tables


# ------------------------------------------------------------------ what a player may see


@pytest.mark.parametrize(
    ("state", "sight"),
    [
        (Round.State.DRAWN, PlayerSight(rack=False, answers=False, placed=False)),
        (Round.State.OPEN, PlayerSight(rack=True, answers=False, placed=False)),
        (Round.State.CLOSED, PlayerSight(rack=True, answers=False, placed=False)),
        (Round.State.ADJUDICATED, PlayerSight(rack=True, answers=False, placed=False)),
        (Round.State.PLACED, PlayerSight(rack=True, answers=True, placed=True)),
    ],
)
def test_what_a_player_sees_of_a_round_in_each_state(state: str, sight: PlayerSight) -> None:
    assert player_sight(Round(state=state)) == sight


def test_a_ruled_round_shows_its_answers_once_published() -> None:
    shown = PlayerSight(rack=True, answers=True, placed=False)
    assert player_sight(Round(state=Round.State.ADJUDICATED, published_at=timezone.now())) == shown
    # Published, then reopened by the arbitrator: the round is open, nothing is shown.
    assert not player_sight(Round(state=Round.State.OPEN, published_at=timezone.now())).answers
    assert results_being_checked(Round(state=Round.State.CLOSED))
    assert results_being_checked(Round(state=Round.State.ADJUDICATED))
    assert not results_being_checked(Round(state=Round.State.ADJUDICATED, published_at=timezone.now()))
    assert not results_being_checked(Round(state=Round.State.PLACED))
    assert not results_being_checked(Round(state=Round.State.OPEN))
    assert not results_being_checked(None)


def _as_player(round: Round) -> dict:
    return RoundSerializer(Round.objects.get(pk=round.pk), context={"arbitrator": False}).data


def _as_arbitrator(round: Round) -> dict:
    return RoundSerializer(Round.objects.get(pk=round.pk), context={"arbitrator": True}).data


def test_the_api_round_hides_what_the_player_may_not_see_yet(game: Game) -> None:
    round = draw_round(game)
    drawn = _as_player(round)
    assert (drawn["rack"], drawn["reliquat"], drawn["new_tiles"]) == (None, None, None)
    assert (drawn["tops"], drawn["top_score"], drawn["move_count"]) == (None, None, None)
    assert _as_arbitrator(round)["rack"] == round.rack and _as_arbitrator(round)["tops"] == round.tops

    round_open(round=round)
    Round.objects.filter(pk=round.pk).update(state=Round.State.CLOSED)  # ruled by a worker, later
    closed = _as_player(round)
    assert closed["rack"] == round.rack and closed["new_tiles"] == round.new_tiles
    assert (closed["tops"], closed["top_score"], closed["move_count"]) == (None, None, None)
    assert (closed["chosen"], closed["chosen_score"]) == ("", None)

    Round.objects.filter(pk=round.pk).update(state=Round.State.OPEN)
    round_close(round=Round.objects.get(pk=round.pk))
    unpublished = _as_player(round)  # ruled, not reviewed yet
    assert (unpublished["tops"], unpublished["top_score"], unpublished["move_count"]) == (None, None, None)
    assert _as_arbitrator(round)["tops"] == round.tops and _as_arbitrator(round)["published_at"] is None
    round_publish(round=round)
    ruled = _as_player(round)
    assert ruled["tops"] == round.tops and ruled["top_score"] == round.top_score
    assert ruled["move_count"] == round.move_count
    assert (ruled["chosen"], ruled["chosen_score"]) == ("", None)  # not on the board yet

    round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
    placed = _as_player(round)
    assert placed["chosen"] == round.tops[0] and placed["chosen_score"] == round.top_score


def test_the_game_view_hides_what_the_player_may_not_see_yet(game: Game) -> None:
    round = draw_round(game)
    drawn = game_view(game)
    assert drawn.state == "drawn" and drawn.rack == "" and drawn.rack_values == []
    assert (drawn.tops, drawn.top_score, drawn.chosen) == ([], None, "")
    # The secret rack is still among the letters to come.
    assert drawn.to_come_total == 100

    round_open(round=round)
    Round.objects.filter(pk=round.pk).update(state=Round.State.CLOSED)
    closed = game_view(game)
    assert closed.state == "closed" and closed.rack == round.rack
    assert (closed.tops, closed.top_score, closed.chosen) == ([], None, "")
    assert closed.to_come_total == 100 - len(round.rack)

    Round.objects.filter(pk=round.pk).update(state=Round.State.OPEN)
    round_close(round=Round.objects.get(pk=round.pk))
    unpublished = game_view(game)
    assert unpublished.state == "adjudicated" and (unpublished.tops, unpublished.top_score) == ([], None)
    round_publish(round=round)
    ruled = game_view(game)
    assert ruled.state == "adjudicated" and ruled.top_score == round.top_score
    assert len(ruled.tops) == len(round.tops) and ruled.chosen == ruled.tops[0]
    assert ruled.placed == []

    round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
    placed = game_view(game)
    assert [p.number for p in placed.placed] == [1] and placed.placed[0].score == round.top_score
    assert placed.top_total == round.top_score


def test_solving_a_round_changes_the_consoles_version_not_the_phones(game: Game) -> None:
    # Phones and the projector show the tops only once the slips are ruled: a hall of
    # phones must not reload its panels when the worker has solved the rack.
    round = draw_round(game)
    Round.objects.filter(pk=round.pk).update(solved_at=None)
    before = live_versions(game.event)
    round_solve(round_id=round.pk)
    after = live_versions(game.event)
    assert after.public == before.public and after.full != before.full
    round_open(round=round)
    opened = live_versions(game.event)
    assert opened.public != after.public and opened.state == "open"


def test_rulings_not_shown_yet_change_the_consoles_version_not_the_phones(
    game: Game, players: list[Player]
) -> None:
    # The phones say "the arbitrator is checking the results" from the close to the
    # publication: the rulings written meanwhile (the worker's, a ruling again) must not
    # make a hall of phones rebuild its panels while the arbitrator asks for the review.
    round = draw_and_open(game)
    coordinates, word = round.tops[0].split()
    slip_submit(round=round, player=players[0], coordinates=coordinates, word=word, announced_score=None)
    round = closed_unruled(round)
    closed = live_versions(game.event)
    assert closed.state == "closed"
    round_adjudicate(round_id=round.pk)
    again = live_versions(game.event)
    assert again.public == closed.public and again.full != closed.full and again.state == "adjudicated"
    assert not HistoryEntry.objects.filter(entity="ruling", shown=True).exists()
    # Shown: the publication is news, and so is a ruling that changes after it.
    round_publish(round=Round.objects.get(pk=round.pk))
    published = live_versions(game.event)
    assert published.public != again.public
    Slip.objects.filter(round=round, player=players[0]).update(word="QZXV")
    round_adjudicate(round_id=round.pk)
    assert live_versions(game.event).public != published.public
    assert HistoryEntry.objects.filter(entity="ruling", action="rerule", shown=True).count() == 1


def test_results_shown_at_the_close_are_news_for_the_phones(game: Game) -> None:
    Event.objects.filter(pk=game.event_id).update(publish_at_close=True)
    round = draw_and_open(game)
    opened = live_versions(game.event)
    round_close(round=round)  # ruled at once here, and shown
    round = Round.objects.get(pk=round.pk)
    assert round.state == Round.State.ADJUDICATED and round.published_at is not None
    shown = live_versions(game.event)
    assert shown.public != opened.public and shown.public.endswith(f"{round.pk}.adjudicated")
