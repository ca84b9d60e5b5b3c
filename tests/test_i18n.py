"""French first, English alongside: both catalogues complete, compiled and up to date with
the source; pages, refusals and numbers in the visitor's language.

After a change to a message (a ``gettext`` call, a ``{% translate %}`` or
``{% blocktranslate %}``), the catalogue tests below fail until the catalogues follow:

    python manage.py makemessages -l fr -l en --ignore=.venv --ignore=venv --ignore=build \\
        --ignore=tests --ignore=var --ignore=mutants --add-location=file
    # translate the new entries of locale/fr/LC_MESSAGES/django.po; in the English
    # catalogue the msgstr repeats the msgid
    python manage.py compilemessages --ignore=.venv --ignore=venv

The .mo files are committed: a fresh install runs without gettext. The tests that need
gettext (msgfmt, xgettext) skip without it on a developer's machine and fail in CI.
"""

from __future__ import annotations

import ast
import datetime as dt
import gettext
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.utils import translation

from scoring.standings import PlayerInfo, RoundResult, standings
from tournaments.core import ApplicationError
from tournaments.models import Event, Lexicon
from tournaments.services.events import event_create
from tournaments.services.players import player_add

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGUAGES = ("fr", "en")
#: As in the makemessages command above (and in the catalogues' header comment).
IGNORED = (".venv", "venv", "build", "tests", "var", "mutants")
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


# --------------------------------------------------------------------------- a small .po reader


@dataclass
class Entry:
    msgid: str | None = None
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)

    @property
    def key(self) -> tuple[str | None, str | None, str | None]:
        return (self.msgctxt, self.msgid, self.msgid_plural)


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file, header first; obsolete (``#~``) entries are left out."""
    entries: list[Entry] = []
    entry, keyword = Entry(), ""
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if entry.msgid is not None:
                entries.append(entry)
            entry, keyword = Entry(), ""
        elif line.startswith("#,"):
            entry.flags |= {flag.strip() for flag in line[2:].split(",")}
        elif not line.startswith("#"):
            quoted = line
            if not line.startswith('"'):
                keyword, _, quoted = line.partition(" ")
            text = ast.literal_eval(quoted)
            plural_form = re.fullmatch(r"msgstr(?:\[(\d+)\])?", keyword)
            if plural_form:
                index = int(plural_form[1] or 0)
                entry.msgstr[index] = entry.msgstr.get(index, "") + text
            else:
                setattr(entry, keyword, (getattr(entry, keyword) or "") + text)
    return entries


def catalogue(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / "django.po"


def need(tool: str) -> str:
    """The path of a gettext tool; a skip without it, except in CI where it is installed."""
    found = shutil.which(tool)
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{tool} is missing: .ci/run installs gettext")
        pytest.skip(f"{tool} is missing: apt-get install gettext")
    return found


# --------------------------------------------------------------------------- the catalogues


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_of_the_catalogue_is_translated_and_none_is_fuzzy(language: str) -> None:
    header, *entries = read_po(catalogue(language))
    assert header.msgid == "" and "fuzzy" not in header.flags
    assert f"Language: {language}\n" in header.msgstr[0]
    plural_rule = "plural=(n > 1);" if language == "fr" else "plural=(n != 1);"
    assert f"Plural-Forms: nplurals=2; {plural_rule}\n" in header.msgstr[0]
    problems = []
    for entry in entries:
        forms = 2 if entry.msgid_plural is not None else 1
        wanted = set(PLACEHOLDER.findall(f"{entry.msgid}{entry.msgid_plural or ''}"))
        if "fuzzy" in entry.flags:
            problems.append(f"fuzzy: {entry.msgid!r}")
        elif sorted(entry.msgstr) != list(range(forms)) or not all(entry.msgstr.values()):
            problems.append(f"not translated: {entry.msgid!r}")
        elif any(set(PLACEHOLDER.findall(text)) != wanted for text in entry.msgstr.values()):
            problems.append(f"placeholders differ: {entry.msgid!r} -> {entry.msgstr}")
    assert not problems, "\n".join(problems)
    assert len(entries) > 300  # the whole interface, not a stub


def test_french_sets_its_high_punctuation_off_with_a_no_break_space() -> None:
    """Issue 29, item 13: "Résultat du coup: Top" on a French page; and a plain space
    before a colon lets the line break between the word and its colon."""
    _header, *entries = read_po(catalogue("fr"))
    loose = re.compile(r"(?<=\S)[:;?!](?=\s|$)|(?<=\S) [:;?!]")
    problems = [
        text
        for entry in entries
        for text in entry.msgstr.values()
        if loose.search(re.sub(r"\d:\d", "", text))
    ]
    assert not problems, "\n".join(problems[:20])


def test_no_page_writes_a_colon_of_one_language_between_two_values() -> None:
    """A colon typed in a template is one language's: " : " read "Received at 00:58:06 :"
    in English. The pages say it through {% colon %} (rooms/templatetags/arbiter.py)."""
    written = re.compile(r"(?:}}|%}|</\w+>) ?: ")
    translated = re.compile(r"{% blocktranslate.*?{% endblocktranslate %}|{% translate .*?%}", re.S)
    problems = [
        f"{path.relative_to(settings.BASE_DIR)}: {match.group(0)!r}"
        for path in (Path(settings.BASE_DIR) / "templates").rglob("*.html")
        for match in written.finditer(translated.sub("", path.read_text("utf-8")))
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.django_db
def test_the_colon_tag_follows_the_page_language() -> None:
    from django.template import engines

    template = engines["django"].from_string("{% load arbiter %}Reçu{% colon %} x")
    with translation.override("fr"):
        assert template.render() == "Reçu\u00a0: x"
    with translation.override("en"):
        assert template.render() == "Reçu: x"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogue_is_the_compiled_source(language: str, tmp_path: Path) -> None:
    msgfmt = need("msgfmt")
    source = catalogue(language)
    compiled = tmp_path / "django.mo"
    # The options compilemessages uses: placeholders are checked against the msgid.
    run = subprocess.run(
        [msgfmt, "--check-format", "-o", compiled, source], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    committed = source.with_suffix(".mo")
    assert committed.exists(), f"{committed} is missing: run compilemessages"
    if committed.read_bytes() == compiled.read_bytes():
        return
    # Another gettext version may lay out the same catalogue differently: compare contents.
    with committed.open("rb") as ours, compiled.open("rb") as fresh:
        stale = gettext.GNUTranslations(ours)._catalog != gettext.GNUTranslations(fresh)._catalog
    assert not stale, f"{committed} is older than {source.name}: run compilemessages"


def _source_copy(destination: Path) -> Path:
    """The files makemessages reads (.py, .html, .txt), copied without the ignored folders,
    so that the extraction below writes nothing in the project."""

    def skipped(folder: str, names: list[str]) -> list[str]:
        return [
            name
            for name in names
            if name.startswith(".")
            or name in IGNORED
            or name == "locale"
            or (not Path(folder, name).is_dir() and not name.endswith((".py", ".html", ".txt")))
        ]

    shutil.copytree(settings.BASE_DIR, destination, ignore=skipped)
    return destination


def test_the_catalogues_hold_every_message_of_the_source_and_no_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """makemessages run on a copy of the source: its catalogue has the same entries as the
    committed ones. A new {% translate %} without its translation fails here."""
    need("xgettext")
    need("msgmerge")
    source = _source_copy(tmp_path / "source")
    monkeypatch.chdir(source)
    with override_settings(LOCALE_PATHS=[str(source / "locale")]):
        call_command(
            "makemessages", locale=["fr"], ignore_patterns=list(IGNORED), add_location="file", verbosity=0
        )
    extracted = {e.key for e in read_po(source / "locale" / "fr" / "LC_MESSAGES" / "django.po")[1:]}
    for language in LANGUAGES:
        committed = {e.key for e in read_po(catalogue(language))[1:]}
        missing = sorted(k[1] for k in extracted - committed)
        stale = sorted(k[1] for k in committed - extracted)
        assert not missing and not stale, (
            f"locale/{language} is behind the source: run makemessages and translate (this module's "
            f"docstring).\nnot in the catalogue: {missing}\nno longer in the source: {stale}"
        )


# --------------------------------------------------------------------------- what people see


@pytest.mark.django_db
def test_pages_are_french_by_default_and_english_on_request() -> None:
    french = Client().get("/").content.decode()
    assert '<html lang="fr">' in french and "Rejoindre un tournoi" in french and "Join an event" not in french

    asked = Client(HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.8").get("/").content.decode()
    assert '<html lang="en">' in asked and "Join an event" in asked and "Rejoindre un tournoi" not in asked

    chosen = Client(HTTP_ACCEPT_LANGUAGE="fr")
    chosen.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "Join an event" in chosen.get("/").content.decode()


@pytest.mark.django_db
def test_the_language_buttons_switch_the_pages() -> None:
    client = Client()
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert "Join an event" in client.get("/").content.decode()
    client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    assert "Rejoindre un tournoi" in client.get("/").content.decode()


def test_the_standings_write_numbers_the_way_of_each_language() -> None:
    anne = PlayerInfo(id=1, name="Anne", table=1)
    result = RoundResult(
        player=1, game=1, round=1, credited=1, is_top=False, solo=False, warnings=0, penalty=0, letterpoints=1
    )
    rows = standings([result], [anne], top_total=8)
    assert str(rows[0].percent) == "12.50"
    with translation.override("fr"):
        french = render_to_string("_standings.html", {"rows": rows})
    with translation.override("en"):
        english = render_to_string("_standings.html", {"rows": rows})
    assert "<td>12,50</td>" in french and "Négatif" in french
    assert "<td>12.50</td>" in english and "To the top" in english


def test_a_refusal_is_in_the_language_of_the_person_who_asked() -> None:
    event = Event(name="Club", starts_on=dt.date(2026, 11, 21))
    with translation.override("fr"), pytest.raises(ApplicationError) as refused:
        player_add(event=event, name=" ")
    assert refused.value.message == "un joueur doit avoir un nom"
    with translation.override("en"), pytest.raises(ApplicationError) as refused:
        player_add(event=event, name=" ")
    assert refused.value.message == "a player needs a name"
    # Placeholders are filled in after the translation, French punctuation included.
    with translation.override("fr"), pytest.raises(ApplicationError) as refused:
        event_create(name="Club", starts_on=event.starts_on, lexicon=Lexicon(), colour="red")
    assert refused.value.message == "paramètres de tournoi inconnus\u00a0: colour"
