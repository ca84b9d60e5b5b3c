"""The pure helpers of the multiplex benchmark (bench/multiplex/): its verdict and its
figures are only as right as these."""

from __future__ import annotations

import pytest

from bench.multiplex import BenchError
from bench.multiplex.figures import end_problems, merged_problems, outbox_figures
from bench.multiplex.game import created_event, last_json
from bench.multiplex.procs import proc_tree_cpu

END = {
    "event_id": 1,
    "centre": "Centre 01",
    "game": 1,
    "placed": 20,
    "ended": "bag",
    "waiting": 0,
    "last_error": "",
}


def test_created_event_reads_the_id():
    assert created_event("Preparing...\nEvent 42 created: Multiplex bench, 2026-01-01\n") == "42"
    with pytest.raises(BenchError):
        created_event("nothing here")


def test_last_json_takes_the_last_object_line():
    assert last_json('noise\n{"a": 1}\n{"b": 2}\ntrailing text\n') == {"b": 2}
    assert last_json("{not json\n[1, 2]\n") is None


def test_clean_ends_have_no_problem():
    assert end_problems([END, {**END, "centre": "Centre 02"}]) == []


def test_a_centre_waiting_or_in_error_or_missing_is_a_problem():
    problems = end_problems([END, {**END, "waiting": 2}, {**END, "last_error": "down"}, None])
    assert [p.split(":")[0] for p in problems] == ["centre 2", "centre 3", "centre 4"]


def test_centres_that_differ_are_a_problem():
    problems = end_problems([END, {**END, "placed": 19}])
    assert problems == ["the centres differ (rounds placed, end): [(19, 'bag'), (20, 'bag')]"]


def _csv(rows: list[list[str]]) -> bytes:
    return ("\ufeff" + "\r\n".join(";".join(r) for r in rows) + "\r\n").encode()


def test_merged_ranking_needs_players_times_centres_rows_and_a_centre_column():
    header = ["rank", "centre", "table", "name"]
    rows = [[str(i), f"C{c}", str(t), "x"] for i, (c, t) in enumerate(((1, 1), (1, 2), (2, 1), (2, 2)), 1)]
    assert merged_problems(_csv([header, *rows]), centres=2, players=2) == []
    assert merged_problems(_csv([header, *rows[:3]]), centres=2, players=2) == [
        "3 rows in the merged ranking, not 2 x 2",
        "rows by centre: {'C1': 2, 'C2': 1}",
    ]
    assert merged_problems(_csv([["rank", "table"], ["1", "1"]]), 1, 1)[0].startswith("no centre column")


def test_outbox_figures_per_round():
    draws = {"results": 1000, "close": 100, "draw": 100, "top": 50}
    figures = outbox_figures([draws, {"results": 1200, "close": 100}, {"results": 1000, "close": 100}], 10)
    assert figures == {
        "mean_b": 122,
        "max_b": 130,
        "max_centre": 2,
        "draw_centre_by_kind_b": {"close": 10, "draw": 10, "results": 100, "top": 5},
        "others_by_kind_mean_b": {"close": 10, "results": 110},
    }
    assert outbox_figures([], 10) == {} and outbox_figures([{"results": 1}], 0) == {}


def test_tree_cpu_sums_a_process_and_its_descendants():
    # pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt
    # utime stime cutime cstime ...
    root = "10 (py (x) y) S 1 10 10 0 -1 0 0 0 0 0 150 50 30 20 20 0 1 0"
    worker = "11 (celery) S 10 11 11 0 -1 0 0 0 0 0 100 0 0 0 20 0 1 0"
    child = "13 (celery) S 11 11 11 0 -1 0 0 0 0 0 0 100 0 0 20 0 1 0"
    other = "12 (bash) S 1 12 12 0 -1 0 0 0 0 0 999 999 0 0 20 0 1 0"
    assert proc_tree_cpu([child, root, worker, other], 10, ticks_per_second=100) == 4.5
