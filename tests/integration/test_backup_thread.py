"""The backup of a placed round is written by a thread of its own, after the placement is
answered (tournaments.services.backups): the arbitrator's click on "place" waited 0.76 s
for the file of a 2,000-player game. On PostgreSQL, as the production setup runs it (an
in-memory SQLite database writes it at once: its shared cache locks tables between
threads); skipped locally without it, failed in CI."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from django.db import connection

from tests.integration.conftest import require_postgres
from tests.tournaments.helpers import draw_round
from tournaments import exports
from tournaments.foreground import FOREGROUND
from tournaments.models import Event, Game, HistoryEntry, Round
from tournaments.services import backups
from tournaments.services.games import game_start
from tournaments.services.players import player_add
from tournaments.services.rounds import round_close, round_open, round_place

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_the_placement_is_answered_before_its_backup_is_written(
    settings, monkeypatch, tmp_path: Path, event: Event
) -> None:
    require_postgres()
    if connection.vendor != "postgresql":
        pytest.fail("DATABASE_URL is PostgreSQL but the test database is not", pytrace=False)
    settings.ARBITER_BACKUP_LOCAL_DIR = tmp_path
    gate, started = threading.Event(), threading.Event()
    real = backups.game_backup

    def held(*, game: Game) -> backups.Backup:
        started.set()
        assert gate.wait(30)
        return real(game=game)

    monkeypatch.setattr(backups, "game_backup", held)
    for name in ("Anne", "Bruno"):
        player_add(event=event, name=name)
    game = game_start(event=event)
    round = draw_round(game)
    round_open(round=round)
    round_close(round=round)
    round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
    # Answered, the backup begun in its thread and not written yet.
    assert started.wait(30) and not list(tmp_path.iterdir())
    gate.set()
    backups.settle(30)
    stem = f"event-{game.event_id}-game-1"
    assert (tmp_path / f"{stem}-latest.json").read_bytes() == exports.record_json(game, seats=True)
    assert not HistoryEntry.objects.filter(event=game.event, action="backup_failed").exists()
    assert threading.current_thread() is threading.main_thread()


def test_the_backup_waits_while_the_process_answers_the_hall(
    settings, monkeypatch, tmp_path: Path, event: Event
) -> None:
    # The console's page after "place" and the phones' panels it leads to go first
    # (tournaments/foreground.py); the file is then written.
    require_postgres()
    settings.ARBITER_BACKUP_LOCAL_DIR = tmp_path
    monkeypatch.setattr(backups, "BACKUP_QUIET_SECONDS", 0.0)
    started = threading.Event()
    real = backups.game_backup

    def seen(*, game: Game) -> backups.Backup:
        started.set()
        return real(game=game)

    monkeypatch.setattr(backups, "game_backup", seen)
    player_add(event=event, name="Anne")
    game = game_start(event=event)
    round = draw_round(game)
    round_open(round=round)
    round_close(round=round)
    with FOREGROUND.busy():  # the page of the placement, being answered
        round_place(round=Round.objects.get(pk=round.pk), draw_next=False)
        # Never begun while it lasts (a wrong thread would begin within milliseconds).
        assert not started.wait(1.0)
    assert started.wait(30)
    backups.settle(30)
    assert (tmp_path / f"event-{game.event_id}-game-1-latest.json").exists()
