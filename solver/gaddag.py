"""A minimized GADDAG (Gordon 1994) stored as four flat integer arrays.

For a word ``w`` of length n the automaton holds, for i in 1..n, the string
``reverse(w[:i]) + SEP + w[i:]`` (for i = n, ``reverse(w)`` with no separator). A move is
generated from an anchor square by walking left from the anchor, then across the
separator and right from the anchor.

Layout, chosen so that a compiled kernel can take the same arrays:

* ``mask[n]``: bitmask of the labels leaving node n (bit 0 = separator, bit c = letter c);
* ``accepts[n]``: bitmask of labels whose arc from n completes a stored string;
* ``base[n]``: index in ``kids`` of n's first child; the child for label c is
  ``kids[base[n] + popcount(mask[n] & ((1 << c) - 1))]``.

Node 0 is the root. Built with Daciuk et al.'s incremental algorithm on sorted input
(minimal in one pass, no full trie in memory).
"""

from __future__ import annotations

import mmap
import struct
from array import array
from collections.abc import Iterable, Sequence
from typing import Union

from solver import compiled

SEP = 0
_MAGIC = b"ARBGDG2\n"
#: magic, node count, arc count, then the arrays' checksum (:func:`fast64`).
_HEADER = struct.Struct("<8sIIQ")
_LITTLE = array("I", [1]).tobytes() == b"\x01\x00\x00\x00"
_PRIME = 0x100000001B3
_MASK64 = (1 << 64) - 1
_SEEDS = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0x27D4EB2F165667C5)

#: The arrays: ``array('I')`` when built, zero-copy views of the cache file when loaded.
U32 = Union["array[int]", memoryview]


def fast64(arrays: Sequence[Sequence[int]]) -> int:
    """The checksum stored in a compiled lexicon's header: per array, four lanes of
    xor-then-multiply (word j in lane j % 4), the arrays folded in order. The reference
    of the compiled kernel's ``checksum``, cheap enough to run on every load; this one,
    far slower, serves where the kernel is not built (docs/decisions.md)."""
    out = 0
    for words in arrays:
        lanes = [seed ^ out for seed in _SEEDS]
        for j, w in enumerate(words):
            k = j & 3
            lanes[k] = ((lanes[k] ^ w) * _PRIME) & _MASK64
        folded = len(words)
        for h in lanes:
            folded = ((folded ^ h) * _PRIME) & _MASK64
        out = folded
    return out


class Gaddag:
    __slots__ = ("accepts", "base", "check", "kids", "mask", "native")

    def __init__(self, mask: U32, accepts: U32, base: U32, kids: U32, check: int | None = None):
        self.mask = mask
        self.accepts = accepts
        self.base = base
        self.kids = kids
        #: The checksum the arrays were stored with (None: built here, not read).
        self.check = check
        #: The compiled kernel's checked view of the arrays (``solver._kernel.Graph``),
        #: made by the generator on first use, or by :func:`from_bytes` when checking.
        self.native: object | None = None

    @property
    def node_count(self) -> int:
        return len(self.mask)

    def child(self, node: int, label: int) -> int:
        """Child of ``node`` along ``label``, or -1."""
        m = self.mask[node]
        bit = 1 << label
        if not m & bit:
            return -1
        child: int = self.kids[self.base[node] + (m & (bit - 1)).bit_count()]
        return child

    def contains(self, word: Sequence[int]) -> bool:
        """Whether a word (letter codes 1..26) is stored; words are read reversed."""
        if len(word) < 2:
            return False
        node = 0
        for code in reversed(word[1:]):
            node = self.child(node, code)
            if node < 0:
                return False
        return bool(self.accepts[node] >> word[0] & 1)

    def checksum(self) -> int:
        arrays = (self.mask, self.accepts, self.base, self.kids)
        if compiled.BUILT:
            return compiled.checksum(*arrays)
        return fast64(arrays)

    def to_bytes(self) -> bytes:
        parts = [_HEADER.pack(_MAGIC, len(self.mask), len(self.kids), self.checksum())]
        for arr in (self.mask, self.accepts, self.base, self.kids):
            a = array("I", arr)
            if not _LITTLE:
                a.byteswap()
            parts.append(a.tobytes())
        return b"".join(parts)

    @classmethod
    def from_bytes(cls, data: bytes | bytearray | memoryview | mmap.mmap, *, check: bool = True) -> Gaddag:
        """Read :meth:`to_bytes` output; raises ``ValueError`` on anything else. The arrays
        are views of ``data`` (no copy, on a little-endian machine). ``check``: verify the
        structure (every index in range) and the checksum, in the compiled kernel; without
        the kernel, the checksum only (far slower)."""
        view = memoryview(data)
        if len(view) < len(_MAGIC) or bytes(view[: len(_MAGIC)]) != _MAGIC:
            raise ValueError("not a compiled lexicon (bad header)")
        if len(view) < _HEADER.size:
            raise ValueError("compiled lexicon is truncated (no size header)")
        _, nodes, arcs, stored = _HEADER.unpack_from(view)
        off = _HEADER.size
        if len(view) != off + 4 * (3 * nodes + arcs):
            raise ValueError("compiled lexicon is truncated or has trailing bytes")
        arrays: list[U32] = []
        for n in (nodes, nodes, nodes, arcs):
            part = view[off : off + 4 * n]
            if _LITTLE:
                arrays.append(part.cast("I"))
            else:
                a = array("I")
                a.frombytes(part)
                a.byteswap()
                arrays.append(a)
            off += 4 * n
        mask, accepts, base, kids = arrays
        graph = cls(mask, accepts, base, kids, check=stored)
        if check:
            if compiled.BUILT:  # ValueError when damaged
                graph.native = compiled.Graph(mask, accepts, base, kids, check=stored)
            elif fast64(arrays) != stored:
                raise ValueError("damaged lexicon: checksum mismatch")
        return graph


def gaddag_strings(word: str) -> Iterable[str]:
    """The GADDAG strings of a word, with ``^`` as the separator."""
    n = len(word)
    for i in range(1, n):
        yield word[i - 1 :: -1] + "^" + word[i:]
    yield word[::-1]


def _label(ch: str) -> int:
    return SEP if ch == "^" else ord(ch) - 64


def build(words: Iterable[str]) -> Gaddag:
    """Build from uppercase A-Z words (each of 2+ letters; duplicates allowed): in the
    compiled kernel (ENABLE in well under a second), else by :func:`build_py`, which
    gives the same arrays."""
    if not compiled.BUILT:
        return build_py(words)
    return build_joined("\n".join(words).encode("ascii"))


def build_joined(data: bytes) -> Gaddag:
    """:func:`build` from the words joined by newlines, in any order: a long list need not
    be held as a list of strings too."""
    if not compiled.BUILT:
        return build_py(data.decode("ascii").split("\n"))
    arrays: list[array[int]] = []
    for part in compiled.build(data):
        a = array("I")
        a.frombytes(part)
        arrays.append(a)
    mask, accepts, base, kids = arrays
    return Gaddag(mask, accepts, base, kids)


def build_py(words: Iterable[str]) -> Gaddag:
    """The reference build, in Python (Daciuk et al.'s algorithm; the kernel's is the fast one)."""
    strings = sorted({s for w in words for s in gaddag_strings(w)})

    # Build-time nodes: edges[n] is a list of (label char, child id), final[n] a flag.
    edges: list[list[tuple[str, int]]] = [[]]
    final: list[bool] = [False]
    free: list[int] = []
    register: dict[tuple[bool, tuple[tuple[str, int], ...]], int] = {}

    def new_node() -> int:
        if free:
            n = free.pop()
            edges[n] = []
            final[n] = False
            return n
        edges.append([])
        final.append(False)
        return len(edges) - 1

    def minimize(path: list[int], down_to: int) -> None:
        for i in range(len(path) - 1, down_to, -1):
            node, parent = path[i], path[i - 1]
            sig = (final[node], tuple(edges[node]))
            found = register.get(sig)
            if found is None:
                register[sig] = node
            else:
                label, _ = edges[parent][-1]
                edges[parent][-1] = (label, found)
                free.append(node)
        del path[down_to + 1 :]

    prev = ""
    path = [0]
    for s in strings:
        p = 0
        limit = min(len(prev), len(s))
        while p < limit and prev[p] == s[p]:
            p += 1
        minimize(path, p)
        for ch in s[p:]:
            n = new_node()
            edges[path[-1]].append((ch, n))
            path.append(n)
        final[path[-1]] = True
        prev = s
    minimize(path, 0)

    # Number the reachable nodes breadth-first and lay out their children contiguously.
    order = {0: 0}
    queue = [0]
    for node in queue:
        for _, child in edges[node]:
            if child not in order:
                order[child] = len(queue)
                queue.append(child)
    count = len(queue)
    mask = array("I", bytes(4 * count))
    accepts = array("I", bytes(4 * count))
    base = array("I", bytes(4 * count))
    kids = array("I")
    for new_id, node in enumerate(queue):
        base[new_id] = len(kids)
        m = acc = 0
        for ch, child in sorted(edges[node], key=lambda e: _label(e[0])):
            bit = 1 << _label(ch)
            m |= bit
            if final[child]:
                acc |= bit
            kids.append(order[child])
        mask[new_id] = m
        accepts[new_id] = acc
    return Gaddag(mask, accepts, base, kids)
