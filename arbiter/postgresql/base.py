"""Django's PostgreSQL backend, with the pool's health check made for a hall's bursts.

With ``CONN_HEALTH_CHECKS`` Django gives its pool (psycopg_pool) a check that sends the
server an empty query each time a request takes a connection, so that after PostgreSQL
restarts the next requests get new connections, not errors. Django gives the connection
back at the end of every request, so a phone's slip would pay that round trip on top of
its own two (docs/decisions.md). Here a connection taken again within
:data:`IDLE_CHECK_SECONDS` of its last use goes unchecked: in a burst it has just worked;
one idle longer is checked, as before. A restart within that moment of a connection's
last use costs that connection's next request an error, and the pool drops it
(tests/integration/test_faults_postgres.py)."""

from __future__ import annotations

import threading
import time
import weakref
from typing import Any

from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool

#: Seconds since a connection was last taken below which it is given out unchecked.
IDLE_CHECK_SECONDS = 2.0

_taken: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def check_when_idle(connection: Any) -> None:
    """psycopg_pool's ``check``: :meth:`ConnectionPool.check_connection` for a connection
    idle :data:`IDLE_CHECK_SECONDS` or more (or never seen), nothing otherwise."""
    now = time.monotonic()
    with _lock:
        last = _taken.get(connection)
        _taken[connection] = now
    if last is None or now - last >= IDLE_CHECK_SECONDS:
        ConnectionPool.check_connection(connection)


#: The server's plan cache for prepared statements: plan them once. Only the hot path of a
#: phone's slip prepares its statements (tournaments/services/phone_slips.py; Django binds
#: its parameters on the client); with PostgreSQL's default (``auto``) their plans were
#: made again at every slip, the parameters' values making each custom plan look cheaper
#: than the generic one, and planning costs more than running (docs/decisions.md).
PLAN_CACHE_MODE = "force_generic_plan"


#: psycopg prepares a statement when asked (``prepare=True``), never by counting: Django
#: turns preparing off altogether (``prepare_threshold=None``, for poolers such as
#: PgBouncer) and its own queries, bound on the client, are never prepared anyway.
PREPARE_THRESHOLD = 2**31 - 1


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        options = self.settings_dict["OPTIONS"]
        if not options.get("server_side_binding"):  # else every query of Django's is prepared
            extra = f"-c plan_cache_mode={PLAN_CACHE_MODE}"
            params["options"] = f"{params['options']} {extra}" if params.get("options") else extra
            if "prepare_threshold" not in options:  # a pooler's setting, given in DATABASE_URL
                params["prepare_threshold"] = PREPARE_THRESHOLD
        return params

    @property
    def pool(self) -> Any:
        pool = super().pool
        # Django made the pool with ConnectionPool.check_connection (CONN_HEALTH_CHECKS):
        # the same hook, with the check above (tests/arbiter/test_postgresql.py pins it).
        if pool is not None and getattr(pool, "_check", None) is ConnectionPool.check_connection:
            pool._check = check_when_idle
        return pool
