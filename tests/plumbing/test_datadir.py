"""The data folder is its owner's alone (issue 30, item 5): the database held API tokens,
sessions and join codes at 0644, the backups and the worker's log too."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from plumbing.datadir import UMASK, make_private


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def test_a_loose_data_folder_is_made_private_and_said(tmp_path: Path) -> None:
    var = tmp_path / "var"
    (var / "backups").mkdir(parents=True)
    os.chmod(var, 0o755)
    os.chmod(var / "backups", 0o775)
    for name in ("arbiter.sqlite3", "worker.log", "backups/game-1.json"):
        (var / name).write_text("x")
        os.chmod(var / name, 0o644)
    (var / "link").symlink_to("/etc/hostname")
    changed = make_private(var)
    assert sorted(p.relative_to(var).as_posix() for p in changed) == [
        ".",
        "arbiter.sqlite3",
        "backups",
        "backups/game-1.json",
        "worker.log",
    ]
    assert _mode(var) == _mode(var / "backups") == 0o700
    assert {_mode(var / n) for n in ("arbiter.sqlite3", "worker.log", "backups/game-1.json")} == {0o600}
    assert (var / "link").is_symlink()  # a link is left as it is, its target untouched
    assert make_private(var) == []  # private already: nothing to say


def test_a_new_data_folder_is_made_private(tmp_path: Path) -> None:
    var = tmp_path / "new" / "var"
    assert make_private(var) == []
    assert _mode(var) == 0o700


def test_every_file_a_process_of_arbiter_makes_is_its_owners_alone(tmp_path: Path) -> None:
    # The settings set the umask: a file made the ordinary way is 0600, a folder 0700.
    current = os.umask(UMASK)
    os.umask(current)
    assert current == UMASK
    (tmp_path / "made.txt").write_text("x")
    (tmp_path / "folder").mkdir()
    assert _mode(tmp_path / "made.txt") == 0o600 and _mode(tmp_path / "folder") == 0o700
