"""The round commands (round_draw, round_open, round_close, top_choose, round_place,
game_end): every refusal they add on top of the services, and the work queued or run in
the process."""

from __future__ import annotations

import re

import pytest

from tests.rooms.commands.helpers import last_round as _round
from tests.rooms.commands.helpers import run
from tournaments.models import Event, Round, Ruling
from tournaments.services import rulings
from tournaments.services.rounds import round_pause

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ refusals


def test_unknown_event_user_and_no_game(event: Event) -> None:
    run("round_open", "--event", "NOPE99", fails="no event with id or join code 'NOPE99'")
    run("round_open", "--event", "999999", fails="no event with id or join code")
    # isdigit() is True for these, int() refuses them: no traceback, the usual refusal.
    run("round_open", "--event", "²", fails="no event with id or join code '²'")
    run("round_open", "--event", "9" * 5000, fails="no event with id or join code")
    run("round_open", "--event", "9" * 30, fails="no event with id or join code")
    run("round_open", "--event", event.code.lower(), fails="no game is being played")
    run("round_draw", "--event", event.code, fails="add --new-game to start game 1")
    run("round_draw", "--event", event.code, "--user", "ghost", fails="no user named 'ghost'")
    run("slips_enter", "--event", event.code, stdin="1 H4 WORD 3\n", fails="no game is being played")
    run("rulings", "--event", event.code, fails="no game has been started")
    run("game_end", "--event", event.code, "--reason", "stopped", fails="no game is being played")
    run("round_draw", "--event", event.code, "--rejected", "BCDFGHJ", fails="--rejected goes with --rack")


def test_a_refused_rack_gives_the_reason_and_starts_no_game(event: Event) -> None:
    run(
        "round_draw", "--event", event.code, "--new-game", "--rack", "ZZAEIRT", fails="no second Z in the bag"
    )
    run("round_draw", "--event", event.code, "--new-game", "--rack", "BCDFGHA", fails="at least 2 vowels")
    assert not event.games.exists()
    run("round_draw", "--event", event.code, "--new-game")
    run("round_draw", "--event", event.code, "--new-game", fails="game 1 is still being played")
    run("round_draw", "--event", event.code, fails="round 1 is not placed yet")


def test_each_step_refuses_a_round_in_the_wrong_state(event: Event) -> None:
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    code = event.code
    run("round_close", "--event", code, fails="round 1 is not open yet: open it with round_open")
    run("slips_enter", "--event", code, stdin="1 H8 RETAINS 66\n", fails="round 1 is not open yet")
    run("round_place", "--event", code, fails="round 1 is drawn: open it")
    run("rulings", "--event", code, fails="no round of game 1 has been ruled yet")
    run("rulings", "--event", code, "--round", "1", fails="round 1 is drawn: it is ruled when it closes")
    run("rulings", "--event", code, "--round", "7", fails="game 1 has no round 7")
    run("round_open", "--event", code, "--seconds", "0", fails="--seconds must be a positive")
    run("round_open", "--event", code, "--seconds", "-5", fails="--seconds must be a positive")
    run("round_open", "--event", code, "--seconds", "86401", fails="at most 86400")
    run("round_open", "--event", code, "--seconds", str(10**30), fails="at most 86400")
    run("round_open", "--event", code)
    run("round_open", "--event", code, fails="round 1 is open, it cannot be opened")
    run("round_place", "--event", code, fails="round 1 is open: close it with round_close first")
    run("game_end", "--event", code, "--reason", "stopped", fails="round 1 is still open")
    run("round_close", "--event", code)
    run("round_close", "--event", code, fails="round 1 is adjudicated, it cannot be closed")
    run("slips_enter", "--event", code, stdin="1 H8 RETAINS 66\n", fails="round 1 is adjudicated: slips can")
    run("top_choose", "--event", code, "H8", "QQQQ", fails="there is no Q in the rack")
    run("top_choose", "--event", code, "H8", "AEIRSTN", fails="AEIRSTN is not in the lexicon")
    run(
        "rulings",
        "--event",
        code,
        "--override",
        "9",
        "--credited",
        "1",
        "--reason",
        "x",
        fails="no player at table 9",
    )
    run("rulings", "--event", code, "--override", "1", "--reason", "x", fails="say what changes")
    run("rulings", "--event", code, "--credited", "1", fails="go with --override")
    run("rulings", "--event", code, "--reason", "x", fails="--reason goes with")
    run("rulings", "--event", code, "--override", "1", "--penalty", "-5", "--reason", "x", fails="negative")
    # argparse takes any integer: the service's range, not the database, refuses these.
    for option, refusal in (
        ("--credited", "the points credited must be between -9999 and 9999"),
        ("--warnings", "the warnings must be between 0 and 99"),
        ("--penalty", "the penalty must be between 0 and 9999"),
    ):
        extra = ("--credited", "1") if option != "--credited" else ()
        overflow = ("--override", "1", *extra, option, str(10**30), "--reason", "x")
        run("rulings", "--event", code, *overflow, fails=refusal)
    assert not Ruling.objects.filter(overridden=True).exists()
    run("rulings", "--event", code, "--accept-shift", "1", "--reason", "x", fails="no nearby placement")
    run("rulings", "--event", code, "--game", "4", fails="has no game 4")
    run("game_end", "--event", code, "--reason", "no_move", fails="round 1 has 1089 legal moves")
    run("standings", "--event", code, "--game", "3", fails="has no game 3")
    run(
        "standings",
        "--event",
        code,
        "--category",
        "Z",
        fails=r"no player in category 'Z' \(categories: A, B\)",
    )


def test_top_choose_by_number_refuses_what_is_not_a_number(event: Event) -> None:
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    # "²".isdigit() is True and int("²") fails: it is read as a move, and refused as one.
    run("top_choose", "--event", event.code, "²", fails="cannot read the coordinates '²'")
    for number in ("0", "9" * 30, "9" * 5000):
        run("top_choose", "--event", event.code, number, fails="there are 54 equal tops: choose 1 to 54")


# ------------------------------------------------------------------ end of game


def test_game_end_no_move_only_when_the_rack_has_none(event: Event) -> None:
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    run("game_end", "--event", event.code, "--reason", "no_move", fails="1089 legal moves")
    run("game_end", "--event", event.code, "--reason", "finished", fails="invalid choice")
    out = run("game_end", "--event", event.code, "--reason", "stopped").out
    assert "Game 1 ended (stopped by the arbitrator): 0 rounds placed, top total 0" in out
    run("game_end", "--event", event.code, "--reason", "stopped", fails="no game is being played")
    out = run("round_draw", "--event", event.code, "--new-game").out
    assert "Game 2 started" in out


# ------------------------------------------------------------------ workers and tasks run in the process


def test_with_worker_the_commands_say_the_work_is_queued(event: Event, monkeypatch) -> None:
    from tournaments import tasks

    # No worker runs in the tests: the queued tasks simply never run.
    monkeypatch.setattr(tasks.round_solve_task, "delay", lambda *args: None)
    monkeypatch.setattr(tasks.round_adjudicate_task, "delay", lambda *args: None)
    out = run("round_draw", "--event", event.code, "--new-game", "--worker", "--wait", "0").out
    assert "tops: being computed" in out
    run("top_choose", "--event", event.code, "1", fails="the tops are not computed yet")
    run("game_end", "--event", event.code, "--reason", "no_move", fails="not counted yet")
    run("round_open", "--event", event.code)
    out = run("round_close", "--event", event.code, "--worker", "--wait", "0").out
    assert "the workers are ruling the slips" in out
    run("round_place", "--event", event.code, fails="round 1 is closed: its slips are being ruled")
    assert "wait for the rulings" in run("event_status", "--event", event.code).out


def test_a_failed_adjudication_ends_round_close_with_the_reason(
    event: Event, monkeypatch: pytest.MonkeyPatch, tasks_as_in_production: None
) -> None:
    from arbiter.celery import app as celery_app

    def failing(*, round_id: int) -> Round:
        raise RuntimeError("the lexicon file is unreadable")

    monkeypatch.setattr(rulings, "round_adjudicate", failing)
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    run("round_open", "--event", event.code)
    out = run(
        "round_close",
        "--event",
        event.code,
        fails=r"ruling the slips of round 1 of game 1 failed: RuntimeError: the lexicon file is unreadable",
    )
    assert "the workers are ruling the slips" not in out.out
    assert _round(event).state == Round.State.CLOSED
    assert not Ruling.objects.filter(round=_round(event)).exists()
    # The app's settings are put back after the command.
    assert celery_app.conf.task_always_eager is False
    assert celery_app.conf.task_eager_propagates is False


def test_the_clock_is_held_resumed_and_given_time_from_the_terminal(event: Event) -> None:
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    run("round_clock", "--event", event.code, "pause", fails="its clock runs only while it is open")
    run("round_open", "--event", event.code, "--seconds", "120")
    run("round_clock", "--event", event.code, "add", fails="add takes the seconds given")
    run("round_clock", "--event", event.code, "pause", "30", fails="add takes the seconds given")
    run("round_clock", "--event", event.code, "add", "0", fails="between 1 and 3600 seconds")
    out = run("round_clock", "--event", event.code, "pause").out
    assert 115 <= _left(out, "Round 1: clock paused, ") <= 120
    assert _round(event).paused_at is not None
    run("round_clock", "--event", event.code, "pause", fails="paused already")
    out = run("round_clock", "--event", event.code, "add", "60").out
    assert 175 <= _left(out, "clock paused, ") <= 180
    out = run("round_clock", "--event", event.code, "resume").out
    assert "clock running, slips until" in out and _round(event).paused_at is None
    status = run("event_status", "--event", event.code).out
    assert "slips until" in status
    round_pause(round=_round(event))
    assert _left(run("event_status", "--event", event.code).out, "clock paused, ") > 100


def _left(out: str, before: str) -> int:
    match = re.search(re.escape(before) + r"(\d+) s left", out)
    assert match is not None, out
    return int(match.group(1))


def test_the_rulings_are_published_from_the_terminal(event: Event) -> None:
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    run("round_open", "--event", event.code)
    run("round_close", "--event", event.code)
    review = run("rulings", "--event", event.code).out
    assert "not shown to the players yet" in review
    run("rulings", "--event", event.code, "--publish", "--average", "1", fails="not allowed with")
    out = run("rulings", "--event", event.code, "--publish").out
    assert "Round 1: the phones and the projector show its top and rulings" in out
    assert "not shown to the players yet" not in out and _round(event).published_at is not None
