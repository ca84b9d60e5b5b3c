"""An event linked by the multiplex, and a centre's link to its hub as stored
(docs/rules.md#multiplex): what the rounds' services ask of it. The talking to the hub is
in :mod:`multiplex.services.centre`."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from multiplex.models import HubCopy, HubLink, HubOutbox, HubSealed
from tournaments.models import Event, Game, Round, Slip

NAME = "multiplex"


def link_event(event: Event) -> None:
    """Mark ``event`` as played with the multiplex (a hub, or a centre that joined one)."""
    if event.linked_by != NAME:
        event.linked_by = NAME
        Event.objects.filter(pk=event.pk).update(linked_by=NAME)


def hub_link(event: Event) -> HubLink | None:
    """The event's link to its hub when it is a centre of a multiplex."""
    return HubLink.objects.filter(event_id=event.pk).first()


def following(event: Event) -> HubLink | None:
    """The link of a centre that takes its racks and tops from the hub (not the draw centre)."""
    return HubLink.objects.filter(event_id=event.pk, draws=False).first()


def drawing(event: Event) -> HubLink | None:
    """The link of the draw centre: its racks and tops are published to the hub."""
    return HubLink.objects.filter(event_id=event.pk, draws=True).first()


def hub_copy(game: Game, number: int) -> HubCopy | None:
    """Round ``number`` of ``game`` as the hub served it, if it has."""
    return HubCopy.objects.filter(link__event_id=game.event_id, game=game.number, number=number).first()


def hub_move(game: Game, number: int) -> tuple[str, int] | None:
    """The move the hub placed on round ``number`` (GCG notation) and its score, once the
    hub has given it."""
    copy = hub_copy(game, number)
    if copy is None or not copy.top:
        return None
    return copy.top["played"], copy.top["score"]


def hub_game_end(game: Game) -> str:
    """How the hub's game ended, once it has (its last round's copy says so)."""
    copy = (
        HubCopy.objects.filter(link__event_id=game.event_id, game=game.number)
        .exclude(game_end="")
        .order_by("-number")
        .first()
    )
    return copy.game_end if copy is not None else ""


def slips_digest(round: Round) -> str:
    """SHA-256 of the round's slips as they stand at the close (each player's current
    slip: table, move as written, announced score, when received): sent to the hub with
    the close, so that the results sent later are on record as ruling those slips."""
    slips = (
        Slip.objects.filter(round=round, current=True)
        .select_related("player")
        .order_by("player__table", "received_at", "pk")
    )
    rows: list[Any] = [
        [s.player.table, s.coordinates, s.word, s.announced_score, s.received_at.isoformat(), s.late]
        for s in slips
    ]
    return hashlib.sha256(json.dumps(rows, separators=(",", ":")).encode()).hexdigest()


@dataclass(frozen=True)
class LinkState:
    """What the centre's console says of its link to the hub."""

    link: HubLink
    waiting: int  # closes, results (and the draw centre's publications) not acknowledged yet
    served: tuple[int, int] | None  # the last round the hub served (game, round)
    refusals: list[str]  # why the hub refused the items still owed (kept, sent again)
    sealed: list[HubSealed]  # a prepared multiplex's games fetched ahead


def link_state(event: Event) -> LinkState | None:
    link = hub_link(event)
    if link is None:
        return None
    owed = HubOutbox.objects.filter(link=link, sent_at__isnull=True)
    last = HubCopy.objects.filter(link=link).order_by("-game", "-number").first()
    return LinkState(
        link=link,
        waiting=owed.count(),
        served=(last.game, last.number) if last is not None else None,
        refusals=sorted(set(owed.exclude(last_error="").values_list("last_error", flat=True))),
        sealed=list(HubSealed.objects.filter(link=link).order_by("game")),
    )
