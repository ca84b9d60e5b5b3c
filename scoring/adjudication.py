"""Adjudication of slips (docs/rules.md#adjudication): pure functions, no Django.

The event services read a slip and the round's position from the database, call
:func:`adjudicate_slips` for each player, then :func:`credit_round` once the top is known,
and store the results. Every number and every ruling where practices differ is an event
setting (:class:`AdjudicationSettings`) with the FISF practice as its default.

A ruling explains itself with **notes**: message codes with parameters
(:mod:`solver.messages`), English here and on the terminal, translated by the pages.

Decisions where the rules leave room:

* **Reading a slip.** The coordinates and the word are read together with the event's
  notation. Coordinates holding a comma are the scramble form (``h8,a``), which carries its
  own direction and is accepted whatever the notation. Spaces inside the coordinates are
  ignored (``H 4``), and a slip typed entirely in the coordinates field (``H4 WORD`` or
  ``h8,a,word``) is split back into coordinates and word: the arbitrator typing a paper
  slip should not lose the player's points to a field mix-up.
* **English score policy.** A too-high announced score loses twice the excess, but the
  score of a slip is **clamped at 0**: an over-announcement never costs more than playing
  nothing (an invalid slip scores 0), and penalties stay a separate, visible column.
* **Unmarked blank.** One warning per slip, however many blanks were implied.
* **Wrong reference, FISF 2016** (``reference_rule="fisf2016"``). When the written move
  cannot be played where the slip puts it (illegal there, a word not in the lexicon there,
  coordinates unreadable or missing) but the word reads, every placement of the word on
  the board is tried, in the written direction when the slip shows one. Those scoring the
  announced score, legal with every word valid, are the player's move: the nearest to the
  written square is credited, less ``shift_penalty``. No announced score, or none
  matching: 0.
* **Shifted reference, arbitrator's choice** (``reference_rule="nearby"``). The same word
  is tried at the 8 squares around the written start in the same direction, and at the
  written start and its 8 neighbours in the other direction (``H4``/``4H`` swapped). When
  the direction itself is unknown (scramble form without ``a``/``d``), both directions are
  tried at all 9 squares. Exactly one legal placement with every word valid is offered as
  ``shift_candidate``; none or several: nothing is offered (guessing between two would be
  the arbitrator choosing the player's move). The verdict stays 0 until the arbitrator
  calls :func:`accept_shift`; the candidate is then judged like any slip and the
  ``shift_penalty`` recorded as the slip's penalty.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from solver.boards import Board
from solver.errors import IllegalMoveError, InvalidMoveError, SolverError
from solver.lexicon import Lexicon
from solver.messages import gettext_noop, register, render
from solver.move import Move
from solver.notation import STYLES, format_move, parse_coord, parse_move, parse_word
from solver.rules import Rules, Scored, validate
from solver.tiles import code_char

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
    "warning_penalty",
]

SCORE_POLICIES = ("fisf", "english")
REFERENCE_RULES = ("fisf2016", "nearby")
#: How an unmarked blank is read: the announced score's reading, else the lowest (FISF)
#: or the last occurrences (the Scramble help); or always the highest-scoring reading.
BLANK_READINGS = ("announced", "last", "best")


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

#: Reasons whose move counts for the top and the solo.
_SCORED_REASONS = (
    Reason.OK,
    Reason.WRONG_REFERENCE,
    Reason.OMITTED_LETTERS,
    Reason.SHIFT_ACCEPTED,
    Reason.OVERRIDDEN,
)
#: Reasons whose verdict carries the ``shift_penalty``.
PENALISED_REASONS = (Reason.WRONG_REFERENCE, Reason.OMITTED_LETTERS, Reason.SHIFT_ACCEPTED)
#: Reasons whose penalty the arbitrator set: no warning penalty is added to it.
_SET_BY_ARBITRATOR = (Reason.OVERRIDDEN, Reason.AVERAGE)


@dataclass(frozen=True)
class AdjudicationSettings:
    """The event's adjudication settings, with the defaults of docs/rules.md#event-settings."""

    score_policy: str = "fisf"
    free_warnings: int = 3
    warning_penalty: int = 5
    shift_penalty: int = 5
    solo_bonus: int = 10
    solo_min_players: int = 16
    unmarked_blank_warning: bool = True
    notation: str = "fisf"
    #: First round: the word at its best placement, whatever the reference (FISF).
    first_slip_best_placement: bool = True
    #: A wrong or missing reference: the FISF 2016 rule, or the arbitrator's nearby choice.
    reference_rule: str = "fisf2016"
    #: A blank circled on a letter it cannot stand for: a warning (FISF), else 0.
    misplaced_blank_warning: bool = True
    #: An unmarked blank (BLANK_READINGS): as the announced score says, else the lowest (FISF).
    blank_reading: str = "announced"
    #: Several slips handed in for one round score 0 (FISF), else the last one counts.
    several_slips_void: bool = True
    #: A word located by raccord letters, or prolonging a word of the board, needs no
    #: coordinates (FISF regulation 4.3.2, 5.3).
    raccord: bool = True
    #: At most one warning for a slip, none beside a penalty or a 0 (FISF 5.8).
    single_warning: bool = True
    #: The last letter of the word, already on the board, left out or miswritten: the
    #: score less the penalty when the score is the whole word's (FISF 2016), else 0.
    omitted_last_letter: bool = True
    #: The solo goes to the one best score of the round even below the top (FISF 3.5);
    #: off, only to the one player on the top.
    solo_below_top: bool = True

    def __post_init__(self) -> None:
        choices = (
            ("score_policy", SCORE_POLICIES),
            ("notation", STYLES),
            ("reference_rule", REFERENCE_RULES),
            ("blank_reading", BLANK_READINGS),
        )
        for name, allowed in choices:
            if getattr(self, name) not in allowed:
                raise ValueError(f"unknown {name} {getattr(self, name)!r}: choose {', '.join(allowed)}")
        for name in ("free_warnings", "warning_penalty", "shift_penalty", "solo_bonus", "solo_min_players"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} cannot be negative")


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


@dataclass(frozen=True)
class Credit:
    """What a player is credited for a round."""

    credited: int
    penalty: int
    solo: bool
    is_top: bool
    warnings: int


K = TypeVar("K", bound=Hashable)
#: (row, col, across or None when the slip shows no direction), 0-based; off-board allowed.
Reference = tuple[int, int, bool | None]

# Lenient square reading for the reference search: the same shapes notation.py reads, but
# squares off the board are kept so that their on-board neighbours can still be tried.
_LETTER_FIRST = re.compile(r"([A-Za-z])([0-9]{1,3})", re.ASCII)
_NUMBER_FIRST = re.compile(r"([0-9]{1,3})([A-Za-z])", re.ASCII)
_DIRECTIONS = {"a": True, "across": True, "d": False, "down": False}


def _split_slip(slip: SlipInput) -> tuple[str, str]:
    """(coordinates, word) as the parser should see them; see the module docstring."""
    coords, word = slip.coordinates.strip(), slip.word.strip()
    if not word:
        if coords.count(",") >= 2:
            coords, word = (part.strip() for part in coords.rsplit(",", 1))
        elif len(coords.split()) == 2:
            coords, word = coords.split()
    return "".join(coords.split()), word


def _read_move(coords: str, word: str, notation: str, size: int) -> Move:
    """The slip's move; raises InvalidMoveError (unreadable) or IllegalMoveError."""
    if not coords:
        raise InvalidMoveError("missing_coordinates")
    if not word:
        raise InvalidMoveError("missing_word_after", coordinates=coords)
    # The comma form names its own direction, so it is read the same in every notation.
    text = f"{coords},{word}" if "," in coords else f"{coords} {word}"
    return parse_move(text, notation, size)


def _rough_reference(coords: str, notation: str) -> Reference | None:
    """Where the slip points, even off the board or without a direction, for the
    reference search, or None when no square can be read."""
    location, _, direction = coords.partition(",")
    match = _LETTER_FIRST.fullmatch(location) or _NUMBER_FIRST.fullmatch(location)
    if match is None:
        return None
    letter_first = match[1].isalpha()
    letter, number = (match[1], match[2]) if letter_first else (match[2], match[1])
    letter_index, number_index = ord(letter.upper()) - ord("A"), int(number) - 1
    comma_form = "," in coords
    # fisf names rows by letter; gcg and the scramble location name columns by letter.
    letter_is_row = notation == "fisf" and not comma_form
    row, col = (letter_index, number_index) if letter_is_row else (number_index, letter_index)
    across: bool | None
    if comma_form:
        across = _DIRECTIONS.get(direction.split(",")[0].lower())
    elif notation == "scramble":
        across = None  # the scramble style has no direction without the comma form
    else:
        across = letter_first == letter_is_row
    return row, col, across


def _reading(settings: AdjudicationSettings, announced: int | None) -> dict[str, Any]:
    """How :func:`solver.rules.validate` reads an unmarked blank under the settings."""
    if settings.blank_reading == "best":
        return {"announced": None, "otherwise": "best"}
    fallback = "least" if settings.blank_reading == "announced" else "last"
    return {"announced": announced, "otherwise": fallback}


def _judged(
    board: Board,
    move: Move,
    rack: list[int],
    lexicon: Lexicon | None,
    rules: Rules | None,
    settings: AdjudicationSettings,
    announced: int | None,
) -> tuple[Scored, bool]:
    """The move scored (words not enforced) and whether its blank marking was wrong.

    A blank circled on a letter it cannot stand for there (or circled with no blank in the
    rack) is read again without the circles: when the rack then gives the word, the FISF
    gives a warning, not 0 (``misplaced_blank_warning``). Raises IllegalMoveError."""
    reading = _reading(settings, announced)
    try:
        return validate(board, move, rack, lexicon, rules, enforce_words=False, **reading), False
    except IllegalMoveError:
        if not settings.misplaced_blank_warning or move.word == move.word.upper():
            raise
        plain = Move(move.row, move.col, move.across, move.word.upper())
        try:
            scored = validate(board, plain, rack, lexicon, rules, enforce_words=False, **reading)
        except IllegalMoveError:
            pass
        else:
            return scored, True
        raise


def _valid(
    board: Board,
    move: Move,
    rack: list[int],
    lexicon: Lexicon | None,
    rules: Rules | None,
    settings: AdjudicationSettings,
    announced: int | None,
) -> tuple[Scored, bool] | None:
    """As :func:`_judged` when the move is legal with every word in the lexicon, else None."""
    try:
        scored, misplaced = _judged(board, move, rack, lexicon, rules, settings, announced)
    except IllegalMoveError:
        return None
    return None if scored.invalid_words else (scored, misplaced)


def _placements(board: Board, word: str, across: bool | None) -> Iterator[Move]:
    """Every start from which ``word`` fits on the board, in board order."""
    size, length = board.size, len(word)
    for direction in (True, False) if across is None else (across,):
        for row in range(size if direction else size - length + 1):
            for col in range(size - length + 1 if direction else size):
                yield Move(row, col, direction, word)


def _nearest(found: Sequence[tuple[Scored, bool]], reference: Reference | None) -> tuple[Scored, bool]:
    """The placement nearest the written square, in the written direction among equals,
    then in board order."""
    if reference is None:
        return found[0]
    row, col, across = reference

    def distance(judged: tuple[Scored, bool]) -> tuple[int, bool]:
        move = judged[0].move
        return abs(move.row - row) + abs(move.col - col), across is not None and move.across != across

    return min(found, key=distance)


def _announced(
    settings: AdjudicationSettings, announced: int | None, move_score: int
) -> tuple[int, int, tuple[Note, ...]]:
    """(score credited for the move, warnings, notes) under the announced-score policy."""
    if announced is None:
        return move_score, 1, (Note("no_score_announced"),)
    if announced == move_score:
        return move_score, 0, ()
    if settings.score_policy == "fisf":
        return move_score, 1, (Note("wrong_score", {"announced": announced}),)
    if announced < move_score:
        return announced, 0, (Note("lower_score", {"announced": announced}),)
    excess = announced - move_score
    # Clamped at 0: an over-announcement never costs more than an invalid slip (module doc).
    credited = max(0, move_score - 2 * excess)
    return credited, 0, (Note("higher_score", {"announced": announced, "excess": excess}),)


def _scored_verdict(
    reason: str,
    board: Board,
    judged: tuple[Scored, bool],
    slip: SlipInput,
    settings: AdjudicationSettings,
    *,
    first: tuple[Note, ...] = (),
    penalty: int = 0,
    blank_fault: str | None = None,
) -> Verdict:
    """A valid move judged against the announced score and the blank marking
    (``blank_fault``: the caller's finding, else read from ``judged``)."""
    scored, misplaced = judged
    score, warnings, notes = _announced(settings, slip.announced, scored.score)
    if blank_fault is None:
        if misplaced:
            blank_fault = "blank_misplaced"
        elif scored.implied_blanks and settings.unmarked_blank_warning:
            blank_fault = "blank_not_marked"
    if blank_fault:  # "": the caller found none
        warnings += 1
        notes = (*notes, Note(blank_fault))
    if settings.single_warning:
        # FISF 5.8: one warning at most for a round, and none beside a penalty.
        warnings = 0 if penalty else min(warnings, 1)
        if penalty:
            notes = ()
    shown = format_move(scored.move, settings.notation)
    return Verdict(
        reason=reason,
        notes=(*first, Note("scores", {"move": shown, "score": scored.score}), *notes),
        move=format_move(scored.move, "gcg"),
        move_score=scored.score,
        score=score,
        warnings=warnings,
        penalty=penalty,
        letterpoints=scored.letterpoints(board),
    )


def _not_in_lexicon(scored: Scored) -> Note:
    """Which words are not in the list; ``score`` (not said) is what the move would have
    scored, the cap of an average given instead of a second 0 (FISF 5.9)."""
    invalid = scored.invalid_words
    code = "not_in_lexicon_one" if len(invalid) == 1 else "not_in_lexicon_many"
    return Note(code, {"words": ", ".join(invalid), "score": scored.score})


@dataclass(frozen=True)
class _Round:
    """What every slip of a round is judged against."""

    board: Board
    rack: list[int]
    lexicon: Lexicon | None
    rules: Rules | None
    settings: AdjudicationSettings

    def judged(self, move: Move, announced: int | None) -> tuple[Scored, bool]:
        return _judged(self.board, move, self.rack, self.lexicon, self.rules, self.settings, announced)

    def valid(self, move: Move, announced: int | None) -> tuple[Scored, bool] | None:
        return _valid(self.board, move, self.rack, self.lexicon, self.rules, self.settings, announced)

    def gcg(self, move: Move) -> str:
        return format_move(move, "gcg")

    def shown(self, move: Move) -> str:
        return format_move(move, self.settings.notation)


def adjudicate_slips(
    board: Board,
    rack: list[int],
    lexicon: Lexicon | None,
    rules: Rules | None,
    settings: AdjudicationSettings,
    slips: Sequence[SlipInput],
) -> Verdict:
    """Rule on every slip one player handed in for a round, in the order received.

    None: missing. A blank slip beside a filled one is no second slip: the filled one is
    ruled (FISF 5.7 voids "plusieurs bulletins de jeu non vierges"). Several filled ones
    on time: void when ``several_slips_void`` (FISF), else the last one counts. Only late
    slips: the last one, ruled late."""
    on_time = [slip for slip in slips if not slip.late]
    filled = [slip for slip in on_time if any(_split_slip(slip))]
    if len(filled) > 1 and settings.several_slips_void:
        return Verdict(Reason.SEVERAL_SLIPS, (Note("several_slips", {"count": len(filled)}),))
    counted = filled or on_time
    chosen = counted[-1] if counted else (slips[-1] if slips else None)
    return adjudicate_slip(board, rack, lexicon, rules, settings, chosen)


def adjudicate_slip(
    board: Board,
    rack: list[int],
    lexicon: Lexicon | None,
    rules: Rules | None,
    settings: AdjudicationSettings,
    slip: SlipInput | None,
) -> Verdict:
    """Rule on one player's slip for a round (``None``: no slip handed in).

    ``board`` is the position before the round's top is placed and ``rack`` the round's
    rack (codes, blank 0). ``rules.notation`` names squares in the solver's messages.
    """
    if slip is None:
        return Verdict(Reason.MISSING, (Note("no_slip"),))
    if slip.late:
        return Verdict(Reason.LATE, (Note("time_up" if slip.after_time else "late_slip"),))
    coords, word = _split_slip(slip)
    if not coords and not word:
        return Verdict(Reason.BLANK_SLIP, (Note("blank_slip"),))
    ctx = _Round(board, rack, lexicon, rules, settings)
    if board.is_empty() and settings.first_slip_best_placement and word:
        first = _first_round(ctx, slip, word, coords)
        if first is not None:
            return first
    size = board.size
    try:
        move = _read_move(coords, word, settings.notation, size)
    except InvalidMoveError as err:
        written = Verdict(Reason.UNREADABLE, (Note.of(err),))
        letters = _word(word)
        if letters is None or (coords and _reads(coords, settings.notation, size)):
            # No word to look for, or both parts read and the slip as a whole is malformed.
            return written
        reference = _rough_reference(coords, settings.notation) if coords else None
        return _wrong_reference(ctx, slip, written, letters, reference, coords)
    except IllegalMoveError as err:
        # Readable but off the board: parse_move checked the coordinates and the word.
        row, col, across = parse_coord(coords, settings.notation, size)
        written_move = Move(row, col, across, parse_word(word))
        written = Verdict(Reason.ILLEGAL, (Note.of(err),), move=ctx.gcg(written_move))
        return _wrong_reference(ctx, slip, written, written_move.word, (row, col, across), coords)
    try:
        judged = ctx.judged(move, slip.announced)
    except IllegalMoveError as err:
        written = Verdict(Reason.ILLEGAL, (Note.of(err),), move=ctx.gcg(move))
        omitted = _omitted_letters(ctx, slip, move, written)
        if omitted is not None:
            return omitted
        return _wrong_reference(ctx, slip, written, move.word, (move.row, move.col, move.across), coords)
    scored = judged[0]
    if scored.invalid_words:
        written = Verdict(
            Reason.NOT_IN_LEXICON,
            (_not_in_lexicon(scored),),
            move=ctx.gcg(scored.move),
            invalid_words=scored.invalid_words,
        )
        return _wrong_reference(ctx, slip, written, move.word, (move.row, move.col, move.across), coords)
    return _scored_verdict(Reason.OK, board, judged, slip, settings)


def _word(text: str) -> str | None:
    try:
        return parse_word(text)
    except InvalidMoveError:
        return None


def unreadable(slip: SlipInput, notation: str, size: int, any_reference: bool = False) -> Note | None:
    """Why the slip cannot be read at all, or None: no square of a board of ``size`` in its
    coordinates (``Z99`` on a 15x15 board, no coordinates), or a word with a character no
    tile carries. A phone's slip is refused for it at submission, so that the player writes
    it again (the close would rule it unreadable: 0). Nothing about the move's legality or
    its words: a readable slip is taken as it is, and judged at the close.

    ``any_reference``: the game's first slip under ``first_slip_best_placement``, where the
    word counts at its best placement whatever the coordinates (FISF 5.4.2.a): the word
    alone must be readable."""
    coords, word = _split_slip(slip)
    if not coords and not word:
        return None  # a blank slip: handed in as such
    if any_reference:
        try:
            parse_word(word or coords)
        except InvalidMoveError as err:
            return Note.of(err)
        return None
    try:
        _read_move(coords, word, notation, size)
    except InvalidMoveError as err:
        return Note.of(err)
    except IllegalMoveError:
        return None  # read: the close judges where it goes
    return None


def _reads(coords: str, notation: str, size: int) -> bool:
    try:
        parse_coord(coords, notation, size)
    except InvalidMoveError:
        return False
    return True


def _marks(board: Board, move: Move) -> tuple[int, ...]:
    """Positions of the new tiles a move plays as blanks."""
    squares = move.squares(board.size)
    return tuple(i for i, ch in enumerate(move.word) if ch.islower() and not board.squares[squares[i]])


def _first_round(ctx: _Round, slip: SlipInput, word: str, coords: str) -> Verdict | None:
    """The first slip of a game: the word at its best placement, whatever the reference
    and whatever letter is circled (docs/rules.md#first-round; FISF 5.4.2.a): one warning
    when the score is not that maximum or the circling not the maximum's. None when the
    word cannot be read or placed at all: the slip is then ruled as written, with the
    message of its own reference."""
    letters = _word(word)
    if letters is None:
        return None
    rules = ctx.rules or Rules()
    centre = ctx.board.layout.centre
    across = True if rules.first_move_horizontal else None
    legal: list[Scored] = []
    for move in _placements(ctx.board, letters.upper(), across):
        if centre not in move.squares(ctx.board.size):
            continue
        try:
            legal.append(validate(ctx.board, move, ctx.rack, ctx.lexicon, ctx.rules, enforce_words=False))
        except IllegalMoveError:
            continue
    if not legal:
        return None
    written = _rough_reference(coords, ctx.settings.notation) if coords else None
    valid = [(scored, False) for scored in legal if not scored.invalid_words]
    if not valid:
        scored = _nearest([(scored, False) for scored in legal], written)[0]
        return Verdict(
            Reason.NOT_IN_LEXICON,
            (_not_in_lexicon(scored),),
            move=ctx.gcg(scored.move),
            invalid_words=scored.invalid_words,
        )
    top = max(judged[0].score for judged in valid)
    # "Quel que soit l'encerclement éventuel" (5.4.2.a): a blank circled on a letter it may
    # stand for, scoring the maximum somewhere, is that placement, with no warning.
    circled = _as_circled(ctx, letters, {(j.move.row, j.move.col, j.move.across) for j in legal}, top)
    chosen = _nearest(circled or [judged for judged in valid if judged[0].score == top], written)
    move = chosen[0].move
    fault = None
    if _marks(ctx.board, move) != _marks(ctx.board, Move(move.row, move.col, move.across, letters)):
        unmarked = not any(ch.islower() for ch in letters)
        if not unmarked or ctx.settings.unmarked_blank_warning:
            fault = "blank_not_marked" if unmarked else "blank_misplaced"
    first = (
        ()
        if written == (move.row, move.col, move.across)
        else (Note("first_round", {"move": ctx.shown(move)}),)
    )
    return _scored_verdict(
        Reason.OK, ctx.board, chosen, slip, ctx.settings, first=first, blank_fault=fault or ""
    )


def _as_circled(
    ctx: _Round, letters: str, places: set[tuple[int, int, bool]], top: int
) -> list[tuple[Scored, bool]]:
    """The first slip's word with its blanks where the player circled them, at each of
    ``places`` where it is legal, valid and scores ``top``."""
    if not any(ch.islower() for ch in letters):
        return []  # nothing circled: the maximum's reading is taken
    found = []
    for row, col, across in sorted(places):
        try:
            scored = validate(ctx.board, Move(row, col, across, letters), ctx.rack, ctx.lexicon, ctx.rules)
        except IllegalMoveError:
            continue
        if scored.score == top and not scored.invalid_words:
            found.append((scored, False))
    return found


def _penalised(
    ctx: _Round, reason: str, judged: tuple[Scored, bool], slip: SlipInput, note: Note, written: Verdict
) -> Verdict:
    """A move credited its score less the penalty, or 0 when that would leave nothing:
    FISF 5.3.3, a solution worth at most 4 points under the 5-point penalty scores 0
    ("pas de score négatif")."""
    penalty = ctx.settings.shift_penalty
    if judged[0].score < penalty:
        return written.noted(
            Note(
                "penalty_too_high",
                {"move": ctx.shown(judged[0].move), "score": judged[0].score, "penalty": penalty},
            )
        )
    return _scored_verdict(reason, ctx.board, judged, slip, ctx.settings, first=(note,), penalty=penalty)


def _omitted_letters(ctx: _Round, slip: SlipInput, move: Move, written: Verdict) -> Verdict | None:
    """FISF 2016 (5.3.1): the word's last letter, already on the board, left out of the
    slip or miswritten on it (docs/rules.md#last-letter-left-out). Credited less the
    penalty when the announced score is the whole word's; None when the rule does not
    apply (the slip stays as ruled)."""
    settings = ctx.settings
    if not settings.omitted_last_letter or settings.reference_rule != "fisf2016" or slip.announced is None:
        return None
    board, size = ctx.board, ctx.board.size
    squares = move.squares(size)
    step = 1 if move.across else size
    along = (move.col if move.across else move.row) + len(move.word) - 1
    after = squares[-1] + step
    if along + 1 < size and board.squares[after]:
        # Left out: one letter on the board just after the written word, and nothing after it.
        if along + 2 < size and board.squares[after + step]:
            return None
        letter, whole = code_char(board.squares[after]), move.word + code_char(board.squares[after])
        code = "last_letter_omitted"
    elif (
        board.squares[squares[-1]] and code_char(board.squares[squares[-1]]).upper() != move.word[-1].upper()
    ):
        # Miswritten: the last square holds a board letter the slip names differently.
        letter = code_char(board.squares[squares[-1]])
        whole, code = move.word[:-1] + letter, "last_letter_miswritten"
    else:
        return None
    found = ctx.valid(Move(move.row, move.col, move.across, whole), slip.announced)
    if found is None or found[0].score != slip.announced:
        return None
    params = {"letter": letter.upper(), "move": ctx.shown(found[0].move), "score": found[0].score}
    note = Note(code, {**params, "penalty": settings.shift_penalty})
    return _penalised(ctx, Reason.OMITTED_LETTERS, found, slip, note, written)


def _inverted(
    ctx: _Round, slip: SlipInput, word: str, reference: Reference | None, coords: str
) -> Verdict | None:
    """FISF 5.3: a reference written the other way round (``8H`` for ``H8``) is a correct
    location with a warning, when the word is legal and valid that way."""
    if reference is None or reference[2] is None or not coords:
        return None
    row, col, across = reference
    if not (0 <= row < ctx.board.size and 0 <= col < ctx.board.size):
        return None
    judged = ctx.valid(Move(row, col, not across, word), slip.announced)
    if judged is None:
        return None
    note = Note("reference_inverted", {"written": coords, "move": ctx.shown(judged[0].move)})
    return _located(ctx, slip, judged, note, warning=True)


def _wrong_reference(
    ctx: _Round, slip: SlipInput, written: Verdict, word: str, reference: Reference | None, coords: str
) -> Verdict:
    """A slip whose word cannot be played where it says: the FISF 2016 rule or the
    arbitrator's nearby choice (``reference_rule``, module docstring)."""
    settings = ctx.settings
    if settings.raccord and not ctx.board.is_empty():
        located = _raccord(ctx, slip, word, coords) or _prolongation(ctx, slip, word)
        if located is not None:
            return located
    if settings.reference_rule == "nearby":
        return _with_shift(written, _shift_candidate(ctx, word, reference), settings, ctx.board.size)
    inverted = _inverted(ctx, slip, word, reference, coords)
    if inverted is not None:
        return inverted
    across = reference[2] if reference is not None else None
    found: dict[tuple[tuple[int, int], ...], tuple[Scored, bool]] = {}
    for move in _placements(ctx.board, word, across):
        judged = ctx.valid(move, slip.announced)
        if judged is not None:
            found.setdefault(judged[0].move.key(ctx.board), judged)
    if not found:
        return written  # the word fits nowhere: the written reference's reason says why
    if slip.announced is None:
        return written.noted(Note("reference_no_score"))
    matching = [judged for judged in found.values() if judged[0].score == slip.announced]
    if not matching:
        return written.noted(Note("reference_no_match", {"word": word.upper(), "announced": slip.announced}))
    chosen = _nearest(matching, reference)
    params = {"move": ctx.shown(chosen[0].move), "score": chosen[0].score, "penalty": settings.shift_penalty}
    note = (
        Note("reference_wrong", {"written": coords, **params})
        if coords
        else Note("reference_missing", params)
    )
    return _penalised(ctx, Reason.WRONG_REFERENCE, chosen, slip, note, written)


#: Raccord letters typed where the coordinates go: letters only (coordinates hold digits).
_RACCORD = re.compile(r"[A-Za-z]{2,}", re.ASCII)


def _valid_placements(ctx: _Round, word: str, announced: int | None) -> list[tuple[Scored, bool]]:
    """Every placement of ``word`` legal with every word in the list, once each."""
    found: dict[tuple[tuple[int, int], ...], tuple[Scored, bool]] = {}
    for move in _placements(ctx.board, word, None):
        judged = ctx.valid(move, announced)
        if judged is not None:
            found.setdefault(judged[0].move.key(ctx.board), judged)
    return list(found.values())


def _pick(found: list[tuple[Scored, bool]], announced: int | None) -> tuple[Scored, bool]:
    """Of several places a slip's location allows, the one its announced score names,
    else the lowest (FISF regulation 5.4.2.b)."""
    named = [judged for judged in found if judged[0].score == announced]
    return named[0] if named else min(found, key=lambda judged: judged[0].score)


def _spelled(board: Board, move: Move, letters: str) -> bool:
    """Whether ``letters`` are board letters the move joins: a run of them, in a row or
    a column, one of which lies in the word or beside one of its new tiles (FISF
    regulation 4.3.2: each raccord letter touches a new letter or another raccord letter)."""
    size = board.size
    placed = {square for square, _ in move.placements(board)}
    touched = set(move.squares(size)) | {
        near
        for square in placed
        for near in (square - size, square + size, square - 1, square + 1)
        if 0 <= near < size * size and (near // size == square // size or near % size == square % size)
    }
    touched = {square for square in touched if board.squares[square]}
    n = len(letters)
    for across in (True, False):
        step = 1 if across else size
        for start in range(size * size):
            row, col = divmod(start, size)
            if (col if across else row) + n > size:
                continue
            run = [start + i * step for i in range(n)]
            if all(
                board.squares[sq] and code_char(board.squares[sq]).upper() == ch
                for sq, ch in zip(run, letters, strict=True)
            ) and touched.intersection(run):
                return True
    return False


def _raccord(ctx: _Round, slip: SlipInput, word: str, coords: str) -> Verdict | None:
    """A word located by its raccord letters instead of coordinates (FISF regulation
    4.3.2, docs/rules.md#raccord): three board letters it joins; two are a warning (5.5),
    unless the first move had two letters and this is the second. None when the
    coordinates are not raccord letters or name no placement."""
    if not _RACCORD.fullmatch(coords):
        return None
    letters = coords.upper()
    found = [
        judged
        for judged in _valid_placements(ctx, word, slip.announced)
        if _spelled(ctx.board, judged[0].move, letters)
    ]
    if not found:
        return None
    chosen = _pick(found, slip.announced)
    note = Note("raccord", {"letters": letters, "move": ctx.shown(chosen[0].move)})
    short = len(letters) < 3 and sum(1 for square in ctx.board.squares if square) != 2
    return _located(ctx, slip, chosen, note, fault="raccord_two_letters" if short else "")


def _prolongation(ctx: _Round, slip: SlipInput, word: str) -> Verdict | None:
    """A word that prolongs a word of the board needs no reference (FISF regulation 5.3:
    "en cas de prolongement d'un mot d'au moins trois lettres déjà sur la grille, la
    référence alphanumérique est ignorée"); prolonging a two-letter word without a correct
    reference is a warning (5.5). None when the word prolongs nothing."""
    found: list[tuple[tuple[Scored, bool], str]] = []
    for judged in _valid_placements(ctx, word, slip.announced):
        move = judged[0].move
        board_part = [i for i, square in enumerate(move.squares(ctx.board.size)) if ctx.board.squares[square]]
        # One run of board letters inside the word, with new letters before or after it.
        if len(board_part) >= 2 and board_part == list(range(board_part[0], board_part[-1] + 1)):
            found.append((judged, move.word[board_part[0] : board_part[-1] + 1].upper()))
    if not found:
        return None
    chosen = _pick([judged for judged, _ in found], slip.announced)
    prolonged = next(old for judged, old in found if judged is chosen)
    note = Note("prolongation", {"word": prolonged, "move": ctx.shown(chosen[0].move)})
    return _located(ctx, slip, chosen, note, fault="prolongation_two_letters" if len(prolonged) < 3 else "")


def _located(
    ctx: _Round,
    slip: SlipInput,
    judged: tuple[Scored, bool],
    note: Note,
    *,
    fault: str = "",
    warning: bool = False,
) -> Verdict:
    """A slip located otherwise than by its coordinates, paid as valid; a warning when
    ``warning`` or for ``fault`` (a note code, said after the others)."""
    verdict = _scored_verdict(
        Reason.OK, ctx.board, judged, slip, replace(ctx.settings, single_warning=False), first=(note,)
    )
    if fault:
        verdict = verdict.noted(Note(fault))
    if fault or warning:
        verdict = replace(verdict, warnings=verdict.warnings + 1)
    if ctx.settings.single_warning:
        verdict = replace(verdict, warnings=min(verdict.warnings, 1))
    return verdict


def _neighbour_starts(row: int, col: int, across: bool | None) -> Iterator[tuple[int, int, bool]]:
    """The start squares the nearby search tries, the written one excluded."""
    around = [(row + dr, col + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
    if across is None:
        for direction in (True, False):
            for r, c in around:
                yield r, c, direction
        return
    for r, c in around:
        if (r, c) != (row, col):
            yield r, c, across
    for r, c in around:
        yield r, c, not across


def _shift_candidate(ctx: _Round, word: str, reference: Reference | None) -> str:
    """GCG notation of the only nearby legal placement of ``word``, or "" (none or several)."""
    if reference is None:
        return ""
    size = ctx.board.size
    found: dict[tuple[tuple[int, int], ...], Scored] = {}
    for r, c, across in _neighbour_starts(*reference):
        if not (0 <= r < size and 0 <= c < size):
            continue
        judged = ctx.valid(Move(r, c, across, word), None)
        if judged is not None:
            # Keyed by placement, so one move reached from two starts counts once.
            found[judged[0].move.key(ctx.board)] = judged[0]
            if len(found) > 1:
                return ""
    if len(found) != 1:
        return ""
    return format_move(next(iter(found.values())).move, "gcg")


def _with_shift(verdict: Verdict, candidate: str, settings: AdjudicationSettings, size: int) -> Verdict:
    if not candidate:
        return verdict
    shown = format_move(parse_move(candidate, "gcg", size), settings.notation)
    note = Note("shift_offered", {"move": shown, "penalty": settings.shift_penalty})
    return replace(verdict.noted(note), shift_candidate=candidate)


def accept_shift(
    board: Board,
    rack: list[int],
    lexicon: Lexicon | None,
    rules: Rules | None,
    settings: AdjudicationSettings,
    slip: SlipInput,
    verdict: Verdict,
) -> Verdict:
    """The arbitrator accepts ``verdict.shift_candidate``: that move is judged like a slip
    and the shift penalty recorded. Raises ValueError when there is no candidate, or when
    the candidate is not the one this slip, board and rack give (a stale verdict)."""
    if not verdict.shift_candidate:
        raise ValueError("this ruling offers no shifted placement to accept")
    fresh = adjudicate_slip(board, rack, lexicon, rules, settings, slip)
    if fresh.shift_candidate != verdict.shift_candidate:
        raise ValueError(f"{verdict.shift_candidate} is not the shifted placement of this slip on this board")
    ctx = _Round(board, rack, lexicon, rules, settings)
    place = parse_move(verdict.shift_candidate, "gcg", board.size)
    # The word as the slip wrote it, at the accepted place: its blanks (circled or not)
    # are read as for any slip, not as the search read them.
    move = Move(place.row, place.col, place.across, parse_word(_split_slip(slip)[1]))
    judged = ctx.valid(move, slip.announced)
    if judged is None:  # pragma: no cover - the search only offers valid moves
        raise ValueError(f"{verdict.shift_candidate} is not a valid move")
    written = " ".join(part for part in _split_slip(slip) if part)
    accepted = _scored_verdict(
        Reason.SHIFT_ACCEPTED, board, judged, slip, settings, penalty=settings.shift_penalty
    )
    return accepted.noted(Note("shift_accepted", {"written": written, "penalty": settings.shift_penalty}))


def warning_penalty(prior: int, this_round: int, settings: AdjudicationSettings) -> int:
    """The penalty for this round's warnings: ``settings.warning_penalty`` points for each
    one that takes the player's game total beyond the free ones (``prior``: their warnings
    in the game's earlier rounds). The close, the console's Try Move and the terminal's
    paper slips all count it here."""
    beyond = max(0, prior + this_round - max(prior, settings.free_warnings))
    return beyond * settings.warning_penalty


def counts_for_top(reason: str, move_score: int) -> bool:
    """Whether a ruling's move counts for the top and the solo: a credited move (a valid
    one, with a penalty, or as the arbitrator set it) that scores."""
    return reason in _SCORED_REASONS and move_score > 0


def solo_winner(
    scores: Mapping[K, int], *, top_score: int, players_in_game: int, settings: AdjudicationSettings
) -> K | None:
    """Who gets the solo of a round, if anyone: ``scores`` are the moves that count for it
    (:func:`counts_for_top`). FISF 3.5: the one player whose move scores more than
    everyone else's, compared before any penalty, even below the top
    (``solo_below_top``); or only the one player on the top; in a game of at least
    ``solo_min_players`` players. A multiplex gives it over every centre's players
    (scoring.multiplex), a single event over its own: the same rule."""
    if settings.solo_below_top:
        best = max(scores.values(), default=0)
        leaders = [key for key, score in scores.items() if score == best]
    else:
        leaders = [key for key, score in scores.items() if score == top_score]
    if len(leaders) == 1 and players_in_game >= settings.solo_min_players:
        return leaders[0]
    return None


def credit_round(
    verdicts: Mapping[K, Verdict],
    *,
    top_score: int,
    prior_warnings: Mapping[K, int],
    players_in_game: int,
    settings: AdjudicationSettings,
) -> dict[K, Credit]:
    """What each player is credited for a round, once the top is known.

    ``prior_warnings`` holds each player's warnings in the game before this round (a
    player absent from it has none). A player is on the top when their credited move
    scores the top score (an arbitrator's correction included: an override decides what
    the move scores). The solo (``solo_below_top``) goes to the one best move of the round,
    or to the only player on the top, when the game has at least ``solo_min_players``
    players (``players_in_game``, counted by the caller).
    """
    scores = {
        key: verdict.move_score
        for key, verdict in verdicts.items()
        if counts_for_top(verdict.reason, verdict.move_score)
    }
    tops = {key for key, score in scores.items() if score == top_score}
    soloist = solo_winner(scores, top_score=top_score, players_in_game=players_in_game, settings=settings)
    credits: dict[K, Credit] = {}
    for key, verdict in verdicts.items():
        penalty = verdict.penalty
        if verdict.reason not in _SET_BY_ARBITRATOR:
            penalty += warning_penalty(prior_warnings.get(key, 0), verdict.warnings, settings)
        is_solo = soloist is not None and key == soloist
        credits[key] = Credit(
            credited=verdict.score - penalty + (settings.solo_bonus if is_solo else 0),
            penalty=penalty,
            solo=is_solo,
            is_top=key in tops,
            warnings=verdict.warnings,
        )
    return credits
