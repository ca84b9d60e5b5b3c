"""An event's games, one after the other."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import Event


class GameQuerySet(models.QuerySet["Game"]):
    def playing(self) -> GameQuerySet:
        """At most one per event: a game starts only once the one before has ended."""
        return self.filter(state=Game.State.PLAYING)


class Game(models.Model):
    class State(models.TextChoices):
        PLAYING = "playing", _("playing")
        ENDED = "ended", _("ended")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField(_("game"))
    state = models.CharField(max_length=10, choices=State.choices, default=State.PLAYING)
    #: Stable code of solver.formats.record.END_REASONS once the game has ended.
    end_reason = models.CharField(max_length=20, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    #: The record this game replays (a master game), copied from the event when it started.
    master = models.JSONField(_("master game"), null=True, blank=True)
    #: The master game's seed: its random rounds are redrawn from it, as stored.
    seed_value = models.BigIntegerField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["event", "number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="one_game_number_per_event")]

    def __str__(self) -> str:
        return f"{self.event} #{self.number}"

    @property
    def seed(self) -> int:
        """Each game of an event draws from its own reproducible sequence (a master game
        from the sequence it was played with)."""
        if self.seed_value is not None:
            return self.seed_value
        return self.event.random_seed * 1000 + self.number
