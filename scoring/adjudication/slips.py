"""Rule on the slips a player handed in for a round: the first slip of a game at its best
placement, any other as written, else by the reference rules
(:mod:`scoring.adjudication.references`); and accept the shifted placement a ruling offers."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.adjudication.reading import (
    Round,
    every_placement,
    nearest,
    not_in_lexicon,
    read_move,
    rough_reference,
    scored_verdict,
    split_slip,
)
from scoring.adjudication.references import omitted_letters, wrong_reference
from scoring.adjudication.settings import AdjudicationSettings
from scoring.adjudication.verdicts import Note, Reason, SlipInput, Verdict
from solver.boards import Board
from solver.errors import IllegalMoveError, InvalidMoveError
from solver.lexicon import Lexicon
from solver.move import Move
from solver.notation import parse_coord, parse_move, parse_word
from solver.rules import Rules, Scored, validate


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
    filled = [slip for slip in on_time if any(split_slip(slip))]
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
    coords, word = split_slip(slip)
    if not coords and not word:
        return Verdict(Reason.BLANK_SLIP, (Note("blank_slip"),))
    ctx = Round(board, rack, lexicon, rules, settings)
    if board.is_empty() and settings.first_slip_best_placement and word:
        first = _first_round(ctx, slip, word, coords)
        if first is not None:
            return first
    size = board.size
    try:
        move = read_move(coords, word, settings.notation, size)
    except InvalidMoveError as err:
        written = Verdict(Reason.UNREADABLE, (Note.of(err),))
        letters = _word(word)
        if letters is None or (coords and _reads(coords, settings.notation, size)):
            # No word to look for, or both parts read and the slip as a whole is malformed.
            return written
        reference = rough_reference(coords, settings.notation) if coords else None
        return wrong_reference(ctx, slip, written, letters, reference, coords)
    except IllegalMoveError as err:
        # Readable but off the board: parse_move checked the coordinates and the word.
        row, col, across = parse_coord(coords, settings.notation, size)
        written_move = Move(row, col, across, parse_word(word))
        written = Verdict(Reason.ILLEGAL, (Note.of(err),), move=ctx.gcg(written_move))
        return wrong_reference(ctx, slip, written, written_move.word, (row, col, across), coords)
    try:
        judged = ctx.judged(move, slip.announced)
    except IllegalMoveError as err:
        written = Verdict(Reason.ILLEGAL, (Note.of(err),), move=ctx.gcg(move))
        omitted = omitted_letters(ctx, slip, move, written)
        if omitted is not None:
            return omitted
        return wrong_reference(ctx, slip, written, move.word, (move.row, move.col, move.across), coords)
    scored = judged[0]
    if scored.invalid_words:
        written = Verdict(
            Reason.NOT_IN_LEXICON,
            (not_in_lexicon(scored),),
            move=ctx.gcg(scored.move),
            invalid_words=scored.invalid_words,
        )
        return wrong_reference(ctx, slip, written, move.word, (move.row, move.col, move.across), coords)
    return scored_verdict(Reason.OK, board, judged, slip, settings)


def _word(text: str) -> str | None:
    try:
        return parse_word(text)
    except InvalidMoveError:
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


def _first_round(ctx: Round, slip: SlipInput, word: str, coords: str) -> Verdict | None:
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
    for move in every_placement(ctx.board, letters.upper(), across):
        if centre not in move.squares(ctx.board.size):
            continue
        try:
            legal.append(validate(ctx.board, move, ctx.rack, ctx.lexicon, ctx.rules, enforce_words=False))
        except IllegalMoveError:
            continue
    if not legal:
        return None
    written = rough_reference(coords, ctx.settings.notation) if coords else None
    valid = [(scored, False) for scored in legal if not scored.invalid_words]
    if not valid:
        scored = nearest([(scored, False) for scored in legal], written)[0]
        return Verdict(
            Reason.NOT_IN_LEXICON,
            (not_in_lexicon(scored),),
            move=ctx.gcg(scored.move),
            invalid_words=scored.invalid_words,
        )
    top = max(judged[0].score for judged in valid)
    # "Quel que soit l'encerclement éventuel" (5.4.2.a): a blank circled on a letter it may
    # stand for, scoring the maximum somewhere, is that placement, with no warning.
    circled = _as_circled(ctx, letters, {(j.move.row, j.move.col, j.move.across) for j in legal}, top)
    chosen = nearest(circled or [judged for judged in valid if judged[0].score == top], written)
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
    return scored_verdict(
        Reason.OK, ctx.board, chosen, slip, ctx.settings, first=first, blank_fault=fault or ""
    )


def _as_circled(
    ctx: Round, letters: str, places: set[tuple[int, int, bool]], top: int
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
    ctx = Round(board, rack, lexicon, rules, settings)
    place = parse_move(verdict.shift_candidate, "gcg", board.size)
    # The word as the slip wrote it, at the accepted place: its blanks (circled or not)
    # are read as for any slip, not as the search read them.
    move = Move(place.row, place.col, place.across, parse_word(split_slip(slip)[1]))
    judged = ctx.valid(move, slip.announced)
    if judged is None:  # pragma: no cover - the search only offers valid moves
        raise ValueError(f"{verdict.shift_candidate} is not a valid move")
    written = " ".join(part for part in split_slip(slip) if part)
    accepted = scored_verdict(
        Reason.SHIFT_ACCEPTED, board, judged, slip, settings, penalty=settings.shift_penalty
    )
    return accepted.noted(Note("shift_accepted", {"written": written, "penalty": settings.shift_penalty}))
