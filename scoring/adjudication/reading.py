"""A slip read, and a move judged, against the round's board: the verdict of a move
played where the slip puts it.

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
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.adjudication.settings import AdjudicationSettings
from scoring.adjudication.verdicts import Note, SlipInput, Verdict
from solver.boards import Board
from solver.errors import IllegalMoveError, InvalidMoveError
from solver.lexicon import Lexicon
from solver.move import Move
from solver.notation import format_move, parse_move, parse_word
from solver.rules import Rules, Scored, validate

#: (row, col, across or None when the slip shows no direction), 0-based; off-board allowed.
Reference = tuple[int, int, bool | None]

# Lenient square reading for the reference search: the same shapes notation.py reads, but
# squares off the board are kept so that their on-board neighbours can still be tried.
_LETTER_FIRST = re.compile(r"([A-Za-z])([0-9]{1,3})", re.ASCII)
_NUMBER_FIRST = re.compile(r"([0-9]{1,3})([A-Za-z])", re.ASCII)
_DIRECTIONS = {"a": True, "across": True, "d": False, "down": False}


def split_slip(slip: SlipInput) -> tuple[str, str]:
    """(coordinates, word) as the parser should see them; see the module docstring."""
    coords, word = slip.coordinates.strip(), slip.word.strip()
    if not word:
        if coords.count(",") >= 2:
            coords, word = (part.strip() for part in coords.rsplit(",", 1))
        elif len(coords.split()) == 2:
            coords, word = coords.split()
    return "".join(coords.split()), word


def read_move(coords: str, word: str, notation: str, size: int) -> Move:
    """The slip's move; raises InvalidMoveError (unreadable) or IllegalMoveError."""
    if not coords:
        raise InvalidMoveError("missing_coordinates")
    if not word:
        raise InvalidMoveError("missing_word_after", coordinates=coords)
    # The comma form names its own direction, so it is read the same in every notation.
    text = f"{coords},{word}" if "," in coords else f"{coords} {word}"
    return parse_move(text, notation, size)


def rough_reference(coords: str, notation: str) -> Reference | None:
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


def every_placement(board: Board, word: str, across: bool | None) -> Iterator[Move]:
    """Every start from which ``word`` fits on the board, in board order."""
    size, length = board.size, len(word)
    for direction in (True, False) if across is None else (across,):
        for row in range(size if direction else size - length + 1):
            for col in range(size - length + 1 if direction else size):
                yield Move(row, col, direction, word)


def nearest(found: Sequence[tuple[Scored, bool]], reference: Reference | None) -> tuple[Scored, bool]:
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


def scored_verdict(
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


def not_in_lexicon(scored: Scored) -> Note:
    """Which words are not in the list; ``score`` (not said) is what the move would have
    scored, the cap of an average given instead of a second 0 (FISF 5.9)."""
    invalid = scored.invalid_words
    code = "not_in_lexicon_one" if len(invalid) == 1 else "not_in_lexicon_many"
    return Note(code, {"words": ", ".join(invalid), "score": scored.score})


@dataclass(frozen=True)
class Round:
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


def unreadable(slip: SlipInput, notation: str, size: int, any_reference: bool = False) -> Note | None:
    """Why the slip cannot be read at all, or None: no square of a board of ``size`` in its
    coordinates (``Z99`` on a 15x15 board, no coordinates), or a word with a character no
    tile carries. A phone's slip is refused for it at submission, so that the player writes
    it again (the close would rule it unreadable: 0). Nothing about the move's legality or
    its words: a readable slip is taken as it is, and judged at the close.

    ``any_reference``: the game's first slip under ``first_slip_best_placement``, where the
    word counts at its best placement whatever the coordinates (FISF 5.4.2.a): the word
    alone must be readable."""
    coords, word = split_slip(slip)
    if not coords and not word:
        return None  # a blank slip: handed in as such
    if any_reference:
        try:
            parse_word(word or coords)
        except InvalidMoveError as err:
            return Note.of(err)
        return None
    try:
        read_move(coords, word, notation, size)
    except InvalidMoveError as err:
        return Note.of(err)
    except IllegalMoveError:
        return None  # read: the close judges where it goes
    return None
