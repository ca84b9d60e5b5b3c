"""The slips of an open round ruled as they come (tournaments.services.rulings,
round_rule_ahead): the close's work done early, shown to no one, and the close's rulings
exactly those of a close without it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.helpers import draw_and_open as _open_round
from tests.tournaments.helpers import draw_round
from tournaments import queue, statements, tasks
from tournaments.models import HistoryEntry, Player, Round, Ruling, Slip
from tournaments.selectors.live import live_versions
from tournaments.services.corrections import ruling_override
from tournaments.services.rounds import round_close, round_open, round_place, round_publish, round_reopen
from tournaments.services.ruling_store import RULING_FIELDS
from tournaments.services.rulings import round_adjudicate, round_rule_ahead
from tournaments.services.slips import slip_submit
from tournaments.standings import game_standings

pytestmark = pytest.mark.django_db


def _hand_in(round: Round, player: Player, move: str | None, score: int | None = None) -> None:
    coordinates, word = move.split() if move else ("", "")
    slip_submit(round=round, player=player, coordinates=coordinates, word=word, announced_score=score)


def _rulings(round: Round) -> dict[int, tuple[Any, ...]]:
    """Every field the adjudication writes, by player."""
    fields = [f for f in RULING_FIELDS if f != "slip"]
    return {
        r.player_id: (r.slip_id, *(getattr(r, f) for f in fields)) for r in Ruling.objects.filter(round=round)
    }


def _actions(ruling_of: Player, round: Round) -> list[str]:
    ruling = Ruling.objects.get(round=round, player=ruling_of)
    entries = HistoryEntry.objects.filter(entity="ruling", object_id=ruling.pk).order_by("id")
    return [e.action for e in entries]


def test_a_pass_rules_the_slips_in_so_far_and_changes_nothing_anyone_sees(hall) -> None:
    event, players, game = hall
    round = _open_round(game)
    for player in players[:3]:
        _hand_in(round, player, round.tops[0], round.top_score)
    before = live_versions(event)
    newest = Slip.objects.filter(round=round).latest("pk").pk

    assert round_rule_ahead(round_id=round.pk) == newest

    rulings = Ruling.objects.filter(round=round)
    # Only the players who handed in: "missing" is the close's to say.
    assert {r.player_id for r in rulings} == {p.pk for p in players[:3]}
    assert {(r.is_top, r.solo, r.credited) for r in rulings} == {(True, False, round.top_score)}
    assert HistoryEntry.objects.filter(entity="ruling", action="rule_ahead").count() == 3
    after = live_versions(event)
    assert after.public == before.public and after.full != before.full  # the console only
    assert Round.objects.get(pk=round.pk).state == Round.State.OPEN
    # Nothing new: the next pass writes nothing.
    assert round_rule_ahead(round_id=round.pk, ruled_through=newest) == newest
    assert HistoryEntry.objects.filter(entity="ruling").count() == 3


def test_the_close_after_passes_rules_exactly_as_a_close_without_them(hall) -> None:
    _event, players, game = hall
    round = _open_round(game)
    top = round.tops[0]
    coordinates, word = top.split()
    _hand_in(round, players[0], top, round.top_score)  # alone on the top: a solo, for now
    _hand_in(round, players[1], f"{coordinates} {word[::-1]}", 10)  # not a word
    _hand_in(round, players[2], top, None)  # no score announced: a warning
    ruled = round_rule_ahead(round_id=round.pk)
    assert ruled
    solo = Ruling.objects.get(round=round, player=players[0])
    # players[2] found it too: no solo, even ahead.
    assert not solo.solo and solo.credited == round.top_score
    _hand_in(round, players[1], top, round.top_score)  # replaced after the pass
    _hand_in(round, players[3], top, round.top_score)
    ruled = round_rule_ahead(round_id=round.pk, ruled_through=ruled)
    _hand_in(round, players[4], f"{coordinates} {word[::-1]}", 10)  # after the last pass
    round_close(round=round)
    round.refresh_from_db()
    assert round.state == Round.State.ADJUDICATED
    closed = _rulings(round)

    # The rulings a close gives with no pass before it: every ruling written anew.
    Ruling.objects.filter(round=round).delete()
    round_adjudicate(round_id=round.pk)
    assert _rulings(round) == closed and len(closed) == len(players)

    # The history (of the first close's rulings, kept): a ruling ahead that still held
    # is the round's ruling; what the close wrote is recorded as the close's.
    entries = HistoryEntry.objects.filter(entity="ruling").order_by("id")
    by_action: dict[str, int] = {}
    for entry in entries:
        by_action[entry.action] = by_action.get(entry.action, 0) + 1
    # Ahead: players 0-2 at the first pass, 1 (replaced) and 3 at the second.
    assert by_action["rule_ahead"] == 5
    assert by_action["rule"] == 2 * len(players) - 4  # the close: 4 and the missing; then all anew


def test_the_close_records_what_changed_since_the_last_pass(hall) -> None:
    _event, players, game = hall
    round = _open_round(game)
    _hand_in(round, players[0], round.tops[0], round.top_score)
    round_rule_ahead(round_id=round.pk)
    alone = Ruling.objects.get(round=round, player=players[0])
    assert alone.solo
    _hand_in(round, players[1], round.tops[0], round.top_score)  # after the pass
    round_close(round=round)

    alone.refresh_from_db()
    assert not alone.solo and alone.credited == Round.objects.get(pk=round.pk).top_score
    assert _actions(players[0], round) == ["rule_ahead", "rerule"]
    entry = HistoryEntry.objects.get(entity="ruling", object_id=alone.pk, action="rerule")
    assert (entry.old["solo"], entry.new["solo"]) == (True, False)
    assert _actions(players[1], round) == ["rule"] and _actions(players[5], round) == ["rule"]


def test_a_round_not_open_or_closed_once_is_not_ruled_ahead(hall) -> None:
    _event, players, game = hall
    round = _open_round(game)
    _hand_in(round, players[0], round.tops[0], round.top_score)
    round_close(round=round)
    assert round_rule_ahead(round_id=round.pk) is None  # closed: no more passes
    round_reopen(round=Round.objects.get(pk=round.pk))
    _hand_in(round, players[1], round.tops[0], round.top_score)
    # Reopened: its rulings were seen at the close; they are written at the next one.
    assert round_rule_ahead(round_id=round.pk) is None
    assert not HistoryEntry.objects.filter(action="rule_ahead").exists()
    assert round_rule_ahead(round_id=999_999) is None


def test_no_pass_before_the_tops_are_known(hall) -> None:
    _event, players, game = hall
    round = _open_round(game)
    _hand_in(round, players[0], round.tops[0], round.top_score)
    Round.objects.filter(pk=round.pk).update(solved_at=None)
    assert round_rule_ahead(round_id=round.pk) == 0  # asked again at the next pass
    assert not Ruling.objects.filter(round=round).exists()


def test_passes_follow_each_other_from_the_open_to_the_close(hall, settings, monkeypatch, request) -> None:
    _event, players, game = hall
    settings.ARBITER_RULE_AHEAD = True
    sent: list[tuple[Any, ...]] = []

    def kept(task: Any, *args: Any, countdown: float | None = None) -> bool:
        sent.append((task.name.rsplit(".", 1)[-1], *args, countdown))
        return True

    round = draw_round(game)  # and solved
    monkeypatch.setattr(queue, "send", kept)
    # The tasks sent, as to a worker (app.conf: what the commands switch at run time).
    conf = tasks.round_rule_ahead_task.app.conf
    eager, conf.task_always_eager = conf.task_always_eager, False
    request.addfinalizer(lambda: setattr(conf, "task_always_eager", eager))
    round_open(round=round)
    round.refresh_from_db()
    assert sent == [("round_rule_ahead_task", round.pk, 0, queue.RULE_AHEAD_EVERY)]
    _hand_in(round, players[0], round.tops[0], round.top_score)
    tasks.round_rule_ahead_task.run(round.pk, 0)
    newest = Slip.objects.get(round=round).pk
    assert sent[-1] == ("round_rule_ahead_task", round.pk, newest, queue.RULE_AHEAD_EVERY)
    round_close(round=round)
    count = len(sent)
    tasks.round_rule_ahead_task.run(round.pk, newest)
    assert len(sent) == count  # closed: the passes end


def test_rulings_ahead_count_nowhere_before_the_close(hall) -> None:
    _event, players, game = hall
    first = _open_round(game)
    round_close(round=first)
    round_publish(round=Round.objects.get(pk=first.pk))
    round_place(round=Round.objects.get(pk=first.pk))
    shown = game_standings(game)
    round = Round.objects.get(game=game, number=2)
    round_open(round=round)
    _hand_in(round, players[0], round.tops[0], round.top_score)
    round_rule_ahead(round_id=round.pk)
    assert Ruling.objects.filter(round=round).exists()
    assert game_standings(game) == shown


def test_a_close_just_before_the_pass_took_the_round_stops_it(hall, monkeypatch) -> None:
    # The state read before the lock is checked again under it: a close that came in
    # between is what the pass sees, and it writes nothing.
    _event, players, game = hall
    round = _open_round(game)
    _hand_in(round, players[0], round.tops[0], round.top_score)
    real = statements.round_shared.run

    def closed_first(params: list[Any]) -> None:
        Round.objects.filter(pk=params[0]).update(state=Round.State.CLOSED)
        real(params)

    monkeypatch.setattr(statements.round_shared, "run", closed_first)
    assert round_rule_ahead(round_id=round.pk) is None
    assert not Ruling.objects.filter(round=round).exists()


def test_no_passes_with_the_tasks_run_in_the_caller(hall, settings, monkeypatch) -> None:
    # Eager, each pass would run the next at once, for as long as the round is open.
    _event, players, game = hall
    settings.ARBITER_RULE_AHEAD = True
    sent: list[str] = []
    round = draw_round(game)
    monkeypatch.setattr(queue, "send", lambda task, *args, **kwargs: sent.append(task.name))
    round_open(round=round)
    _hand_in(round, players[0], round.tops[0], round.top_score)
    tasks.round_rule_ahead_task.run(round.pk, 0)  # as a command's own process would run it
    assert sent == [] and Ruling.objects.filter(round=round).exists()


def test_a_ruling_corrected_while_open_stops_the_passes(hall, arbitrator) -> None:
    # The close applies the arbitrator's correction; a pass would write over it.
    _event, players, game = hall
    round = _open_round(game)
    _hand_in(round, players[0], round.tops[0], round.top_score)
    ruled = round_rule_ahead(round_id=round.pk)
    ruling = Ruling.objects.get(round=round, player=players[0])
    ruling_override(ruling=ruling, by=arbitrator, reason="misread", credited=3)
    corrected = _rulings(round)
    _hand_in(round, players[1], round.tops[0], round.top_score)
    assert round_rule_ahead(round_id=round.pk, ruled_through=ruled) is None
    assert _rulings(round) == corrected  # nothing written
    round_close(round=round)
    closed = Ruling.objects.get(pk=ruling.pk)
    assert closed.overridden and closed.override["credited"] == 3  # kept by the close
