"""Lexicons: read a plain word list, fold it to A-Z, compile it to a GADDAG, cache it.

A word list is one word a line, any case, optionally gzipped: UTF-8 (with or without a
byte order mark), UTF-16 with its byte order mark (what Windows Notepad saves), else
Windows-1252 / Latin-1. It is read a chunk at a time: a list of millions of words is never
held whole as text or as lines, only as the set of its words.
French accents are folded (``é`` -> ``E``) and ligatures expanded (``œ`` -> ``OE``), as on
French tiles. Entries that still hold anything but letters (hyphen, apostrophe, digit,
space), or are shorter than 2 or longer than ``max_length`` letters, are skipped and
reported in a :class:`LexiconReport`.

The compiled automaton is cached on disk, keyed by the SHA-256 of the source file and the
build settings, so a changed source is rebuilt and an unchanged one loads at once:
the source's checksum is remembered with its size and modification time (a stamp), so an
unchanged file is not read again; the cache file is mapped, not copied, and checked by the
compiled kernel (every index in range, the checksum of its header) before it is trusted.
The cache folder is ``$ARBITER_CACHE_DIR`` or ``$XDG_CACHE_HOME/arbiter`` (default
``~/.cache/arbiter``).
"""

from __future__ import annotations

import codecs
import contextlib
import gzip
import hashlib
import io
import json
import mmap
import os
import tempfile
import unicodedata
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import BinaryIO, Protocol, TypeVar

from solver import gaddag
from solver.errors import SolverError
from solver.gaddag import Gaddag
from solver.messages import gettext_noop, register
from solver.tiles import ALPHABET

#: Longest word kept by default: the side of the biggest board.
MAX_LENGTH = 21
_BUILD_VERSION = 3
# str.upper() already turns ß into SS; these two have no decomposition to fold.
_LIGATURES = {"Œ": "OE", "Æ": "AE"}
#: Report at most this many examples of each kind of skipped entry.
_EXAMPLES = 20
#: Bytes of a list read (unpacked) at a time; the first chunk's first 4 KiB decide whether
#: the file is text.
_CHUNK = 1 << 20
_SNIFF = 4096
#: The byte order marks that name an encoding, longest first.
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
#: Share of a compile spent reading and folding the list, as measured (docs/decisions.md):
#: the rest builds the automaton, in one call that cannot report.
_READ_SHARE = 0.1

#: Called with the share of a compile done, from 0 to 1, once per chunk read and at the end.
Progress = Callable[[float], None]

BUNDLED = {
    "enable": ("enable.txt.gz", "en"),
    "french": ("french.txt.gz", "fr"),
}


#: Why a word list cannot be read or compiled (docs/rules.md#messages), by code. The
#: ``reason`` of a file that cannot be read is the system's own (English) words.
LEXICON_MESSAGES: dict[str, str] = {
    "word_list_unreadable": gettext_noop("cannot read word list %(path)s: %(reason)s"),
    "word_list_damaged_gzip": gettext_noop("%(path)s: damaged gzip file (%(reason)s)"),
    "word_list_binary": gettext_noop("%(path)s is not a text word list (binary content)"),
    "word_list_no_usable_word": gettext_noop("%(path)s: no usable word in the list"),
    "word_list_too_large": gettext_noop("%(path)s is larger than %(limit)s MB once unpacked"),
    "words_no_usable_word": gettext_noop("%(name)s: no usable word (see the report)"),
    "unknown_bundled_lexicon": gettext_noop("unknown bundled lexicon %(name)r: choose %(choices)s"),
}
register(LEXICON_MESSAGES)


class LexiconError(SolverError):
    """A word list that cannot be read or compiled (missing, empty, not text); ``report``
    says what was read when the list was readable but had no usable word, and the
    terminal's message (``str``) then ends with its summary."""

    def __init__(self, code: str, /, report: LexiconReport | None = None, **params: object):
        super().__init__(code, **params)
        self.report = report
        if report is not None:
            self.args = (f"{self.args[0]}\n{report.summary()}",)


def fold(entry: str) -> str:
    """Uppercase and fold accents and ligatures: ``"Cœur"`` -> ``"COEUR"``."""
    up = entry.strip().upper()
    if up.isascii():  # nothing to fold: most entries of most lists, millions of them
        return up
    for lig, rep in _LIGATURES.items():
        up = up.replace(lig, rep)
    decomposed = unicodedata.normalize("NFD", up)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass
class LexiconReport:
    """What a compile kept and skipped, with examples of each skipped kind."""

    source: str
    lines: int = 0
    kept: int = 0
    duplicates: int = 0
    blank_lines: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def skip(self, reason: str, entry: str) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + 1
        ex = self.examples.setdefault(reason, [])
        if len(ex) < _EXAMPLES:
            ex.append(entry)

    def summary(self) -> str:
        lines = [
            f"{self.source}: {self.lines} lines, {self.kept} words kept,"
            f" {self.duplicates} duplicates after folding, {self.blank_lines} blank lines"
        ]
        for reason, n in sorted(self.skipped.items()):
            lines.append(f"  skipped {n} {reason}: {', '.join(self.examples[reason][:8])}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "lines": self.lines,
            "kept": self.kept,
            "duplicates": self.duplicates,
            "blank_lines": self.blank_lines,
            "skipped": self.skipped,
            "examples": self.examples,
        }


class _Words:
    """Entries folded and filtered as they are read: the distinct words kept, the report."""

    def __init__(self, source: str, max_length: int):
        self.report = LexiconReport(source=source)
        self.words: set[str] = set()
        self.max_length = max_length

    def add(self, entries: Iterable[str]) -> None:
        report, words, max_length = self.report, self.words, self.max_length
        letters = set(ALPHABET)
        for raw in entries:
            report.lines += 1
            entry = raw.strip().lstrip("\ufeff")
            if not entry:
                report.blank_lines += 1
                continue
            word = fold(entry)
            if not set(word) <= letters:
                report.skip("with characters other than letters", entry)
            elif len(word) < 2:
                report.skip("shorter than 2 letters", entry)
            elif len(word) > max_length:
                report.skip(f"longer than {max_length} letters", entry)
            elif word in words:
                report.duplicates += 1
            else:
                words.add(word)
        report.kept = len(words)


def normalize(
    entries: Iterable[str], *, source: str = "<words>", max_length: int = MAX_LENGTH
) -> tuple[list[str], LexiconReport]:
    """Fold and filter raw entries; returns the sorted unique words and the report."""
    kept = _Words(source, max_length)
    kept.add(entries)
    return sorted(kept.words), kept.report


class _Lines(list[str]):
    def add(self, lines: Iterable[str]) -> None:
        self.extend(lines)


def read_lines(path: Path) -> list[str]:
    """Lines of a word list, gzipped or not, in the encoding :func:`decode_lines` finds."""
    try:
        with open(path, "rb") as fh:
            return _read(fh, path, _Lines)
    except OSError as exc:
        raise LexiconError("word_list_unreadable", path=str(path), reason=exc.strerror or str(exc)) from exc


def decode_lines(raw: bytes, path: Path) -> list[str]:
    """Lines of a word list's bytes, gzipped or not: UTF-8 or UTF-16 as a byte order mark
    says, else UTF-8, else Windows-1252, else Latin-1. Raises ``LexiconError`` for a
    damaged gzip file or one that is not text."""
    return _read(io.BytesIO(raw), path, _Lines)


#: Characters that end a line for ``str.splitlines``.
_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


class _Source:
    """A word list file's unpacked bytes, a chunk at a time, from the start as often as
    asked (an encoding found wrong half-way starts the reading again)."""

    def __init__(self, fh: BinaryIO, where: Path):
        self.fh, self.where = fh, where
        self.size = fh.seek(0, io.SEEK_END)
        fh.seek(0)
        self.gzipped = fh.read(2) == b"\x1f\x8b"

    def chunks(self) -> Iterable[bytes]:
        self.fh.seek(0)
        stream: gzip.GzipFile | BinaryIO = (
            gzip.GzipFile(fileobj=self.fh, mode="rb") if self.gzipped else self.fh
        )
        while True:
            try:
                chunk = stream.read(_CHUNK)
            except (OSError, EOFError, zlib.error) as exc:
                if not self.gzipped:
                    raise
                raise LexiconError("word_list_damaged_gzip", path=str(self.where), reason=str(exc)) from exc
            if not chunk:
                return
            yield chunk

    def done(self) -> float:
        """Share of the file read so far (of the packed bytes for a gzipped file)."""
        return min(1.0, self.fh.tell() / self.size) if self.size else 1.0


def _encodings(head: bytes, where: Path) -> list[tuple[str, str]]:
    """The encodings to try, in order, with their error handling, from the list's start."""
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            # The file names its encoding: a wrong sequence is one bad entry, skipped and
            # reported, not a reason to read every other word in another encoding.
            text = head[:_SNIFF].decode(encoding, "replace")
            if "\x00" in text:
                raise LexiconError("word_list_binary", path=str(where))
            return [(encoding, "replace")]
    if b"\x00" in head[:_SNIFF]:
        raise LexiconError("word_list_binary", path=str(where))
    # Windows-1252 before Latin-1: French lists saved on Windows hold œ as byte 0x9C,
    # which Latin-1 would read as a control character.
    return [("utf-8", "strict"), ("cp1252", "strict"), ("latin-1", "strict")]


class _Sink(Protocol):
    def add(self, lines: Iterable[str]) -> None: ...


_S = TypeVar("_S", bound=_Sink)


def _read(
    fh: BinaryIO,
    where: Path,
    sink: Callable[[], _S],
    *,
    max_bytes: int | None = None,
    progress: Progress | None = None,
) -> _S:
    """Feed a list's lines to a new ``sink()``, a chunk's lines at a time, in the first
    encoding that reads the whole file (a new sink for each encoding tried)."""
    source = _Source(fh, where)
    head = b""
    for chunk in source.chunks():
        head += chunk
        if len(head) >= _SNIFF:
            break
    for encoding, errors in _encodings(head, where):
        into = sink()
        try:
            _decode(source, encoding, errors, into, max_bytes, progress)
        except UnicodeDecodeError:
            continue
        return into
    raise AssertionError("Latin-1 decodes every byte")  # pragma: no cover


def _decode(
    source: _Source, encoding: str, errors: str, sink: _Sink, max_bytes: int | None, progress: Progress | None
) -> None:
    decoder = codecs.getincrementaldecoder(encoding)(errors)
    carry = ""  # the end of a chunk that may not be the end of its line
    read = 0
    for chunk in source.chunks():
        read += len(chunk)
        if max_bytes is not None and read > max_bytes:
            raise LexiconError("word_list_too_large", path=str(source.where), limit=f"{max_bytes / 2**20:g}")
        text = carry + decoder.decode(chunk)
        lines = text.splitlines()
        carry = ""
        if text and (text[-1] not in _BREAKS or text[-1] == "\r"):
            # An unfinished line, or a CR whose LF may open the next chunk (one line break).
            carry = lines.pop() + ("\r" if text[-1] == "\r" else "")
        sink.add(lines)
        if progress is not None:
            progress(_READ_SHARE * source.done())
    sink.add((carry + decoder.decode(b"", final=True)).splitlines())


class Lexicon:
    """A compiled word list: ``"WORD" in lexicon`` and the GADDAG for the generator."""

    def __init__(
        self, name: str, graph: Gaddag, word_count: int, checksum: str, report: LexiconReport | None = None
    ):
        self.name = name
        self.gaddag = graph
        self.word_count = word_count
        self.checksum = checksum
        self.report = report

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        folded = fold(word)
        if not folded.isascii() or not folded.isalpha():
            return False
        return self.gaddag.contains([ord(c) - 64 for c in folded])

    def contains_codes(self, codes: Sequence[int]) -> bool:
        return self.gaddag.contains(codes)

    def __repr__(self) -> str:
        return f"<Lexicon {self.name} words={self.word_count}>"

    @classmethod
    def from_words(
        cls, words: Iterable[str], *, name: str = "words", max_length: int = MAX_LENGTH
    ) -> Lexicon:
        kept, report = normalize(words, source=name, max_length=max_length)
        if not kept:
            raise LexiconError("words_no_usable_word", report, name=name)
        digest = hashlib.sha256("\n".join(kept).encode()).hexdigest()
        return cls(name, gaddag.build(kept), len(kept), digest, report)


def cache_dir() -> Path:
    explicit = os.environ.get("ARBITER_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "arbiter"


def _cache_paths(checksum: str, max_length: int) -> tuple[Path, Path]:
    key = f"{checksum[:32]}-v{_BUILD_VERSION}-m{max_length}"
    folder = cache_dir() / "lexicons"
    return folder / f"{key}.gdg", folder / f"{key}.json"


def atomic_write(path: Path, data: bytes) -> None:
    """Write via a temporary file and rename, so a crash never leaves half a cache file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _stamp_path(src: Path) -> Path:
    key = hashlib.sha256(str(src.resolve()).encode()).hexdigest()[:32]
    return cache_dir() / "lexicons" / "stamps" / f"{key}.json"


def _hash_file(src: Path) -> str:
    try:
        with open(src, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest()
    except OSError as exc:
        raise LexiconError("word_list_unreadable", path=str(src), reason=exc.strerror or str(exc)) from exc


def _source_checksum(src: Path, use_cache: bool) -> tuple[str, bool]:
    """The SHA-256 of the word list, and whether the file was read for it just now: an
    unchanged file (same size and modification time as when it was last hashed) is not."""
    try:
        st = src.stat()
    except OSError as exc:
        raise LexiconError("word_list_unreadable", path=str(src), reason=exc.strerror or str(exc)) from exc
    stamp = {"size": st.st_size, "mtime_ns": st.st_mtime_ns}
    if use_cache:
        try:
            known = json.loads(_stamp_path(src).read_text("utf-8"))
            if {k: known.get(k) for k in stamp} == stamp and isinstance(known.get("sha256"), str):
                return known["sha256"], False
        except (OSError, ValueError, AttributeError):
            pass  # no stamp, or a damaged one: hash the file
    checksum = _hash_file(src)
    if use_cache:
        with contextlib.suppress(OSError):  # a read-only cache folder: hashed again next time
            atomic_write(_stamp_path(src), json.dumps({**stamp, "sha256": checksum}).encode())
    return checksum, True


def _read_cache(gdg_path: Path) -> Gaddag:
    """The cached automaton, mapped from its file (its arrays are views of the mapping)
    and checked; ``ValueError`` or ``OSError`` when it cannot be trusted."""
    with open(gdg_path, "rb") as fh:
        try:
            data: mmap.mmap | bytes = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        except (ValueError, OSError):  # an empty file cannot be mapped; some systems cannot map
            data = fh.read()
    return Gaddag.from_bytes(data)


def load(
    path: str | os.PathLike[str],
    *,
    name: str | None = None,
    max_length: int = MAX_LENGTH,
    use_cache: bool = True,
    max_bytes: int | None = None,
    progress: Progress | None = None,
) -> Lexicon:
    """Compile a word list file, or load its cached compilation if the file is unchanged.
    ``max_bytes``: refuse a list larger than this once unpacked. Raises ``LexiconError``."""
    src = Path(path)
    checksum, fresh = _source_checksum(src, use_cache)
    label = name or src.name
    gdg_path, meta_path = _cache_paths(checksum, max_length)
    if use_cache and gdg_path.exists() and meta_path.exists():
        try:
            meta = json.loads(meta_path.read_text("utf-8"))
            graph = _read_cache(gdg_path)
            report = LexiconReport(**meta["report"])
            report.source = str(src)
            return Lexicon(label, graph, meta["word_count"], checksum, report)
        except (ValueError, KeyError, TypeError, OSError):
            pass  # a damaged cache is rebuilt below, never trusted
    if not fresh:
        read = _hash_file(src)
        if read != checksum:  # changed within the same second and size as its stamp
            checksum = read
            gdg_path, meta_path = _cache_paths(checksum, max_length)
    # Messages name the list as the caller knows it (an imported file is cached under its checksum).
    where = Path(name) if name else src
    try:
        with open(src, "rb") as fh:
            kept = _read(
                fh, where, lambda: _Words(str(src), max_length), max_bytes=max_bytes, progress=progress
            )
    except OSError as exc:
        raise LexiconError("word_list_unreadable", path=str(where), reason=exc.strerror or str(exc)) from exc
    report, count = kept.report, len(kept.words)
    if not count:
        raise LexiconError("word_list_no_usable_word", report, path=str(where))
    # Hashed and read in two passes: a file changed between them is compiled, not cached.
    use_cache = use_cache and _hash_file(src) == checksum
    # Sorted, the kernel's own sort runs faster (docs/decisions.md); the
    # strings are freed before it runs, so that a long list is held once, as bytes.
    ordered = sorted(kept.words)
    kept.words.clear()
    joined = "\n".join(ordered).encode("ascii")
    del ordered
    graph = gaddag.build_joined(joined)
    del joined
    if use_cache:
        try:
            atomic_write(gdg_path, graph.to_bytes())
            meta = {"word_count": count, "report": report.to_dict(), "source": str(src)}
            atomic_write(meta_path, json.dumps(meta).encode())
        except OSError:
            pass  # a read-only cache folder only costs a rebuild next time
    if progress is not None:
        progress(1.0)
    return Lexicon(label, graph, count, checksum, report)


def bundled_path(name: str) -> Path:
    """Path of a word list shipped in the package (``enable`` or ``french``)."""
    if name not in BUNDLED:
        raise LexiconError("unknown_bundled_lexicon", name=name, choices=", ".join(BUNDLED))
    return Path(str(resources.files("solver.data.lexicons").joinpath(BUNDLED[name][0])))


def load_bundled(name: str) -> Lexicon:
    return load(bundled_path(name), name=name)
