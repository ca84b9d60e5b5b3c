"""The pure-Python walker: the cross-sets of one line and the moves of one strip (a row
for the across pass, a column for the down pass), over the same flat arrays as the
compiled kernel (``solver/_kernel.c``). It is the reference the kernel is tested against
on the whole corpus, and the fallback where no C compiler was available
(``ARBITER_SOLVER_KERNEL=python`` forces it).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from solver.gaddag import Gaddag
from solver.recorders import Recorder
from solver.tiles import ALL_LETTERS, BLANK_BIT, LETTER_MASK, NUM_LETTERS

#: The cross-score of a square no tile touches across the strip (up or down in the across
#: pass): no word crosses it there.
NO_CROSS = -1


def cross_line(
    g: Gaddag,
    perp: Sequence[int],
    face: Sequence[int],
    cross: array[int],
    xscore: array[int],
    at: int,
    step: int,
) -> None:
    """One perpendicular line ``perp``: for each of its empty squares j, the letters the
    word through j allows and the face value of that word's tiles, written at
    ``at + j * step`` (every other square of the line gets no constraint)."""
    mask, accepts, base, kids = g.mask, g.accepts, g.base, g.kids
    n = len(perp)
    for j in range(n):
        sq = at + j * step
        cross[sq] = ALL_LETTERS
        xscore[sq] = NO_CROSS
        if perp[j] or not ((j > 0 and perp[j - 1]) or (j + 1 < n and perp[j + 1])):
            continue
        above = j - 1
        while above >= 0 and perp[above]:
            above -= 1
        below = j + 1
        while below < n and perp[below]:
            below += 1
        up = perp[above + 1 : j]
        down = perp[j + 1 : below]
        xscore[sq] = sum(face[c] for c in up) + sum(face[c] for c in down)
        # rev(up + L + down) = rev(down) L rev(up): walk rev(down) once, then each L.
        node = 0
        for c in reversed(down):
            bit = 1 << (c & LETTER_MASK)
            m = mask[node]
            if not m & bit:
                node = -1
                break
            node = kids[base[node] + (m & (bit - 1)).bit_count()]
        allowed = 0
        if node >= 0:
            m0 = mask[node]
            letters = m0 & ALL_LETTERS
            while letters:
                bit = letters & -letters
                letters ^= bit
                if not up:
                    if accepts[node] & bit:
                        allowed |= bit
                    continue
                cur = kids[base[node] + (m0 & (bit - 1)).bit_count()]
                ok = True
                for c in reversed(up[1:]):
                    b = 1 << (c & LETTER_MASK)
                    m = mask[cur]
                    if not m & b:
                        ok = False
                        break
                    cur = kids[base[cur] + (m & (b - 1)).bit_count()]
                if ok and accepts[cur] >> (up[0] & LETTER_MASK) & 1:
                    allowed |= bit
        cross[sq] = allowed


def generate_strip(
    g: Gaddag,
    tiles: list[int],
    cross: Sequence[int],
    xscore: Sequence[int],
    lm: Sequence[int],
    wm: Sequence[int],
    anchors: list[int],
    rack: list[int],
    values: list[int],
    face: list[int],
    rack_size: int,
    bingo_bonus: int,
    across: bool,
    line: int,
    recorder: Recorder,
) -> int:
    """Walk every move of one strip; returns the number of distinct placements.

    The recursion visits empty squares only: after a tile is placed, the run of board
    tiles next to it is walked inline, so each call is one (square, GADDAG node) state.
    go_left and go_right repeat their letter loop on purpose: a shared helper would cost
    a Python call per letter on the hottest path (the C kernel shares it for free).
    """
    mask, accepts, base, kids = g.mask, g.accepts, g.base, g.kids
    n = len(tiles)
    buf = [0] * n
    # For an empty square i: tiles lrun[i]..i-1 touch it on the left, i+1..rrun[i]-1 on the right.
    lrun = list(range(n))
    rrun = [i + 1 for i in range(n)]
    for i in range(n):
        j = i - 1
        while j >= 0 and tiles[j]:
            j -= 1
        lrun[i] = j + 1
        j = i + 1
        while j < n and tiles[j]:
            j += 1
        rrun[i] = j
    rack_bits = 0
    for code in range(1, NUM_LETTERS + 1):
        if rack[code]:
            rack_bits |= 1 << code
    found = [0]
    anchor = 0
    right_free = True
    left_limit = 0
    add = recorder.add
    down_single_skip = False
    sep_gate = sep_tile = 0

    def emit(start: int, end: int, nplaced: int, score: int) -> None:
        if nplaced == 1 and down_single_skip:
            return  # the across pass already has this one-tile move
        if nplaced == rack_size:
            score += bingo_bonus
        found[0] += 1
        if score >= recorder.threshold:
            add(score, across, line, start, buf[start : end + 1], nplaced)

    def go_left(pos: int, node: int, nplaced: int, msum: int, wmul: int, xsum: int, rbits: int) -> None:
        blanks = rack[0]
        any_real = ALL_LETTERS if blanks else 0  # letters a blank can still be, after a real tile
        any_blank = ALL_LETTERS if blanks > 1 else 0  # ... after spending a blank here
        m = mask[node]
        allowed = m & cross[pos] if blanks else m & cross[pos] & rbits
        if not allowed:
            return
        acc = accepts[node]
        b0 = base[node]
        lmv = lm[pos]
        wmv = wm[pos]
        xs = xscore[pos]
        nwmul = wmul * wmv
        start = lrun[pos]
        placed = nplaced + 1
        # Letters the square left of the word could take: checked before recursing, since
        # most left extensions die there and a Python call costs more than the test.
        left_gate = cross[start - 1] if start - 1 >= left_limit else 0
        while allowed:
            bit = allowed & -allowed
            allowed ^= bit
            letter = bit.bit_length() - 1
            node2 = kids[b0 + (m & (bit - 1)).bit_count()]
            a = acc & bit
            run_sum = 0
            q = pos - 1
            while q >= start:  # board tiles left of pos, read right to left
                sq = tiles[q]
                mm = mask[node2]
                bb = 1 << (sq & LETTER_MASK)
                if not mm & bb:
                    break
                a = accepts[node2] & bb
                node2 = kids[base[node2] + (mm & (bb - 1)).bit_count()]
                run_sum += face[sq]
                buf[q] = sq
                q -= 1
            if q >= start:
                continue
            m2 = mask[node2]
            lg = m2 & left_gate
            sep = kids[base[node2]] if m2 & 1 and sep_gate else -1
            sep_m = mask[sep] & sep_gate if sep >= 0 else 0
            cnt = rack[letter]
            if cnt:
                tv = values[letter] * lmv
                buf[pos] = letter
                ms = msum + tv + run_sum
                xsum2 = xsum if xs < 0 else xsum + (xs + tv) * wmv
                if a and right_free:
                    emit(start, anchor, placed, ms * nwmul + xsum2)
                if lg or sep_m:
                    rack[letter] = cnt - 1
                    rb = rbits ^ bit if cnt == 1 else rbits
                    if lg & (rb | any_real):
                        go_left(start - 1, node2, placed, ms, nwmul, xsum2, rb)
                    if sep_m & (sep_tile | rb | any_real):
                        go_right_entry(sep, start, placed, ms, nwmul, xsum2, rb)
                    rack[letter] = cnt
            if blanks:
                buf[pos] = letter | BLANK_BIT
                ms = msum + run_sum
                xsum2 = xsum if xs < 0 else xsum + xs * wmv
                if a and right_free:
                    emit(start, anchor, placed, ms * nwmul + xsum2)
                if lg or sep_m:
                    rack[0] = blanks - 1
                    other = rbits | any_blank
                    if lg & other:
                        go_left(start - 1, node2, placed, ms, nwmul, xsum2, rbits)
                    if sep_m & (sep_tile | other):
                        go_right_entry(sep, start, placed, ms, nwmul, xsum2, rbits)
                    rack[0] = blanks

    def go_right_entry(
        node: int, start: int, nplaced: int, msum: int, wmul: int, xsum: int, rbits: int
    ) -> None:
        """Cross the separator: walk the board tiles right of the anchor, if any."""
        pos = anchor + 1
        if tiles[pos]:
            end = rrun[anchor]
            a = 0
            q = pos
            while q < end:
                sq = tiles[q]
                mm = mask[node]
                bb = 1 << (sq & LETTER_MASK)
                if not mm & bb:
                    return
                a = accepts[node] & bb
                node = kids[base[node] + (mm & (bb - 1)).bit_count()]
                msum += face[sq]
                buf[q] = sq
                q += 1
            if a:
                emit(start, end - 1, nplaced, msum * wmul + xsum)
            if end < n and mask[node] and (rbits or rack[0]):
                go_right(end, node, start, nplaced, msum, wmul, xsum, rbits)
        elif rbits or rack[0]:
            go_right(pos, node, start, nplaced, msum, wmul, xsum, rbits)

    def go_right(
        pos: int, node: int, start: int, nplaced: int, msum: int, wmul: int, xsum: int, rbits: int
    ) -> None:
        blanks = rack[0]
        m = mask[node]
        allowed = m & cross[pos] if blanks else m & cross[pos] & rbits
        if not allowed:
            return
        acc = accepts[node]
        b0 = base[node]
        lmv = lm[pos]
        wmv = wm[pos]
        xs = xscore[pos]
        nwmul = wmul * wmv
        end = rrun[pos]
        placed = nplaced + 1
        right_gate = cross[end] if end < n else 0
        any_real = ALL_LETTERS if blanks else 0
        any_blank = ALL_LETTERS if blanks > 1 else 0
        while allowed:
            bit = allowed & -allowed
            allowed ^= bit
            letter = bit.bit_length() - 1
            node2 = kids[b0 + (m & (bit - 1)).bit_count()]
            a = acc & bit
            run_sum = 0
            q = pos + 1
            while q < end:  # board tiles right of pos
                sq = tiles[q]
                mm = mask[node2]
                bb = 1 << (sq & LETTER_MASK)
                if not mm & bb:
                    break
                a = accepts[node2] & bb
                node2 = kids[base[node2] + (mm & (bb - 1)).bit_count()]
                run_sum += face[sq]
                buf[q] = sq
                q += 1
            if q < end:
                continue
            more = mask[node2] & right_gate
            cnt = rack[letter]
            if cnt:
                tv = values[letter] * lmv
                buf[pos] = letter
                ms = msum + tv + run_sum
                xsum2 = xsum if xs < 0 else xsum + (xs + tv) * wmv
                if a:
                    emit(start, end - 1, placed, ms * nwmul + xsum2)
                if more:
                    rb = rbits ^ bit if cnt == 1 else rbits
                    if more & (rb | any_real):
                        rack[letter] = cnt - 1
                        go_right(end, node2, start, placed, ms, nwmul, xsum2, rb)
                        rack[letter] = cnt
            if blanks:
                buf[pos] = letter | BLANK_BIT
                ms = msum + run_sum
                xsum2 = xsum if xs < 0 else xsum + xs * wmv
                if a:
                    emit(start, end - 1, placed, ms * nwmul + xsum2)
                if more & (rbits | any_blank):
                    rack[0] = blanks - 1
                    go_right(end, node2, start, placed, ms, nwmul, xsum2, rbits)
                    rack[0] = blanks

    is_anchor = [False] * n
    for a in anchors:
        is_anchor[a] = True
    for a in anchors:
        anchor = a
        right_free = a + 1 >= n or not tiles[a + 1]
        down_single_skip = not across and xscore[a] != NO_CROSS
        # What may follow the separator: the board letter right of the anchor (no rack
        # needed), or the letters the empty square there allows.
        if a + 1 >= n:
            sep_gate = sep_tile = 0
        elif tiles[a + 1]:
            sep_gate = sep_tile = 1 << (tiles[a + 1] & LETTER_MASK)
        else:
            sep_gate, sep_tile = cross[a + 1], 0
        p = lrun[a] - 1
        while p >= 0 and not is_anchor[p] and not tiles[p]:
            p -= 1
        left_limit = p + 1
        go_left(a, 0, 0, 0, 1, 0, rack_bits)
    return found[0]
