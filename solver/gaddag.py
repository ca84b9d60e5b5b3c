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

import struct
from array import array
from collections.abc import Iterable, Sequence

SEP = 0
_MAGIC = b"ARBGDG1\n"


class Gaddag:
    __slots__ = ("accepts", "base", "kids", "mask")

    def __init__(self, mask: array[int], accepts: array[int], base: array[int], kids: array[int]):
        self.mask = mask
        self.accepts = accepts
        self.base = base
        self.kids = kids

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

    def to_bytes(self) -> bytes:
        parts = [_MAGIC, struct.pack("<II", len(self.mask), len(self.kids))]
        for arr in (self.mask, self.accepts, self.base, self.kids):
            a = array("I", arr)
            if array("I", [1]).tobytes() != b"\x01\x00\x00\x00":
                a.byteswap()
            parts.append(a.tobytes())
        return b"".join(parts)

    @classmethod
    def from_bytes(cls, data: bytes) -> Gaddag:
        """Read :meth:`to_bytes` output; raises ``ValueError`` on anything else."""
        if not data.startswith(_MAGIC):
            raise ValueError("not a compiled lexicon (bad header)")
        off = len(_MAGIC)
        if len(data) < off + 8:
            raise ValueError("compiled lexicon is truncated (no size header)")
        nodes, arcs = struct.unpack_from("<II", data, off)
        off += 8
        if len(data) != off + 4 * (3 * nodes + arcs):
            raise ValueError("compiled lexicon is truncated or has trailing bytes")
        arrays: list[array[int]] = []
        for n in (nodes, nodes, nodes, arcs):
            a = array("I")
            a.frombytes(data[off : off + 4 * n])
            if array("I", [1]).tobytes() != b"\x01\x00\x00\x00":
                a.byteswap()
            arrays.append(a)
            off += 4 * n
        return cls(*arrays)


def gaddag_strings(word: str) -> Iterable[str]:
    """The GADDAG strings of a word, with ``^`` as the separator."""
    n = len(word)
    for i in range(1, n):
        yield word[i - 1 :: -1] + "^" + word[i:]
    yield word[::-1]


def _label(ch: str) -> int:
    return SEP if ch == "^" else ord(ch) - 64


def build(words: Iterable[str]) -> Gaddag:
    """Build from uppercase A-Z words (each of 2+ letters; duplicates allowed)."""
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
