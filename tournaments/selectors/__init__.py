"""The read layer of the domain, shared by the console, the phone and projector pages, the
terminal commands and the API, one module per entity or concern; a caller imports a
read from its module (this package re-exports nothing):

- ``events``: the events a caller may list, one by its join code, an event's history
  and printed sheets;
- ``lexicons``: a word list by its name;
- ``players``: who sits at a table, the phones' tokens, the joins waiting, the categories;
- ``games``: the game being played, the round the arbitrator acts on (and the others of
  a game), what a player may see of a round (``player_sight``);
- ``slips``: the watch of an open round, a round's slips, what a phone shows of its own
  player (read as values: rooms/lines.py shapes them);
- ``review``: the review of a round (the rulings by move and by reason), one ruling;
- ``live``: the live versions the pages poll;
- ``shown``: the game as the phones, the projector and the API show it, cached per live
  version.

The shapes only one front-end draws live with it (the console's lists in rooms/listed.py,
the phones' own lines in rooms/lines.py); the ones both draw are here (``GameView``,
``Review``, ``SlipWatch``, ``LiveVersions``, ``PlayerSight``).
"""
