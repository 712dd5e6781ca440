"""Effect primitives shared by the op families: destroying a piece for the running effect,
remembering a touched square, selecting a piece. Kept apart from core.effects.interpreter so
that the op-family modules (stasis, linked placements...) can use them without an import cycle.
"""

from core.board.pieces import destroy
from core.constants import LEGENDARY, SQ_RED
from core.jit import njit
from core.layout import (
    BOARD,
    EFF_AFFECTED,
    EFF_AFFECTED_COLOURS,
    EFF_AFFECTED_N,
    EFF_BEING_SQ,
    EFF_DESTROYED_TOTAL,
    EFF_LAST_DESTROYED,
    EFF_LAST_DESTROYED_LEGEND,
    EFF_SEL_OWNER,
    EFF_SEL_OWNER_PREV,
    EFF_SEL_RANK,
    EFF_SEL_SQ,
    EFF_SEL_WAS_RED,
    MAX_AFFECTED,
)


@njit(cache=True, _nrt=False)
def kill(s, ev, q, seat, counts):
    """Destroy the piece on ``q`` for the running effect (result registers, the being)."""
    code = destroy(s, ev, q, seat, counts)
    if code != 0:
        s[EFF_DESTROYED_TOTAL] += 1
        s[EFF_LAST_DESTROYED] += 1
        if (code & 3) == LEGENDARY:
            s[EFF_LAST_DESTROYED_LEGEND] += 1
    if q == s[EFF_BEING_SQ]:
        s[EFF_BEING_SQ] = -1
    return code


@njit(cache=True, _nrt=False)
def touch(s, q):
    """Remember a square (and its piece's colour) as affected by this effect."""
    n = s[EFF_AFFECTED_N]
    if n < MAX_AFFECTED:
        s[EFF_AFFECTED + n] = q
        s[EFF_AFFECTED_N] = n + 1
    code = s[BOARD + q]
    if code != 0:
        s[EFF_AFFECTED_COLOURS] |= 1 << (code >> 2)


@njit(cache=True, _nrt=False)
def select_piece(s, T, q):
    """The piece on ``q`` becomes the selected piece (rank, owner, red square as now)."""
    code = s[BOARD + q]
    s[EFF_SEL_SQ] = q
    s[EFF_SEL_RANK] = code & 3
    s[EFF_SEL_OWNER_PREV] = s[EFF_SEL_OWNER]
    s[EFF_SEL_OWNER] = code >> 2
    s[EFF_SEL_WAS_RED] = 1 if T.sq_color[q] == SQ_RED else 0
