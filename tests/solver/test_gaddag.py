"""Unit tests of solver.gaddag: the automaton built minimal from a word list, the words it
contains and no other, and its compiled bytes read back or refused when damaged."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import gaddag
from solver.gaddag import Gaddag
from solver.tiles import rack_codes as codes


def test_gaddag_strings() -> None:
    assert list(gaddag.gaddag_strings("CAT")) == ["C^AT", "AC^T", "TAC"]
    assert list(gaddag.gaddag_strings("AB")) == ["A^B", "BA"]


def check_structure(g: Gaddag) -> None:
    """The flat arrays are consistent: every child index and every slot exists."""
    n = g.node_count
    assert len(g.accepts) == len(g.base) == n
    for node in range(n):
        mask = g.mask[node]
        assert g.accepts[node] & ~mask == 0
        assert g.base[node] + mask.bit_count() <= len(g.kids)
    assert all(0 <= kid < n for kid in g.kids)


def test_build_small_gaddag() -> None:
    words = ["CAT", "CATS", "AT", "ACT", "TACT"]
    g = gaddag.build(words)
    check_structure(g)
    for w in words:
        assert g.contains(codes(w))
    for w in ["CA", "TA", "TAC", "TS", "ATS", "CT", "C", "STAC", "CATSS"]:
        assert not g.contains(codes(w))
    assert g.child(0, 26) == -1  # no word holds a Z
    assert g.child(0, gaddag.SEP) == -1  # the separator never starts a string


def test_build_ignores_duplicates_and_order() -> None:
    words = ["MAISON", "PORTE", "MAISONS", "PORTES", "ETE"]
    a = gaddag.build(sorted(words))
    b = gaddag.build([*reversed(words), *words])
    assert a.to_bytes() == b.to_bytes()


def test_build_is_minimal_for_shared_suffixes() -> None:
    # Minimization merges equal sub-automata: many words with the same tail cost
    # far fewer nodes than the sum of their GADDAG strings.
    words = [f"{a}{b}ER" for a in "BCDFGHJKLMNPRST" for b in "AEIOU"]
    g = gaddag.build(words)
    check_structure(g)
    total_letters = sum(len(s) for w in words for s in gaddag.gaddag_strings(w))
    assert g.node_count < total_letters // 4
    assert all(g.contains(codes(w)) for w in words)


_small_words = st.text(alphabet="ABCE", min_size=2, max_size=7)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.frozensets(_small_words, min_size=1, max_size=40), probes=st.lists(_small_words, max_size=60))
def test_gaddag_contains_exactly_its_words(words: frozenset[str], probes: list[str]) -> None:
    g = gaddag.build(sorted(words))
    check_structure(g)
    for w in words:
        assert g.contains(codes(w)), w
    # Random probes, then everything that looks like a word: prefixes, suffixes, reversals.
    near = {w[:i] for w in words for i in range(len(w))} | {w[i:] for w in words for i in range(len(w))}
    near |= {w[::-1] for w in words} | {w + "A" for w in words} | {"A" + w for w in words}
    for p in [*probes, *near]:
        assert g.contains(codes(p)) == (p in words), p


@settings(max_examples=50, deadline=None)
@given(words=st.frozensets(_small_words, min_size=1, max_size=30))
def test_to_bytes_from_bytes_round_trip(words: frozenset[str]) -> None:
    g = gaddag.build(sorted(words))
    data = g.to_bytes()
    h = Gaddag.from_bytes(data)
    assert (h.mask, h.accepts, h.base, h.kids) == (g.mask, g.accepts, g.base, g.kids)
    assert h.to_bytes() == data
    assert all(h.contains(codes(w)) for w in words)


@pytest.fixture(scope="module")
def compiled() -> bytes:
    return gaddag.build(["MAISON", "MAISONS", "PORTE", "ETE", "LIVE"]).to_bytes()


def test_from_bytes_rejects_a_bad_header(compiled: bytes) -> None:
    # ARBGDG1: the format before the checksum, whose caches are rebuilt.
    for data in (b"", b"ARBGDG", b"ARBGDG1\n" + compiled[8:], b"x" + compiled):
        with pytest.raises(ValueError, match="bad header"):
            Gaddag.from_bytes(data)


def test_from_bytes_rejects_truncated_arrays(compiled: bytes) -> None:
    for cut in range(16, len(compiled)):
        with pytest.raises(ValueError, match="truncated"):
            Gaddag.from_bytes(compiled[:cut])


@pytest.mark.parametrize("cut", range(8, 16))
def test_from_bytes_rejects_a_truncated_size_header(compiled: bytes, cut: int) -> None:
    with pytest.raises(ValueError):
        Gaddag.from_bytes(compiled[:cut])
