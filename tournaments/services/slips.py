"""Slips: a player's (from the phone) or a paper slip typed by the arbitrator. The same
``client_id`` twice is one slip; the last slip before the deadline counts; a late one is
kept and ruled 0."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import adjudication as adj
from tournaments import tasks
from tournaments.core import MAX_ANNOUNCED, ApplicationError, User
from tournaments.judging import SlipJudge
from tournaments.messages import say_notes
from tournaments.models import Event, Game, Player, Round, Slip
from tournaments.selectors import current_round
from tournaments.services.games import check_playing
from tournaments.services.history import actor, history_record


@dataclass
class SubmitResult:
    slip: Slip
    #: nostrict mode: the words of the slip that are not in the lexicon.
    invalid_words: list[str] = field(default_factory=list)
    created: bool = True


def _training_check(round: Round, coordinates: str, word: str) -> list[str]:
    """The training modes check a slip at submission (tournament mode never): strict
    refuses any slip the close would rule 0; nostrict relaxes only the word list, so an
    unreadable or illegal slip is refused there too and words not in the list are only
    flagged (docs/rules.md#modes)."""
    verdict = SlipJudge(round).verdict(coordinates, word)
    mode = round.game.event.mode
    accepted = (adj.Reason.OK,) if mode == Event.Mode.STRICT else (adj.Reason.OK, adj.Reason.NOT_IN_LEXICON)
    if verdict.reason not in accepted:
        raise ApplicationError(
            say_notes(verdict.notes), {"reason": verdict.reason, "invalid_words": list(verdict.invalid_words)}
        )
    return list(verdict.invalid_words)


#: What a second paper slip for the same table is (the arbitrator says it).
SECOND_CORRECTION = "correction"  # the first was typed wrong: the new one replaces it
SECOND_SLIP = "second"  # the player handed in two slips: both kept, the round is void


def _second_slip(round: Round, player: Player, source: str, second: str | None, current: list[Slip]) -> bool:
    """Whether an earlier slip of this round (``current``: the player's current slips)
    stays current beside the new one (several slips handed in, void under
    ``several_slips_void``). Raises when the new slip may not be taken as it is
    (docs/rules.md#slips)."""
    event = round.game.event
    if not current:
        return False
    if source == Slip.Source.PHONE:
        if not event.phone_replace:
            raise ApplicationError(
                _("your slip for this round is already handed in: this event lets no phone replace it"),
                {"reason": "slip_handed_in"},
            )
        return False  # a phone's slip is replaced until the deadline; the last one counts
    if source != Slip.Source.PAPER or not event.several_slips_void:
        return False
    if second is None:
        raise ApplicationError(
            _(
                "table %(table)s already has a slip for this round: say whether this one corrects a typing"
                " mistake (it replaces the first) or is a second slip handed in (the round is void)"
            )
            % {"table": player.table},
            {"reason": "second_slip"},
        )
    if second not in (SECOND_CORRECTION, SECOND_SLIP):
        raise ApplicationError(_("unknown kind of second slip: correction or second"))
    return second == SECOND_SLIP


def check_round(round: Round, expected: tuple[int, int] | None) -> None:
    """Refuse an action meant for another round (game number, round number): a slip kept
    by a phone while offline, a paper slip or a click on a page that is a round behind
    must not land on the round that has replaced it."""
    if expected is not None and expected != (round.game.number, round.number):
        game, number = expected
        raise ApplicationError(
            _("this was for round %(number)s of game %(game)s, which is no longer the current round")
            % {"number": number, "game": game},
            {"reason": "wrong_round"},
        )


def _late(locked: Round, received: dt.datetime, source: str) -> bool:
    """Whether a slip that reached the server at ``received`` is late. A phone's slip that
    arrived before the deadline and before the close is in time even when the close got
    the round's lock first (it waited behind it): it is ruled with the others. A paper
    slip typed once the round is closed is late, as it always was (typing stops at the
    close)."""
    if locked.deadline is not None and received > locked.deadline:
        return True
    if locked.state == Round.State.OPEN:
        return False
    if source == Slip.Source.PAPER or locked.closed_at is None:
        return True
    return received > locked.closed_at


#: Seconds between a slip queued behind the close and the new ruling of its round.
RULE_AGAIN_DELAY = 1.0


def _rule_again(locked: Round) -> None:
    """A slip in time reached a round already closed (it queued behind the close): the
    round is ruled again with it, and cannot be placed until then.

    Only a round already ruled is sent again. A round still ``closed`` has its ruling to
    come (the close sent it, or the watchdog will), and that ruling takes the round's lock
    before it reads the slips, so it sees this one: a hall whose last slips queue behind
    the close is ruled once more, not once per slip (at 500 phones the benchmark saw 38
    rulings of the whole round, each flipping every phone's panel)."""
    if locked.state != Round.State.ADJUDICATED:
        return
    locked.state = Round.State.CLOSED
    locked.save(update_fields=["state"])
    # A moment later: the other slips queued behind the close come in meanwhile and are
    # ruled with this one (each ruling of the round holds its lock and every phone reloads).
    transaction.on_commit(
        lambda: tasks.send(tasks.round_adjudicate_task, locked.pk, countdown=RULE_AGAIN_DELAY)
    )


class NoRoundError(ApplicationError):
    """The event has no round to hand a slip in for (no game, or no draw yet)."""


def _locked_round(round: Round | None, event: Event | None) -> Round:
    """``round`` locked; or, without it, ``event``'s current round found and locked in one
    query while a game is played (every slip of a hall: one query fewer than reading the
    current round first, and the round read is the one locked)."""
    # The round only (of=self): its game and event come along, unlocked, to save queries.
    rounds = Round.objects.select_for_update(of=("self",)).select_related("game__event")
    if round is not None:
        return rounds.get(pk=round.pk)
    assert event is not None
    locked = rounds.filter(game__event=event, game__state=Game.State.PLAYING).order_by("-number").first()
    if locked is None:  # between games: the last round of the last game says why not
        current = current_round(event)
        if current is None:
            raise NoRoundError(_("no round has been drawn in this event yet"), {"reason": "no_round"})
        locked = rounds.get(pk=current.pk)
    return locked


def slip_submit(
    *,
    round: Round | None = None,
    event: Event | None = None,
    player: Player,
    coordinates: str,
    word: str,
    announced_score: int | None,
    source: str = Slip.Source.PHONE,
    entered_by: User = None,
    client_id: str = "",
    now: dt.datetime | None = None,
    for_round: tuple[int, int] | None = None,
    second: str | None = None,
) -> SubmitResult:
    """Record a slip. The same ``client_id`` twice returns the first slip (a retry). A
    slip after the deadline is kept, marked late, ruled 0. A second slip on time for the
    same player follows :func:`_second_slip`: it replaces the first (the last one counts),
    or both are kept as several slips handed in, or it is refused. ``round`` is the round
    handed in for, or None for ``event``'s current round (read under the lock)."""
    if round is not None:
        event_id = round.game.event_id
    elif event is not None:
        event_id = event.pk
    else:
        raise TypeError("slip_submit needs the round or the event")
    if player.event_id != event_id:
        raise ApplicationError(_("this player is not in this event"))
    coordinates, word = coordinates.strip(), word.strip()
    if announced_score is not None and not 0 <= announced_score <= MAX_ANNOUNCED:
        raise ApplicationError(
            _("the announced score must be between 0 and %(max)s") % {"max": MAX_ANNOUNCED}
        )
    invalid: list[str] = []
    # The receipt time is taken before the lock: waiting for it (other slips, the close)
    # must not make a slip sent in time late. Callers pass the moment the request reached
    # the server (arbiter.middleware), earlier still.
    received = now or timezone.now()
    with transaction.atomic():
        # Locked so that a close cannot slip between reading the state and saving the slip.
        locked = _locked_round(round, event)
        # The player's slips that matter here, in one reading: the one with this client_id
        # (any round: the answer to a slip of the round before may have been lost, and the
        # phone sends it again after the next round has opened), and the current ones of
        # this round (replaced by this one, or kept beside it).
        mine = (
            Q(round=locked, current=True) | Q(client_id=client_id)
            if client_id
            else Q(round=locked, current=True)
        )
        known = list(Slip.objects.filter(mine, player=player).order_by("pk"))
        previous = next((s for s in known if client_id and s.client_id == client_id), None)
        if previous is not None:
            return SubmitResult(previous, created=False)
        check_playing(locked.game)
        check_round(locked, for_round)
        if locked.state == Round.State.DRAWN:
            raise ApplicationError(_("round %(number)s is not open yet") % {"number": locked.number})
        if locked.state == Round.State.PLACED:
            raise ApplicationError(_("round %(number)s is over") % {"number": locked.number})
        late = _late(locked, received, source)
        if not late and locked.game.event.mode != Event.Mode.TOURNAMENT:
            invalid = _training_check(locked, coordinates, word)
        user, _label = actor(entered_by)
        keep_earlier = False
        current = [] if late else [s for s in known if s.round_id == locked.pk and s.current]
        if not late:
            keep_earlier = _second_slip(locked, player, source, second, current)
        if not late and not keep_earlier:
            why = (
                "the arbitrator corrected a typing mistake"
                if second == SECOND_CORRECTION
                else "a later slip of the same player arrived before the deadline"
            )
            for replaced in current:
                replaced.current = False
                replaced.save(update_fields=["current"])
                history_record(
                    event=locked.game.event,
                    entity="slip",
                    object_id=replaced.pk,
                    action="replaced",
                    by=entered_by,
                    old={"current": True},
                    new={"current": False},
                    reason=why,
                )
        slip = Slip.objects.create(
            round=locked,
            player=player,
            coordinates=coordinates,
            word=word,
            announced_score=announced_score,
            received_at=received,
            source=source,
            entered_by=user,
            client_id=client_id,
            late=late,
            current=not late,
        )
        if not late and locked.state != Round.State.OPEN:
            _rule_again(locked)
        history_record(
            event=locked.game.event,
            entity="slip",
            object_id=slip.pk,
            action="late" if late else ("second_slip" if keep_earlier else "submit"),
            by=entered_by,
            new={
                "player": player.pk,
                "round": locked.number,
                "coordinates": coordinates,
                "word": word,
                "announced": announced_score,
                "source": source,
            },
        )
        return SubmitResult(slip, invalid)


def paper_slip_submit(
    *,
    round: Round,
    player: Player,
    coordinates: str,
    word: str,
    announced_score: int | None,
    by: User,
    client_id: str = "",
    now: dt.datetime | None = None,
    for_round: tuple[int, int] | None = None,
    second: str | None = None,
) -> SubmitResult:
    """A paper slip typed by an arbitrator (``second``: see :func:`_second_slip`). Paper
    is collected by the deadline and typed afterwards, so one typed after the deadline
    while the round is still open is recorded as received at the deadline (the history
    keeps the real time of typing)."""
    now = now or timezone.now()
    deadline = Round.objects.filter(pk=round.pk).values_list("deadline", flat=True).first()
    if deadline is not None and now > deadline:
        now = deadline
    return slip_submit(
        round=round,
        player=player,
        coordinates=coordinates,
        word=word,
        announced_score=announced_score,
        source=Slip.Source.PAPER,
        entered_by=by,
        client_id=client_id,
        now=now,
        for_round=for_round,
        second=second,
    )
