"""The report as the bench prints it."""

from __future__ import annotations

from typing import Any

from bench.multiplex.game import REPEAT


def kb(value: float) -> str:
    return f"{value / 1000:.1f} kB" if value >= 1000 else f"{value:.0f} B"


def report_text(r: dict[str, Any]) -> str:
    game, merged, sent = r["game"], r["merged_ranking"], r["data"]
    payload, wire = sent["payload_per_round"], sent["wire_per_round"]
    rounds = r["rounds"] or 1
    lines = [
        f"Multiplex: {r['centres']} centres x {r['players']} players ({r['centres'] * r['players']} in all),"
        f" seed {r['seed']}",
        f"hub: manage.py serve on {r['hub']}; centres: SQLite each, multiplex_play (tasks in its process)",
        f"machine: {r['machine']}; 1-min load {r['load_before']:.2f} before, during the game"
        f" mean {game['load_1min']['mean']:.2f} max {game['load_1min']['max']:.2f}",
        f"setup: {r['setup_s']:.0f} s",
        f"game: {r['rounds']} rounds placed, ended ({r['ended']}); wall {game['wall_s']:.1f} s"
        f" ({game['wall_s'] / rounds:.1f} s a round); the centres took {game['centre_s'].get('min', 0):.1f}"
        f" to {game['centre_s'].get('max', 0):.1f} s (the draw centre {game['draw_centre_s']} s)",
        f"CPU during the game: centres {game['cpu_s']['centres']:.0f} s, hub {game['cpu_s']['hub']:.0f} s,"
        f" the bench and its relays {game['cpu_s']['bench']:.0f} s"
        f" ({game['cpus_busy']} CPUs busy on average)",
        f"merged ranking after the last round: `export standings` {merged['command_s']:.2f} s in all"
        f" (Django start-up included); computed in the hub's process (median of {REPEAT}):"
        f" multiplex_standings {merged['standings_median_ms']:.0f} ms"
        f" (first {merged['standings_first_ms']:.0f}),"
        f" the CSV {merged['csv_median_ms']:.0f} ms (first {merged['csv_first_ms']:.0f})",
        f"merged CSV: {'ok' if not r['merged_problems'] else '; '.join(r['merged_problems'])}",
        "data sent per centre per round:",
        f"  JSON payloads (outbox): mean {kb(payload['mean_b'])}, max {kb(payload['max_b'])}"
        f" (centre {payload['max_centre']})",
        "    by kind: the draw centre "
        + ", ".join(f"{k} {kb(v)}" for k, v in payload["draw_centre_by_kind_b"].items())
        + "; the others (mean) "
        + ", ".join(f"{k} {kb(v)}" for k, v in payload["others_by_kind_mean_b"].items()),
        f"  one round's results for {r['players']} players: mean {kb(sent['results_round_b']['mean'])},"
        f" max {kb(sent['results_round_b']['max'])} ({sent['results_per_player_b']} B a player);"
        f" {sent['posts_per_round_mean']} POSTs a round",
        f"  on the wire (HTTP, headers included, TCP/IP not): up mean {kb(wire['up_mean_b'])}"
        f" max {kb(wire['up_max_b'])}, down mean {kb(wire['down_mean_b'])} max {kb(wire['down_max_b'])};"
        f" requests a round mean {wire['requests_mean']} max {wire['requests_max']}"
        " (a waiting follower's polls included)",
    ]
    return "\n".join(lines)
