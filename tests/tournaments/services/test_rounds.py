"""A round: open, close, solve, the top chosen and the placement (tournaments.services.rounds)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tests.tournaments.helpers import draw_and_open as _open_round
from tournaments.core import ApplicationError
from tournaments.models import Game, HistoryEntry, Player, Round, Ruling, Slip
from tournaments.services.games import game_end, game_start, round_draw
from tournaments.services.players import player_add
from tournaments.services.rounds import (
    REOPEN_SECONDS,
    analysis_for,
    round_add_time,
    round_close,
    round_open,
    round_pause,
    round_place,
    round_publish,
    round_reopen,
    round_resume,
    round_solve,
    round_unplace,
    top_choose,
)
from tournaments.services.slips import late_reason, paper_slip_submit, slip_submit

pytestmark = pytest.mark.django_db


@pytest.mark.django_db
def test_a_round_cannot_open_for_no_time(event) -> None:
    player_add(event=event, name="Anne")
    game = game_start(event=event)
    round = round_draw(game=game)
    assert round is not None
    with pytest.raises(ApplicationError, match="at least one second"):
        round_open(round=round, seconds=0)
    round.refresh_from_db()
    assert round.state == "drawn"


def test_a_drawn_round_is_solved_by_the_task(game: Game) -> None:
    round = round_draw(game=game)
    assert round is not None
    round.refresh_from_db()
    assert round.solved_at is not None and round.move_count and round.top_score and round.tops


def test_solving_twice_changes_nothing(game: Game) -> None:
    round = round_draw(game=game)
    assert round is not None
    first = round_solve(round_id=round.pk)
    again = round_solve(round_id=round.pk)
    assert (again.solved_at, again.tops, again.move_count) == (first.solved_at, first.tops, first.move_count)


def test_choosing_a_lower_move_needs_a_confirmation(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    round_close(round=round)
    analysis = analysis_for(round)
    lower = next(m for m in analysis.ranked if (m.score or 0) < round.top_score)
    from solver.notation import format_move

    text = format_move(lower, "gcg")
    with pytest.raises(ApplicationError, match="confirm"):
        top_choose(round=round, move_text=text)
    choice = top_choose(round=round, move_text=text, confirm_lower=True)
    assert choice.warning and choice.round.chosen_score == lower.score
    with pytest.raises(ApplicationError):
        top_choose(round=round, move_text="8D QQQQ")


def test_placing_advances_the_board_and_draws_the_next_rack(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    round_close(round=round)
    round.refresh_from_db()
    next_round = round_place(round=round)
    round.refresh_from_db()
    assert round.state == Round.State.PLACED and round.chosen == round.tops[0]
    assert next_round is not None and next_round.number == 2
    from tournaments.state import rebuild

    board = rebuild(game).game.board
    assert board.tile_count() == sum(1 for ch in round.chosen.split()[1])


# ------------------------------------------------------------------ a round closed by mistake


def test_a_round_closed_early_reopens_with_the_time_that_was_left(game: Game, players: list[Player]) -> None:
    round = round_open(round=round_draw(game=game), seconds=180)
    coords, word = round.tops[0].split()
    slip_submit(round=round, player=players[0], coordinates=coords, word=word, announced_score=None)
    closed_at = round.deadline - dt.timedelta(seconds=100)
    round_close(round=round, now=closed_at)  # 100 s left, by mistake
    assert Round.objects.get(pk=round.pk).state == Round.State.ADJUDICATED
    late = slip_submit(
        round=round, player=players[1], coordinates=coords, word=word, announced_score=None,
        now=closed_at + dt.timedelta(seconds=1),
    ).slip  # fmt: skip
    assert late.late

    now = closed_at + dt.timedelta(seconds=30)
    reopened = round_reopen(round=round, now=now)
    assert reopened.state == Round.State.OPEN and reopened.closed_at is None
    assert reopened.deadline == now + dt.timedelta(seconds=100)
    # Slips and rulings kept; the players whose slip came while it was closed hand it in again.
    assert Slip.objects.filter(round=round).count() == 2 and Ruling.objects.filter(round=round).exists()
    again = slip_submit(
        round=round, player=players[1], coordinates=coords, word=word, announced_score=None,
        now=now + dt.timedelta(seconds=5),
    ).slip  # fmt: skip
    assert not again.late
    entry = HistoryEntry.objects.get(entity="round", object_id=round.pk, action="reopen")
    assert entry.old["state"] == "adjudicated" and entry.new["state"] == "open"

    round_close(round=Round.objects.get(pk=round.pk))  # ruled again, with the new slip
    credited = dict(Ruling.objects.filter(round=round).values_list("player_id", "credited"))
    assert credited[players[0].pk] == credited[players[1].pk] == round.top_score


def test_a_round_closed_at_its_deadline_reopens_for_the_time_given(game: Game) -> None:
    round = round_open(round=round_draw(game=game), seconds=60)
    round_close(round=round, now=round.deadline + dt.timedelta(seconds=3))
    now = timezone.now()
    assert round_reopen(round=round, now=now).deadline == now + dt.timedelta(seconds=REOPEN_SECONDS)
    round_close(round=Round.objects.get(pk=round.pk))
    assert round_reopen(round=round, seconds=20, now=now).deadline == now + dt.timedelta(seconds=20)


def test_only_a_closed_round_not_yet_placed_reopens(game: Game) -> None:
    round = round_draw(game=game)
    with pytest.raises(ApplicationError, match="only a closed round"):
        round_reopen(round=round)  # drawn, never opened
    round_open(round=round)
    with pytest.raises(ApplicationError, match="only a closed round"):
        round_reopen(round=round)  # open
    round_close(round=Round.objects.get(pk=round.pk))
    round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
    with pytest.raises(ApplicationError, match="only a closed round"):
        round_reopen(round=round)  # placed
    assert not HistoryEntry.objects.filter(action="reopen").exists()


def test_the_close_s_ruling_task_leaves_a_reopened_round_alone(game: Game, monkeypatch) -> None:
    from tournaments import queue, tasks

    round = round_open(round=round_draw(game=game))
    monkeypatch.setattr(queue, "send", lambda *a, **k: True)  # the ruling is still to come
    round_close(round=round)
    round_reopen(round=round)
    monkeypatch.undo()
    tasks.round_adjudicate_task(round.pk)  # arrives late: nothing happens, no error
    assert Round.objects.get(pk=round.pk).state == Round.State.OPEN
    assert not Ruling.objects.filter(round=round).exists()


# ------------------------------------------------------------------ undoing a placement


def test_the_last_placement_is_undone_and_the_next_rack_goes_back_to_the_bag(
    game: Game, players: list[Player]
) -> None:
    from tournaments.state import rebuild

    first = _open_round(game)
    round_close(round=first)
    bag_before = rebuild(game).game.bag.remaining_string()
    following = round_place(round=Round.objects.get(pk=first.pk))
    assert following is not None
    drawn = (following.reliquat, following.new_tiles)

    round_unplace(game=game)
    first = Round.objects.get(pk=first.pk)
    assert first.state == Round.State.ADJUDICATED and first.placed_at is None and first.chosen
    assert not Round.objects.filter(pk=following.pk).exists()
    position = rebuild(game)
    assert position.current is not None and position.current.pk == first.pk
    assert position.game.board.is_empty()  # the move left the board
    assert position.game.bag.remaining_string() == bag_before  # the rack is back in the bag
    assert Ruling.objects.filter(round=first).count() == len(players)  # rulings kept
    actions = list(HistoryEntry.objects.filter(entity="round").values_list("action", flat=True))
    assert actions[-2:] == ["draw_undone", "unplace"]

    # Placed again: the same move, and the same rack drawn from the seed.
    again = round_place(round=first)
    assert again is not None and (again.reliquat, again.new_tiles) == drawn


def test_undoing_a_placement_is_refused_when_it_would_lose_slips(game: Game, players: list[Player]) -> None:
    first = _open_round(game)
    round_close(round=first)
    following = round_place(round=Round.objects.get(pk=first.pk))
    assert following is not None
    following = round_open(round=following)  # opened: no slip yet, nothing to lose
    coords, word = following.tops[0].split()
    slip_submit(round=following, player=players[0], coordinates=coords, word=word, announced_score=None)
    lost = "round 2 already has 1 slip: undoing the placement would lose it"
    with pytest.raises(ApplicationError, match=lost):
        round_unplace(game=game)
    assert Round.objects.get(pk=first.pk).state == Round.State.PLACED
    assert Round.objects.filter(pk=following.pk).exists()


def test_undoing_needs_a_placed_move(game: Game) -> None:
    with pytest.raises(ApplicationError, match="no move of this game is placed yet"):
        round_unplace(game=game)


def test_undoing_the_placement_that_ended_a_game_plays_the_game_on(event) -> None:
    """A simulated game runs to its real end (here the bag cannot give a rack: the draw
    rule): its last placement undone, nothing is lost and the game is not over."""
    import io

    from django.core.management import call_command

    from tournaments.state import rebuild

    call_command("simulate_event", players=2, games=1, seed=3, stdout=io.StringIO())
    game = Game.objects.exclude(event=event).get()
    assert game.state == Game.State.ENDED and game.end_reason == "draw_rule"
    last = game.rounds.filter(state=Round.State.PLACED).order_by("-number").first()
    board_before = rebuild(game).game.board.squares
    rulings = Ruling.objects.filter(round__game=game).count()

    round_unplace(game=game)
    game.refresh_from_db()
    assert (game.state, game.end_reason, game.ended_at) == (Game.State.PLAYING, "", None)
    last.refresh_from_db()
    assert last.state == Round.State.ADJUDICATED and last.chosen
    position = rebuild(game)
    assert position.current is not None and position.current.pk == last.pk
    assert sum(1 for s in position.game.board.squares if s) < sum(1 for s in board_before if s)
    assert not game.rounds.filter(number__gt=last.number).exists()
    assert Ruling.objects.filter(round__game=game).count() == rulings
    history = HistoryEntry.objects.filter(event=game.event).order_by("-pk")
    undone = history.get(entity="game", action="end_undone")
    assert undone.old["state"] == "ended" and undone.new == {"state": "playing"}
    assert history.first().action == "unplace"
    # Placed again: the bag runs out again and the game ends as it did.
    assert round_place(round=last) is None
    game.refresh_from_db()
    assert (game.state, game.end_reason) == (Game.State.ENDED, "draw_rule")


def test_undoing_a_placement_of_a_stopped_game_is_refused_once_the_next_game_started(
    game: Game, players: list[Player]
) -> None:
    round = _open_round(game)
    round_close(round=round)
    round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
    game_end(game=game, reason="stopped")
    game_start(event=game.event)
    with pytest.raises(ApplicationError, match="game 2 has started: the placements of game 1 can no longer"):
        round_unplace(game=game)
    assert Game.objects.get(pk=game.pk).state == Game.State.ENDED
    assert Round.objects.get(pk=round.pk).state == Round.State.PLACED


# ------------------------------------------------------------------ the clock: pause, resume, add time


def _slip(round: Round, player: Player, at: dt.datetime) -> Slip:
    coords, word = round.tops[0].split()
    return slip_submit(
        round=round, player=player, coordinates=coords, word=word, announced_score=None, now=at
    ).slip


def test_a_paused_clock_takes_no_late_slip_and_resumes_with_the_time_it_had(
    game: Game, players: list[Player]
) -> None:
    round = round_open(round=round_draw(game=game), seconds=180)
    start = round.opened_at
    paused = round_pause(round=round, now=start + dt.timedelta(seconds=150))
    assert paused.paused_at == start + dt.timedelta(seconds=150)
    assert paused.seconds_left(start + dt.timedelta(hours=1)) == 30  # frozen
    # Long after the deadline as it was: in time, the clock is held.
    assert not _slip(round, players[0], start + dt.timedelta(seconds=400)).late
    resumed = round_resume(round=round, now=start + dt.timedelta(seconds=600))
    assert resumed.paused_at is None
    assert resumed.deadline == start + dt.timedelta(seconds=630)  # the 30 s left, from the resume
    assert not _slip(round, players[1], start + dt.timedelta(seconds=629)).late
    late = _slip(round, players[2], start + dt.timedelta(seconds=631))
    assert late.late and late_reason(late) == "time_up"
    actions = list(
        HistoryEntry.objects.filter(entity="round", object_id=round.pk).values_list("action", flat=True)
    )
    assert actions[-2:] == ["pause", "resume"]
    entry = HistoryEntry.objects.get(entity="round", object_id=round.pk, action="resume")
    assert entry.old["paused_at"] and entry.new["paused_at"] is None
    assert entry.new["deadline"] == resumed.deadline.isoformat()


def test_time_is_added_running_or_paused(game: Game) -> None:
    round = round_open(round=round_draw(game=game), seconds=60)
    deadline = round.deadline
    now = round.opened_at + dt.timedelta(seconds=10)
    assert round_add_time(round=round, seconds=30, now=now).deadline == deadline + dt.timedelta(seconds=30)
    held = round_pause(round=round, now=now)
    assert held.seconds_left(now) == 80
    assert round_add_time(round=round, seconds=20, now=now).seconds_left(now) == 100
    entry = HistoryEntry.objects.filter(entity="round", object_id=round.pk, action="add_time").last()
    assert entry is not None and entry.old["deadline"] != entry.new["deadline"]
    for wrong in (0, -5, 3601):
        with pytest.raises(ApplicationError, match="between 1 and 3600"):
            round_add_time(round=round, seconds=wrong, now=now)


def test_the_clock_cannot_be_held_or_stretched_once_the_time_is_up(game: Game, players: list[Player]) -> None:
    round = round_open(round=round_draw(game=game), seconds=60)
    after = round.deadline + dt.timedelta(seconds=1)
    late = _slip(round, players[0], after)
    assert late.late
    with pytest.raises(ApplicationError, match="time of round 1 is up"):
        round_pause(round=round, now=after)
    with pytest.raises(ApplicationError, match="close it and reopen it"):
        round_add_time(round=round, seconds=30, now=after)
    fresh = Round.objects.get(pk=round.pk)
    assert fresh.paused_at is None and fresh.deadline == round.deadline  # nothing changed
    # The late slip stays late, and said to be late for the time.
    assert late_reason(Slip.objects.get(pk=late.pk)) == "time_up"


def test_the_clock_runs_only_while_the_round_is_open(game: Game) -> None:
    round = round_draw(game=game)
    for act in (round_pause, round_resume):
        with pytest.raises(ApplicationError, match="runs only while it is open"):
            act(round=round)
    with pytest.raises(ApplicationError, match="runs only while it is open"):
        round_add_time(round=round, seconds=10)
    round_open(round=round)
    with pytest.raises(ApplicationError, match="is not paused"):
        round_resume(round=round)
    round_pause(round=round)
    with pytest.raises(ApplicationError, match="paused already"):
        round_pause(round=round)


def test_a_round_closed_while_paused_keeps_its_time_left_for_a_reopen(
    game: Game, players: list[Player]
) -> None:
    round = round_open(round=round_draw(game=game), seconds=120)
    start = round.opened_at
    round_pause(round=round, now=start + dt.timedelta(seconds=20))  # 100 s left
    closed_at = start + dt.timedelta(seconds=500)
    closed = round_close(round=round, now=closed_at)
    assert closed.paused_at is None and closed.deadline == closed_at + dt.timedelta(seconds=100)
    # A slip after the close is late for the close, not for the time.
    late = _slip(round, players[0], closed_at + dt.timedelta(seconds=1))
    assert late.late and late_reason(late) == "closed"
    now = closed_at + dt.timedelta(seconds=60)
    assert round_reopen(round=round, now=now).deadline == now + dt.timedelta(seconds=100)


def test_a_paper_slip_typed_while_the_clock_is_paused_keeps_its_time(
    game: Game, players: list[Player], arbitrator
) -> None:
    round = round_open(round=round_draw(game=game), seconds=60)
    round_pause(round=round, now=round.opened_at + dt.timedelta(seconds=10))
    typed_at = round.deadline + dt.timedelta(seconds=300)
    coords, word = round.tops[0].split()
    slip = paper_slip_submit(
        round=round,
        player=players[0],
        coordinates=coords,
        word=word,
        announced_score=None,
        by=arbitrator,
        now=typed_at,
    ).slip
    assert not slip.late and slip.received_at == typed_at


# ------------------------------------------------------------------ results shown once reviewed


def test_the_results_are_shown_once_published_or_placed(
    game: Game, players: list[Player], arbitrator
) -> None:
    from tournaments.selectors.games import results_shown

    round = round_open(round=round_draw(game=game))
    with pytest.raises(ApplicationError, match="once its slips are ruled"):
        round_publish(round=round)  # open
    round_close(round=round)
    ruled = Round.objects.get(pk=round.pk)
    assert ruled.state == Round.State.ADJUDICATED and ruled.published_at is None and not results_shown(ruled)
    published = round_publish(round=ruled, by=arbitrator)
    assert published.published_at is not None and results_shown(published)
    again = round_publish(round=published)  # twice: nothing changes
    assert again.published_at == published.published_at
    assert HistoryEntry.objects.filter(entity="round", object_id=round.pk, action="publish").count() == 1
    # Reopened (with a reason: the top was public): hidden again until the next publication.
    reopened = round_reopen(round=published, reason="a phone could not send")
    assert reopened.published_at is None
    round_close(round=reopened)
    assert Round.objects.get(pk=round.pk).published_at is None


def test_placing_publishes_and_training_publishes_at_the_close(game: Game, players: list[Player]) -> None:
    round = round_open(round=round_draw(game=game))
    round_close(round=round)
    round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
    placed = Round.objects.get(pk=round.pk)
    assert placed.published_at == placed.placed_at

    Event = type(game.event)
    Event.objects.filter(pk=game.event_id).update(publish_at_close=True)
    game_end(game=game, reason="stopped")
    second = game_start(event=Event.objects.get(pk=game.event_id))
    round = round_open(round=round_draw(game=second))
    round_close(round=round)
    shown = Round.objects.get(pk=round.pk)
    assert shown.state == Round.State.ADJUDICATED and shown.published_at is not None


def test_a_round_whose_results_were_shown_reopens_only_with_a_reason_and_then_takes_late_slips(
    game: Game, players: list[Player], arbitrator
) -> None:
    round = round_open(round=round_draw(game=game))
    round_close(round=round)
    published = round_publish(round=Round.objects.get(pk=round.pk), by=arbitrator)
    with pytest.raises(ApplicationError, match=r"shown to the players at .*: the top is public") as refused:
        round_reopen(round=published, by=arbitrator)
    assert refused.value.extra == {"reason": "results_public"}
    with pytest.raises(ApplicationError, match="top is public"):
        round_reopen(round=published, by=arbitrator, reason="   ")
    assert Round.objects.get(pk=round.pk).state == Round.State.ADJUDICATED
    reopened = round_reopen(round=published, by=arbitrator, reason="the wrong rack was read out")
    entry = HistoryEntry.objects.get(entity="round", object_id=round.pk, action="reopen")
    assert entry.reason == "the wrong rack was read out" and entry.actor == arbitrator
    # Every slip after the publication is late, even typed on paper while the round is open.
    coordinates, word = reopened.tops[0].split()
    phone = slip_submit(round=reopened, player=players[0], coordinates=coordinates, word=word,
                                 announced_score=None)  # fmt: skip
    paper = slip_submit(round=reopened, player=players[1], coordinates=coordinates, word=word,
                                 announced_score=None, source=Slip.Source.PAPER)  # fmt: skip
    assert phone.slip.late and paper.slip.late
    round_close(round=Round.objects.get(pk=round.pk))
    reasons = set(Ruling.objects.filter(round=round, player__in=players[:2]).values_list("reason", flat=True))
    assert reasons == {"late"}
    # The first publication stays the one after the next publication.
    again = round_publish(round=Round.objects.get(pk=round.pk))
    assert again.first_published_at == published.first_published_at < again.published_at


def test_a_placement_undone_leaves_the_round_public(game: Game, players: list[Player]) -> None:
    round = round_open(round=round_draw(game=game))
    round_close(round=round)
    round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
    undone = round_unplace(game=game)
    with pytest.raises(ApplicationError, match="top is public"):
        round_reopen(round=undone)
