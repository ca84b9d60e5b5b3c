"""``backup``: the event's game files written now, as every placed round writes them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rooms.commands.helpers import run
from tests.tournaments.helpers import simulated_event
from tournaments import exports
from tournaments.models import Event, HistoryEntry, Round

pytestmark = pytest.mark.django_db


def test_backup_writes_every_game_and_names_a_folder_it_cannot_write(
    settings, tmp_path: Path, event: Event
) -> None:
    run("backup", "--event", event.code, fails="no game has been started in Club evening")
    run("round_draw", "--event", event.code, "--new-game")
    assert run("backup", "--event", event.code).out == "Game 1: no round placed yet, nothing to back up\n"

    played = simulated_event(players=2, seed=5)
    local = tmp_path / "backups"
    settings.ARBITER_BACKUP_LOCAL_DIR = local
    out = run("backup", "--event", str(played.pk), "--game", "1").out
    placed = played.games.get().rounds.filter(state=Round.State.PLACED).count()
    written = local / f"event-{played.pk}-game-1-round-{placed:03d}.json"
    assert out == f"Game 1: {written}\n"
    assert written.read_bytes() == exports.record_json(played.games.get(), seats=True)
    assert (local / f"event-{played.pk}-game-1-latest.json").read_bytes() == written.read_bytes()

    settings.ARBITER_BACKUP_DIR = tmp_path / "no-stick"
    run(
        "backup",
        "--event",
        str(played.pk),
        fails=r"to .*no-stick: no such folder \(is the USB stick plugged in\?\)",
    )
    assert HistoryEntry.objects.filter(event=played, action="backup_failed").count() == 1
    run("backup", "--event", str(played.pk), "--game", "2", fails="has no game 2")
