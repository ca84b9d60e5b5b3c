"""Live-updates benchmark: ``python -m bench.live [--clients 50,200] [--seconds 20] [--quick] [--json FILE]``.

Answers the README's question "polling or server-sent events?" with figures from this
machine. For each number of phones it starts the product's web server (``manage.py
runserver --noreload``, threaded WSGI, what ``serve`` runs) on a fresh temporary data
folder (embedded SQLite) and measures:

* polling: every phone (a thread with its own keep-alive connection and session cookie)
  asks ``/live/<event>/`` one second after its previous answer, as live.js does;
* server-sent events: every phone holds one stream of ``/live/<event>/stream/`` (it
  looks at the same cached versions every 0.2 s).

During each run the bench process changes the event's state at random moments through
:mod:`tournaments.services` (the round opens, then the time per round changes: each a
committed service call that writes a history row) and times, for every phone, how long
after the commit it saw the new ``public`` version. It reads the server's CPU time,
threads and memory from /proc. A last run hammers the polling endpoint with a few
keep-alive clients and no pause: how many phones one server process can serve.

A script, not a timed test: the figures go into the README by hand. Linux only (/proc).
Every client loop stops at its run's deadline; the servers are always stopped.
"""
