"""A slip whose reference does not place its word: the word looked for elsewhere on the
board (the last letter left out, a reference written the other way round, raccord
letters, a prolongation), then placed by the event's reference rule.

Decisions where the rules leave room:

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
  calls :func:`scoring.adjudication.slips.accept_shift`; the candidate is then judged like
  any slip and the ``shift_penalty`` recorded as the slip's penalty.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from scoring.adjudication.reading import Reference, Round, every_placement, nearest, scored_verdict
from scoring.adjudication.settings import AdjudicationSettings
from scoring.adjudication.verdicts import Note, Reason, SlipInput, Verdict
from solver.boards import Board
from solver.move import Move
from solver.notation import format_move, parse_move
from solver.rules import Scored
from solver.tiles import code_char


def _penalised(
    ctx: Round, reason: str, judged: tuple[Scored, bool], slip: SlipInput, note: Note, written: Verdict
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
    return scored_verdict(reason, ctx.board, judged, slip, ctx.settings, first=(note,), penalty=penalty)


def omitted_letters(ctx: Round, slip: SlipInput, move: Move, written: Verdict) -> Verdict | None:
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
    ctx: Round, slip: SlipInput, word: str, reference: Reference | None, coords: str
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


def wrong_reference(
    ctx: Round, slip: SlipInput, written: Verdict, word: str, reference: Reference | None, coords: str
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
    for move in every_placement(ctx.board, word, across):
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
    chosen = nearest(matching, reference)
    params = {"move": ctx.shown(chosen[0].move), "score": chosen[0].score, "penalty": settings.shift_penalty}
    note = (
        Note("reference_wrong", {"written": coords, **params})
        if coords
        else Note("reference_missing", params)
    )
    return _penalised(ctx, Reason.WRONG_REFERENCE, chosen, slip, note, written)


#: Raccord letters typed where the coordinates go: letters only (coordinates hold digits).
_RACCORD = re.compile(r"[A-Za-z]{2,}", re.ASCII)


def _valid_placements(ctx: Round, word: str, announced: int | None) -> list[tuple[Scored, bool]]:
    """Every placement of ``word`` legal with every word in the list, once each."""
    found: dict[tuple[tuple[int, int], ...], tuple[Scored, bool]] = {}
    for move in every_placement(ctx.board, word, None):
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


def _raccord(ctx: Round, slip: SlipInput, word: str, coords: str) -> Verdict | None:
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


def _prolongation(ctx: Round, slip: SlipInput, word: str) -> Verdict | None:
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
    ctx: Round,
    slip: SlipInput,
    judged: tuple[Scored, bool],
    note: Note,
    *,
    fault: str = "",
    warning: bool = False,
) -> Verdict:
    """A slip located otherwise than by its coordinates, paid as valid; a warning when
    ``warning`` or for ``fault`` (a note code, said after the others)."""
    verdict = scored_verdict(
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


def _shift_candidate(ctx: Round, word: str, reference: Reference | None) -> str:
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
