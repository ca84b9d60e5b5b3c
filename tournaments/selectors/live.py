"""The live versions the pages poll (a few small queries): a page re-renders only when
they change, and what it shows is cached per version (:mod:`tournaments.selectors.shown`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Max

from tournaments.models import Event, HistoryEntry, Round
from tournaments.selectors.games import current_round, results_being_checked


@dataclass(frozen=True)
class LiveVersions:
    """``public`` changes with what every phone and the projector show (draws, opening,
    close, results shown, placing); ``full`` also with every slip and with the round's
    state (the arbitrator's console: the rulings done)."""

    public: str
    full: str
    deadline: str | None
    state: str | None
    #: The time left on the clock while the arbitrator holds it (ms), else None.
    paused: int | None = None


PRIVATE_ENTITIES = ("slip", "player")
#: Kept in the history and shown to no one but the arbitrator: the rulings written while
#: the round is open (tournaments/services/rulings.py, round_rule_ahead).
PRIVATE_ACTIONS = ("rule_ahead",)


def live_versions(event: Event) -> LiveVersions:
    return live_versions_of(event, current_round(event))


def live_versions_of(event: Event, round: Round | None) -> LiveVersions:
    """:func:`live_versions` for a caller that has read ``current_round(event)`` already
    (a phone's panel needs it too: one reading fewer per panel, and 2,000 panels follow
    each change in a hall)."""
    last = HistoryEntry.objects.filter(event=event).aggregate(all=Max("id"))["all"] or 0
    # Slips and players (joins, releases) change what the arbitrator sees, not what every
    # phone shows: a hall of phones must not reload at each of them.
    public = (
        HistoryEntry.objects.filter(event=event, shown=True)
        .exclude(entity__in=PRIVATE_ENTITIES)
        .exclude(action__in=PRIVATE_ACTIONS)
        .aggregate(m=Max("id"))["m"]
        or 0
    )
    if round is None:
        shown_key = solved = "none"
        deadline = state = None
        paused = None
    else:
        # Solving and ruling are done by workers and leave no history: the round's own
        # fields tell when they are done. The solving shows on the console only (phones and
        # the projector see the tops once the slips are ruled): a hall of phones does not
        # reload for it.
        key = f"{round.pk}.{round.state}"
        solved = f"{key}.{int(round.solved_at is not None)}"
        # The phones and the projector show a round ruled but not published as they showed
        # it closed ("the arbitrator is checking the results"): the rulings done, a hall of
        # phones must not rebuild its panels for nothing while the arbitrator's review is
        # asked for. The console follows the round's own state (rooms/static/arbiter/live.js).
        shown = "closed" if results_being_checked(round) else round.state
        shown_key = f"{round.pk}.{shown}"
        deadline = round.deadline.isoformat() if round.deadline else None
        state = round.state
        paused = round.paused_ms
    return LiveVersions(f"{public}.{shown_key}", f"{last}.{solved}", deadline, state, paused)
