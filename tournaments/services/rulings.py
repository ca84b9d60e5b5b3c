"""Rulings: every slip of a closed round judged by :mod:`scoring.adjudication`, and the
arbitrator's corrections (an override with its reason, a shifted reference accepted).
The round is ruled as a whole, under its lock, so that tops, solos and the penalties
beyond the free warnings follow every correction."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import adjudication as adj
from solver.tiles import rack_codes
from tournaments.core import ApplicationError, User
from tournaments.judging import adjudication_settings, judging_rules, prior_warnings
from tournaments.models import HistoryEntry, Round, Ruling, Slip
from tournaments.services.history import actor, history_record
from tournaments.services.rounds import round_solve
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
            locked.save(update_fields=["state"])
        return locked


def _rule_round(locked: Round) -> None:
    """(Re)write the rulings of a round the caller holds locked.

    Overridden rulings are kept as the arbitrator set them; accepted shifted references
    are applied again; tops, solos and the penalties beyond the free warnings are
    computed over the whole round, so a correction of one slip updates the others."""
    event = locked.game.event
    position = rebuild(locked.game)
    if position.current is None or position.current.pk != locked.pk:
        raise ApplicationError(
            _("round %(number)s is not the game's current round") % {"number": locked.number}
        )
    board, rules, lexicon = position.game.board, judging_rules(position, event), position.game.lexicon
    rack = rack_codes(locked.rack)
    settings = adjudication_settings(event)
    players = list(event.players.all())
    existing = {r.player_id: r for r in Ruling.objects.select_for_update().filter(round=locked)}
    kept = {pid for pid, r in existing.items() if r.overridden}
    shifted = {
        pid for pid, r in existing.items() if r.reason == adj.Reason.SHIFT_ACCEPTED and not r.overridden
    }
    slips = {s.player_id: s for s in locked.slips.filter(current=True)}
    late = {s.player_id: s for s in locked.slips.filter(late=True)}
    verdicts: dict[int, adj.Verdict] = {}
    used: dict[int, Slip | None] = {}
    now = timezone.now()
    created: list[Ruling] = []
    updated: list[Ruling] = []
    changes: list[tuple[Ruling, dict[str, Any] | None]] = []
    for player in players:
        slip = slips.get(player.pk) or late.get(player.pk)
        used[player.pk] = slip
        slip_input = (
            None
            if slip is None
            else adj.SlipInput(slip.coordinates, slip.word, slip.announced_score, late=slip.late)
        )
        verdict = adj.adjudicate_slip(board, rack, lexicon, rules, settings, slip_input)
        if player.pk in shifted and slip_input is not None and verdict.shift_candidate:
            verdict = adj.accept_shift(board, rack, lexicon, rules, settings, slip_input, verdict)
        verdicts[player.pk] = verdict
    credits = adj.credit_round(
        verdicts,
        top_score=locked.top_score or 0,
        prior_warnings=prior_warnings(locked),
        players_in_game=len(players),
        settings=settings,
    )
    for player in players:
        if player.pk in kept:
            continue
        v, c = verdicts[player.pk], credits[player.pk]
        values = {
            "slip": used[player.pk],
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
            "invalid_words": list(v.invalid_words),
            "shift_candidate": v.shift_candidate,
        }
        assert values.keys() == set(RULING_FIELDS)  # bulk_update below writes those
        previous = existing.get(player.pk)
        if previous is None:
            created.append(Ruling(round=locked, player=player, ruled_at=now, **values))
            continue
        if _same_ruling(previous, values):
            continue  # a second run that changes nothing leaves no trace
        old = _ruling_snapshot(previous)
        for key, value in values.items():
            setattr(previous, key, value)
        previous.ruled_at = now
        updated.append(previous)
        if _ruling_snapshot(previous) != old:
            changes.append((previous, old))
    # In bulk: a round of 300 players was 600 queries one ruling at a time (a second and
    # more at each close); the round lock held by the caller keeps it one writer.
    Ruling.objects.bulk_create(created)  # sets the primary keys (PostgreSQL, SQLite >= 3.35)
    if updated:
        Ruling.objects.bulk_update(updated, [*RULING_FIELDS, "ruled_at"])
    user, label = actor(None)
    HistoryEntry.objects.bulk_create(
        [
            HistoryEntry(
                event=event,
                entity="ruling",
                object_id=ruling.pk,
                action="rerule" if old is not None else "rule",
                actor=user,
                actor_label=label,
                old=old,
                new=_ruling_snapshot(ruling),
            )
            for ruling, old in [*((r, None) for r in created), *changes]
        ]
    )


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
    "invalid_words",
    "shift_candidate",
)


def _same_ruling(ruling: Ruling, values: dict[str, Any]) -> bool:
    # The slip by its key: reading ruling.slip would cost a query per player.
    slip = values["slip"]
    if ruling.slip_id != (slip.pk if slip is not None else None):
        return False
    return all(getattr(ruling, key) == value for key, value in values.items() if key != "slip")


def _ruling_snapshot(ruling: Ruling) -> dict[str, Any]:
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
    return round, Ruling.objects.select_for_update().get(pk=ruling.pk)


def ruling_override(
    *,
    ruling: Ruling,
    by: User,
    reason: str,
    credited: int | None = None,
    warnings: int | None = None,
    penalty: int | None = None,
) -> Ruling:
    """The arbitrator's correction of a ruling; the reason is required and kept. The
    credited score is always given, so that the total matches what was decided."""
    if not reason.strip():
        raise ApplicationError(_("say why the ruling is changed: the reason is kept in the history"))
    if credited is None:
        raise ApplicationError(_("give the credited score (with the warnings or penalty if they change)"))
    if (warnings is not None and warnings < 0) or (penalty is not None and penalty < 0):
        raise ApplicationError(_("warnings and penalties cannot be negative"))
    with transaction.atomic():
        _round, ruling = _lock_ruling(ruling)
        old = _ruling_snapshot(ruling)
        ruling.credited = credited
        if warnings is not None:
            ruling.warnings = warnings
        if penalty is not None:
            ruling.penalty = penalty
        ruling.overridden = True
        ruling.reason = adj.Reason.OVERRIDDEN
        ruling.override_reason = reason.strip()
        user, _label = actor(by)
        ruling.ruled_by = user
        ruling.save()
        history_record(
            event=ruling.round.game.event,
            entity="ruling",
            object_id=ruling.pk,
            action="override",
            by=by,
            old=old,
            new=_ruling_snapshot(ruling),
            reason=reason.strip(),
        )
        return ruling


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
            # transaction (the update above included) is undone.
            raise ApplicationError(
                _("the shifted placement no longer fits: %(error)s") % {"error": exc},
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
