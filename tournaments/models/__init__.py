"""Events, players, games, rounds, slips, rulings, lexicons and the change history.

The database rows are the source of truth: the board, the bag and the reliquat of a game
are rebuilt from its rounds by :mod:`tournaments.state` (a few milliseconds), never kept
twice.

A module per entity: ``lexicons``, ``events``, ``players`` (their seat codes and phones'
tokens too), ``games``, ``rounds``, ``slips``, ``rulings``, ``history`` and ``sheets``.
Django loads an app's models from its ``models`` module, so this package imports every
model class, and callers import the models from here (``from tournaments.models import
Event``), as Django's own models packages do. Everything else the modules hold (the
QuerySets, ``counted_rounds``, the seat codes, ``handed_in_at``, ``JOIN_WAIT``) is imported
from its module.
"""

from tournaments.models.events import Event
from tournaments.models.games import Game
from tournaments.models.history import HistoryEntry
from tournaments.models.lexicons import Lexicon
from tournaments.models.players import Player, PlayerToken
from tournaments.models.rounds import Round
from tournaments.models.rulings import Ruling
from tournaments.models.sheets import PrintedSheet
from tournaments.models.slips import Slip

__all__ = [
    "Event",
    "Game",
    "HistoryEntry",
    "Lexicon",
    "Player",
    "PlayerToken",
    "PrintedSheet",
    "Round",
    "Ruling",
    "Slip",
]
