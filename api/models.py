"""Player tokens: what the join flow hands a phone, valid for one player of one event."""

from __future__ import annotations

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Player


def _token_key() -> str:
    return secrets.token_hex(20)  # 40 hexadecimal characters, 160 random bits


class PlayerToken(models.Model):
    key = models.CharField(_("key"), max_length=40, unique=True, default=_token_key, editable=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="api_tokens")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("player token")
        verbose_name_plural = _("player tokens")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"token of {self.player}"
