"""The printed sheets asked for, and their PDF once printed."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import Event
from tournaments.models.players import Player


class PrintedSheet(models.Model):
    class Kind(models.TextChoices):
        STANDINGS = "standings", _("standings")
        ROUNDS = "rounds", _("round by round")
        PLAYER = "player", _("player sheet")
        GAME = "game", _("game sheet")
        ROUND = "round", _("round result")

    class State(models.TextChoices):
        PENDING = "pending", _("being printed")
        READY = "ready", _("ready")
        FAILED = "failed", _("failed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="sheets")
    kind = models.CharField(_("sheet"), max_length=12, choices=Kind.choices)
    game = models.PositiveIntegerField(
        _("game"), null=True, blank=True, help_text=_("empty: the whole event")
    )
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    #: The round of a round result; empty: the game's last ruled round.
    round = models.PositiveIntegerField(_("round"), null=True, blank=True)
    category = models.CharField(_("category / series"), max_length=40, blank=True)
    language = models.CharField(_("language"), max_length=2, default="fr")
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    pdf = models.BinaryField(default=b"", blank=True)
    error = models.TextField(blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    printed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # The scoring app's table: migration 0005 gave the model to the domain and left its
        # rows where they are.
        db_table = "scoring_printedsheet"
        ordering = ["-requested_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.event}"

    @property
    def filename(self) -> str:
        parts = [
            self.kind,
            f"game-{self.game}" if self.game else "",
            f"round-{self.round}" if self.round else "",
            f"player-{self.player_id}" if self.player_id else "",
        ]
        return "-".join(p for p in [f"event-{self.event_id}", *parts, self.language] if p) + ".pdf"
