"""The runs' figures as the bench prints them, and the conclusion they point to."""

from __future__ import annotations

import statistics
from typing import Any

from bench.live.figures import REQUIREMENT_SECONDS


def _triple(summary: dict[str, float | int]) -> str:
    return f"{summary['median_ms']:.0f} / {summary['p95_ms']:.0f} / {summary['max_ms']:.0f}"


def table(runs: list[dict[str, Any]]) -> str:
    head = (
        f"{'mode':<8} {'phones':>6} {'req/s':>7} {'latency ms':>17} {'propagation ms':>18} "
        f"{'<=2 s':>10} {'CPU %':>6} {'CPU ms/phone/s':>14} {'threads':>7} {'RSS MB':>7} {'errors':>6}"
    )
    lines = [head, "-" * len(head)]
    for r in runs:
        total = r["propagation"]["n"] + r["missed"]
        lines.append(
            f"{r['mode']:<8} {r['phones']:>6} {r['requests_per_s'] if r['mode'] == 'polling' else '-':>7} "
            f"{_triple(r['latency']):>17} {_triple(r['propagation']):>18} "
            f"{str(r['within_requirement']) + '/' + str(total):>10} {r['server_cpu_pct']:>6} "
            f"{r['cpu_ms_per_phone_s']:>14} {r['threads_max']:>7} {r['rss_mb_max']:>7} "
            f"{r['errors'] + r['reconnects']:>6}"
        )
    return "\n".join(lines)


def _meets(run: dict[str, Any]) -> bool:
    return bool(run["missed"] == 0 and run["propagation"]["max_ms"] <= 1000 * REQUIREMENT_SECONDS)


def _sizes(runs: list[dict[str, Any]]) -> str:
    return ", ".join(str(r["phones"]) for r in runs)


def conclusion(runs: list[dict[str, Any]], capacity: list[dict[str, Any]], every: float) -> str:
    """The closing line: which way the figures point, with the figures that say so."""
    polling = [r for r in runs if r["mode"] == "polling"]
    streams = [r for r in runs if r["mode"] == "sse"]
    best = max(capacity, key=lambda c: c["requests_per_s"])
    ceiling = (
        f"one runserver process answers at most about {int(best['requests_per_s'] * every)} polls a second"
    )
    if not polling or not streams:
        shown = polling or streams
        met = [r for r in shown if _meets(r)]
        short = [r for r in shown if not _meets(r)]
        said = [f"met at {_sizes(met)} phones"] if met else []
        said += [f"missed at {_sizes(short)} phones"] if short else []
        return (
            f"Conclusion: {shown[0]['mode'] if shown else 'nothing measured'}: the "
            f"{REQUIREMENT_SECONDS:g} s requirement {' and '.join(said)}; {ceiling}."
        )
    poll_cpu = statistics.median(r["cpu_ms_per_phone_s"] for r in polling)
    sse_cpu = statistics.median(r["cpu_ms_per_phone_s"] for r in streams)
    sse_worst = max(r["propagation"]["max_ms"] for r in streams)
    threads = max(streams, key=lambda r: r["phones"])
    passed = [r for r in polling if _meets(r)]
    failed = [r for r in polling if not _meets(r)]
    cost = (
        f"SSE needs {poll_cpu / sse_cpu:.0f}x less server CPU per phone "
        f"({sse_cpu:.2f} against {poll_cpu:.2f} ms a second) and holds one thread per phone "
        f"({threads['threads_max']} for {threads['phones']}, as many as keep-alive polling on runserver)"
    )
    if not failed:
        return (
            f"Conclusion: polling will do: it met the {REQUIREMENT_SECONDS:g} s requirement at "
            f"{_sizes(polling)} phones (worst {max(r['propagation']['max_ms'] for r in polling):.0f} ms, "
            f"SSE {sse_worst:.0f} ms); {cost}; {ceiling}."
        )
    worst = max(failed, key=lambda r: r["propagation"]["max_ms"])
    head = (
        f"polling every {every:g} s met the {REQUIREMENT_SECONDS:g} s requirement at {_sizes(passed)} phones"
        if passed
        else f"polling every {every:g} s never met the {REQUIREMENT_SECONDS:g} s requirement"
    )
    missed = (
        f"not at {_sizes(failed)} (p95 {worst['propagation']['p95_ms']:.0f} ms, worst "
        f"{worst['propagation']['max_ms']:.0f} ms, server CPU {worst['server_cpu_pct']:.0f} % of the one "
        f"core a Python process can use)"
    )
    if all(_meets(r) for r in streams):
        verdict = f"SSE met it at {_sizes(streams)} phones (worst {sse_worst:.0f} ms)"
    else:
        verdict = f"SSE missed it too (worst {sse_worst:.0f} ms)"
    return f"Conclusion: {head} but {missed}; {ceiling}; {verdict}; {cost}."


def capacity_line(found: dict[str, Any]) -> str:
    return (
        f"capacity, {found['clients']:>2} keep-alive clients without pause for {found['window_s']} s: "
        f"{found['requests_per_s']} req/s, latency {_triple(found['latency'])} ms, "
        f"server CPU {found['server_cpu_pct']} %, bench CPU {found['bench_cpu_pct']} %, "
        f"{found['cpu_ms_per_request']} ms server CPU per request"
    )
