"""Virtual players, levels 1 to 6 (docs/rules.md#computer-players: scrabble(6)'s computer players).

Level 6 always plays a top (the chosen one). Lower levels draw from the ranked move list
as scrabble(6) describes: list the distinct scores the rack can make, place the mean of a
normal distribution along that list (close to the highest score at level 5, close to the
lowest at level 1), with a standard deviation of one fifth of the number of distinct
scores, draw a score, then one of the moves making it.

Draws use only ``random.Random.random()``, the one generator Python keeps stable across
versions, so a seeded virtual player makes the same choices everywhere.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from solver.move import Move

LEVELS = (1, 2, 3, 4, 5, 6)
#: Where the mean sits along the distinct scores, from the lowest (0) to the highest (1).
MEAN_POSITION = {1: 0.15, 2: 0.35, 3: 0.55, 4: 0.75, 5: 0.92}


class VirtualPlayer:
    def __init__(self, level: int, seed: int, name: str | None = None):
        if level not in LEVELS:
            raise ValueError(f"a virtual player's level is 1 to 6, not {level}")
        self.level = level
        self.name = name or f"Virtual {level}"
        self._rng = random.Random(seed)

    def _gauss(self, mean: float, sd: float) -> float:
        # Box-Muller on random(): stable across Python versions, unlike Random.gauss().
        u1 = 1.0 - self._rng.random()
        u2 = self._rng.random()
        return mean + sd * math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)

    def choose(self, ranked: Sequence[Move], tops: Sequence[Move] = ()) -> Move | None:
        """Pick a move from ``ranked`` (every legal move, any order, with scores).

        ``tops``: the tops in choice order (see :mod:`solver.analysis`); level 6 plays the
        first. Returns None when there is no legal move.
        """
        if not ranked:
            return None
        if self.level == 6:
            if tops:
                return tops[0]
            best = max(m.score or 0 for m in ranked)
            return next(m for m in ranked if m.score == best)
        scores, by_score = _by_score(ranked)
        k = len(scores)
        mean = MEAN_POSITION[self.level] * (k - 1)
        sd = max(k / 5.0, 1e-9)
        index = round(self._gauss(mean, sd))
        index = min(max(index, 0), k - 1)
        candidates = by_score[scores[index]]
        return candidates[min(int(self._rng.random() * len(candidates)), len(candidates) - 1)]


#: The last table made, with the tuple it was made from.
_LAST: dict[str, tuple[tuple[Move, ...], list[int], dict[int, list[Move]]]] = {}


def _by_score(ranked: Sequence[Move]) -> tuple[list[int], dict[int, list[Move]]]:
    """The distinct scores, lowest first, and the moves making each (in ``ranked``'s
    order): made once for the round's list, which every virtual player of a hall reads
    (each going through every move of it, thousands, would cost a big simulated event
    more than the engine: docs/benchmarks.md)."""
    last = _LAST.get("table")
    if last is not None and last[0] is ranked:  # a tuple: the same moves as last time
        return last[1], last[2]
    by_score: dict[int, list[Move]] = {}
    for m in ranked:
        by_score.setdefault(m.score or 0, []).append(m)
    scores = sorted(by_score)
    if isinstance(ranked, tuple):  # a list could change under the same identity
        _LAST["table"] = (ranked, scores, by_score)
    return scores, by_score
