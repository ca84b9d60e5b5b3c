"""What the rounds' services announce, for the apps built on the domain (the multiplex).

Sent inside the service's transaction, once the change is made: a receiver stores what it
owes others with the change (an outbox row committed with it, or rolled back with it) and
sends it after the commit (``transaction.on_commit``). A receiver that only wants the
committed fact registers its own ``on_commit``. docs/decisions.md says why not after.

Every signal's sender is the model class; its arguments name the row(s)."""

from __future__ import annotations

from django.dispatch import Signal

#: A round's rack was drawn: ``round``.
round_drawn = Signal()
#: A round was closed (its slips as they stand are final until a correction): ``round``.
round_closed = Signal()
#: A round's move was placed for everyone: ``round``.
round_placed = Signal()
#: The last placement of a game was undone: ``round`` (ruled again, unplaced).
round_unplaced = Signal()
#: A game ended: ``game`` (``game.end_reason`` says why).
game_ended = Signal()
