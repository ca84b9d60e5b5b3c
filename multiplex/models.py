"""One game played live in many halls (centres), one ranking, kept on a hub
(docs/rules.md#multiplex). The hub's side first, then a centre's.

The tables kept the names they had as models of the domain (moved in the migration state
only: multiplex/migrations/0001_moved.py)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Event


class Multiplex(models.Model):
    """A hub's multiplex: its event holds the settings, the word list and (prepared mode)
    the master games; the centres take their racks and tops from here and send their
    rulings back (docs/rules.md#multiplex)."""

    class Mode(models.TextChoices):
        LIVE = "live", _("live: the racks and tops of a draw centre, as it plays")
        PREPARED = "prepared", _("prepared: the event's master games, from the agreed start")

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="multiplex")
    mode = models.CharField(_("mode"), max_length=10, choices=Mode.choices, default=Mode.LIVE)
    #: Prepared mode: nothing is served before; live mode: none (the draw centre's draws).
    starts_at = models.DateTimeField(_("agreed start"), null=True, blank=True)
    #: A centre may start a game at most this long after the draw centre (or the agreed
    #: start): its players must not learn the game's end from the others' results.
    max_delay_minutes = models.PositiveIntegerField(_("maximum delay (minutes)"), default=90)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "tournaments_multiplex"
        verbose_name = _("multiplex")
        verbose_name_plural = _("multiplexes")

    def __str__(self) -> str:
        return f"multiplex {self.event}"


class Centre(models.Model):
    """A hall of a multiplex, known by the key its software sends (only its hash is
    kept: the key is shown once, when the centre is added)."""

    multiplex = models.ForeignKey(Multiplex, on_delete=models.CASCADE, related_name="centres")
    name = models.CharField(_("name"), max_length=120)
    #: The draw centre of a live multiplex: its racks and tops are everyone's.
    draws = models.BooleanField(_("draw centre"), default=False)
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    #: When the centre last sent its roster: its results may name only those players.
    roster_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "tournaments_centre"
        verbose_name = _("centre")
        verbose_name_plural = _("centres")
        ordering = ["multiplex", "name"]
        constraints = [
            models.UniqueConstraint(fields=["multiplex", "name"], name="one_centre_name_per_multiplex"),
            models.UniqueConstraint(
                fields=["multiplex"], condition=models.Q(draws=True), name="one_draw_centre_per_multiplex"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class HubGame(models.Model):
    """A game of a multiplex: when its first rack was drawn (the late centres' clock
    starts there) and how it ended."""

    multiplex = models.ForeignKey(Multiplex, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField(_("game"))
    started_at = models.DateTimeField()
    #: The end reason (solver.formats.record.END_REASONS) once the game has ended.
    end = models.CharField(max_length=20, blank=True)
    #: A no_move end: the rack that had no move ({"reliquat", "new", "rejected", "manual"}).
    final = models.JSONField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    #: A prepared game's key (Fernet): its rounds go to the centres ahead, encrypted with
    #: it, and it is given from the game's start (services/multiplex.py, sealed_game).
    seal_key = models.CharField(max_length=64, blank=True)

    class Meta:
        db_table = "tournaments_hubgame"
        ordering = ["multiplex", "number"]
        constraints = [
            models.UniqueConstraint(fields=["multiplex", "number"], name="one_hub_game_per_number")
        ]


class HubRound(models.Model):
    """A round of a multiplex game as the centres receive it: its rack from the moment it
    was drawn (the draw centre's draw, or the master game's at the agreed start), its top
    once placed."""

    multiplex = models.ForeignKey(Multiplex, on_delete=models.CASCADE, related_name="rounds")
    game = models.PositiveIntegerField(_("game"))
    number = models.PositiveIntegerField(_("round"))
    reliquat = models.CharField(max_length=8, blank=True)
    new_tiles = models.CharField(max_length=8)
    rejected = models.JSONField(default=list, blank=True)
    manual = models.BooleanField(default=False)
    drawn_at = models.DateTimeField()
    #: The placed move (GCG notation) and what the round's analysis found; empty until placed.
    played = models.CharField(max_length=40, blank=True)
    score = models.PositiveIntegerField(null=True, blank=True)
    moves = models.PositiveIntegerField(null=True, blank=True)
    top_score = models.PositiveIntegerField(null=True, blank=True)
    tops = models.JSONField(default=list, blank=True)
    board = models.TextField(blank=True)
    placed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "tournaments_hubround"
        verbose_name = _("multiplex round")
        verbose_name_plural = _("multiplex rounds")
        ordering = ["multiplex", "game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["multiplex", "game", "number"], name="one_hub_round_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.multiplex} game {self.game} round {self.number}"


class Serving(models.Model):
    """What a centre was given of a round, and when: the rack, its close (with the digest
    of its slips, which the results sent later must match), the top."""

    centre = models.ForeignKey(Centre, on_delete=models.CASCADE, related_name="servings")
    round = models.ForeignKey(HubRound, on_delete=models.CASCADE, related_name="servings")
    rack_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    slips_digest = models.CharField(max_length=64, blank=True)
    top_at = models.DateTimeField(null=True, blank=True)
    #: The centre's players taking part in the game so far (docs/rules.md#solos): the
    #: merged solo needs the multiplex's whole count.
    taking_part = models.PositiveIntegerField(default=0)
    results_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "tournaments_serving"
        ordering = ["round", "centre"]
        constraints = [
            models.UniqueConstraint(fields=["centre", "round"], name="one_serving_per_centre_round")
        ]


class CentrePlayer(models.Model):
    """A player of a centre, as its software numbers them (its table)."""

    centre = models.ForeignKey(Centre, on_delete=models.CASCADE, related_name="players")
    table = models.PositiveIntegerField(_("table"))
    name = models.CharField(_("name"), max_length=120)
    club = models.CharField(_("club"), max_length=120, blank=True)
    licence = models.CharField(_("licence number"), max_length=40, blank=True)
    category = models.CharField(_("category / series"), max_length=40, blank=True)
    #: Taken off the centre's roster by the centre (a roster update): no more results.
    left_at = models.DateTimeField(null=True, blank=True)
    #: Removed from the merged ranking by the hub's arbitrator, with the reason.
    removed_at = models.DateTimeField(null=True, blank=True)
    removed_reason = models.CharField(_("reason"), max_length=200, blank=True)

    class Meta:
        db_table = "tournaments_centreplayer"
        ordering = ["centre", "table"]
        constraints = [
            models.UniqueConstraint(fields=["centre", "table"], name="one_centre_player_per_table")
        ]

    def __str__(self) -> str:
        return f"{self.centre}: {self.table}. {self.name}"


class CentreRuling(models.Model):
    """A ruling as a centre sent it. ``credited`` is the centre's (its own solo included);
    the merged ranking gives the solo again over every centre (``merged_credited``)."""

    serving = models.ForeignKey(Serving, on_delete=models.CASCADE, related_name="rulings")
    player = models.ForeignKey(CentrePlayer, on_delete=models.CASCADE, related_name="rulings")
    reason = models.CharField(max_length=30, blank=True)
    move = models.CharField(max_length=40, blank=True)
    move_score = models.IntegerField(default=0)
    credited = models.IntegerField(default=0)
    penalty = models.PositiveIntegerField(default=0)
    warnings = models.PositiveSmallIntegerField(default=0)
    solo = models.BooleanField(default=False)
    is_top = models.BooleanField(default=False)
    letterpoints = models.PositiveIntegerField(default=0)
    overridden = models.BooleanField(default=False)
    merged_credited = models.IntegerField(default=0)
    merged_solo = models.BooleanField(default=False)
    received_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "tournaments_centreruling"
        ordering = ["serving", "player__table"]
        constraints = [
            models.UniqueConstraint(fields=["serving", "player"], name="one_centre_ruling_per_player_round")
        ]


# ------------------------------------------------------------------ a centre's side


class HubLink(models.Model):
    """The hub this event plays a multiplex with, as one of its centres: its racks and
    tops come from there (:class:`HubCopy`), its closes and results go there
    (:class:`HubOutbox`). The key is the centre's: kept, since every request sends it."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="hub_link")
    url = models.URLField(_("hub address"), max_length=300)
    key = models.CharField(_("centre key"), max_length=200)
    centre_name = models.CharField(_("centre"), max_length=120)
    #: The draw centre of a live multiplex: it draws its racks and publishes them (and its
    #: tops) instead of taking them from the hub.
    draws = models.BooleanField(_("draw centre"), default=False)
    multiplex_name = models.CharField(_("multiplex"), max_length=200)
    #: A prepared multiplex: its games are fetched ahead sealed (:class:`HubSealed`).
    prepared = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)
    #: The last answer from the hub, and the last failure to reach it (shown to the arbitrator).
    last_contact_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)
    #: One sync at a time (services/centre.py): held until then, or until it is released.
    sync_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "tournaments_hublink"
        verbose_name = _("link to a hub")
        verbose_name_plural = _("links to a hub")

    def __str__(self) -> str:
        return f"{self.event} -> {self.url}"


class HubSealed(models.Model):
    """A prepared game fetched ahead from the hub, encrypted: its rounds are copied
    (:class:`HubCopy`) once it is opened with the key, which the hub gives from the game's
    start (or the hub's arbitrator reads out to a centre that cannot reach it)."""

    link = models.ForeignKey(HubLink, on_delete=models.CASCADE, related_name="sealed")
    game = models.PositiveIntegerField(_("game"))
    starts_at = models.DateTimeField(_("agreed start"))
    token = models.TextField()
    fetched_at = models.DateTimeField()
    opened_at = models.DateTimeField(null=True, blank=True)
    #: When the hub gave this centre the key (its rounds then count as served to it).
    keyed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "tournaments_hubsealed"
        ordering = ["link", "game"]
        constraints = [models.UniqueConstraint(fields=["link", "game"], name="one_sealed_game_per_link")]

    def __str__(self) -> str:
        return f"{self.link} sealed game {self.game}"


class HubCopy(models.Model):
    """A round as the hub served it to this centre: the rack, and the top once given
    (``top``: played, score, moves, top_score, tops, board)."""

    link = models.ForeignKey(HubLink, on_delete=models.CASCADE, related_name="rounds")
    game = models.PositiveIntegerField(_("game"))
    number = models.PositiveIntegerField(_("round"))
    reliquat = models.CharField(max_length=8, blank=True)
    new_tiles = models.CharField(max_length=8)
    rejected = models.JSONField(default=list, blank=True)
    manual = models.BooleanField(default=False)
    top = models.JSONField(null=True, blank=True)
    #: How the game ended, on its last round once the hub says it has.
    game_end = models.CharField(max_length=20, blank=True)
    fetched_at = models.DateTimeField()

    class Meta:
        db_table = "tournaments_hubcopy"
        ordering = ["link", "game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["link", "game", "number"], name="one_hub_copy_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.link} game {self.game} round {self.number}"


class HubOutbox(models.Model):
    """What this centre sends the hub, kept until the hub acknowledges it, in the order
    queued: a round's close (its slips' digest) and its results; the draw centre's draws,
    tops and ends of game. A change before sending replaces the payload; a change after (a
    correction) queues it again."""

    class Kind(models.TextChoices):
        CLOSE = "close", _("close")
        RESULTS = "results", _("results")
        #: The draw centre's publications.
        DRAW = "draw", _("draw")
        TOP = "top", _("top")
        END = "end", _("end of game")
        #: The centre's players (its results may name only them): sent before anything else.
        ROSTER = "roster", _("roster")

    link = models.ForeignKey(HubLink, on_delete=models.CASCADE, related_name="outbox")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    game = models.PositiveIntegerField(_("game"))
    number = models.PositiveIntegerField(_("round"))
    payload = models.JSONField()
    #: SHA-256 of the payload: results are queued again only when they change.
    digest = models.CharField(max_length=64)
    queued_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        db_table = "tournaments_huboutbox"
        ordering = ["link", "game", "number", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["link", "kind", "game", "number"], name="one_outbox_per_round_kind"
            )
        ]

    def __str__(self) -> str:
        return f"{self.link} {self.kind} {self.game}.{self.number}"
