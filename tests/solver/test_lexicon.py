"""Unit tests of solver.lexicon: reading, folding, reporting, caching (solver.gaddag's own
are in test_gaddag.py).

Every test works on small lists written to ``tmp_path`` with ``ARBITER_CACHE_DIR`` pointed
at a temporary folder, except the bundled-lexicon tests, which compile the shipped lists
once per session into the ordinary cache (as tests/conftest.py does for the corpus).
"""

from __future__ import annotations

import codecs
import gzip
import hashlib
import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import gaddag, lexicon
from solver.gaddag import Gaddag
from solver.lexicon import Lexicon, LexiconError

ROOT = Path(__file__).resolve().parents[2]
LEXICONS = ROOT / "solver" / "data" / "lexicons"
ENABLE_SHA256 = "157e5911583e38eab4481cd8656da6c3e541c73d877697eebeb00db0bf0d797f"
FRENCH_WORDS = 318_819

NON_LETTERS = "with characters other than letters"
TOO_SHORT = "shorter than 2 letters"


def codes(word: str) -> list[int]:
    return [ord(c) - 64 for c in word]


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache folder for every test: nothing here touches ~/.cache."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("ARBITER_CACHE_DIR", str(folder))
    return folder


class BuildSpy:
    """Counts the builds of a list file (solver.gaddag.build_joined); can be told to fail
    instead."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        self.forbidden = False
        self._real = gaddag.build_joined
        monkeypatch.setattr(gaddag, "build_joined", self)

    def __call__(self, data: bytes) -> Gaddag:
        if self.forbidden:
            raise AssertionError("the lexicon was rebuilt instead of loaded from the cache")
        self.calls += 1
        return self._real(data)


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> BuildSpy:
    return BuildSpy(monkeypatch)


# --------------------------------------------------------------------------- folding


@pytest.mark.parametrize(
    ("entry", "folded"),
    [
        ("maison", "MAISON"),
        ("MaIsOn", "MAISON"),
        ("été", "ETE"),
        ("ÉTÉ", "ETE"),
        ("naïve", "NAIVE"),
        ("garçon", "GARCON"),
        ("forêt", "FORET"),
        ("où", "OU"),
        ("Cœur", "COEUR"),
        ("ŒUVRE", "OEUVRE"),
        ("cæcum", "CAECUM"),
        ("Æsir", "AESIR"),
        ("straße", "STRASSE"),
        ("  mot\t", "MOT"),
        ("e\u0301te\u0301", "ETE"),  # already decomposed accents
    ],
)
def test_fold(entry: str, folded: str) -> None:
    assert lexicon.fold(entry) == folded


def test_fold_keeps_what_is_not_a_letter() -> None:
    # Folding does not hide punctuation: normalize() must still see it and skip the entry.
    assert lexicon.fold("porte-avions") == "PORTE-AVIONS"
    assert lexicon.fold("aujourd'hui") == "AUJOURD'HUI"


# --------------------------------------------------------------------------- normalize / report


def test_normalize_reports_every_skipped_kind_with_examples() -> None:
    entries = [
        "Maison",
        "porte-avions",
        "aujourd'hui",
        "b2b",
        "pomme de terre",
        "chose.",
        "a",
        "É",
        "",
        "   ",
        "anticonstitutionnellement",  # 25 letters
        "été",
    ]
    words, report = lexicon.normalize(entries, source="test", max_length=21)
    assert words == ["ETE", "MAISON"]
    assert report.source == "test"
    assert report.lines == len(entries)
    assert report.kept == 2
    assert report.blank_lines == 2
    assert report.duplicates == 0
    assert report.skipped == {NON_LETTERS: 5, TOO_SHORT: 2, "longer than 21 letters": 1}
    assert report.examples[NON_LETTERS] == ["porte-avions", "aujourd'hui", "b2b", "pomme de terre", "chose."]
    assert report.examples[TOO_SHORT] == ["a", "É"]
    assert report.examples["longer than 21 letters"] == ["anticonstitutionnellement"]
    summary = report.summary()
    assert "12 lines, 2 words kept" in summary
    assert "skipped 5 with characters other than letters: porte-avions, aujourd'hui" in summary
    assert "skipped 1 longer than 21 letters: anticonstitutionnellement" in summary


def test_normalize_max_length_is_a_parameter() -> None:
    words, report = lexicon.normalize(["maison", "maisons", "toit"], max_length=6)
    assert words == ["MAISON", "TOIT"]
    assert report.skipped == {"longer than 6 letters": 1}
    assert report.examples["longer than 6 letters"] == ["maisons"]


def test_normalize_counts_duplicates_after_folding() -> None:
    words, report = lexicon.normalize(["été", "ETE", "Été", "ete", "cœur", "COEUR", "coeur"])
    assert words == ["COEUR", "ETE"]
    assert report.kept == 2
    assert report.duplicates == 5


def test_normalize_keeps_a_bounded_number_of_examples() -> None:
    entries = [f"mot{i}" for i in range(50)]
    words, report = lexicon.normalize([*entries, "mot"])
    assert words == ["MOT"]
    assert report.skipped[NON_LETTERS] == 50
    assert report.examples[NON_LETTERS] == entries[:20]


def test_normalize_strips_a_byte_order_mark_and_whitespace() -> None:
    words, report = lexicon.normalize(["\ufeffmaison", " porte \t", "\ufeff"])
    assert words == ["MAISON", "PORTE"]
    assert report.skipped == {}
    assert report.blank_lines == 1


def test_report_to_dict_is_json_and_complete() -> None:
    _, report = lexicon.normalize(["maison", "x", "pas-de-porte", "maison"], source="s")
    data = json.loads(json.dumps(report.to_dict()))
    assert lexicon.LexiconReport(**data) == report


# --------------------------------------------------------------------------- reading files


def test_load_plain_utf8_file(tmp_path: Path) -> None:
    path = write(tmp_path, "words.txt", "maison\nÉté\ncœur\n\nporte-avions\n")
    lex = lexicon.load(path)
    assert lex.word_count == 3
    assert lex.name == "words.txt"
    for word in ("MAISON", "ETE", "COEUR"):
        assert word in lex
    assert lex.report is not None
    assert lex.report.blank_lines == 1
    assert lex.report.skipped == {NON_LETTERS: 1}
    assert lex.report.examples[NON_LETTERS] == ["porte-avions"]
    assert lex.checksum == hashlib.sha256(path.read_bytes()).hexdigest()


def test_load_takes_a_name(tmp_path: Path) -> None:
    path = write(tmp_path, "words.txt", "maison\n")
    assert lexicon.load(path, name="Mots").name == "Mots"
    assert repr(lexicon.load(path, name="Mots")) == "<Lexicon Mots words=1>"


def test_load_utf8_with_bom_and_crlf(tmp_path: Path) -> None:
    path = write(tmp_path, "bom.txt", b"\xef\xbb\xbfmaison\r\nporte\r\n\r\n")
    lex = lexicon.load(path)
    assert lex.word_count == 2
    assert "MAISON" in lex
    assert "PORTE" in lex
    assert lex.report is not None
    assert lex.report.skipped == {}
    assert lex.report.blank_lines == 1


def test_load_gzip(tmp_path: Path) -> None:
    path = write(tmp_path, "words.txt.gz", gzip.compress("maison\nété\n".encode()))
    lex = lexicon.load(path)
    assert lex.word_count == 2
    assert "ETE" in lex


def test_load_gzip_without_gz_suffix(tmp_path: Path) -> None:
    # Recognised by its magic number, not by its name.
    path = write(tmp_path, "words.txt", gzip.compress(b"maison\n"))
    assert "MAISON" in lexicon.load(path)


def test_load_latin1(tmp_path: Path) -> None:
    path = write(tmp_path, "latin1.txt", "été\nnaïve\ngarçon\n".encode("latin-1"))
    lex = lexicon.load(path)
    assert lex.word_count == 3
    for word in ("ETE", "NAIVE", "GARCON", "été"):
        assert word in lex
    assert lex.report is not None
    assert lex.report.skipped == {}


#: Notepad's "Unicode" and "Unicode big endian": a byte order mark, then CR LF line ends.
NOTEPAD = "cœur\r\nÉté\r\nmaison\r\nporte-avions\r\n"


@pytest.mark.parametrize(
    ("bom", "codec"), [(codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")]
)
def test_a_utf16_list_with_its_byte_order_mark_is_read(tmp_path: Path, bom: bytes, codec: str) -> None:
    path = write(tmp_path, "notepad.txt", bom + NOTEPAD.encode(codec))
    lex = lexicon.load(path)
    assert lex.word_count == 3 and all(w in lex for w in ("COEUR", "ETE", "MAISON"))
    assert lex.report is not None and lex.report.lines == 4 and lex.report.blank_lines == 0
    assert lex.report.examples == {NON_LETTERS: ["porte-avions"]}
    gzipped = write(tmp_path, "notepad.txt.gz", gzip.compress(bom + NOTEPAD.encode(codec)))
    assert lexicon.load(gzipped).word_count == 3


@pytest.mark.parametrize("head", [b"", codecs.BOM_UTF8])
def test_a_utf8_list_is_read_with_or_without_its_byte_order_mark(tmp_path: Path, head: bytes) -> None:
    path = write(tmp_path, "words.txt", head + NOTEPAD.encode())
    lex = lexicon.load(path)
    assert lex.word_count == 3 and "COEUR" in lex
    assert lex.report is not None and lex.report.lines == 4


def test_a_file_with_a_utf16_byte_order_mark_but_no_text_is_refused(tmp_path: Path) -> None:
    # UTF-32 begins with the same two bytes as UTF-16 LE: read as UTF-16, it is full of NULs.
    path = write(tmp_path, "words.txt", codecs.BOM_UTF32_LE + "maison\nporte\n".encode("utf-32-le"))
    with pytest.raises(LexiconError, match="not a text word list"):
        lexicon.load(path)


LATE_LATIN1 = "maison\n" * 20 + "été\n"  # not UTF-8 only well after the start


@pytest.mark.parametrize(
    ("data", "text"),
    [
        (NOTEPAD.encode(), NOTEPAD),
        (codecs.BOM_UTF16_LE + NOTEPAD.encode("utf-16-le"), NOTEPAD),
        (NOTEPAD.encode("cp1252"), NOTEPAD),
        (LATE_LATIN1.encode("latin-1"), LATE_LATIN1),
        ("a\rb\r\nc\n\nd\x85e\u2028f".encode(), "a\rb\r\nc\n\nd\x85e\u2028f"),  # every line end
    ],
)
def test_a_list_read_a_chunk_at_a_time_gives_the_lines_of_the_whole(
    monkeypatch: pytest.MonkeyPatch, data: bytes, text: str
) -> None:
    # Chunks of 1 to 7 bytes cut every line end, CR LF pair and character somewhere.
    for size in range(1, 8):
        monkeypatch.setattr(lexicon, "_CHUNK", size)
        assert lexicon.decode_lines(data, Path("words.txt")) == text.splitlines()


def test_a_list_larger_than_allowed_once_unpacked_is_refused(tmp_path: Path) -> None:
    data = b"maison\n" * 1000
    path = write(tmp_path, "bomb.txt.gz", gzip.compress(data))
    assert path.stat().st_size < 1000
    with pytest.raises(LexiconError, match=r"bomb\.txt\.gz is larger than 0\.00390625 MB once unpacked"):
        lexicon.load(path, max_bytes=4096)
    assert lexicon.load(path, max_bytes=len(data)).word_count == 1


def test_a_compile_reports_its_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lexicon, "_CHUNK", 64)
    path = write(
        tmp_path, "words.txt", "".join(f"mot{chr(65 + i % 26)}{chr(65 + i // 26)}\n" for i in range(600))
    )
    said: list[float] = []
    lexicon.load(path, use_cache=False, progress=said.append)
    assert len(said) > 10 and said == sorted(said) and said[-1] == 1.0
    assert 0 < said[-2] <= lexicon._READ_SHARE


def test_the_automaton_is_the_same_whatever_the_order_of_the_words(enable: Lexicon) -> None:
    words = ["ZOO", "QI", "AA", "ZOOS", "QIS", "AAH"]
    reference = gaddag.build(sorted(words))
    shuffled = gaddag.build_joined("\n".join(reversed(words + words)).encode())
    assert shuffled.to_bytes() == reference.to_bytes()


def test_binary_file_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "words.bin", b"maison\n\x00\x01\x02\x03porte\n")
    with pytest.raises(LexiconError, match="not a text word list"):
        lexicon.load(path)


def test_gzipped_binary_file_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "words.gz", gzip.compress(bytes(range(256)) * 4))
    with pytest.raises(LexiconError, match="not a text word list"):
        lexicon.load(path)


def test_damaged_gzip_is_refused(tmp_path: Path) -> None:
    data = gzip.compress(b"maison\nporte\n" * 100)
    path = write(tmp_path, "words.txt.gz", data[: len(data) // 2])
    with pytest.raises(LexiconError, match="damaged gzip"):
        lexicon.load(path)


def test_missing_file_has_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "nowhere" / "words.txt"
    with pytest.raises(LexiconError) as info:
        lexicon.load(path)
    message = str(info.value)
    assert message.startswith("cannot read word list")
    assert str(path) in message
    assert "No such file" in message


def test_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(LexiconError, match="cannot read word list"):
        lexicon.load(tmp_path)


def test_read_lines_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LexiconError, match="cannot read word list"):
        lexicon.read_lines(tmp_path / "missing.txt")


@pytest.mark.parametrize("content", [b"", b"\n\n  \n", b"a\nb2\nporte-avions\n", b"\xef\xbb\xbf"])
def test_list_without_a_usable_word_is_refused(tmp_path: Path, content: bytes) -> None:
    path = write(tmp_path, "empty.txt", content)
    with pytest.raises(LexiconError, match="no usable word"):
        lexicon.load(path)


def test_empty_list_error_includes_the_report(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.txt", "a\nporte-avions\n")
    with pytest.raises(LexiconError) as info:
        lexicon.load(path)
    assert "skipped 1 with characters other than letters: porte-avions" in str(info.value)
    assert "skipped 1 shorter than 2 letters: a" in str(info.value)


def test_from_words() -> None:
    lex = Lexicon.from_words(["maison", "Été", "ete", "x"], name="mini")
    assert lex.name == "mini"
    assert lex.word_count == 2
    assert "ETE" in lex
    assert lex.report is not None
    assert lex.report.duplicates == 1
    with pytest.raises(LexiconError, match="no usable word"):
        Lexicon.from_words(["x", "1", ""])


def test_from_words_checksum_depends_on_the_words_only() -> None:
    a = Lexicon.from_words(["porte", "maison"])
    b = Lexicon.from_words(["MAISON", "porte", "Porte"])
    c = Lexicon.from_words(["maison", "portes"])
    assert a.checksum == b.checksum != c.checksum


# --------------------------------------------------------------------------- membership

WORDS = ["maison", "maisons", "porte", "été", "cœur", "live", "ab", "zythum"]


@pytest.fixture
def small(tmp_path: Path) -> Lexicon:
    return lexicon.load(write(tmp_path, "small.txt", "\n".join(WORDS) + "\n"))


@pytest.mark.parametrize(
    "word",
    [
        "MAISON",
        "maison",
        "Maisons",
        "PORTE",
        " porte\t",
        "ETE",
        "été",
        "ÉTÉ",
        "COEUR",
        "cœur",
        "LIVE",
        "AB",
        "ZYTHUM",
    ],
)
def test_word_in_lexicon(small: Lexicon, word: str) -> None:
    assert word in small


@pytest.mark.parametrize(
    "word",
    [
        "MAIS",  # prefix of stored words
        "MAISO",
        "PORT",
        "AISON",  # suffix
        "AISO",  # inside
        "MAISONNETTE",  # extension
        "NOSIAM",  # reversed words
        "EVIL",
        "ETROP",
        "BA",
        "A",  # one letter: never a word
        "Z",
        "",
        "   ",
        "PORTE-AVIONS",  # not letters
        "POR TE",
        "MAISON1",
        "ÉTÉS",
        "ΜΑΙΣΟΝ",  # Greek capitals that look like Latin
    ],
)
def test_word_not_in_lexicon(small: Lexicon, word: str) -> None:
    assert word not in small


@pytest.mark.parametrize("thing", [None, 42, 3.5, b"MAISON", ["MAISON"], ("M", "A"), object()])
def test_non_str_is_never_in_lexicon(small: Lexicon, thing: object) -> None:
    assert thing not in small


def test_contains_codes(small: Lexicon) -> None:
    assert small.contains_codes(codes("MAISON"))
    assert not small.contains_codes(codes("MAISO"))
    assert not small.contains_codes(codes("NOSIAM"))
    assert not small.contains_codes([])
    assert not small.contains_codes(codes("A"))


@settings(max_examples=60, deadline=None)
@given(
    words=st.frozensets(
        st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=2, max_size=15), min_size=1, max_size=25
    ),
    probes=st.lists(st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=0, max_size=15), max_size=60),
)
def test_lexicon_membership_matches_the_word_set(words: frozenset[str], probes: list[str]) -> None:
    lex = Lexicon.from_words(words)
    assert lex.word_count == len(words)
    for w in words:
        assert w in lex
        assert w.lower() in lex
    for p in probes:
        assert (p in lex) == (p in words)


# --------------------------------------------------------------------------- cache


def cache_files(cache: Path, suffix: str) -> list[Path]:
    return sorted((cache / "lexicons").glob(f"*{suffix}"))


def test_cache_dir_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ARBITER_CACHE_DIR", str(tmp_path / "explicit"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert lexicon.cache_dir() == tmp_path / "explicit"
    monkeypatch.delenv("ARBITER_CACHE_DIR")
    assert lexicon.cache_dir() == tmp_path / "xdg" / "arbiter"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert lexicon.cache_dir() == tmp_path / "home" / ".cache" / "arbiter"


def test_second_load_comes_from_the_cache(tmp_path: Path, cache: Path, spy: BuildSpy) -> None:
    path = write(tmp_path, "words.txt", "maison\nporte\nété\nx\n")
    first = lexicon.load(path)
    assert spy.calls == 1
    assert len(cache_files(cache, ".gdg")) == 1
    assert len(cache_files(cache, ".json")) == 1
    spy.forbidden = True
    second = lexicon.load(path, name="again")
    assert second.name == "again"
    assert second.word_count == first.word_count == 3
    assert second.checksum == first.checksum
    assert second.report is not None
    assert first.report is not None
    assert second.report.to_dict() == first.report.to_dict()
    assert second.gaddag.to_bytes() == first.gaddag.to_bytes()
    assert "ETE" in second
    assert "X" not in second


def test_changed_source_is_rebuilt(tmp_path: Path, cache: Path, spy: BuildSpy) -> None:
    path = write(tmp_path, "words.txt", "maison\nporte\n")
    assert "MAISON" in lexicon.load(path)
    path.write_text("maison\nfenetre\n", "utf-8")
    lex = lexicon.load(path)
    assert spy.calls == 2
    assert "FENETRE" in lex
    assert "PORTE" not in lex
    assert len(cache_files(cache, ".gdg")) == 2
    spy.forbidden = True
    assert "FENETRE" in lexicon.load(path)


def test_max_length_has_its_own_cache_entry(tmp_path: Path, spy: BuildSpy) -> None:
    path = write(tmp_path, "words.txt", "maison\nmaisons\n")
    assert lexicon.load(path).word_count == 2
    short = lexicon.load(path, max_length=6)
    assert spy.calls == 2
    assert short.word_count == 1
    assert "MAISONS" not in short
    spy.forbidden = True
    assert lexicon.load(path, max_length=6).word_count == 1
    assert lexicon.load(path).word_count == 2


@pytest.mark.parametrize(
    ("suffix", "damage"),
    [
        (".gdg", b""),
        (".gdg", b"garbage, not a compiled lexicon"),
        (".gdg", b"ARBGDG1\n\xff\xff\xff\x00\xff\xff\xff\x00"),  # sizes far beyond the data
        (".json", b""),
        (".json", b"{not json"),
        (".json", b"[1, 2, 3]"),
        (".json", b'{"word_count": 2}'),
        (".json", b'{"word_count": 2, "report": {"unknown": 1}}'),
        (".json", b"\xff\xfe binary"),
    ],
)
def test_damaged_cache_is_ignored_and_rebuilt(
    tmp_path: Path, cache: Path, spy: BuildSpy, suffix: str, damage: bytes
) -> None:
    path = write(tmp_path, "words.txt", "maison\nporte\n")
    lexicon.load(path)
    (target,) = cache_files(cache, suffix)
    target.write_bytes(damage)
    lex = lexicon.load(path)
    assert spy.calls == 2
    assert lex.word_count == 2
    assert "MAISON" in lex
    assert "PORTE" in lex
    # The rebuild rewrote a good cache entry.
    spy.forbidden = True
    assert "PORTE" in lexicon.load(path)


@pytest.mark.parametrize("suffix", [".gdg", ".json"])
def test_half_missing_cache_is_rebuilt(tmp_path: Path, cache: Path, spy: BuildSpy, suffix: str) -> None:
    path = write(tmp_path, "words.txt", "maison\nporte\n")
    lexicon.load(path)
    (target,) = cache_files(cache, suffix)
    target.unlink()
    assert "PORTE" in lexicon.load(path)
    assert spy.calls == 2


def test_cache_cut_inside_the_size_header_is_rebuilt(tmp_path: Path, cache: Path) -> None:
    path = write(tmp_path, "words.txt", "maison\nporte\n")
    lexicon.load(path)
    (gdg,) = cache_files(cache, ".gdg")
    gdg.write_bytes(gdg.read_bytes()[:12])
    assert "MAISON" in lexicon.load(path)


def test_cache_damaged_in_place_is_not_trusted(tmp_path: Path, cache: Path) -> None:
    path = write(tmp_path, "words.txt", "maison\nporte\n")
    lexicon.load(path)
    (gdg,) = cache_files(cache, ".gdg")
    data = gdg.read_bytes()
    gdg.write_bytes(data[:16] + bytes(len(data) - 16))
    lex = lexicon.load(path)
    assert "MAISON" in lex


def test_use_cache_false_neither_reads_nor_writes(tmp_path: Path, cache: Path, spy: BuildSpy) -> None:
    path = write(tmp_path, "words.txt", "maison\n")
    lexicon.load(path, use_cache=False)
    assert not cache.exists()
    lexicon.load(path)
    lexicon.load(path, use_cache=False)
    assert spy.calls == 3


def test_unwritable_cache_only_costs_a_rebuild(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spy: BuildSpy
) -> None:
    blocker = write(tmp_path, "not-a-folder", "x")
    monkeypatch.setenv("ARBITER_CACHE_DIR", str(blocker))
    path = write(tmp_path, "words.txt", "maison\n")
    assert "MAISON" in lexicon.load(path)
    assert "MAISON" in lexicon.load(path)
    assert spy.calls == 2
    assert blocker.read_text() == "x"


def test_no_temporary_files_are_left_behind(tmp_path: Path, cache: Path) -> None:
    lexicon.load(write(tmp_path, "words.txt", "maison\n"))
    assert not list((cache / "lexicons").glob("*.tmp"))


# --------------------------------------------------------------------------- bundled lexicons


def test_bundled_paths() -> None:
    assert lexicon.bundled_path("enable") == LEXICONS / "enable.txt.gz"
    assert lexicon.bundled_path("french") == LEXICONS / "french.txt.gz"
    with pytest.raises(LexiconError, match="unknown bundled lexicon 'klingon': choose enable, french"):
        lexicon.bundled_path("klingon")


def test_bundled_enable_is_the_corpus_list() -> None:
    assert hashlib.sha256(lexicon.bundled_path("enable").read_bytes()).hexdigest() == ENABLE_SHA256


@pytest.fixture(scope="module")
def french_words() -> list[str]:
    return gzip.decompress(lexicon.bundled_path("french").read_bytes()).decode("ascii").split("\n")


def test_bundled_french_file_is_a_clean_sorted_list(french_words: list[str]) -> None:
    data = lexicon.bundled_path("french").read_bytes()
    assert data[4:8] == b"\x00\x00\x00\x00"  # gzip mtime 0: rebuilds are byte-identical
    assert french_words[-1] == ""  # final newline
    words = french_words[:-1]
    assert len(words) == FRENCH_WORDS
    assert words == sorted(set(words))
    assert all(w.isascii() and w.isalpha() and w.isupper() and 2 <= len(w) <= 21 for w in words)


def test_bundled_french_has_no_abbreviation_or_proper_noun(french_words: list[str]) -> None:
    words = set(french_words)
    vowelless = {w for w in words if w and not set(w) & set("AEIOUY")}
    assert vowelless == {"BRRR", "PFFT", "PST"}
    for gone in ("KM", "KG", "CM", "CF", "MS", "ETC", "JANV", "REF", "DIV", "REICHSTAG", "TOUSSAINT"):
        assert gone not in words
    for kept in ("MAISON", "COEUR", "ETE", "OEUVRE", "NAIVE", "PARIS", "MARIE", "DOUAI", "CANADA", "KIL"):
        assert kept in words


def _script() -> ModuleType:
    name = "make_french_lexicon"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_french_build_rules_on_a_sample() -> None:
    script = _script()
    entries = ["a-t-il", "a", "été", "éte", "cœur", "km", "pst", "etc", "toussaint", "maison", "x" * 22]
    result = script.build(entries, strict=False)
    assert result.words == ["COEUR", "ETE", "MAISON", "PST"]
    assert [r.removed for r in result.rules] == [1, 2, 1, 1, 1, 1]
    data = script.encode(result.words)
    assert data == script.encode(result.words)
    assert gzip.decompress(data) == b"COEUR\nETE\nMAISON\nPST\n"
    with pytest.raises(SystemExit, match="deny-list entries absent"):
        script.build(entries)


@pytest.fixture(scope="session")
def bundled() -> Iterator[dict[str, Lexicon]]:
    """Both shipped lexicons, compiled once into the ordinary cache (slow the first time).

    Session fixtures are set up before the function-scoped ``cache`` fixture, so this one
    sees the real environment and shares its cache with the corpus fixtures of
    tests/conftest.py (the bundled ENABLE is byte-identical to the corpus one).
    """
    yield {name: lexicon.load_bundled(name) for name in ("enable", "french")}


def test_bundled_enable_loads(bundled: dict[str, Lexicon]) -> None:
    enable = bundled["enable"]
    assert enable.name == "enable"
    # ENABLE has 172,820 words; the 57 longer than 21 letters (the side of the biggest
    # board, lexicon.MAX_LENGTH) can never be played and are skipped.
    assert enable.report is not None
    assert enable.report.lines == 172_820
    assert enable.report.skipped == {"longer than 21 letters": 57}
    assert enable.word_count == 172_820 - 57
    for word in ("QUIXOTIC", "aa", "zyzzyvas", "COUNTERREVOLUTIONARY", "ADRENOCORTICOSTEROIDS"):
        assert word in enable
    for word in ("QUIXOTI", "XYZZY", "MAISON", "A", "COUNTERREVOLUTIONARIES", "ETHYLENEDIAMINETETRAACETATES"):
        assert word not in enable


def test_bundled_french_loads(bundled: dict[str, Lexicon]) -> None:
    french = bundled["french"]
    assert french.name == "french"
    assert french.word_count == FRENCH_WORDS
    for word in ("MAISON", "COEUR", "cœur", "ETE", "été", "OEUVRE", "ZYTHUM", "BRRR", "PST"):
        assert word in french
    for word in ("KM", "CF", "ETC", "JANV", "REICHSTAG", "TOUSSAINT", "MAISONN", "A", "PORTE-AVIONS"):
        assert word not in french
