"""Typed environment helpers that fail loudly on a bad value instead of guessing."""

from __future__ import annotations

import os
from pathlib import Path


class EnvError(ValueError):
    """An environment variable holds a value its setting cannot use."""


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise EnvError(f"{name}={raw!r}: expected one of {sorted(_TRUE | _FALSE - {''})}")


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise EnvError(f"{name}={raw!r}: expected a whole number") from None


def env_list(name: str, default: list[str]) -> list[str]:
    """Comma-separated items, blanks around them dropped. Set but without any item
    (``""``, ``" , "``) is refused: unset the variable to get the default."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    items = [item.strip() for item in raw.split(",") if item.strip()]
    if not items:
        raise EnvError(f"{name}={raw!r}: expected comma-separated items; unset it for the default")
    return items


def env_path(name: str, default: Path) -> Path:
    """A file-system path. Set but empty (or blank) is refused: ``Path("")`` is the
    current directory, where nothing should be written by accident."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    if not raw.strip():
        raise EnvError(f"{name}={raw!r}: empty path; give a folder or unset it for the default")
    return Path(raw)


_DB_ENGINES = {
    "postgres": "django.db.backends.postgresql",
    "postgresql": "django.db.backends.postgresql",
    "sqlite": "django.db.backends.sqlite3",
}


#: Default CONN_MAX_AGE of a PostgreSQL URL (seconds): slips arrive in bursts at the close,
#: keep the connections for the whole burst.
_CONN_MAX_AGE = 60


def _url_options(name: str, url: str, query: str) -> tuple[dict[str, object], int | None]:
    """The query string as OPTIONS, and ``conn_max_age`` taken out of it (None if absent)."""
    from urllib.parse import parse_qsl

    options: dict[str, object] = {}
    conn_max_age = None
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query))
    except ValueError:
        raise EnvError(f"{name}={url!r}: cannot read the options {query!r} (key=value&key=value)") from None
    for key, value in pairs:
        if key in options or (key == "conn_max_age" and conn_max_age is not None):
            raise EnvError(f"{name}={url!r}: the option {key!r} is given twice")
        if not value:
            raise EnvError(f"{name}={url!r}: the option {key!r} has no value")
        if key == "conn_max_age":
            try:
                conn_max_age = int(value)
            except ValueError:
                raise EnvError(f"{name}={url!r}: conn_max_age must be a whole number of seconds") from None
            if conn_max_age < 0:
                raise EnvError(f"{name}={url!r}: conn_max_age cannot be negative")
        else:
            options[key] = value
    return options, conn_max_age


def database_from_url(name: str, url: str) -> dict[str, object]:
    """A DATABASES entry from ``postgresql://user:pass@host:5432/db?sslmode=require`` or
    ``sqlite:////absolute/path.sqlite3``; anything else is refused by name.

    The query string becomes the connection's OPTIONS, passed to the driver as they are
    (``?sslmode=require&connect_timeout=5`` gives ``{"sslmode": "require", "connect_timeout":
    "5"}``; libpq reads its parameters as text). One key is Django's, not the driver's:
    ``conn_max_age=N`` sets CONN_MAX_AGE (seconds a connection is kept; 0 closes it after
    each request; default 60 for PostgreSQL). For SQLite, ``timeout`` (seconds) is read as
    a number, as the sqlite3 module wants it; other options are passed as text
    (``init_command``, ``transaction_mode``)."""
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    engine = _DB_ENGINES.get(parts.scheme)
    if engine is None:
        raise EnvError(f"{name}={url!r}: the scheme must be postgresql:// or sqlite://")
    options, conn_max_age = _url_options(name, url, parts.query)
    if engine.endswith("sqlite3"):
        path = parts.path[1:] if parts.path.startswith("//") else parts.path
        if not path:
            raise EnvError(f"{name}={url!r}: give the database file, e.g. sqlite:////srv/arbiter.sqlite3")
        entry: dict[str, object] = {"ENGINE": engine, "NAME": path}
        if "timeout" in options:
            try:
                options["timeout"] = float(str(options["timeout"]))
            except ValueError:
                raise EnvError(f"{name}={url!r}: timeout must be a number of seconds") from None
        if options:
            entry["OPTIONS"] = options
        if conn_max_age is not None:
            entry["CONN_MAX_AGE"] = conn_max_age
        return entry
    database = parts.path.lstrip("/")
    if not database:
        raise EnvError(f"{name}={url!r}: the database name is missing")
    try:
        port = parts.port
    except ValueError:
        raise EnvError(f"{name}={url!r}: the port is not a number") from None
    return {
        "ENGINE": engine,
        "NAME": unquote(database),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(port or ""),
        "CONN_MAX_AGE": _CONN_MAX_AGE if conn_max_age is None else conn_max_age,
        "OPTIONS": options,
    }


def redis_url(name: str, url: str) -> str:
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise EnvError(f"{name}={url!r}: expected redis://host:6379/0")
    return url
