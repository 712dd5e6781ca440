"""Where an effect instruction may act: the square, owner, rank and destination tests of its
selectors (regions, marks, who, combat), kept apart from writing options and applying them."""

import numpy as np

from core.board.bits import neighbours, with_square
from core.board.geometry import BM_ONBOARD
from core.constants import (
    SQ_GREEN,
    SQ_RED,
)
from core.effects.etherweave import (
    colourless,
    distance_2_ok,
    not_third_of_colour,
    region_ether,
)
from core.effects.nethervoid_select import dest_gateway, region_gateway
from core.effects.select import region_more, support_ok
from core.jit import njit
from core.layout import (
    BOARD,
    CUR,
    EFF_AFFECTED,
    EFF_AFFECTED_COLOURS,
    EFF_AFFECTED_N,
    EFF_BEING_SQ,
    EFF_COMBAT_USED,
    EFF_ORIENT,
    EFF_PLACED_N,
    EFF_PLACED_OWNER,
    EFF_SEL_OWNER,
    EFF_SEL_RANK,
    EFF_SEL_SQ,
    EFF_TARGET,
    GATEWAY,
)
from core.ops import (
    D_COLOURED,
    D_DISTANCE_2,
    D_EMPTY,
    D_EMPTY_OR_HEROIC,
    D_GATE,
    D_MARKED,
    D_NEXT_TO_OWN,
    F_SAME_RANK,
    I_DEST,
    I_DIST,
    I_EXCLUDE,
    I_FLAGS,
    I_MOVE_KIND,
    I_PARAM2,
    I_RANKS,
    I_REGION,
    I_REGION2,
    I_SUPPORT,
    I_WHO,
    MK_COMBAT,
    MK_COMBAT_ONCE,
    MK_STANDARD_IF_BEING,
    R_ADJ,
    R_ADJ_GREEN,
    R_ADJ_OWN,
    R_ADJ_SEL,
    R_AFFECTED,
    R_ARROW_RAY,
    R_BEING,
    R_COLOURLESS,
    R_CONNECTED,
    R_DIAG,
    R_DIST,
    R_ETHER,
    R_GATE,
    R_MARK2,
    R_MARKED,
    R_MORE,
    R_NEAR_GREEN,
    R_NEAR_RED,
    R_NEXT_TO_SAME_COLOUR,
    R_ORTHO,
    R_SEL,
    W_ENEMY,
    W_ENEMY_UNTOUCHED,
    W_MORE_COMMON,
    W_MORE_UPGRADED,
    W_NOT_THIRD_OF_COLOUR,
    W_PLACED_OWNER,
    W_SEL_OWNER,
    W_SELF,
    X_AFFECTED,
    X_BEING,
    X_GATEWAY,
)
from core.summon.orientations import ARROW_BASE, MARK, MARK2


@njit(cache=True, _nrt=False)
def _ref(s):
    """Reference square of regions: the being, or where it entered once it is gone."""
    b = s[EFF_BEING_SQ]
    return b if b >= 0 else s[EFF_TARGET]


@njit(cache=True, _nrt=False)
def _mark_at(s, T, q, kind):
    """Is ``q`` a mark of this kind in the orientation used for the summon?"""
    o = s[EFF_ORIENT]
    if o < 0:
        return False
    t = s[EFF_TARGET]
    for k in range(T.or_nmarks[o]):
        if T.or_marks[o, k, 2] != kind:
            continue
        r = t // 9 + T.or_marks[o, k, 0]
        c = t % 9 + T.or_marks[o, k, 1]
        if 0 <= r < 9 and 0 <= c < 9 and r * 9 + c == q:
            return True
    return False


@njit(cache=True, _nrt=False)
def has_arrow(s, T, d):
    o = s[EFF_ORIENT]
    if o < 0:
        return False
    for k in range(T.or_nmarks[o]):
        if T.or_marks[o, k, 2] == ARROW_BASE + d:
            return True
    return False


@njit(cache=True, _nrt=False)
def _on_arrow_ray(s, T, q):
    ref = _ref(s)
    for d in range(8):
        if not has_arrow(s, T, d):
            continue
        p = T.nbr[ref, d]
        while p >= 0:
            if p == q:
                return True
            p = T.nbr[p, d]
    return False


@njit(cache=True, _nrt=False)
def _next_to(s, T, q, colour):
    for d in range(8):
        p = T.nbr[q, d]
        if p >= 0 and T.sq_color[p] == colour:
            return True
    return False


@njit(cache=True, _nrt=False)
def _next_to_owner(s, T, q, seat, other_than):
    for d in range(8):
        p = T.nbr[q, d]
        if p >= 0 and p != other_than:
            code = s[BOARD + p]
            if code != 0 and (code >> 2) == seat:
                return True
    return False


@njit(cache=True, _nrt=False)
def _is_affected(s, q):
    for k in range(s[EFF_AFFECTED_N]):
        if s[EFF_AFFECTED + k] == q:
            return True
    return False


@njit(cache=True, _nrt=False)
def _next_to_affected(s, T, q):
    for k in range(s[EFF_AFFECTED_N]):
        a = s[EFF_AFFECTED + k]
        if a != q and T.dist[a, q] == 1:
            return True
    return False


# region kinds that only hold near the reference square, the selected square or the pattern
_LOCAL = R_BEING | R_MARKED | R_MARK2 | R_ADJ | R_ORTHO | R_DIAG | R_DIST | R_SEL | R_ADJ_SEL


@njit(cache=True, _nrt=False)
def _ball(T, q, radius):
    """The squares within ``radius`` >= 1 king moves of ``q`` (and q), as a bitboard pair."""
    lo = T.king_masks[q, 0]
    hi = T.king_masks[q, 1]
    for _ in range(radius - 1):
        nl, nh = neighbours(lo, hi)
        lo |= nl
        hi |= nh
    return lo, hi


@njit(cache=True, _nrt=False)
def region_candidates(s, T, i):
    """A bitboard pair of playable squares holding every square ``in_region`` accepts for
    instruction ``i``: the whole board, or, when its region names only squares near the
    reference square, the selected square or the pattern's marks, just those. Listing loops
    walk these squares in ascending order and still ask ``in_region`` of each, so they list
    the same targets in the same order, without testing the far squares one by one."""
    inc = T.ops[i, I_REGION]
    M = T.board_masks
    ref = _ref(s)
    if inc == 0 or (inc & ~_LOCAL) != 0 or ref < 0:
        return M[BM_ONBOARD, 0], M[BM_ONBOARD, 1]
    lo = np.int64(0)
    hi = np.int64(0)
    if (inc & (R_ADJ | R_ORTHO | R_DIAG | R_DIST)) != 0:
        radius = 1
        if (inc & R_DIST) != 0 and T.ops[i, I_DIST] > 1:
            radius = min(8, T.ops[i, I_DIST])
        lo, hi = _ball(T, ref, radius)
    being = s[EFF_BEING_SQ]
    if (inc & R_BEING) != 0 and being >= 0:
        lo, hi = with_square(lo, hi, being)
    sel = s[EFF_SEL_SQ]
    if (inc & (R_SEL | R_ADJ_SEL)) != 0 and sel >= 0:
        bl, bh = _ball(T, sel, 1)
        lo |= bl
        hi |= bh
    o = s[EFF_ORIENT]
    if (inc & (R_MARKED | R_MARK2)) != 0 and o >= 0:
        t = s[EFF_TARGET]
        for k in range(T.or_nmarks[o]):
            r = t // 9 + T.or_marks[o, k, 0]
            c = t % 9 + T.or_marks[o, k, 1]
            if 0 <= r < 9 and 0 <= c < 9:
                lo, hi = with_square(lo, hi, r * 9 + c)
    return lo & M[BM_ONBOARD, 0], hi & M[BM_ONBOARD, 1]


@njit(cache=True, _nrt=False)
def in_region(s, T, i, q, seat):
    """In the instruction's region union, not excluded, and in its and-region if any."""
    ex = T.ops[i, I_EXCLUDE]
    if (ex & X_BEING) and q == s[EFF_BEING_SQ]:
        return False
    if (ex & X_AFFECTED) and _is_affected(s, q):
        return False
    if (ex & X_GATEWAY) and q == s[GATEWAY + s[CUR]]:
        return False
    if not _in_union(s, T, i, q, seat, T.ops[i, I_REGION]):
        return False
    inc2 = T.ops[i, I_REGION2]
    return inc2 == 0 or _in_union(s, T, i, q, seat, inc2)


@njit(cache=True, _nrt=False)
def _in_union(s, T, i, q, seat, inc):
    if inc == 0:
        return True
    ref = _ref(s)
    d = T.dist[ref, q] if ref >= 0 else -1  # no reference square: no distance applies
    if (inc & R_BEING) and q == s[EFF_BEING_SQ]:
        return True
    if (inc & R_MARKED) and _mark_at(s, T, q, MARK):
        return True
    if (inc & R_MARK2) and _mark_at(s, T, q, MARK2):
        return True
    if (inc & R_ADJ) and d == 1:
        return True
    if (inc & R_ORTHO) and d == 1 and (ref // 9 == q // 9 or ref % 9 == q % 9):
        return True
    if (inc & R_DIAG) and d == 1 and ref // 9 != q // 9 and ref % 9 != q % 9:
        return True
    if (inc & R_DIST) and 0 < d <= T.ops[i, I_DIST]:
        return True
    if (inc & R_ADJ_GREEN) and _next_to(s, T, q, SQ_GREEN):
        return True
    if (inc & R_NEAR_RED) and (T.sq_color[q] == SQ_RED or _next_to(s, T, q, SQ_RED)):
        return True
    if (inc & R_NEAR_GREEN) and (T.sq_color[q] == SQ_GREEN or _next_to(s, T, q, SQ_GREEN)):
        return True
    if (inc & R_ADJ_OWN) and _next_to_owner(s, T, q, seat, -1):
        return True
    sel = s[EFF_SEL_SQ]
    if (inc & R_SEL) and q == sel:
        return True
    if (inc & R_ADJ_SEL) and sel >= 0 and T.dist[sel, q] == 1:
        return True
    if (inc & R_AFFECTED) and _is_affected(s, q):
        return True
    if (inc & R_CONNECTED) and _next_to_affected(s, T, q):
        return True
    if (inc & R_ARROW_RAY) and _on_arrow_ray(s, T, q):
        return True
    if (inc & R_MORE) and region_more(s, T, inc, q, seat):
        return True
    if (inc & R_GATE) and region_gateway(s, T, inc, q):
        return True
    if (inc & R_COLOURLESS) and colourless(T, q):
        return True
    if (inc & R_ETHER) and region_ether(s, T, inc, q, seat):
        return True
    if inc & R_NEXT_TO_SAME_COLOUR:
        return True  # judged per placed colour by same_colour_ok (alone in its region)
    return False


# ---------------------------------------------------------------------------------------------
# selectors


@njit(cache=True, _nrt=False)
def _count(s, T, seat, rank_min, rank_max):
    n = 0
    for k in range(T.onboard.shape[0]):
        code = s[BOARD + T.onboard[k]]
        if code != 0 and (code >> 2) == seat and rank_min <= (code & 3) <= rank_max:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def who_ok(s, T, i, owner, seat):
    who = T.ops[i, I_WHO]
    if who == W_SELF:
        return owner == seat
    if who == W_NOT_THIRD_OF_COLOUR:
        return not_third_of_colour(s, owner)
    if owner == seat and who != 0 and who != W_SEL_OWNER:
        return False
    if who == W_ENEMY:
        return True
    if who == W_SEL_OWNER:
        return owner == s[EFF_SEL_OWNER]
    if who == W_MORE_COMMON:
        return _count(s, T, owner, 1, 1) > _count(s, T, seat, 1, 1)
    if who == W_MORE_UPGRADED:
        return _count(s, T, owner, 2, 3) > _count(s, T, seat, 2, 3)
    if who == W_PLACED_OWNER:
        k = T.ops[i, I_PARAM2]
        return k < s[EFF_PLACED_N] and owner == s[EFF_PLACED_OWNER + k]
    if who == W_ENEMY_UNTOUCHED:
        return (s[EFF_AFFECTED_COLOURS] & (1 << owner)) == 0
    return True  # W_ANY


@njit(cache=True, _nrt=False)
def selected(s, T, i, q, seat):
    """Does the piece on ``q`` match the instruction's owner / rank / region selector?"""
    code = s[BOARD + q]
    if code == 0:
        return False
    r = code & 3
    if ((1 << r) & T.ops[i, I_RANKS]) == 0:
        return False
    if (T.ops[i, I_FLAGS] & F_SAME_RANK) and r != s[EFF_SEL_RANK]:
        return False
    if not who_ok(s, T, i, code >> 2, seat):
        return False
    if T.ops[i, I_SUPPORT] != 0 and not support_ok(s, T, i, q, seat):
        return False
    return in_region(s, T, i, q, seat)


# ---------------------------------------------------------------------------------------------
# moves


@njit(cache=True, _nrt=False)
def is_combat(s, T, i, q):
    kind = T.ops[i, I_MOVE_KIND]
    if kind == MK_COMBAT_ONCE:
        return s[EFF_COMBAT_USED] == 0
    if kind == MK_STANDARD_IF_BEING:
        return q != s[EFF_BEING_SQ]
    return kind == MK_COMBAT


@njit(cache=True, _nrt=False)
def can_enter(s, dest, mover_rank, combat):
    code = s[BOARD + dest]
    if code == 0:
        return True
    if combat:
        return (code & 3) <= mover_rank
    return (code & 3) < mover_rank


@njit(cache=True, _nrt=False)
def dest_ok(s, T, i, q, d, seat):
    dm = T.ops[i, I_DEST]
    if dm == 0:
        return True
    code = s[BOARD + d]
    if (dm & D_EMPTY) and code != 0:
        return False
    if (dm & D_EMPTY_OR_HEROIC) and code != 0 and (code & 3) != 2:
        return False
    if (dm & D_NEXT_TO_OWN) and not _next_to_owner(s, T, d, seat, q):
        return False
    if (dm & D_COLOURED) and T.sq_color[d] <= 0:
        return False
    if (dm & D_MARKED) and not _mark_at(s, T, d, MARK):
        return False
    if (dm & D_GATE) and not dest_gateway(s, T, dm, q, d):
        return False
    if (dm & D_DISTANCE_2) and not distance_2_ok(s, T, s[EFF_BEING_SQ], d):
        return False
    return True
