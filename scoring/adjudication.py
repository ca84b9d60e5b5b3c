"""Adjudication of slips (docs/rules.md#adjudication): pure functions, no Django.

The event services read a slip and the round's position from the database, call
:func:`adjudicate_slip` for each player, then :func:`credit_round` once the top is known,
and store the results. Every number is an event setting (:class:`AdjudicationSettings`)
with the FISF default.

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
* **Shifted reference.** When the written move is illegal, forms a word not in the
  lexicon, or cannot be read because of its coordinates only, the same word is tried at
  the 8 squares around the written start in the same direction, and at the written start
  and its 8 neighbours in the other direction (``H4``/``4H`` swapped). When the direction
  itself is unknown (scramble form without ``a``/``d``), both directions are tried at all
  9 squares. Exactly one legal placement with every word valid is offered as
  ``shift_candidate``; none or several: nothing is offered (guessing between two would be
  the arbitrator choosing the player's move). The verdict stays 0 until the arbitrator
  calls :func:`accept_shift`.
* **Accepted shift.** The candidate is judged like any slip (announced-score policy and
  unmarked-blank warning included: the shift corrects only the reference), and the
  ``shift_penalty`` is recorded as the slip's penalty.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TypeVar

from solver.boards import Board
from solver.errors import IllegalMoveError, InvalidMoveError
from solver.lexicon import Lexicon
from solver.move import Move
from solver.notation import STYLES, format_move, parse_coord, parse_move, parse_word
from solver.rules import Rules, Scored, validate

__all__ = [
    "REASON_TEXT",
    "SCORE_POLICIES",
    "AdjudicationSettings",
    "Credit",
    "Reason",
    "SlipInput",
    "Verdict",
    "accept_shift",
    "adjudicate_slip",
    "credit_round",
]

SCORE_POLICIES = ("fisf", "english")


class Reason:
    """Stable codes stored in the database; :data:`REASON_TEXT` has the sentences."""

    OK = "ok"
    MISSING = "missing"
    LATE = "late"
    BLANK_SLIP = "blank_slip"
    UNREADABLE = "unreadable"
    ILLEGAL = "illegal"
    NOT_IN_LEXICON = "not_in_lexicon"
    SHIFT_ACCEPTED = "shift_accepted"
    OVERRIDDEN = "overridden"


REASON_TEXT: dict[str, str] = {
    Reason.OK: "The move is valid and scored.",
    Reason.MISSING: "No slip was handed in for this round.",
    Reason.LATE: "The slip arrived after the round closed.",
    Reason.BLANK_SLIP: "The slip is blank.",
    Reason.UNREADABLE: "The slip cannot be read.",
    Reason.ILLEGAL: "The word cannot be placed there with this rack on this board.",
    Reason.NOT_IN_LEXICON: "A word formed is not in the event's lexicon.",
    Reason.SHIFT_ACCEPTED: "The reference was shifted; the arbitrator accepted the nearby placement"
    " with a penalty.",
    Reason.OVERRIDDEN: "The arbitrator changed the ruling.",
}

#: Reasons whose move counts for the top and the solo.
_SCORED_REASONS = (Reason.OK, Reason.SHIFT_ACCEPTED)


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

    def __post_init__(self) -> None:
        if self.score_policy not in SCORE_POLICIES:
            raise ValueError(f"unknown score policy {self.score_policy!r}: choose fisf or english")
        if self.notation not in STYLES:
            raise ValueError(f"unknown notation {self.notation!r}: choose fisf, gcg or scramble")
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


@dataclass(frozen=True)
class Verdict:
    """The ruling on one slip, before the round-level bonuses and penalties."""

    reason: str
    detail: str
    move: str = ""
    move_score: int = 0
    score: int = 0
    warnings: int = 0
    penalty: int = 0
    letterpoints: int = 0
    invalid_words: tuple[str, ...] = ()
    shift_candidate: str = ""


@dataclass(frozen=True)
class Credit:
    """What a player is credited for a round."""

    credited: int
    penalty: int
    solo: bool
    is_top: bool
    warnings: int


K = TypeVar("K", bound=Hashable)

# Lenient square reading for the shift search: the same shapes notation.py reads, but
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
        raise InvalidMoveError("missing coordinates")
    if not word:
        raise InvalidMoveError(f"missing word after {coords}")
    # The comma form names its own direction, so it is read the same in every notation.
    text = f"{coords},{word}" if "," in coords else f"{coords} {word}"
    return parse_move(text, notation, size)


def _rough_reference(coords: str, notation: str) -> tuple[int, int, bool | None] | None:
    """Where the slip points, even off the board or without a direction, for the shift
    search: (row, col, across or None when unknown), or None when no square can be read."""
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


def _neighbour_starts(row: int, col: int, across: bool | None) -> Iterator[tuple[int, int, bool]]:
    """The start squares the shift search tries, the written one excluded."""
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


def _valid(
    board: Board, move: Move, rack: list[int], lexicon: Lexicon | None, rules: Rules | None
) -> Scored | None:
    """The move scored when it is legal with every word in the lexicon, else None."""
    try:
        scored = validate(board, move, rack, lexicon, rules, enforce_words=False)
    except IllegalMoveError:
        return None
    return None if scored.invalid_words else scored


def _shift_candidate(
    board: Board,
    rack: list[int],
    lexicon: Lexicon | None,
    rules: Rules | None,
    word: str,
    reference: tuple[int, int, bool | None] | None,
) -> str:
    """GCG notation of the only nearby legal placement of ``word``, or "" (none or several)."""
    if reference is None:
        return ""
    size = board.size
    found: dict[tuple[tuple[int, int], ...], Scored] = {}
    for r, c, across in _neighbour_starts(*reference):
        if not (0 <= r < size and 0 <= c < size):
            continue
        move = Move(r, c, across, word)
        scored = _valid(board, move, rack, lexicon, rules)
        if scored is not None:
            # Keyed by placement, so one move reached from two starts counts once.
            found[scored.move.key(board)] = scored
            if len(found) > 1:
                return ""
    if len(found) != 1:
        return ""
    return format_move(next(iter(found.values())).move, "gcg")


def _with_shift(verdict: Verdict, candidate: str, settings: AdjudicationSettings, size: int) -> Verdict:
    if not candidate:
        return verdict
    shown = format_move(parse_move(candidate, "gcg", size), settings.notation)
    detail = (
        f"{verdict.detail}; the word fits at {shown} only: the arbitrator may accept it"
        f" with a {settings.shift_penalty}-point penalty"
    )
    return replace(verdict, detail=detail, shift_candidate=candidate)


def _announced(
    settings: AdjudicationSettings, announced: int | None, move_score: int
) -> tuple[int, int, str]:
    """(score credited for the move, warnings, note) under the announced-score policy."""
    if announced is None:
        return move_score, 1, "no score announced: warning"
    if announced == move_score:
        return move_score, 0, ""
    if settings.score_policy == "fisf":
        return move_score, 1, f"announced {announced}: warning"
    if announced < move_score:
        return announced, 0, f"announced {announced}: credited as written"
    excess = announced - move_score
    # Clamped at 0: an over-announcement never costs more than an invalid slip (module doc).
    credited = max(0, move_score - 2 * excess)
    return credited, 0, f"announced {announced}, {excess} too many: loses twice the excess"


def _scored_verdict(
    reason: str, board: Board, scored: Scored, slip: SlipInput, settings: AdjudicationSettings
) -> Verdict:
    """A valid move judged against the announced score and the blank marking."""
    score, warnings, note = _announced(settings, slip.announced, scored.score)
    notes = [f"{format_move(scored.move, settings.notation)} scores {scored.score}"]
    if note:
        notes.append(note)
    if scored.implied_blanks and settings.unmarked_blank_warning:
        warnings += 1
        notes.append("blank not marked: warning")
    return Verdict(
        reason=reason,
        detail="; ".join(notes),
        move=format_move(scored.move, "gcg"),
        move_score=scored.score,
        score=score,
        warnings=warnings,
        letterpoints=scored.letterpoints(board),
    )


def _not_in_lexicon(invalid: tuple[str, ...]) -> str:
    verb = "is" if len(invalid) == 1 else "are"
    return f"{', '.join(invalid)} {verb} not in the lexicon"


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
        return Verdict(Reason.MISSING, "no slip for this round")
    if slip.late:
        return Verdict(Reason.LATE, "the slip arrived after the round closed")
    coords, word = _split_slip(slip)
    if not coords and not word:
        return Verdict(Reason.BLANK_SLIP, "the slip is blank")
    size = board.size
    try:
        move = _read_move(coords, word, settings.notation, size)
    except InvalidMoveError as err:
        verdict = Verdict(Reason.UNREADABLE, str(err))
        return _with_shift(
            verdict, _unreadable_shift(board, rack, lexicon, rules, settings, coords, word), settings, size
        )
    except IllegalMoveError as err:
        # Readable but off the board: parse_move checked the coordinates and the word.
        row, col, across = parse_coord(coords, settings.notation, size)
        written = Move(row, col, across, parse_word(word))
        verdict = Verdict(Reason.ILLEGAL, str(err), move=format_move(written, "gcg"))
        candidate = _shift_candidate(board, rack, lexicon, rules, written.word, (row, col, across))
        return _with_shift(verdict, candidate, settings, size)
    try:
        scored = validate(board, move, rack, lexicon, rules, enforce_words=False)
    except IllegalMoveError as err:
        verdict = Verdict(Reason.ILLEGAL, str(err), move=format_move(move, "gcg"))
        candidate = _shift_candidate(
            board, rack, lexicon, rules, move.word, (move.row, move.col, move.across)
        )
        return _with_shift(verdict, candidate, settings, size)
    if scored.invalid_words:
        verdict = Verdict(
            Reason.NOT_IN_LEXICON,
            _not_in_lexicon(scored.invalid_words),
            move=format_move(scored.move, "gcg"),
            invalid_words=scored.invalid_words,
        )
        candidate = _shift_candidate(
            board, rack, lexicon, rules, move.word, (move.row, move.col, move.across)
        )
        return _with_shift(verdict, candidate, settings, size)
    return _scored_verdict(Reason.OK, board, scored, slip, settings)


def _unreadable_shift(
    board: Board,
    rack: list[int],
    lexicon: Lexicon | None,
    rules: Rules | None,
    settings: AdjudicationSettings,
    coords: str,
    word: str,
) -> str:
    """The shift candidate of a slip whose word reads but whose coordinates do not."""
    try:
        written = parse_word(word)
    except InvalidMoveError:
        return ""
    try:
        parse_coord(coords, settings.notation, board.size)
    except InvalidMoveError:
        return _shift_candidate(
            board, rack, lexicon, rules, written, _rough_reference(coords, settings.notation)
        )
    return ""  # both parts read: the slip as a whole is malformed, not its reference


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
    move = parse_move(verdict.shift_candidate, "gcg", board.size)
    scored = _valid(board, move, rack, lexicon, rules)
    if scored is None:  # pragma: no cover - the search only offers valid moves
        raise ValueError(f"{verdict.shift_candidate} is not a valid move")
    accepted = _scored_verdict(Reason.SHIFT_ACCEPTED, board, scored, slip, settings)
    written = " ".join(part for part in _split_slip(slip) if part)
    detail = (
        f"{accepted.detail}; written {written}: shifted reference accepted,"
        f" {settings.shift_penalty}-point penalty"
    )
    return replace(accepted, detail=detail, penalty=settings.shift_penalty)


def warning_penalty(prior: int, this_round: int, settings: AdjudicationSettings) -> int:
    """The penalty for this round's warnings: ``settings.warning_penalty`` points for each
    one that takes the player's game total beyond the free ones (``prior``: their warnings
    in the game's earlier rounds). The close, the console's Try Move and the terminal's
    paper slips all count it here."""
    beyond = max(0, prior + this_round - max(prior, settings.free_warnings))
    return beyond * settings.warning_penalty


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
    player absent from it has none). The solo goes to the only player on the top when the
    game has at least ``solo_min_players`` players.
    """
    tops = {
        key
        for key, verdict in verdicts.items()
        if top_score > 0 and verdict.move_score == top_score and verdict.reason in _SCORED_REASONS
    }
    has_solo = len(tops) == 1 and players_in_game >= settings.solo_min_players
    credits: dict[K, Credit] = {}
    for key, verdict in verdicts.items():
        penalty = verdict.penalty + warning_penalty(prior_warnings.get(key, 0), verdict.warnings, settings)
        is_solo = has_solo and key in tops
        credits[key] = Credit(
            credited=verdict.score - penalty + (settings.solo_bonus if is_solo else 0),
            penalty=penalty,
            solo=is_solo,
            is_top=key in tops,
            warnings=verdict.warnings,
        )
    return credits
