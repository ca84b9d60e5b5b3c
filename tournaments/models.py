"""Events, players, games, rounds, slips, rulings, lexicons and the change history.

The database rows are the source of truth: the board, the bag and the reliquat of a game
are rebuilt from its rounds by :mod:`tournaments.state` (a few milliseconds), never kept
twice. Every rule setting (docs/rules.md#event-settings) is a field of :class:`Event`, with
its default, so that printed sheets can show the rules an event was played under.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any, Protocol

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from solver.boards import LAYOUT_NAMES, has_nosmooth, layout
from solver.tiles import rack_size

#: The boards' names in the reader's language (the solver and the terminal know them by
#: these keys, after the Scramble help).
BOARD_NAMES = {
    "standard": pgettext_lazy("board", "standard"),
    "large": pgettext_lazy("board", "large"),
    "broad": pgettext_lazy("board", "broad"),
    "grand": pgettext_lazy("board", "grand"),
}


def board_choice(name: str) -> Promise:
    """A board as people choose it: its name, its size and its rack ("standard 15×15, racks of 7")."""
    size = layout(name).size
    return format_lazy(
        _("{name} {size}×{size}, racks of {rack}"),
        name=BOARD_NAMES.get(name, name),
        size=size,
        rack=rack_size(size),
    )


def _join_code() -> str:
    # No 0/O or 1/I: the code is read from a projector and typed on a phone.
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(6))


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


def _seed() -> int:
    return secrets.randbelow(2**31)


class Lexicon(models.Model):
    """A word list: one of the lists shipped with the solver, or one imported by a user.

    An imported list is kept in the database (gzipped), so that a worker on another
    machine compiles the same words; its SHA-256 identifies it everywhere.
    """

    class State(models.TextChoices):
        IMPORTING = "importing", _("being imported")
        READY = "ready", _("ready")
        FAILED = "failed", _("import failed")

    name = models.CharField(_("name"), max_length=100, unique=True)
    language = models.CharField(
        _("language"), max_length=2, choices=[("fr", _("French")), ("en", _("English"))]
    )
    bundled = models.CharField(_("bundled list"), max_length=20, blank=True, help_text=_("enable or french"))
    content = models.BinaryField(_("word list (gzip)"), blank=True, default=b"")
    source_name = models.CharField(_("source file"), max_length=255, blank=True)
    word_count = models.PositiveIntegerField(_("words"), default=0)
    checksum = models.CharField(_("SHA-256"), max_length=64)
    report = models.JSONField(_("import report"), default=dict, blank=True)
    #: An uploaded list is compiled by a worker: the row exists (an event may name it)
    #: from the upload; no game starts on it until it is ready.
    state = models.CharField(max_length=10, choices=State.choices, default=State.READY)
    #: Per cent of the words compiled, while importing.
    progress = models.PositiveSmallIntegerField(default=100)
    #: Why the import failed (in the importer's words), once failed.
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("lexicon")
        verbose_name_plural = _("lexicons")

    def __str__(self) -> str:
        return f"{self.name} ({self.word_count})"


class Event(models.Model):
    class Language(models.TextChoices):
        FRENCH = "french", _("French")
        ENGLISH = "english", _("English")

    class Notation(models.TextChoices):
        FISF = "fisf", _("FISF (H4 horizontal, 4H vertical)")
        GCG = "gcg", _("GCG (8D across, D8 down)")
        SCRAMBLE = "scramble", _("Scramble (h8,a,word)")

    class Mode(models.TextChoices):
        TOURNAMENT = "tournament", _("tournament: validity learnt at the close")
        STRICT = "strict", _("strict training: invalid words refused at submission")
        NOSTRICT = "nostrict", _("open training: accepted, invalid words flagged")

    class ScorePolicy(models.TextChoices):
        FISF = "fisf", _("wrong or missing score: warning, the real score is credited")
        ENGLISH = "english", _("lower score credited as written, a higher one loses twice the excess")

    class YCountsAs(models.TextChoices):
        BOTH = "both", _("both")
        VOWEL = "vowel", _("vowel")
        CONSONANT = "consonant", _("consonant")

    class ReferenceRule(models.TextChoices):
        FISF2016 = "fisf2016", _("FISF 2016: the score less 5 when the announced score matches a placement")
        NEARBY = "nearby", _("the arbitrator may accept the only placement near the written one")

    class BlankReading(models.TextChoices):
        ANNOUNCED = "announced", _("the reading of the announced score, else the lowest (FISF)")
        LAST = "last", _("the reading of the announced score, else the last occurrences (Scramble)")
        BEST = "best", _("the highest-scoring reading")

    class SoloPlayers(models.TextChoices):
        GAME = "game", _("the players of the game (registered when it began)")
        TAKING_PART = "taking_part", _("players who handed in a slip in the game so far")
        REGISTERED = "registered", _("every registered player")

    class Seating(models.TextChoices):
        CARD = "card", _("the seat code on the table card only")
        CONFIRM = "confirm", _("the seat code, or the table or name confirmed by the arbitrator")

    class TieBreak(models.TextChoices):
        FISF = "fisf", _("the last game, then its rounds from the last backwards (FISF)")
        SHARED = "shared", _("shared rank")
        LETTERPOINTS = "letterpoints", _("fewer letter points first")

    name = models.CharField(_("name"), max_length=200)
    starts_on = models.DateField(_("first day"))
    ends_on = models.DateField(_("last day"), null=True, blank=True)
    code = models.CharField(_("join code"), max_length=6, unique=True, default=_join_code)
    language = models.CharField(_("tiles"), max_length=10, choices=Language.choices, default=Language.FRENCH)
    # The solver's list of boards (a board is a drawing and a name there).
    board = models.CharField(
        _("board"),
        max_length=10,
        choices=[(n, board_choice(n)) for n in LAYOUT_NAMES],
        default=LAYOUT_NAMES[0],
    )
    smooth = models.BooleanField(_("evened-out letters on 21×21"), default=True)
    lexicon = models.ForeignKey(
        Lexicon, on_delete=models.PROTECT, related_name="events", verbose_name=_("lexicon")
    )
    notation = models.CharField(_("notation"), max_length=10, choices=Notation.choices, default=Notation.FISF)
    mode = models.CharField(_("adjudication"), max_length=12, choices=Mode.choices, default=Mode.TOURNAMENT)
    random_seed = models.BigIntegerField(_("draw number"), default=_seed)
    round_seconds = models.PositiveIntegerField(_("time per round (s)"), default=180)
    # Rules (docs/rules.md#event-settings): each a setting, with the default listed there.
    bingo_bonus = models.PositiveIntegerField(_("bonus for the whole rack"), default=50)
    first_move_horizontal = models.BooleanField(_("first move horizontal"), default=True)
    y_counts_as = models.CharField(
        _("Y counts as"), max_length=10, choices=YCountsAs.choices, default=YCountsAs.BOTH
    )
    early_rounds = models.PositiveIntegerField(_("rounds with the early minimums"), default=15)
    early_vowels = models.PositiveIntegerField(_("vowels, early rounds"), default=2)
    early_consonants = models.PositiveIntegerField(_("consonants, early rounds"), default=2)
    late_vowels = models.PositiveIntegerField(_("vowels, later rounds"), default=1)
    late_consonants = models.PositiveIntegerField(_("consonants, later rounds"), default=1)
    score_policy = models.CharField(
        _("announced score"), max_length=10, choices=ScorePolicy.choices, default=ScorePolicy.FISF
    )
    free_warnings = models.PositiveIntegerField(_("warnings before penalties"), default=3)
    warning_penalty = models.PositiveIntegerField(_("penalty per further warning"), default=5)
    shift_penalty = models.PositiveIntegerField(_("penalty for a shifted reference"), default=5)
    solo_bonus = models.PositiveIntegerField(_("solo bonus"), default=10)
    solo_min_players = models.PositiveIntegerField(_("players needed for a solo"), default=16)
    unmarked_blank_warning = models.BooleanField(_("warning for an unmarked blank"), default=True)
    # The rulings of docs/rules.md#adjudication where the FISF and other practice differ;
    # each defaults to the FISF practice.
    first_slip_best_placement = models.BooleanField(
        _("first round: the word at its best placement"), default=True
    )
    reference_rule = models.CharField(
        _("wrong or missing reference"),
        max_length=10,
        choices=ReferenceRule.choices,
        default=ReferenceRule.FISF2016,
    )
    raccord = models.BooleanField(_("reference by raccord"), default=True)
    misplaced_blank_warning = models.BooleanField(
        _("blank marked on the wrong letter: warning"), default=True
    )
    blank_reading = models.CharField(
        _("unmarked blank"), max_length=10, choices=BlankReading.choices, default=BlankReading.ANNOUNCED
    )
    several_slips_void = models.BooleanField(_("several slips for one round are void"), default=True)
    single_warning = models.BooleanField(
        _("at most one warning for a slip, none beside a penalty"), default=True
    )
    omitted_last_letter = models.BooleanField(
        _("last letter of the board left out: the score less the penalty"), default=True
    )
    solo_below_top = models.BooleanField(_("solo for the one best score, even below the top"), default=True)
    phone_replace = models.BooleanField(_("phones may replace their slip until the deadline"), default=True)
    #: Off (FISF practice): the phones and the projector show a round's top and rulings once
    #: the arbitrator has reviewed them (published or placed); on, at the close (training).
    publish_at_close = models.BooleanField(_("results shown at the close, before review"), default=False)
    solo_players = models.CharField(
        _("players counted for the solo"),
        max_length=12,
        choices=SoloPlayers.choices,
        default=SoloPlayers.GAME,
    )
    early_fallback = models.BooleanField(
        _("early rounds: 1 vowel and 1 consonant when 2 and 2 cannot be drawn"), default=True
    )
    tie_break = models.CharField(
        _("tie-break"), max_length=12, choices=TieBreak.choices, default=TieBreak.FISF
    )
    #: The hall's screens speak the event's language, not the arbitrator's session's; the
    #: exports and sheets write it too. A phone follows its player's choice.
    hall_language = models.CharField(
        _("language of the projector and the exports"),
        max_length=2,
        choices=[("fr", "Français"), ("en", "English")],
        default="fr",
    )
    #: How a phone takes a table (docs/rules.md#phones): the event code is on the
    #: projector, so it alone proves nothing; a seat code is on the player's table card.
    seating = models.CharField(
        _("phones join with"), max_length=10, choices=Seating.choices, default=Seating.CARD
    )
    #: Game records to replay (Eliot's "master games"), game 1 first: each game started
    #: takes its racks and placed moves from its record (see services.transfer.event_import).
    masters = models.JSONField(_("master games"), default=list, blank=True)
    #: The app that plays this event together with others (tournaments.linked), "" on its
    #: own: the rounds' services ask that app only then.
    linked_by = models.CharField(max_length=30, blank=True, default="", editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-starts_on", "name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.board not in LAYOUT_NAMES:
            raise ValidationError({"board": _("unknown board")})
        if not self.smooth and not has_nosmooth(self.board):
            raise ValidationError({"smooth": _("the exact doubled tile set exists only on 21x21 boards")})


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
