"""A round's slips and rulings as the rulings read and write them: values read, not models
(a hall's players, slips and rulings made into model instances would be most of the
close's time: docs/decisions.md), a stored ruling's verdict read back, and the rulings
written in bulk with their history. The close (:mod:`tournaments.services.rulings`) and
the arbitrator's corrections (:mod:`tournaments.services.corrections`) share them."""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from django.db.models import Q

from scoring import adjudication as adj
from tournaments.models import Event, HistoryEntry, Round, Ruling
from tournaments.models.slips import handed_in_at
from tournaments.services.history import actor

# ------------------------------------------------------------------ the slips handed in


class Handed(Protocol):
    """What the ruling reads of a slip: a stored Slip, or its values (:class:`HandedSlip`)."""

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
class HandedSlip:
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


_HANDED = tuple(f.name for f in dataclasses.fields(HandedSlip))


def slips_counting(round: Round) -> dict[int, list[HandedSlip]]:
    """Each player's slips that count, in the order received: on time (current; two of
    them are several slips handed in) and late. Replaced slips are history only."""
    handed: dict[int, list[HandedSlip]] = {}
    counting = round.slips.filter(Q(current=True) | Q(late=True)).order_by("received_at", "pk")
    for slip in (HandedSlip(*row) for row in counting.values_list(*_HANDED)):
        handed.setdefault(slip.player_id, []).append(slip)
    return handed


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


# ------------------------------------------------------------------ the rulings stored


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
class CreditedRuling:
    """A ruling as the round's credit reads it (:func:`rulings_credited`), from its values."""

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


_CREDITED = tuple(f.name for f in dataclasses.fields(CreditedRuling))


@dataclass
class RuledRuling(CreditedRuling):
    """A ruling as the round's ruling compares it (:func:`rulings_ruled`), from its values."""

    slip_id: int | None
    detail: str
    invalid_words: list[str]
    shift_candidate: str


_RULED = tuple(f.name for f in dataclasses.fields(RuledRuling))


def rulings_ruled(round: Round, *, lock: bool) -> dict[int, RuledRuling]:
    """The round's rulings by player, to rule the round again over them (``lock``: under
    the round's lock, their rows locked too)."""
    rulings = Ruling.objects.filter(round=round).order_by()
    if lock:
        rulings = rulings.select_for_update(of=("self",))
    return {r.player_id: r for r in (RuledRuling(*row) for row in rulings.values_list(*_RULED))}


def rulings_credited(round: Round) -> dict[int, CreditedRuling]:
    """The round's rulings by player, their rows locked, to credit the round again."""
    # Unordered (the model's ordering joins the players) and as values, not models: a
    # hall's rulings sorted and built would be most of a correction's time (docs/decisions.md).
    locked = Ruling.objects.select_for_update(of=("self",)).filter(round=round).order_by()
    return {r.player_id: r for r in (CreditedRuling(*row) for row in locked.values_list(*_CREDITED))}


def ruling_snapshot(ruling: Ruling | CreditedRuling) -> dict[str, Any]:
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


def verdict_overridden(ruling: Ruling | CreditedRuling, verdict: adj.Verdict) -> adj.Verdict:
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


def verdict_stored(ruling: Ruling | CreditedRuling, settings: adj.AdjudicationSettings) -> adj.Verdict:
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
    return verdict_overridden(ruling, verdict) if ruling.overridden else verdict


# ------------------------------------------------------------------ the rulings written


def ruling_values(verdict: adj.Verdict, credit: adj.Credit, slip_id: int | None) -> dict[str, Any]:
    """What the adjudication writes on a ruling (:data:`RULING_FIELDS`), from its verdict,
    its credit and the slip it rules (None: no slip)."""
    values = {
        "slip_id": slip_id,
        "move": verdict.move,
        "move_score": verdict.move_score,
        "credited": credit.credited,
        "warnings": credit.warnings,
        "penalty": credit.penalty,
        "solo": credit.solo,
        "is_top": credit.is_top,
        "letterpoints": verdict.letterpoints,
        "reason": verdict.reason,
        "detail": verdict.detail,
        "notes": [note.to_dict() for note in verdict.notes],
        "invalid_words": list(verdict.invalid_words),
        "shift_candidate": verdict.shift_candidate,
    }
    assert values.keys() == _WRITTEN  # rulings_write's bulk_update writes those
    return values


@dataclass
class RulingWrites:
    """What a ruling of a round writes: the new rulings, the changed ones (only the fields
    of :data:`RULING_FIELDS` set), and those of the changed whose figures moved, with their
    figures before (:func:`ruling_snapshot`) for the history."""

    created: list[Ruling] = field(default_factory=list)
    updated: list[Ruling] = field(default_factory=list)
    changes: list[tuple[Ruling, dict[str, Any]]] = field(default_factory=list)


def rulings_write(event: Event, writes: RulingWrites, *, ahead: bool, shown: bool) -> None:
    """Write a round's rulings and their history (``ahead``: ruled while the round is open;
    ``shown``: the round's results are shown, so the change is public)."""
    # In bulk, not a query or two a ruling (docs/decisions.md); the round lock held by the
    # caller keeps it one writer.
    Ruling.objects.bulk_create(writes.created)  # sets the primary keys (PostgreSQL, SQLite >= 3.35)
    if writes.updated:
        Ruling.objects.bulk_update(writes.updated, [*RULING_FIELDS, "ruled_at"])
    user, label = actor(None)
    created: list[tuple[Ruling, dict[str, Any] | None]] = [(r, None) for r in writes.created]
    HistoryEntry.objects.bulk_create(
        [
            HistoryEntry(
                event=event,
                entity="ruling",
                object_id=ruling.pk,
                action="rule_ahead" if ahead else "rerule" if old is not None else "rule",
                actor=user,
                actor_label=label,
                old=old,
                new=ruling_snapshot(ruling),
                shown=shown,
            )
            for ruling, old in [*created, *writes.changes]
        ]
    )
