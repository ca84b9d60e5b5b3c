"""The players of an event, the seat codes their phones take a table with, and the
phones' tokens."""

from __future__ import annotations

import datetime as dt
import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import Event

#: A seat code is typed once on a phone, from a table card: no 0/O, 1/I/L, 5/S, 8/B.
SEAT_ALPHABET = "ACDEFGHJKMNPQRTUVWXY234679"
SEAT_CODE_LENGTH = 6


def new_seat_code() -> str:
    """A table's secret for joining: 26^6 (3 x 10^8) codes, so that a hall's 2,000 tables
    leave one chance in 150,000 per guess, and guesses are rate-limited."""
    return "".join(secrets.choice(SEAT_ALPHABET) for _ in range(SEAT_CODE_LENGTH))


def seat_code_clean(text: str) -> str:
    """A seat code as typed (spaces, lower case) in its stored form, or "" if it is none."""
    code = "".join(text.split()).upper()
    return code if len(code) == SEAT_CODE_LENGTH and all(c in SEAT_ALPHABET for c in code) else ""


class PlayerQuerySet(models.QuerySet["Player"]):
    def at_table(self, table: int) -> PlayerQuerySet:
        return self.filter(table=table)

    def people(self) -> PlayerQuerySet:
        """The players who hand in slips through the pages: not the virtual ones."""
        return self.filter(virtual_level__isnull=True)

    def playing(self) -> PlayerQuerySet:
        """Not withdrawn."""
        return self.filter(withdrawn_at__isnull=True)


class Player(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=120)
    club = models.CharField(_("club"), max_length=120, blank=True)
    licence = models.CharField(_("licence number"), max_length=40, blank=True)
    category = models.CharField(_("category / series"), max_length=40, blank=True)
    table = models.PositiveIntegerField(_("table"))
    #: Level 1-6 of a virtual player (docs/rules.md#computer-players); null for a person.
    virtual_level = models.PositiveSmallIntegerField(_("virtual player level"), null=True, blank=True)
    #: Withdrawn from the rounds opened after this moment: no slip taken, no ruling, not
    #: expected; the scores so far are kept (docs/rules.md#players).
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    #: Typed on the player's phone to take the table (printed on the table card).
    seat_code = models.CharField(_("seat code"), max_length=8, default=new_seat_code)
    #: Hands in paper slips only: no phone may take the table.
    paper_only = models.BooleanField(_("paper slips only"), default=False)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["table"]
        constraints = [
            models.UniqueConstraint(fields=["event", "table"], name="one_player_per_table"),
            models.UniqueConstraint(fields=["event", "seat_code"], name="one_seat_code_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.table}. {self.name}"


def _token_key() -> str:
    return secrets.token_hex(20)  # 40 hexadecimal characters, 160 random bits


#: A player token's key (``_token_key`` keeps its name for the migrations).
new_token_key = _token_key

#: A phone's request for a table that the arbitrator has not answered by then is dropped
#: (the phone asks again): no stale request is listed or confirmed.
JOIN_WAIT = dt.timedelta(minutes=10)


class PlayerToken(models.Model):
    key = models.CharField(_("key"), max_length=40, unique=True, default=_token_key, editable=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="api_tokens")
    created_at = models.DateTimeField(auto_now_add=True)
    #: Null while the join waits for the arbitrator (a table or a name typed, which anyone
    #: in the hall could type); a token works only once confirmed.
    confirmed_at = models.DateTimeField(null=True, blank=True)
    #: What the console shows the arbitrator of the phone that asked.
    address = models.CharField(max_length=45, blank=True)
    device = models.CharField(max_length=120, blank=True)

    class Meta:
        # The api app's table: migration 0005 gave the model to the domain and left its
        # rows where they are.
        db_table = "api_playertoken"
        verbose_name = _("player token")
        verbose_name_plural = _("player tokens")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"token of {self.player}"
