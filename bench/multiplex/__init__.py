"""Multiplex benchmark: ``python -m bench.multiplex [--centres 20] [--players 100] [--seed 1]
[--quick] [--json FILE]``.

One game of a live multiplex as it runs (docs/rules.md#multiplex), every piece its own
process on this machine: the hub (``manage.py serve``: on PostgreSQL and Redis when
``DATABASE_URL`` and ``REDIS_URL`` are set, as the settings read them, else on a SQLite
data folder of its own) and N centres, each with its own data folder (SQLite), joined to
the hub through a byte-counting TCP relay of its own, and played to the end by P virtual
players with ``multiplex_play`` (centre 1 draws and publishes, the others follow the hub,
syncing and waiting), all started at the same time as in a live multiplex.

Measured and printed (and written with ``--json``): the game's wall time, rounds placed,
players in all; the CPU the centres and the hub used meanwhile and the machine's load;
the merged ranking once every centre has finished (``export standings`` on the hub, the
command's wall time and the computation alone in the hub's process); the data each centre
sends per round (the JSON payloads of its outbox, ``tournaments_huboutbox``, by kind) and
what went over the wire both ways (HTTP requests and answers with their headers, TCP/IP
left out, the polls of a waiting follower included). The merged CSV must have P x N rows
and a centre column.

Every wait is bounded, the processes the bench started are always stopped (each in its
own process group) and the temporary folder removed unless ``--keep`` or a failure. Exit
status: 0 when every centre finished the game clean (same rounds, nothing waiting to be
sent, no error), 1 when a centre did not (its log tail printed), 2 when the run could not
be made (setup failed, the hub stopped).
"""


class BenchError(RuntimeError):
    """The run cannot be made (a setup command failed, the hub stopped)."""
