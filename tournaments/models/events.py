"""An event and its settings: every rule setting (docs/rules.md#event-settings) is a field
with its default, so that printed sheets can show the rules an event was played under; the
boards as people choose them."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from solver.boards import LAYOUT_NAMES, has_nosmooth, layout
from solver.tiles import rack_size
from tournaments.models.lexicons import Lexicon

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


def _seed() -> int:
    return secrets.randbelow(2**31)


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
