"""Word lists (tournaments.services.lexicons): the bundled ones registered once, a user's
list compiled before it is kept, or kept at once and compiled by the worker; none above
the size limit."""

from __future__ import annotations

import gzip
import hashlib
import secrets
from typing import Any

import pytest
from django.db import transaction
from django.utils import translation

from solver import lexicon as lexmod
from tournaments import queue
from tournaments.core import ApplicationError
from tournaments.models import Event, Lexicon
from tournaments.services import lexicons
from tournaments.services.events import event_update
from tournaments.services.games import game_start
from tournaments.services.lexicons import (
    lexicon_bundled,
    lexicon_compile,
    lexicon_import,
    lexicon_pack,
    lexicon_upload,
)
from tournaments.state import solver_lexicon

pytestmark = pytest.mark.django_db


def test_a_bundled_list_is_registered_once(enable_lexicon: Lexicon) -> None:
    assert lexicon_bundled(name="enable").pk == enable_lexicon.pk
    assert Lexicon.objects.filter(bundled="enable").count() == 1
    assert (enable_lexicon.language, enable_lexicon.name) == ("en", "enable")
    assert enable_lexicon.word_count > 100_000 and len(enable_lexicon.checksum) == 64


def test_an_imported_list_is_kept_gzipped_with_its_report(db: None) -> None:
    data = "cœur\nQI\nzoo\npomme-de-terre\nqi\n".encode()
    lexicon = lexicon_import(name="club", language="french", data=data, source_name="club.txt")
    assert lexicon.word_count == 3 and lexicon.source_name == "club.txt" and not lexicon.bundled
    assert gzip.decompress(bytes(lexicon.content)) == data
    assert lexicon.report  # the words skipped and the duplicates, as event_create prints them
    # The same bytes always pack the same way: the same checksum for the same list.
    assert lexicon_pack(data) == lexicon_pack(data) == bytes(lexicon.content)
    assert lexicon_pack(bytes(lexicon.content)) == bytes(lexicon.content)


def test_an_imported_list_needs_a_new_name_and_a_usable_word(db: None) -> None:
    lexicon_import(name="club", language="french", data=b"zoo\n")
    with pytest.raises(ApplicationError, match="a lexicon named 'club' already exists"):
        lexicon_import(name="club", language="french", data=b"other\n")
    with pytest.raises(ApplicationError, match=r"empty\.txt: no usable word"):
        lexicon_import(name="empty", language="french", data=b"a-b\n1234\n", source_name="empty.txt")
    assert list(Lexicon.objects.values_list("name", flat=True)) == ["club"]


# ------------------------------------------------------------------ size limit and background import


def _fresh_words(count: int) -> bytes:
    """A list never compiled before in this process (the compiled lists are kept by checksum)."""
    salt = "".join(chr(65 + b % 26) for b in secrets.token_bytes(6))
    return "".join(
        salt + "".join(chr(65 + i // 26**k % 26) for k in range(4)) + "\n" for i in range(count)
    ).encode()


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    """The tasks sent, not run: the list stays importing until the test compiles it."""
    sent: list[tuple[object, ...]] = []
    monkeypatch.setattr(queue, "send", lambda task, *args, **kw: sent.append((task.name, *args)) or True)
    return sent


@pytest.mark.parametrize("service", ["lexicon_import", "lexicon_upload"])
def test_a_list_above_the_limit_is_refused_before_it_is_read(db: None, settings, service: str) -> None:
    settings.ARBITER_LEXICON_MAX_MB = 1
    data = b"zoo\n" * (2**18) + b"x"  # 1 MB and a byte
    with pytest.raises(ApplicationError) as refused:
        getattr(lexicons, service)(name="big", language="en", data=data, source_name="big.txt")
    assert refused.value.message == (
        "big.txt is 1.0 MB, more than the 1 MB allowed for a word list: choose a smaller list,"
        " or raise the limit (setting ARBITER_LEXICON_MAX_MB of the server)"
    )
    assert not Lexicon.objects.exists()
    lexicon_import(name="fits", language="en", data=data[:-1])


def test_a_gzipped_list_above_the_limit_once_unpacked_is_refused(db: None, settings) -> None:
    settings.ARBITER_LEXICON_MAX_MB = 1
    packed = gzip.compress(_fresh_words(200_000))  # 2.1 MB of words in 0.25 MB
    assert len(packed) < 2**20
    with pytest.raises(
        ApplicationError, match=r"bomb.txt.gz is more than 1 MB once unpacked: .*ARBITER_LEXICON_MAX_MB"
    ):
        lexicon_import(name="bomb", language="en", data=packed, source_name="bomb.txt.gz")


def test_an_upload_is_importing_at_once_then_ready_with_its_progress(
    db: None, queued: list[tuple[object, ...]], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _fresh_words(3000)
    with translation.override("fr"):  # the worker says its refusals in the uploader's language
        lexicon = lexicon_upload(name="club", language="en", data=data, source_name="club.txt")
    assert (lexicon.state, lexicon.progress, lexicon.word_count) == ("importing", 0, 0)
    assert lexicon.checksum == hashlib.sha256(lexicon_pack(data)).hexdigest()
    assert gzip.decompress(bytes(lexicon.content)) == data
    assert queued == [("tournaments.tasks.lexicon_import_task", lexicon.pk, "fr")]
    # The progress the row shows each time the compile reports: a few writes, rising.
    monkeypatch.setattr(lexmod, "_CHUNK", 1024)
    seen: list[int] = []
    real = lexicons.compile_imported

    def watched(*args: Any, progress: Any, **kwargs: Any) -> Any:
        def said(done: float) -> None:
            progress(done)
            seen.append(Lexicon.objects.get(pk=lexicon.pk).progress)

        return real(*args, progress=said, **kwargs)

    monkeypatch.setattr(lexicons, "compile_imported", watched)
    done = lexicon_compile(lexicon_id=lexicon.pk)
    assert done is not None and (done.state, done.progress, done.word_count) == ("ready", 100, 3000)
    assert done.report["kept"] == 3000 and done.error == ""
    assert len(seen) > 10 and seen == sorted(seen) and 1 < seen[-2] < 100
    assert len(set(seen)) <= 5  # written a few times, not at every chunk
    # A second delivery of the task finds the work done.
    assert lexicon_compile(lexicon_id=lexicon.pk).state == "ready"  # type: ignore[union-attr]


def test_an_upload_is_compiled_by_the_task(db: None) -> None:
    # Tests run the tasks eagerly: sent at the commit, compiled there.
    with transaction.atomic():
        lexicon = lexicon_upload(name="club", language="en", data=_fresh_words(50))
        assert Lexicon.objects.get(pk=lexicon.pk).state == "importing"
    lexicon.refresh_from_db()
    assert (lexicon.state, lexicon.progress, lexicon.word_count) == ("ready", 100, 50)


def test_an_upload_that_does_not_compile_fails_with_what_the_import_said(
    db: None, queued: list[tuple[object, ...]]
) -> None:
    binary = lexicon_upload(name="bin", language="fr", data=b"AA\x00\x01BB", source_name="liste.bin")
    empty = lexicon_upload(name="empty", language="fr", data=b"a-b\n1234\n", source_name="empty.txt")
    for lexicon in (binary, empty):
        lexicon_compile(lexicon_id=lexicon.pk)
        lexicon.refresh_from_db()
        assert lexicon.state == "failed" and lexicon.word_count == 0
    assert binary.error == "liste.bin is not a text word list (binary content)"
    assert empty.error == "empty.txt: no usable word" and empty.report["lines"] == 2


def test_an_import_whose_worker_died_fails_instead_of_killing_the_next(
    db: None, queued: list[tuple[object, ...]]
) -> None:
    lexicon = lexicon_upload(name="club", language="en", data=_fresh_words(20))
    Lexicon.objects.filter(pk=lexicon.pk).update(progress=1)  # started, never finished
    lexicon_compile(lexicon_id=lexicon.pk)
    lexicon.refresh_from_db()
    assert lexicon.state == "failed" and "stopped before its end" in lexicon.error


def test_an_upload_the_broker_cannot_take_fails_and_says_so(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(queue, "send", lambda *args, **kwargs: False)
    with transaction.atomic():
        lexicon = lexicon_upload(name="club", language="en", data=_fresh_words(20))
    lexicon.refresh_from_db()
    assert lexicon.state == "failed" and "import the list again" in lexicon.error


def test_no_game_starts_and_no_position_is_compiled_on_a_list_not_ready(
    event: Event, queued: list[tuple[object, ...]]
) -> None:
    lexicon = lexicon_upload(name="club", language="en", data=_fresh_words(20))
    event_update(event=event, lexicon=lexicon)
    Lexicon.objects.filter(pk=lexicon.pk).update(progress=40)
    event = Event.objects.get(pk=event.pk)
    with pytest.raises(ApplicationError, match=r"the word list club is still being imported \(40%\)"):
        game_start(event=event)
    with pytest.raises(ApplicationError, match="still being imported"):
        solver_lexicon(event.lexicon)
    Lexicon.objects.filter(pk=lexicon.pk).update(state="failed", error="x")
    event = Event.objects.get(pk=event.pk)
    with pytest.raises(
        ApplicationError, match="could not be imported: choose another list in the event's settings"
    ):
        game_start(event=event)
    assert not event.games.exists()
    lexicon_compile(lexicon_id=lexicon.pk)  # failed stays failed
    assert Lexicon.objects.get(pk=lexicon.pk).state == "failed"
