#!/usr/bin/env python3
"""Build ``solver/data/lexicons/french.txt.gz``, the French word list shipped by default.

Source: the npm package ``an-array-of-french-words`` 2.0.0 (MIT, Zeke Sikelianos), a
lowercase French list derived from the Letterpress word list. The package is fetched with
``npm pack`` (or given with ``--source``) and checked against a pinned SHA-256.

Rules, applied in this order (see ``solver/data/lexicons/README.md`` for the counts):

1. fold: ``œ`` -> ``oe``, ``æ`` -> ``ae``, accents dropped (NFD, combining marks removed),
   uppercase;
2. drop entries that are not plain words once folded (hyphenated compounds: ``a-t-il``);
3. drop words shorter than 2 or longer than 21 letters (the side of the biggest board);
4. merge words that differ only by their accents (``pâte`` / ``pâté`` / ``pate`` -> ``PATE``);
5. drop words without any vowel (A E I O U Y): units and abbreviations such as ``km``,
   ``cf``; except the interjections of ``VOWELLESS_INTERJECTIONS`` (``pst``, ``brrr``);
6. drop the abbreviations of ``ABBREVIATIONS`` (``etc``, ``janv`` ...);
7. drop the proper nouns of ``PROPER_NOUNS``.

The output is one uppercase word a line, sorted, LF line ends, gzipped with mtime 0 and no
file name: the same source always gives the same bytes.

Usage (from the repository root)::

    python scripts/make_french_lexicon.py                 # fetch with npm pack, write the list
    python scripts/make_french_lexicon.py --source an-array-of-french-words-2.0.0.tgz
    python scripts/make_french_lexicon.py --check         # rebuild and compare, write nothing
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import subprocess
import sys
import tarfile
import tempfile
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

PACKAGE = "an-array-of-french-words"
VERSION = "2.0.0"
#: SHA-256 of the tarball served by the npm registry, and of the word list inside it.
TARBALL_SHA256 = "037dd0983a4cb18c9d5226b0fdad7943d8f1d562f0a5a5b50b2b989f06f347f2"
INDEX_SHA256 = "75e81515ed0714c8d98d6aa0cc71ba3094834653de005f9bdbb874257639e92d"

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "solver" / "data" / "lexicons" / "french.txt.gz"

MIN_LENGTH = 2
#: Same as solver.lexicon.MAX_LENGTH: the side of the biggest board.
MAX_LENGTH = 21
VOWELS = frozenset("AEIOUY")
_LIGATURES = {"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE"}

#: Genuine French words without a vowel (interjections and onomatopoeias), kept by rule 5.
VOWELLESS_INTERJECTIONS = frozenset({"BRR", "BRRR", "HM", "HMM", "PFF", "PFFT", "PST", "PSST"})

#: Abbreviations with a vowel found in the source (the vowel-less ones fall to rule 5).
#: Each is only ever written as an abbreviation; none is a French word on its own.
ABBREVIATIONS: dict[str, str] = {
    "DEP": "dép., département",
    "DIV": "div., division",
    "EME": "2ème, ordinal suffix",
    "ETC": "etc., et cetera",
    "FIG": "fig., figure / figuré",
    "JANV": "janv., janvier",
    "JUILL": "juill., juillet",
    "REF": "réf., référence",
}

#: Proper nouns found in the source: entries that the Dicollecte/Grammalecte dictionary
#: knows only with a capital, and that have no common-noun or verb reading (reviewed one
#: by one; the README lists the candidates that were kept and why).
PROPER_NOUNS: dict[str, str] = {
    "REICHSTAG": "the German parliament",
    "REICHSTAGS": "plural of the above",
    "TOUSSAINT": "All Saints' Day, always capitalised",
}

_EXAMPLES = 12


@dataclass
class Rule:
    """What one rule removed: count and the first examples (source spelling)."""

    name: str
    removed: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, entry: str) -> None:
        self.removed += 1
        if len(self.examples) < _EXAMPLES:
            self.examples.append(entry)


@dataclass
class Build:
    words: list[str]
    source_entries: int
    rules: list[Rule]


def fold(entry: str) -> str:
    """``"Cœur"`` -> ``"COEUR"``, ``"été"`` -> ``"ETE"``."""
    for lig, rep in _LIGATURES.items():
        entry = entry.replace(lig, rep)
    decomposed = unicodedata.normalize("NFD", entry)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).upper()


def build(entries: Iterable[str], *, strict: bool = True) -> Build:
    """Apply the rules to the source entries; returns the sorted words and what was removed.

    ``strict``: fail if an entry of the deny-lists is not in the source (a wrong source, or
    lists gone stale after a source update).
    """
    not_plain = Rule("not a plain word once folded (hyphen, ...)")
    length = Rule(f"shorter than {MIN_LENGTH} or longer than {MAX_LENGTH} letters")
    merged = Rule("same word as another once accents are dropped")
    vowelless = Rule("no vowel (unit or abbreviation)")
    abbreviation = Rule("abbreviation (explicit list)")
    proper = Rule("proper noun (explicit list)")
    words: set[str] = set()
    total = 0
    for entry in entries:
        total += 1
        word = fold(entry.strip())
        if not word.isascii() or not word.isalpha():
            not_plain.add(entry)
        elif not MIN_LENGTH <= len(word) <= MAX_LENGTH:
            length.add(entry)
        elif word in words:
            merged.add(entry)
        else:
            words.add(word)
    unused = (set(ABBREVIATIONS) | set(PROPER_NOUNS)) - words
    if strict and unused:
        raise SystemExit(f"deny-list entries absent from the source (wrong source?): {sorted(unused)}")
    for word in sorted(words):
        if not VOWELS & set(word) and word not in VOWELLESS_INTERJECTIONS:
            vowelless.add(word)
        elif word in ABBREVIATIONS:
            abbreviation.add(word)
        elif word in PROPER_NOUNS:
            proper.add(word)
        else:
            continue
        words.discard(word)
    return Build(sorted(words), total, [not_plain, length, merged, vowelless, abbreviation, proper])


def encode(words: list[str]) -> bytes:
    """The gzipped list, byte-identical for the same words (mtime 0, no file name)."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as gz:
        gz.write("".join(f"{w}\n" for w in words).encode("ascii"))
    return buf.getvalue()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fetch_tarball(folder: Path) -> Path:
    """``npm pack PACKAGE@VERSION`` into ``folder`` (downloads the tarball only)."""
    spec = f"{PACKAGE}@{VERSION}"
    try:
        done = subprocess.run(
            ["npm", "pack", spec, "--silent"], cwd=folder, capture_output=True, text=True, check=False
        )
    except FileNotFoundError as exc:
        raise SystemExit("npm is not installed: download the tarball and pass it with --source") from exc
    if done.returncode != 0:
        raise SystemExit(f"npm pack {spec} failed:\n{done.stderr}")
    return folder / f"{PACKAGE}-{VERSION}.tgz"


def read_source(path: Path) -> list[str]:
    """The entries of the package: its tarball or its ``index.json``; hashes are checked."""
    data = path.read_bytes()
    if path.name.endswith((".tgz", ".tar.gz")):
        if _sha256(data) != TARBALL_SHA256:
            raise SystemExit(f"{path}: unexpected SHA-256 {_sha256(data)} (not {PACKAGE} {VERSION}?)")
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            member = tar.extractfile("package/index.json")
            if member is None:
                raise SystemExit(f"{path}: no package/index.json inside")
            data = member.read()
    if _sha256(data) != INDEX_SHA256:
        raise SystemExit(f"{path}: unexpected index.json SHA-256 {_sha256(data)} (not {PACKAGE} {VERSION}?)")
    entries = json.loads(data)
    if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
        raise SystemExit(f"{path}: index.json is not a list of strings")
    return entries


def report(result: Build, data: bytes) -> str:
    lines = [f"{PACKAGE} {VERSION}: {result.source_entries} entries"]
    for rule in result.rules:
        shown = ", ".join(rule.examples[:8])
        lines.append(f"  removed {rule.removed:6d}  {rule.name}: {shown}")
    lines.append(f"kept {len(result.words)} words; {len(data)} bytes, SHA-256 {_sha256(data)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, help=f"{PACKAGE}-{VERSION}.tgz or its index.json")
    parser.add_argument("--output", type=Path, default=OUTPUT, help="default: %(default)s")
    parser.add_argument("--check", action="store_true", help="compare with --output, write nothing")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        source = args.source or fetch_tarball(Path(tmp))
        entries = read_source(source)
    result = build(entries)
    data = encode(result.words)
    print(report(result, data))
    if args.check:
        current = args.output.read_bytes() if args.output.exists() else b""
        if current != data:
            print(f"{args.output} differs from a fresh build", file=sys.stderr)
            return 1
        print(f"{args.output} is up to date")
        return 0
    args.output.write_bytes(data)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
