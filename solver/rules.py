"""Validate and score one move, independently of the move generator.

The generator and this module compute scores by different code paths; the tests check
that they agree on every generated move, so a bug in one shows up against the other.

Scoring (docs/rules.md#legal-moves-and-scores): letter premiums before word premiums,
premiums only under newly placed tiles, a blank is worth 0 even on a letter premium, every word formed is
scored with crossing letters counted in each, word premiums multiply, and the bingo
bonus (50 by default) when the whole rack is played (7 tiles on 15x15, 8 on the others).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import chain, combinations, product
from typing import TYPE_CHECKING

from solver.errors import IllegalMoveError
from solver.lexicon import Lexicon
from solver.messages import gettext_noop, register
from solver.move import Move
from solver.movegen import GenSettings
from solver.tiles import BLANK, BLANK_BIT, LETTER_MASK, code_char, letter_code

if TYPE_CHECKING:  # types only: Board.score imports this module
    from solver.boards import Board

#: Why a move is illegal (docs/rules.md#messages), by code. Squares are named in the
#: rules' notation, letters in uppercase, words as written.
RULE_MESSAGES: dict[str, str] = {
    "word_too_short": gettext_noop("a word has at least 2 letters"),
    "word_starts_off_board": gettext_noop("the word starts off the board"),
    "word_runs_off_board": gettext_noop("the word runs off the board"),
    "letter_just_before": gettext_noop(
        "the word must be written in full: %(letter)s on %(square)s comes just before it"
    ),
    "letter_just_after": gettext_noop(
        "the word must be written in full: %(letter)s on %(square)s comes just after it"
    ),
    "letter_conflict": gettext_noop(
        "letter %(position)s of %(word)s is %(letter)s, but %(square)s already holds %(there)s"
    ),
    "no_new_tile": gettext_noop("the move places no new tile"),
    "first_word_off_centre": gettext_noop("the first word must cover the centre square %(square)s"),
    "first_word_vertical": gettext_noop("the first word must be horizontal"),
    "word_not_connected": gettext_noop("the word must touch a tile already on the board"),
    "no_letter_in_rack": gettext_noop("there is no %(letter)s in the rack"),
    "too_few_in_rack": gettext_noop("the rack holds %(have)s %(letter)s, the word needs %(need)s"),
    # The letters the rack lacks: "2 A", or "1 M, 1 N" and "1 O".
    "short_of_letter_one_blank": gettext_noop(
        "the rack is short of %(lacking)s, with only 1 blank to stand in"
    ),
    "short_of_letter_blanks": gettext_noop(
        "the rack is short of %(lacking)s, with only %(blanks)s blanks to stand in"
    ),
    "short_of_letters_no_blank": gettext_noop(
        "the rack is short of %(lacking)s and %(last)s, with no blank to stand in"
    ),
    "short_of_letters_one_blank": gettext_noop(
        "the rack is short of %(lacking)s and %(last)s, with only 1 blank to stand in"
    ),
    "short_of_letters_blanks": gettext_noop(
        "the rack is short of %(lacking)s and %(last)s, with only %(blanks)s blanks to stand in"
    ),
    "no_blank_in_rack": gettext_noop("there is no blank in the rack"),
    "one_blank_in_rack": gettext_noop("the rack holds 1 blank, the word marks %(marked)s"),
    "blanks_in_rack": gettext_noop("the rack holds %(blanks)s blanks, the word marks %(marked)s"),
    "word_not_in_lexicon": gettext_noop("%(words)s is not in the lexicon"),
    "words_not_in_lexicon": gettext_noop("%(words)s are not in the lexicon"),
}
register(RULE_MESSAGES)


@dataclass(frozen=True)
class Rules:
    """The rule settings of a game (event settings, docs/rules.md#legal-moves-and-scores)."""

    bingo_bonus: int = 50
    first_move_horizontal: bool = True
    #: How squares are named in messages: ``fisf`` row letter + column number (H4),
    #: ``gcg``/``scramble`` column letter + row number (D8).
    notation: str = "gcg"

    def __post_init__(self) -> None:
        if self.notation not in ("fisf", "gcg", "scramble"):
            raise ValueError(f"unknown notation {self.notation!r}: choose fisf, gcg or scramble")

    def gen_settings(self) -> GenSettings:
        return GenSettings(bingo_bonus=self.bingo_bonus, first_move_horizontal=self.first_move_horizontal)


@dataclass(frozen=True)
class WordScore:
    word: str
    score: int
    main: bool


@dataclass(frozen=True)
class Scored:
    """A checked move: the move with its blanks resolved and its score, and the detail."""

    move: Move
    score: int
    words: tuple[WordScore, ...]
    placed: tuple[tuple[int, int], ...]
    bingo: bool
    #: How many blanks were used for letters the slip did not mark as blanks.
    implied_blanks: int = 0
    #: Words formed that are not in the lexicon (only when words were not enforced).
    invalid_words: tuple[str, ...] = field(default=())

    def letterpoints(self, board: Board) -> int:
        """Face value of the tiles placed (docs/rules.md#standings): no premium, no cross-word."""
        return sum(board.tiles.value(code) for _, code in self.placed)


def square_name(board: Board, square: int, notation: str = "gcg") -> str:
    """A square as the event's notation names it: FISF ``H4`` (row letter, column number),
    otherwise ``D8`` (column letter, row number)."""
    row, col = divmod(square, board.size)
    if notation == "fisf":
        return f"{chr(65 + row)}{col + 1}"
    return f"{chr(65 + col)}{row + 1}"


def _geometry(board: Board, move: Move, notation: str) -> list[int]:
    n = board.size
    if len(move.word) < 2:
        raise IllegalMoveError("word_too_short")
    if not (0 <= move.row < n and 0 <= move.col < n):
        raise IllegalMoveError("word_starts_off_board")
    end = (move.col if move.across else move.row) + len(move.word) - 1
    if end >= n:
        raise IllegalMoveError("word_runs_off_board")
    squares = move.squares(n)
    step = 1 if move.across else n
    before, after = squares[0] - step, squares[-1] + step
    at_edge_before = (move.col if move.across else move.row) == 0
    at_edge_after = end == n - 1
    if not at_edge_before and board.squares[before]:
        raise IllegalMoveError(
            "letter_just_before",
            letter=code_char(board.squares[before]).upper(),
            square=square_name(board, before, notation),
        )
    if not at_edge_after and board.squares[after]:
        raise IllegalMoveError(
            "letter_just_after",
            letter=code_char(board.squares[after]).upper(),
            square=square_name(board, after, notation),
        )
    return squares


def _check_board_letters(board: Board, move: Move, squares: list[int], notation: str) -> None:
    for i, (sq, ch) in enumerate(zip(squares, move.word, strict=True)):
        there = board.squares[sq]
        if there and (there & LETTER_MASK) != letter_code(ch):
            raise IllegalMoveError(
                "letter_conflict",
                position=i + 1,
                word=move.word.upper(),
                letter=ch.upper(),
                square=square_name(board, sq, notation),
                there=code_char(there).upper(),
            )


def _check_connection(board: Board, move: Move, squares: list[int], rules: Rules) -> None:
    n = board.size
    new = [sq for sq in squares if not board.squares[sq]]
    if not new:
        raise IllegalMoveError("no_new_tile")
    if board.is_empty():
        if board.layout.centre not in squares:
            centre = square_name(board, board.layout.centre, rules.notation)
            raise IllegalMoveError("first_word_off_centre", square=centre)
        if rules.first_move_horizontal and not move.across:
            raise IllegalMoveError("first_word_vertical")
        return
    if len(new) < len(squares):
        return  # uses a tile already on the board
    for sq in new:
        r, c = divmod(sq, n)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < n and 0 <= cc < n and board.squares[rr * n + cc]:
                return
    raise IllegalMoveError("word_not_connected")


def _rack_shortage(
    short: dict[int, int], have: Counter[int], need: Counter[int], blanks: int
) -> IllegalMoveError:
    """Why the rack cannot make the word, counting the blanks that could stand in."""
    if blanks == 0 and len(short) == 1:
        code = next(iter(short))
        if have[code] == 0:
            return IllegalMoveError("no_letter_in_rack", letter=code_char(code))
        return IllegalMoveError("too_few_in_rack", have=have[code], letter=code_char(code), need=need[code])
    *first, last = [f"{n} {code_char(code)}" for code, n in sorted(short.items())]
    spare = "no_blank" if blanks == 0 else "one_blank" if blanks == 1 else "blanks"
    counted = {"blanks": blanks} if blanks > 1 else {}
    if not first:  # one letter short, and too few blanks (none was handled above)
        return IllegalMoveError(f"short_of_letter_{spare}", lacking=last, **counted)
    return IllegalMoveError(f"short_of_letters_{spare}", lacking=", ".join(first), last=last, **counted)


#: How an unmarked blank is read when several letters of the word could be it and no
#: reading scores the announced score (or none was given): where the move scores most,
#: least (FISF), or on the last occurrences (the Scramble help).
BLANK_FALLBACKS = ("best", "least", "last")


def resolve_blanks(
    board: Board,
    move: Move,
    rack: list[int],
    rules: Rules | None = None,
    *,
    announced: int | None = None,
    otherwise: str = "best",
) -> tuple[Move, int]:
    """Check the new tiles against the rack and give unmarked letters the rack lacks to
    blanks. Returns the move with blanks in lowercase and how many were implied.

    When an unmarked letter occurs more often than the rack holds it, several readings
    are possible (docs/rules.md#unmarked-blank): the one scoring ``announced`` when there
    is one, else by ``otherwise`` (:data:`BLANK_FALLBACKS`): ``best`` where it scores most
    (a blank is worth 0, so on the cheapest square), ``least`` where it scores least,
    ``last`` on the last occurrences of the letter (the Scramble help: ``banana`` with two
    A's, the blank is the third A). Equal scores go to the later occurrences.
    """
    if otherwise not in BLANK_FALLBACKS:
        raise ValueError(f"unknown blank reading {otherwise!r}: choose {', '.join(BLANK_FALLBACKS)}")
    rules = rules or Rules()
    squares = move.squares(board.size)
    have = Counter(rack)
    new = [
        (i, ch) for i, (sq, ch) in enumerate(zip(squares, move.word, strict=True)) if not board.squares[sq]
    ]
    marked = sum(1 for _, ch in new if ch.islower())
    if marked > have[BLANK]:
        if have[BLANK] == 0:
            raise IllegalMoveError("no_blank_in_rack")
        if have[BLANK] == 1:
            raise IllegalMoveError("one_blank_in_rack", marked=marked)
        raise IllegalMoveError("blanks_in_rack", blanks=have[BLANK], marked=marked)
    need = Counter(letter_code(ch) for _, ch in new if ch.isupper())
    short: dict[int, int] = {code: n - have[code] for code, n in need.items() if n > have[code]}
    blanks_left = have[BLANK] - marked
    missing = sum(short.values())
    if missing > blanks_left:
        raise _rack_shortage(short, have, need, blanks_left)
    if not short:
        return move, 0
    # Each way to give the short letters to blanks; few letters, few combinations. Listed
    # in lexicographic order of the positions, so the last one is the last occurrences.
    choices = [
        list(combinations([i for i, ch in new if ch.isupper() and letter_code(ch) == code], k))
        for code, k in short.items()
    ]
    # (score, blank positions sorted, move): on equal scores the later positions win.
    readings: list[tuple[int, tuple[int, ...], Move]] = []
    for picks in product(*choices):
        positions = tuple(sorted(chain.from_iterable(picks)))
        chars = list(move.word)
        for i in positions:
            chars[i] = chars[i].lower()
        candidate = Move(move.row, move.col, move.across, "".join(chars))
        readings.append((_score_parts(board, candidate, rules)[0], positions, candidate))
    matching = [r for r in readings if r[0] == announced]
    if matching:
        chosen = max(matching, key=lambda r: r[1])[2]
    elif otherwise == "best":
        chosen = max(readings, key=lambda r: r[:2])[2]
    elif otherwise == "least":
        chosen = max(readings, key=lambda r: (-r[0], r[1]))[2]
    else:
        chosen = readings[-1][2]
    return chosen, missing


def _score_parts(
    board: Board, move: Move, rules: Rules
) -> tuple[int, list[WordScore], list[tuple[int, int]]]:
    n = board.size
    lay = board.layout
    face = board.tiles.value
    squares = move.squares(n)
    placed = [(sq, code) for sq, code in move.placements(board)]
    new_at = dict(placed)
    main_sum = 0
    main_mult = 1
    for sq in squares:
        if sq in new_at:
            main_sum += face(new_at[sq]) * lay.letter_mult[sq]
            main_mult *= lay.word_mult[sq]
        else:
            main_sum += face(board.squares[sq])
    words = [WordScore(move.word, main_sum * main_mult, True)]
    step = n if move.across else 1  # perpendicular direction
    for sq, code in placed:
        r, c = divmod(sq, n)
        pos = r if move.across else c  # index along the perpendicular line
        lo = sq
        k = pos
        while k > 0 and board.squares[lo - step]:
            lo -= step
            k -= 1
        hi = sq
        k = pos
        while k < n - 1 and board.squares[hi + step]:
            hi += step
            k += 1
        if lo == hi:
            continue
        total = 0
        letters = []
        for s in range(lo, hi + 1, step):
            if s == sq:
                total += face(code) * lay.letter_mult[sq]
                letters.append(code_char(code))
            else:
                total += face(board.squares[s])
                letters.append(code_char(board.squares[s]))
        words.append(WordScore("".join(letters), total * lay.word_mult[sq], False))
    score = sum(w.score for w in words)
    if len(placed) == lay.rack_size:
        score += rules.bingo_bonus
    return score, words, placed


def score(board: Board, move: Move, rules: Rules | None = None) -> Scored:
    """Score a move whose blanks are already marked; checks geometry and connection but
    neither the rack nor the lexicon."""
    rules = rules or Rules()
    squares = _geometry(board, move, rules.notation)
    _check_board_letters(board, move, squares, rules.notation)
    _check_connection(board, move, squares, rules)
    written = _with_board_case(board, move, squares)
    total, words, placed = _score_parts(board, written, rules)
    return Scored(
        move=written.with_score(total),
        score=total,
        words=tuple(words),
        placed=tuple(placed),
        bingo=len(placed) == board.layout.rack_size,
    )


def _with_board_case(board: Board, move: Move, squares: list[int]) -> Move:
    """The word with the board's own letters as they stand (blanks on the board lowercase)."""
    chars = [
        code_char(board.squares[sq]) if board.squares[sq] else ch
        for sq, ch in zip(squares, move.word, strict=True)
    ]
    word = "".join(chars)
    if word == move.word:
        return move
    return Move(move.row, move.col, move.across, word, move.score)


def validate(
    board: Board,
    move: Move,
    rack: list[int],
    lexicon: Lexicon | None,
    rules: Rules | None = None,
    *,
    enforce_words: bool = True,
    announced: int | None = None,
    otherwise: str = "best",
) -> Scored:
    """Check a move against the board, the rack and the lexicon, and score it.

    Raises :class:`IllegalMoveError` with a message for the player. With
    ``enforce_words=False`` (the *nostrict* mode) words missing from the lexicon are
    reported in ``Scored.invalid_words`` instead of refused. ``announced`` and
    ``otherwise``: how an unmarked blank is read (:func:`resolve_blanks`).
    """
    rules = rules or Rules()
    squares = _geometry(board, move, rules.notation)
    _check_board_letters(board, move, squares, rules.notation)
    _check_connection(board, move, squares, rules)
    written = _with_board_case(board, move, squares)
    resolved, implied = resolve_blanks(board, written, rack, rules, announced=announced, otherwise=otherwise)
    total, words, placed = _score_parts(board, resolved, rules)
    invalid: list[str] = []
    if lexicon is not None:
        invalid = [w.word.upper() for w in words if w.word not in lexicon]
        if invalid and enforce_words:
            code = "word_not_in_lexicon" if len(invalid) == 1 else "words_not_in_lexicon"
            raise IllegalMoveError(code, words=", ".join(invalid))
    return Scored(
        move=resolved.with_score(total),
        score=total,
        words=tuple(words),
        placed=tuple(placed),
        bingo=len(placed) == board.layout.rack_size,
        implied_blanks=implied,
        invalid_words=tuple(invalid),
    )


def placed_codes(placed: tuple[tuple[int, int], ...]) -> list[int]:
    """Rack codes used by placements (a blank is 0)."""
    return [BLANK if code & BLANK_BIT else code for _, code in placed]
