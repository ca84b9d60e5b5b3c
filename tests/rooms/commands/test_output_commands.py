"""The output commands: export and event_import (game files), print_sheet, simulate_event."""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from solver.formats.record import GameRecord
from tests.helpers import pdf_text as _text
from tests.rooms.commands.helpers import run
from tests.tournaments.helpers import simulated_event as _simulated_event
from tournaments import exports
from tournaments.models import Event, Round
from tournaments.printing import render_sheet
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


def test_the_export_and_import_commands(tmp_path: Path) -> None:
    event = _simulated_event(players=3)
    record = tmp_path / "game.json"
    err = io.StringIO()
    call_command("export", "record", event=str(event.pk), out=str(record), stderr=err)
    assert "record" in err.getvalue()
    out = io.StringIO()
    call_command("export", "gcg", event=event.code, game=1, stdout=out)
    assert out.getvalue() == exports.game_gcg(event.games.get()).decode()
    out = io.StringIO()
    call_command("export", "standings", event=str(event.pk), stdout=out)
    assert out.getvalue().encode() == exports.standings_csv(event)
    call_command(
        "export", "slips", event=str(event.pk), out=str(tmp_path / "slips.csv"), stderr=io.StringIO()
    )
    assert (tmp_path / "slips.csv").read_bytes() == exports.slips_csv(event)
    with pytest.raises(CommandError, match="has no game 9"):
        call_command("export", "record", event=str(event.pk), game=9, stdout=io.StringIO())

    out = io.StringIO()
    call_command("event_import", str(record), "Replayed", date="2026-12-01", mode="nostrict", stdout=out)
    copy = Event.objects.get(name="Replayed")
    assert f"Event {copy.pk} created" in out.getvalue() and "game 1 replays game.json" in out.getvalue()
    assert (copy.starts_on, copy.mode, copy.masters[0]) == (
        dt.date(2026, 12, 1),
        "nostrict",
        GameRecord.from_dict(json.loads(record.read_text())).to_dict(),
    )
    out = io.StringIO()
    call_command("event_import", str(record), "Restored", "--restore", stdout=out)
    restored = Event.objects.get(name="Restored")
    assert "game 1 restores game.json" in out.getvalue() and "3 players" in out.getvalue()
    assert exports.standings_csv(restored) == exports.standings_csv(event)
    with pytest.raises(CommandError, match="cannot read"):
        call_command("event_import", str(tmp_path / "missing.json"), "X", stdout=io.StringIO())
    (tmp_path / "bad.json").write_text("[]")
    with pytest.raises(CommandError, match="not an Arbiter game record"):
        call_command("event_import", str(tmp_path / "bad.json"), "X", stdout=io.StringIO())


@pytest.mark.django_db
def test_print_sheet_finds_the_player_by_table_number(tmp_path) -> None:
    from django.core.management import CommandError

    call_command("simulate_event", players=3, games=1, seed=7, stdout=io.StringIO())
    event = Event.objects.get()
    player = event.players.get(table=2)
    out = tmp_path / "player.pdf"
    args = ("print_sheet", "player", "--event", event.code, "--language", "en", "--out", str(out))
    call_command(*args, "--table", "2", stdout=io.StringIO())
    text = "\n".join(_text(out.read_bytes()))
    assert f"2 · {player.name}" in text
    game_text = "\n".join(_text(render_sheet("game", event=event, language="en")))
    assert "End of the game: " in game_text
    with pytest.raises(CommandError, match="no player at table 7"):
        call_command(*args, "--table", "7", stdout=io.StringIO())


def test_a_failed_solve_ends_simulate_event_with_the_reason(
    monkeypatch: pytest.MonkeyPatch, tasks_as_in_production: None
) -> None:
    def failing(*, round_id: int) -> Round:
        raise RuntimeError("the move generator crashed")

    monkeypatch.setattr(rounds, "round_solve", failing)
    run(
        "simulate_event",
        "--players",
        "1",
        "--games",
        "1",
        fails=r"computing the tops of round 1 of game 1 failed: RuntimeError: the move generator crashed",
    )
