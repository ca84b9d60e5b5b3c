"""The rulings of a round (tournaments.services.rulings): the adjudication at the close, a
second run, the arbitrator's overrides and accepted shifted references."""

from __future__ import annotations

import datetime as dt

import pytest

from scoring import adjudication as adj
from tests.tournaments.helpers import draw_and_open as _open_round
from tests.tournaments.helpers import open_round_with_a_shift
from tournaments import services
from tournaments.models import Event, Game, HistoryEntry, Lexicon, Player, Round, Ruling, Slip
from tournaments.services import ApplicationError

pytestmark = pytest.mark.django_db(transaction=True)


# ------------------------------------------------------------------ the adjudication of a round


def test_close_adjudicates_every_player_missing_slips_included(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    services.round_close(round=round)
    round.refresh_from_db()
    assert round.state == Round.State.ADJUDICATED
    rulings = Ruling.objects.filter(round=round)
    assert rulings.count() == len(players)
    assert {r.reason for r in rulings} == {"missing"} and {r.credited for r in rulings} == {0}


def test_a_missing_announced_score_is_a_warning_with_the_real_score(
    game: Game, players: list[Player]
) -> None:
    round = _open_round(game)
    top_coords, top_word = round.tops[0].split()
    services.slip_submit(
        round=round, player=players[0], coordinates=top_coords, word=top_word, announced_score=None
    )
    services.round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=players[0])
    assert ruling.warnings == 1 and ruling.credited == round.top_score


def test_adjudication_twice_gives_the_same_rulings_and_keeps_overrides(
    game: Game, players: list[Player], arbitrator
) -> None:
    round = _open_round(game)
    top_coords, top_word = round.tops[0].split()
    services.slip_submit(
        round=round, player=players[0], coordinates=top_coords, word=top_word, announced_score=None
    )
    services.round_close(round=round)
    before = list(Ruling.objects.filter(round=round).values_list("player_id", "credited", "warnings"))
    overridden = services.ruling_override(
        ruling=Ruling.objects.get(round=round, player=players[1]),
        by=arbitrator,
        reason="slip found under the table",
        credited=12,
    )
    services.round_adjudicate(round_id=round.pk)
    after = dict(Ruling.objects.filter(round=round).values_list("player_id", "credited"))
    assert after[players[1].pk] == 12
    assert after[players[0].pk] == {p: c for p, c, _ in before}[players[0].pk]
    assert overridden.overridden


def test_a_re_adjudication_that_changes_a_ruling_is_in_the_history(game: Game, players: list[Player]) -> None:
    round = _open_round(game)
    top_coords, top_word = round.tops[0].split()
    services.slip_submit(
        round=round, player=players[0], coordinates=top_coords, word=top_word, announced_score=round.top_score
    )
    services.round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=players[0])
    assert HistoryEntry.objects.filter(entity="ruling", object_id=ruling.pk, action="rule").count() == 1
    services.round_adjudicate(round_id=round.pk)  # nothing changed: no new entry
    assert not HistoryEntry.objects.filter(entity="ruling", object_id=ruling.pk, action="rerule").exists()
    # A late-found error in the data (announced score corrected in the slip) changes the ruling.
    Slip.objects.filter(pk=ruling.slip_id).update(announced_score=(round.top_score or 0) + 3)
    services.round_adjudicate(round_id=round.pk)
    entry = HistoryEntry.objects.get(entity="ruling", object_id=ruling.pk, action="rerule")
    assert entry.old["warnings"] == 0 and entry.new["warnings"] == 1


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


# ------------------------------------------------------------------ overrides


def test_the_override_needs_a_reason_and_is_kept_in_the_history(
    game: Game, players: list[Player], arbitrator
) -> None:
    round = _open_round(game)
    services.round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=players[0])
    with pytest.raises(ApplicationError, match="say why"):
        services.ruling_override(ruling=ruling, by=arbitrator, reason="  ", credited=10)
    services.ruling_override(ruling=ruling, by=arbitrator, reason="paper slip misread", credited=10)
    entry = HistoryEntry.objects.get(entity="ruling", object_id=ruling.pk, action="override")
    assert entry.actor_label == "arbitre" and entry.old["credited"] == 0 and entry.new["credited"] == 10
    assert entry.reason == "paper slip misread"


def test_an_override_keeps_the_adjudication_detail_beside_its_reason(
    game: Game, players: list[Player], arbitrator
) -> None:
    round = _open_round(game)
    services.slip_submit(round=round, player=players[0], coordinates="H4", word="ZZZ", announced_score=10)
    services.round_close(round=round)
    ruling = Ruling.objects.get(round=round, player=players[0])
    detail = ruling.detail
    assert detail
    ruling = services.ruling_override(
        ruling=ruling, by=arbitrator, reason="word accepted after check", credited=5
    )
    assert ruling.detail == detail and ruling.override_reason == "word accepted after check"


def test_an_override_needs_the_credited_score(event: Event, arbitrator) -> None:
    player = services.player_add(event=event, name="Anne")
    game = services.game_start(event=event)
    round = services.round_draw(game=game)
    assert round is not None
    services.round_close(round=services.round_open(round=round))
    ruling = Ruling.objects.get(round=round, player=player)
    with pytest.raises(ApplicationError, match="give the credited score"):
        services.ruling_override(ruling=ruling, by=arbitrator, reason="x", penalty=7)


# ------------------------------------------------------------------ shifted references


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
    for player in players[2:]:  # all 16 take part: a blank slip is handed in
        services.slip_submit(round=round, player=player, coordinates="", word="", announced_score=None)
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
