"""A round credited once its top is known: the tops, the solo, the warning penalty."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from scoring.adjudication.settings import AdjudicationSettings
from scoring.adjudication.verdicts import Reason, Verdict

#: Reasons whose move counts for the top and the solo.
_SCORED_REASONS = (
    Reason.OK,
    Reason.WRONG_REFERENCE,
    Reason.OMITTED_LETTERS,
    Reason.SHIFT_ACCEPTED,
    Reason.OVERRIDDEN,
)
#: Reasons whose penalty the arbitrator set: no warning penalty is added to it.
_SET_BY_ARBITRATOR = (Reason.OVERRIDDEN, Reason.AVERAGE)


@dataclass(frozen=True)
class Credit:
    """What a player is credited for a round."""

    credited: int
    penalty: int
    solo: bool
    is_top: bool
    warnings: int


K = TypeVar("K", bound=Hashable)


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
