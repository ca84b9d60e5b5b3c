"""The forms of the pages. They check the shape of what is typed; the services decide."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _

from plumbing import logins
from tournaments.core import EVENT_SETTINGS, LIVE_SETTINGS, MAX_ANNOUNCED, ApplicationError
from tournaments.models import Event, Lexicon
from tournaments.services.lexicons import lexicon_size_check

#: One help line per setting, with its default (docs/rules.md#event-settings) where it has one.
EVENT_HELP = {
    "name": _("As printed on the result sheets."),
    "starts_on": _("First day of the event."),
    "ends_on": _("Optional: last day, for events over several days."),
    "language": _("The tile set: French (102 tiles on 15×15) or English (100)."),
    "board": _("Standard 15×15 with racks of 7; the larger boards (19×19, 21×21) use racks of 8."),
    "smooth": _(
        "21×21 boards only: on (default), the letter counts are evened out; off, exactly twice"
        " the tiles of the 15×15 set."
    ),
    "notation": _("How squares are named on the boards, the slips and the sheets. FISF: H4 across, 4H down."),
    "mode": _("Tournament: validity is learnt at the close. Training modes check words at submission."),
    "random_seed": _(
        "The racks follow from this number: the same number draws the same racks again (to replay"
        " an event, or to give another club the same game)."
    ),
    "round_seconds": _("Default 180 s (3 minutes); may change between rounds."),
    "bingo_bonus": _("Default 50 for using the whole rack."),
    "first_move_horizontal": _("Default on: the first word of a duplicate game lies across."),
    "y_counts_as": _(
        "For the vowel/consonant minimums. Default: both (it counts as whichever the rack needs, once)."
    ),
    "early_rounds": _("Default 15: rounds 1-15 need the early minimums, then the later ones."),
    "early_vowels": _("Default 2 vowels in each rack of the early rounds."),
    "early_consonants": _("Default 2 consonants in each rack of the early rounds."),
    "late_vowels": _("Default 1 vowel from the round after the early rounds."),
    "late_consonants": _("Default 1 consonant from the round after the early rounds."),
    "score_policy": _("FISF (default): a wrong or missing score is a warning, the real score counts."),
    "free_warnings": _("Default 3 warnings free of charge in a game."),
    "warning_penalty": _("Default 5 points for each warning beyond the free ones."),
    "shift_penalty": _("Default 5 points when the arbitrator accepts a shifted reference."),
    "solo_bonus": _("Default 10 points for the only player who found the top."),
    "solo_min_players": _("Default 16: no solo bonus in a smaller game."),
    "unmarked_blank_warning": _("Default on: a warning when a blank is not marked on the slip."),
    "first_slip_best_placement": _(
        "Default on (FISF): the first slip needs only the word, paid at its best placement."
    ),
    "reference_rule": _(
        "FISF 2016 (default): a wrong or missing reference costs 5 points when the score matches."
    ),
    "raccord": _("Default on (FISF): a slip may locate its word by the letters it joins on the board."),
    "misplaced_blank_warning": _(
        "Default on (FISF): a blank circled on the wrong letter is a warning, not 0."
    ),
    "blank_reading": _("Default (FISF): an unmarked blank is read as the announced score says."),
    "single_warning": _("Default on (FISF): one warning at most for a slip, none beside a 5-point penalty."),
    "omitted_last_letter": _(
        "Default on (FISF 2016): the word's last letter, on the board, left out costs 5 points;"
        " off: 0 (FISF 2023)."
    ),
    "solo_below_top": _(
        "Default on (FISF): the solo goes to the one best score of the round, even below the top."
    ),
    "several_slips_void": _("Default on (FISF): a player who hands in two slips for a round scores 0."),
    "phone_replace": _("Default on: a phone may send a new slip until the deadline; the last one counts."),
    "publish_at_close": _(
        "Default off (FISF practice): the players see the top and their rulings once you have reviewed"
        " them (Publish, or Place). On: at the close, unreviewed (training)."
    ),
    "solo_players": _(
        "Default (FISF 3.5, the players of the game): those registered when the game began, the same"
        " number for every round."
    ),
    "early_fallback": _(
        "Default on (FISF): when the bag cannot give the early minimums, racks need 1 vowel and 1 consonant."
    ),
    "hall_language": _(
        "Default French: the projector's screens, the exported files and the printed sheets. Each phone"
        " follows its player's choice."
    ),
    "seating": _(
        "Default: the seat code of the table card (print the cards on the players page); the event"
        " code on the projector takes no table by itself. Or also a table number or name, which you"
        " confirm on the players page."
    ),
    "tie_break": _(
        "Default (FISF): equal totals are parted by the last game's score, then by its rounds from the"
        " last backwards; or they share the rank; or the player with fewer letter points (the values of"
        " the tiles they placed) ranks first."
    ),
}

BUNDLED = (
    ("bundled:french", _("French (bundled list)")),
    ("bundled:enable", _("English, ENABLE (bundled list)")),
)


def _lexicon_label(lexicon: Lexicon) -> str:
    if lexicon.state == Lexicon.State.IMPORTING:
        return _("%(name)s (being imported)") % {"name": lexicon.name}
    if lexicon.state == Lexicon.State.FAILED:
        return _("%(name)s (import failed)") % {"name": lexicon.name}
    return lexicon.name


def lexicon_choices() -> list[tuple[str, Any]]:
    # Not the lists' content: megabytes each, for a menu of names.
    listed = Lexicon.objects.filter(bundled="").only("pk", "name", "state").order_by("name")
    return [*BUNDLED, *((f"id:{lx.pk}", _lexicon_label(lx)) for lx in listed)]


class DayInput(forms.DateInput):
    """A browser's date picker. Its value is always ISO (``2026-11-23``), whatever the
    page's language: the French format (``23/11/2026``) is refused by the picker, which
    then showed an empty date and blocked *Create*."""

    input_type = "date"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%d")


class EventForm(forms.ModelForm[Event]):
    lexicon_choice = forms.ChoiceField(
        label=_("Word list"),
        help_text=_("Bundled French or English list, or a list imported below."),
    )
    word_list = forms.FileField(
        label=_("Import a word list"),
        required=False,
        help_text=_(
            "Optional: a text file, one word a line (case, accents and punctuation handled), imported"
            " by the worker in the background: its progress shows on the event's pages."
        ),
    )

    class Meta:
        model = Event
        fields = ["name", "starts_on", *EVENT_SETTINGS]
        help_texts = EVENT_HELP
        widgets = {
            "starts_on": DayInput(),
            "ends_on": DayInput(),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["lexicon_choice"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = lexicon_choices()
        lexicon = self.instance.lexicon if self.instance.pk else None
        if lexicon is not None:
            self.initial["lexicon_choice"] = (
                f"bundled:{lexicon.bundled}" if lexicon.bundled else f"id:{lexicon.pk}"
            )
        self.fields["name"].help_text = EVENT_HELP["name"]

    def clean_word_list(self) -> Any:
        """A list too large is refused before it is read (Django keeps an upload this large
        in a temporary file, not in memory)."""
        upload = self.cleaned_data.get("word_list")
        if upload is not None:
            try:
                lexicon_size_check(size=upload.size or 0, name=upload.name or "")
            except ApplicationError as exc:
                raise forms.ValidationError(exc.message) from exc
        return upload

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind, _sep, value = str(data.get("lexicon_choice", "")).partition(":")
        if kind == "id" and not data.get("word_list") and "lexicon_choice" not in self.errors:
            failed = Lexicon.objects.filter(pk=int(value), state=Lexicon.State.FAILED).only("name").first()
            if failed is not None:
                self.add_error(
                    "lexicon_choice",
                    _("The word list %(name)s could not be imported: choose another, or import it again.")
                    % {"name": failed.name},
                )
        return data

    def lock(self) -> None:
        """A game has started: what can no longer change is shown, not offered (a disabled
        field keeps its value whatever is posted, so the save cannot be refused for it)."""
        for name, field in self.fields.items():
            if name not in LIVE_SETTINGS:
                field.disabled = True

    def settings(self) -> dict[str, Any]:
        """The cleaned settings, without the name, first day and word list."""
        data = dict(self.cleaned_data)
        for key in ("name", "starts_on", "lexicon_choice", "word_list"):
            data.pop(key, None)
        return data


class MasterImportForm(forms.ModelForm[Event]):
    """A new event replaying a game record: the board, tiles and draw rules come from the
    record, the rest is chosen here (the other settings keep their defaults and may be
    changed on the settings page before the game starts)."""

    record = forms.FileField(
        label=_("Game record (JSON)"),
        help_text=_("Exported from Arbiter (Sheets page) or written by python -m solver play --out."),
    )
    restore = forms.BooleanField(
        label=_("Restore the game with its players and slips"),
        required=False,
        help_text=_(
            "Off: a master game, played again by the players of this event. On: the game as it was"
            " (players, slips, corrections, rulings, standings, with the notation and rules it was"
            " ruled with), to go on with it or keep it."
        ),
    )

    class Meta:
        model = Event
        fields = ["name", "starts_on", "notation", "mode", "round_seconds"]
        help_texts = EVENT_HELP
        widgets = {"starts_on": DayInput()}

    def settings(self) -> dict[str, Any]:
        return {key: self.cleaned_data[key] for key in ("notation", "mode", "round_seconds")}


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    licence = forms.CharField(label=_("Licence number"), max_length=40, required=False)
    category = forms.CharField(label=_("Category / series"), max_length=40, required=False)
    table = forms.IntegerField(
        label=_("Table"), min_value=1, required=False, help_text=_("Empty: the next free table.")
    )
    paper_only = forms.BooleanField(
        label=_("Paper slips only"),
        required=False,
        help_text=_("No phone may take the table: the player hands in paper slips."),
    )


class PlayersImportForm(forms.Form):
    csv_file = forms.FileField(
        label=_("CSV file"),
        required=False,
        help_text=_(
            "A header row with name (required), club, licence, category, table, paper (yes: paper"
            " slips only); or in French nom, club, licence, catégorie (or série), table, papier (oui)."
        ),
    )
    csv_text = forms.CharField(
        label=_("or paste the CSV"), widget=forms.Textarea(attrs={"rows": 5}), required=False
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("csv_file")
        if upload is not None:
            raw = upload.read()
            try:
                data["text"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                data["text"] = raw.decode("cp1252", errors="replace")
        else:
            data["text"] = data.get("csv_text") or ""
        if not data["text"].strip():
            raise forms.ValidationError(_("Choose a CSV file or paste its lines."))
        return data


class DrawForm(forms.Form):
    typed = forms.CharField(
        label=_("Rack drawn by hand"),
        max_length=20,
        required=False,
        help_text=_("Empty: a random draw. Otherwise the whole rack, reliquat included; ? for a blank."),
    )


class OpenForm(forms.Form):
    seconds = forms.IntegerField(label=_("Seconds"), min_value=10, max_value=3600, required=False)


class SlipForm(forms.Form):
    """A paper slip typed by the arbitrator, or a slip typed on a phone."""

    table = forms.IntegerField(label=_("Table"), min_value=1)
    coordinates = forms.CharField(label=_("Coordinates"), max_length=20, required=False)
    word = forms.CharField(label=_("Word"), max_length=40, required=False)
    announced_score = forms.IntegerField(
        label=_("Score"), min_value=0, max_value=MAX_ANNOUNCED, required=False
    )
    #: For a table typed again (docs/rules.md#slips); asked when the service needs it.
    second = forms.ChoiceField(
        label=_("This table already has a slip"),
        choices=[
            ("correction", _("it corrects a typing mistake: replace the first")),
            ("second", _("the player handed in a second slip: the round is void")),
        ],
        required=False,
        widget=forms.RadioSelect,
    )


class TopForm(forms.Form):
    move = forms.CharField(label=_("Move"), max_length=60)
    confirm_lower = forms.BooleanField(
        label=_("Place it although it scores less than the top"), required=False
    )


class OverrideForm(forms.Form):
    credited = forms.IntegerField(label=_("Points credited"))
    warnings = forms.IntegerField(label=_("Warnings"), min_value=0, required=False)
    penalty = forms.IntegerField(label=_("Penalty"), min_value=0, required=False)
    reason = forms.CharField(label=_("Reason (kept in the history)"), max_length=500)


class SlipReadForm(forms.Form):
    """The slip as it should have been read, ruled again (a typing mistake, a misread word)."""

    coordinates = forms.CharField(label=_("Coordinates"), max_length=20, required=False)
    word = forms.CharField(label=_("Word"), max_length=40, required=False)
    announced_score = forms.IntegerField(
        label=_("Score"), min_value=0, max_value=MAX_ANNOUNCED, required=False
    )
    reason = forms.CharField(label=_("Reason (kept in the history)"), max_length=500)


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason (kept in the history)"), max_length=500)


class JoinForm(forms.Form):
    code = forms.CharField(label=_("Event code"), max_length=20)
    who = forms.CharField(
        label=_("Seat code"),
        max_length=120,
        help_text=_(
            "The code printed on your table card. Where the arbitrator confirms joins, your"
            " table number or your name also works."
        ),
    )


#: The id of the login page's refusal (templates/registration/login.html).
LOGIN_ERROR_ID = "login-error"


class LoginForm(AuthenticationForm):
    """The login page's form: says why a login is refused while the login limit holds
    (plumbing/logins.py), before any password is checked."""

    error_messages = {**AuthenticationForm.error_messages, "locked": logins.LOCKED_OUT}

    def clean(self) -> dict[str, Any]:
        try:
            username = self.cleaned_data.get("username")
            if username and self.request is not None and logins.locked(self.request, username):
                minutes = {"minutes": logins.wait_minutes(self.request)}
                raise forms.ValidationError(self.error_messages["locked"], code="locked", params=minutes)
            return super().clean()
        except forms.ValidationError:
            # A refusal of the pair, not of one field: both are marked invalid and read with
            # the message (the template gives it this id), as a field's own error is.
            for field in self.fields.values():
                field.widget.attrs.update({"aria-invalid": "true", "aria-describedby": LOGIN_ERROR_ID})
            raise
