"""Events played together with others (a multiplex's hub and its centres).

The app that links events registers a :class:`Linker` under its name, and each event it
links carries that name (``Event.linked_by``). The domain asks the linker what an event on
its own decides by itself: where a rack or the placed move comes from, whether a placement
may be undone, whether settings may change, which sheets it prints. An event on its own
asks nothing, so it runs none of the linking app's queries. What the domain did is
announced with :mod:`tournaments.signals`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from solver.draw import RackDraw
from solver.game import Game as SolverGame
from tournaments.models import Event, Game, Round


class OwnSheets(Protocol):
    """The sheets and exports of an event whose results are not its own rounds' (a hub's
    merged ranking)."""

    #: The sheet kinds it prints (PrintedSheet.Kind values).
    kinds: Sequence[str]

    def games(self) -> Sequence[int]:
        """The numbers of its games, for the sheets' choices."""
        ...

    def sheet(self, kind: str, *, game_number: int | None, category: str | None, date: str) -> bytes: ...

    def export(self, kind: str, *, game_number: int | None, language: str) -> bytes | None:
        """The CSV export ``kind``, or None for the event's own."""
        ...


class Linker:
    """What the domain asks of the app that linked an event. Each method answers as an
    event on its own would; a linking app overrides what it decides."""

    def frozen(self, event: Event) -> str:
        """Why the event's settings can no longer change ("" while they can)."""
        return ""

    def follows(self, event: Event) -> bool:
        """The event takes its racks and placed moves from elsewhere: its arbitrator
        neither types racks nor chooses the top."""
        return False

    def served_draw(
        self, game: Game, solver_game: SolverGame, number: int, *, typed: bool
    ) -> RackDraw | None:
        """Round ``number``'s rack as served, drawn from ``solver_game``'s bag; None when the
        game has ended where it is served from (:meth:`ended` says how). Raises
        RackRefusedError for a typed rack, or while it is not served yet. Asked when
        :meth:`follows`."""
        raise NotImplementedError

    def ended(self, game: Game) -> str:
        """How the game ended where it is served from ("" while it goes on)."""
        return ""

    def served_move(self, game: Game, number: int) -> tuple[str, int] | None:
        """The move round ``number`` must place (GCG) and its score, once given."""
        return None

    def check_move(self, round: Round, chosen: str) -> str:
        """The move the round places (GCG): the served one; raises ApplicationError when
        it is not given yet or ``chosen`` (if any) differs. Asked when :meth:`follows`."""
        return chosen

    def next_served(self, round: Round) -> bool:
        """After ``round`` is placed, the next rack can be drawn (or the game's end is known)."""
        return True

    def check_unplace(self, game: Game) -> None:
        """Raises ApplicationError when the game's last placement may not be undone."""

    def own_sheets(self, event: Event) -> OwnSheets | None:
        """The event's sheets when its results are not its own rounds'."""
        return None


ON_ITS_OWN = Linker()

_LINKERS: dict[str, Linker] = {}


def register(name: str, linker: Linker) -> None:
    """Called by the linking app when it is ready (AppConfig.ready)."""
    _LINKERS[name] = linker


def linker(event: Event) -> Linker:
    """The linker of ``event``: its app's, or :data:`ON_ITS_OWN`."""
    if not event.linked_by:
        return ON_ITS_OWN
    try:
        return _LINKERS[event.linked_by]
    except KeyError:
        raise LookupError(f"{event} is linked by {event.linked_by!r}, an app that is not installed") from None
