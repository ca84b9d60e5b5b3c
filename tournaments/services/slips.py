"""Slips: a player's (from the phone) or a paper slip typed by the arbitrator. The same
``client_id`` twice is one slip; the last slip before the deadline counts; a late one is
kept and ruled 0."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, cast

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import adjudication as adj
from solver.boards import layout
from tournaments import queue, statements
from tournaments.core import MAX_ANNOUNCED, ApplicationError, User
from tournaments.judging import SlipJudge
from tournaments.messages import say_notes
from tournaments.models import Event, Game, Player, Round, Ruling, Slip
from tournaments.selectors.games import current_round
from tournaments.services.games import check_playing
from tournaments.services.history import actor, history_record
from tournaments.services.ruling_store import arrived_after_time
from tournaments.services.rulings import RULE_AGAIN_QUIET


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


def _check_readable(round: Round, coordinates: str, word: str) -> None:
    """A phone's slip that cannot be read at all is refused, in every mode, so that the
    player writes it again (a paper slip is typed as written, and ruled unreadable)."""
    event = round.game.event
    # A game's first round is played on an empty board (a master game's too).
    any_reference = round.number == 1 and event.first_slip_best_placement
    slip = adj.SlipInput(coordinates, word, None)
    size = layout(event.board).size
    why = adj.unreadable(slip, event.notation, size, any_reference)
    if why is None and any_reference and coordinates.strip():
        # Not needed on the first round, but when written, read as on any other: no
        # "=1+2" or markup goes on to the sheets and exports as coordinates.
        why = adj.unreadable(slip, event.notation, size)
    if why is not None:
        raise ApplicationError(
            _("This slip cannot be read (%(why)s): write it again.") % {"why": say_notes([why])},
            {"reason": adj.Reason.UNREADABLE},
        )


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


def sent_time(received: dt.datetime, sent_at: dt.datetime | None, source: str) -> dt.datetime | None:
    """The time a phone says it sent its slip (its clock corrected by the offset live.js
    measured), held within ``ARBITER_SLIP_GRACE_SECONDS`` before the receipt and never
    after it: a phone whose clock is wrong, or that forges its time, gains at most the grace
    (docs/rules.md#slips). None for a paper slip, or a phone that said nothing."""
    if sent_at is None or source != Slip.Source.PHONE:
        return None
    grace = dt.timedelta(seconds=int(settings.ARBITER_SLIP_GRACE_SECONDS))
    return min(received, max(sent_at, received - grace))


def _late(locked: Round, handed: dt.datetime, received: dt.datetime, source: str) -> bool:
    """Whether a slip handed in at ``handed`` (:func:`sent_time`, else when it reached the
    server: ``received``) is late. A phone's slip handed in before the deadline and before
    the close is in time even when the close got the round's lock first (it waited behind
    it): it is ruled with the others. A paper slip typed once the round is closed is late,
    as it always was (typing stops at the close). Once the round's results have been
    shown, whatever reaches the server is late: the top is public (a round reopened after
    it, docs/rules.md#reopening-a-round), and a phone's word for when it sent is not
    taken against that."""
    if locked.time_up(handed):
        return True
    if locked.first_published_at is not None and received > locked.first_published_at:
        return True
    if locked.state == Round.State.OPEN:
        return False
    if source == Slip.Source.PAPER or locked.closed_at is None:
        return True
    return handed > locked.closed_at


def late_reason(slip: Slip) -> str | None:
    """``time_up`` for a late slip that arrived after its round's deadline, ``closed`` for
    one the arbitrator's close came before (the deadline still ahead); None in time."""
    if not slip.late:
        return None
    return "time_up" if arrived_after_time(slip, slip.round) else "closed"


def _rule_again(locked: Round, slip: Slip) -> None:
    """A slip in time reached a round already closed (it queued behind the close): the
    round is ruled again with it, and cannot be placed until then.

    Only a round already ruled is sent again. A round still ``closed`` has its ruling to
    come (the close sent it, or the watchdog will), and that ruling takes the round's lock
    before it reads the slips, so it sees this one. The new ruling waits until the slips
    queued behind the close stop coming (:func:`~tournaments.services.rulings.round_adjudicate_when_quiet`):
    a hall whose last slips queue behind the close is ruled once more, not once per slip
    (each ruling of the round holds its lock and every phone gets a new panel)."""
    if locked.state != Round.State.ADJUDICATED:
        return
    locked.state = Round.State.CLOSED
    locked.save(update_fields=["state"])
    transaction.on_commit(
        lambda: queue.send(
            queue.round_rule_when_quiet_task, locked.pk, slip.pk, 0.0, countdown=RULE_AGAIN_QUIET
        )
    )


def _ruled_late(locked: Round, slip: Slip, by: User) -> None:
    """A late slip that reaches a round already ruled: the player's ruling "no slip" says
    it came late instead (0 either way: the round is not ruled again, the others' rulings
    and the results shown stay as they are). The review then lists it under "late"."""
    ruling = Ruling.objects.filter(round=locked, player=slip.player, reason=adj.Reason.MISSING).first()
    if ruling is None:
        return  # ruled on a slip of its own: that slip is what counts
    old = {"reason": ruling.reason}
    note = adj.Note("time_up" if locked.time_up(slip.handed_in_at) else "late_slip")
    ruling.reason, ruling.slip, ruling.notes = adj.Reason.LATE, slip, [note.to_dict()]
    ruling.detail = adj.Verdict(adj.Reason.LATE, (note,)).detail
    ruling.save(update_fields=["reason", "slip", "notes", "detail"])
    history_record(
        event=locked.game.event, entity="ruling", object_id=ruling.pk, action="rerule", by=by,
        old=old, new={"reason": ruling.reason},
    )  # fmt: skip


def slip_entry(slip: Slip, round: Round) -> dict[str, Any]:
    """What the history keeps of a slip handed in (both paths: phone_slips too)."""
    return {
        "player": slip.player_id,
        "round": round.number,
        "coordinates": slip.coordinates,
        "word": slip.word,
        "announced": slip.announced_score,
        "source": slip.source,
    }


class NoRoundError(ApplicationError):
    """The event has no round to hand a slip in for (no game, or no draw yet)."""


class _Exclusive(Exception):
    """The slip needs the round's lock for itself (it rules the round again): retried so."""


def _fetch_locked(player: Player, exclusive: bool, round_id: int | None, event_id: int) -> Round | None:
    """The round (its game and event set) and the player, locked
    (:func:`tournaments.statements.locked_round`); None when not found together."""
    by_event = round_id is None
    params: list[Any] = [player.pk, event_id, Game.State.PLAYING] if by_event else [player.pk, round_id]
    found = statements.locked_round.rows(params, by_event=by_event, exclusive=exclusive)
    if not found:
        return None
    round, game, event = found[0]
    game.event = event
    round.game = game
    return cast(Round, round)


def _known_slips(player: Player, round: Round, client_id: str) -> list[Slip]:
    """The player's slips that matter to a new one, in one reading: the one with this
    client_id (any round: the answer to a slip of the round before may have been lost, and
    the phone sends it again after the next round has opened), and the current ones of this
    round (replaced by the new one, or kept beside it)."""
    params: list[Any] = [player.pk, round.pk, True] + ([client_id] if client_id else [])
    return [slip for (slip,) in statements.known_slips.rows(params, with_client_id=bool(client_id))]


def _locked_round(round: Round | None, event: Event | None, player: Player, exclusive: bool) -> Round:
    """``round``, or without it ``event``'s current round while a game is played (every
    slip of a hall: found and locked in one query), locked with the player (see
    :func:`tournaments.statements.locked_round`)."""
    event_id = player.event_id
    locked = _fetch_locked(player, exclusive, None if round is None else round.pk, event_id)
    if locked is None and event is not None:  # between games: the last round of the last game says why not
        current = current_round(event)
        if current is None:
            raise NoRoundError(_("no round has been drawn in this event yet"), {"reason": "no_round"})
        locked = _fetch_locked(player, exclusive, current.pk, event_id)
    if locked is None:
        raise ApplicationError(_("this player is not in this event"))
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
    sent_at: dt.datetime | None = None,
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
    if player.withdrawn_at is not None:
        # Read with the player's token (no row lock): a slip racing the withdrawal lands in
        # a round opened before it, where the player is still ruled.
        raise ApplicationError(
            _("table %(table)s has withdrawn from the event: ask the arbitrator") % {"table": player.table},
            {"reason": "withdrawn"},
        )
    received = now or timezone.now()
    slip = _Submission(
        player=player,
        coordinates=coordinates.strip(),
        word=word.strip(),
        announced_score=announced_score,
        source=source,
        entered_by=entered_by,
        client_id=client_id,
        # The receipt time is taken before the lock: waiting for it (other slips, the
        # close) must not make a slip sent in time late. Callers pass the moment the
        # request reached the server (plumbing.middleware), earlier still.
        received=received,
        sent=sent_time(received, sent_at, source),
        for_round=for_round,
        second=second,
    )
    if announced_score is not None and not 0 <= announced_score <= MAX_ANNOUNCED:
        raise ApplicationError(
            _("the announced score must be between 0 and %(max)s") % {"max": MAX_ANNOUNCED}
        )
    try:
        return slip.record(round, event, exclusive=False)
    except _Exclusive:
        return slip.record(round, event, exclusive=True)


@dataclass
class _Submission:
    player: Player
    coordinates: str
    word: str
    announced_score: int | None
    source: str
    entered_by: User
    client_id: str
    received: dt.datetime
    #: :func:`sent_time`: what counts for the deadline when set.
    sent: dt.datetime | None
    for_round: tuple[int, int] | None
    second: str | None

    def record(self, round: Round | None, event: Event | None, exclusive: bool) -> SubmitResult:
        player, client_id, source, second, entered_by = (
            self.player, self.client_id, self.source, self.second, self.entered_by
        )  # fmt: skip
        with transaction.atomic():
            # Locked so that a close cannot slip between reading the state and saving the slip.
            locked = _locked_round(round, event, player, exclusive)
            known = _known_slips(player, locked, client_id)
            previous = next((s for s in known if client_id and s.client_id == client_id), None)
            if previous is not None:
                return SubmitResult(previous, created=False)
            check_playing(locked.game)
            check_round(locked, self.for_round)
            if locked.state == Round.State.DRAWN:
                raise ApplicationError(_("round %(number)s is not open yet") % {"number": locked.number})
            if locked.state == Round.State.PLACED:
                raise ApplicationError(_("round %(number)s is over") % {"number": locked.number})
            late = _late(locked, self.sent or self.received, self.received, source)
            if source == Slip.Source.PHONE:  # late or not: what is kept must read as a slip
                _check_readable(locked, self.coordinates, self.word)
            if not late and locked.state == Round.State.ADJUDICATED and not exclusive:
                raise _Exclusive  # it rules the round again: the round's row is written
            invalid: list[str] = []
            if not late and locked.game.event.mode != Event.Mode.TOURNAMENT:
                invalid = _training_check(locked, self.coordinates, self.word)
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
            slip = Slip(
                round=locked,
                player=player,
                coordinates=self.coordinates,
                word=self.word,
                announced_score=self.announced_score,
                received_at=self.received,
                sent_at=self.sent,
                source=source,
                entered_by=user,
                client_id=client_id,
                late=late,
                current=not late,
            )
            statements.insert_slip(slip)
            if not late and locked.state != Round.State.OPEN:
                _rule_again(locked, slip)
            if late and locked.state == Round.State.ADJUDICATED:
                _ruled_late(locked, slip, entered_by)
            history_record(
                event=locked.game.event,
                entity="slip",
                object_id=slip.pk,
                action="late" if late else ("second_slip" if keep_earlier else "submit"),
                by=entered_by,
                new=slip_entry(slip, locked),
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
    clock = Round.objects.only("deadline", "paused_at").get(pk=round.pk)
    if clock.time_up(now):
        assert clock.deadline is not None
        now = clock.deadline
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
