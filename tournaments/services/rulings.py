"""Rulings: every slip of a closed round judged by :mod:`scoring.adjudication`, and the
arbitrator's corrections (an override with its reason, a shifted reference accepted).
The round is ruled as a whole, under its lock, so that tops, solos and the penalties
beyond the free warnings follow every correction."""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import adjudication as adj
from solver.tiles import rack_codes
from tournaments import queue, statements
from tournaments.core import MAX_ANNOUNCED, MAX_CREDITED, MAX_WARNINGS, ApplicationError, User
from tournaments.display import ruling_text, shown_move
from tournaments.judging import adjudication_settings, judging_rules, prior_warnings, solo_players
from tournaments.models import Event, HistoryEntry, Round, Ruling, Slip, handed_in_at
from tournaments.notify import event_changed
from tournaments.selectors.games import results_shown
from tournaments.services.history import actor, history_record
from tournaments.services.rounds import announced_choice, round_solve
from tournaments.state import (
    rebuild,
)


def round_adjudicate(*, round_id: int) -> Round:
    """Rule every player's slip of a closed round (missing slips too). Idempotent: a
    second run rewrites the same rulings, keeps the arbitrator's overrides and accepted
    shifted references, and does nothing once the round is placed."""
    round = Round.objects.get(pk=round_id)
    if round.state == Round.State.PLACED:
        return round  # a redelivered task after the placement: the rulings are final
    if round.state not in (Round.State.CLOSED, Round.State.ADJUDICATED):
        raise ApplicationError(_("round %(number)s is not closed") % {"number": round.number})
    if round.solved_at is None:
        round_solve(round_id=round_id)
    with transaction.atomic():
        # Under the Round lock, which round_place and the corrections also take, the state
        # read here is the state the rulings are written against.
        locked = Round.objects.select_for_update().get(pk=round_id)
        if locked.state == Round.State.PLACED:
            return locked
        if locked.state not in (Round.State.CLOSED, Round.State.ADJUDICATED):
            raise ApplicationError(_("round %(number)s is not closed") % {"number": locked.number})
        _rule_round(locked)
        if locked.state == Round.State.CLOSED:
            locked.state = Round.State.ADJUDICATED
            fields = ["state"]
            if locked.published_at is None and locked.game.event.publish_at_close:
                fields += locked.publish(timezone.now())  # training: shown unreviewed, at once
                announced_choice(locked)  # the top told is the one placed
                fields += ["chosen", "chosen_score"]
            locked.save(update_fields=fields)
        event_changed(locked.game.event_id)  # the phones show the results: tell them now
        return locked


#: A round ruled again because in-time slips reached it after its ruling (they queued in
#: the server behind the close) is ruled once they stop coming: once no new one came for
#: this long (seconds), or after RULE_AGAIN_MAX_WAIT at most. Each ruling is a new panel
#: for every phone; ruled as each slip came, an overloaded hall is ruled again and again,
#: each time slowing the queue that caused it (docs/decisions.md).
RULE_AGAIN_QUIET = 1.0
RULE_AGAIN_MAX_WAIT = 8.0


def newest_slip_in_time(round_id: int) -> int | None:
    newest: int | None = Slip.objects.filter(round_id=round_id, late=False).aggregate(newest=Max("pk"))[
        "newest"
    ]
    return newest


def round_adjudicate_when_quiet(*, round_id: int, newest: int | None, waited: float = 0.0) -> bool:
    """Rule again a round that an in-time slip reopened to ruling (``newest``: the newest
    in-time slip when this was asked for), unless slips are still coming: then ask again
    :data:`RULE_AGAIN_QUIET` later. True when ruled now."""
    if not Round.objects.filter(pk=round_id, state=Round.State.CLOSED).exists():
        return False  # ruled meanwhile (the watchdog, the arbitrator) with every slip stored then
    latest = newest_slip_in_time(round_id)
    if latest != newest and waited < RULE_AGAIN_MAX_WAIT:
        again = queue.round_rule_when_quiet_task
        queue.send(again, round_id, latest, waited + RULE_AGAIN_QUIET, countdown=RULE_AGAIN_QUIET)
        return False
    round_adjudicate(round_id=round_id)
    return True


def round_rule_ahead(*, round_id: int, ruled_through: int = 0) -> int | None:
    """Rule the slips of an open round handed in so far (``ruled_through``: the newest
    slip the last pass ruled, 0 for none; nothing is done unless a newer one came). The
    newest slip ruled, or None once the round is no longer open: no more passes then.
    The close then writes only what changed since the last pass, not a hall's rulings
    (docs/benchmarks.md, the arbitrator's actions at hall size).

    Rulings written ahead are the close's work done early and shown nowhere: the phones,
    the projector, the standings and the sheets read a round's rulings once it is closed
    and ruled whole again under its lock (only what differs is written then: a ruling
    ahead that still holds is the round's ruling). Their history says ``rule_ahead``, no
    public change (the phones do not reload for it: tournaments/selectors/live.py). A round
    closed once and reopened is not ruled ahead: its rulings were seen."""
    round = Round.objects.filter(pk=round_id).only("state", "solved_at").first()
    if round is None or round.state != Round.State.OPEN:
        return None
    newest = Slip.objects.filter(round_id=round_id).aggregate(newest=Max("pk"))["newest"] or 0
    if newest == ruled_through or round.solved_at is None:
        return ruled_through  # nothing new, or the tops not known yet: the next pass
    if HistoryEntry.objects.filter(entity="round", object_id=round_id, action="close").exists():
        return None
    try:
        with transaction.atomic():
            locked = Round.objects.select_related("game__event").get(pk=round_id)
            if not _rule_round(locked, ahead=functools.partial(_still_open, round_id)):
                return None
    except IntegrityError:
        # Another pass wrote a ruling this one was writing (two workers at once: one ruling
        # a player and round, models.Ruling): its rulings stand, the close rules all again.
        return ruled_through
    return newest


def _still_open(round_id: int) -> bool:
    """Before a pass writes: the round locked in SHARE mode, as the slips lock it, so that
    a pass never holds a slip up and a close (FOR UPDATE) waits for its writing only, not
    for its reading and judging; then whether it is still open and none of its rulings
    corrected by the arbitrator (a close or a correction may have come since the pass
    read them; the close applies corrections, a pass would write over them)."""
    statements.round_shared.run([round_id])
    corrected = Ruling.objects.filter(round_id=round_id).filter(
        Q(overridden=True) | Q(reason=adj.Reason.SHIFT_ACCEPTED)
    )
    return Round.objects.filter(pk=round_id, state=Round.State.OPEN).exists() and not corrected.exists()


class Handed(Protocol):
    """What the ruling reads of a slip: a stored Slip, or its values (:class:`_Handed`)."""

    @property
    def coordinates(self) -> str: ...
    @property
    def word(self) -> str: ...
    @property
    def announced_score(self) -> int | None: ...
    @property
    def late(self) -> bool: ...
    @property
    def handed_in_at(self) -> dt.datetime: ...


@dataclass(frozen=True)
class _Handed:
    """A slip as the round's ruling reads it, from its values."""

    pk: int
    player_id: int
    coordinates: str
    word: str
    announced_score: int | None
    late: bool
    received_at: dt.datetime
    sent_at: dt.datetime | None

    @property
    def handed_in_at(self) -> dt.datetime:
        return handed_in_at(self)


_HANDED = tuple(f.name for f in dataclasses.fields(_Handed))


def arrived_after_time(slip: Handed, round: Round) -> bool:
    """A late slip that reached the arbitrator after its round's deadline (not only after a
    close that came before it): the ruling and the phone say "time was up"."""
    return slip.late and round.deadline is not None and slip.handed_in_at > round.deadline


def slip_input(slip: Handed, round: Round) -> adj.SlipInput:
    """What the adjudication reads of a stored slip, a late one saying why it is late."""
    return adj.SlipInput(
        slip.coordinates,
        slip.word,
        slip.announced_score,
        late=slip.late,
        after_time=arrived_after_time(slip, round),
    )


def _rule_round(locked: Round, *, ahead: Callable[[], bool] | None = None) -> bool:
    """(Re)write the rulings of a round the caller holds locked. True when written.

    Overridden rulings are kept as the arbitrator set them; accepted shifted references
    are applied again; tops, solos and the penalties beyond the free warnings are
    computed over the whole round, so a correction of one slip updates the others.
    ``ahead``: the round is open and not locked (:func:`round_rule_ahead`); called before
    the rulings are written, it locks the round and says whether it is still open (else
    nothing is written); the players with no slip yet get no ruling, and the history
    says ``rule_ahead``."""
    event = locked.game.event
    position = rebuild(locked.game)
    if position.current is None or position.current.pk != locked.pk:
        raise ApplicationError(
            _("round %(number)s is not the game's current round") % {"number": locked.number}
        )
    board, rules, lexicon = position.game.board, judging_rules(position, event), position.game.lexicon
    rack = rack_codes(locked.rack)
    settings = adjudication_settings(event)
    # As values, not models: a hall's players, slips and rulings made into model
    # instances would be most of the close's time (docs/decisions.md).
    rulings = Ruling.objects.filter(round=locked).order_by()
    if ahead is None:
        rulings = rulings.select_for_update(of=("self",))
    existing = {r.player_id: r for r in (_Ruled(*row) for row in rulings.values_list(*_RULED))}
    shifted = {
        pid for pid, r in existing.items() if r.reason == adj.Reason.SHIFT_ACCEPTED and not r.overridden
    }
    # Every slip that counts, in the order received: on time (current; two of them are
    # several slips handed in) and late. Replaced slips are history only.
    handed: dict[int, list[_Handed]] = {}
    counting = locked.slips.filter(Q(current=True) | Q(late=True)).order_by("received_at", "pk")
    for slip in (_Handed(*row) for row in counting.values_list(*_HANDED)):
        handed.setdefault(slip.player_id, []).append(slip)
    # A player withdrawn before the round opened is not ruled in it (nor missing), unless
    # a slip of theirs came in all the same (a race with the withdrawal: it is ruled).
    opened = locked.opened_at or timezone.now()
    players = [
        pk
        for pk, withdrawn_at in event.players.order_by("table").values_list("pk", "withdrawn_at")
        if withdrawn_at is None or withdrawn_at >= opened or pk in handed or pk in existing
    ]
    verdicts: dict[int, adj.Verdict] = {}
    # A hall hands in the same few dozen moves: each distinct set of slips is judged once
    # (the judgement depends on the slips, the board and the rack only; verdicts are
    # frozen): the same moves judged again would be most of the worker's time at the
    # close (docs/decisions.md).
    judged: dict[tuple[adj.SlipInput, ...], adj.Verdict] = {}
    used: dict[int, int | None] = {}
    for player in players:
        slips = handed.get(player, [])
        on_time = [slip for slip in slips if not slip.late]
        counted = on_time or slips
        used[player] = counted[-1].pk if counted else None
        inputs = tuple(slip_input(s, locked) for s in slips)
        verdict = judged.get(inputs)
        if verdict is None:
            verdict = judged[inputs] = adj.adjudicate_slips(board, rack, lexicon, rules, settings, inputs)
        if player in shifted and counted and verdict.shift_candidate:
            # The slip ruled is the last one on time (a late one beside it is not).
            ruled = slip_input(counted[-1], locked)
            verdict = adj.accept_shift(board, rack, lexicon, rules, settings, ruled, verdict)
        previous = existing.get(player)
        if previous is not None and previous.overridden:
            verdict = _overridden(previous, verdict)
        verdicts[player] = verdict
    credits = adj.credit_round(
        verdicts,
        top_score=locked.top_score or 0,
        prior_warnings=prior_warnings(locked),
        players_in_game=solo_players(locked),
        settings=settings,
    )
    now = timezone.now()
    created: list[Ruling] = []
    updated: list[Ruling] = []
    changes: list[tuple[Ruling, dict[str, Any] | None]] = []
    for player in players:
        v, c = verdicts[player], credits[player]
        values = {
            "slip_id": used[player],
            "move": v.move,
            "move_score": v.move_score,
            "credited": c.credited,
            "warnings": c.warnings,
            "penalty": c.penalty,
            "solo": c.solo,
            "is_top": c.is_top,
            "letterpoints": v.letterpoints,
            "reason": v.reason,
            "detail": v.detail,
            "notes": [note.to_dict() for note in v.notes],
            "invalid_words": list(v.invalid_words),
            "shift_candidate": v.shift_candidate,
        }
        assert values.keys() == _WRITTEN  # bulk_update below writes those
        previous = existing.get(player)
        if previous is None:
            if ahead is not None and used[player] is None:
                continue  # no slip yet: "missing" is for the close to say
            created.append(Ruling(round=locked, player_id=player, ruled_at=now, **values))
            continue
        if all(getattr(previous, key) == value for key, value in values.items()):
            continue  # a second run that changes nothing leaves no trace
        # Only the fields written below are set: bulk_update writes those alone.
        ruling = Ruling(pk=previous.pk, round=locked, player_id=player, ruled_at=now, **values)
        updated.append(ruling)
        old = _ruling_snapshot(previous)
        if _ruling_snapshot(ruling) != old:
            changes.append((ruling, old))
    if ahead is not None and not ahead():
        return False
    # In bulk, not a query or two a ruling (docs/decisions.md); the round lock held by the
    # caller keeps it one writer.
    Ruling.objects.bulk_create(created)  # sets the primary keys (PostgreSQL, SQLite >= 3.35)
    if updated:
        Ruling.objects.bulk_update(updated, [*RULING_FIELDS, "ruled_at"])
    user, label = actor(None)
    # The rulings of a round whose results are not shown change nothing on the phones: a
    # hall's panels are not built again for them while the arbitrator reviews them.
    shown = ahead is None and results_shown(locked)
    HistoryEntry.objects.bulk_create(
        [
            HistoryEntry(
                event=event,
                entity="ruling",
                object_id=ruling.pk,
                action="rule_ahead" if ahead is not None else "rerule" if old is not None else "rule",
                actor=user,
                actor_label=label,
                old=old,
                new=_ruling_snapshot(ruling),
                shown=shown,
            )
            for ruling, old in [*((r, None) for r in created), *changes]
        ]
    )
    return True


#: What the adjudication writes on a ruling (besides its round and player).
RULING_FIELDS = (
    "slip",
    "move",
    "move_score",
    "credited",
    "warnings",
    "penalty",
    "solo",
    "is_top",
    "letterpoints",
    "reason",
    "detail",
    "notes",
    "invalid_words",
    "shift_candidate",
)
_WRITTEN = {f"{name}_id" if name == "slip" else name for name in RULING_FIELDS}


@dataclass
class _Credited:
    """A ruling as the round's credit reads it (:func:`_recredit`), from its values."""

    pk: int
    player_id: int
    credited: int
    move: str
    move_score: int
    warnings: int
    penalty: int
    solo: bool
    is_top: bool
    letterpoints: int
    reason: str
    notes: list[dict[str, Any]]
    overridden: bool
    override: dict[str, int] | None


_CREDITED = tuple(f.name for f in dataclasses.fields(_Credited))


@dataclass
class _Ruled(_Credited):
    """A ruling as the round's ruling compares it (:func:`_rule_round`), from its values."""

    slip_id: int | None
    detail: str
    invalid_words: list[str]
    shift_candidate: str


_RULED = tuple(f.name for f in dataclasses.fields(_Ruled))


def _ruling_snapshot(ruling: Ruling | _Credited) -> dict[str, Any]:
    return {
        "credited": ruling.credited,
        "move": ruling.move,
        "move_score": ruling.move_score,
        "warnings": ruling.warnings,
        "penalty": ruling.penalty,
        "solo": ruling.solo,
        "is_top": ruling.is_top,
        "letterpoints": ruling.letterpoints,
        "reason": ruling.reason,
    }


def _lock_ruling(ruling: Ruling) -> tuple[Round, Ruling]:
    """Lock the round, then the ruling: the order round_adjudicate uses, so a correction
    and a re-adjudication never interleave (and never deadlock)."""
    round = Round.objects.select_for_update().get(pk=ruling.round_id)
    return round, Ruling.objects.select_for_update(of=("self",)).get(pk=ruling.pk)


def _overridden(ruling: Ruling | _Credited, verdict: adj.Verdict) -> adj.Verdict:
    """The arbitrator's figures in place of the slip's: the move as ruled, the points and
    the penalty set. An override decides what the move scores, so it is on the top when
    those points are the top score (an average never is: it is no move)."""
    values = ruling.override or {
        "credited": ruling.credited,
        "warnings": ruling.warnings,
        "penalty": ruling.penalty,
    }
    score = values["credited"] + values["penalty"]
    reason = adj.Reason.AVERAGE if ruling.reason == adj.Reason.AVERAGE else adj.Reason.OVERRIDDEN
    return replace(
        verdict,
        reason=reason,
        move_score=score if reason == adj.Reason.OVERRIDDEN else 0,
        score=score,
        warnings=values["warnings"],
        penalty=values["penalty"],
        shift_candidate="",
    )


def _stored_verdict(ruling: Ruling | _Credited, settings: adj.AdjudicationSettings) -> adj.Verdict:
    """A ruling's verdict read back from what was stored (credited = score - penalty +
    solo bonus, credit_round's sum), to credit the round again without judging the slips:
    a placed round's board is gone, its rulings are not."""
    notes = tuple(adj.Note(n["code"], n.get("params", {})) for n in ruling.notes)
    slip_penalty = settings.shift_penalty if ruling.reason in adj.PENALISED_REASONS else 0
    warning_part = ruling.penalty - slip_penalty
    verdict = adj.Verdict(
        reason=ruling.reason,
        notes=notes,
        move=ruling.move,
        move_score=ruling.move_score,
        score=ruling.credited + warning_part + slip_penalty - (settings.solo_bonus if ruling.solo else 0),
        warnings=ruling.warnings,
        penalty=slip_penalty,
        letterpoints=ruling.letterpoints,
    )
    return _overridden(ruling, verdict) if ruling.overridden else verdict


def _recredit(round: Round, *, by: User, reason: str, corrected: int) -> None:
    """Credit a round again from its stored rulings (tops, solo, warning penalties) after
    a correction; the caller holds the round locked. Placed rounds too: a correction
    after the placement moves the tops and the solo as well."""
    event = round.game.event
    settings = adjudication_settings(event)
    # Unordered: the model's ordering joins the players to sort the rulings for nothing.
    # As values: a hall's rulings built as models would be most of a correction's time
    # (docs/benchmarks.md).
    locked = Ruling.objects.select_for_update(of=("self",)).filter(round=round).order_by()
    rulings = {r.player_id: r for r in (_Credited(*row) for row in locked.values_list(*_CREDITED))}
    verdicts = {pid: _stored_verdict(r, settings) for pid, r in rulings.items()}
    credits = adj.credit_round(
        verdicts,
        top_score=round.top_score or 0,
        prior_warnings=prior_warnings(round),
        players_in_game=solo_players(round),
        settings=settings,
    )
    for pid, ruling in rulings.items():
        credit = credits[pid]
        old = _ruling_snapshot(ruling)
        ruling.credited, ruling.penalty = credit.credited, credit.penalty
        ruling.solo, ruling.is_top = credit.solo, credit.is_top
        ruling.move_score = verdicts[pid].move_score
        new = _ruling_snapshot(ruling)
        if new == old:
            continue
        Ruling.objects.filter(pk=ruling.pk).update(
            credited=ruling.credited,
            penalty=ruling.penalty,
            solo=ruling.solo,
            is_top=ruling.is_top,
            move_score=ruling.move_score,
        )
        if ruling.pk == corrected:
            continue  # its own history entry says all
        history_record(
            event=event,
            entity="ruling",
            object_id=ruling.pk,
            action="recredit",
            by=by,
            old=old,
            new=new,
            reason=reason,
        )


def _correct(
    ruling: Ruling, *, by: User, reason: str, action: str, kind: str, values: dict[str, int]
) -> Ruling:
    """Set the arbitrator's figures on a ruling and credit its round again."""
    with transaction.atomic():
        round, ruling = _lock_ruling(ruling)
        old = _ruling_snapshot(ruling)
        ruling.override = values
        ruling.credited, ruling.warnings, ruling.penalty = (
            values["credited"],
            values["warnings"],
            values["penalty"],
        )
        ruling.overridden = True
        ruling.reason = kind
        ruling.override_reason = reason
        user, _label = actor(by)
        ruling.ruled_by = user
        ruling.save()
        # The tops and the solo follow the correction, this ruling's own solo included.
        _recredit(round, by=by, reason=reason, corrected=ruling.pk)
        ruling.refresh_from_db()
        history_record(
            event=round.game.event,
            entity="ruling",
            object_id=ruling.pk,
            action=action,
            by=by,
            old=old,
            new=_ruling_snapshot(ruling),
            reason=reason,
        )
        return ruling


def ruling_override(
    *,
    ruling: Ruling,
    by: User,
    reason: str,
    credited: int | None = None,
    warnings: int | None = None,
    penalty: int | None = None,
) -> Ruling:
    """The arbitrator's correction of a ruling; the reason is required and kept.
    ``credited`` is what the slip earns after its penalty, before any solo: the round is
    credited again, so a player given the top score is on the top (and alone there, gets
    the solo), and a top-finder given less is not."""
    if not reason.strip():
        raise ApplicationError(_("say why the ruling is changed: the reason is kept in the history"))
    if credited is None:
        raise ApplicationError(_("give the credited score (with the warnings or penalty if they change)"))
    if (warnings is not None and warnings < 0) or (penalty is not None and penalty < 0):
        raise ApplicationError(_("warnings and penalties cannot be negative"))
    # Every caller's numbers, checked here once: the console's form and the terminal's
    # options take any integer, and one the columns cannot hold would fail in the database.
    if not -MAX_CREDITED <= credited <= MAX_CREDITED:
        raise ApplicationError(
            _("the points credited must be between %(min)s and %(max)s")
            % {"min": -MAX_CREDITED, "max": MAX_CREDITED}
        )
    if warnings is not None and warnings > MAX_WARNINGS:
        raise ApplicationError(_("the warnings must be between 0 and %(max)s") % {"max": MAX_WARNINGS})
    if penalty is not None and penalty > MAX_CREDITED:
        raise ApplicationError(_("the penalty must be between 0 and %(max)s") % {"max": MAX_CREDITED})
    values = {
        "credited": credited,
        "warnings": ruling.warnings if warnings is None else warnings,
        "penalty": ruling.penalty if penalty is None else penalty,
    }
    return _correct(
        ruling, by=by, reason=reason.strip(), action="override", kind=adj.Reason.OVERRIDDEN, values=values
    )


def ruling_average(*, ruling: Ruling, by: User, reason: str | None = None) -> Ruling:
    """Instead of a new 0 for the same word not in the list, replayed before the player
    was told of the first one, the average of the other players (FISF 5.9,
    docs/rules.md#average): a correction like any other, kept in the history."""
    reason = (reason or "").strip() or "average instead of a second 0 for the same word not in the list"
    average = round_average(ruling)
    values = {"credited": average, "warnings": 0, "penalty": 0}
    return _correct(ruling, by=by, reason=reason, action="average", kind=adj.Reason.AVERAGE, values=values)


def round_average(ruling: Ruling) -> int:
    """The average the arbitrator may credit instead of a repeated 0 (FISF 5.9): the mean
    of the points of every other player in the round (zeros included, the solo bonus and
    the other averages left out), rounded down, and never more than the player's own
    move would have scored. Only for a word not in the list."""
    # An average given already may be given again (the other rulings changed since).
    if ruling.reason not in (adj.Reason.NOT_IN_LEXICON, adj.Reason.AVERAGE):
        raise ApplicationError(
            _(
                "the average replaces only a 0 for a word not in the list, replayed before the player was"
                " told (FISF 5.9): not a placement or rack error"
            )
        )
    bonus = Event.objects.values_list("solo_bonus", flat=True).get(games__rounds__rulings=ruling)
    others = (
        Ruling.objects.filter(round_id=ruling.round_id)
        .exclude(pk=ruling.pk)
        .exclude(reason=adj.Reason.AVERAGE)
        .values_list("credited", "solo")
    )
    points = [credited - (bonus if solo else 0) for credited, solo in others]
    if not points:
        raise ApplicationError(_("no other player has a ruling in this round: there is no average to give"))
    average = sum(points) // len(points)
    own = next((n["params"]["score"] for n in ruling.notes if "score" in n.get("params", {})), None)
    return average if own is None else min(average, own)


def ruling_accept_shift(*, ruling: Ruling, by: User, reason: str | None = None) -> Ruling:
    """Accept a shifted reference: the nearby placement scores, less the shift penalty;
    the whole round is ruled again so that tops, solos and warning penalties follow.
    Without a reason (None) the history says "shifted reference accepted"."""
    if reason is None:
        reason = "shifted reference accepted"
    if not reason.strip():
        raise ApplicationError(_("say why the shifted reference is accepted"))
    with transaction.atomic():
        round, ruling = _lock_ruling(ruling)
        if round.state != Round.State.ADJUDICATED:
            raise ApplicationError(
                _("a shifted reference is accepted after the adjudication, before the placement")
            )
        if not ruling.shift_candidate:
            raise ApplicationError(_("this slip has no nearby placement to accept"))
        old = _ruling_snapshot(ruling)
        user, _label = actor(by)
        Ruling.objects.filter(pk=ruling.pk).update(
            reason=adj.Reason.SHIFT_ACCEPTED, overridden=False, override_reason=reason.strip(), ruled_by=user
        )
        try:
            _rule_round(round)
        except ValueError as exc:
            # The board or the slip changed since the ruling offered it: the whole
            # transaction (the update above included) is undone. The placement is named
            # in the event's notation (the adjudication's own sentence names it in GCG).
            event = round.game.event
            offered = shown_move(ruling.shift_candidate, event.board, event.notation)
            raise ApplicationError(
                _("the shifted placement no longer fits: %(error)s") % {"error": offered},
                {"reason": "stale_shift"},
            ) from exc
        ruling.refresh_from_db()
        history_record(
            event=round.game.event,
            entity="ruling",
            object_id=ruling.pk,
            action="accept_shift",
            by=by,
            old=old,
            new=_ruling_snapshot(ruling),
            reason=reason.strip(),
        )
        return ruling


def slip_correct(
    *,
    ruling: Ruling,
    by: User,
    reason: str,
    coordinates: str,
    word: str,
    announced_score: int | None,
) -> Ruling:
    """The slip as it should have been read (a typing mistake, a word misread), ruled
    again with the round: the reading typed first is kept (no longer current), the new
    one takes its place with its time of receipt, both in the history with the reason.
    An arbitrator's figures set on the ruling before give way to the new reading. Until
    the placement: the board it is ruled on is the round's."""
    if not reason.strip():
        raise ApplicationError(_("say why the slip is read again: the reason is kept in the history"))
    if announced_score is not None and not 0 <= announced_score <= MAX_ANNOUNCED:
        raise ApplicationError(
            _("the announced score must be between 0 and %(max)s") % {"max": MAX_ANNOUNCED}
        )
    with transaction.atomic():
        round, ruling = _lock_ruling(ruling)
        if round.state != Round.State.ADJUDICATED:
            raise ApplicationError(
                _(
                    "a slip is read again after the adjudication, before the placement:"
                    " then correct the points"
                )
            )
        if ruling.reason in (adj.Reason.LATE, adj.Reason.SEVERAL_SLIPS, adj.Reason.MISSING):
            raise ApplicationError(
                _(
                    "this ruling does not come from one slip read in time (%(why)s):"
                    " correct its points instead"
                )
                % {"why": ruling_text(ruling.reason)}
            )
        old = Slip.objects.select_for_update().filter(round=round, player=ruling.player, current=True).first()
        if old is None:
            raise ApplicationError(_("this player has no slip in this round: type it as a paper slip"))
        new = {"coordinates": coordinates.strip(), "word": word.strip(), "announced_score": announced_score}
        before = {"coordinates": old.coordinates, "word": old.word, "announced_score": old.announced_score}
        if new == before:
            raise ApplicationError(_("the slip reads the same: nothing to correct"))
        old.current = False
        old.save(update_fields=["current"])
        user, _label = actor(by)
        slip = Slip.objects.create(
            round=round,
            player=ruling.player,
            received_at=old.received_at,  # handed in then: only its reading changes
            sent_at=old.sent_at,
            source=old.source,
            entered_by=user,
            current=True,
            **new,
        )
        history_record(
            event=round.game.event, entity="slip", object_id=old.pk, action="replaced", by=by,
            old={"current": True}, new={"current": False}, reason=reason.strip(),
        )  # fmt: skip
        history_record(
            event=round.game.event, entity="slip", object_id=slip.pk, action="read_again", by=by,
            old=before, new=new, reason=reason.strip(),
        )  # fmt: skip
        # The arbitrator's earlier figures were for the old reading.
        Ruling.objects.filter(pk=ruling.pk).update(overridden=False, override=None, override_reason="")
        snapshot = _ruling_snapshot(ruling)
        _rule_round(round)
        ruling.refresh_from_db()
        history_record(
            event=round.game.event, entity="ruling", object_id=ruling.pk, action="read_again", by=by,
            old=snapshot, new=_ruling_snapshot(ruling), reason=reason.strip(),
        )  # fmt: skip
        return ruling
