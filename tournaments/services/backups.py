"""Backups a spare laptop can continue from (docs/arbitrator-guide.en.md, "The laptop
died"): after every placed round and at a game's end, the game's file in the restore
format of :mod:`tournaments.services.transfer` (what ``export record`` writes) goes to the
data folder's ``backups/`` and, when ``ARBITER_BACKUP_DIR`` is set, to that second folder
too (a USB stick).

A folder holds ``event-3-game-1-round-007.json`` for each of the last
``ARBITER_BACKUP_KEEP`` placed rounds of each game (the names sort by round; the file of
the last round is written again at the game's end) and ``event-3-game-1-latest.json``, the
newest. Each file is written whole or not at all: a temporary file in the same folder,
flushed to the disk, then renamed over the name, so a laptop that dies in the middle of a
write leaves the previous backup as it was, never a truncated one as the newest.

The backup is written after the placement commits, in the process that placed it (it
reads the committed rounds), by a thread of its own: building the file takes time, which
the arbitrator's click on "place" waited for. The thread starts it once the process has
answered the console's page and built the phones' panels of the placement
(:mod:`tournaments.foreground`), with which it shared the interpreter. :func:`settle`
waits for the backups asked for so far, and a process waits for them before it exits. A
backup that cannot be written (the stick pulled out, the disk full, no permission) never
undoes the placement nor fails the arbitrator's request: it is logged and recorded in the
event's history (``game`` / ``backup_failed``, with the folder and the reason), which the
console's History page, ``/admin/`` and the API's ``history/`` show.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import logging
import os
import re
import secrets
import threading
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import connections, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.foreground import FOREGROUND
from tournaments.models import Game, Round
from tournaments.services.history import history_record

logger = logging.getLogger(__name__)


@dataclass
class Backup:
    """What one backup of a game did: the round files written, and a message for each
    folder that could not take it."""

    written: list[Path] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def backup_folders() -> list[Path]:
    """The data folder's ``backups/``, then the second folder if one is set."""
    second = settings.ARBITER_BACKUP_DIR
    first = Path(settings.ARBITER_BACKUP_LOCAL_DIR)
    return [first] if second is None else [first, Path(second)]


def backup_stem(game: Game) -> str:
    return f"event-{game.event_id}-game-{game.number}"


def game_backup(*, game: Game) -> Backup:
    """Write the game's file to every backup folder now, each folder on its own: one that
    fails is recorded in the history and the others are still written. A game with no
    placed round has nothing a spare laptop could restore: nothing is written."""
    # tournaments.exports reads the transfer service, which stands above the rounds and
    # games that call this module: imported here, not with the module.
    from tournaments.exports import record_json

    game = Game.objects.select_related("event").get(pk=game.pk)
    last = Round.objects.filter(game=game, state=Round.State.PLACED).aggregate(n=Max("number"))["n"]
    backup = Backup()
    if last is None:
        return backup
    data = record_json(game, seats=True)
    stem = backup_stem(game)
    for number, folder in enumerate(backup_folders()):
        try:
            if number == 0:
                folder.mkdir(parents=True, exist_ok=True)
            elif not folder.is_dir():
                # Never created: at the mount point of a stick pulled out, a new folder would
                # be on the laptop's own disk, the copy the stick was for silently lost.
                raise FileNotFoundError(errno.ENOENT, _("no such folder (is the USB stick plugged in?)"))
            path = folder / f"{stem}-round-{last:03d}.json"
            write_atomically(path, data)
            write_atomically(folder / f"{stem}-latest.json", data)
            _rotate(folder, stem, settings.ARBITER_BACKUP_KEEP)
        except OSError as exc:
            backup.failures.append(_report(game, last, str(folder), exc.strerror or str(exc)))
        else:
            backup.written.append(path)
    return backup


#: Orders the requests for a backup and the backups written (see game_backup_on_commit).
_sequence = itertools.count()
#: Each game's last backup written, as a number of _sequence (by the one thread).
_written: dict[int, int] = {}
#: The one thread that writes the backups, in the order they were asked for. Its thread is
#: joined when the process exits (concurrent.futures does): a backup asked for is written.
_writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="arbiter-backup")
_pending: set[Future[None]] = set()
_pending_lock = threading.Lock()


def game_backup_on_commit(*, game: Game) -> None:
    """Back the game up once the current transaction commits (at once outside one), in
    the backups' thread.

    A backup written after this one was asked for holds everything it would: it is not
    written again. So a restore, which places all its rounds in one transaction, writes
    one file at its commit, not one per round."""
    game_id, asked = game.pk, next(_sequence)
    transaction.on_commit(lambda: _submit(game_id, asked))


def _submit(game_id: int, asked: int) -> None:
    database = connections["default"]
    if database.vendor == "sqlite" and getattr(database, "is_in_memory_db", lambda: False)():
        # A database in memory (the tests') shares its cache between threads with a lock
        # per table: a reader in another thread fails while this one writes.
        _backup_after_commit(game_id, asked)
        return
    future = _writer.submit(_in_background, game_id, asked)
    with _pending_lock:
        _pending.add(future)
    future.add_done_callback(_done)


def _done(future: Future[None]) -> None:
    with _pending_lock:
        _pending.discard(future)


def settle(timeout: float | None = None) -> None:
    """Until the backups asked for so far are written (tests; a command that reads them)."""
    with _pending_lock:
        pending = list(_pending)
    wait(pending, timeout)


def _backup_after_commit(game_id: int, asked: int) -> None:
    if _written.get(game_id, -1) > asked:
        return
    _written[game_id] = next(_sequence)
    try:
        game_backup(game=Game(pk=game_id))
    except Exception as exc:
        # The placement has committed: whatever went wrong here must not reach the caller
        # as an error for it (game_backup reports the folders' own failures itself).
        logger.exception("backup of game id %s failed", game_id)
        with contextlib.suppress(Exception):
            game = Game.objects.get(pk=game_id)
            folders = ", ".join(str(f) for f in backup_folders())
            _report(game, None, folders, f"{type(exc).__name__}: {exc}")


#: The backups' thread starts a file once the process has answered the people waiting on
#: it (tournaments/foreground.py) for this long, or after BACKUP_WAITS_AT_MOST at most.
BACKUP_QUIET_SECONDS = 0.5
BACKUP_WAITS_AT_MOST = 10.0


def _in_background(game_id: int, asked: int) -> None:
    try:
        FOREGROUND.wait_quiet(BACKUP_QUIET_SECONDS, BACKUP_WAITS_AT_MOST)
        _backup_after_commit(game_id, asked)
    finally:
        connections.close_all()  # the thread's own: not held between two placements


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` as ``path`` whole or not at all: into a temporary file of the same
    folder (a rename is atomic only within one file system), flushed to the disk, then
    renamed over ``path``. On failure the temporary file is removed and ``path`` is left
    as it was. The file gets the permissions of any file Arbiter writes (the umask's), not
    the owner-only ones of ``tempfile``: a spare laptop's user must be able to read it."""
    # A random name: one left by a laptop that died mid-write is never in the way.
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    """Flush the folder's entry of the renamed file, so that the rename survives a power
    cut too. Windows cannot open a folder, and some file systems refuse to flush one: the
    file's own content is on the disk already."""
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def _rotate(folder: Path, stem: str, keep: int) -> None:
    """Keep the files of the last ``keep`` rounds of the game, by round number."""
    pattern = re.compile(re.escape(stem) + r"-round-(\d+)\.json")
    rounds = sorted(
        (int(found.group(1)), path)
        for path in folder.glob(f"{stem}-round-*.json")
        if (found := pattern.fullmatch(path.name))
    )
    for _number, path in rounds[:-keep]:
        path.unlink(missing_ok=True)


def _report(game: Game, round: int | None, folder: str, error: str) -> str:
    """Log a backup that failed and record it in the event's history; its message."""
    message = _("the backup of game %(game)s could not be written to %(folder)s: %(error)s") % {
        "game": game.number,
        "folder": folder,
        "error": error,
    }
    logger.warning("event %s: %s", game.event_id, message)
    history_record(
        event=game.event,
        entity="game",
        object_id=game.pk,
        action="backup_failed",
        by=None,
        new={"round": round, "folder": folder, "error": error},
        reason=message,
    )
    return message
