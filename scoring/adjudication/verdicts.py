"""What a slip says, and what the ruling on it says: the verdict, its reason, and its notes.

A ruling explains itself with **notes**: message codes with parameters
(:mod:`solver.messages`), English here and on the terminal, translated by the pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from solver.errors import SolverError
from solver.messages import gettext_noop, register, render


class Reason:
    """Stable codes stored in the database; :data:`REASON_TEXT` has the sentences."""

    OK = "ok"
    MISSING = "missing"
    LATE = "late"
    BLANK_SLIP = "blank_slip"
    SEVERAL_SLIPS = "several_slips"
    UNREADABLE = "unreadable"
    ILLEGAL = "illegal"
    NOT_IN_LEXICON = "not_in_lexicon"
    WRONG_REFERENCE = "wrong_reference"
    OMITTED_LETTERS = "omitted_letters"
    SHIFT_ACCEPTED = "shift_accepted"
    OVERRIDDEN = "overridden"
    AVERAGE = "average"


REASON_TEXT: dict[str, str] = {
    Reason.OK: gettext_noop("The move is valid and scored."),
    Reason.MISSING: gettext_noop("No slip was handed in for this round."),
    Reason.LATE: gettext_noop("The slip arrived too late."),
    Reason.BLANK_SLIP: gettext_noop("The slip is blank."),
    Reason.SEVERAL_SLIPS: gettext_noop("Several slips were handed in for this round: it scores 0."),
    Reason.UNREADABLE: gettext_noop("The slip cannot be read."),
    Reason.ILLEGAL: gettext_noop("The word cannot be placed there with this rack on this board."),
    Reason.NOT_IN_LEXICON: gettext_noop("A word formed is not in the event's lexicon."),
    Reason.WRONG_REFERENCE: gettext_noop(
        "The reference is wrong or missing, but the announced score matches a placement of the word:"
        " that score, with a penalty."
    ),
    Reason.OMITTED_LETTERS: gettext_noop(
        "Letters already on the board are missing from the written word, but the announced score"
        " matches the whole word: that score, with a penalty."
    ),
    Reason.SHIFT_ACCEPTED: gettext_noop(
        "The reference was shifted; the arbitrator accepted the nearby placement with a penalty."
    ),
    Reason.OVERRIDDEN: gettext_noop("The arbitrator changed the ruling."),
    Reason.AVERAGE: gettext_noop(
        "The arbitrator credited the average of the other players instead of a second 0 for the same fault."
    ),
}

#: The notes of a ruling (docs/rules.md#adjudication), by code.
NOTES: dict[str, str] = {
    "no_slip": gettext_noop("no slip for this round"),
    "late_slip": gettext_noop("the slip arrived after the round closed"),
    "time_up": gettext_noop("the slip arrived after time was up"),
    "blank_slip": gettext_noop("the slip is blank"),
    "several_slips": gettext_noop("%(count)s slips handed in for this round: several slips make it void"),
    "scores": gettext_noop("%(move)s scores %(score)s"),
    "first_round": gettext_noop("first round: the word is paid at its best placement, %(move)s"),
    "no_score_announced": gettext_noop("no score announced: warning"),
    "wrong_score": gettext_noop("announced %(announced)s: warning"),
    "lower_score": gettext_noop("announced %(announced)s: credited as written"),
    "higher_score": gettext_noop("announced %(announced)s, %(excess)s too many: loses twice the excess"),
    "blank_not_marked": gettext_noop("blank not marked: warning"),
    "blank_misplaced": gettext_noop("blank marked on a letter it cannot stand for: warning"),
    "not_in_lexicon_one": gettext_noop("%(words)s is not in the lexicon"),
    "not_in_lexicon_many": gettext_noop("%(words)s are not in the lexicon"),
    "reference_missing": gettext_noop(
        "no reference: %(move)s scores the announced %(score)s, %(penalty)s-point penalty"
    ),
    "reference_wrong": gettext_noop(
        "reference %(written)s wrong: %(move)s scores the announced %(score)s, %(penalty)s-point penalty"
    ),
    "reference_no_score": gettext_noop("the reference is wrong and no score is announced: the slip scores 0"),
    "reference_no_match": gettext_noop(
        "the reference is wrong and no placement of %(word)s scores the announced %(announced)s"
    ),
    "last_letter_omitted": gettext_noop(
        "the last letter %(letter)s, already on the board, left out of the word: %(move)s scores the"
        " announced %(score)s, %(penalty)s-point penalty"
    ),
    "last_letter_miswritten": gettext_noop(
        "the last letter %(letter)s, already on the board, miswritten: %(move)s scores the announced"
        " %(score)s, %(penalty)s-point penalty"
    ),
    "penalty_too_high": gettext_noop(
        "%(move)s scores only %(score)s: with the %(penalty)s-point penalty nothing is left,"
        " the slip scores 0"
    ),
    "raccord": gettext_noop("located by the raccord %(letters)s: %(move)s"),
    "raccord_two_letters": gettext_noop("a raccord of two letters only: warning"),
    "prolongation": gettext_noop("%(move)s prolongs %(word)s: no reference needed"),
    "prolongation_two_letters": gettext_noop(
        "a two-letter word prolonged without a third raccord letter or a correct reference: warning"
    ),
    "reference_inverted": gettext_noop(
        "reference %(written)s written the other way round, %(move)s: warning"
    ),
    "shift_offered": gettext_noop(
        "the word fits at %(move)s only: the arbitrator may accept it with a %(penalty)s-point penalty"
    ),
    "shift_accepted": gettext_noop(
        "written %(written)s: shifted reference accepted, %(penalty)s-point penalty"
    ),
}
register(NOTES)
register({f"reason_{code}": text for code, text in REASON_TEXT.items()})

#: Reasons whose verdict carries the ``shift_penalty``.
PENALISED_REASONS = (Reason.WRONG_REFERENCE, Reason.OMITTED_LETTERS, Reason.SHIFT_ACCEPTED)


@dataclass(frozen=True)
class SlipInput:
    """What the slip says, as typed."""

    coordinates: str
    word: str
    announced: int | None
    late: bool = False
    #: A late slip that reached the arbitrator after the deadline (not only after a close
    #: that came before it): said "time was up", not "the round closed".
    after_time: bool = False


@dataclass(frozen=True)
class Note:
    """One sentence of a ruling: a message code and its parameters."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, error: SolverError) -> Note:
        return cls(error.code, dict(error.params))

    def text(self) -> str:
        return render(self.code, self.params)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


@dataclass(frozen=True)
class Verdict:
    """The ruling on one slip, before the round-level bonuses and penalties."""

    reason: str
    notes: tuple[Note, ...] = ()
    move: str = ""
    move_score: int = 0
    score: int = 0
    warnings: int = 0
    penalty: int = 0
    letterpoints: int = 0
    invalid_words: tuple[str, ...] = ()
    shift_candidate: str = ""

    @property
    def detail(self) -> str:
        """The notes in English, as the terminal and the stored ruling show them."""
        return "; ".join(note.text() for note in self.notes)

    def noted(self, *notes: Note) -> Verdict:
        return replace(self, notes=self.notes + notes)
