"""Word lists: the bundled ones registered on first use, a user's list kept gzipped in the
database (so that every worker machine has it) and compiled, which checks it.

An arbitrator's upload is compiled by a worker, not in the web request: a list of millions
of words takes a minute and most of a gigabyte. The row exists at once, ``importing`` (an
event may name it, no game starts on it), and ends ``ready`` or ``failed`` with the reason.
Every import is refused above ``ARBITER_LEXICON_MAX_MB``, before its bytes are read."""

from __future__ import annotations

import gzip
import hashlib

from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from solver import lexicon as lexmod
from tournaments import queue
from tournaments.core import ApplicationError
from tournaments.messages import say_error
from tournaments.models import Lexicon
from tournaments.state import (
    compile_imported,
)

#: Per cent of a compile between two writes of its progress.
_PROGRESS_STEP = 5


def lexicon_bundled(*, name: str) -> Lexicon:
    """The Lexicon row of a list shipped with the solver (``enable``, ``french``)."""
    existing = Lexicon.objects.filter(bundled=name).first()
    if existing:
        return existing
    compiled = lexmod.load_bundled(name)
    language = lexmod.BUNDLED[name][1]
    return Lexicon.objects.create(
        name=name,
        language=language,
        bundled=name,
        word_count=compiled.word_count,
        checksum=compiled.checksum,
        report=compiled.report.to_dict() if compiled.report else {},
    )


def lexicon_pack(data: bytes) -> bytes:
    """The stored form of an imported list: gzipped with mtime 0, so that the same list
    always gives the same bytes, hence the same checksum."""
    return data if data[:2] == b"\x1f\x8b" else gzip.compress(data, mtime=0)


def lexicon_max_bytes() -> int:
    return int(settings.ARBITER_LEXICON_MAX_MB) * 2**20


def _megabytes(size: int) -> str:
    return number_format(size / 2**20, 1)


def lexicon_size_check(*, size: int, name: str) -> None:
    """Refuse a word list of ``size`` bytes above the limit, before it is read."""
    if size > lexicon_max_bytes():
        raise ApplicationError(
            _(
                "%(name)s is %(size)s MB, more than the %(limit)s MB allowed for a word list: choose"
                " a smaller list, or raise the limit (setting ARBITER_LEXICON_MAX_MB of the server)"
            )
            % {"name": name, "size": _megabytes(size), "limit": settings.ARBITER_LEXICON_MAX_MB}
        )


def _refusal(exc: lexmod.LexiconError, label: str) -> ApplicationError:
    """What the arbitrator reads of a list that does not compile."""
    if exc.report is not None:
        return ApplicationError(
            _("%(name)s: no usable word") % {"name": label}, {"report": exc.report.to_dict()}
        )
    if exc.code == "word_list_too_large":
        return ApplicationError(
            _(
                "%(name)s is more than %(limit)s MB once unpacked: choose a smaller list, or raise"
                " the limit (setting ARBITER_LEXICON_MAX_MB of the server)"
            )
            % {"name": label, "limit": settings.ARBITER_LEXICON_MAX_MB}
        )
    return ApplicationError(say_error(exc))


def _name_free(name: str) -> None:
    if Lexicon.objects.filter(name=name).exists():
        raise ApplicationError(_("a lexicon named %(name)s already exists") % {"name": repr(name)})


def _accepted(name: str, label: str, data: bytes) -> bytes:
    """A user's list checked (its size, its name free) and packed as stored."""
    lexicon_size_check(size=len(data), name=label)
    _name_free(name)
    return lexicon_pack(data)


def lexicon_import(*, name: str, language: str, data: bytes, source_name: str = "") -> Lexicon:
    """Import a user's word list here and now (the terminal's ``event_create``): compiled
    once (which checks it), kept gzipped in the database; the row is created only for a
    list that compiles."""
    label = source_name or name
    packed = _accepted(name, label, data)
    try:
        compiled = compile_imported(
            hashlib.sha256(packed).hexdigest(), packed, label, max_bytes=lexicon_max_bytes()
        )
    except lexmod.LexiconError as exc:
        raise _refusal(exc, label) from exc
    return Lexicon.objects.create(
        name=name,
        language=language,
        content=packed,
        source_name=source_name,
        word_count=compiled.word_count,
        checksum=compiled.checksum,
        report=compiled.report.to_dict() if compiled.report else {},
    )


def lexicon_upload(*, name: str, language: str, data: bytes, source_name: str = "") -> Lexicon:
    """Keep a user's word list and have a worker compile it (:func:`lexicon_compile`): the
    row is returned at once, ``importing``. Its messages will be in the active language."""
    packed = _accepted(name, source_name or name, data)
    lexicon = Lexicon.objects.create(
        name=name,
        language=language,
        content=packed,
        source_name=source_name,
        # The checksum of the stored bytes is known now; the words and the report come from
        # the worker.
        checksum=hashlib.sha256(packed).hexdigest(),
        state=Lexicon.State.IMPORTING,
        progress=0,
    )
    said_in = translation.get_language() or settings.LANGUAGE_CODE

    def send() -> None:
        if not queue.send(queue.lexicon_import_task, lexicon.pk, said_in):
            with translation.override(said_in):
                lexicon_failed(
                    lexicon_id=lexicon.pk,
                    error=_("the worker could not be reached: import the list again in a moment"),
                )

    transaction.on_commit(send)
    return lexicon


def lexicon_failed(*, lexicon_id: int, error: str) -> None:
    """End an import that cannot finish, saying why."""
    Lexicon.objects.filter(pk=lexicon_id, state=Lexicon.State.IMPORTING).update(
        state=Lexicon.State.FAILED, error=error
    )


def lexicon_compile(*, lexicon_id: int) -> Lexicon | None:
    """Compile an uploaded list (the task's work), its progress written a few times on
    the way: then ``ready`` with its words and report, or ``failed`` with what the import
    would have said. A list no longer importing is left as it is."""
    lexicon = Lexicon.objects.filter(pk=lexicon_id).first()
    if lexicon is None or lexicon.state != Lexicon.State.IMPORTING:
        return lexicon
    # Progress 1 marks a started compile: finding it here means the last attempt died
    # half-way (a worker killed, out of memory perhaps) and the broker sent it again; a
    # third attempt would only kill the next worker.
    if not Lexicon.objects.filter(pk=lexicon.pk, state=Lexicon.State.IMPORTING, progress=0).update(
        progress=1
    ):
        lexicon_failed(
            lexicon_id=lexicon.pk,
            error=_(
                "the import stopped before its end (the worker stopped, perhaps out of memory):"
                " choose a smaller list"
            ),
        )
        lexicon.refresh_from_db()
        return lexicon
    label = lexicon.source_name or lexicon.name
    written = 1

    def progress(done: float) -> None:
        nonlocal written
        percent = min(99, int(done * 100))
        if percent >= written + _PROGRESS_STEP:
            written = percent
            Lexicon.objects.filter(pk=lexicon.pk, state=Lexicon.State.IMPORTING).update(progress=percent)

    # Only an import still under way ends here: a late attempt does not turn a list already
    # said failed (a redelivery, the time limit) back into a ready one.
    under_way = Lexicon.objects.filter(pk=lexicon.pk, state=Lexicon.State.IMPORTING)
    try:
        compiled = compile_imported(
            lexicon.checksum,
            bytes(lexicon.content),
            label,
            max_bytes=lexicon_max_bytes(),
            progress=progress,
        )
    except lexmod.LexiconError as exc:
        refusal = _refusal(exc, label)
        under_way.update(
            state=Lexicon.State.FAILED, error=refusal.message, report=refusal.extra.get("report", {})
        )
    else:
        under_way.update(
            state=Lexicon.State.READY,
            progress=100,
            word_count=compiled.word_count,
            report=compiled.report.to_dict() if compiled.report else {},
            error="",
        )
    lexicon.refresh_from_db()
    return lexicon
