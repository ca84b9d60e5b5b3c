"""The DATABASES entry of ``DATABASE_URL``: django-environ reads a PostgreSQL URL's server,
account and database; its options, the connection pool and SQLite's file are Arbiter's."""

from __future__ import annotations

from urllib.parse import ParseResult, parse_qsl, urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

#: PostgreSQL through Django's backend with the pool's check made cheaper in a burst
#: (arbiter/postgresql/base.py). Any other scheme is refused, not guessed.
_ENGINES = {
    "postgres": "arbiter.postgresql",
    "postgresql": "arbiter.postgresql",
    "sqlite": "django.db.backends.sqlite3",
}


#: CONN_MAX_AGE of a PostgreSQL URL without a pool (``pool_size=0``; seconds): slips
#: arrive in bursts at the close, keep the connections for the whole burst.
_CONN_MAX_AGE = 60
#: Connections of each process's pool (psycopg_pool through Django), by default. Without
#: a pool every server thread keeps its own connection for CONN_MAX_AGE, and a hall's
#: phones exhaust PostgreSQL (100 by default; docs/decisions.md). With it a process
#: never holds more than this many, and a request waits for one (POOL_TIMEOUT) instead.
_POOL_SIZE = 16
#: A request's wait for a connection (seconds). The web server runs a process's views in two
#: threads (arbiter/asgi.py), so the pool is never short but while PostgreSQL is away: then
#: each of the phones' requests, one after the other, waits this long before its error, and
#: a queue of them must drain in seconds, not minutes.
_POOL_TIMEOUT = 2
#: How long a pool goes on with one series of reconnection attempts (seconds) before it
#: gives up, so that the next request starts a new series at once. psycopg_pool doubles the
#: wait between attempts (1, 2, 4, 8, 16, 32 s...) for 5 minutes by default: its next attempt
#: can come long after PostgreSQL is back, every request meanwhile waiting out the pool's
#: timeout for a 500 (docs/decisions.md; tests/integration/test_faults_postgres.py).
_POOL_RECONNECT = 5


#: Options of the URL that are Django's (or Arbiter's), not the driver's.
_OWN_OPTIONS = ("conn_max_age", "pool_size")


def _url_options(name: str, url: str, query: str) -> tuple[dict[str, object], dict[str, int]]:
    """The query string as OPTIONS, and the options of :data:`_OWN_OPTIONS` taken out of
    it as whole numbers (absent ones absent).

    Read here, not by django-environ, which drops an empty, repeated or unreadable option
    without a word and turns digits into numbers (libpq's parameters are text), and knows
    nothing of ``pool_size``."""
    options: dict[str, object] = {}
    own: dict[str, int] = {}
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query))
    except ValueError:
        raise ImproperlyConfigured(
            f"{name}={url!r}: cannot read the options {query!r} (key=value&key=value)"
        ) from None
    for key, value in pairs:
        if key in options or key in own:
            raise ImproperlyConfigured(f"{name}={url!r}: the option {key!r} is given twice")
        if not value:
            raise ImproperlyConfigured(f"{name}={url!r}: the option {key!r} has no value")
        if key in _OWN_OPTIONS:
            try:
                own[key] = int(value)
            except ValueError:
                raise ImproperlyConfigured(f"{name}={url!r}: {key} must be a whole number") from None
            if own[key] < 0:
                raise ImproperlyConfigured(f"{name}={url!r}: {key} cannot be negative")
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
    options are passed as text (``init_command``, ``transaction_mode``)."""
    parts = urlsplit(url)
    engine = _ENGINES.get(parts.scheme)
    if engine is None:
        raise ImproperlyConfigured(f"{name}={url!r}: the scheme must be postgresql:// or sqlite://")
    options, own = _url_options(name, url, parts.query)
    conn_max_age = own.get("conn_max_age")
    if engine.endswith("sqlite3"):
        if "pool_size" in own:
            raise ImproperlyConfigured(
                f"{name}={url!r}: pool_size is for PostgreSQL (SQLite has no server to pool)"
            )
        # The file's name as written, not through django-environ, which reads
        # sqlite:///srv/a.sqlite3 from the working folder and decodes %-escapes: either would
        # open another (new, empty) database than it always did.
        path = parts.path[1:] if parts.path.startswith("//") else parts.path
        if not path.strip("/"):
            raise ImproperlyConfigured(
                f"{name}={url!r}: give the database file, e.g. sqlite:////srv/arbiter.sqlite3"
            )
        entry: dict[str, object] = {"ENGINE": engine, "NAME": path}
        if "timeout" in options:
            try:
                options["timeout"] = float(str(options["timeout"]))
            except ValueError:
                raise ImproperlyConfigured(f"{name}={url!r}: timeout must be a number of seconds") from None
        if options:
            entry["OPTIONS"] = options
        if conn_max_age is not None:
            entry["CONN_MAX_AGE"] = conn_max_age
        return entry
    # Handed over split, without the query (read above): django-environ's own parsing cuts a
    # name at ";" (a URL's parameters), and it decodes "+" in a name as a space.
    split = ParseResult(parts.scheme, parts.netloc, parts.path.replace("+", "%2B"), "", "", "")
    try:
        read = environ.Env.db_url_config(split, engine=engine)
    except ValueError as error:  # the port: not a number, or beyond 65535
        raise ImproperlyConfigured(f"{name}={url!r}: {error}") from None
    if not read["NAME"]:
        raise ImproperlyConfigured(f"{name}={url!r}: the database name is missing")
    pool_size = own.get("pool_size", 0 if conn_max_age is not None else _POOL_SIZE)
    if pool_size and conn_max_age:
        raise ImproperlyConfigured(
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
        **{key: read[key] for key in ("ENGINE", "NAME", "USER", "PASSWORD", "HOST")},
        # Text, as Django documents it (django-environ gives a number).
        "PORT": str(read["PORT"]),
        # Django refuses persistent connections beside a pool: the pool keeps them.
        "CONN_MAX_AGE": 0 if pool_size else _CONN_MAX_AGE if conn_max_age is None else conn_max_age,
        # A connection kept (by the pool or CONN_MAX_AGE) is checked before it is used:
        # after PostgreSQL restarts, the next requests get new connections, not errors.
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": options,
    }
