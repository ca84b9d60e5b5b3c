"""The pure helpers of the live-updates benchmark (bench/live/): the figures it prints
are only as right as these."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

from bench.live.cli import parse_clients, parse_modes
from bench.live.figures import Change, percentile, propagation, summary_ms
from bench.live.server import proc_cpu_seconds, proc_status
from bench.sse import SseParser

# proc(5): pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
# cmajflt utime stime ...
STAT = "4242 (python (bench) x) S 1 4242 4242 0 -1 4194560 9000 0 3 0 250 50 0 0 20 0 7 0 100 0 0"


def test_percentile_takes_the_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 51.0
    assert percentile(values, 0.95) == 95.0
    assert percentile(values, 1.0) == 100.0
    assert percentile([3.0], 0.95) == 3.0


def test_percentile_of_nothing_is_an_error():
    with pytest.raises(ValueError):
        percentile([], 0.5)


def test_summary_is_in_milliseconds_and_zero_when_empty():
    assert summary_ms([0.010, 0.020, 0.030]) == {"n": 3, "median_ms": 20.0, "p95_ms": 30.0, "max_ms": 30.0}
    assert summary_ms([]) == {"n": 0, "median_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}


def test_it_reads_cpu_time_after_a_command_name_with_spaces_and_parentheses():
    assert proc_cpu_seconds(STAT, ticks_per_second=100) == 3.0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux")
def test_it_reads_this_process_cpu_time():
    assert proc_cpu_seconds(Path("/proc/self/stat").read_text()) > 0


def test_it_reads_threads_and_resident_memory_from_status():
    status = "Name:\tpython\nState:\tS (sleeping)\nVmRSS:\t   88064 kB\nThreads:\t201\nSigQ:\t0/1\n"
    assert proc_status(status) == {"VmRSS": 88064, "Threads": 201}


def test_clients_and_modes_are_comma_separated():
    assert parse_clients("50,200") == [50, 200]
    assert parse_clients(" 30 ") == [30]
    assert parse_modes("sse") == ["sse"]
    assert parse_modes("polling, sse") == ["polling", "sse"]


@pytest.mark.parametrize("text", ["", "0", "50,-1", "fifty"])
def test_it_refuses_a_count_of_phones_that_is_not_positive(text):
    with pytest.raises(argparse.ArgumentTypeError):
        parse_clients(text)


def test_it_refuses_an_unknown_mode():
    with pytest.raises(argparse.ArgumentTypeError):
        parse_modes("websocket")


def test_sse_parser_returns_an_event_at_the_blank_line_and_skips_comments():
    parser = SseParser()
    lines = ["retry: 1000\n", "\n", ": heartbeat\n", "\n", "event: version\n", 'data: {"public": "3"}\r\n']
    lines.append("\n")
    assert [parser.feed(line) for line in lines] == [
        None,
        None,
        None,
        None,
        None,
        None,
        ("version", '{"public": "3"}'),
    ]


def test_sse_parser_joins_data_lines_and_names_unnamed_events_message():
    parser = SseParser()
    for line in ("data: a\n", "data:b\n"):
        assert parser.feed(line) is None
    assert parser.feed("\n") == ("message", "a\nb")


def test_propagation_is_timed_from_the_commit_to_the_first_new_version_of_each_phone():
    changes = [Change(called=10.0, committed=10.1, before="1", label="open")]
    seen = [
        [(9.0, "1"), (10.6, "2")],
        [(9.5, "1"), (11.0, "2"), (12.0, "3")],
        [(9.2, "1")],  # never saw it
    ]
    delays, missed = propagation(changes, seen)
    assert delays == pytest.approx([0.5, 0.9])
    assert missed == 1


def test_an_answer_before_the_call_does_not_count_for_the_change():
    # The phone had already moved past "1" before this change was made.
    changes = [Change(called=10.0, committed=10.1, before="1", label="open")]
    delays, missed = propagation(changes, [[(5.0, "0"), (10.4, "2")]])
    assert delays == pytest.approx([0.3])
    assert missed == 0
