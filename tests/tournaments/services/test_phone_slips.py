"""A phone's slip by the quick path (tournaments.services.phone_slips): the plain case is
recorded exactly as ``slip_submit`` records it; every other case is left to it, nothing
written. On PostgreSQL, tests/integration/test_slip_locks.py races it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import timezone

from tests.tournaments.helpers import draw_and_open
from tournaments.models import Event, Game, HistoryEntry, Player, PlayerToken, Round, Slip
from tournaments.services.phone_slips import PhoneSlip, phone_slip
from tournaments.services.players import player_withdraw
from tournaments.services.rounds import round_close, round_open, round_place, top_choose
from tournaments.services.slips import SubmitResult, late_reason, slip_submit

pytestmark = pytest.mark.django_db


def token(player: Player, confirmed: bool = True) -> str:
    return PlayerToken.objects.create(player=player, confirmed_at=timezone.now() if confirmed else None).key


def quick(round: Round, player: Player, key: str | None = None, **more: Any) -> SubmitResult | None:
    coordinates, word = round.tops[0].split(" ", 1)
    fields: dict[str, Any] = {
        "key": key or token(player),
        "event_id": round.game.event_id,
        "coordinates": coordinates,
        "word": word,
        "announced_score": round.top_score,
        "client_id": "",
        "for_round": None,
        "received": timezone.now(),
        "sent_at": None,
    }
    fields.update(more)
    return phone_slip(PhoneSlip(**fields))


def _row(slip: Slip) -> dict[str, Any]:
    skip = {"id", "player", "client_id", "received_at", "sent_at"}
    return {f.name: getattr(slip, f.attname) for f in Slip._meta.concrete_fields if f.name not in skip}


def _entry(slip: Slip) -> dict[str, Any]:
    entry = HistoryEntry.objects.get(entity="slip", object_id=slip.pk)
    new = dict(entry.new)
    assert new.pop("player") == slip.player_id
    return {"action": entry.action, "actor": entry.actor_id, "label": entry.actor_label, "new": new,
            "old": entry.old, "reason": entry.reason, "event": entry.event_id}  # fmt: skip


def test_a_plain_slip_is_recorded_as_the_full_path_records_it(game: Game, players: list[Player]) -> None:
    round = draw_and_open(game)
    done = quick(round, players[0], client_id="q-1")
    assert done is not None and done.created and done.invalid_words == []
    slip = Slip.objects.get(pk=done.slip.pk)
    coordinates, word = round.tops[0].split(" ", 1)
    full = slip_submit(
        event=game.event, player=players[1], coordinates=coordinates, word=word,
        announced_score=round.top_score, client_id="f-1",
    ).slip  # fmt: skip
    assert _row(slip) == _row(Slip.objects.get(pk=full.pk))
    assert _entry(slip) == _entry(full)
    assert (slip.client_id, slip.player_id, slip.late, slip.current) == ("q-1", players[0].pk, False, True)
    # What the receipt reads from the result is what was stored.
    assert (done.slip.pk, done.slip.received_at, done.slip.late) == (slip.pk, slip.received_at, slip.late)


def _closed(round: Round) -> None:
    round_close(round=round)


def _deadline_past(round: Round) -> None:
    Round.objects.filter(pk=round.pk).update(deadline=timezone.now() - dt.timedelta(seconds=30))


def _training(round: Round) -> None:
    Event.objects.filter(pk=round.game.event_id).update(mode=Event.Mode.NOSTRICT)


@pytest.mark.parametrize(
    ("case", "change", "more"),
    [
        ("no such token", None, {"key": "nope"}),
        ("another event's", None, {"event_id": 999_999}),
        ("a round closed before it", _closed, {}),
        ("time up", _deadline_past, {}),
        ("a training mode", _training, {}),
        ("a slip that cannot be read", None, {"coordinates": "Z99"}),
        ("meant for another round", None, {"for_round": (1, 9)}),
    ],
)
def test_what_is_not_the_plain_case_is_left_to_the_full_path(
    game: Game, players: list[Player], case: str, change: Callable[[Round], None] | None, more: dict[str, Any]
) -> None:
    round = draw_and_open(game)
    if change is not None:
        change(Round.objects.get(pk=round.pk))
    before = (Slip.objects.count(), HistoryEntry.objects.count())
    assert quick(Round.objects.get(pk=round.pk), players[0], **more) is None, case
    assert (Slip.objects.count(), HistoryEntry.objects.count()) == before


def test_a_waiting_phone_a_withdrawn_player_a_retry_and_a_second_slip_are_left_to_it(
    game: Game, players: list[Player]
) -> None:
    round = draw_and_open(game)
    assert quick(round, players[0], key=token(players[0], confirmed=False)) is None
    player_withdraw(player=players[1], by=None)
    assert quick(round, players[1]) is None
    anne = token(players[2])
    assert quick(round, players[2], key=anne, client_id="same") is not None
    assert quick(round, players[2], key=anne, client_id="same") is None  # the retry: slip_submit answers it
    assert quick(round, players[2], key=anne, client_id="other") is None  # replaces the first: slip_submit
    assert Slip.objects.filter(round=round).count() == 1


def test_a_slip_of_the_round_before_sent_again_is_left_to_it(game: Game, players: list[Player]) -> None:
    # The answer to a slip of the round before was lost; the phone sends it again once
    # the next round is open: slip_submit finds it by its client_id and answers with it.
    first = draw_and_open(game)
    key = token(players[0])
    assert quick(first, players[0], key=key, client_id="kept") is not None
    round_close(round=first)
    top_choose(round=Round.objects.get(pk=first.pk), move_text=first.tops[0])
    round_place(round=Round.objects.get(pk=first.pk), draw_next=True)
    second = Round.objects.get(game=game, number=2)
    round_open(round=second)
    assert quick(Round.objects.get(pk=second.pk), players[0], key=key, client_id="kept") is None


def test_a_round_remembered_by_the_process_but_replaced_since_is_read_again(
    game: Game, players: list[Player]
) -> None:
    # The process remembers the event's current round for the hall's slips (KNOWN_SECONDS):
    # the next round opened within that time, a slip goes to it, not to the one remembered.
    first = draw_and_open(game)
    assert quick(first, players[0], client_id="one") is not None
    round_close(round=first)
    top_choose(round=Round.objects.get(pk=first.pk), move_text=first.tops[0])
    round_place(round=Round.objects.get(pk=first.pk), draw_next=True)
    second = Round.objects.get(game=game, number=2)
    round_open(round=second)
    done = quick(Round.objects.get(pk=second.pk), players[1], client_id="two")
    assert done is not None and Slip.objects.get(pk=done.slip.pk).round_id == second.pk
    assert Slip.objects.filter(round=first).count() == 1


def test_a_slip_sent_before_the_close_and_queued_behind_it_is_recorded_in_time(
    game: Game, players: list[Player], settings
) -> None:
    """Closed, not yet ruled: the ruling to come reads it. Sent after the close: late, left."""
    settings.ARBITER_SLIP_GRACE_SECONDS = 5
    round = draw_and_open(game)
    closed_at = timezone.now()
    Round.objects.filter(pk=round.pk).update(state=Round.State.CLOSED, closed_at=closed_at)
    round = Round.objects.get(pk=round.pk)
    after = closed_at + dt.timedelta(seconds=1)
    done = quick(round, players[0], received=after, sent_at=closed_at - dt.timedelta(seconds=1))
    assert done is not None and not done.slip.late and done.slip.current
    assert quick(round, players[1], received=after) is None  # handed in after the close
    assert slip_submit(
        event=game.event, player=players[1], coordinates="8D", word="AA", announced_score=2, now=after
    ).slip.late


@pytest.mark.parametrize(
    ("sent_before", "counted_before"),
    [(2.0, 2.0), (60.0, 5.0), (-3.0, 0.0)],  # in the grace; held to the grace; in the future
)
def test_the_time_a_phone_says_it_sent_is_held_within_the_grace(
    game: Game, players: list[Player], settings, sent_before: float, counted_before: float
) -> None:
    settings.ARBITER_SLIP_GRACE_SECONDS = 5
    round = draw_and_open(game)
    received = timezone.now()
    done = quick(round, players[0], received=received, sent_at=received - dt.timedelta(seconds=sent_before))
    assert done is not None
    slip = Slip.objects.get(pk=done.slip.pk)
    assert slip.received_at == received
    assert slip.sent_at == slip.handed_in_at == received - dt.timedelta(seconds=counted_before)


def test_a_slip_received_after_the_deadline_but_sent_before_it_is_in_time(
    game: Game, players: list[Player], settings
) -> None:
    """It queued in a busy server: the quick path and slip_submit both count it in time,
    within the grace; beyond it, late (docs/rules.md#slips)."""
    settings.ARBITER_SLIP_GRACE_SECONDS = 5
    round = draw_and_open(game)
    deadline = timezone.now() - dt.timedelta(seconds=1)
    Round.objects.filter(pk=round.pk).update(deadline=deadline)
    round = Round.objects.get(pk=round.pk)
    received = deadline + dt.timedelta(seconds=1)
    sent = deadline - dt.timedelta(seconds=2)
    done = quick(round, players[0], received=received, sent_at=sent)
    assert done is not None and not done.slip.late
    full = slip_submit(
        event=game.event, player=players[1], coordinates="8D", word="AA", announced_score=2,
        now=received, sent_at=sent,
    )  # fmt: skip
    assert not full.slip.late and full.slip.sent_at == sent
    # Sent 10 s before a receipt 1 s after the deadline: counted 5 s before it, in time.
    # Received 7 s after the deadline and said sent before it: counted 2 s after, late.
    received = deadline + dt.timedelta(seconds=7)
    assert quick(round, players[2], received=received, sent_at=sent) is None
    late = slip_submit(
        event=game.event, player=players[2], coordinates="8D", word="AA", announced_score=2,
        now=received, sent_at=sent,
    )  # fmt: skip
    assert late.slip.late and late_reason(late.slip) == "time_up"
    assert late.slip.sent_at == received - dt.timedelta(seconds=5)


def test_a_paper_slip_has_no_sent_time(game: Game, players: list[Player], arbitrator) -> None:
    draw_and_open(game)
    paper = slip_submit(
        event=game.event, player=players[0], coordinates="8D", word="AA", announced_score=2,
        source=Slip.Source.PAPER, entered_by=arbitrator, sent_at=timezone.now() - dt.timedelta(seconds=3),
    )  # fmt: skip
    assert paper.slip.sent_at is None and paper.slip.handed_in_at == paper.slip.received_at
