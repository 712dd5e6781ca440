"""The mirror-place op: a piece on a marked square (``*``) is mirrored through the summon's
target square onto its ``+`` partner, as a piece of yours of the same rank.

The partner of the ``*`` mark at offset (dr, dc) from the target is the ``+`` mark at
(dr, -dc) or (-dr, dc), i.e. its reflection in the row or the column through the target.
A pattern symmetric about that line compiles into two orientations per axis (``*`` and
``+`` swapped), so the summon option already chooses which side is mirrored.
"""

from core.board.pieces import has_stock, put
from core.constants import EV_EFFECT_PLACE, LEGENDARY, SQ_RED
from core.effects.emit import emit_target
from core.jit import njit
from core.layout import (
    BOARD,
    CUR,
    EFF_AFFECTED,
    EFF_AFFECTED_COLOURS,
    EFF_AFFECTED_N,
    EFF_ORIENT,
    EFF_PLACED_N,
    EFF_PLACED_OWNER,
    EFF_SEL_OWNER,
    EFF_SEL_RANK,
    EFF_SEL_SQ,
    EFF_SEL_WAS_RED,
    EFF_TARGET,
    MAX_AFFECTED,
)
from core.ops import I_RANKS
from core.rules.events import log_event
from core.summon.orientations import MARK, MARK2


@njit(cache=True, _nrt=False)
def mirror_square(s, T, q):
    """The square mirroring ``q`` (a ``*`` mark of the summon's orientation), or -1."""
    o = s[EFF_ORIENT]
    t = s[EFF_TARGET]
    if o < 0 or t < 0:
        return -1
    dr = q // 9 - t // 9
    dc = q % 9 - t % 9
    marked = False
    for k in range(T.or_nmarks[o]):
        if T.or_marks[o, k, 2] == MARK and T.or_marks[o, k, 0] == dr and T.or_marks[o, k, 1] == dc:
            marked = True
    if not marked:
        return -1
    for k in range(T.or_nmarks[o]):
        if T.or_marks[o, k, 2] != MARK2:
            continue
        mr = T.or_marks[o, k, 0]
        mc = T.or_marks[o, k, 1]
        if (mr == dr and mc == -dc) or (mr == -dr and mc == dc):
            r = t // 9 + mr
            c = t % 9 + mc
            if 0 <= r < 9 and 0 <= c < 9 and T.sq_color[r * 9 + c] >= 0:
                return r * 9 + c
            return -1
    return -1


@njit(cache=True, _nrt=False)
def mirror_targets(s, T, i, seat, opts, n, alt):
    """(source, mirror) pairs: a piece of any colour whose rank is in the selector on a
    ``*`` mark, its mirror square empty, a piece of that rank in your stock."""
    ranks = T.ops[i, I_RANKS]
    for k in range(T.onboard.shape[0]):
        q = T.onboard[k]
        code = s[BOARD + q]
        if code == 0 or (code & 3) == LEGENDARY or ((1 << (code & 3)) & ranks) == 0:
            continue
        m = mirror_square(s, T, q)
        if m >= 0 and s[BOARD + m] == 0 and has_stock(s, seat, code & 3):
            n = emit_target(opts, n, q, m, alt)
    return n


@njit(cache=True, _nrt=False)
def mirror_apply(s, T, ev, a, b, seat):
    """Place your piece of the rank of the piece on ``a`` onto ``b``; ``a`` becomes the
    selected piece (so ``rank-common`` tests what was mirrored), ``b`` an affected square."""
    code = s[BOARD + a]
    put(s, b, seat, code & 3)
    log_event(s, ev, EV_EFFECT_PLACE, s[CUR], b, s[BOARD + b], 0)
    s[EFF_SEL_SQ] = a
    s[EFF_SEL_RANK] = code & 3
    s[EFF_SEL_OWNER] = code >> 2
    s[EFF_SEL_WAS_RED] = 1 if T.sq_color[a] == SQ_RED else 0
    if s[EFF_PLACED_N] < 2:
        s[EFF_PLACED_OWNER + s[EFF_PLACED_N]] = seat
    s[EFF_PLACED_N] += 1
    n = s[EFF_AFFECTED_N]
    if n < MAX_AFFECTED:
        s[EFF_AFFECTED + n] = b
        s[EFF_AFFECTED_N] = n + 1
    s[EFF_AFFECTED_COLOURS] |= 1 << seat
