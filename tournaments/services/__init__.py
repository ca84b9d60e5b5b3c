"""Every write of the domain: keyword-only, typed, transactional, one module per entity.

A caller imports a service from its module (``from tournaments.services.slips import
slip_submit``): this package re-exports nothing. The modules, each importing only ones
listed before it, so that none imports another in a circle:

- ``history``: the entry every change leaves (a slip, a ruling, a draw), and who acted;
- ``lexicons``: the word lists, bundled or uploaded (compiled by a task);
- ``events`` and ``players`` (a table's phone token too), on ``history``;
- ``backups``: the game's file after each placed round, on ``history``; it reads the game
  file of :mod:`tournaments.exports` only when it writes one, after the placement's commit;
- ``games`` (start, draws, end), on ``backups``;
- ``rounds`` (open, close, solve, top, place), on ``games``;
- ``ruling_store`` (a round's slips and rulings read as values, written in bulk with their
  history), on ``history``;
- ``rulings`` (a round ruled whole: at the close, ahead while open), on ``rounds`` and
  ``ruling_store``; ``corrections`` (the arbitrator's: overrides, averages, shifted
  references, slips read again), on ``rulings``;
- ``slips``, on ``rulings``; ``phone_slips`` (a phone's slip in one round trip, the
  hall's hot path), on ``slips``;
- ``watchdog`` (the tasks of rounds left waiting sent again), on ``games``;
- ``sheets`` (the printed sheets), on ``history``;
- ``demo`` and ``transfer`` (the game file in and out), above the services they call.

The Celery tasks (:mod:`tournaments.tasks`) call the services, which send them through
:mod:`tournaments.queue`, a module that imports neither.
"""
