"""Adjudication of slips (docs/rules.md#adjudication): pure functions, no Django.

The event services read a slip and the round's position from the database, call
:func:`adjudicate_slips` for each player, then :func:`credit_round` once the top is known,
and store the results. Every number and every ruling where practices differ is an event
setting (:class:`AdjudicationSettings`) with the FISF practice as its default.

The rules by responsibility: :mod:`.settings` (the event's settings), :mod:`.verdicts`
(the slip as typed, the verdict, its reason and notes), :mod:`.reading` (a slip read and a
move judged where the slip puts it), :mod:`.references` (a word its reference does not
place: found elsewhere on the board), :mod:`.slips` (a player's slips ruled, the first
round, a shifted placement accepted) and :mod:`.credit` (a round credited: tops, solos, the
warning penalty). The names imported here (``__all__``) are the API the domain, the
calculator and the multiplex use; the modules import one another, never this one.
"""

from scoring.adjudication.credit import Credit, counts_for_top, credit_round, solo_winner, warning_penalty
from scoring.adjudication.reading import unreadable
from scoring.adjudication.settings import (
    BLANK_READINGS,
    REFERENCE_RULES,
    SCORE_POLICIES,
    AdjudicationSettings,
)
from scoring.adjudication.slips import accept_shift, adjudicate_slip, adjudicate_slips
from scoring.adjudication.verdicts import PENALISED_REASONS, REASON_TEXT, Note, Reason, SlipInput, Verdict

__all__ = [
    "BLANK_READINGS",
    "PENALISED_REASONS",
    "REASON_TEXT",
    "REFERENCE_RULES",
    "SCORE_POLICIES",
    "AdjudicationSettings",
    "Credit",
    "Note",
    "Reason",
    "SlipInput",
    "Verdict",
    "accept_shift",
    "adjudicate_slip",
    "adjudicate_slips",
    "counts_for_top",
    "credit_round",
    "solo_winner",
    "unreadable",
    "warning_penalty",
]
