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
assert HEROIC == 2 and LEGENDARY == 3  # board_sets reads the ranks' bits: upgraded = bit 1


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
def _planes(s, start, end):
    """The four bits of the piece codes of squares start..end-1 (at most 32) as four 32-bit
    words (bit q - start): 32-bit lanes, so the compiler vectorises twice as wide."""
    z = np.uint32(0)
    one = np.uint32(1)
    p0, p1, p2, p3 = z, z, z, z
    for q in range(start, end):
        code = np.uint32(s[BOARD + q])
        at = np.uint32(q - start)
        p0 |= (code & one) << at
        p1 |= ((code >> np.uint32(1)) & one) << at
        p2 |= ((code >> np.uint32(2)) & one) << at
        p3 |= ((code >> np.uint32(3)) & one) << at
    return np.int64(p0), np.int64(p1), np.int64(p2), np.int64(p3)


@njit(cache=True, _nrt=False)
def board_sets(s):
    """The board as the bitboards every board criterion counts, for every colour at once
    (one pass over the squares, shared by all the task checks of one position): colour 0..3's
    pieces, then the upgraded and the legendary pieces, each a (lo, hi) pair
    (core.board.bits), 12 words. From the bit planes of the codes (rank + 4 * owner)."""
    a0, a1, a2, a3 = _planes(s, 0, 32)
    b0, b1, b2, b3 = _planes(s, 32, LO_BITS)
    l0, l1, l2, l3 = a0 | (b0 << 32), a1 | (b1 << 32), a2 | (b2 << 32), a3 | (b3 << 32)
    h0, h1, h2, h3 = _planes(s, LO_BITS, NSQ)
    ol = l0 | l1 | l2 | l3  # a piece: a code other than 0
    oh = h0 | h1 | h2 | h3
    return (
        ol & ~l2 & ~l3, oh & ~h2 & ~h3, ol & l2 & ~l3, oh & h2 & ~h3,
        ol & ~l2 & l3, oh & ~h2 & h3, ol & l2 & l3, oh & h2 & h3,
        l1, h1, l0 & l1, h0 & h1,
    )  # fmt: skip


@njit(cache=True, _nrt=False)
def no_sets():
    """``board_sets``' type with nothing in it: for criteria that read no board sets."""
    z = np.int64(0)
    return (z, z, z, z, z, z, z, z, z, z, z, z)


@njit(cache=True, _nrt=False)
def with_own_piece(sets, colour, q):
    """``sets`` with a common piece of ``colour`` added on the empty square ``q``."""
    lo, hi = _with(sets[2 * colour], sets[2 * colour + 1], q)
    if colour == 0:
        return (lo, hi) + sets[2:]
    if colour == 1:
        return sets[:2] + (lo, hi) + sets[4:]
    if colour == 2:
        return sets[:4] + (lo, hi) + sets[6:]
    return sets[:6] + (lo, hi) + sets[8:]


@njit(cache=True, _nrt=False)
def own_enemy(s, sets, seat):
    """The seat's pieces and the enemies' (as ``_side``: every other colour in the game)."""
    own_l = np.int64(0)
    own_h = np.int64(0)
    enemy_l = np.int64(0)
    enemy_h = np.int64(0)
    players = s[N_PLAYERS]
    for c in range(MAX_PLAYERS):
        if c == seat:
            own_l = sets[2 * c]
            own_h = sets[2 * c + 1]
        elif c < players:
            enemy_l |= sets[2 * c]
            enemy_h |= sets[2 * c + 1]
    return own_l, own_h, enemy_l, enemy_h


@njit(cache=True, _nrt=False)
def reads_sets(T, task):
    """Does the check of ``task`` count the board's sets (``board_sets``)?"""
    kind = T.task_kind[task]
    return (
        kind == TK_CONQUEST
        or kind == TK_CENTRAL_DOMINANCE
        or kind == TK_RAINBOW
        or kind == TK_LINE_DOMINANCE
        or kind == TK_SIDE_CHAIN
        or kind == TK_CORNER_CHAIN
        or kind == TK_SURROUND
        or kind == TK_ISOLATION
    )


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
    8-connected through own pieces to one on region ``base + b``?"""
    own_lo, own_hi, _, _ = own_enemy(s, board_sets(s), seat)
    return _chained(T, own_lo, own_hi, base, a, b)


@njit(cache=True, _nrt=False)
def _chained(T, own_lo, own_hi, base, a, b):
    """``chained`` on the seat's pieces (own_lo, own_hi): grows the reached set, a bitboard
    (core.board.bits), one king move at a time until it stops changing."""
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
    """Does `seat` meet the condition of task `task` in the single game row `s`?"""
    enter(P_TASKS)
    sets = board_sets(s) if reads_sets(T, task) else no_sets()
    r = _task_holds_body(s, T, task, seat, sets)
    leave()
    return r


@njit(cache=True, _nrt=False)
def task_holds_on(s, T, task, seat, sets):
    """``task_holds`` with the position's ``board_sets`` made by the caller (once for all the
    checks of one position; ``no_sets()`` will do for a task that does not ``reads_sets``)."""
    enter(P_TASKS)
    r = _task_holds_body(s, T, task, seat, sets)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _task_holds_body(s, T, task, seat, sets):
    """``task_holds``: ``sets`` is the position's ``board_sets`` where the criterion reads it."""
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
        own_l, own_h, enemy_l, enemy_h = own_enemy(s, sets, seat)
        up_l, up_h, leg_l, leg_h = sets[8], sets[9], sets[10], sets[11]
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
        own_l, own_h, enemy_l, enemy_h = own_enemy(s, sets, seat)
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

    if kind == TK_SIDE_CHAIN or kind == TK_CORNER_CHAIN:
        own_l, own_h, _, _ = own_enemy(s, sets, seat)
        base = BM_SIDE if kind == TK_SIDE_CHAIN else BM_CORNER
        return _chained(T, own_l, own_h, base, 0, 1) or _chained(T, own_l, own_h, base, 2, 3)

    if kind == TK_SURROUND or kind == TK_ISOLATION:
        own_l, own_h, enemy_l, enemy_h = own_enemy(s, sets, seat)
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
