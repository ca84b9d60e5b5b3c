"""The console actions' figures (bench/hall/console.py): what is summed up and said."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.hall import BenchError
from bench.hall.console import Timed, _credited, _ruling_to_correct, reloaded, report, report_lines


def test_each_action_is_summed_up_apart_and_a_screen_that_never_showed_it_is_counted():
    timings = [
        Timed("place", 0.12, [0.4, 0.5, None], 0.6, {"posted": 0.12}),
        Timed("place", 0.20, [0.3, 0.9, 0.7], None, {"posted": 0.2}),
        Timed("open", 0.05, [0.2], 0.3),
    ]
    found = report(timings)
    assert list(found) == ["place", "open"]  # in the cycle's order, only those played
    place = found["place"]
    assert place["times"] == 2 and place["server"]["max"] == 0.2 and place["server_each"] == [0.12, 0.2]
    assert place["phones"]["n"] == 5 and place["phones"]["max"] == 0.9 and place["phones_not_shown"] == 1
    assert place["projector"]["n"] == 1 and place["projector_not_shown"] == 1
    assert place["parts_p50"] == {"posted": 0.12}


def test_the_lines_say_the_targets_and_every_action():
    lines = report_lines({"game_ended": True, "actions": report([Timed("close", 0.25, [0.4], 0.5)])})
    assert "p95 <= 0.3 s" in lines[1] and "p99 <= 1 s" in lines[1] and "until the game ended" in lines[1]
    assert lines[2].split()[0] == "close" and "0 not shown" in lines[2] and "(each: 0.25)" in lines[2]


def test_the_ruling_corrected_is_one_the_review_lists_and_its_points_are_read_from_its_page():
    page = '<a data-ruling="12">1</a> <a data-ruling="7">2</a> <a class="ref" data-ruling="12">1</a>'
    assert [_ruling_to_correct(page, cycle) for cycle in range(3)] == [7, 12, 7]
    assert _credited("<dt>Points credited</dt><dd><b>-5</b> · Penalty 5</dd>") == -5
    with pytest.raises(BenchError):
        _ruling_to_correct("<p>no review</p>", 0)
    with pytest.raises(BenchError):
        _credited("<dt>Points</dt>")


def test_the_bench_reloads_the_parts_of_the_console_that_the_page_reloads() -> None:
    # As htmx does, from the page's own triggers: a round ruled (its state, its slips'
    # version) reloads the status, the watch and the review, not the board of the hall.
    page = (Path(__file__).parents[2] / "templates/console/round.html").read_text()
    assert reloaded(page, "live-state", "live-full") == ["status", "watch", "review"]
    assert reloaded(page, "live-public") == ["status", "review", "board"]
    assert reloaded(page, "live-panel") == []
