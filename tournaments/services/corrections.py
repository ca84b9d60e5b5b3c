"""The arbitrator's corrections of one ruling: the figures set with a reason, the average
instead of a repeated 0, a shifted reference accepted, a slip read again. Each is kept in
the history, and the round is credited again (tops, solos, the penalties beyond the free
warnings) or ruled again whole (:func:`tournaments.services.rulings.round_rule`), so that
the other rulings follow the correction."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scoring import adjudication as adj
from tournaments.core import MAX_ANNOUNCED, MAX_CREDITED, MAX_WARNINGS, ApplicationError, User
from tournaments.display import ruling_text, shown_move
from tournaments.judging import adjudication_settings, prior_warnings, solo_players
from tournaments.models import Event, Round, Ruling, Slip
from tournaments.services.history import actor, history_record
from tournaments.services.ruling_store import ruling_snapshot, rulings_credited, verdict_stored
from tournaments.services.rulings import round_rule


def _lock_ruling(ruling: Ruling) -> tuple[Round, Ruling]:
    """Lock the round, then the ruling: the order round_adjudicate uses, so a correction
    and a re-adjudication never interleave (and never deadlock)."""
    round = Round.objects.select_for_update().get(pk=ruling.round_id)
    return round, Ruling.objects.select_for_update(of=("self",)).get(pk=ruling.pk)


def _recredit(round: Round, *, by: User, reason: str, corrected: int) -> None:
    """Credit a round again from its stored rulings (tops, solo, warning penalties) after
    a correction; the caller holds the round locked. Placed rounds too: a correction
    after the placement moves the tops and the solo as well."""
    event = round.game.event
    settings = adjudication_settings(event)
    rulings = rulings_credited(round)
    verdicts = {pid: verdict_stored(r, settings) for pid, r in rulings.items()}
    credits = adj.credit_round(
        verdicts,
        top_score=round.top_score or 0,
        prior_warnings=prior_warnings(round),
        players_in_game=solo_players(round),
        settings=settings,
    )
    for pid, ruling in rulings.items():
        credit = credits[pid]
        old = ruling_snapshot(ruling)
        ruling.credited, ruling.penalty = credit.credited, credit.penalty
        ruling.solo, ruling.is_top = credit.solo, credit.is_top
        ruling.move_score = verdicts[pid].move_score
        new = ruling_snapshot(ruling)
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
        old = ruling_snapshot(ruling)
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
            new=ruling_snapshot(ruling),
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
        old = ruling_snapshot(ruling)
        user, _label = actor(by)
        Ruling.objects.filter(pk=ruling.pk).update(
            reason=adj.Reason.SHIFT_ACCEPTED, overridden=False, override_reason=reason.strip(), ruled_by=user
        )
        try:
            round_rule(round)
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
            new=ruling_snapshot(ruling),
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
        snapshot = ruling_snapshot(ruling)
        round_rule(round)
        ruling.refresh_from_db()
        history_record(
            event=round.game.event, entity="ruling", object_id=ruling.pk, action="read_again", by=by,
            old=snapshot, new=ruling_snapshot(ruling), reason=reason.strip(),
        )  # fmt: skip
        return ruling
