"""A game's rounds: the rack drawn, the clock, the tops, the move placed, the results shown."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.games import Game


def counted_rounds(prefix: str = "") -> models.Q:
    """The rounds whose results count in the totals and the standings (``prefix``: the
    lookup to the round, "round__"): placed, or published before the placement. The
    phones show a published round's result at once, so every screen, sheet and export
    adds it up from then on (a correction after it follows everywhere)."""
    return models.Q(**{f"{prefix}state": "placed"}) | models.Q(
        **{f"{prefix}state": "adjudicated", f"{prefix}published_at__isnull": False}
    )


class RoundQuerySet(models.QuerySet["Round"]):
    def open(self) -> RoundQuerySet:
        return self.filter(state=Round.State.OPEN)

    def counted(self) -> RoundQuerySet:
        """See :func:`counted_rounds`."""
        return self.filter(counted_rounds())

    def unplaced(self) -> RoundQuerySet:
        """Rounds whose move is not on the board yet: at most one per game (the next rack
        is drawn only after a placement)."""
        return self.exclude(state=Round.State.PLACED)


class Round(models.Model):
    class State(models.TextChoices):
        DRAWN = "drawn", _("drawn")
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")
        ADJUDICATED = "adjudicated", _("adjudicated")
        PLACED = "placed", _("placed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField(_("round"))
    state = models.CharField(max_length=12, choices=State.choices, default=State.DRAWN)
    reliquat = models.CharField(_("reliquat"), max_length=8, blank=True)
    new_tiles = models.CharField(_("new tiles"), max_length=8)
    rejected = models.JSONField(_("rejected racks"), default=list, blank=True)
    manual = models.BooleanField(_("typed from a physical draw"), default=False)
    deadline = models.DateTimeField(null=True, blank=True)
    #: Set while the arbitrator holds the clock: the time left is then ``deadline -
    #: paused_at``, and the resume moves the deadline on by the length of the pause.
    paused_at = models.DateTimeField(null=True, blank=True)
    opened_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # Filled by the solver task (round_solve_task).
    move_count = models.PositiveIntegerField(null=True, blank=True)
    top_score = models.PositiveIntegerField(null=True, blank=True)
    tops = models.JSONField(default=list, blank=True, help_text=_("GCG notation, chosen-first order"))
    solved_at = models.DateTimeField(null=True, blank=True)
    # The move placed on the board for everyone (GCG notation) and its score.
    chosen = models.CharField(max_length=40, blank=True)
    chosen_score = models.PositiveIntegerField(null=True, blank=True)
    chosen_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    placed_at = models.DateTimeField(null=True, blank=True)
    #: When the players were shown the top and their rulings: the arbitrator's review done
    #: (published, or placed), or the close under ``Event.publish_at_close``.
    published_at = models.DateTimeField(null=True, blank=True)
    #: When the players first saw them; kept through a reopen, after which a slip received
    #: is late (the top was public: docs/rules.md#reopening-a-round).
    first_published_at = models.DateTimeField(null=True, blank=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["game", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="one_round_number_per_game")]

    def __str__(self) -> str:
        return f"{self.game} round {self.number}"

    @property
    def rack(self) -> str:
        return self.reliquat + self.new_tiles

    def seconds_left(self, now: dt.datetime) -> float | None:
        """The clock's time left at ``now`` (frozen while paused); None without a clock."""
        if self.deadline is None:
            return None
        return max(0.0, (self.deadline - (self.paused_at or now)).total_seconds())

    @property
    def paused_ms(self) -> int | None:
        """The time left on a paused clock, in milliseconds (the pages' countdowns)."""
        if self.paused_at is None or self.deadline is None:
            return None
        return max(0, int((self.deadline - self.paused_at).total_seconds() * 1000))

    def time_up(self, at: dt.datetime) -> bool:
        """Whether the clock had run out at ``at``. Never while it is paused: a paused
        round takes no late slip (the clock cannot be paused once it has run out)."""
        return self.deadline is not None and self.paused_at is None and at > self.deadline

    def publish(self, at: dt.datetime) -> list[str]:
        """Show the players the results from ``at`` (the fields to save)."""
        self.published_at = at
        self.first_published_at = self.first_published_at or at
        return ["published_at", "first_published_at"]
