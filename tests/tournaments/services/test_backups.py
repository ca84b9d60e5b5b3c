"""Backups (tournaments.services.backups): every placed round and the game's end write the
game file to the data folder's backups/ and to the second folder, atomically, the last N
of each game kept; the file restores to the same game; a folder that cannot take it is
reported and never undoes the placement."""

from __future__ import annotations

import datetime as dt
import errno
import json
import logging
import os
from pathlib import Path

import pytest

from tests.tournaments.helpers import draw_round, play_out, simulated_event
from tournaments import exports
from tournaments.models import Event, Game, HistoryEntry, Player, Round
from tournaments.services import backups, transfer
from tournaments.services.backups import Backup, game_backup
from tournaments.services.games import game_end
from tournaments.services.rounds import round_close, round_open, round_place
from tournaments.services.slips import slip_submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def local(settings, tmp_path: Path) -> Path:
    """The data folder's backups/ (not made yet: the first backup makes it)."""
    settings.ARBITER_BACKUP_LOCAL_DIR = tmp_path / "var" / "backups"
    return settings.ARBITER_BACKUP_LOCAL_DIR


@pytest.fixture
def stick(settings, tmp_path: Path, local: Path) -> Path:
    """The second folder, on a USB stick, made by hand as the operator guide says."""
    folder = tmp_path / "usb" / "arbiter-backups"
    folder.mkdir(parents=True)
    settings.ARBITER_BACKUP_DIR = folder
    return folder


def _names(folder: Path) -> list[str]:
    """Every file of the folder, hidden ones (a temporary file left behind) included."""
    return sorted(p.name for p in folder.iterdir())


def _place_rounds(game: Game, count: int) -> None:
    for _ in range(count):
        play_out(draw_round(game))


def _failures(event: Event) -> list[HistoryEntry]:
    return list(HistoryEntry.objects.filter(event=event, entity="game", action="backup_failed"))


def _restore(data: bytes) -> Event:
    return transfer.event_import(
        name="Continued",
        starts_on=dt.date(2026, 11, 21),
        game_file=transfer.read_game_file(data),
        restore=True,
    )


# ------------------------------------------------------------------ what is written, where


def test_a_placed_round_writes_the_game_file_to_both_folders(game: Game, local: Path, stick: Path) -> None:
    round = draw_round(game)
    round_open(round=round)
    round_close(round=round)
    assert not local.exists()  # nothing before the placement
    round_place(round=Round.objects.get(pk=round.pk), draw_next=False)

    stem = f"event-{game.event_id}-game-1"
    expected = exports.record_json(game, seats=True)
    for folder in (local, stick):
        assert _names(folder) == [f"{stem}-latest.json", f"{stem}-round-001.json"]
        assert (folder / f"{stem}-round-001.json").read_bytes() == expected
        assert (folder / f"{stem}-latest.json").read_bytes() == expected
    assert not _failures(game.event)


def test_the_next_draw_in_the_same_transaction_is_not_needed_for_the_file(game: Game, local: Path) -> None:
    # round_place draws the next rack in its transaction: the backup, written after the
    # commit, is the game file of the placed rounds, as export record writes it then.
    play_out(draw_round(game))
    round = draw_round(game)
    round_open(round=round)
    round_close(round=round)
    following = round_place(round=Round.objects.get(pk=round.pk))
    assert following is not None and following.number == 3
    latest = (local / f"event-{game.event_id}-game-1-latest.json").read_bytes()
    assert latest == exports.record_json(game, seats=True)
    assert len(json.loads(latest)["rounds"]) == 2


def test_the_end_of_the_game_is_backed_up(game: Game, local: Path) -> None:
    _place_rounds(game, 2)
    game_end(game=game, reason="stopped")
    stem = f"event-{game.event_id}-game-1"
    assert _names(local) == [f"{stem}-latest.json", f"{stem}-round-001.json", f"{stem}-round-002.json"]
    for name in (f"{stem}-latest.json", f"{stem}-round-002.json"):
        assert json.loads((local / name).read_bytes())["end"] == "stopped"


def test_a_game_with_no_placed_round_writes_nothing(game: Game, local: Path) -> None:
    draw_round(game)
    game_end(game=game, reason="stopped")
    assert not local.exists()
    assert game_backup(game=game) == Backup()


def test_rotation_keeps_the_last_n_rounds_of_each_game(settings, game: Game, local: Path) -> None:
    settings.ARBITER_BACKUP_KEEP = 3
    stem = f"event-{game.event_id}-game-1"
    # Another game's files, and an event whose number starts with this one's: not its files.
    local.mkdir(parents=True)
    others = [f"event-{game.event_id}-game-2-round-001.json", f"event-{game.event_id}1-game-1-round-001.json"]
    for name in others:
        (local / name).write_bytes(b"{}")
    _place_rounds(game, 5)
    assert _names(local) == sorted(
        [*others, f"{stem}-latest.json", *(f"{stem}-round-{n:03d}.json" for n in (3, 4, 5))]
    )
    assert (local / f"{stem}-latest.json").read_bytes() == (local / f"{stem}-round-005.json").read_bytes()
    assert len(json.loads((local / f"{stem}-round-004.json").read_bytes())["rounds"]) == 4


# ------------------------------------------------------------------ the spare laptop


def test_the_latest_backup_restores_to_the_same_standings(local: Path) -> None:
    original = simulated_event(players=6, seed=7)
    game = original.games.get()
    latest = local / f"event-{original.pk}-game-1-latest.json"
    copy = _restore(latest.read_bytes())
    restored = copy.games.get()
    assert (restored.state, restored.end_reason) == (game.state, game.end_reason)
    assert exports.standings_csv(copy) == exports.standings_csv(original)
    assert exports.record_json(restored, seats=True) == latest.read_bytes()


def test_a_backup_of_a_game_in_progress_restores_and_the_game_goes_on(
    game: Game, players: list[Player], local: Path
) -> None:
    round = draw_round(game)
    for _ in range(3):
        round_open(round=round)
        coordinates, word = round.tops[0].split()
        slip_submit(
            round=round,
            player=players[0],
            coordinates=coordinates,
            word=word,
            announced_score=round.top_score,
        )
        slip_submit(round=round, player=players[1], coordinates="8H", word="ZZZ", announced_score=5)
        round_close(round=round)
        following = round_place(round=Round.objects.get(pk=round.pk))  # and draws the next rack
        assert following is not None
        round = Round.objects.get(pk=following.pk)
    latest = (local / f"event-{game.event_id}-game-1-latest.json").read_bytes()
    copy = _restore(latest)
    restored = copy.games.get()
    assert restored.state == Game.State.PLAYING
    assert exports.standings_csv(copy) == exports.standings_csv(game.event)
    assert draw_round(restored).rack == game.rounds.get(number=4).rack


def test_a_restore_writes_its_backup_once_at_its_commit(monkeypatch, local: Path) -> None:
    original = simulated_event(players=3, seed=5)
    data = (local / f"event-{original.pk}-game-1-latest.json").read_bytes()
    rounds = len(json.loads(data)["rounds"])
    assert rounds > 5
    writes: list[str] = []
    write = backups.write_atomically

    def counted(path: Path, data: bytes) -> None:
        writes.append(path.name)
        write(path, data)

    monkeypatch.setattr(backups, "write_atomically", counted)
    copy = _restore(data)  # places every round in one transaction
    stem = f"event-{copy.pk}-game-1"
    assert writes == [f"{stem}-round-{rounds:03d}.json", f"{stem}-latest.json"]
    assert (local / f"{stem}-latest.json").read_bytes() == exports.record_json(copy.games.get(), seats=True)


# ------------------------------------------------------------------ failures


def test_a_missing_second_folder_does_not_stop_the_placement_and_is_reported(
    settings, game: Game, local: Path, tmp_path: Path, caplog
) -> None:
    pulled_out = tmp_path / "usb" / "arbiter-backups"
    settings.ARBITER_BACKUP_DIR = pulled_out
    round = draw_round(game)
    round_open(round=round)
    round_close(round=round)
    with caplog.at_level(logging.WARNING, logger="tournaments.services.backups"):
        following = round_place(round=Round.objects.get(pk=round.pk))
    assert following is not None and following.number == 2
    assert Round.objects.get(pk=round.pk).state == Round.State.PLACED
    assert not pulled_out.exists() and not pulled_out.parent.exists()  # not made on the laptop's disk
    assert f"event-{game.event_id}-game-1-round-001.json" in _names(local)  # the first folder has it
    (failure,) = _failures(game.event)
    assert (failure.object_id, failure.actor_label) == (game.pk, "system")
    assert failure.new == {
        "round": 1,
        "folder": str(pulled_out),
        "error": "no such folder (is the USB stick plugged in?)",
    }
    assert failure.reason == (
        f"the backup of game 1 could not be written to {pulled_out}: {failure.new['error']}"
    )
    assert failure.reason in caplog.text


def test_a_full_disk_keeps_the_previous_backup_whole_and_is_reported(
    monkeypatch, game: Game, local: Path, stick: Path
) -> None:
    play_out(draw_round(game))
    stem = f"event-{game.event_id}-game-1"
    before = {folder: (folder / f"{stem}-latest.json").read_bytes() for folder in (local, stick)}

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)  # the bytes written, then not flushed to the disk
    round = draw_round(game)
    play_out(round)
    assert Round.objects.get(pk=round.pk).state == Round.State.PLACED
    for folder in (local, stick):
        # No round-002, no temporary file left behind, the latest still round 1's, whole.
        assert _names(folder) == [f"{stem}-latest.json", f"{stem}-round-001.json"]
        assert (folder / f"{stem}-latest.json").read_bytes() == before[folder]
    failures = _failures(game.event)
    assert [(f.new["round"], f.new["folder"], f.new["error"]) for f in failures] == [
        (2, str(local), os.strerror(errno.ENOSPC)),
        (2, str(stick), os.strerror(errno.ENOSPC)),
    ]


def test_a_write_cut_short_leaves_the_old_file_and_no_temporary_file(monkeypatch, tmp_path: Path) -> None:
    path = tmp_path / "event-1-game-1-latest.json"
    path.write_bytes(b"the previous backup")

    def cut(src: str, dst: str) -> None:
        # The laptop dies after the data reached the temporary file, before the rename.
        assert Path(src).read_bytes() == b"the new backup" and Path(src).name.startswith(".")
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "replace", cut)
    with pytest.raises(OSError, match=os.strerror(errno.EIO)):
        backups.write_atomically(path, b"the new backup")
    assert _names(tmp_path) == [path.name]
    assert path.read_bytes() == b"the previous backup"
    monkeypatch.undo()
    backups.write_atomically(path, b"the new backup")
    assert _names(tmp_path) == [path.name] and path.read_bytes() == b"the new backup"
    umask = os.umask(0o022)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask  # readable as any file Arbiter writes


def test_an_unexpected_error_is_reported_and_the_placement_stands(
    monkeypatch, game: Game, local: Path
) -> None:
    def broken(game: Game, *, seats: bool = False) -> bytes:
        raise RuntimeError("the record could not be built")

    monkeypatch.setattr(exports, "record_json", broken)
    round = draw_round(game)
    play_out(round)
    assert Round.objects.get(pk=round.pk).state == Round.State.PLACED
    (failure,) = _failures(game.event)
    assert failure.new == {
        "round": None,
        "folder": str(local),
        "error": "RuntimeError: the record could not be built",
    }
