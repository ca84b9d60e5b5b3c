"""The data folder is its owner's alone: it holds the database (API and player tokens,
sessions, join codes), the backups, the logs and the installation's secret."""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: What the data folder's folders and files are made with, and brought back to.
PRIVATE_FOLDER = 0o700
PRIVATE_FILE = 0o600
#: Every file and folder a process of Arbiter makes: readable by its owner only.
UMASK = 0o077


def make_private(folder: Path) -> list[Path]:
    """Take away every permission of the group and the others under ``folder`` (made if
    missing); the paths changed, for the caller to say (a data folder made before, or
    copied with looser modes). Symbolic links are left alone, not followed."""
    folder.mkdir(parents=True, exist_ok=True, mode=PRIVATE_FOLDER)
    changed = []
    for path in [folder, *folder.rglob("*")]:
        try:
            mode = path.lstat().st_mode
        except FileNotFoundError:
            continue  # removed meanwhile (a broker message taken)
        if stat.S_ISLNK(mode) or not mode & 0o077:
            continue
        wanted = PRIVATE_FOLDER if stat.S_ISDIR(mode) else PRIVATE_FILE
        try:
            os.chmod(path, stat.S_IMODE(mode) & wanted)
        except FileNotFoundError:
            continue
        changed.append(path)
    return changed
