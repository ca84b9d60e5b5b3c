"""The duplicate draw: the bag, the vowel/consonant minimums, rejections, manual racks.

The rules are those of docs/rules.md#draws: the rack of round n is the reliquat of round
n-1 plus tiles drawn up to the rack size. Rounds 1-15 need at least 2 vowels and 2
consonants, later rounds 1 and 1 (:class:`DrawRules`, event settings). A tile that counts
as both (the blank always, Y by default) fills either minimum but counts once. A rack
that fails is rejected: *all* its tiles, reliquat included, go back to the bag and a
fresh full rack is drawn; every rejected rack is kept in :class:`RackDraw`.

The minimums in force (:func:`minimums_in_force`) depend on the bag and the reliquat too:
in rounds 1-15, when they can no longer give 2 vowels and 2 consonants but can give 1 and
1, the round needs 1 and 1 (the FISF practice, setting ``early_fallback``, on by
default). The game is over by the draw rule when the bag and reliquat are empty or can no
longer make a rack that meets the minimums in force (:func:`game_over_by_draw`).

Reproducibility: a game is replayed from its seed, so every draw must depend only on the
seed and on the history of the bag. :class:`Bag` keeps its tiles sorted by code and
takes each tile at ``int(rng.random() * len(tiles))``: ``random.Random(seed).random()``
is the one generator method whose output Python promises to keep across versions
(``randrange``, ``choice``, ``shuffle`` and ``sample`` have changed before).

Manual racks (:func:`check_manual_rack`): the arbitrator types the *full* rack drawn on
the table, reliquat included (reliquat ``AE`` + drawn ``TRSNI`` is typed ``AETRSNI``, in
any order, case ignored, ``?`` for a blank, spaces ignored). The typed rack must hold the
reliquat tiles, take the rest from the bag, have exactly ``min(rack size, reliquat +
bag)`` tiles and meet the minimums in force; otherwise it is refused with one message per
reason (naming the minimums in force and, in an early round, why) and nothing changes.
A rack that fails the minimums on the table is put back whole: the arbitrator then types
the new rack with ``after_rejection=True`` and names the rejected rack(s) in
``rejected``, so that the game sheet shows every rejection.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from solver.errors import IllegalRackError, SolverError
from solver.messages import gettext_noop, phrase, register
from solver.tiles import BLANK, BLANK_CHAR, NUM_LETTERS, TileSet, letter_code, rack_string
from solver.tiles import rack_size as board_rack_size

#: Why a rack or a draw is refused (docs/rules.md#messages), by code. Counts of vowels,
#: consonants and tiles, and ordinals, are phrases of their own (singular and plural).
DRAW_MESSAGES: dict[str, str] = {
    "early_minimums_too_big": gettext_noop("the early minimums do not fit in the rack"),
    "late_minimums_too_big": gettext_noop("the late minimums do not fit in the rack"),
    "not_a_tile": gettext_noop("%(char)r is not a tile"),
    "bag_too_small_one": gettext_noop("only 1 tile left in the bag, cannot draw %(count)s"),
    "bag_too_small": gettext_noop("only %(left)s tiles left in the bag, cannot draw %(count)s"),
    "no_letter_left": gettext_noop("there is no %(letter)s left in the bag"),
    "no_blank_left": gettext_noop("there is no blank left in the bag"),
    "too_few_letters_left": gettext_noop(
        "only %(left)s %(letter)s left in the bag, the rack asks for %(wanted)s"
    ),
    "one_blank_left": gettext_noop("only 1 blank left in the bag, the rack asks for %(wanted)s"),
    "too_few_blanks_left": gettext_noop("only %(left)s blanks left in the bag, the rack asks for %(wanted)s"),
    "reliquat_too_big": gettext_noop("a reliquat of %(count)s tiles does not fit in a rack of %(size)s"),
    "no_rack_drawn": gettext_noop(
        "no rack with %(minimums)s was drawn in %(attempts)s attempts in round %(round)s"
        " (bag: %(bag)s, reliquat: %(reliquat)s)"
    ),
    "no_rack_drawn_no_reliquat": gettext_noop(
        "no rack with %(minimums)s was drawn in %(attempts)s attempts in round %(round)s"
        " (bag: %(bag)s, reliquat: none)"
    ),
    "needs_vowels": gettext_noop("the rack needs at least %(vowels)s in round %(round)s (it has %(has)s)"),
    "needs_vowels_because": gettext_noop(
        "the rack needs at least %(vowels)s in round %(round)s (it has %(has)s): %(why)s"
    ),
    "needs_consonants": gettext_noop(
        "the rack needs at least %(consonants)s in round %(round)s (it has %(has)s)"
    ),
    "needs_consonants_because": gettext_noop(
        "the rack needs at least %(consonants)s in round %(round)s (it has %(has)s): %(why)s"
    ),
    "needs_both": gettext_noop(
        "the rack needs at least %(minimums)s in round %(round)s"
        " (a blank or a tile that is both counts as one or the other, not both)"
    ),
    "needs_both_because": gettext_noop(
        "the rack needs at least %(minimums)s in round %(round)s"
        " (a blank or a tile that is both counts as one or the other, not both): %(why)s"
    ),
    "rack_size_wrong": gettext_noop("the rack must hold %(tiles)s, not %(count)s"),
    "rejected_rack_size_wrong": gettext_noop("the rejected rack %(rack)s must hold %(tiles)s, not %(count)s"),
    "rack_without_reliquat": gettext_noop("the rack must keep the reliquat %(reliquat)s"),
    "rejected_rack_without_reliquat": gettext_noop(
        "the rejected rack %(rack)s must keep the reliquat %(reliquat)s"
    ),
    "no_nth_letter": gettext_noop("there is no %(nth)s %(letter)s in the bag"),
    "no_nth_letter_with_reliquat": gettext_noop("there is no %(nth)s %(letter)s in the reliquat and the bag"),
    "no_nth_blank": gettext_noop("there is no %(nth)s blank in the bag"),
    "no_nth_blank_with_reliquat": gettext_noop("there is no %(nth)s blank in the reliquat and the bag"),
    "rejected_rack_meets_minimums": gettext_noop(
        "the rejected rack %(rack)s meets the minimums of round %(round)s (%(minimums)s):"
        " it cannot be rejected"
    ),
    "rejected_rack_not_typed": gettext_noop(
        "type the rejected rack as well: every rejection is recorded on the game sheet"
    ),
    "game_over_no_tiles": gettext_noop("the game is over: no tiles are left"),
    "game_over_one_tile": gettext_noop(
        "the game is over: the 1 tile left cannot make a rack with %(minimums)s"
    ),
    "game_over_tiles": gettext_noop(
        "the game is over: the %(count)s tiles left cannot make a rack with %(minimums)s"
    ),
    # Phrases: why the minimums in force are these (after "the rack needs ... (it has 1): ").
    "why_later_minimums": gettext_noop(
        "the later minimums apply (%(minimums)s), as the bag and reliquat can no longer give %(early)s"
    ),
    "why_early_minimums": gettext_noop(
        "the bag and reliquat can still give %(early)s, so %(late)s are not enough"
    ),
    # Phrases: counts, the minimums as a pair, ordinals (from the second: the first never
    # lacks).
    "vowels_one": gettext_noop("%(count)s vowel"),
    "vowels_many": gettext_noop("%(count)s vowels"),
    "consonants_one": gettext_noop("%(count)s consonant"),
    "consonants_many": gettext_noop("%(count)s consonants"),
    "tiles_one": gettext_noop("%(count)s tile"),
    "tiles_many": gettext_noop("%(count)s tiles"),
    "minimums_pair": gettext_noop("%(vowels)s and %(consonants)s"),
    "minimums_nor": gettext_noop("%(early)s, nor with %(late)s"),
    "ordinal_2": gettext_noop("second"),
    "ordinal_3": gettext_noop("third"),
    "ordinal_4": gettext_noop("fourth"),
    "ordinal_5": gettext_noop("fifth"),
    "ordinal_6": gettext_noop("sixth"),
    "ordinal_7": gettext_noop("seventh"),
    "ordinal_8": gettext_noop("eighth"),
    "ordinal_st": gettext_noop("%(n)sst"),
    "ordinal_nd": gettext_noop("%(n)snd"),
    "ordinal_rd": gettext_noop("%(n)srd"),
    "ordinal_th": gettext_noop("%(n)sth"),
}
register(DRAW_MESSAGES)


@dataclass(frozen=True)
class DrawRules:
    """The draw settings of an event (defaults: docs/rules.md#draws)."""

    rack_size: int = 7
    #: Rounds 1..early_rounds use the early minimums, later rounds the late ones.
    early_rounds: int = 15
    early_vowels: int = 2
    early_consonants: int = 2
    late_vowels: int = 1
    late_consonants: int = 1
    #: In the early rounds, when the bag and reliquat cannot give a rack with the early
    #: minimums, the late ones apply to that round (FISF) rather than the game ending.
    early_fallback: bool = True
    #: Racks drawn in one round before giving up; only a contrived bag gets near it.
    max_attempts: int = 10_000

    def __post_init__(self) -> None:
        if self.rack_size < 1:
            raise ValueError("the rack size must be at least 1")
        if self.early_rounds < 0:
            raise ValueError("the number of early rounds cannot be negative")
        for name in ("early_vowels", "early_consonants", "late_vowels", "late_consonants"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name.replace('_', ' ')} cannot be negative")
        # A minimum that no rack can hold would end every game before its first round.
        if self.early_vowels + self.early_consonants > self.rack_size:
            raise SolverError("early_minimums_too_big")
        if self.late_vowels + self.late_consonants > self.rack_size:
            raise SolverError("late_minimums_too_big")
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")

    @classmethod
    def for_board(cls, board_size: int, **settings: Any) -> DrawRules:
        """Rules with the board's rack size (7 on 15x15, 8 on the bigger boards)."""
        return cls(rack_size=board_rack_size(board_size), **settings)

    def minimums(self, round_number: int) -> tuple[int, int]:
        """(vowels, consonants) a rack of this round must hold at least, as long as the bag
        and reliquat can give them (see :func:`minimums_in_force`)."""
        if round_number < 1:
            raise ValueError(f"rounds are numbered from 1, not {round_number}")
        if round_number <= self.early_rounds:
            return self.early_vowels, self.early_consonants
        return self.late_vowels, self.late_consonants


def _kinds(tileset: TileSet, codes: Iterable[int]) -> tuple[int, int, int]:
    """(vowel-only, consonant-only, both) tile counts; tiles that are neither are skipped."""
    vowels = consonants = both = 0
    for code in codes:
        is_v, is_c = tileset.is_vowel(code), tileset.is_consonant(code)
        if is_v and is_c:
            both += 1
        elif is_v:
            vowels += 1
        elif is_c:
            consonants += 1
    return vowels, consonants, both


def _meets(kinds: tuple[int, int, int], vowels: int, consonants: int) -> bool:
    only_v, only_c, both = kinds
    # Each "both" tile fills one missing vowel or one missing consonant, never two.
    return max(0, vowels - only_v) + max(0, consonants - only_c) <= both


def rack_meets(tileset: TileSet, rack_codes: Iterable[int], vowels: int, consonants: int) -> bool:
    """Whether a rack holds at least ``vowels`` vowels and ``consonants`` consonants.

    A tile that is both (the blank; Y unless the tile set says otherwise) may count as
    either, and each tile counts once.
    """
    return _meets(_kinds(tileset, rack_codes), vowels, consonants)


@dataclass(frozen=True)
class Minimums:
    """The minimums a round's rack must meet, given what the bag and reliquat hold."""

    vowels: int
    consonants: int
    #: An early round whose pool cannot give the early minimums: the late ones apply.
    fallback: bool = False


def minimums_in_force(
    tileset: TileSet, pool_codes: Iterable[int], round_number: int, rules: DrawRules
) -> Minimums | None:
    """The minimums the rack of ``round_number`` must meet, or None when the game is over
    by the draw rule (docs/rules.md#game-end).

    ``pool_codes`` is the bag plus the reliquat: a rejected rack goes back whole, so every
    rack of the round is drawn from that pool. The round's own minimums apply while some
    rack drawn from the pool can meet them. In an early round that no rack can, with
    ``rules.early_fallback`` the late minimums apply instead (the FISF practice: the game
    goes on with 1 vowel and 1 consonant); the game is over when no rack can meet the
    minimums that apply.
    """
    pool = list(pool_codes)
    if not pool:
        return None
    kinds = _kinds(tileset, pool)
    # Some rack meets the minimums iff the pool holds them: they fit in a rack (checked by
    # DrawRules), so a rack can take the tiles needed and any others; and a pool no bigger
    # than a rack is the rack itself.
    vowels, consonants = rules.minimums(round_number)
    if _meets(kinds, vowels, consonants):
        return Minimums(vowels, consonants)
    late = rules.late_vowels, rules.late_consonants
    if rules.early_fallback and round_number <= rules.early_rounds and _meets(kinds, *late):
        return Minimums(*late, fallback=True)
    return None


def game_over_by_draw(
    tileset: TileSet, pool_codes: Iterable[int], round_number: int, rules: DrawRules
) -> bool:
    """Whether the game ends by the draw rule before the rack of ``round_number``.

    ``pool_codes`` is the bag plus the reliquat. The game is over when the pool is empty,
    or when no rack that can be drawn from it meets the minimums in force
    (:func:`minimums_in_force`; docs/rules.md#game-end, after the Mattel rules: "no vowels
    or consonants left").
    """
    return minimums_in_force(tileset, pool_codes, round_number, rules) is None


def _count(n: int, kind: str) -> dict[str, Any]:
    """``n`` vowels, consonants or tiles, as a phrase (singular or plural)."""
    return phrase(f"{kind}_one" if n == 1 else f"{kind}_many", count=n)


def _ordinal(n: int) -> dict[str, Any]:
    """second ... eighth, then 9th, 11th, 21st, ... as a phrase."""
    if 2 <= n <= 8:
        return phrase(f"ordinal_{n}")
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return phrase(f"ordinal_{suffix}", n=n)


def parse_tiles(typed: str) -> list[int]:
    """Rack codes of typed tiles: letters in any case, ``?`` for a blank, spaces ignored.

    Unlike a slip, a lowercase letter here is just the letter: the arbitrator types what
    the tiles show.
    """
    codes = []
    for ch in typed:
        if ch.isspace():
            continue
        if ch == BLANK_CHAR:
            codes.append(BLANK)
            continue
        try:
            codes.append(letter_code(ch))
        except ValueError:
            raise IllegalRackError("not_a_tile", char=ch) from None
    return codes


def _check_codes(codes: Iterable[int]) -> list[int]:
    out = list(codes)
    for code in out:
        if not 0 <= code <= NUM_LETTERS:
            raise ValueError(f"{code!r} is not a rack tile code (0 = blank, 1..26 = A..Z)")
    return out


class Bag:
    """The tiles not yet on a rack or the board, and the seeded generator that draws them.

    Build it from a :class:`TileSet` (the full bag) or from explicit codes (replays,
    tests). The same seed and the same history of draws, removals and returns give the
    same tiles.
    """

    def __init__(self, tiles: TileSet | Iterable[int], seed: int) -> None:
        codes = tiles.bag() if isinstance(tiles, TileSet) else _check_codes(tiles)
        # Kept sorted at all times: the drawn index must mean the same tile in every replay,
        # whatever order the tiles were returned in.
        self._tiles = sorted(codes)
        self._rng = random.Random(seed)
        self.seed = seed

    @classmethod
    def from_string(cls, letters: str, seed: int) -> Bag:
        """A bag holding the tiles written as ``"AAEB??"`` (spaces ignored)."""
        return cls(parse_tiles(letters), seed)

    def __len__(self) -> int:
        return len(self._tiles)

    def __repr__(self) -> str:
        return f"Bag({self.remaining_string()!r}, seed={self.seed})"

    @property
    def tiles(self) -> tuple[int, ...]:
        """The tiles left, sorted by code (blanks first)."""
        return tuple(self._tiles)

    def counts(self) -> tuple[int, ...]:
        """Tiles left per code, indexed like :attr:`TileSet.counts` (index 0 = blank)."""
        counts = [0] * (NUM_LETTERS + 1)
        for code in self._tiles:
            counts[code] += 1
        return tuple(counts)

    def remaining_string(self) -> str:
        """The tiles left as letters, in code order, ``?`` for blanks (e.g. ``"?AABE"``)."""
        return rack_string(self._tiles)

    def draw(self, k: int) -> list[int]:
        """Take ``k`` tiles at random, in the order drawn."""
        if k < 0:
            raise ValueError(f"cannot draw {k} tiles")
        if k > len(self._tiles):
            if len(self._tiles) == 1:
                raise IllegalRackError("bag_too_small_one", count=k)
            raise IllegalRackError("bag_too_small", left=len(self._tiles), count=k)
        drawn = []
        for _ in range(k):
            n = len(self._tiles)
            # min() guards against the float product rounding up to n on a huge bag.
            drawn.append(self._tiles.pop(min(int(self._rng.random() * n), n - 1)))
        return drawn

    def missing(self, codes: Iterable[int]) -> IllegalRackError | None:
        """Why ``codes`` cannot be taken from the bag, or None when they can."""
        have = Counter(self._tiles)
        for code, wanted in sorted(Counter(codes).items()):
            left = have[code]
            if wanted > left:
                if code == BLANK:
                    if left == 0:
                        return IllegalRackError("no_blank_left")
                    if left == 1:
                        return IllegalRackError("one_blank_left", wanted=wanted)
                    return IllegalRackError("too_few_blanks_left", left=left, wanted=wanted)
                letter = rack_string([code])
                if left == 0:
                    return IllegalRackError("no_letter_left", letter=letter)
                return IllegalRackError("too_few_letters_left", left=left, letter=letter, wanted=wanted)
        return None

    def remove(self, codes: Iterable[int]) -> None:
        """Take these tiles out (a manual rack, a replay); all or nothing."""
        wanted = _check_codes(codes)
        problem = self.missing(wanted)
        if problem is not None:
            raise problem
        for code in wanted:
            self._tiles.remove(code)

    def put_back(self, codes: Iterable[int]) -> None:
        self._tiles.extend(_check_codes(codes))
        self._tiles.sort()


@dataclass(frozen=True)
class RackDraw:
    """The record of one round's draw, as printed on the game sheet."""

    round: int
    #: Tiles kept from the previous rack (empty after a rejection: they went back).
    reliquat: tuple[int, ...]
    #: Tiles drawn from the bag, in the order drawn (or typed).
    new: tuple[int, ...]
    #: Each full rack that failed the minimums, in order, its reliquat included.
    rejected: tuple[tuple[int, ...], ...] = ()
    #: Typed by the arbitrator from a physical draw rather than drawn by the system.
    manual: bool = False

    @property
    def rack(self) -> tuple[int, ...]:
        return self.reliquat + self.new

    def texts(self) -> tuple[str, str, tuple[str, ...]]:
        """Reliquat, new tiles and rejected racks as written in records and the database:
        what a redraw is compared with."""
        return rack_string(self.reliquat), rack_string(self.new), tuple(rack_string(r) for r in self.rejected)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "reliquat": rack_string(self.reliquat),
            "new": rack_string(self.new),
            "rejected": [rack_string(r) for r in self.rejected],
            "manual": self.manual,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RackDraw:
        return cls(
            round=int(data["round"]),
            reliquat=tuple(parse_tiles(data.get("reliquat", ""))),
            new=tuple(parse_tiles(data.get("new", ""))),
            rejected=tuple(tuple(parse_tiles(r)) for r in data.get("rejected", ())),
            manual=bool(data.get("manual", False)),
        )


def _check_reliquat(reliquat: Sequence[int], rules: DrawRules) -> tuple[int, ...]:
    kept = tuple(_check_codes(reliquat))
    if len(kept) > rules.rack_size:
        raise IllegalRackError("reliquat_too_big", count=len(kept), size=rules.rack_size)
    return kept


def draw_rack(
    bag: Bag, reliquat: Sequence[int], round_number: int, tileset: TileSet, rules: DrawRules
) -> RackDraw | None:
    """Draw the rack of ``round_number``: the reliquat plus tiles from the bag.

    A rack that fails the minimums in force (:func:`minimums_in_force`) goes back to the
    bag whole and a fresh full rack is drawn, until one meets them. Returns None, with the
    bag untouched, when the game is over by the draw rule. Raises
    :class:`IllegalRackError` after ``rules.max_attempts`` racks without a valid one; the
    bag then holds the same tiles as before.
    """
    kept = _check_reliquat(reliquat, rules)
    minimums = minimums_in_force(tileset, bag.tiles + kept, round_number, rules)
    if minimums is None:
        return None
    rejected: list[tuple[int, ...]] = []
    current = kept
    for _ in range(rules.max_attempts):
        new = tuple(bag.draw(min(rules.rack_size - len(current), len(bag))))
        rack = current + new
        if rack_meets(tileset, rack, minimums.vowels, minimums.consonants):
            return RackDraw(round_number, current, new, tuple(rejected))
        rejected.append(rack)
        bag.put_back(rack)
        current = ()
    # Give the caller its reliquat back so that no tile is lost by the failure.
    bag.remove(kept)
    raise IllegalRackError(
        "no_rack_drawn" if kept else "no_rack_drawn_no_reliquat",
        minimums=_pair(minimums.vowels, minimums.consonants),
        attempts=rules.max_attempts,
        round=round_number,
        bag=bag.remaining_string(),
        **({"reliquat": rack_string(kept)} if kept else {}),
    )


def _pair(vowels: int, consonants: int) -> dict[str, Any]:
    """ "2 vowels and 2 consonants", as a phrase."""
    return phrase(
        "minimums_pair", vowels=_count(vowels, "vowels"), consonants=_count(consonants, "consonants")
    )


def _why(
    minimums: Minimums, kinds: tuple[int, int, int], round_number: int, rules: DrawRules
) -> dict[str, Any] | None:
    """Why the minimums in force are these, when the early fallback makes it a question:
    they are the late ones, or a rack with the late ones would have passed."""
    early = _pair(*rules.minimums(round_number))
    if minimums.fallback:
        return phrase("why_later_minimums", minimums=_pair(minimums.vowels, minimums.consonants), early=early)
    late = (rules.late_vowels, rules.late_consonants)
    if rules.early_fallback and round_number <= rules.early_rounds and _meets(kinds, *late):
        return phrase("why_early_minimums", early=early, late=_pair(*late))
    return None


def _minimums_problem(
    tileset: TileSet, rack: Sequence[int], round_number: int, minimums: Minimums, rules: DrawRules
) -> IllegalRackError | None:
    vowels, consonants = minimums.vowels, minimums.consonants
    kinds = _kinds(tileset, rack)
    if _meets(kinds, vowels, consonants):
        return None
    why = _why(minimums, kinds, round_number, rules)
    because: dict[str, Any] = {} if why is None else {"why": why}
    suffix = "" if why is None else "_because"
    only_v, only_c, both = kinds
    if only_v + both < vowels:
        return IllegalRackError(
            f"needs_vowels{suffix}",
            vowels=_count(vowels, "vowels"),
            round=round_number,
            has=only_v + both,
            **because,
        )
    if only_c + both < consonants:
        return IllegalRackError(
            f"needs_consonants{suffix}",
            consonants=_count(consonants, "consonants"),
            round=round_number,
            has=only_c + both,
            **because,
        )
    return IllegalRackError(
        f"needs_both{suffix}", minimums=_pair(vowels, consonants), round=round_number, **because
    )


def _rack_problem(
    typed: Sequence[int], reliquat: Sequence[int], pool: Counter[int], size: int, rejected: str | None
) -> IllegalRackError | None:
    """Why ``typed`` cannot be a full rack drawn on top of ``reliquat`` from ``pool`` (the
    bag plus whatever tiles are out of it but still free to be on this rack), or None.
    ``rejected``: the rack as written when it is a rejected one, None for the rack itself."""
    named = {} if rejected is None else {"rack": rejected}
    prefix = "" if rejected is None else "rejected_"
    if len(typed) != size:
        return IllegalRackError(
            f"{prefix}rack_size_wrong", tiles=_count(size, "tiles"), count=len(typed), **named
        )
    if Counter(reliquat) - Counter(typed):
        return IllegalRackError(
            f"{prefix}rack_without_reliquat", reliquat=rack_string(tuple(reliquat)), **named
        )
    for code, wanted in sorted(Counter(typed).items()):
        left = pool[code]
        if wanted > left:
            letter = {} if code == BLANK else {"letter": rack_string([code])}
            kind = "blank" if code == BLANK else "letter"
            if left == 0:
                return IllegalRackError(f"no_{kind}_left", **letter)
            # Ordinal over the whole rack: with a K in the reliquat and none in the bag,
            # a second typed K is the one that does not exist.
            where = "_with_reliquat" if code in reliquat else ""
            return IllegalRackError(f"no_nth_{kind}{where}", nth=_ordinal(left + 1), **letter)
    return None


# Positional like draw_rack, whose arguments it mirrors; the rejection details are keywords.
def check_manual_rack(
    bag: Bag,
    reliquat: Sequence[int],
    typed: str,
    round_number: int,
    tileset: TileSet,
    rules: DrawRules,
    *,
    after_rejection: bool = False,
    rejected: Sequence[str] = (),
) -> RackDraw:
    """Check the rack the arbitrator drew on the table and take its new tiles from the bag.

    ``typed`` is the full rack, reliquat included. With ``after_rejection`` (implied by
    ``rejected``), the racks in ``rejected`` were drawn first and failed the minimums: the
    first one holds the reliquat, and after it everything went back to the bag, so
    ``typed`` is a fresh full rack with no reliquat. Any refusal raises
    :class:`IllegalRackError` with the reason and leaves the bag unchanged.
    """
    kept = _check_reliquat(reliquat, rules)
    rack = parse_tiles(typed)
    thrown = [parse_tiles(r) for r in rejected]
    after_rejection = after_rejection or bool(thrown)
    if after_rejection and not thrown:
        raise IllegalRackError("rejected_rack_not_typed")

    pool_size = len(kept) + len(bag)
    minimums = minimums_in_force(tileset, bag.tiles + kept, round_number, rules)
    if minimums is None:
        if pool_size == 0:
            raise IllegalRackError("game_over_no_tiles")
        early = rules.minimums(round_number)
        late = (rules.late_vowels, rules.late_consonants)
        tried = _pair(*early)
        if rules.early_fallback and round_number <= rules.early_rounds and late != early:
            tried = phrase("minimums_nor", early=tried, late=_pair(*late))
        if pool_size == 1:
            raise IllegalRackError("game_over_one_tile", minimums=tried)
        raise IllegalRackError("game_over_tiles", count=pool_size, minimums=tried)
    size = min(rules.rack_size, pool_size)
    # The reliquat's tiles are this rack's to keep, or back in the bag after a rejection:
    # either way they are available to the typed rack.
    pool = Counter(bag.tiles) + Counter(kept)

    for i, rejected_rack in enumerate(thrown):
        written = rack_string(rejected_rack)
        # Only the first rejected rack sits on the reliquat; later ones are fresh racks.
        problem = _rack_problem(rejected_rack, kept if i == 0 else (), pool, size, written)
        if (
            problem is None
            and _minimums_problem(tileset, rejected_rack, round_number, minimums, rules) is None
        ):
            problem = IllegalRackError(
                "rejected_rack_meets_minimums",
                rack=written,
                round=round_number,
                minimums=_pair(minimums.vowels, minimums.consonants),
            )
        if problem is not None:
            raise problem

    problem = _rack_problem(rack, () if after_rejection else kept, pool, size, None)
    if problem is None:
        problem = _minimums_problem(tileset, rack, round_number, minimums, rules)
    if problem is not None:
        raise problem

    if after_rejection:
        bag.put_back(kept)
        bag.remove(rack)
        return RackDraw(round_number, (), tuple(rack), tuple(tuple(r) for r in thrown), manual=True)
    new = list(rack)
    for code in kept:
        new.remove(code)
    bag.remove(new)
    return RackDraw(round_number, kept, tuple(new), manual=True)
