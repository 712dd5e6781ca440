"""Selectors and conditions beyond the base game, usable by any deck file.

Regions next to your heroic pieces and the being's entry square, the support a target
needs from your pieces, steps that turn at most 45 degrees, and conditions about the summon
(what it destroyed) and the whole program (anything destroyed so far).
core.effects.interpreter calls these only when an instruction uses one of the new bits, so
base-game effects pay nothing.
"""

from core.constants import HEROIC
from core.jit import njit
from core.layout import (
    BOARD,
    COLOUR,
    CUR,
    EFF_BEING_SQ,
    EFF_DESTROYED_TOTAL,
    EFF_OVERSUMMONED,
    EFF_TARGET,
    STOCK,
)
from core.ops import (
    I_SUPPORT,
    P_EFFECT_DESTROYED,
    P_ENEMY_HAS_STOCK,
    P_NOT_OVERSUMMONED,
    P_OVERSUMMONED_ENEMY,
    R_ADJ_OWN_HEROIC,
    R_ENTRY,
)
from core.rules.modes import n_colours


@njit(cache=True, _nrt=False)
def region_more(s, T, inc, q, seat):
    """Is ``q`` in one of the newer regions of the union ``inc``?"""
    if (inc & R_ENTRY) and q == s[EFF_TARGET]:
        return True
    if inc & R_ADJ_OWN_HEROIC:
        for d in range(8):
            p = T.nbr[q, d]
            if p >= 0:
                code = s[BOARD + p]
                if code != 0 and (code >> 2) == seat and (code & 3) == HEROIC:
                    return True
    return False


@njit(cache=True, _nrt=False)
def support_ok(s, T, i, q, seat):
    """The piece on ``q`` has at least the support its rank needs: that many of your pieces
    next to it, the being itself not counted (Deathbringer)."""
    need = (T.ops[i, I_SUPPORT] >> (4 * ((s[BOARD + q] & 3) - 1))) & 15
    if need == 0:
        return True
    being = s[EFF_BEING_SQ]
    n = 0
    for d in range(8):
        p = T.nbr[q, d]
        if p >= 0 and p != being:
            code = s[BOARD + p]
            if code != 0 and (code >> 2) == seat:
                n += 1
    return n >= need


@njit(cache=True, _nrt=False)
def within_45(d, prev):
    """Direction ``d`` is the previous move's direction or one of its two neighbours."""
    if prev < 0:
        return False
    return d == prev or d == (prev + 1) % 8 or d == (prev + 7) % 8


@njit(cache=True, _nrt=False)
def enemy_has_stock(s, seat):
    for c in range(n_colours(s)):
        if c != seat and s[STOCK + c] > 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def cond_more(s, T, c):
    """The newer predicates of condition mask ``c`` (core.ops.P_MORE) all hold."""
    seat = s[COLOUR + s[CUR]]
    over = s[EFF_OVERSUMMONED]
    if (c & P_NOT_OVERSUMMONED) and over != 0:
        return False
    if (c & P_OVERSUMMONED_ENEMY) and (over == 0 or (over >> 2) == seat):
        return False
    if (c & P_EFFECT_DESTROYED) and s[EFF_DESTROYED_TOTAL] < 1:
        return False
    if (c & P_ENEMY_HAS_STOCK) and not enemy_has_stock(s, seat):
        return False
    return True
