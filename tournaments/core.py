"""What every part of the domain and the rooms above it share: the refusal type, who
acts, and the lists of event settings. Models and services import this module; it imports
neither, so no circle can start here."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser

from solver.formats.record import GameConfig

User = AuthUser | AnonymousUser | None


class ApplicationError(Exception):
    """A refused action, with a message for the person who asked and optional detail."""

    def __init__(self, message: str, extra: dict[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.extra = extra or {}


#: Every setting of an event besides its name, first day and word list, in the order the
#: console's form shows them.
EVENT_SETTINGS = (
    "ends_on",
    "language",
    "board",
    "smooth",
    "notation",
    "mode",
    "round_seconds",
    "random_seed",
    "bingo_bonus",
    "first_move_horizontal",
    "y_counts_as",
    "early_rounds",
    "early_vowels",
    "early_consonants",
    "late_vowels",
    "late_consonants",
    "early_fallback",
    "score_policy",
    "free_warnings",
    "warning_penalty",
    "shift_penalty",
    "solo_bonus",
    "solo_min_players",
    "unmarked_blank_warning",
    "first_slip_best_placement",
    "reference_rule",
    "raccord",
    "misplaced_blank_warning",
    "blank_reading",
    "several_slips_void",
    "single_warning",
    "omitted_last_letter",
    "solo_below_top",
    "phone_replace",
    "publish_at_close",
    "solo_players",
    "tie_break",
    "hall_language",
    "seating",
)


#: Settings that may change after the first game started: they do not change the draws,
#: the board or the scores already stored (the others would stop the games replaying).
#: The name and the days too: a misspelled name would go on every sheet; and when the
#: results are shown, which changes no score.
LIVE_SETTINGS = {
    "name",
    "starts_on",
    "ends_on",
    "round_seconds",
    "publish_at_close",
    "hall_language",
    # How phones take a table: to confirm them by hand when cards went missing, say.
    "seating",
}


#: The settings a game record carries: an imported event takes them from the record.
RECORD_SETTINGS = tuple(f.name for f in dataclasses.fields(GameConfig) if f.name in EVENT_SETTINGS)

#: The event's settings a game file (tournaments/services/transfer.py) carries besides the
#: record's: how the slips were written and ruled. A restored game keeps them; a master game
#: takes them as defaults.
FILE_SETTINGS = tuple(
    key for key in EVENT_SETTINGS if key not in RECORD_SETTINGS and key not in ("random_seed", "ends_on")
)


#: No move scores more on any board; a bigger number is a typing error, not a score.
MAX_ANNOUNCED = 9999


#: The arbitrator's figures on a ruling. The points credited reach as far as a move's, either
#: way (a warning penalty can leave a round below 0), and so does a penalty; a slip earns a
#: few warnings at most. Anything beyond is a typing error, and further on a number the
#: columns cannot hold: an OverflowError (SQLite) or a DataError (PostgreSQL), a 500 instead
#: of a refusal.
MAX_CREDITED = MAX_ANNOUNCED
MAX_WARNINGS = 99
