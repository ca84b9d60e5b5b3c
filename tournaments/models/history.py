"""The change history: append-only, never changed nor deleted."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import Event


class HistoryQuerySet(models.QuerySet["HistoryEntry"]):
    def delete(self) -> tuple[int, dict[str, int]]:
        raise ValueError("history entries are never deleted")

    def update(self, **kwargs: Any) -> int:
        raise ValueError("history entries are never changed")


class HistoryEntry(models.Model):
    """Append-only record of every change to a slip, a ruling or a draw."""

    # PROTECT: an event with a history cannot be deleted, which would delete its record.
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="history")
    entity = models.CharField(max_length=20)
    object_id = models.PositiveBigIntegerField()
    action = models.CharField(max_length=40)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    actor_label = models.CharField(max_length=150, help_text=_("who, even after the user is deleted"))
    at = models.DateTimeField(auto_now_add=True)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    #: False: a change the phones and the projector do not show (the rulings of a round
    #: whose results are not shown yet): the public version does not move for it.
    shown = models.BooleanField(default=True)

    objects = HistoryQuerySet.as_manager()

    class Meta:
        verbose_name = _("history entry")
        verbose_name_plural = _("history")
        ordering = ["at", "pk"]
        indexes = [models.Index(fields=["entity", "object_id"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor_label} {self.action} {self.entity} {self.object_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("history entries are never changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError("history entries are never deleted")
