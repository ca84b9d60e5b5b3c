"""The arbitrator's terminal workflow: a whole event driven only through the commands,
and every refusal the commands add on top of the services."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import Sum
from django.utils import timezone

from rooms.management.commands.event_create import SETTING_FIELDS
from rooms.management.commands.event_create import Command as EventCreate
from rooms.management.commands.slips_enter import SlipLine, SlipLineError, parse_slip_line
from solver.notation import format_move, parse_move
from tournaments import services
from tournaments.models import Event, Game, HistoryEntry, Lexicon, Round, Ruling, Slip

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS_CSV = (
    "name;club;category;table\n"
    "Anne Martin;Paris;A;1\n"
    "Bruno Petit;Lyon;B;2\n"
    "Claire Dubois;Paris;A;3\n"
    "Dan Smith;;B;4\n"
)


@dataclass
class Output:
    out: str
    err: str


def run(name: str, *args: str, stdin: str | io.StringIO | None = None, fails: str | None = None) -> Output:
    """Run a command; ``fails`` is the CommandError message expected (a regex)."""
    out, err = io.StringIO(), io.StringIO()
    kwargs: dict[str, object] = {"stdout": out, "stderr": err}
    if stdin is not None:
        kwargs["stdin"] = io.StringIO(stdin) if isinstance(stdin, str) else stdin
    if fails is None:
        call_command(name, *args, **kwargs)
    else:
        with pytest.raises(CommandError, match=fails):
            call_command(name, *args, **kwargs)
    return Output(out.getvalue(), err.getvalue())


@pytest.fixture
def arbitrator():
    return get_user_model().objects.create_user("arbitre", password="x")


def _create(*extra: str) -> Event:
    out = run("event_create", "Club evening", "--date", "2026-11-21", "--language", "english", *extra).out
    code = re.search(r"join code: (\w+)", out)
    assert code is not None
    return Event.objects.get(code=code[1])


@pytest.fixture
def event(tmp_path, arbitrator) -> Event:
    """An English event in FISF notation (the slips read H4 WORD) with four players."""
    event = _create("--random-seed", "7")
    path = tmp_path / "players.csv"
    path.write_text(PLAYERS_CSV, encoding="utf-8")
    run("players_import", "--event", event.code, str(path))
    return event


def _round(event: Event) -> Round:
    return Round.objects.filter(game__event=event).order_by("game__number", "number").last()


def _fisf(gcg: str) -> str:
    return format_move(parse_move(gcg, "gcg"), "fisf")


# ------------------------------------------------------------------ a whole event


def test_a_whole_event_runs_from_the_terminal(tmp_path, arbitrator) -> None:
    # Create: generated setting options reach the event, the id and the code are printed.
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

    # A slip typed again replaces the first (a typing mistake corrected).
    out = run("slips_enter", "--event", event.code, stdin="2 h8,a,nastier\n").out
    assert "no score announced: warning, 66 credited  (replaces H8 NASTIER 60)" in out
    assert Slip.objects.get(round=round1, player__table=2, current=True).coordinates == "h8,a"

    out = run("round_close", "--event", event.code).out
    assert "Round 1 closed; missing slips: none" in out
    assert "2 valid (2 on the top 66), 2 invalid (1 possible shifted references)" in out

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


# ------------------------------------------------------------------ event_create


def test_every_event_setting_is_an_option_with_the_model_default() -> None:
    parser = EventCreate().create_parser("manage.py", "event_create")
    options = {s for action in parser._actions for s in action.option_strings}
    for name in services.EVENT_SETTINGS:
        assert "--" + name.replace("_", "-") in options
    assert "--no-first-move-horizontal" in options
    assert {f.name for f in SETTING_FIELDS} == set(services.EVENT_SETTINGS)
    assert "(default: 50)" in parser.format_help() and "(default: random)" in parser.format_help()


def test_event_create_passes_the_settings_given_and_keeps_the_defaults() -> None:
    event = _create(
        "--bingo-bonus", "40", "--no-first-move-horizontal", "--notation", "gcg", "--score-policy", "english"
    )
    assert (event.bingo_bonus, event.first_move_horizontal, event.notation, event.score_policy) == (
        40,
        False,
        "gcg",
        "english",
    )
    assert (event.free_warnings, event.solo_bonus, event.mode, event.lexicon.name) == (
        3,
        10,
        "tournament",
        "enable",
    )
    assert _create("--language", "french").lexicon.name == "french"


def test_event_create_refusals() -> None:
    run("event_create", "E", "--date", "21/11/2026", fails="is not a date: write YYYY-MM-DD")
    run("event_create", "E", "--no-smooth", fails="nosmooth")
    run("event_create", "E", "--early-vowels", "5", "--early-consonants", "5", fails="minimums")
    run("event_create", "E", "--notation", "eliot", fails="invalid choice")
    run("event_create", "E", "--user", "nobody", fails="no user named 'nobody'")
    run("event_create", "E", "--lexicon", "/nonexistent/ods.txt", fails="no word list file")
    assert not Event.objects.exists()


def test_event_create_imports_a_word_list_and_prints_its_report(tmp_path) -> None:
    words = tmp_path / "club.txt"
    words.write_text("cœur\nQI\nzoo\npomme-de-terre\nqi\n", encoding="utf-8")
    out = run("event_create", "Club", "--lexicon", str(words)).out
    assert "Lexicon club imported:" in out and "3 words kept, 1 duplicates" in out
    assert "skipped 1" in out and "pomme-de-terre" in out
    assert Event.objects.get().lexicon.name == "club"
    # The same file again: the stored list is reused, not refused for its name.
    assert "already imported" in run("event_create", "Club 2", "--lexicon", str(words)).out
    words.write_text("other\nwords\n", encoding="utf-8")
    run("event_create", "Club 3", "--lexicon", str(words), fails="--lexicon-name")
    out = run("event_create", "Club 3", "--lexicon", str(words), "--lexicon-name", "club-v2").out
    assert "Lexicon club-v2 imported" in out
    empty = tmp_path / "empty.txt"
    empty.write_text("a-b\n1234\n", encoding="utf-8")
    run("event_create", "Club 4", "--lexicon", str(empty), fails="no usable word")
    assert not Lexicon.objects.filter(name="empty").exists()


# ------------------------------------------------------------------ players


def test_players_import_refusals(event: Event, tmp_path) -> None:
    run("players_import", "--event", event.code, str(tmp_path / "none.csv"), fails="cannot read")
    bad = tmp_path / "bad.csv"
    bad.write_text("name,table\nEve,1\n", encoding="utf-8")
    run("players_import", "--event", event.code, str(bad), fails="line 2: table 1 already has a player")
    bad.write_text("nom,club\nEve,Paris\n", encoding="utf-8")
    run("players_import", "--event", event.code, str(bad), fails="'name' column")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("name\nHélène\n".encode("latin-1"))
    assert "table    5  Hélène" in run("players_import", "--event", event.code, str(latin)).out


def test_players_import_refuses_a_binary_file_and_a_csv_error(event: Event, tmp_path) -> None:
    before = event.players.count()
    sheet = tmp_path / "players.xlsx"
    # A spreadsheet saved as .xlsx (a zip): Latin-1 would decode it, as garbage.
    sheet.write_bytes(b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00name\xff\xfe\n")
    run(
        "players_import",
        "--event",
        event.code,
        str(sheet),
        fails=r"cannot read .*players\.xlsx: not a CSV text file \(control character 0x03 on line 1\)",
    )
    huge = tmp_path / "huge.csv"
    huge.write_text("name\nZoe\n" + "A" * 200_000 + "\n", encoding="utf-8")
    run(
        "players_import",
        "--event",
        event.code,
        str(huge),
        fails=r"cannot read .*huge\.csv: field larger than field limit",
    )
    assert event.players.count() == before  # all or nothing: Zoe is not imported either


# ------------------------------------------------------------------ refusals of the round commands


def test_unknown_event_user_and_no_game(event: Event) -> None:
    run("round_open", "--event", "NOPE99", fails="no event with id or join code 'NOPE99'")
    run("round_open", "--event", "999999", fails="no event with id or join code")
    # isdigit() is True for these, int() refuses them: no traceback, the usual refusal.
    run("round_open", "--event", "²", fails="no event with id or join code '²'")
    run("round_open", "--event", "9" * 5000, fails="no event with id or join code")
    run("round_open", "--event", "9" * 30, fails="no event with id or join code")
    run("round_open", "--event", event.code.lower(), fails="no game is being played")
    run("round_draw", "--event", event.code, fails="add --new-game to start game 1")
    run("round_draw", "--event", event.code, "--user", "ghost", fails="no user named 'ghost'")
    run("slips_enter", "--event", event.code, stdin="1 H4 WORD 3\n", fails="no game is being played")
    run("rulings", "--event", event.code, fails="no game has been started")
    run("game_end", "--event", event.code, "--reason", "stopped", fails="no game is being played")
    run("round_draw", "--event", event.code, "--rejected", "BCDFGHJ", fails="--rejected goes with --rack")


def test_a_refused_rack_gives_the_reason_and_starts_no_game(event: Event) -> None:
    run(
        "round_draw", "--event", event.code, "--new-game", "--rack", "ZZAEIRT", fails="no second Z in the bag"
    )
    run("round_draw", "--event", event.code, "--new-game", "--rack", "BCDFGHA", fails="at least 2 vowels")
    assert not event.games.exists()
    run("round_draw", "--event", event.code, "--new-game")
    run("round_draw", "--event", event.code, "--new-game", fails="game 1 is still being played")
    run("round_draw", "--event", event.code, fails="round 1 is not placed yet")


def test_each_step_refuses_a_round_in_the_wrong_state(event: Event) -> None:
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    code = event.code
    run("round_close", "--event", code, fails="round 1 is not open yet: open it with round_open")
    run("slips_enter", "--event", code, stdin="1 H8 RETAINS 66\n", fails="round 1 is not open yet")
    run("round_place", "--event", code, fails="round 1 is drawn: open it")
    run("rulings", "--event", code, fails="no round of game 1 has been ruled yet")
    run("rulings", "--event", code, "--round", "1", fails="round 1 is drawn: it is ruled when it closes")
    run("rulings", "--event", code, "--round", "7", fails="game 1 has no round 7")
    run("round_open", "--event", code, "--seconds", "0", fails="--seconds must be a positive")
    run("round_open", "--event", code, "--seconds", "-5", fails="--seconds must be a positive")
    run("round_open", "--event", code, "--seconds", "86401", fails="at most 86400")
    run("round_open", "--event", code, "--seconds", str(10**30), fails="at most 86400")
    run("round_open", "--event", code)
    run("round_open", "--event", code, fails="round 1 is open, it cannot be opened")
    run("round_place", "--event", code, fails="round 1 is open: close it with round_close first")
    run("game_end", "--event", code, "--reason", "stopped", fails="round 1 is still open")
    run("round_close", "--event", code)
    run("round_close", "--event", code, fails="round 1 is adjudicated, it cannot be closed")
    run("slips_enter", "--event", code, stdin="1 H8 RETAINS 66\n", fails="round 1 is adjudicated: slips can")
    run("top_choose", "--event", code, "H8", "QQQQ", fails="there is no Q in the rack")
    run("top_choose", "--event", code, "H8", "AEIRSTN", fails="AEIRSTN is not in the lexicon")
    run(
        "rulings",
        "--event",
        code,
        "--override",
        "9",
        "--credited",
        "1",
        "--reason",
        "x",
        fails="no player at table 9",
    )
    run("rulings", "--event", code, "--override", "1", "--reason", "x", fails="say what changes")
    run("rulings", "--event", code, "--credited", "1", fails="go with --override")
    run("rulings", "--event", code, "--reason", "x", fails="--reason goes with")
    run("rulings", "--event", code, "--override", "1", "--penalty", "-5", "--reason", "x", fails="negative")
    run("rulings", "--event", code, "--accept-shift", "1", "--reason", "x", fails="no nearby placement")
    run("rulings", "--event", code, "--game", "4", fails="has no game 4")
    run("game_end", "--event", code, "--reason", "no_move", fails="round 1 has 1089 legal moves")
    run("standings", "--event", code, "--game", "3", fails="has no game 3")
    run(
        "standings",
        "--event",
        code,
        "--category",
        "Z",
        fails=r"no player in category 'Z' \(categories: A, B\)",
    )


# ------------------------------------------------------------------ slips_enter


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12 H4 WORD 34", SlipLine(12, "H4", "WORD", 34)),
        ("12 H4 WORD", SlipLine(12, "H4", "WORD", None)),
        ("  7   8d   oXYDANtE  0 ", SlipLine(7, "8d", "oXYDANtE", 0)),
        ("12 h8,a,word 34", SlipLine(12, "h8,a", "word", 34)),
        ("12 h8, a, word", SlipLine(12, "h8,a", "word", None)),
        ("12 -", SlipLine(12, "", "", None)),
        ("12 H4 WORD 9999", SlipLine(12, "H4", "WORD", 9999)),
        ("12 H4 WORD 0034", SlipLine(12, "H4", "WORD", 34)),
    ],
)
def test_slip_lines_are_read(text: str, expected: SlipLine) -> None:
    assert parse_slip_line(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x H4 WORD", "'x' is not a table number"),
        ("12", "the move is missing"),
        ("12 H4", "'H4' is not coordinates and a word"),
        ("12 H4 34", "'H4' is not coordinates and a word"),
        ("12 H4 WORD 3A", "unexpected text"),
        ("12 H4 WORD -3", "cannot be negative"),
        ("12 h8,word 3", "the scramble form is h8,a,word"),
        ("² 8H PROOF", "'²' is not a table number"),
        ("1² 8H PROOF", "'1²' is not a table number"),
        ("9" * 5000 + " 8H PROOF", "is not a table number"),
        ("12 H4 WORD 10000", r"the announced score 10000 is not a score \(0 to 9999\)"),
        ("12 H4 WORD " + "9" * 5000, r"is not a score \(0 to 9999\)"),
    ],
)
def test_malformed_slip_lines_are_refused(text: str, message: str) -> None:
    with pytest.raises(SlipLineError, match=message):
        parse_slip_line(text)


@pytest.fixture
def open_round(event: Event) -> Round:
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    run("round_open", "--event", event.code)
    return _round(event)


def test_bad_lines_are_refused_and_the_others_stored(event: Event, open_round: Round) -> None:
    lines = "x H4 WORD\n1 H8 RETAINS 66\n9 H8 RETAINS 66\n\n# comment\n2 H4\n3 - \n"
    out = run("slips_enter", "--event", event.code, stdin=lines, fails=r"3 lines refused \(line 1, 3, 6\)")
    assert "line 1: 'x' is not a table number" in out.err and "(nothing stored)" in out.err
    assert "line 3: no player at table 9" in out.err and "line 6: table 2:" in out.err
    assert "66 ok" in out.out and "0: the slip is blank" in out.out
    assert sorted(Slip.objects.filter(round=open_round).values_list("player__table", flat=True)) == [1, 3]


def test_unreadable_tables_and_absurd_scores_are_refused_and_the_loop_goes_on(
    event: Event, open_round: Round
) -> None:
    lines = "² 8H PROOF\n1 H8 RETAINS 99999\n2 H8 RETAINS 66\n3 H8 RETAINS " + "9" * 5000 + "\n"
    out = run("slips_enter", "--event", event.code, stdin=lines, fails=r"3 lines refused \(line 1, 2, 4\)")
    assert "line 1: '²' is not a table number" in out.err
    assert "line 2: table 1: the announced score 99999 is not a score (0 to 9999)" in out.err
    assert "66 ok" in out.out
    slips = Slip.objects.filter(round=open_round)
    assert list(slips.values_list("player__table", "announced_score")) == [(2, 66)]


def test_slips_from_a_file_and_a_penalty_warned_at_once(tmp_path, arbitrator) -> None:
    event = _create("--free-warnings", "0", "--notation", "gcg")
    services.player_add(event=event, name="Anne")
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    run("round_open", "--event", event.code)
    path = tmp_path / "slips.txt"
    path.write_text("1 8H RETAINS 60\n", encoding="utf-8")
    out = run("slips_enter", "--event", event.code, "--file", str(path)).out
    assert (
        "8H RETAINS" in out
        and "announced 60: warning, 66 credited (warning 1 of the game: 5-point penalty)" in out
    )
    run("slips_enter", "--event", event.code, "--file", str(tmp_path / "none.txt"), fails="cannot read")


def test_strict_mode_refuses_an_invalid_word_and_stores_nothing(arbitrator) -> None:
    event = _create("--mode", "strict")
    services.player_add(event=event, name="Anne")
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    run("round_open", "--event", event.code)
    out = run("slips_enter", "--event", event.code, stdin="1 H8 SNIRTEA 60\n", fails="1 line refused")
    assert "SNIRTEA is not in the lexicon (nothing stored)" in out.err
    assert not Slip.objects.exists()


class _Terminal(io.StringIO):
    """Typed lines, as a terminal would give them."""

    def isatty(self) -> bool:
        return True


def test_the_interactive_prompt_lists_missing_tables_and_quits(event: Event, open_round: Round) -> None:
    typed = _Terminal("1 H8 RETAINS 66\n?\nbad line\nquit\n2 H8 RETAINS 66\n")
    out = run("slips_enter", "--event", event.code, stdin=typed)  # no error status at a prompt
    assert "slip [0/4]> " in out.out and "slip [1/4]> " in out.out
    assert "missing tables: 2, 3, 4" in out.out and "'bad' is not a table number" in out.err
    assert list(Slip.objects.values_list("player__table", flat=True)) == [1]


def test_ctrl_c_at_the_prompt_keeps_what_was_typed(event: Event, open_round: Round) -> None:
    class Interrupted(_Terminal):
        def readline(self, size: int | None = -1) -> str:
            line = super().readline()
            if not line:
                raise KeyboardInterrupt
            return line

    out = run("slips_enter", "--event", event.code, stdin=Interrupted("1 H8 RETAINS 66\n"))
    assert "1 slip stored" in out.out and Slip.objects.count() == 1


def test_a_slip_typed_after_the_deadline_counts_while_the_round_is_open(
    event: Event, open_round: Round
) -> None:
    # The three minutes are over; the arbitrator types the slips collected by then.
    Round.objects.filter(pk=open_round.pk).update(deadline=timezone.now() - dt.timedelta(seconds=30))
    open_round.refresh_from_db()
    run("slips_enter", "--event", event.code, stdin="1 H8 RETAINS 66\n")
    slip = Slip.objects.get()
    assert not slip.late and slip.received_at == open_round.deadline
    run("round_close", "--event", event.code)
    assert Ruling.objects.get(player__table=1).credited == 66


# ------------------------------------------------------------------ status, end of game


def test_event_status_lists_events_and_shows_the_board_in_the_notation(arbitrator) -> None:
    assert "No event yet" in run("event_status").out
    event = _create("--notation", "gcg")
    services.player_add(event=event, name="Anne")
    assert f"{event.code}  2026-11-21  Club evening  (1 player, 0 games)" in run("event_status").out
    out = run("event_status", "--event", event.code).out
    assert "No game started: round_draw --new-game" in out
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    out = run("event_status", "--event", event.code).out
    assert "Round 1 (drawn): rack AEIRSTN" in out and "next: round_open" in out
    assert "     A B C D E F G H I J K L M N O" in out  # GCG: columns are letters
    run("round_open", "--event", event.code)
    out = run("event_status", "--event", event.code, "--no-board").out
    assert "slips received: 0 of 1; missing tables: 1" in out and " A B C" not in out


def test_game_end_no_move_only_when_the_rack_has_none(event: Event) -> None:
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    run("game_end", "--event", event.code, "--reason", "no_move", fails="1089 legal moves")
    run("game_end", "--event", event.code, "--reason", "finished", fails="invalid choice")
    out = run("game_end", "--event", event.code, "--reason", "stopped").out
    assert "Game 1 ended (stopped by the arbitrator): 0 rounds placed, top total 0" in out
    run("game_end", "--event", event.code, "--reason", "stopped", fails="no game is being played")
    out = run("round_draw", "--event", event.code, "--new-game").out
    assert "Game 2 started" in out


def test_with_worker_the_commands_say_the_work_is_queued(event: Event, monkeypatch) -> None:
    from tournaments import tasks

    # No worker runs in the tests: the queued tasks simply never run.
    monkeypatch.setattr(tasks.round_solve_task, "delay", lambda *args: None)
    monkeypatch.setattr(tasks.round_adjudicate_task, "delay", lambda *args: None)
    out = run("round_draw", "--event", event.code, "--new-game", "--worker", "--wait", "0").out
    assert "tops: being computed" in out
    run("top_choose", "--event", event.code, "1", fails="the tops are not computed yet")
    run("game_end", "--event", event.code, "--reason", "no_move", fails="not counted yet")
    run("round_open", "--event", event.code)
    out = run("round_close", "--event", event.code, "--worker", "--wait", "0").out
    assert "the workers are ruling the slips" in out
    run("round_place", "--event", event.code, fails="round 1 is closed: its slips are being ruled")
    assert "wait for the rulings" in run("event_status", "--event", event.code).out


def test_top_choose_by_number_refuses_what_is_not_a_number(event: Event) -> None:
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    # "²".isdigit() is True and int("²") fails: it is read as a move, and refused as one.
    run("top_choose", "--event", event.code, "²", fails="cannot read the coordinates '²'")
    for number in ("0", "9" * 30, "9" * 5000):
        run("top_choose", "--event", event.code, number, fails="there are 54 equal tops: choose 1 to 54")


# ------------------------------------------------------------------ tasks run in the process


@pytest.fixture
def tasks_as_in_production() -> Iterator[None]:
    """The test settings make eager tasks propagate; production does not: the commands
    must turn it on themselves."""
    from arbiter.celery import app as celery_app

    conf = celery_app.conf
    previous = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager = conf.task_eager_propagates = False
    yield
    conf.task_always_eager, conf.task_eager_propagates = previous


def test_a_failed_adjudication_ends_round_close_with_the_reason(
    event: Event, monkeypatch: pytest.MonkeyPatch, tasks_as_in_production: None
) -> None:
    from arbiter.celery import app as celery_app

    def failing(*, round_id: int) -> Round:
        raise RuntimeError("the lexicon file is unreadable")

    monkeypatch.setattr(services, "round_adjudicate", failing)
    run("round_draw", "--event", event.code, "--new-game", "--rack", "AEIRSTN")
    run("round_open", "--event", event.code)
    out = run(
        "round_close",
        "--event",
        event.code,
        fails=r"ruling the slips of round 1 of game 1 failed: RuntimeError: the lexicon file is unreadable",
    )
    assert "the workers are ruling the slips" not in out.out
    assert _round(event).state == Round.State.CLOSED
    assert not Ruling.objects.filter(round=_round(event)).exists()
    # The app's settings are put back after the command.
    assert celery_app.conf.task_always_eager is False
    assert celery_app.conf.task_eager_propagates is False


def test_a_failed_solve_ends_simulate_event_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, tasks_as_in_production: None
) -> None:
    def failing(*, round_id: int) -> Round:
        raise RuntimeError("the move generator crashed")

    monkeypatch.setattr(services, "round_solve", failing)
    run(
        "simulate_event",
        "--players",
        "1",
        "--games",
        "1",
        fails=r"computing the tops of round 1 of game 1 failed: RuntimeError: the move generator crashed",
    )
