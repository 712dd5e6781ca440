"""High Form task conditions: one compiled check driven by the task tables.

Each of the 24 tasks is a criterion code (``TK_*``) plus up to four integer arguments, both
read from ``T.task_kind`` / ``T.task_args`` (filled by sim.content.tasks from tasks.toml). The
kernel never sees a task name, so retuning a threshold is a data change, not a code change.
Geometry (colours, centre, lines, diagonals, sides, corners) comes from the board tables.
"""

import numpy as np

from core.board.bits import LO_BITS, neighbours, pop_square, popcount, with_square
from core.board.geometry import BM_CENTRAL, BM_COL, BM_CORNER, BM_GREEN, BM_RED, BM_ROW, BM_SIDE
from core.constants import HEROIC, LEGENDARY, SQ_GREEN, SQ_RED
from core.jit import njit
from core.jit.profile import P_TASKS, enter, leave
from core.layout import (
    BOARD,
    DESTROYED,
    LEGENDS_SUMMONED,
    MAX_PLAYERS,
    N_PLAYERS,
    NSQ,
    SUMMONED_GREEN,
    SUMMONED_N,
    SUMMONED_RED,
)
from core.rules.task_codes import (  # the codes live in a module without numba
    CM_GREEN,
    CM_RED,
    TK_CENTER_CROSS,
    TK_CENTRAL_DOMINANCE,
    TK_CONQUEST,
    TK_CORNER_CHAIN,
    TK_DESTROYED,
    TK_DIAGONALS,
    TK_END_OF_LEGENDS,
    TK_ISOLATION,
    TK_LINE_DOMINANCE,
    TK_RAINBOW,
    TK_SIDE_CHAIN,
    TK_SUMMONED,
    TK_SURROUND,
)

SIZE = 9  # board side: square = row * SIZE + col


@njit(cache=True, _nrt=False)
def _in_mask(colour, mask):
    return (colour == SQ_RED and (mask & CM_RED) != 0) or (
        colour == SQ_GREEN and (mask & CM_GREEN) != 0
    )


@njit(cache=True, _nrt=False)
def _side(s, seat, code):
    """+1 own piece, -1 enemy piece, 0 empty (or a seat outside the game)."""
    if code == 0:
        return 0
    owner = code >> 2
    if owner == seat:
        return 1
    if owner < s[N_PLAYERS]:
        return -1
    return 0


@njit(cache=True, _nrt=False)
def _destroyed(s, seat, rank):
    """This turn's destroy counter for one rank, summed over the enemy colours."""
    n = 0
    for colour in range(MAX_PLAYERS):
        if colour != seat and colour < s[N_PLAYERS]:
            n += s[DESTROYED + colour * 4 + rank]
    return n


@njit(cache=True, _nrt=False)
def _centre(T):
    """The central square all of whose neighbours are central too (core.board.geometry)."""
    return T.board_centre[0]


@njit(cache=True, _nrt=False)
def _sets_word(s, seat, start, end):
    """One word (squares start..end-1) of the sets the board criteria count: the seat's
    pieces, the enemies' (as ``_side``), upgraded and legendary pieces of every colour.
    Branch-free, so the compiler can vectorise it."""
    z = np.int64(0)
    own, enemy, up, leg = z, z, z, z
    players = np.int64(s[N_PLAYERS])
    for q in range(start, end):
        b = np.int64(1) << (q - start)
        code = np.int64(s[BOARD + q])
        owner = code >> 2
        occ = np.int64(code != 0)
        own |= b * (occ & np.int64(owner == seat))
        enemy |= b * (occ & np.int64(owner != seat) & np.int64(owner < players))
        up |= b * np.int64((code & 3) >= HEROIC)
        leg |= b * np.int64((code & 3) == LEGENDARY)
    return own, enemy, up, leg


@njit(cache=True, _nrt=False)
def _pc(lo, hi):
    return popcount(lo) + popcount(hi)


@njit(cache=True, _nrt=False)
def _diagonal_ok(s, T, seat, centre, d, min_pieces, min_up):
    """Own pieces on the full line through the centre along direction d (and its opposite)."""
    code = s[BOARD + centre]
    mine = 1 if _side(s, seat, code) == 1 else 0
    up = 1 if mine == 1 and (code & 3) >= HEROIC else 0
    for dd in (d, (d + 4) % 8):
        q = T.nbr[centre, dd]
        while q >= 0:
            code = s[BOARD + q]
            if _side(s, seat, code) == 1:
                mine += 1
                if (code & 3) >= HEROIC:
                    up += 1
            q = T.nbr[q, dd]
    return mine >= min_pieces and up >= min_up


@njit(cache=True, _nrt=False)
def _in(lo, hi, q):
    """Is square q in the 81-square set (lo, hi) (core.board.bits: lo holds 0..62)?"""
    if q < LO_BITS:
        return (lo >> q) & 1 == 1
    return (hi >> (q - LO_BITS)) & 1 == 1


@njit(cache=True, _nrt=False)
def _with(lo, hi, q):
    """The set (lo, hi) plus square q."""
    if q < LO_BITS:
        return lo | (np.int64(1) << q), hi
    return lo, hi | (np.int64(1) << (q - LO_BITS))


@njit(cache=True, _nrt=False)
def chained(s, T, seat, base, a, b):
    """Is an own piece on region ``base + a`` of ``T.board_masks`` (a side or a cut corner)
    8-connected through own pieces to one on region ``base + b``? (Grows the reached set, a
    bitboard (core.board.bits), one king move at a time until it stops changing.)"""
    own_lo, _, _, _ = _sets_word(s, seat, 0, LO_BITS)
    own_hi, _, _, _ = _sets_word(s, seat, LO_BITS, NSQ)
    M = T.board_masks
    lo = own_lo & M[base + a, 0]
    hi = own_hi & M[base + a, 1]
    goal_lo = M[base + b, 0]
    goal_hi = M[base + b, 1]
    while True:
        if (lo & goal_lo) != 0 or (hi & goal_hi) != 0:
            return True
        nl, nh = neighbours(lo, hi)
        nl = (nl & own_lo) | lo
        nh = (nh & own_hi) | hi
        if nl == lo and nh == hi:
            return False
        lo, hi = nl, nh


@njit(cache=True, _nrt=False)
def _near_other_enemy(s, T, seat, q, p):
    """Is square q adjacent to an enemy piece other than the one on p?"""
    for d in range(8):
        n = T.nbr[q, d]
        if n >= 0 and n != p and _side(s, seat, s[BOARD + n]) == -1:
            return True
    return False


@njit(cache=True, _nrt=False)
def _isolated(s, T, seat, p, ring, max_moves):
    """Enemy piece on p: a fellow at exactly `ring`, yet no short empty path to any fellow."""
    has_ring = False
    for i in range(T.onboard.shape[0]):
        q = T.onboard[i]
        if T.dist[p, q] == ring and _side(s, seat, s[BOARD + q]) == -1:
            has_ring = True
            break
    if not has_ring:
        return False
    # breadth-first over empty squares, one ring of depth at a time, from p itself (depth 0)
    seen_lo, seen_hi = _with(np.int64(0), np.int64(0), p)
    front_lo, front_hi = seen_lo, seen_hi
    for depth in range(max_moves + 1):
        next_lo = np.int64(0)
        next_hi = np.int64(0)
        while front_lo != 0 or front_hi != 0:  # the front's squares, ascending
            q, front_lo, front_hi = pop_square(front_lo, front_hi)
            if _near_other_enemy(s, T, seat, q, p):
                return False
            if depth == max_moves:
                continue
            for d in range(8):
                n = T.nbr[q, d]
                if n >= 0 and s[BOARD + n] == 0 and not _in(seen_lo, seen_hi, n):
                    seen_lo, seen_hi = _with(seen_lo, seen_hi, n)
                    next_lo, next_hi = _with(next_lo, next_hi, n)
        front_lo, front_hi = next_lo, next_hi
    return True


@njit(cache=True, _nrt=False)
def task_holds(s, T, task, seat):
    enter(P_TASKS)
    r = _task_holds_body(s, T, task, seat)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _task_holds_body(s, T, task, seat):
    """Does `seat` meet the condition of task `task` in the single game row `s`?"""
    kind = T.task_kind[task]
    a0 = T.task_args[task, 0]
    a1 = T.task_args[task, 1]
    a2 = T.task_args[task, 2]
    a3 = T.task_args[task, 3]

    if kind == TK_DESTROYED:
        up = _destroyed(s, seat, HEROIC) + _destroyed(s, seat, LEGENDARY)
        return up + _destroyed(s, seat, 1) >= a0 and up >= a1

    if kind == TK_END_OF_LEGENDS:
        return _destroyed(s, seat, LEGENDARY) >= a0 or _destroyed(s, seat, HEROIC) >= a1

    if kind == TK_SUMMONED:
        onto = 0
        if (a1 & CM_RED) != 0:
            onto += s[SUMMONED_RED]
        if (a1 & CM_GREEN) != 0:
            onto += s[SUMMONED_GREEN]
        return s[SUMMONED_N] >= a0 and onto >= a2 and s[LEGENDS_SUMMONED] >= a3

    if kind == TK_CONQUEST or kind == TK_CENTRAL_DOMINANCE or kind == TK_RAINBOW:
        own_l, enemy_l, up_l, leg_l = _sets_word(s, seat, 0, LO_BITS)
        own_h, enemy_h, up_h, leg_h = _sets_word(s, seat, LO_BITS, NSQ)
        M = T.board_masks
        if kind == TK_RAINBOW:  # own minus enemy upgraded pieces, on red and on green
            red = _pc(own_l & up_l & M[BM_RED, 0], own_h & up_h & M[BM_RED, 1]) - _pc(
                enemy_l & up_l & M[BM_RED, 0], enemy_h & up_h & M[BM_RED, 1]
            )
            green = _pc(own_l & up_l & M[BM_GREEN, 0], own_h & up_h & M[BM_GREEN, 1]) - _pc(
                enemy_l & up_l & M[BM_GREEN, 0], enemy_h & up_h & M[BM_GREEN, 1]
            )
            return red > 0 and green > 0
        if kind == TK_CONQUEST:
            in_l = np.int64(0)
            in_h = np.int64(0)
            if (a0 & CM_RED) != 0:
                in_l |= M[BM_RED, 0]
                in_h |= M[BM_RED, 1]
            if (a0 & CM_GREEN) != 0:
                in_l |= M[BM_GREEN, 0]
                in_h |= M[BM_GREEN, 1]
        else:
            in_l = M[BM_CENTRAL, 0]
            in_h = M[BM_CENTRAL, 1]
        n = _pc(own_l & in_l, own_h & in_h)
        up = _pc(own_l & up_l & in_l, own_h & up_h & in_h)
        leg = _pc(own_l & leg_l & in_l, own_h & leg_h & in_h)
        if kind == TK_CENTRAL_DOMINANCE:
            return n >= a0 and up >= a1
        return n >= a1 and up >= a2 and leg >= a3

    if kind == TK_CENTER_CROSS:
        c = _centre(T)
        if c < 0 or _side(s, seat, s[BOARD + c]) != 1:
            return False
        for first in range(2):  # 0: orthogonal "+", 1: diagonal "x"
            full = True
            for d in range(first, 8, 2):
                n = T.nbr[c, d]
                if n < 0 or _side(s, seat, s[BOARD + n]) != 1:
                    full = False
            if full:
                return True
        return False

    if kind == TK_LINE_DOMINANCE:
        # own minus enemy pieces in the row and in the column of each central square
        own_l, enemy_l, _, _ = _sets_word(s, seat, 0, LO_BITS)
        own_h, enemy_h, _, _ = _sets_word(s, seat, LO_BITS, NSQ)
        M = T.board_masks
        for i in range(T.onboard.shape[0]):
            q = T.onboard[i]
            if T.sq_central[q] == 0:
                continue
            r = BM_ROW + q // SIZE
            c = BM_COL + q % SIZE
            row = _pc(own_l & M[r, 0], own_h & M[r, 1]) - _pc(enemy_l & M[r, 0], enemy_h & M[r, 1])
            col = _pc(own_l & M[c, 0], own_h & M[c, 1]) - _pc(enemy_l & M[c, 0], enemy_h & M[c, 1])
            if row >= a0 or col >= a0:
                return True
        return False

    if kind == TK_DIAGONALS:
        c = _centre(T)
        if c < 0:
            return False
        return _diagonal_ok(s, T, seat, c, 1, a0, a1) and _diagonal_ok(s, T, seat, c, 3, a0, a1)

    if kind == TK_SIDE_CHAIN:
        return chained(s, T, seat, BM_SIDE, 0, 1) or chained(s, T, seat, BM_SIDE, 2, 3)

    if kind == TK_CORNER_CHAIN:
        return chained(s, T, seat, BM_CORNER, 0, 1) or chained(s, T, seat, BM_CORNER, 2, 3)

    if kind == TK_SURROUND or kind == TK_ISOLATION:
        own_l, enemy_l, _, _ = _sets_word(s, seat, 0, LO_BITS)
        own_h, enemy_h, _, _ = _sets_word(s, seat, LO_BITS, NSQ)
        while enemy_l != 0 or enemy_h != 0:  # each enemy piece, ascending
            p, enemy_l, enemy_h = pop_square(enemy_l, enemy_h)
            if kind == TK_ISOLATION:
                if _isolated(s, T, seat, p, a0, a1):
                    return True
                continue
            pl, ph = with_square(np.int64(0), np.int64(0), p)
            nl, nh = neighbours(pl, ph)
            if _pc(nl & own_l, nh & own_h) >= a0:  # own pieces around it
                return True
        return False

    return False
