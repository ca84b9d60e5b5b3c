"""Rulings and the review of a round: every ruling once, under its move or in the list of
its reason; a ruling of an event or of a table."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from django.db.models import Count, Max, QuerySet

from scoring import adjudication as adj
from tournaments.display import shown_move
from tournaments.models import Event, HistoryEntry, Player, Round, Ruling

INVALID = (adj.Reason.ILLEGAL, adj.Reason.NOT_IN_LEXICON, adj.Reason.UNREADABLE)
#: The review's lists of slips scored 0, by reason; every other ruling with a move is
#: listed under its move (penalised and corrected ones too), the rest under "corrected".
ZERO_SECTIONS = {
    **dict.fromkeys(INVALID, "invalid"),
    adj.Reason.SEVERAL_SLIPS: "several",
    adj.Reason.BLANK_SLIP: "blank",
    adj.Reason.MISSING: "missing",
    adj.Reason.LATE: "late",
}


class Reviewed(Protocol):
    """What the review reads of a ruling: the model, or the values a page reads of it
    (the console's, rooms/listed.py)."""

    @property
    def reason(self) -> str: ...
    @property
    def move(self) -> str: ...
    @property
    def move_score(self) -> int: ...
    @property
    def is_top(self) -> bool: ...
    @property
    def solo(self) -> bool: ...
    @property
    def penalty(self) -> int: ...
    @property
    def overridden(self) -> bool: ...


#: A ruling of a review: the model's (the API, the terminal) or the console's values. Not
#: bound in the classes: mypy checks a bound there before the models' fields are known.
R = TypeVar("R")
#: The same, where the review reads it.
RR = TypeVar("RR", bound=Reviewed)


@dataclass
class MoveGroup(Generic[R]):
    move: str  # GCG
    shown: str
    score: int
    is_top: bool
    rulings: list[R]


@dataclass
class Review(Generic[R]):
    """Every ruling of the round once, in one section: under its move (``groups``), or in
    the list of its reason (``invalid``, ``several``, ``blank``, ``missing``, ``late``), or
    among the ``corrected`` without a move (an average, an unreadable slip credited). The
    other lists name the same rulings again by what they got."""

    round: Round
    rulings: list[R]
    groups: list[MoveGroup[R]]
    invalid: list[R]
    several: list[R]
    blank: list[R]
    missing: list[R]
    late: list[R]
    corrected: list[R]
    overridden: list[R]
    solos: list[R]
    penalties: list[R]
    found_top: list[R]

    @property
    def valid(self) -> int:
        """The slips scored for a move (the rulings under the moves)."""
        return sum(len(g.rulings) for g in self.groups)


def review_section(ruling: Reviewed) -> str:
    """Where the review lists a ruling: "move", a reason's list, or "corrected"."""
    zero = ZERO_SECTIONS.get(ruling.reason)
    if zero is not None:
        return zero
    if ruling.move and ruling.reason != adj.Reason.AVERAGE:  # an average is no move
        return "move"
    return "corrected"


def round_review(round: Round) -> Review[Ruling]:
    """A round's rulings grouped by move (best first), then the slips scored 0 by kind."""
    rulings = list(
        Ruling.objects.filter(round=round)
        .select_related("player", "slip", "ruled_by")
        .order_by("player__table")
    )
    return reviewed(round, rulings)


def ruling_values(round: Round, *fields: str) -> QuerySet[Ruling, tuple[Any, ...]]:
    """The rulings of ``round`` by table, each as the values of ``fields``: a page that
    lists a hall's rulings reads what it shows, not model instances."""
    return Ruling.objects.filter(round=round).order_by("player__table").values_list(*fields)


#: What a round's review shows, by the history's entities: its rulings and slips, the
#: players' names and tables, the event's notation.
REVIEW_ENTITIES = ("ruling", "slip", "player", "event")


def review_version(round: Round) -> str:
    """What the review of ``round`` is written from, as a key: a change to a ruling, a slip,
    a player or the event leaves a history entry, but for a ruling written again with the
    same figures (only its ``ruled_at`` says so). A publication, which the review does not
    show, leaves it as it was."""
    changed = HistoryEntry.objects.filter(event_id=round.game.event_id, entity__in=REVIEW_ENTITIES)
    last = changed.aggregate(last=Max("id"))["last"] or 0
    rulings = Ruling.objects.filter(round=round).aggregate(n=Count("pk"), at=Max("ruled_at"))
    at = rulings["at"].isoformat() if rulings["at"] is not None else ""
    return f"{round.pk}.{round.state}.{last}.{rulings['n']}.{at}"


def reviewed(round: Round, rulings: list[RR]) -> Review[RR]:
    """The review of ``round`` made of ``rulings`` (all of the round's, by table)."""
    event = round.game.event
    sections: dict[str, list[RR]] = defaultdict(list)
    grouped: dict[tuple[str, int], list[RR]] = defaultdict(list)
    for r in rulings:
        section = review_section(r)
        sections[section].append(r)
        if section == "move":
            grouped[(r.move, r.move_score)].append(r)
    groups = [
        MoveGroup(
            move=move,
            shown=shown_move(move, event.board, event.notation),
            score=score,
            is_top=bool(round.top_score) and score == round.top_score,
            rulings=members,
        )
        for (move, score), members in sorted(grouped.items(), key=lambda kv: (-kv[0][1], kv[0][0]))
    ]
    return Review(
        round=round,
        rulings=rulings,
        groups=groups,
        invalid=sections["invalid"],
        several=sections["several"],
        blank=sections["blank"],
        missing=sections["missing"],
        late=sections["late"],
        corrected=sections["corrected"],
        overridden=[r for r in rulings if r.overridden],
        solos=[r for r in rulings if r.solo],
        penalties=[r for r in rulings if r.penalty],
        found_top=[r for r in rulings if r.is_top],
    )


# --------------------------------------------------------------------------- one ruling


def _rulings() -> QuerySet[Ruling]:
    return Ruling.objects.select_related("round__game__event", "player", "slip", "ruled_by")


def event_ruling(event: Event, ruling_id: int) -> Ruling | None:
    """A ruling of ``event`` only: an id from another event is not found."""
    return _rulings().filter(pk=ruling_id, round__game__event=event).first()


def round_ruling(round: Round, table: int) -> Ruling | None:
    return _rulings().filter(round=round, player__table=table).first()


def player_ruling(round: Round, player: Player) -> Ruling | None:
    """The ruling of ``player`` in ``round``; None for a player added after its close."""
    return Ruling.objects.filter(round=round, player=player).first()
