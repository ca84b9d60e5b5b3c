"""The report as the bench prints it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bench.hall.console import report_lines
from bench.hall.figures import TARGET_P99_S, TARGET_RULED_S, TARGET_STREAMS_S, done_after_close


def _s(value: float | int | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _met(ok: bool) -> str:
    return "met" if ok else "MISSED"


def adjudication_text(runs: Sequence[Mapping[str, Any]]) -> str:
    if not runs:
        return "(no worker log read)"
    first = runs[0]
    said = f"received {_s(first['received_after_close_s'])} s after the close, ran {_s(first['ran_s'])} s"
    if len(runs) == 1:
        return said
    done = [done_after_close(a) for a in runs if a["ran_s"] is not None]
    ran = sum(a["ran_s"] for a in runs if a["ran_s"] is not None)
    again = sum(a.get("task") == "round_rule_when_quiet_task" for a in runs)
    return (
        f"{len(runs)} tasks ({again} to rule the round again once the in-time slips queued behind the close"
        f" stop coming): the first {said}; the last done {_s(max(done, default=None))} s after the close;"
        f" {ran:.1f} s of runs in all"
    )


def report_text(report: Mapping[str, Any]) -> str:
    r = report
    s, st, lat = r["slips"], r["streams"], r["submit_latency_s"]
    t = r["targets"]
    rnd = r["round"]
    lines = [
        f"Hall bench: {r['phones']} phones, slips in the last {r['window_s']:g} s of a "
        f"{r['round_s']} s round (game {rnd['game']} round {rnd['number']}, rack {rnd['rack']}, "
        f"{rnd['moves']} moves, top {rnd['top_score']})"
        + ("" if r["panel_reload"] else "; DIAGNOSTIC: no panel reloads"),
        f"  server: {r['server']['command']} ({r['server']['database']}, {r['server']['broker']}); "
        f"{r['server']['git']}; {r['machine']}",
        *(
            [
                f"  busy: {r['busy']['processes']} process(es) keeping a core busy beside the run "
                f"({r['busy']['cpu_s']:.1f} CPU s)"
            ]
            if r.get("busy", {}).get("processes")
            else []
        ),
        f"  joined {r['joined']}/{r['phones']} in {r['join_s']:.1f} s (page flow p50 "
        f"{_s(r['join_flow']['p50'], 3)} s, max {_s(r['join_flow']['max'], 3)} s)",
        f"  streams connected {st['connected']}/{st['of']}, all within "
        f"{_s(st['all_connected_s'], 2) if st['all_connected_s'] is not None else '(not all)'} s; "
        f"within {TARGET_STREAMS_S:g} s: {st['connected_within_target']} [{_met(t['streams_within_5s'])}]; "
        f"polling instead {st['polling_instead']}, dropped {st['dropped']}; round open seen p50 "
        f"{_s(st['open_seen']['p50'])} / max {_s(st['open_seen']['max'])} s",
        f"  panels at the public changes: {r['panels']['pushed']} sent by the streams, "
        f"{r['panels']['asked']} asked for by the phones; the streams carried "
        f"{r['panels']['stream_mb']} MB",
        f"  slips: {s['sent_in_time']} sent in time, {s['acknowledged']} acknowledged "
        f"({s['acknowledged_late']} as late), {s['refused']} refused, {s['gave_up']} given up, "
        f"{s['retried']} retried ({s['attempts']} attempts), {s['not_sent']} not sent, "
        f"{s['sent_after_deadline']} sent after the deadline (bench lag)",
        f"  submit latency p50 / p95 / p99 / max: {_s(lat['p50'], 3)} / {_s(lat['p95'], 3)} / "
        f"{_s(lat['p99'], 3)} / {_s(lat['max'], 3)} s [p99 < {TARGET_P99_S:g} s: {_met(t['p99_below_1s'])}]",
        f"  receipt time stored - phone's send p50 / p99 / max: {_s(r['receipt_delay_s']['p50'], 3)} / "
        f"{_s(r['receipt_delay_s']['p99'], 3)} / {_s(r['receipt_delay_s']['max'], 3)} s",
        f"  in-time slips ruled late: {r['in_time_ruled_late']} [{_met(t['no_in_time_slip_late'])}]; "
        f"lost: {r['lost']}, duplicated: {r['duplicated']} [{_met(t['no_lost_or_duplicated'])}]; "
        f"stored but not acknowledged: {s['stored_not_acknowledged']}",
        f"  close -> every ruling: {_s(r['close_to_ruled_s'])} s [< {TARGET_RULED_S:g} s: "
        f"{_met(t['ruled_within_2s'])}]; rulings {r['rulings']['count']}, in-time slips ruled "
        f"{r['rulings']['in_time_slips_ruled']}/{r['rulings']['in_time_slips_stored_on_time']}",
        f"    close request {_s(r['close']['request_s'], 3)} s ({r['close']['outcome']}); the arbitrator "
        f"saw the round adjudicated after {_s(r['close_to_first_adjudicated_s'])} s, every slip ruled "
        f"after {_s(r['close_to_ruled_seen_s'])} s",
        "    adjudication in the worker: " + adjudication_text(r["adjudication_tasks"]),
        "  by second of the window (first attempt; slips, p50 / max latency s, late): "
        + ", ".join(
            f"{b['second']:+d}: {b['slips']} {_s(b['p50'])}/{_s(b['max'])} {b['late']}"
            for b in r["by_second"]
        ),
        "  server CPU: {:.1f} s ({})".format(
            r["server_cpu_s"]["total"],
            ", ".join(f"{k} {v:.1f}" for k, v in r["server_cpu_s"]["by_process"].items()),
        ),
    ]
    if (cost := r.get("per_slip")) and cost["web_ms"] is not None:
        lines.append(
            f"  CPU a slip in the window: web {cost['web_ms']:.2f} ms, database "
            f"{cost['database_ms']:.2f} ms, broker {cost['broker_ms']:.2f} ms "
            "(PostgreSQL and Redis: the machine's, whoever else uses them)"
        )
    for phase in r["phases"]:
        lines.append(
            f"    {phase['phase']:<22} {phase['seconds']:>6.1f} s  "
            f"server CPU {_s(phase['server_cpu_pct'], 0):>4} % "
            f"of a core ({', '.join(f'{k} {v:.1f}' for k, v in phase['server_cpu_s'].items() if v)}), "
            f"bench {phase['bench_cpu_s']:.1f} s, other work {phase['others_cpu_s']:.1f} s"
        )
    errors = "; ".join(
        f"{kind}: " + ", ".join(f"{o} x{n}" for o, n in c.items()) for kind, c in r["errors"].items()
    )
    lines.append(f"  errors: {errors or 'none'}")
    if r.get("actions"):
        lines += report_lines(r["actions"])
    b = r["bench"]
    lines.append(
        f"  bench: CPU {_s(b['cpu_s'], 1)} s, event loop lag max {_s(b['loop_lag_max_ms'], 0)} ms "
        f"(window to close), submit lag max {_s(b['submit_lag_max_ms'], 0)} ms; other work on the "
        f"machine meanwhile: {b['others_cpu_s']:.1f} CPU s"
    )
    return "\n".join(lines)
