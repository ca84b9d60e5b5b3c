"""What the domain asks of the multiplex (tournaments.linked), and what the multiplex does
with what the domain announces (tournaments.signals): a centre takes its racks and placed
moves from its hub, the draw centre publishes its own, every centre sends its closes.

Only events linked by the multiplex (``Event.linked_by == NAME``) get here: the others
run none of these queries."""

from __future__ import annotations

import functools
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from multiplex.link import NAME, drawing, following, hub_copy, hub_game_end, hub_link, hub_move, slips_digest
from multiplex.models import HubLink, HubOutbox, Multiplex
from multiplex.services.outbox import outbox_put
from multiplex.sheets import HubSheets
from solver.draw import RackDraw
from solver.errors import IllegalRackError
from solver.game import Game as SolverGame
from tournaments import queue
from tournaments.core import ApplicationError
from tournaments.display import shown_move
from tournaments.linked import Linker
from tournaments.messages import say_error
from tournaments.models import Event, Game, Round
from tournaments.services.games import RackRefusedError


class MultiplexLinker(Linker):
    def frozen(self, event: Event) -> str:
        # The hub and its centres checked each other's settings when they joined.
        linked = (
            Multiplex.objects.filter(event=event).exists() or HubLink.objects.filter(event=event).exists()
        )
        return _("the event plays a multiplex") if linked else ""

    def follows(self, event: Event) -> bool:
        return following(event) is not None

    def served_draw(
        self, game: Game, solver_game: SolverGame, number: int, *, typed: bool
    ) -> RackDraw | None:
        if typed:
            raise RackRefusedError(
                _("a centre of a multiplex takes its racks from the hub: draw without typing")
            )
        # The rack the hub served, taken from this centre's bag: it must be there, since
        # the centre placed the hub's moves.
        copy = hub_copy(game, number)
        if copy is None:
            if hub_game_end(game):
                return None
            raise RackRefusedError(
                _("the hub has not published round %(number)s yet: draw it once it has") % {"number": number}
            )
        try:
            drawn = solver_game.draw_manual(copy.reliquat + copy.new_tiles, tuple(copy.rejected))
        except IllegalRackError as exc:
            raise ApplicationError(say_error(exc)) from exc
        if drawn.texts() != (copy.reliquat, copy.new_tiles, tuple(copy.rejected)):
            raise ApplicationError(
                _("round %(number)s does not come out of the bag as the hub served it") % {"number": number}
            )
        return drawn

    def ended(self, game: Game) -> str:
        return hub_game_end(game)

    def served_move(self, game: Game, number: int) -> tuple[str, int] | None:
        return hub_move(game, number)

    def check_move(self, round: Round, chosen: str) -> str:
        copy = hub_copy(round.game, round.number)
        if copy is not None and not copy.top and copy.game_end:
            raise ApplicationError(
                _("the hub's game ended on round %(number)s (%(end)s): end the game")
                % {"number": round.number, "end": copy.game_end}
            )
        if copy is None or not copy.top:
            raise ApplicationError(
                _("the hub has not sent the move placed on round %(number)s yet: it is placed once it has")
                % {"number": round.number}
            )
        played: str = copy.top["played"]
        if chosen and chosen != played:
            event = round.game.event
            raise ApplicationError(
                _("round %(number)s of a multiplex places the hub's move %(move)s")
                % {"number": round.number, "move": shown_move(played, event.board, event.notation)}
            )
        return played

    def next_served(self, round: Round) -> bool:
        return hub_copy(round.game, round.number + 1) is not None or bool(hub_game_end(round.game))

    def check_unplace(self, game: Game) -> None:
        if drawing(game.event) is not None:
            # Its move went to the hub, and the other centres may have played on it.
            raise ApplicationError(
                _("the draw centre of a multiplex cannot undo a placement: its move is published to the hub")
            )

    def own_sheets(self, event: Event) -> HubSheets | None:
        multiplex = Multiplex.objects.filter(event_id=event.pk).first()
        return HubSheets(multiplex) if multiplex is not None else None


# What the domain announces, inside its transaction: what a centre owes its hub is stored
# with the change (the outbox), and sent after the commit.


def _sync_on_commit(event_id: int) -> None:
    """A sync of ``event_id`` once the transaction commits, one whatever the number of
    announcements in it (a placement that draws the next rack makes two): one sync sends
    everything the transaction stored."""
    from multiplex.tasks import hub_sync_task

    connection = transaction.get_connection()
    # Django keeps a transaction's callbacks there, and drops those of a savepoint rolled
    # back: a sync queued in one is queued again by the next announcement.
    if any(getattr(queued, "hub_sync", None) == event_id for _, queued, _ in connection.run_on_commit):
        return
    sync = functools.partial(queue.send, hub_sync_task, event_id, False)
    sync.hub_sync = event_id  # type: ignore[attr-defined]  # the mark of a queued sync
    transaction.on_commit(sync)


def _publish(link: HubLink | None, game: Game, kind: str, number: int, payload: dict[str, Any]) -> None:
    """The draw centre (``link``, None for any other event) publishes its draws and ends to
    the hub (again until the hub acknowledges: services/centre.py)."""
    if link is not None:
        outbox_put(link=link, kind=kind, game=game.number, number=number, payload=payload)
        _sync_on_commit(link.event_id)


def _linked(event: Event) -> bool:
    return event.linked_by == NAME


def on_round_drawn(sender: type, *, round: Round, **kwargs: Any) -> None:
    if _linked(round.game.event):
        drawn = {"rack": round.reliquat + round.new_tiles, "rejected": round.rejected, "manual": round.manual}
        _publish(drawing(round.game.event), round.game, HubOutbox.Kind.DRAW, round.number, drawn)


def on_round_closed(sender: type, *, round: Round, **kwargs: Any) -> None:
    link = hub_link(round.game.event) if _linked(round.game.event) else None
    if link is not None:
        # The slips as they stand at the close, on the hub's record before its top is
        # asked for (docs/rules.md#multiplex).
        digest = {"slips_digest": slips_digest(round)}
        outbox_put(link=link, kind=HubOutbox.Kind.CLOSE, game=round.game.number, number=round.number,
                   payload=digest)  # fmt: skip
        _sync_on_commit(link.event_id)


def on_round_placed(sender: type, *, round: Round, **kwargs: Any) -> None:
    link = hub_link(round.game.event) if _linked(round.game.event) else None
    if link is not None:
        # The draw centre's top for the others; every centre's results (queued by the sync).
        if link.draws:
            top = {"played": round.chosen, "score": round.chosen_score}
            outbox_put(link=link, kind=HubOutbox.Kind.TOP, game=round.game.number, number=round.number,
                       payload=top)  # fmt: skip
        _sync_on_commit(link.event_id)


def on_game_ended(sender: type, *, game: Game, **kwargs: Any) -> None:
    if _linked(game.event):
        _publish(drawing(game.event), game, HubOutbox.Kind.END, 0, {"reason": game.end_reason})
