"""Word lists: the bundled ones registered on first use, a user's list compiled (which
checks it) and kept gzipped in the database so that every worker machine has it."""

from __future__ import annotations

import gzip
import hashlib

from django.utils.translation import gettext as _

from solver import lexicon as lexmod
from tournaments.core import ApplicationError
from tournaments.messages import say_error
from tournaments.models import Lexicon
from tournaments.state import (
    compile_imported,
)


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


def lexicon_import(*, name: str, language: str, data: bytes, source_name: str = "") -> Lexicon:
    """Import a user's word list: compiled once (which checks it), kept gzipped in the
    database; the row is created only for a list that compiles."""
    if Lexicon.objects.filter(name=name).exists():
        raise ApplicationError(_("a lexicon named %(name)s already exists") % {"name": repr(name)})
    packed = lexicon_pack(data)
    label = source_name or name
    try:
        compiled = compile_imported(hashlib.sha256(packed).hexdigest(), packed, label)
    except lexmod.LexiconError as exc:
        if exc.report is not None:
            raise ApplicationError(
                _("%(name)s: no usable word") % {"name": label}, {"report": exc.report.to_dict()}
            ) from exc
        raise ApplicationError(say_error(exc)) from exc
    return Lexicon.objects.create(
        name=name,
        language=language,
        content=packed,
        source_name=source_name,
        word_count=compiled.word_count,
        checksum=compiled.checksum,
        report=compiled.report.to_dict() if compiled.report else {},
    )
