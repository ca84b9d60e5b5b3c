"""The secret key of an installation that is given none."""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured


def installation_secret(folder: Path) -> str:
    """This installation's secret key, made once at random in ``folder/secret_key`` (only
    its owner may read it) and read from there afterwards: sessions and CSRF tokens
    survive a restart, and no two laptops share a key published with the source. Two
    processes starting together (the web server and the worker) make it once: the first
    creates the file, the other reads it."""
    path = folder / "secret_key"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _attempt in range(50):  # the other process may be writing it this instant
            key = path.read_text("ascii").strip()
            if len(key) >= 32:
                return key
            time.sleep(0.02)
        raise ImproperlyConfigured(f"{path} holds no usable key: delete it and a new one is made") from None
    key = secrets.token_urlsafe(50)
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(key + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    return key
