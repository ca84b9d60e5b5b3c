"""A player's round ruled: the move understood, the points credited, the arbitrator's
correction."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.players import Player
from tournaments.models.rounds import Round
from tournaments.models.slips import Slip


class Ruling(models.Model):
    """The adjudication of one player's round (with or without a slip)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="rulings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rulings")
    slip = models.ForeignKey(Slip, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    #: The move as understood (GCG notation, blanks resolved), empty when unreadable.
    move = models.CharField(max_length=40, blank=True)
    move_score = models.IntegerField(_("score of the move"), default=0)
    credited = models.IntegerField(_("credited"), default=0)
    warnings = models.PositiveSmallIntegerField(_("warnings"), default=0)
    penalty = models.PositiveIntegerField(_("penalty"), default=0)
    solo = models.BooleanField(_("solo"), default=False)
    is_top = models.BooleanField(_("top"), default=False)
    letterpoints = models.PositiveIntegerField(_("letterpoints"), default=0)
    #: Stable code (see scoring.adjudication.Reason) and the sentence shown to people.
    reason = models.CharField(max_length=30, blank=True)
    detail = models.TextField(blank=True)
    #: The same sentences as codes with parameters (scoring.adjudication.Note), so that each
    #: page says them in its own language (tournaments.messages).
    notes = models.JSONField(default=list, blank=True)
    invalid_words = models.JSONField(default=list, blank=True)
    #: A shifted reference the arbitrator may accept with a penalty (GCG notation).
    shift_candidate = models.CharField(max_length=40, blank=True)
    overridden = models.BooleanField(default=False)
    #: The arbitrator's reason for the last correction; ``detail`` keeps the adjudication's.
    override_reason = models.TextField(blank=True)
    #: What the arbitrator set ({"credited", "warnings", "penalty"}; credited before any
    #: solo): the round is ruled again around it, so tops and the solo follow it.
    override = models.JSONField(null=True, blank=True)
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ruled_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")
        ordering = ["round", "player__table"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="one_ruling_per_player_round")
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.round}: {self.credited}"
