"""The measured round: the arbitrator's steps and the phones' joins, streams and slips on
the clock, then everything the run found gathered into its report."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.hall import console
from bench.hall.arbitrator import Arbitrator
from bench.hall.client import RequestLog, parse_time
from bench.hall.cpu import Meter, ProcessTree, cpu_delta
from bench.hall.figures import (
    TARGET_P99_S,
    TARGET_RULED_S,
    TARGET_STREAMS_S,
    Sent,
    Stored,
    account,
    adjudication_runs,
    by_second,
    done_after_close,
    per_slip,
    slip_rows,
    summary_s,
)
from bench.hall.phone import Phone
from bench.hall.slips import plan_slips, send_times
from solver.boards import layout

CLOSE_AFTER_SECONDS = 0.5
#: How often the arbitrator asks for the round's state after the close (the resolution
#: of "close -> every ruling").
STATE_POLL_SECONDS = 0.05
#: After an adjudicated round whose rulings do not name every slip yet (a slip that
#: reached the server after the close makes it rule again), ask again after this.
VERIFY_PAUSE_SECONDS = 0.5
#: The joins are paced (--join-rate, and at most JOIN_IN_FLIGHT at once): faster than
#: the server can take them, they time out, are tried again and pile up until the server
#: spends its time on pages nobody waits for any more (docs/benchmarks.md). The round is
#: what is measured.
JOIN_IN_FLIGHT = 50
#: The bench waits this long for every stream before it opens the round anyway.
STREAM_WAIT_SECONDS = 30.0
#: Phones stop sending this long after the close; a slip still not acknowledged then is
#: counted as given up.
AFTER_CLOSE_SECONDS = 60.0
RULING_TIMEOUT = 120.0
SETTLE_SECONDS = 2.0
SETTLE_TIMEOUT = 30.0


@dataclass
class Options:
    phones: int
    window: float
    lead: float
    rounds_before: int
    join_rate: float
    close_after: float
    request_timeout: float
    seed: int
    #: Off (a diagnostic, not what phones do): no phone reloads its panel when the public
    #: version changes, to tell what those reloads cost the server.
    panels: bool = True
    #: Cycles of the arbitrator's actions after the measured round (bench/hall/console.py).
    actions: int = 0


class Hall:
    """One run: the phones and the arbitrator against the server at ``base``, the event's
    join code, the server's processes measured (``server``) and its worker's log read."""

    def __init__(
        self,
        options: Options,
        base: str,
        event_id: int,
        code: str,
        server: ProcessTree | None,
        worker_log: Path | None = None,
    ) -> None:
        self.options = options
        self.worker_log = worker_log
        self.base = base
        self.event_id = event_id
        self.code = code
        self.request_timeout = options.request_timeout
        self.panels = options.panels
        self.log = RequestLog()
        self.meter = Meter(server)
        self.rng = random.Random(options.seed)

    async def run(self, login: dict[str, str | None]) -> dict[str, Any]:
        options = self.options
        arbitrator = Arbitrator(self.base, self.event_id, self.log)
        phones: list[Phone] = []
        background: list[asyncio.Task[None]] = []
        try:
            await arbitrator.login(
                token=login.get("token"), user=login.get("user"), password=login.get("password")
            )
            event = await arbitrator.call("GET", "")
            size = layout(str(event["board"])).size
            seats = await arbitrator.ensure_players(options.phones)
            for _ in range(options.rounds_before):
                await arbitrator.play_without_slips()
            measured = await arbitrator.drawn_round()
            plans = plan_slips(
                options.phones,
                measured["tops"] or [],
                measured["top_score"],
                measured["rack"] or "",
                str(event["notation"]),
                size,
                self.rng,
            )
            phones = [Phone(self, i, plan, seats[i + 1]) for i, plan in enumerate(plans)]
            loop = asyncio.get_running_loop()
            background = [loop.create_task(self.meter.sample()), loop.create_task(self.meter.watch_lag())]
            self.log.clear()
            self.meter.mark("ready")

            # 1. Joining, at join_rate phones a second, JOIN_IN_FLIGHT at most at once.
            start = time.perf_counter()
            in_flight = asyncio.Semaphore(JOIN_IN_FLIGHT)

            async def join(phone: Phone) -> None:
                await asyncio.sleep(phone.index / options.join_rate)
                async with in_flight:
                    await phone.join(self.code)

            await asyncio.gather(*(join(p) for p in phones))
            joined_in = time.perf_counter() - start
            self.meter.mark("joined")

            # 2. Every stream at once.
            streams_start = time.perf_counter()
            for phone in phones:
                phone.open_stream()
            stream_deadline = streams_start + STREAM_WAIT_SECONDS
            joined = [p for p in phones if p.page is not None]
            while time.perf_counter() < stream_deadline and not all(
                p.heard is not None or p.polling for p in joined
            ):
                await asyncio.sleep(0.02)
            self.meter.mark("streams")

            # 3. The round opens; the phones see it and reload their panels.
            opened_call = time.perf_counter()
            opened = await arbitrator.call(
                "POST", "rounds/current/open/", body={"seconds": round(options.lead + options.window)}
            )
            opened_back = time.perf_counter()
            deadline = parse_time(opened["deadline"])
            assert deadline is not None
            self.meter.mark("opened")
            schedule = send_times(len(phones), deadline, options.window, self.rng)
            wall_to_loop = loop.time() - time.time()
            for phone, at in zip(phones, schedule, strict=True):
                phone.slip.scheduled = at
                loop.call_at(at + wall_to_loop, phone.submit)
            await asyncio.sleep(max(0.0, deadline - options.window - time.time()))
            self.meter.mark("window")
            await asyncio.sleep(max(0.0, deadline - time.time()))
            self.meter.mark("deadline")

            # 4. The close, just after the deadline, then every ruling.
            await asyncio.sleep(max(0.0, deadline + options.close_after - time.time()))
            close = await self._close(arbitrator)
            self.meter.mark("closed")
            give_up = close["sent"] + AFTER_CLOSE_SECONDS
            ruled = await self._wait_ruled(arbitrator, phones, close["sent"], give_up)
            self.meter.mark("ruled")
            # Every phone stopped, its requests on the way cancelled, before the server's
            # slips are read: an acknowledgement after the reading would count as lost.
            await asyncio.gather(*(p.stop() for p in phones), return_exceptions=True)
            ruled["read"] = time.perf_counter() - close["sent"]
            stored_body = await self._settled_slips(arbitrator)
            rulings: dict[int, int | None] | None = None
            reasons: Counter[str] = Counter()
            current = await arbitrator.current_round()
            ruled["final_state"] = current["state"] if current else "none"
            if ruled["final_state"] == "adjudicated":
                review = await arbitrator.call("GET", "rounds/current/review/")
                rulings = {int(r["player"]["table"]): (r["slip"] or {}).get("id") for r in review["rulings"]}
                reasons.update(str(r["reason"]) for r in review["rulings"])
            for task in background:
                task.cancel()
            actions: dict[str, Any] = {}
            if options.actions and ruled["final_state"] == "adjudicated":
                actions = await console.play(arbitrator, phones, login, options.actions, self.log, self.rng)
            return self._report(
                phones=phones,
                measured=measured,
                event=event,
                deadline=deadline,
                joined_in=joined_in,
                streams_start=streams_start,
                opened_at=(opened_call, opened_back),
                close=close,
                ruled=ruled,
                stored_body=stored_body,
                rulings=rulings,
                reasons=reasons,
                actions=actions,
            )
        finally:
            for task in background:
                task.cancel()
            await asyncio.gather(*(p.stop() for p in phones), return_exceptions=True)
            await arbitrator.close()

    async def _settled_slips(self, arbitrator: Arbitrator) -> list[dict[str, Any]]:
        """The round's slips once two readings SETTLE_SECONDS apart agree (a request the
        phones gave up on may still be stored), within SETTLE_TIMEOUT."""
        slips: list[dict[str, Any]] = await arbitrator.call("GET", "rounds/current/slips/", kind="verify")
        until = time.monotonic() + SETTLE_TIMEOUT
        while time.monotonic() < until:
            await asyncio.sleep(SETTLE_SECONDS)
            again: list[dict[str, Any]] = await arbitrator.call("GET", "rounds/current/slips/", kind="verify")
            if len(again) == len(slips):
                return again
            slips = again
        return slips

    async def _close(self, arbitrator: Arbitrator) -> dict[str, Any]:
        """The arbitrator's click; again (three times at most) while the round stays open."""
        sent, sent_wall = time.perf_counter(), time.time()
        answer = await arbitrator.answer("POST", "rounds/current/close/")
        clicks = 1
        while answer.status != 200 and clicks < 3:
            state = await arbitrator.current_round()
            if state is None or state["state"] != "open":
                break
            await asyncio.sleep(1.0)
            answer = await arbitrator.answer("POST", "rounds/current/close/")
            clicks += 1
        closed_at = ""
        if answer.status == 200:
            with suppress(ValueError, KeyError, AttributeError):
                closed_at = str(answer.json().get("closed_at") or "")
        return {
            "sent": sent,
            "sent_wall": sent_wall,
            "seconds": round(time.perf_counter() - sent, 4),
            "outcome": answer.outcome,
            "clicks": clicks,
            "closed_at": closed_at,
        }

    async def _wait_ruled(
        self, arbitrator: Arbitrator, phones: Sequence[Phone], close_sent: float, give_up: float
    ) -> dict[str, Any]:
        """Until the round is adjudicated, every phone done (or given up) and the rulings
        name every in-time slip stored on time; bounded by RULING_TIMEOUT."""
        until = close_sent + RULING_TIMEOUT
        state, checks = "closed", 0
        seen_adjudicated: float | None = None
        while time.perf_counter() < until:
            if time.perf_counter() >= give_up:
                for phone in phones:
                    phone.stopped = True
            current = await arbitrator.current_round()
            back = time.perf_counter()
            state = current["state"] if current else "none"
            if state == "adjudicated" and seen_adjudicated is None:
                seen_adjudicated = back
            busy = any(p.pending is not None and not p.stopped for p in phones)
            if state == "adjudicated" and not busy:
                checks += 1
                if await self._all_ruled(arbitrator, phones):
                    first = seen_adjudicated or back
                    return {
                        "state": state,
                        "seconds": round(back - close_sent, 3),
                        "checks": checks,
                        "first_adjudicated": round(first - close_sent, 3),
                    }
                await asyncio.sleep(VERIFY_PAUSE_SECONDS)
            elif state not in ("closed", "adjudicated"):
                break
            await asyncio.sleep(STATE_POLL_SECONDS)
        return {
            "state": state,
            "seconds": None,
            "checks": checks,
            "first_adjudicated": round(seen_adjudicated - close_sent, 3) if seen_adjudicated else None,
        }

    async def _all_ruled(self, arbitrator: Arbitrator, phones: Sequence[Phone]) -> bool:
        stored = await arbitrator.call("GET", "rounds/current/slips/", kind="verify")
        answer = await arbitrator.answer("GET", "rounds/current/review/", kind="verify")
        if answer.status != 200:
            return False
        named = {(r["slip"] or {}).get("id") for r in answer.json()["rulings"]}
        on_time = [s["id"] for s in stored if s["current"] and not s["late"]]
        return all(slip_id in named for slip_id in on_time)

    def _report(
        self,
        *,
        phones: Sequence[Phone],
        measured: Mapping[str, Any],
        event: Mapping[str, Any],
        deadline: float,
        joined_in: float,
        streams_start: float,
        opened_at: tuple[float, float],
        close: Mapping[str, Any],
        ruled: Mapping[str, Any],
        stored_body: Sequence[Mapping[str, Any]],
        rulings: Mapping[int, int | None] | None,
        reasons: Counter[str],
        actions: Mapping[str, Any],
    ) -> dict[str, Any]:
        count = len(phones)
        sent = [
            Sent(
                table=p.table,
                client_id=p.slip.client_id,
                first_sent=p.slip.first_sent,
                acknowledged=p.slip.receipt is not None,
                receipt_id=(p.slip.receipt or {}).get("id"),
                receipt_late=(p.slip.receipt or {}).get("late"),
            )
            for p in phones
        ]
        stored = [
            Stored(
                id=int(s["id"]),
                table=int(s["player"]["table"]),
                client_id=str(s["client_id"]),
                late=bool(s["late"]),
                current=bool(s["current"]),
                received_at=parse_time(s.get("received_at")),
            )
            for s in stored_body
        ]
        found = account(sent, stored, deadline, rulings)
        latencies = [
            p.slip.acknowledged_perf - p.slip.first_sent_perf
            for p in phones
            if p.slip.acknowledged_perf is not None and p.slip.first_sent_perf is not None
        ]
        joined = [p for p in phones if p.page is not None]
        heard = [p.heard - streams_start for p in phones if p.heard is not None]
        all_heard = max(heard) if len(heard) == count else None
        within = sum(h <= TARGET_STREAMS_S for h in heard)
        opened_seen = [
            next((t for t in p.public_changes if t >= opened_at[0]), None)
            for p in phones
            if p.page is not None
        ]
        seen = [t - opened_at[0] for t in opened_seen if t is not None]
        lags = [lag for t, lag in self.meter.lags if self.meter.between(t, "window", "closed")]
        send_lags = [
            p.slip.first_sent - p.slip.scheduled
            for p in phones
            if p.slip.first_sent is not None and p.slip.scheduled is not None
        ]
        total_cpu = cpu_delta(self.meter.marks[0].cpu, self.meter.marks[-1].cpu) if self.meter.marks else {}
        threads: dict[str, int] = defaultdict(int)
        for sample in self.meter.timeline:
            for role, n in sample["threads"].items():
                threads[role] = max(threads[role], n)
        submit = summary_s(latencies)
        adjudications = adjudication_runs(self.worker_log, close)
        # When the last adjudication before the bench found every slip ruled committed, from
        # the worker's log; without it, when the arbitrator saw it (its polling of the state
        # waits in the web server's queue like any request).
        seen_ruled = ruled["seconds"]
        bound = seen_ruled if seen_ruled is not None else ruled["read"]
        before = [a for a in adjudications if (a["received_after_close_s"] or 0) < bound]
        ruled_s: float | None = None
        if rulings is not None and found.unruled == 0:
            ruled_s = seen_ruled
            if before and all(a["ran_s"] is not None for a in before):
                ruled_s = round(max(done_after_close(a) for a in before), 3)
        rows = slip_rows(phones, deadline)
        return {
            "phones": count,
            "window_s": self.options.window,
            "round_s": round(self.options.lead + self.options.window),
            "rounds_before": self.options.rounds_before,
            "panel_reload": self.options.panels,
            "actions": dict(actions),
            "panels": {
                "pushed": sum(p.panels_pushed for p in phones),
                "asked": sum(self.log.outcomes["panel"].values()),
                "stream_mb": round(sum(p.stream_bytes for p in phones) / 1e6, 1),
            },
            "round": {
                "game": measured["game"],
                "number": measured["number"],
                "rack": measured["rack"],
                "moves": measured["move_count"],
                "top_score": measured["top_score"],
                "tops": measured["tops"],
                "notation": event["notation"],
            },
            "slip_kinds": dict(Counter(p.slip.plan.kind for p in phones)),
            "joined": len(joined),
            "join_s": round(joined_in, 2),
            "join_flow": summary_s([p.joined_seconds for p in phones if p.joined_seconds is not None]),
            "streams": {
                "connected": len(heard),
                "of": count,
                "all_connected_s": round(all_heard, 3) if all_heard is not None else None,
                "connected_within_target": within,
                "first_message": summary_s(heard),
                "polling_instead": sum(p.polling for p in phones),
                "dropped": sum(p.stream_drops for p in phones),
                "open_seen": summary_s(seen),
                "open_not_seen": len(opened_seen) - len(seen),
            },
            "slips": {
                "sent_in_time": found.sent_in_time,
                "sent_after_deadline": found.sent_after_deadline,
                "not_sent": found.not_sent,
                "acknowledged": found.acknowledged,
                "acknowledged_late": found.acknowledged_late,
                "refused": sum(bool(p.slip.refused) for p in phones),
                "refusals": dict(Counter(p.slip.refused for p in phones if p.slip.refused)),
                "gave_up": sum(
                    p.slip.first_sent is not None and not p.slip.receipt and not p.slip.refused
                    for p in phones
                ),
                "retried": sum(len(p.slip.attempts) > 1 for p in phones),
                "attempts": sum(len(p.slip.attempts) for p in phones),
                "stored": found.stored,
                "stored_not_acknowledged": found.stored_not_acknowledged,
                "unknown_stored": found.unknown_stored,
                "receipt_mismatch": found.receipt_mismatch,
            },
            "submit_latency_s": submit,
            "slip_request_s": summary_s(self.log.seconds.get("slip", [])),
            "receipt_delay_s": summary_s(found.receipt_delays),
            "in_time_ruled_late": found.in_time_ruled_late,
            "lost": found.lost,
            "lost_client_ids": found.lost_ids[:20],
            "duplicated": found.duplicated,
            "close": {
                "request_s": close["seconds"],
                "outcome": close["outcome"],
                "clicks": close["clicks"],
                "closed_after_deadline_s": round((parse_time(close["closed_at"]) or 0) - deadline, 3)
                if close["closed_at"]
                else None,
            },
            "close_to_ruled_s": ruled_s,
            "close_to_ruled_seen_s": ruled["seconds"],
            "adjudication_tasks": adjudications,
            "close_to_first_adjudicated_s": ruled["first_adjudicated"],
            "round_state": ruled.get("final_state", ruled["state"]),
            "rulings": {
                "count": sum(reasons.values()),
                "reasons": dict(reasons.most_common()),
                "in_time_slips_ruled": found.ruled,
                "in_time_slips_stored_on_time": found.in_time_stored_on_time,
                "in_time_slips_not_ruled": found.unruled,
            },
            "server_cpu_s": {
                "total": round(sum(total_cpu.values()), 2),
                "by_process": total_cpu,
                "max_threads": dict(threads),
            },
            "phases": self.meter.phases(),
            "per_slip": per_slip(self.meter.phases(), found.sent_in_time),
            "errors": self.log.errors(),
            "requests": {kind: sum(c.values()) for kind, c in sorted(self.log.outcomes.items())},
            "bench": {
                "cpu_s": round(self.meter.marks[-1].bench_cpu - self.meter.marks[0].bench_cpu, 2)
                if self.meter.marks
                else None,
                "others_cpu_s": round(sum(p["others_cpu_s"] for p in self.meter.phases()), 1),
                "cores": os.cpu_count(),
                "loop_lag_max_ms": round(1000 * max(lags), 1) if lags else None,
                "submit_lag_max_ms": round(1000 * max(send_lags), 1) if send_lags else None,
            },
            "targets": {
                "p99_below_1s": submit["p99"] is not None and submit["p99"] < TARGET_P99_S,
                "no_in_time_slip_late": found.in_time_ruled_late == 0,
                "no_lost_or_duplicated": found.lost == 0 and found.duplicated == 0,
                "streams_within_5s": within == count,
                "ruled_within_2s": ruled_s is not None and ruled_s < TARGET_RULED_S,
            },
            "by_second": by_second(rows, self.options.window),
            "slips_detail": rows,
            "timeline": self.meter.timeline,
        }
