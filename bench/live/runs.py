"""The measured runs: N phones polling or streaming while the event changes, and the
capacity run, a few clients asking without pause."""

from __future__ import annotations

import http.client
import random
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.live.event import Fixture, change_state, public_version
from bench.live.figures import REQUIREMENT_SECONDS, Change, propagation, summary_ms
from bench.live.phones import REQUEST_TIMEOUT, Phones, join_all, poll_phone, start_all, stream_phone
from bench.live.server import HOST, Sampler, running_server

#: After the phones connect, before the measured window: every phone has had an answer.
WARMUP_TIMEOUT = 15.0
#: How long the bench waits for every phone to see a change before the next one.
SEEN_TIMEOUT = 5.0
MAX_CHANGES = 20
#: The capacity run: this many clients asking without pause, for this long each. A few
#: keep-alive connections cannot keep the server busy: each waits on runserver's small
#: packets (Nagle's algorithm against the client's delayed ACK: docs/benchmarks.md); 16 do.
HAMMER_CLIENTS = (8, 16)
HAMMER_SECONDS = 5.0
HAMMER_MAX_REQUESTS = 500_000


def run_phones(
    mode: str,
    count: int,
    fixture: Fixture,
    env: dict[str, str],
    var_dir: Path,
    seconds: float,
    every: float,
    rng: random.Random,
) -> dict[str, Any]:
    live_path = f"/live/{fixture.event_id}/"
    path = live_path if mode == "polling" else f"/live/{fixture.event_id}/stream/"
    cookies = fixture.cookies[:count]
    log = var_dir / f"server-{mode}-{count}.log"
    with running_server(env, log, live_path, cookies[0]) as server:
        idle_threads = server.status().get("Threads", 0)
        phones = Phones(count)
        hard_stop = time.perf_counter() + WARMUP_TIMEOUT + seconds + SEEN_TIMEOUT + 10
        threads = [
            threading.Thread(
                target=poll_phone,
                args=(phones, i, server.port, path, cookies[i], every, rng.uniform(0, every), hard_stop),
                daemon=True,
            )
            if mode == "polling"
            else threading.Thread(
                target=stream_phone,
                args=(phones, i, server.port, path, cookies[i], rng.uniform(0, every), hard_stop),
                daemon=True,
            )
            for i in range(count)
        ]
        try:
            start_all(threads)
            warm = time.perf_counter() + WARMUP_TIMEOUT
            while not phones.all_answered() and time.perf_counter() < warm:
                time.sleep(0.05)
            # Phones still without an answer stay in the run: what they miss is counted.
            unanswered = sum(v is None for v in phones.last)
            if unanswered == count:
                raise RuntimeError(f"no phone had an answer:\n{server.tail()}")
            if unanswered:
                print(f"    {unanswered} phones without an answer after {WARMUP_TIMEOUT:g} s", flush=True)
            time.sleep(every)  # every phone into its rhythm
            changes: list[Change] = []
            with Sampler(server) as sampler:
                start, cpu_start, own_start = time.perf_counter(), server.cpu_seconds(), time.process_time()
                end = start + seconds
                while len(changes) < MAX_CHANGES:
                    pause = rng.uniform(0.2, 1.2)  # a random moment in the phones' rhythm
                    if time.perf_counter() + pause + REQUIREMENT_SECONDS + 0.5 > end:
                        break
                    time.sleep(pause)
                    before = public_version(fixture.event_id)
                    called, committed, label = change_state(fixture)
                    changes.append(Change(called, committed, before, label))
                    wait_until = min(end, committed + SEEN_TIMEOUT)
                    while not phones.all_past(before) and time.perf_counter() < wait_until:
                        time.sleep(0.01)
                time.sleep(max(0.0, end - time.perf_counter()))
                cpu = server.cpu_seconds() - cpu_start
                window = time.perf_counter() - start
                own = time.process_time() - own_start
        finally:
            join_all(threads, phones)
    delays, missed = propagation(changes, phones.seen)
    in_window = [s for lat in phones.latencies for t, s in lat if start <= t < end]
    latencies = in_window if mode == "polling" else [s for lat in phones.latencies for _, s in lat]
    served = len(in_window) if mode == "polling" else 0
    return {
        "mode": mode,
        "phones": count,
        "window_s": round(window, 2),
        "requests_per_s": round(served / window, 1),
        "latency": summary_ms(latencies),
        "propagation": summary_ms(delays),
        "changes": len(changes),
        "change_kinds": sorted({c.label for c in changes}),
        "missed": missed,
        "within_requirement": sum(d <= REQUIREMENT_SECONDS for d in delays),
        "server_cpu_s": round(cpu, 3),
        "server_cpu_pct": round(100 * cpu / window, 1),
        "cpu_ms_per_phone_s": round(1000 * cpu / window / count, 3),
        "cpu_ms_per_request": round(1000 * cpu / served, 3) if served else None,
        "bench_cpu_pct": round(100 * own / window, 1),
        "threads_idle": idle_threads,
        "threads_max": max(sampler.threads, default=0),
        "rss_mb_max": round(max(sampler.rss_kb, default=0) / 1024, 1),
        "unanswered_at_start": unanswered,
        "errors": sum(phones.errors),
        "reconnects": sum(phones.connects) - count,
    }


def hammer(port: int, path: str, cookie: str, until: float, out: list[tuple[float, float]]) -> None:
    conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    headers = {"Cookie": cookie, "Accept": "application/json"}
    try:
        for _ in range(HAMMER_MAX_REQUESTS):
            sent = time.perf_counter()
            if sent >= until:
                return
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
            back = time.perf_counter()
            if response.status == 200:
                out.append((back, back - sent))
            if response.will_close:
                conn.close()
    except (OSError, http.client.HTTPException):
        return
    finally:
        conn.close()


def run_capacity(
    fixture: Fixture, env: dict[str, str], var_dir: Path, seconds: float, concurrency: Sequence[int]
) -> list[dict[str, Any]]:
    """One server; for each number of clients, ``seconds`` of requests without pause."""
    path = f"/live/{fixture.event_id}/"
    found: list[dict[str, Any]] = []
    with running_server(env, var_dir / "server-capacity.log", path, fixture.cookies[0]) as server:
        for clients in concurrency:
            results: list[list[tuple[float, float]]] = [[] for _ in range(clients)]
            cpu_start, own_start, start = server.cpu_seconds(), time.process_time(), time.perf_counter()
            until = start + seconds
            threads = [
                threading.Thread(
                    target=hammer,
                    args=(server.port, path, fixture.cookies[i % len(fixture.cookies)], until, results[i]),
                    daemon=True,
                )
                for i in range(clients)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=seconds + REQUEST_TIMEOUT + 5)
            window = time.perf_counter() - start
            cpu = server.cpu_seconds() - cpu_start
            own = time.process_time() - own_start
            latencies = [s for r in results for _, s in r]
            served = len(latencies)
            found.append(
                {
                    "clients": clients,
                    "window_s": round(window, 2),
                    "requests": served,
                    "requests_per_s": round(served / window, 1),
                    "latency": summary_ms(latencies),
                    "server_cpu_pct": round(100 * cpu / window, 1),
                    "bench_cpu_pct": round(100 * own / window, 1),
                    "cpu_ms_per_request": round(1000 * cpu / served, 3) if served else None,
                }
            )
    return found
