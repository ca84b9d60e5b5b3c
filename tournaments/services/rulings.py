"""A round's rulings: every slip of a closed round judged by :mod:`scoring.adjudication`
and the round credited, at the close, again once the in-time slips queued behind it stop
coming, and ahead while it is open. The round is ruled as a whole, under its lock, so that
tops, solos and the penalties beyond the free warnings follow every correction: the
arbitrator's corrections (:mod:`tournaments.services.corrections`) rule it again through
:func:`round_rule`."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import adjudication as adj
from solver.tiles import rack_codes
from tournaments import queue, statements
from tournaments.core import ApplicationError
from tournaments.judging import adjudication_settings, judging_rules, prior_warnings, solo_players
from tournaments.models import HistoryEntry, Round, Ruling, Slip
from tournaments.notify import event_changed
from tournaments.selectors.games import results_shown
from tournaments.services.rounds import announced_choice, round_solve
from tournaments.services.ruling_store import (
    HandedSlip,
    RuledRuling,
    RulingWrites,
    ruling_snapshot,
    ruling_values,
    rulings_ruled,
    rulings_write,
    slip_input,
    slips_counting,
    verdict_overridden,
)
from tournaments.state import Position, rebuild


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
        round_rule(locked)
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
#: for every phone: ruled as each slip came, an overloaded hall was ruled again and again,
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
            if not round_rule(locked, ahead=functools.partial(_still_open, round_id)):
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


def round_rule(locked: Round, *, ahead: Callable[[], bool] | None = None) -> bool:
    """(Re)write the rulings of a round the caller holds locked. True when written.

    Overridden rulings are kept as the arbitrator set them; accepted shifted references
    are applied again; tops, solos and the penalties beyond the free warnings are
    computed over the whole round, so a correction of one slip updates the others.
    ``ahead``: the round is open and not locked (:func:`round_rule_ahead`); called before
    the rulings are written, it locks the round and says whether it is still open (else
    nothing is written); the players with no slip yet get no ruling, and the history
    says ``rule_ahead``."""
    read = _read(locked, lock=ahead is None)
    verdicts, used = _judge(locked, read)
    credits = adj.credit_round(
        verdicts,
        top_score=locked.top_score or 0,
        prior_warnings=prior_warnings(locked),
        players_in_game=solo_players(locked),
        settings=read.settings,
    )
    writes = _compare(locked, read, verdicts, credits, used, ahead=ahead is not None)
    if ahead is not None and not ahead():
        return False
    # The rulings of a round whose results are not shown change nothing on the phones: a
    # hall's panels are not built again for them while the arbitrator reviews them.
    shown = ahead is None and results_shown(locked)
    rulings_write(locked.game.event, writes, ahead=ahead is not None, shown=shown)
    return True


@dataclass(frozen=True)
class _Read:
    """What the ruling of a round reads before it judges: the game replayed to the round,
    the event's settings, the rulings written before, each player's slips that count, and
    the players ruled, by table."""

    position: Position
    settings: adj.AdjudicationSettings
    existing: dict[int, RuledRuling]
    handed: dict[int, list[HandedSlip]]
    players: list[int]


def _read(locked: Round, *, lock: bool) -> _Read:
    event = locked.game.event
    position = rebuild(locked.game)
    if position.current is None or position.current.pk != locked.pk:
        raise ApplicationError(
            _("round %(number)s is not the game's current round") % {"number": locked.number}
        )
    existing = rulings_ruled(locked, lock=lock)
    handed = slips_counting(locked)
    # A player withdrawn before the round opened is not ruled in it (nor missing), unless
    # a slip of theirs came in all the same (a race with the withdrawal: it is ruled).
    opened = locked.opened_at or timezone.now()
    players = [
        pk
        for pk, withdrawn_at in event.players.order_by("table").values_list("pk", "withdrawn_at")
        if withdrawn_at is None or withdrawn_at >= opened or pk in handed or pk in existing
    ]
    return _Read(position, adjudication_settings(event), existing, handed, players)


def _judge(locked: Round, read: _Read) -> tuple[dict[int, adj.Verdict], dict[int, int | None]]:
    """Each player's verdict, and the slip it rules (None: none). Accepted shifted
    references are applied again, and the arbitrator's figures kept."""
    game = read.position.game
    board, lexicon, rack = game.board, game.lexicon, rack_codes(locked.rack)
    rules, settings = judging_rules(read.position, locked.game.event), read.settings
    shifted = {
        pid for pid, r in read.existing.items() if r.reason == adj.Reason.SHIFT_ACCEPTED and not r.overridden
    }
    verdicts: dict[int, adj.Verdict] = {}
    # A hall hands in the same few dozen moves: each distinct set of slips is judged once
    # (the judgement depends on the slips, the board and the rack only; verdicts are
    # frozen): the same moves judged again would be most of the worker's time at the
    # close (docs/decisions.md).
    judged: dict[tuple[adj.SlipInput, ...], adj.Verdict] = {}
    used: dict[int, int | None] = {}
    for player in read.players:
        slips = read.handed.get(player, [])
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
        previous = read.existing.get(player)
        if previous is not None and previous.overridden:
            verdict = verdict_overridden(previous, verdict)
        verdicts[player] = verdict
    return verdicts, used


def _compare(
    locked: Round,
    read: _Read,
    verdicts: dict[int, adj.Verdict],
    credits: dict[int, adj.Credit],
    used: dict[int, int | None],
    *,
    ahead: bool,
) -> RulingWrites:
    """The rulings to write: each player's new one, or the one before where it changed."""
    now = timezone.now()
    writes = RulingWrites()
    for player in read.players:
        values = ruling_values(verdicts[player], credits[player], used[player])
        previous = read.existing.get(player)
        if previous is None:
            if ahead and used[player] is None:
                continue  # no slip yet: "missing" is for the close to say
            writes.created.append(Ruling(round=locked, player_id=player, ruled_at=now, **values))
            continue
        if all(getattr(previous, key) == value for key, value in values.items()):
            continue  # a second run that changes nothing leaves no trace
        # Only the fields written are set: bulk_update writes those alone.
        ruling = Ruling(pk=previous.pk, round=locked, player_id=player, ruled_at=now, **values)
        writes.updated.append(ruling)
        old = ruling_snapshot(previous)
        if ruling_snapshot(ruling) != old:
            writes.changes.append((ruling, old))
    return writes
