"""The slips the players hand in, kept as read, and when one counts as handed in."""

from __future__ import annotations

import datetime as dt
from typing import Protocol

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.players import Player
from tournaments.models.rounds import Round


class Slip(models.Model):
    """What a player handed in, exactly as read; kept even when replaced or late."""

    class Source(models.TextChoices):
        PHONE = "phone", _("phone")
        PAPER = "paper", _("paper slip typed by an arbitrator")
        VIRTUAL = "virtual", _("virtual player")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="slips")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="slips")
    coordinates = models.CharField(_("coordinates"), max_length=20, blank=True)
    word = models.CharField(_("word"), max_length=40, blank=True)
    announced_score = models.IntegerField(_("announced score"), null=True, blank=True)
    received_at = models.DateTimeField(_("received at"))
    #: A phone's: when it was sent, on the server's clock (the phone's own corrected by the
    #: offset it measured), never earlier than the grace before ``received_at`` nor later
    #: than it; what counts for the deadline (:attr:`handed_in_at`). None: not said.
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    source = models.CharField(max_length=10, choices=Source.choices)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: The sender's id for this submission: the same id twice is the same slip (retries).
    client_id = models.CharField(max_length=64, blank=True)
    late = models.BooleanField(default=False)
    #: False once a later slip of the same player replaced it in this round.
    current = models.BooleanField(default=True)

    class Meta:
        verbose_name = _("slip")
        verbose_name_plural = _("slips")
        ordering = ["round", "player", "received_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "player", "client_id"],
                condition=~models.Q(client_id=""),
                name="one_slip_per_client_id",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.coordinates} {self.word} {self.announced_score or ''}".strip()

    @property
    def handed_in_at(self) -> dt.datetime:
        return handed_in_at(self)


class SlipTimes(Protocol):
    @property
    def sent_at(self) -> dt.datetime | None: ...
    @property
    def received_at(self) -> dt.datetime: ...


def handed_in_at(slip: SlipTimes) -> dt.datetime:
    """When a slip counts as handed in: sent (a phone that said so), else received."""
    return slip.sent_at or slip.received_at
