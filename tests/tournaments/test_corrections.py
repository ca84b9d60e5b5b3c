"""Corrections after the close: accepted shifted references, overrides, late tasks."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from scoring import adjudication as adj
from solver.notation import format_move, parse_move
from solver.tiles import rack_codes
from tournaments import judging, services
from tournaments.models import Event, Game, HistoryEntry, Lexicon, Player, Round, Ruling
from tournaments.services import ApplicationError
from tournaments.state import rebuild

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def arbitrator():
    return get_user_model().objects.create_user("arbitre", password="x")


@pytest.fixture
def hall(enable_lexicon: Lexicon) -> tuple[Event, list[Player], Game]:
    """16 players: enough for a solo."""
    event = services.event_create(
        name="Hall",
        starts_on=dt.date(2026, 11, 21),
        lexicon=enable_lexicon,
        language="english",
        notation="gcg",
        random_seed=7,
    )
    players = [services.player_add(event=event, name=f"P{i}") for i in range(1, 17)]
    return event, players, services.game_start(event=event)


def _shifted_writing(game: Game, round: Round) -> tuple[str, str, str] | None:
    """A wrong reference (coordinates, word) whose only nearby fit is a top, and that top."""
    position = rebuild(game)
    event = game.event
    rules = dataclasses.replace(position.game.rules, notation=event.notation)
    settings = judging.adjudication_settings(event)
    rack = rack_codes(round.rack)
    for top in round.tops:
        move = parse_move(top, "gcg", 15)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                for across in (move.across, not move.across):
                    if (dr, dc, across) == (0, 0, move.across):
                        continue
                    try:
                        text = format_move(
                            dataclasses.replace(move, row=move.row + dr, col=move.col + dc, across=across),
                            "gcg",
                        )
                    except ValueError:
                        continue
                    coords, word = text.split()
                    verdict = adj.adjudicate_slip(
                        position.game.board,
                        rack,
                        position.game.lexicon,
                        rules,
                        settings,
                        adj.SlipInput(coords, word, round.top_score),
                    )
                    if verdict.shift_candidate == top:
                        return coords, word, top
    return None


def open_round_with_a_shift(game: Game) -> tuple[Round, tuple[str, str, str]]:
    """Play the seed's rounds (placing each top) until an open round has a top that can be
    written with a unique shifted reference: that round, and (coordinates, word, top)."""
    round = services.round_draw(game=game)
    for _ in range(8):
        assert round is not None
        round = services.round_open(round=round)
        round.refresh_from_db()
        found = _shifted_writing(game, round)
        if found:
            return round, found
        services.round_close(round=round)
        round = services.round_place(round=Round.objects.get(pk=round.pk))
    pytest.fail("no round of this seed had a top with a unique shifted reference")


def test_an_accepted_shift_counts_as_a_top_and_takes_the_solo_away(hall, arbitrator) -> None:
    event, players, game = hall
    round, (coords, word, top) = open_round_with_a_shift(game)
    top_coords, top_word = top.split()
    services.slip_submit(
        round=round, player=players[0], coordinates=top_coords, word=top_word, announced_score=round.top_score
    )
    services.slip_submit(
        round=round, player=players[1], coordinates=coords, word=word, announced_score=round.top_score
    )
    services.round_close(round=round)
    first, second = (Ruling.objects.get(round=round, player=p) for p in players[:2])
    assert first.solo and first.credited == round.top_score + event.solo_bonus
    assert second.credited == 0 and second.shift_candidate == top

    accepted = services.ruling_accept_shift(ruling=second, by=arbitrator, reason="reference one square off")
    first.refresh_from_db()
    assert accepted.is_top and accepted.move == top and accepted.reason == adj.Reason.SHIFT_ACCEPTED
    assert accepted.credited == round.top_score - event.shift_penalty
    assert accepted.penalty == event.shift_penalty
    assert not first.solo and first.credited == round.top_score
    entry = HistoryEntry.objects.get(entity="ruling", object_id=accepted.pk, action="accept_shift")
    assert (
        entry.old["credited"] == 0 and entry.new["move"] == top and entry.reason == "reference one square off"
    )

    services.round_adjudicate(round_id=round.pk)  # a re-run keeps the accepted shift
    assert Ruling.objects.get(pk=accepted.pk).credited == accepted.credited


def test_an_adjudication_after_the_placement_changes_nothing(event: Event) -> None:
    player = services.player_add(event=event, name="Anne")
    game = services.game_start(event=event)
    round = services.round_draw(game=game)
    assert round is not None
    round = services.round_open(round=round)
    top_coords, top_word = round.tops[0].split()
    services.slip_submit(
        round=round, player=player, coordinates=top_coords, word=top_word, announced_score=round.top_score
    )
    services.round_close(round=round)
    services.round_place(round=Round.objects.get(pk=round.pk))
    before = list(Ruling.objects.filter(round=round).values())
    services.round_adjudicate(round_id=round.pk)  # a redelivered task
    assert list(Ruling.objects.filter(round=round).values()) == before


def test_an_override_needs_the_credited_score(event: Event, arbitrator) -> None:
    player = services.player_add(event=event, name="Anne")
    game = services.game_start(event=event)
    round = services.round_draw(game=game)
    assert round is not None
    services.round_close(round=services.round_open(round=round))
    ruling = Ruling.objects.get(round=round, player=player)
    with pytest.raises(ApplicationError, match="give the credited score"):
        services.ruling_override(ruling=ruling, by=arbitrator, reason="x", penalty=7)


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


@pytest.mark.parametrize("score", [-1, 10_000, 2_147_483_648])
def test_an_absurd_announced_score_is_refused(event: Event, score: int) -> None:
    player = services.player_add(event=event, name="Anne")
    game = services.game_start(event=event)
    round = services.round_draw(game=game)
    assert round is not None
    round = services.round_open(round=round)
    with pytest.raises(ApplicationError, match="between 0 and 9999"):
        services.slip_submit(round=round, player=player, coordinates="8D", word="AB", announced_score=score)


def test_a_replaced_slip_has_its_history_entry(event: Event) -> None:
    player = services.player_add(event=event, name="Anne")
    game = services.game_start(event=event)
    round = services.round_draw(game=game)
    assert round is not None
    round = services.round_open(round=round)
    first = services.slip_submit(
        round=round, player=player, coordinates="8D", word="AB", announced_score=2
    ).slip
    services.slip_submit(round=round, player=player, coordinates="8E", word="AB", announced_score=2)
    entry = HistoryEntry.objects.get(entity="slip", object_id=first.pk, action="replaced")
    assert entry.old == {"current": True} and entry.new == {"current": False}


def test_the_history_cannot_be_deleted_in_bulk_nor_with_its_event(event: Event) -> None:
    from django.db.models import ProtectedError

    game = services.game_start(event=event)
    assert HistoryEntry.objects.filter(event=event).exists()
    with pytest.raises(ValueError, match="never deleted"):
        HistoryEntry.objects.filter(event=event).delete()
    with pytest.raises(ValueError, match="never changed"):
        HistoryEntry.objects.filter(event=event).update(reason="x")
    with pytest.raises(ProtectedError):
        event.delete()
    assert game.pk
