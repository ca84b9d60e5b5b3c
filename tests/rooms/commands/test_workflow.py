"""The arbitrator's terminal workflow: a whole event driven only through the commands."""

from __future__ import annotations

import json
import re

import pytest
from django.db.models import Sum

from solver.notation import format_move, parse_move
from tests.rooms.commands.helpers import PLAYERS_CSV, run
from tests.rooms.commands.helpers import fisf as _fisf
from tests.rooms.commands.helpers import last_round as _round
from tournaments.models import Event, Game, HistoryEntry, Ruling, Slip

pytestmark = pytest.mark.django_db


def test_a_whole_event_runs_from_the_terminal(tmp_path, arbitrator) -> None:
    # Create: generated setting options reach the event, the id and the code are printed.
    # The event takes the arbitrator's nearby choice for wrong references and judges the
    # first slip at its reference (not the FISF defaults), so the terminal's shifted
    # reference acceptance runs here.
    out = run(
        "event_create",
        "Club evening",
        "--date",
        "2026-11-21",
        "--language",
        "english",
        "--random-seed",
        "7",
        "--solo-min-players",
        "2",
        "--reference-rule",
        "nearby",
        "--no-first-slip-best-placement",
        "--user",
        "arbitre",
    ).out
    event = Event.objects.get()
    assert f"Event {event.pk} created" in out and f"join code: {event.code}" in out
    assert (event.lexicon.name, event.notation, event.solo_min_players, event.random_seed) == (
        "enable",
        "fisf",
        2,
        7,
    )
    assert (event.reference_rule, event.first_slip_best_placement) == ("nearby", False)
    assert event.created_by == arbitrator

    path = tmp_path / "players.csv"
    path.write_text(PLAYERS_CSV, encoding="utf-8")
    out = run("players_import", "--event", str(event.pk), str(path)).out
    assert "4 players imported" in out and "table    4  Dan Smith (category B)" in out

    # Round 1: a typed rack after a rejected one, with its tops.
    out = run(
        "round_draw", "--event", event.code, "--new-game", "--rack", "aeirstn", "--rejected", "BCDFGHJ"
    ).out
    assert "Game 1 started" in out
    assert "Game 1, round 1: rack AEIRSTN (typed)" in out and "rejected: BCDFGHJ" in out
    assert "top 66 (1089 moves, 54 equal tops)" in out and "and 48 more" in out
    assert "Round 1 open: rack AEIRSTN" in run("round_open", "--event", event.code, "--seconds", "120").out

    # Paper slips, each echoed with the computed score.
    slips = "1 H2 RETSINA 66\n2 H8 NASTIER 60\n3 H8 SNIRTEA 60\n4 G9 RETAINS 70\n"
    out = run("slips_enter", "--event", event.code, "--user", "arbitre", stdin=slips).out
    lines = out.splitlines()
    assert re.search(r"^\s+1  Anne Martin\s+H2 RETSINA\s+66 ok$", out, re.M)
    assert re.search(r"2  Bruno Petit\s+H8 NASTIER\s+announced 60: warning, 66 credited$", out, re.M)
    assert re.search(r"3  Claire Dubois\s+H8 SNIRTEA\s+0: SNIRTEA is not in the lexicon$", out, re.M)
    assert "4  Dan Smith" in out and "0: the first word must cover the centre square H8" in out
    assert "shifted reference? H8 RETAINS fits" in out
    assert lines[-1].startswith("4 slips stored (0 replacing an earlier slip); 4 of 4 tables have a slip")
    round1 = _round(event)
    stored = Slip.objects.filter(round=round1).order_by("player__table")
    assert [(s.coordinates, s.word, s.announced_score) for s in stored] == [
        ("H2", "RETSINA", 66),
        ("H8", "NASTIER", 60),
        ("H8", "SNIRTEA", 60),
        ("G9", "RETAINS", 70),
    ]
    assert {(s.source, s.entered_by) for s in stored} == {(Slip.Source.PAPER, arbitrator)}

    # A table typed again must say what the new slip is; "fix" replaces the first (a
    # typing mistake corrected).
    refused = run("slips_enter", "--event", event.code, stdin="2 h8,a,nastier\n", fails="1 line refused")
    assert "table 2 already has a slip for this round" in refused.err and "corrects a typing" in refused.err
    out = run("slips_enter", "--event", event.code, stdin="2 fix h8,a,nastier\n").out
    assert "no score announced: warning, 66 credited  (replaces H8 NASTIER 60)" in out
    assert Slip.objects.get(round=round1, player__table=2, current=True).coordinates == "h8,a"

    out = run("round_close", "--event", event.code).out
    assert "Round 1 closed; missing slips: none" in out
    assert "2 valid (2 on the top 66, 0 with a penalty), 2 invalid (1 possible shifted references)" in out

    # Review, grouped by move; the top finders are named.
    out = run("rulings", "--event", event.code, "--players").out
    assert re.search(r"66\s+1\s+H8 NASTIER\s+TOP 2 Bruno Petit", out)
    assert re.search(r"66\s+1\s+H2 RETSINA\s+TOP 1 Anne Martin", out)
    assert "2 Bruno Petit: no score announced: warning" in out
    assert "Invalid, 0 (2):" in out and "3 Claire Dubois: H8 SNIRTEA 60: SNIRTEA is not in the lexicon" in out
    assert "--accept-shift 4" in out and "Missing (0): none" in out

    # Corrections: a reason is required, then kept with the old and new values.
    run("rulings", "--event", event.code, "--override", "3", "--credited", "10", fails="--reason")
    out = run(
        "rulings",
        "--event",
        event.code,
        "--override",
        "3",
        "--credited",
        "10",
        "--reason",
        "misread",
        "--user",
        "arbitre",
    ).out
    assert "credited 0 -> 10" in out and "3 Claire Dubois: 10 credited by arbitre: misread" in out
    entry = HistoryEntry.objects.get(entity="ruling", action="override", reason="misread")
    assert entry.actor_label == "arbitre" and (entry.old["credited"], entry.new["credited"]) == (0, 10)
    out = run(
        "rulings",
        "--event",
        event.code,
        "--accept-shift",
        "4",
        "--reason",
        "reference one row off",
        "--user",
        "arbitre",
    ).out
    assert "shifted reference accepted, H8 RETAINS scores 66; credited 0 -> 61 (penalty 5)" in out
    ruling = Ruling.objects.get(round=round1, player__table=4)
    assert (ruling.credited, ruling.penalty, ruling.reason) == (61, 5, "shift_accepted")

    # The top: a lower move needs a confirmation; a number picks among the equal tops.
    run("top_choose", "--event", event.code, "H8", "AT", fails="confirm to place a lower move")
    run("top_choose", "--event", event.code, "99", fails="choose 1 to 54")
    assert "1. H2 ANESTRI  <- chosen" in run("top_choose", "--event", event.code).out
    out = run("top_choose", "--event", event.code, "5").out
    assert out.startswith("Round 1: H2 RETAINS 66 will be placed (top 66)")

    out = run("round_place", "--event", event.code).out
    assert "Round 1 placed: H2 RETAINS 66 (top 66)" in out
    round2 = _round(event)
    assert round2.number == 2 and f"Game 1, round 2: rack {round2.rack}" in out
    assert round2.tops and f"top {round2.top_score}" in out

    # Round 2: a top in FISF, a blank slip, the top in the scramble form, one slip missing.
    run("round_open", "--event", event.code)
    top = parse_move(round2.tops[0], "gcg")
    slips = (
        f"1 {format_move(top, 'fisf')} {round2.top_score}\n"
        "2 -\n"
        f"3 {format_move(top, 'scramble')} {round2.top_score}\n"
    )
    out = run("slips_enter", "--event", event.code, stdin=slips).out
    assert f"{round2.top_score} ok" in out and "0: the slip is blank" in out
    assert "missing: 4" in out.splitlines()[-1]
    run("round_close", "--event", event.code)
    out = run("rulings", "--event", event.code).out
    assert "Blank slips (1): 2 Bruno Petit" in out and "Missing (1): 4 Dan Smith" in out
    assert re.search(rf"{round2.top_score}\s+2\s+\S+ \S+\s+TOP 1 Anne Martin, 3 Claire Dubois", out)
    out = run("round_place", "--event", event.code, "--no-draw").out
    assert f"Round 2 placed: {_fisf(round2.tops[0])}" in out and "next: round_draw" in out

    # Standings: the text table and the JSON agree with the rulings.
    out = run("standings", "--event", event.code).out
    top_total = 66 + round2.top_score
    assert f"Standings: Club evening, 1 game (top total {top_total})" in out
    assert re.search(
        r"^\s+1  Anne Martin\s+Paris\s+A\s+" + str(top_total) + r"\s+0\s+100\.00\s+2\s+0", out, re.M
    )
    data = json.loads(run("standings", "--event", event.code, "--json").out)
    assert data["top_total"] == top_total
    for row in data["rows"]:
        credited = Ruling.objects.filter(player_id=row["player"]["id"]).aggregate(s=Sum("credited"))["s"]
        assert row["total"] == credited
    by_name = {r["player"]["name"]: r for r in data["rows"]}
    assert by_name["Claire Dubois"]["total"] == 10 + round2.top_score
    assert by_name["Dan Smith"]["penalties"] == 5 and by_name["Bruno Petit"]["warnings"] == 1
    out = run("standings", "--event", event.code, "--game", "1", "--category", "B").out
    assert "category B" in out and "Bruno Petit" in out and "Anne Martin" not in out

    # The next rack shows what stays on the rack (reliquat) and what was drawn.
    out = run("round_draw", "--event", event.code).out
    round3 = _round(event)
    shown = f"{round3.reliquat}+{round3.new_tiles}" if round3.reliquat else round3.new_tiles
    assert f"Game 1, round 3: rack {shown}" in out

    # A drawn rack never played stays in the record when the arbitrator stops the game.
    out = run("game_end", "--event", event.code, "--reason", "stopped").out
    assert "Game 1 ended (stopped by the arbitrator): 2 rounds placed" in out
    out = run("event_status", "--event", event.code).out
    assert "Game 1 (ended: stopped by the arbitrator)" in out and "next: round_draw --new-game" in out
    assert Game.objects.get(event=event).state == Game.State.ENDED
