"""Hall benchmark: ``python -m bench.hall --phones N [--window 10] [--quick] [--json FILE]``.

A duplicate round as a hall plays it, over real HTTP on loopback. The bench starts the
server under test on a fresh temporary data folder (``ARBITER_VAR_DIR``): by default
``manage.py serve`` (the embedded default: SQLite, a Celery worker on the file broker;
PostgreSQL and Redis when ``DATABASE_URL`` and ``REDIS_URL`` are set, as the settings
read them), or ``--server-command`` (a template with ``{port}``, ``{host}`` and
``{python}``), or it uses one already running (``--url``, with an arbitrator's login).

1. The arbitrator (the REST API, token login) fills an event with N players, starts a
   game and plays ``--rounds-before`` rounds without slips (a board with words on it),
   then draws the measured round and waits for its tops.
2. N phones join as the pages make a browser do: GET the join page ``/j/<code>/``, POST
   the code and the table with the CSRF token, follow the redirect to the play page with
   the session cookie, read the player token, the API address and the round from it.
   Each phone is an aiohttp session of its own with at most 6 connections, a browser's
   limit per host, bound to an address of its own (127.42.x.y): the join page allows 10
   joins a minute per address, and a hall's phones have an address each. The joins are
   paced (``--join-rate``, 25 a second, 50 at most at once): they are not what is measured.
3. Every phone opens the live stream ``/live/<event>/stream/`` at the same instant (a
   hall reconnecting after a Wi-Fi drop) and holds it, as live.js does: reconnect after
   the server's ``retry`` when it ends, polling ``/live/<event>/`` every second instead
   when it answers anything but a stream or says nothing for 20 s; each message is a
   sign of life that sends a waiting slip again (phone.js), and each new public version
   reloads the phone's panel (htmx).
4. The arbitrator opens the round for ``--lead`` + ``--window`` seconds. Every phone
   hands in one slip at a moment drawn uniformly in the last ``--window`` seconds (less
   the last 0.1 s, see GUARD_SECONDS), through the API as phone.js does: the same
   client_id on every attempt, acknowledged by 200 or 201, refused for good by another
   4xx than 429, sent again 3 s after anything else (5xx, 429, an answer that is not
   JSON, a network error) or at the stream's next message, whichever comes first.
5. The arbitrator closes the round ``--close-after`` seconds after the deadline, and the
   bench waits until the round is adjudicated with every slip ruled.
6. With ``--actions N``, N cycles of the arbitrator's console actions follow, each timed
   to the console's page and to every phone and the projector showing it
   (bench/hall/console.py).

Printed (and written with ``--json``): submit latency (from the phone's first attempt to
its acknowledgement) p50/p95/p99/max; in-time slips (first attempt sent before the
deadline) ruled late; lost slips (acknowledged, not stored) and duplicated ones (two
stored for one client_id); streams connected out of N and the time until all were;
close -> every ruling; the server's CPU seconds read from /proc over its whole process
tree (web server, worker and its children), by process and by phase; requests that did
not succeed, by kind and status. Linux only. Every loop is bounded in count and time, the
whole run too, and the servers the bench started are always stopped. The exit status is
1 when a slip was lost or duplicated or an in-time slip ruled late, 2 when the run could
not be made; the other targets (latency, streams, the time to every ruling) are
reported, not enforced.
"""


class BenchError(RuntimeError):
    """The run cannot be made (the server did not start, the API refused a step)."""
