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

from solver.errors import IllegalRackError
from solver.tiles import BLANK, BLANK_CHAR, NUM_LETTERS, TileSet, letter_code, rack_string
from solver.tiles import rack_size as board_rack_size


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
            raise ValueError("the early minimums do not fit in the rack")
        if self.late_vowels + self.late_consonants > self.rack_size:
            raise ValueError("the late minimums do not fit in the rack")
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


def _tile_name(code: int) -> str:
    return "blank" if code == BLANK else rack_string([code])


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def _ordinal(n: int) -> str:
    if n <= len(_ORDINALS):
        return _ORDINALS[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


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
            raise IllegalRackError(f"{ch!r} is not a tile") from None
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
            raise IllegalRackError(
                f"only {_plural(len(self._tiles), 'tile')} left in the bag, cannot draw {k}"
            )
        drawn = []
        for _ in range(k):
            n = len(self._tiles)
            # min() guards against the float product rounding up to n on a huge bag.
            drawn.append(self._tiles.pop(min(int(self._rng.random() * n), n - 1)))
        return drawn

    def missing(self, codes: Iterable[int]) -> str | None:
        """Why ``codes`` cannot be taken from the bag, or None when they can."""
        have = Counter(self._tiles)
        for code, wanted in sorted(Counter(codes).items()):
            left = have[code]
            if wanted > left:
                name = _tile_name(code)
                if left == 0:
                    return f"there is no {name} left in the bag"
                return f"only {left} {name} left in the bag, the rack asks for {wanted}"
        return None

    def remove(self, codes: Iterable[int]) -> None:
        """Take these tiles out (a manual rack, a replay); all or nothing."""
        wanted = _check_codes(codes)
        problem = self.missing(wanted)
        if problem is not None:
            raise IllegalRackError(problem)
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
        raise IllegalRackError(f"a reliquat of {len(kept)} tiles does not fit in a rack of {rules.rack_size}")
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
        f"no rack with {_pair(minimums.vowels, minimums.consonants)}"
        f" was drawn in {rules.max_attempts} attempts in round {round_number}"
        f" (bag: {bag.remaining_string()}, reliquat: {rack_string(kept) or 'none'})"
    )


def _pair(vowels: int, consonants: int) -> str:
    return f"{_plural(vowels, 'vowel')} and {_plural(consonants, 'consonant')}"


def _why(minimums: Minimums, kinds: tuple[int, int, int], round_number: int, rules: DrawRules) -> str:
    """Why the minimums in force are these, when the early fallback makes it a question:
    they are the late ones, or a rack with the late ones would have passed."""
    early = _pair(*rules.minimums(round_number))
    if minimums.fallback:
        return (
            f": the later minimums apply ({_pair(minimums.vowels, minimums.consonants)}),"
            f" as the bag and reliquat can no longer give {early}"
        )
    late = (rules.late_vowels, rules.late_consonants)
    if rules.early_fallback and round_number <= rules.early_rounds and _meets(kinds, *late):
        return f": the bag and reliquat can still give {early}, so {_pair(*late)} are not enough"
    return ""


def _minimums_problem(
    tileset: TileSet, rack: Sequence[int], round_number: int, minimums: Minimums, rules: DrawRules
) -> str | None:
    vowels, consonants = minimums.vowels, minimums.consonants
    kinds = _kinds(tileset, rack)
    if _meets(kinds, vowels, consonants):
        return None
    why = _why(minimums, kinds, round_number, rules)
    only_v, only_c, both = kinds
    if only_v + both < vowels:
        return (
            f"the rack needs at least {_plural(vowels, 'vowel')} in round {round_number}"
            f" (it has {only_v + both}){why}"
        )
    if only_c + both < consonants:
        return (
            f"the rack needs at least {_plural(consonants, 'consonant')} in round {round_number}"
            f" (it has {only_c + both}){why}"
        )
    return (
        f"the rack needs at least {_pair(vowels, consonants)} in round {round_number}"
        f" (a blank or a tile that is both counts as one or the other, not both){why}"
    )


def _rack_problem(
    typed: Sequence[int], reliquat: Sequence[int], pool: Counter[int], size: int, label: str
) -> str | None:
    """Why ``typed`` cannot be a full rack drawn on top of ``reliquat`` from ``pool`` (the
    bag plus whatever tiles are out of it but still free to be on this rack), or None."""
    if len(typed) != size:
        return f"{label} must hold {_plural(size, 'tile')}, not {len(typed)}"
    if Counter(reliquat) - Counter(typed):
        return f"{label} must keep the reliquat {rack_string(tuple(reliquat))}"
    for code, wanted in sorted(Counter(typed).items()):
        left = pool[code]
        if wanted > left:
            name = _tile_name(code)
            if left == 0:
                return f"there is no {name} left in the bag"
            # Ordinal over the whole rack: with a K in the reliquat and none in the bag,
            # a second typed K is the one that does not exist.
            where = "in the reliquat and the bag" if code in reliquat else "in the bag"
            return f"there is no {_ordinal(left + 1)} {name} {where}"
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
        raise IllegalRackError(
            "type the rejected rack as well: every rejection is recorded on the game sheet"
        )

    pool_size = len(kept) + len(bag)
    minimums = minimums_in_force(tileset, bag.tiles + kept, round_number, rules)
    if minimums is None:
        if pool_size == 0:
            raise IllegalRackError("the game is over: no tiles are left")
        early = rules.minimums(round_number)
        late = (rules.late_vowels, rules.late_consonants)
        tried = _pair(*early)
        if rules.early_fallback and round_number <= rules.early_rounds and late != early:
            tried += f", nor with {_pair(*late)}"
        raise IllegalRackError(
            f"the game is over: the {_plural(pool_size, 'tile')} left cannot make a rack with {tried}"
        )
    size = min(rules.rack_size, pool_size)
    # The reliquat's tiles are this rack's to keep, or back in the bag after a rejection:
    # either way they are available to the typed rack.
    pool = Counter(bag.tiles) + Counter(kept)

    for i, rejected_rack in enumerate(thrown):
        label = f"the rejected rack {rack_string(rejected_rack)}"
        # Only the first rejected rack sits on the reliquat; later ones are fresh racks.
        problem = _rack_problem(rejected_rack, kept if i == 0 else (), pool, size, label)
        if (
            problem is None
            and _minimums_problem(tileset, rejected_rack, round_number, minimums, rules) is None
        ):
            problem = (
                f"{label} meets the minimums of round {round_number}"
                f" ({_pair(minimums.vowels, minimums.consonants)}): it cannot be rejected"
            )
        if problem is not None:
            raise IllegalRackError(problem)

    problem = _rack_problem(rack, () if after_rejection else kept, pool, size, "the rack")
    if problem is None:
        problem = _minimums_problem(tileset, rack, round_number, minimums, rules)
    if problem is not None:
        raise IllegalRackError(problem)

    if after_rejection:
        bag.put_back(kept)
        bag.remove(rack)
        return RackDraw(round_number, (), tuple(rack), tuple(tuple(r) for r in thrown), manual=True)
    new = list(rack)
    for code in kept:
        new.remove(code)
    bag.remove(new)
    return RackDraw(round_number, kept, tuple(new), manual=True)
