"""The hall benchmark (bench/hall/): its figures are only as right as these pieces.

The pure helpers (percentiles, the pages' parsing, the slips, the accounting of late,
lost and duplicated slips, /proc and the worker's log); the phone's sending against a
scripted server on loopback (phone.js's retries, with its delay shortened); and one
integration run of the bench against a real ``manage.py serve``.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import random
import re
import sys
import time
from collections.abc import Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from aiohttp import web

from bench.hall.cli import Burners, main, options_from, parse_args
from bench.hall.client import RequestLog, cookie_header, cookies_set
from bench.hall.cpu import (
    ProcSample,
    cpu_by_role,
    cpu_delta,
    descendants,
    inherit_roles,
    machine_busy,
    process_role,
    services_cpu,
    stat_sample,
)
from bench.hall.figures import (
    ADJUDICATIONS,
    Sent,
    Stored,
    TaskRun,
    account,
    by_second,
    done_after_close,
    per_slip,
    summary_s,
    worker_tasks,
)
from bench.hall.pages import PlayPage, csrf_token, parse_play_page, parts_held, round_key
from bench.hall.phone import (
    ACKNOWLEDGED,
    REFUSED,
    RETRY,
    RETRY_SECONDS,
    SILENT_SECONDS,
    Phone,
    phone_address,
    slip_action,
)
from bench.hall.report import adjudication_text
from bench.hall.server import DEFAULT_COMMAND, parse_event_created, server_argv
from bench.hall.slips import GUARD_SECONDS, SLIP_KINDS, PlannedSlip, plan_slips, send_times
from bench.live.server import CLK_TCK
from solver.notation import parse_move

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "rooms" / "static" / "arbiter"

# --------------------------------------------------------------------------- percentiles


def test_the_summary_takes_nearest_ranks_in_seconds():
    values = [float(v) for v in range(1, 1001)]  # 1..1000
    assert summary_s(values) == {"n": 1000, "p50": 501.0, "p95": 950.0, "p99": 990.0, "max": 1000.0}


def test_one_slow_slip_in_a_hundred_is_the_p99_and_the_max():
    values = [0.05] * 99 + [4.0]
    found = summary_s(values)
    assert found["p50"] == 0.05
    assert found["p99"] == 0.05  # rank 99 of 100 is not the slow one...
    assert found["max"] == 4.0  # ...which only the max shows


def test_the_summary_of_nothing_is_empty_not_zero():
    assert summary_s([]) == {"n": 0, "p50": None, "p95": None, "p99": None, "max": None}


# --------------------------------------------------------------------------- phone.js


@pytest.mark.parametrize("status", [200, 201])
def test_a_slip_answered_200_or_201_is_acknowledged(status):
    assert slip_action(status, json_body=True) == ACKNOWLEDGED


@pytest.mark.parametrize("status", [400, 401, 403, 404, 409])
def test_a_slip_refused_by_a_4xx_is_not_sent_again(status):
    assert slip_action(status, json_body=True) == REFUSED


@pytest.mark.parametrize("status", [429, 500, 502, 503, 504])
def test_a_slip_answered_429_or_5xx_is_sent_again(status):
    assert slip_action(status, json_body=True) == RETRY


def test_an_answer_that_is_not_json_sends_the_slip_again_whatever_its_status():
    # phone.js calls r.json() first: an HTML error page throws, and the catch retries.
    assert slip_action(400, json_body=False) == RETRY
    assert slip_action(201, json_body=False) == RETRY
    assert slip_action(None, json_body=False) == RETRY


def test_the_bench_follows_phone_js():
    """The rules above and the 3 s delay are phone.js's: a change there must be made here."""
    script = (STATIC / "phone.js").read_text()
    assert "res.status === 200 || res.status === 201" in script
    assert "res.status >= 400 && res.status < 500 && res.status !== 429" in script
    assert re.search(r"setTimeout\(send,\s*(\d+)\)", script).group(1) == str(int(RETRY_SECONDS * 1000))
    assert 'addEventListener("live-online", send)' in script  # a stream message sends it too
    assert 'credentials: "omit"' in script  # the API call carries no cookie


def test_the_bench_follows_live_js():
    script = (STATIC / "live.js").read_text()
    silent = re.search(r"if \(!heard\) \{ fallback\(\); \} \}, (\d+)\)", script)
    assert silent is not None and int(silent.group(1)) == int(SILENT_SECONDS * 1000)
    assert 'addEventListener("ping", onMessage)' in script
    assert 'addEventListener("version", onMessage)' in script


# --------------------------------------------------------------------------- the schedule


def test_slips_are_spread_over_the_window_but_its_last_tenth_of_a_second():
    times = send_times(2000, deadline=1000.0, window=10.0, rng=random.Random(3))
    assert len(times) == 2000
    assert all(990.0 <= t < 1000.0 - GUARD_SECONDS for t in times)
    first_half = sum(t < 995.0 for t in times)
    assert 900 < first_half < 1100  # uniform, not bunched at one end


def test_the_schedule_is_the_same_for_the_same_seed():
    assert send_times(50, 10.0, 5.0, random.Random(1)) == send_times(50, 10.0, 5.0, random.Random(1))


def test_a_window_no_longer_than_the_guard_is_refused():
    with pytest.raises(ValueError):
        send_times(10, 100.0, GUARD_SECONDS, random.Random(1))


def test_every_phone_has_a_loopback_address_of_its_own():
    addresses = [phone_address(i) for i in range(5000)]
    assert len(set(addresses)) == 5000
    assert all(a.startswith("127.") and not a.endswith((".0", ".255")) for a in addresses)
    with pytest.raises(ValueError):
        phone_address(250 * 256)


# --------------------------------------------------------------------------- the pages

PLAY_PAGE = """
<div data-live="/live/7/" data-stream="/live/7/stream/" data-poll="1000" data-public="3-1-open-x"
     data-deadline=""></div>
<div id="panel" hx-get="/p/7/?part=panel" data-phone data-event="7" data-player="12" data-token="abc&amp;def"
     data-api="/api/events/7/rounds/current/slips/" data-notation="gcg">
<div id="receipt" aria-live="polite" data-round="1-4"></div></div>
"""


def test_the_play_page_gives_the_phone_its_token_addresses_and_round():
    assert parse_play_page(PLAY_PAGE) == PlayPage(
        token="abc&def",
        api="/api/events/7/rounds/current/slips/",
        stream="/live/7/stream/",
        live="/live/7/",
        poll_ms=1000,
        public="3-1-open-x",
        round_key=(1, 4),
    )


def test_the_join_page_again_is_not_a_play_page():
    assert parse_play_page('<form method="post" action="/j/"><input name="code"></form>') is None


def test_a_round_key_that_is_not_two_numbers_sends_no_round():
    assert round_key('<div id="receipt" data-round="1-"></div>') is None
    assert round_key('<div id="receipt" data-round="-"></div>') is None
    assert round_key('<div id="receipt" data-round="2-11"></div>') == (2, 11)


def test_the_csrf_token_is_read_from_the_join_form():
    form = '<form method="post"><input type="hidden" name="csrfmiddlewaretoken" value="Tok3n">'
    assert csrf_token(form) == "Tok3n"
    assert csrf_token("<p>no form</p>") is None


def test_cookies_are_taken_from_set_cookie_and_a_deleted_one_is_emptied():
    found = cookies_set(
        [
            "csrftoken=AbC; expires=Tue, 23 Nov 2027 08:00:00 GMT; Max-Age=31449600; Path=/; SameSite=Lax",
            "sessionid=s355; HttpOnly; Path=/",
            'messages=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/',
        ]
    )
    assert found == {"csrftoken": "AbC", "sessionid": "s355", "messages": ""}
    assert cookie_header(found) == "csrftoken=AbC; sessionid=s355"


# --------------------------------------------------------------------------- the slips

TOPS = ["8D WRAITHS", "H4 TRISHAW"]


def test_the_slips_mix_tops_wrong_scores_shifted_references_and_words_that_are_not():
    planned = plan_slips(2000, TOPS, 84, "TWSIARH", "gcg", 15, random.Random(5))
    kinds = {kind: sum(p.kind == kind for p in planned) for kind, _ in SLIP_KINDS}
    for kind, weight in SLIP_KINDS:
        assert abs(kinds[kind] / 2000 - weight) < 0.04, kind
    tops = {tuple(t.split()) for t in TOPS}
    for slip in planned:
        move = parse_move(f"{slip.coordinates} {slip.word}", "gcg", 15)
        assert move.col + (len(move.word) if move.across else 1) <= 15
        assert move.row + (1 if move.across else len(move.word)) <= 15
        if slip.kind in ("top", "wrong score", "no score"):
            assert (slip.coordinates, slip.word) in tops
        if slip.kind == "shifted":
            assert slip.word in {w for _, w in tops} and (slip.coordinates, slip.word) not in tops
        if slip.kind == "scrambled":
            assert slip.word not in {w for _, w in tops}
        expected = {"top": 84, "wrong score": 85, "no score": None}.get(slip.kind, 84)
        assert slip.announced == expected


def test_a_word_at_the_board_edge_is_shifted_back_not_off_the_board():
    planned = plan_slips(300, ["8I TRISHAW"], 84, "TWSIARH", "gcg", 15, random.Random(2))
    assert {p.coordinates for p in planned if p.kind == "shifted"} == {"8H"}


def test_the_slips_are_written_in_the_events_notation():
    planned = plan_slips(200, ["8D WRAITHS"], 84, "TWSIARH", "fisf", 15, random.Random(5))
    assert {p.coordinates for p in planned if p.kind == "top"} == {"H4"}  # FISF: row H, column 4


def test_without_any_top_the_slips_are_the_rack_across_the_centre():
    planned = plan_slips(3, [], None, "AB?CD", "gcg", 15, random.Random(1))
    assert {(p.kind, p.coordinates, p.word, p.announced) for p in planned} == {
        ("no top", "8F", "ABCD", None)
    }  # F8 to I8: over the centre


# --------------------------------------------------------------------------- the accounting

DEADLINE = 1000.0


def sent(table, client_id, first_sent=990.0, acknowledged=True, receipt_id=None, late=False):
    return Sent(table, client_id, first_sent, acknowledged, receipt_id, late)


def stored(slip_id, table, client_id, late=False, current=True, received_at=None):
    return Stored(slip_id, table, client_id, late, current, received_at)


def test_slips_acknowledged_stored_on_time_and_ruled_count_nothing_wrong():
    found = account(
        [sent(1, "a", receipt_id=11), sent(2, "b", receipt_id=12)],
        [stored(11, 1, "a", received_at=990.02), stored(12, 2, "b", received_at=990.5)],
        DEADLINE,
        {1: 11, 2: 12},
    )
    assert (found.sent_in_time, found.acknowledged, found.stored) == (2, 2, 2)
    assert (found.lost, found.duplicated, found.in_time_ruled_late, found.receipt_mismatch) == (0, 0, 0, 0)
    assert (found.ruled, found.unruled) == (2, 0)
    assert found.receipt_delays == pytest.approx([0.02, 0.5])


def test_an_acknowledged_slip_the_server_does_not_have_is_lost():
    found = account([sent(1, "a"), sent(2, "b")], [stored(11, 1, "a")], DEADLINE, {1: 11, 2: None})
    assert found.lost == 1
    assert found.lost_ids == ["b"]


def test_one_client_id_stored_twice_is_a_duplicate():
    found = account([sent(1, "a")], [stored(11, 1, "a"), stored(12, 1, "a")], DEADLINE, None)
    assert found.duplicated == 1
    assert found.lost == 0


def test_the_same_client_id_of_two_players_is_not_a_duplicate():
    found = account([sent(1, "x"), sent(2, "x")], [stored(11, 1, "x"), stored(12, 2, "x")], DEADLINE, None)
    assert found.duplicated == 0


def test_a_slip_sent_before_the_deadline_and_stored_late_is_an_in_time_slip_ruled_late():
    found = account(
        [sent(1, "a", first_sent=999.95), sent(2, "b", first_sent=995.0, late=True)],
        [stored(11, 1, "a", late=True, current=False), stored(12, 2, "b", late=True, current=False)],
        DEADLINE,
        {1: 11, 2: 12},
    )
    assert found.in_time_ruled_late == 2
    assert found.acknowledged_late == 1
    assert found.in_time_stored_on_time == 0


def test_a_slip_first_sent_after_the_deadline_is_not_counted_in_time():
    found = account([sent(1, "a", first_sent=1000.2)], [stored(11, 1, "a", late=True)], DEADLINE, None)
    assert (found.sent_in_time, found.sent_after_deadline, found.in_time_ruled_late) == (0, 1, 0)


def test_a_retried_slip_is_in_time_by_its_first_attempt():
    # first attempt at 999 s got a 500, the retry 3 s later was after the deadline
    found = account([sent(1, "a", first_sent=999.0)], [stored(11, 1, "a", late=True)], DEADLINE, None)
    assert found.in_time_ruled_late == 1


def test_a_stored_slip_the_phone_never_heard_of_is_counted_apart_not_lost():
    found = account(
        [sent(1, "a", acknowledged=False), Sent(2, "", None, False)],
        [stored(11, 1, "a"), stored(12, 3, "zzz")],
        DEADLINE,
        None,
    )
    assert (found.stored_not_acknowledged, found.unknown_stored, found.not_sent, found.lost) == (1, 1, 1, 0)


def test_an_in_time_slip_whose_ruling_names_another_slip_or_none_is_not_ruled():
    found = account(
        [sent(1, "a"), sent(2, "b"), sent(3, "c")],
        [stored(11, 1, "a"), stored(12, 2, "b"), stored(13, 3, "c")],
        DEADLINE,
        {1: 11, 2: None},  # table 3: no ruling at all
    )
    assert (found.ruled, found.unruled) == (1, 2)


def test_without_rulings_no_in_time_slip_is_ruled():
    found = account([sent(1, "a")], [stored(11, 1, "a")], DEADLINE, None)
    assert (found.ruled, found.unruled) == (0, 1)


def test_a_receipt_naming_another_slip_than_the_stored_one_is_flagged():
    found = account([sent(1, "a", receipt_id=99)], [stored(11, 1, "a")], DEADLINE, None)
    assert found.receipt_mismatch == 1


# --------------------------------------------------------------------------- the server's side

# proc(5) after the name: state ppid pgrp session tty tpgid flags minflt cminflt majflt
# cmajflt utime stime cutime cstime priority nice threads itrealvalue starttime ...
STAT = "4242 (python (x) y) S 17 4242 4242 0 -1 4194560 9000 0 3 0 250 50 30 20 20 0 7 0 8123 0 0"


def test_a_process_sample_counts_its_reaped_children_and_names_it_by_start_time():
    assert stat_sample(STAT, ticks=100) == (17, 8123, 3.5)


def test_the_tree_is_the_root_and_everything_below_it():
    parents = {1: 0, 10: 1, 11: 10, 12: 10, 13: 11, 20: 1, 21: 20}
    assert sorted(descendants(parents, 10)) == [10, 11, 12, 13]


@pytest.mark.parametrize(
    ("argv", "role"),
    [
        (["python", "manage.py", "serve", "--port", "8000"], "manage.py serve"),
        (["/v/bin/python", "/w/manage.py", "runserver", "127.0.0.1:8000", "--noreload"], "web (runserver)"),
        (["[celeryd: arbiter-serve-1@vm:MainProcess] -active- (-A arbiter worker)"], "worker"),
        (["[celeryd: arbiter-serve-1@vm:ForkPoolWorker-1]"], "worker child"),
        (["python", "-m", "uvicorn", "arbiter.asgi:application"], "web (uvicorn)"),
    ],
)
def test_processes_are_grouped_by_what_they_do(argv, role):
    assert process_role(argv) == role


def test_cpu_between_two_samples_is_by_role():
    assert cpu_delta({"web": 1.0, "worker": 2.0}, {"web": 3.5, "worker": 2.0, "worker child": 0.5}) == {
        "web": 2.5,
        "worker": 0.0,
        "worker child": 0.5,
    }


WORKER_LOG = "\n".join(
    [
        "[2026-11-24 10:02:52,718: INFO/MainProcess] Task tournaments.tasks.round_adjudicate_task[bee2] "
        "received",
        "[2026-11-24 10:02:52,800: INFO/MainProcess] Task tournaments.tasks.round_solve_task[aa11] received",
        "[2026-11-24 10:02:52,753: INFO/ForkPoolWorker-1] Task tournaments.tasks.round_adjudicate_task[bee2] "
        "succeeded in 0.03394090599977062s: None",
        "[2026-11-24 10:02:53,000: ERROR/ForkPoolWorker-1] Task tournaments.tasks.round_solve_task[aa11] "
        "raised unexpected: OperationalError()",
        # Sent with a countdown: received at once, run a second later.
        "[2026-11-24 10:02:54,000: INFO/MainProcess] Task tournaments.tasks.round_rule_when_quiet_task[cc3] "
        "received",
        "[2026-11-24 10:02:55,500: INFO/ForkPoolWorker-1] Task "
        "tournaments.tasks.round_rule_when_quiet_task[cc3] succeeded in 0.5s: None",
    ]
)


def test_the_worker_log_says_when_each_task_arrived_and_how_long_it_ran():
    runs = worker_tasks(WORKER_LOG, dt.timedelta(hours=1))
    received = dt.datetime(2026, 11, 24, 9, 2, 52, 718000, tzinfo=dt.UTC).timestamp()
    assert runs[0] == TaskRun(
        "round_adjudicate_task",
        pytest.approx(received),
        pytest.approx(0.0339, abs=1e-4),
        pytest.approx(received + 0.035),
    )
    assert runs[1].name == "round_solve_task" and runs[1].seconds is None and runs[1].done is None
    again = runs[2]
    assert again.name == "round_rule_when_quiet_task" and again.done == pytest.approx(again.received + 1.5)


def test_a_ruling_sent_with_a_countdown_is_done_when_it_ends_not_when_it_arrived():
    close_at = dt.datetime(2026, 11, 24, 9, 2, 52, 700000, tzinfo=dt.UTC).timestamp()
    runs = [
        {"task": r.name, "received_after_close_s": round(r.received - close_at, 3), "ran_s": r.seconds,
         "done_after_close_s": round(r.done - close_at, 3)}
        for r in worker_tasks(WORKER_LOG, dt.timedelta(hours=1))
        if r.name in ADJUDICATIONS
    ]  # fmt: skip
    assert [done_after_close(r) for r in runs] == [pytest.approx(0.053), pytest.approx(2.8)]
    text = adjudication_text(runs)
    assert text.startswith("2 tasks (1 to rule the round again")
    assert "the last done 2.80 s after the close" in text
    old = {"received_after_close_s": 1.0, "ran_s": 0.5}  # a report from before the end times
    assert done_after_close(old) == 1.5


def test_the_server_command_is_a_template():
    assert server_argv("{python} -m uvicorn app --host {host} --port {port}", 8123)[1:] == [
        "-m",
        "uvicorn",
        "app",
        "--host",
        "127.0.0.1",
        "--port",
        "8123",
    ]
    assert server_argv(DEFAULT_COMMAND, 9)[0] == sys.executable
    with pytest.raises(argparse.ArgumentTypeError):
        server_argv("serve --port {prot}", 8000)


def test_the_event_id_and_code_are_read_from_event_create():
    out = "Event 12 created: Hall bench, 2026-11-24\n  join code: CSPKYU\n  id: 12  (use --event 12)\n"
    assert parse_event_created(out) == (12, "CSPKYU")


def test_a_running_server_needs_loopback_an_event_its_code_and_a_login(capsys):
    with pytest.raises(SystemExit):
        parse_args(["--url", "http://10.0.0.2:8000", "--event", "1", "--code", "X", "--token", "t"])
    with pytest.raises(SystemExit):
        parse_args(["--url", "http://127.0.0.1:8000", "--event", "1", "--token", "t"])
    args = parse_args(["--url", "http://127.0.0.1:8000", "--event", "1", "--code", "X", "--token", "t"])
    assert args.event == 1


def test_quick_is_small_and_explicit_options_win():
    quick = options_from(parse_args(["--quick"]))
    assert (quick.phones, quick.window) == (100, 5.0)
    assert options_from(parse_args(["--quick", "--phones", "7"])).phones == 7


def test_only_failures_are_errors():
    log = RequestLog()
    for outcome in ("201", "200", "302", "500", "timeout", "500"):
        log.record("slip", outcome, 0.1)
    assert log.errors() == {"slip": {"500": 2, "timeout": 1}}
    assert log.seconds["slip"] == [0.1, 0.1, 0.1]


# --------------------------------------------------------------------------- a phone sending


class Scripted:
    """A server on loopback answering slips from a script: a status, or "hang" (no
    answer before the phone's timeout), or "html" (a 400 error page, not JSON)."""

    def __init__(self, script: list[Any]) -> None:
        self.script = script
        self.bodies: list[dict[str, Any]] = []
        self.stream_pings = asyncio.Event()

    async def slip(self, request: web.Request) -> web.StreamResponse:
        self.bodies.append(await request.json())
        assert "Cookie" not in request.headers  # credentials: "omit"
        assert request.headers["Authorization"] == "Player tok"
        step = self.script[min(len(self.bodies), len(self.script)) - 1]
        if step == "hang":
            await asyncio.sleep(1)
        if step == "html":
            return web.Response(status=400, text="<h1>Bad Request</h1>", content_type="text/html")
        body = {"id": 1, "late": False, "received_at": "2026-11-24T10:00:00+01:00", "created": step == 201}
        if step == 400:
            body = {"error": {"code": "invalid", "message": "round 3 is over"}}
        return web.json_response(body, status=step if isinstance(step, int) else 500)

    async def stream(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write(b'retry: 100\n\nevent: version\ndata: {"public": "p0"}\n\n')
        await self.stream_pings.wait()
        await response.write(b'event: ping\ndata: {"now": 1}\n\n')
        await asyncio.sleep(1)
        return response


@asynccontextmanager
async def scripted_server(script: list[Any]) -> Iterator[tuple[Scripted, str]]:
    server = Scripted(script)
    app = web.Application()
    app.router.add_post("/slip", server.slip)
    app.router.add_get("/stream", server.stream)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield server, f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


def phone_for(base: str, request_timeout: float = 5.0) -> Phone:
    bench = SimpleNamespace(base=base, log=RequestLog(), request_timeout=request_timeout, panels=True)
    phone = Phone(bench, 0, PlannedSlip("top", "8D", "WRAITHS", 84), "ACDEFG")  # type: ignore[arg-type]
    phone.page = PlayPage("tok", "/slip", "/stream", "/live", 1000, "p0", (1, 2))
    phone.round_key = (1, 2)
    return phone


async def send_and_wait(script: list[Any], *, request_timeout: float = 5.0) -> tuple[Phone, Scripted]:
    async with scripted_server(script) as (server, base):
        phone = phone_for(base, request_timeout)
        try:
            phone.submit()
            await asyncio.wait_for(phone.done.wait(), timeout=10)
        finally:
            await phone.stop()
    return phone, server


@pytest.fixture
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr("bench.hall.phone.RETRY_SECONDS", 0.2)
    yield


def test_a_failed_slip_is_sent_again_with_the_same_client_id_after_the_delay(quick_retries):
    phone, server = asyncio.run(send_and_wait([500, 503, 201]))
    assert [a.outcome for a in phone.slip.attempts] == ["500", "503", "201"]
    assert len({b["client_id"] for b in server.bodies}) == 1
    # Every attempt says when the slip was handed in (phone.js), not when it was sent again.
    assert len({b["sent_at"] for b in server.bodies}) == 1
    sent_at = dt.datetime.fromisoformat(server.bodies[0].pop("sent_at")).timestamp()
    assert abs(sent_at - phone.slip.attempts[0].sent) < 0.5
    assert server.bodies[0] == {
        "game": 1,
        "round": 2,
        "coordinates": "8D",
        "word": "WRAITHS",
        "announced_score": 84,
        "client_id": phone.slip.client_id,
    }
    gaps = [b.sent - a.sent for a, b in zip(phone.slip.attempts, phone.slip.attempts[1:], strict=False)]
    assert all(0.2 <= gap < 0.6 for gap in gaps)
    assert phone.slip.receipt is not None and phone.slip.first_sent == phone.slip.attempts[0].sent


def test_a_slip_without_an_answer_is_sent_again_after_the_timeout(quick_retries):
    phone, server = asyncio.run(send_and_wait(["hang", 200], request_timeout=0.3))
    assert [a.outcome for a in phone.slip.attempts] == ["timeout", "200"]
    assert server.bodies[0]["client_id"] == server.bodies[1]["client_id"]


def test_a_refused_slip_is_not_sent_again(quick_retries):
    phone, server = asyncio.run(send_and_wait([400]))
    assert len(server.bodies) == 1
    assert phone.slip.refused == "400: round 3 is over"
    assert phone.slip.receipt is None


def test_an_html_error_page_is_retried_as_phone_js_does(quick_retries):
    phone, _ = asyncio.run(send_and_wait(["html", 201]))
    assert [a.outcome for a in phone.slip.attempts] == ["400", "201"]


def test_a_stream_message_sends_a_waiting_slip_before_the_delay_is_over(monkeypatch):
    monkeypatch.setattr("bench.hall.phone.RETRY_SECONDS", 30.0)

    async def scenario() -> tuple[Phone, Scripted]:
        async with scripted_server([500, 201]) as (server, base):
            phone = phone_for(base)
            try:
                phone.open_stream()
                for _ in range(100):
                    if phone.heard is not None:
                        break
                    await asyncio.sleep(0.02)
                phone.submit()
                for _ in range(100):
                    if phone.slip.attempts:
                        break
                    await asyncio.sleep(0.02)
                server.stream_pings.set()  # the heartbeat: live-online
                await asyncio.wait_for(phone.done.wait(), timeout=5)
            finally:
                await phone.stop()
        return phone, server

    phone, _ = asyncio.run(scenario())
    assert [a.outcome for a in phone.slip.attempts] == ["500", "201"]
    assert phone.slip.attempts[1].sent - phone.slip.attempts[0].sent < 5
    assert phone.heard is not None and not phone.polling


# --------------------------------------------------------------------------- a real run


@pytest.mark.integration
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux")
def test_a_handful_of_phones_against_serve_lose_and_duplicate_nothing(tmp_path, monkeypatch):
    # The embedded default, as a user starts it: none of this test run's settings.
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "arbiter.settings.local")
    for name in ("DATABASE_URL", "REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    out = tmp_path / "hall.json"
    argv = ["--phones", "6", "--window", "3", "--lead", "3", "--rounds-before", "1", "--json", str(out)]
    assert main(argv) == 0
    report = json.loads(out.read_text())
    assert report["joined"] == 6
    assert report["streams"]["connected"] == 6
    assert report["slips"]["sent_in_time"] == 6
    assert report["slips"]["acknowledged"] == 6
    assert (report["lost"], report["duplicated"], report["in_time_ruled_late"]) == (0, 0, 0)
    assert report["rulings"]["in_time_slips_ruled"] == 6
    assert report["round_state"] == "adjudicated"
    assert report["server_cpu_s"]["total"] > 0
    assert "slip" not in report["errors"]


def test_slips_are_grouped_by_the_second_of_the_window_they_were_sent_in():
    rows = [
        {"first_sent": -9.5, "latency": 0.1, "late": False},
        {"first_sent": -9.2, "latency": 0.3, "late": False},
        {"first_sent": -0.2, "latency": 4.0, "late": True},
        {"first_sent": -0.1, "latency": None, "late": None},
        {"first_sent": None, "latency": None, "late": None},  # never sent
    ]
    assert by_second(rows, 10.0) == [
        {"second": -10, "slips": 2, "p50": 0.1, "max": 0.3, "late": 0, "not_acknowledged": 0},
        {"second": -1, "slips": 2, "p50": 4.0, "max": 4.0, "late": 1, "not_acknowledged": 1},
    ]


def test_the_machine_is_busy_for_all_but_its_idle_and_io_wait_time():
    stat = "cpu  1000 50 300 9000 200 10 40 0 0 0\ncpu0 500 25 150 4500 100 5 20 0 0 0\n"
    assert machine_busy(stat, ticks=100) == 14.0


def test_the_workers_of_a_web_server_are_counted_as_the_web_server():
    tree = {
        1: ProcSample(1, 0, 10, 0.1, 1, "manage.py serve"),
        2: ProcSample(2, 1, 11, 0.2, 1, "web (uvicorn)"),
        3: ProcSample(3, 2, 12, 50.0, 900, "python"),
        4: ProcSample(4, 1, 13, 1.0, 6, "worker"),
    }
    assert cpu_by_role(inherit_roles(tree)) == {
        "manage.py serve": 0.1,
        "web (uvicorn)": 50.2,
        "worker": 1.0,
    }


def test_busy_processes_keep_a_core_busy_and_end_with_the_run_or_their_limit() -> None:
    """--busy (issue 31): a hall's laptop also prints and projects."""
    with Burners(1, limit=30) as burners:
        (process,) = burners.processes
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _cpu_s(process.pid) < 0.3:
            time.sleep(0.05)  # waits for the burner's CPU, not for a fixed delay
        assert _cpu_s(process.pid) >= 0.3
    assert process.poll() is not None and burners.cpu_s >= 0.3
    # Left behind by a bench that died, a burner still ends by itself.
    with Burners(1, limit=0.2) as short:
        assert short.processes[0].wait(timeout=10) == 0


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def test_the_cpu_a_slip_costs_is_read_from_the_window_and_the_services(tmp_path: Path) -> None:
    """Issue 31: the bound a slip's path must meet is printed (web, database, broker)."""
    phases = [
        {"phase": "opened -> window", "server_cpu_s": {"web (uvicorn)": 9.0}, "services_cpu_s": {}},
        {
            "phase": "window -> deadline",
            "server_cpu_s": {"web (uvicorn)": 12.0, "worker": 1.0},
            "services_cpu_s": {"database": 4.0, "broker": 0.5},
        },
    ]
    assert per_slip(phases, 2000) == {"web_ms": 6.0, "database_ms": 2.0, "broker_ms": 0.25}
    assert per_slip(phases, 0)["web_ms"] is None
    # The services are found by process name: a postgres backend, redis, nothing else.
    tick = CLK_TCK
    processes = ((11, "postgres", 3 * tick), (12, "redis-server", tick), (13, "python3", 50 * tick))
    for pid, name, cpu in processes:
        (tmp_path / str(pid)).mkdir()
        # proc(5) after the name: state, ppid, ..., utime (the 12th here), ..., starttime.
        fields = ["S", "1", *["0"] * 9, str(cpu), *["0"] * 7, "5"]
        (tmp_path / str(pid) / "stat").write_text(f"{pid} ({name}) " + " ".join(fields))
    assert services_cpu(tmp_path) == {"database": 3.0, "broker": 1.0}


def test_a_bench_phone_holds_what_phone_js_would_after_each_panel() -> None:
    """The board put back takes its rows along; a new board leaves out the rows held; a part
    the phone lacks makes it reload (phone.js, rooms/views/panels.py)."""
    rows = {"row-1", "row-2"}
    first = parts_held({"board-a", "tocome-a", *rows}, set(), set())
    assert first == (True, {"board-a", "tocome-a", *rows})
    same = parts_held(set(), {"board-a", "tocome-a"}, first[1])
    assert same == (True, {"board-a", "tocome-a", *rows})
    placed = parts_held({"board-b", "row-3", "tocome-b"}, {"row-1"}, same[1])
    assert placed == (True, {"board-b", "row-3", "tocome-b", "row-1"})
    assert parts_held({"tocome-c"}, {"board-x"}, placed[1])[0] is False
