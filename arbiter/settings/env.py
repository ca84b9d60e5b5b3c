"""Typed environment helpers that fail loudly on a bad value instead of guessing."""

from __future__ import annotations

import os


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
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


_DB_ENGINES = {
    "postgres": "django.db.backends.postgresql",
    "postgresql": "django.db.backends.postgresql",
    "sqlite": "django.db.backends.sqlite3",
}


def database_from_url(name: str, url: str) -> dict[str, object]:
    """A DATABASES entry from ``postgresql://user:pass@host:5432/db`` or
    ``sqlite:////absolute/path.sqlite3``; anything else is refused by name."""
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    engine = _DB_ENGINES.get(parts.scheme)
    if engine is None:
        raise EnvError(f"{name}={url!r}: the scheme must be postgresql:// or sqlite://")
    if engine.endswith("sqlite3"):
        path = parts.path[1:] if parts.path.startswith("//") else parts.path
        if not path:
            raise EnvError(f"{name}={url!r}: give the database file, e.g. sqlite:////srv/arbiter.sqlite3")
        return {"ENGINE": engine, "NAME": path}
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
        # Slips arrive in bursts at the close; keep connections for the whole request burst.
        "CONN_MAX_AGE": 60,
    }


def redis_url(name: str, url: str) -> str:
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise EnvError(f"{name}={url!r}: expected redis://host:6379/0")
    return url
