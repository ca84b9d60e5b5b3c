"""The run's verdict and figures: how each centre ended, the merged ranking checked, the
data each centre sent per round (its outbox, the wire)."""

from __future__ import annotations

import csv
import io
import sqlite3
import statistics
from collections.abc import Sequence
from contextlib import closing
from pathlib import Path
from typing import Any

from bench.multiplex.game import Centre
from bench.multiplex.relay import Relay


def end_problems(ends: Sequence[dict[str, Any] | None]) -> list[str]:
    """What is wrong with the centres' results: one line per centre that did not end
    clean, and one if the centres did not all place the same rounds and end alike."""
    problems = []
    for number, end in enumerate(ends, start=1):
        if end is None:
            problems.append(f"centre {number}: no result")
        elif end.get("waiting") != 0 or end.get("last_error") != "" or not end.get("ended"):
            problems.append(
                f"centre {number}: ended {end.get('ended')!r}, {end.get('waiting')} waiting to be sent,"
                f" last error {end.get('last_error')!r}"
            )
    outcomes = {(e["placed"], e["ended"]) for e in ends if e is not None}
    if len(outcomes) > 1:
        problems.append(f"the centres differ (rounds placed, end): {sorted(outcomes)}")
    return problems


def merged_problems(data: bytes, centres: int, players: int) -> list[str]:
    """The merged ranking CSV checked: a centre column, ``players`` rows for each of the
    ``centres`` centres."""
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"))
    if not rows or "centre" not in rows[0]:
        return [f"no centre column in the merged ranking: {rows[0] if rows else 'empty'}"]
    column = rows[0].index("centre")
    problems = []
    if len(rows) - 1 != centres * players:
        problems.append(f"{len(rows) - 1} rows in the merged ranking, not {players} x {centres}")
    per_centre: dict[str, int] = {}
    for row in rows[1:]:
        per_centre[row[column]] = per_centre.get(row[column], 0) + 1
    if len(per_centre) != centres or set(per_centre.values()) != {players}:
        problems.append(f"rows by centre: {per_centre}")
    return problems


def outbox_figures(centres: Sequence[dict[str, int]], rounds: int) -> dict[str, Any]:
    """Bytes sent per round by each centre, from the byte counts of its outbox by kind
    (the draw centre first): the mean and max over the centres, and by kind the draw
    centre's and the mean of the others'."""
    if rounds < 1 or not centres:
        return {}
    totals = [sum(kinds.values()) / rounds for kinds in centres]
    others = centres[1:] or centres
    kinds = sorted({kind for c in others for kind in c})
    return {
        "mean_b": round(statistics.mean(totals)),
        "max_b": round(max(totals)),
        "max_centre": totals.index(max(totals)) + 1,
        "draw_centre_by_kind_b": {k: round(v / rounds) for k, v in sorted(centres[0].items())},
        "others_by_kind_mean_b": {
            k: round(statistics.mean(c.get(k, 0) for c in others) / rounds) for k in kinds
        },
    }


def outbox_bytes(database: Path) -> tuple[dict[str, int], dict[str, int], int]:
    """A centre's outbox: payload bytes by kind, the results payloads' bytes by round, and
    the POSTs made (every attempt)."""
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        # The payload is the JSON text Django stored, json.dumps as the centre posts it:
        # its length is the request's body.
        rows = db.execute(
            "SELECT kind, game, number, length(CAST(payload AS BLOB)), attempts FROM tournaments_huboutbox"
        ).fetchall()
    kinds: dict[str, int] = {}
    results: dict[str, int] = {}
    for kind, game, number, size, _attempts in rows:
        kinds[kind] = kinds.get(kind, 0) + size
        if kind == "results":
            results[f"{game}.{number}"] = size
    return kinds, results, sum(row[4] for row in rows)


def data_sent(centres: list[Centre], relay: Relay, rounds: int, players: int) -> dict[str, Any]:
    counted = [outbox_bytes(c.database) for c in centres]
    sent = outbox_figures([kinds for kinds, _results, _posts in counted], rounds)
    results = [size for _kinds, by_round, _posts in counted for size in by_round.values()]
    per_round = [
        (relay.up[i] / rounds, relay.down[i] / rounds, relay.connections[i] / rounds)
        for i in range(len(centres))
    ]
    return {
        "payload_per_round": sent,
        "results_round_b": {"mean": round(statistics.mean(results)), "max": max(results)} if results else {},
        "results_per_player_b": round(statistics.mean(results) / players) if results else None,
        "posts_per_round_mean": round(statistics.mean(posts for _k, _r, posts in counted) / rounds, 2),
        "wire_per_round": {
            "up_mean_b": round(statistics.mean(u for u, _d, _n in per_round)),
            "up_max_b": round(max(u for u, _d, _n in per_round)),
            "down_mean_b": round(statistics.mean(d for _u, d, _n in per_round)),
            "down_max_b": round(max(d for _u, d, _n in per_round)),
            "requests_mean": round(statistics.mean(n for _u, _d, n in per_round), 1),
            "requests_max": round(max(n for _u, _d, n in per_round), 1),
        },
    }
