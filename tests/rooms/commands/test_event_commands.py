"""The event commands: event_create, players_import, event_status."""

from __future__ import annotations

import pytest

from rooms.management.commands.event_create import SETTING_FIELDS
from rooms.management.commands.event_create import Command as EventCreate
from tests.rooms.commands.helpers import create as _create
from tests.rooms.commands.helpers import run
from tournaments.core import EVENT_SETTINGS
from tournaments.models import Event, Lexicon
from tournaments.services.players import player_add

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ event_create


def test_every_event_setting_is_an_option_with_the_model_default() -> None:
    parser = EventCreate().create_parser("manage.py", "event_create")
    options = {s for action in parser._actions for s in action.option_strings}
    for name in EVENT_SETTINGS:
        assert "--" + name.replace("_", "-") in options
    assert "--no-first-move-horizontal" in options
    assert {f.name for f in SETTING_FIELDS} == set(EVENT_SETTINGS)
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
    run("event_create", "E", "--no-smooth", fails="doubled tile set")
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


def test_event_create_refuses_a_word_list_above_the_limit_before_reading_it(tmp_path, settings) -> None:
    settings.ARBITER_LEXICON_MAX_MB = 1
    words = tmp_path / "ods.txt"
    words.write_bytes(b"zoo\n" * (2**18) + b"qi\n")
    run(
        "event_create",
        "Club",
        "--lexicon",
        str(words),
        fails=r"ods\.txt is 1\.0 MB, more than the 1 MB allowed for a word list: .*ARBITER_LEXICON_MAX_MB",
    )
    assert not Event.objects.exists() and not Lexicon.objects.exists()


# ------------------------------------------------------------------ players_import


def test_players_import_refusals(event: Event, tmp_path) -> None:
    run("players_import", "--event", event.code, str(tmp_path / "none.csv"), fails="cannot read")
    bad = tmp_path / "bad.csv"
    bad.write_text("name,table\nEve,1\n", encoding="utf-8")
    run("players_import", "--event", event.code, str(bad), fails="line 2: table 1 already has a player")
    bad.write_text("player,club\nEve,Paris\n", encoding="utf-8")  # "nom" is read (issue 29)
    run("players_import", "--event", event.code, str(bad), fails=r"'name' \(or 'nom'\) column")
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
        fails=r"huge\.csv: the CSV cannot be read at line 3: field larger than field limit",
    )
    assert event.players.count() == before  # all or nothing: Zoe is not imported either


# ------------------------------------------------------------------ event_status


def test_event_status_lists_events_and_shows_the_board_in_the_notation(arbitrator) -> None:
    assert "No event yet" in run("event_status").out
    event = _create("--notation", "gcg")
    player_add(event=event, name="Anne")
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
