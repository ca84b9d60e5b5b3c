"""A round handed to the pure duplicate rules (:mod:`scoring.adjudication`): the event's
settings, the game's rules naming squares in the event's notation, the players' warnings
so far, and the judge of one slip that the console's Try Move, the terminal's paper slips,
the training modes' check at submission and the API's preview all use. The adjudication of
the close (:mod:`tournaments.services.rulings`) takes its settings and rules from here
too, so a slip is judged the same way wherever it is looked at."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import adjudication as adj
from solver.rules import Rules
from solver.tiles import rack_codes
from tournaments.core import ApplicationError
from tournaments.display import shown_move
from tournaments.messages import say_notes
from tournaments.models import Event, Player, Round, Ruling, Slip
from tournaments.state import Position, rebuild


def adjudication_settings(event: Event) -> adj.AdjudicationSettings:
    return adj.AdjudicationSettings(
        score_policy=event.score_policy,
        free_warnings=event.free_warnings,
        warning_penalty=event.warning_penalty,
        shift_penalty=event.shift_penalty,
        solo_bonus=event.solo_bonus,
        solo_min_players=event.solo_min_players,
        unmarked_blank_warning=event.unmarked_blank_warning,
        notation=event.notation,
        first_slip_best_placement=event.first_slip_best_placement,
        reference_rule=event.reference_rule,
        misplaced_blank_warning=event.misplaced_blank_warning,
        blank_reading=event.blank_reading,
        several_slips_void=event.several_slips_void,
        raccord=event.raccord,
        single_warning=event.single_warning,
        omitted_last_letter=event.omitted_last_letter,
        solo_below_top=event.solo_below_top,
    )


def judging_rules(position: Position, event: Event) -> Rules:
    """The game's rules naming squares in the event's notation, for messages to people."""
    return dataclasses.replace(position.game.rules, notation=event.notation)


def prior_warnings(round: Round) -> dict[int, int]:
    """Each player's warnings in the game before ``round`` (absent: no ruling yet, none)."""
    # The rulings with a warning only (the others add 0): a hall's game has tens of
    # thousands of rulings, and this is read at each correction and each ruling.
    rows = (
        Ruling.objects.filter(round__game=round.game, round__number__lt=round.number, warnings__gt=0)
        .values("player_id")
        .annotate(w=Sum("warnings"))
    )
    return {r["player_id"]: r["w"] or 0 for r in rows}


def solo_players(round: Round) -> int:
    """The players a solo needs (docs/rules.md#solos): by default the players of the game,
    registered and not withdrawn when it began, the same number for each of its rounds
    (a round's solo does not depend on who hands in slips later); or those who handed in
    at least one slip in the game so far (late ones too); or every registered player but
    those withdrawn before the round opened (they are not in it: docs/rules.md#players)."""
    event = round.game.event
    if event.solo_players == Event.SoloPlayers.GAME:
        began = round.game.started_at
        return event.players.filter(Q(withdrawn_at__isnull=True) | Q(withdrawn_at__gte=began)).count()
    if event.solo_players == Event.SoloPlayers.REGISTERED:
        opened = round.opened_at or timezone.now()
        return event.players.filter(Q(withdrawn_at__isnull=True) | Q(withdrawn_at__gte=opened)).count()
    return (
        Slip.objects.filter(round__game=round.game, round__number__lte=round.number)
        .values("player_id")
        .distinct()
        .count()
    )


@dataclass(frozen=True)
class Preview:
    """The Try Move of the arbitrator's console (docs/rules.md#adjudication): what a slip
    would score on the current board, judged as the close would."""

    reason: str
    ok: bool  # the move is credited (valid, or with the penalty of a wrong reference)
    move: str  # in the event's notation, "" when unreadable
    move_score: int
    credited: int  # the slip's own points (its penalty taken), before the warning penalty
    warnings: int
    detail: str  # the notes, in the active language
    invalid_words: tuple[str, ...] = ()
    shift_candidate: str = ""
    #: With the player known: their warnings in the game with this slip's, and the
    #: penalty those beyond the free ones cost (adj.warning_penalty, as at the close).
    game_warnings: int = 0
    warning_penalty: int = 0
    #: The slip's own penalty (a wrong reference's 5 points).
    penalty: int = 0
    notes: tuple[adj.Note, ...] = ()

    def remarks(self) -> str:
        """The notes besides the move's own score, in the active language."""
        return say_notes(note for note in self.notes if note.code != "scores")


#: Reasons whose move is credited at the close without the arbitrator.
CREDITED = (adj.Reason.OK, adj.Reason.WRONG_REFERENCE, adj.Reason.OMITTED_LETTERS)


class SlipJudge:
    """Judges slips of the round being played without storing anything. The game is
    replayed once, when the judge is made: a terminal session types hundreds of slips."""

    def __init__(self, round: Round) -> None:
        event = round.game.event
        position = rebuild(round.game)
        if position.current is None or position.current.pk != round.pk:
            raise ApplicationError(_("round %(number)s is already placed") % {"number": round.number})
        self.round, self.event, self.position = round, event, position
        self.rules = judging_rules(position, event)
        self.settings = adjudication_settings(event)
        self.rack = rack_codes(round.rack)
        self._prior: dict[int, int] | None = None

    def verdict(self, coordinates: str, word: str, announced: int | None = None) -> adj.Verdict:
        game = self.position.game
        slip = adj.SlipInput(coordinates, word, announced)
        return adj.adjudicate_slip(game.board, self.rack, game.lexicon, self.rules, self.settings, slip)

    def preview(
        self, coordinates: str, word: str, announced: int | None = None, *, player: Player | None = None
    ) -> Preview:
        verdict = self.verdict(coordinates, word, announced)
        event = self.event
        game_warnings = penalty = 0
        if player is not None:
            if self._prior is None:
                self._prior = prior_warnings(self.round)
            prior = self._prior.get(player.pk, 0)
            game_warnings = prior + verdict.warnings
            penalty = adj.warning_penalty(prior, verdict.warnings, self.settings)
        return Preview(
            reason=verdict.reason,
            ok=verdict.reason in CREDITED,
            move=shown_move(verdict.move, event.board, event.notation),
            move_score=verdict.move_score,
            credited=verdict.score - verdict.penalty,
            warnings=verdict.warnings,
            detail=say_notes(verdict.notes),
            invalid_words=verdict.invalid_words,
            shift_candidate=shown_move(verdict.shift_candidate, event.board, event.notation),
            game_warnings=game_warnings,
            warning_penalty=penalty,
            penalty=verdict.penalty,
            notes=verdict.notes,
        )


def move_preview(
    round: Round, coordinates: str, word: str, announced: int | None = None, *, player: Player | None = None
) -> Preview:
    """Judge one slip as the close would (lexicon included), without storing anything."""
    return SlipJudge(round).preview(coordinates, word, announced, player=player)
