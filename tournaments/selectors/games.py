"""Games and rounds: the game being played, the round the arbitrator acts on, and what a
player may see of a round."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from solver.errors import IllegalRackError
from tournaments.messages import say_error
from tournaments.models import Event, Game, Round
from tournaments.state import rebuild

#: The states of a round whose slips are ruled (its review is shown).
RULED = (Round.State.ADJUDICATED, Round.State.PLACED)


def playing_game(event: Event) -> Game | None:
    """The game being played: at most one per event."""
    return event.games.playing().first()


def current_game(event: Event) -> Game | None:
    """The game being played, else the last one (for a look back after its end)."""
    return playing_game(event) or event.games.order_by("number").last()


def event_games(event: Event) -> QuerySet[Game]:
    """The event's games, the first first."""
    return event.games.order_by("number")


def event_game(event: Event, number: int) -> Game | None:
    """Game ``number`` of ``event``, if it has one."""
    return event.games.filter(number=number).first()


def game_ended(game_id: int) -> bool:
    """Whether game ``game_id`` has ended, as stored now (a placement may have ended it)."""
    return Game.objects.filter(pk=game_id, state=Game.State.ENDED).exists()


def unplaced_round(game: Game) -> Round | None:
    """The round whose move is not on the board yet (drawn, open, closed or ruled): the
    one the arbitrator acts on. None between a placement that ended the game and the
    next game."""
    return game.rounds.unplaced().order_by("number").last()


def game_round(game: Game, number: int) -> Round | None:
    """Round ``number`` of ``game``, if it has one."""
    return game.rounds.filter(number=number).first()


def round_with_game(round_id: int) -> Round | None:
    return Round.objects.filter(pk=round_id).select_related("game").first()


def last_round(game: Game) -> Round | None:
    """The game's last round drawn, whatever its state."""
    return game.rounds.order_by("-number").first()


def last_placed_round(game: Game) -> Round | None:
    return game.rounds.filter(state=Round.State.PLACED).order_by("-number").first()


def last_ruled_round(game: Game) -> Round | None:
    """The game's last round whose slips are ruled (:data:`RULED`)."""
    return game.rounds.filter(state__in=RULED).order_by("number").last()


def placed_count(game: Game) -> int:
    """How many of the game's rounds are placed."""
    return game.rounds.filter(state=Round.State.PLACED).count()


def current_round(event: Event) -> Round | None:
    """The last round of the current game (:func:`current_game`): None between the start of
    a game and its first draw, not the last round of the game before."""
    # While a game is played (every slip of a hall): one query, not one for the game and one
    # for its round.
    playing = (
        Round.objects.filter(game__event=event, game__state=Game.State.PLAYING)
        .select_related("game__event")
        .order_by("-number")
        .first()
    )
    if playing is not None:
        return playing
    game = current_game(event)
    if game is None:
        return None
    return Round.objects.filter(game=game).select_related("game__event").order_by("-number").first()


def has_counted_rounds(event: Event, *, game_number: int | None = None) -> bool:
    """Whether a round's results count in the standings (placed, or published)."""
    rounds = Round.objects.filter(game__event=event).counted()
    if game_number is not None:
        rounds = rounds.filter(game__number=game_number)
    return rounds.exists()


def typed_rack_problem(game: Game, typed: str, rejected: tuple[str, ...] = ()) -> str:
    """Why a rack typed from a physical draw would be refused as the game's next rack, or
    "" when it would be accepted. Checked on a replay in memory: nothing is stored."""
    position = rebuild(game)
    if position.current is not None:
        return _("round %(number)s is not placed yet") % {"number": position.current.number}
    try:
        position.game.draw_manual(typed.strip().upper(), rejected)
    except IllegalRackError as exc:
        return say_error(exc)
    return ""


# --------------------------------------------------------------------------- what a player sees


@dataclass(frozen=True)
class PlayerSight:
    """What a player may see of a round; the arbitrator sees everything. The rack once the
    round is open; the answers (how many moves, the tops and their score, the move to be
    placed) once the slips are ruled; the move the arbitrator chose, as placed, once it is
    on the board (docs/rules.md#slips). The pages and the API hide by this one rule."""

    rack: bool
    answers: bool
    placed: bool


def player_sight(round: Round) -> PlayerSight:
    return PlayerSight(
        rack=round.state != Round.State.DRAWN,
        answers=results_shown(round),
        placed=round.state == Round.State.PLACED,
    )


def results_shown(round: Round) -> bool:
    """Whether the players see the round's top and their rulings: once the arbitrator has
    reviewed them (published, or placed the move), or at the close under the event's
    ``publish_at_close`` (docs/rules.md#tops-and-placement)."""
    if round.state == Round.State.PLACED:
        return True
    return round.state == Round.State.ADJUDICATED and round.published_at is not None


def results_being_checked(round: Round | None) -> bool:
    """Closed, and its results not shown yet: the phones and the projector say so."""
    return (
        round is not None
        and round.state in (Round.State.CLOSED, Round.State.ADJUDICATED)
        and not (results_shown(round))
    )
