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


#: PostgreSQL through Django's backend with the pool's check made cheaper in a burst
#: (arbiter/postgresql/base.py).
_DB_ENGINES = {
    "postgres": "arbiter.postgresql",
    "postgresql": "arbiter.postgresql",
    "sqlite": "django.db.backends.sqlite3",
}


#: CONN_MAX_AGE of a PostgreSQL URL without a pool (``pool_size=0``; seconds): slips
#: arrive in bursts at the close, keep the connections for the whole burst.
_CONN_MAX_AGE = 60
#: Connections of each process's pool (psycopg_pool through Django), by default. Without
#: a pool every server thread kept its own connection for CONN_MAX_AGE: 400 polling phones
#: held 297 idle connections and exhausted PostgreSQL (100 by default). With it a process
#: never holds more than this many, and a request waits for one (POOL_TIMEOUT) instead.
_POOL_SIZE = 16
#: A request's wait for a connection (seconds). The web server runs a process's views in two
#: threads (arbiter/asgi.py), so the pool is never short but while PostgreSQL is away: then
#: each of the phones' requests, one after the other, waits this long before its error, and
#: a queue of them must drain in seconds, not minutes.
_POOL_TIMEOUT = 2
#: How long a pool goes on with one series of reconnection attempts (seconds) before it
#: gives up, so that the next request starts a new series at once. psycopg_pool doubles the
#: wait between attempts (1, 2, 4, 8, 16, 32 s...) for 5 minutes by default: after PostgreSQL
#: had been away 35 s its next attempt came 20 to 30 s after it was back, and every request
#: meanwhile waited out the pool's timeout for a 500 (tests/integration/test_faults_postgres.py).
_POOL_RECONNECT = 5


#: Options of the URL that are Django's (or Arbiter's), not the driver's.
_OWN_OPTIONS = ("conn_max_age", "pool_size")


def _url_options(name: str, url: str, query: str) -> tuple[dict[str, object], dict[str, int]]:
    """The query string as OPTIONS, and the options of :data:`_OWN_OPTIONS` taken out of
    it as whole numbers (absent ones absent)."""
    from urllib.parse import parse_qsl

    options: dict[str, object] = {}
    own: dict[str, int] = {}
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query))
    except ValueError:
        raise EnvError(f"{name}={url!r}: cannot read the options {query!r} (key=value&key=value)") from None
    for key, value in pairs:
        if key in options or key in own:
            raise EnvError(f"{name}={url!r}: the option {key!r} is given twice")
        if not value:
            raise EnvError(f"{name}={url!r}: the option {key!r} has no value")
        if key in _OWN_OPTIONS:
            try:
                own[key] = int(value)
            except ValueError:
                raise EnvError(f"{name}={url!r}: {key} must be a whole number") from None
            if own[key] < 0:
                raise EnvError(f"{name}={url!r}: {key} cannot be negative")
        else:
            options[key] = value
    return options, own


def database_from_url(name: str, url: str) -> dict[str, object]:
    """A DATABASES entry from ``postgresql://user:pass@host:5432/db?sslmode=require`` or
    ``sqlite:////absolute/path.sqlite3``; anything else is refused by name.

    The query string becomes the connection's OPTIONS, passed to the driver as they are
    (``?sslmode=require&connect_timeout=5`` gives ``{"sslmode": "require", "connect_timeout":
    "5"}``; libpq reads its parameters as text). One key is Django's, not the driver's:
    ``pool_size=N`` (PostgreSQL; default 16) gives each process a pool of at most N
    connections (Django's connection pool, psycopg_pool), and ``pool_size=0`` none: then
    ``conn_max_age=N`` sets CONN_MAX_AGE (seconds a connection is kept; 0 closes it after
    each request; default 60); giving ``conn_max_age`` alone means no pool. For SQLite,
    ``timeout`` (seconds) is read as a number, as the sqlite3 module wants it; other
    options are passed as text
    (``init_command``, ``transaction_mode``)."""
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    engine = _DB_ENGINES.get(parts.scheme)
    if engine is None:
        raise EnvError(f"{name}={url!r}: the scheme must be postgresql:// or sqlite://")
    options, own = _url_options(name, url, parts.query)
    conn_max_age = own.get("conn_max_age")
    if engine.endswith("sqlite3"):
        if "pool_size" in own:
            raise EnvError(f"{name}={url!r}: pool_size is for PostgreSQL (SQLite has no server to pool)")
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
    pool_size = own.get("pool_size", 0 if conn_max_age is not None else _POOL_SIZE)
    if pool_size and conn_max_age:
        raise EnvError(
            f"{name}={url!r}: conn_max_age keeps a connection per thread, pool_size shares a few:"
            " give one of them (pool_size=0 for no pool)"
        )
    if pool_size:
        # min_size 1: a Celery child or an idle process holds one connection, not 16.
        options["pool"] = {
            "min_size": 1,
            "max_size": pool_size,
            "timeout": _POOL_TIMEOUT,
            "reconnect_timeout": _POOL_RECONNECT,
        }
    return {
        "ENGINE": engine,
        "NAME": unquote(database),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(port or ""),
        # Django refuses persistent connections beside a pool: the pool keeps them.
        "CONN_MAX_AGE": 0 if pool_size else _CONN_MAX_AGE if conn_max_age is None else conn_max_age,
        # A connection kept (by the pool or CONN_MAX_AGE) is checked before it is used:
        # after PostgreSQL restarts, the next requests get new connections, not errors.
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": options,
    }


def installation_secret(folder: Path) -> str:
    """This installation's secret key, made once at random in ``folder/secret_key`` (only
    its owner may read it) and read from there afterwards: sessions and CSRF tokens
    survive a restart, and no two laptops share a key published with the source. Two
    processes starting together (the web server and the worker) make it once: the first
    creates the file, the other reads it."""
    import secrets

    path = folder / "secret_key"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _attempt in range(50):  # the other process may be writing it this instant
            key = path.read_text("ascii").strip()
            if len(key) >= 32:
                return key
            import time

            time.sleep(0.02)
        raise EnvError(f"{path} holds no usable key: delete it and a new one is made") from None
    key = secrets.token_urlsafe(50)
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(key + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    return key


def redis_url(name: str, url: str) -> str:
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise EnvError(f"{name}={url!r}: expected redis://host:6379/0")
    return url
