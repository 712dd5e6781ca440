"""What a player's evaluation asks about summons: can this card be summoned at all right now,
and which single placement would make it summonable.

``slot_summonable`` is the summon search with an early exit: the evaluation only needs "at
least one", and stopping at the first fit makes the usual case several times cheaper. Without
a borrowed piece or improvisation it runs on the bitboards of ``own_bits`` (computed once per
hand by ``hand_anchors``), else by anchors as ``core.patterns.find_summons``. Its acceptance
test is the same as the turn loop's (tests compare the witness with the anchor search's first
row, and the answer with the options, over many positions); keep them in step when the
summon rules change.

``placement_completions`` serves the greedy player's placement shortcut: for every empty
square, how many of the seat's non-summonable hand cards one more common piece there would
make summonable (duel rules: no borrowed or improvised pieces, stock left after placing).
"""

from core.bits import LO_BITS, trailing_zeros
from core.constants import COMMON, LEGENDARY
from core.detached import detached_summonable
from core.jit import njit
from core.layout import (
    BOARD,
    BORROW_ENEMY,
    IMPRO_LEFT,
    LSTOCK,
    STOCK,
    SUMMON_COLOUR,
    VOID_CELLS,
)
from core.patterns import (
    anchor_squares,
    own_bits,
    pattern_enemies,
    pattern_fits,
    summon_stock_ok,
    summonable_targets,
)
from core.void_summon import void_summonable

WITNESS = 128  # a witness is orientation * WITNESS + target square


@njit(cache=True, _nrt=False)
def hand_anchors(s, T, me, anchors):
    """The summon search set-up shared by every card of a hand: the count of anchor squares
    (written to ``anchors``: the scratch rows of an option buffer, ``opts[-SCRATCH_ROWS:,
    0]``; only needed with a borrowed piece or melee improvisation, else 0) and the seat's
    ``own_bits`` (bitboards, then own common/heroic and legendary pieces on the board at
    12 and 13). (The caller slices the scratch itself: an array returned by a function
    compiled without numba's runtime would be released twice by a caller compiled with
    it.)"""
    bits = own_bits(s, T, me)
    if s[BORROW_ENEMY] == 0 and s[IMPRO_LEFT + me] == 0:
        return 0, bits
    return anchor_squares(s, T, me, anchors), bits


@njit(cache=True, _nrt=False)
def _square_at(sq, dr, dc):
    r = sq // 9 + dr
    c = sq % 9 + dc
    if r < 0 or r > 8 or c < 0 or c > 8:
        return -1
    return r * 9 + c


@njit(cache=True, _nrt=False)
def slot_summonable(s, T, me, card, anchors, n_anchors, bits):
    """Does ``find_summons`` list at least one summon of ``card`` for colour ``me``? (A
    detached pattern, and void cells, ask their own searches, as the turn loop does.)"""
    if T.card_det_n[card] > 0:
        return detached_summonable(s, T, me, card)
    if s[VOID_CELLS] > 0 and s[SUMMON_COLOUR] < 0:
        return void_summonable(s, T, me, card)
    return summon_witness(s, T, me, card, anchors, n_anchors, bits) >= 0


@njit(cache=True, _nrt=False)
def summon_witness(s, T, me, card, anchors, n_anchors, bits):
    """The first summon ``find_summons`` would list for ``card``, as orientation * 128 +
    target square; -1 if there is none. Without a borrowed piece or improvisation it is
    found on the bitboards (``summonable_targets``, the lowest target of the first
    orientation that has one, as ``find_summons_bits`` lists them)."""
    rank = T.card_rank[card]
    legendary = rank == LEGENDARY
    own_kind = bits[13] if legendary else bits[12]
    borrow = s[BORROW_ENEMY]
    impro = s[IMPRO_LEFT + me]
    o0 = T.card_or_start[card]
    if borrow == 0 and impro == 0:
        in_stock = (s[LSTOCK + me] if legendary else s[STOCK + me]) > 0
        for o in range(o0, o0 + T.card_or_n[card]):
            lo, hi = summonable_targets(s, T, me, o, rank, bits, in_stock, own_kind)
            if lo != 0:
                return o * WITNESS + trailing_zeros(lo)
            if hi != 0:
                return o * WITNESS + trailing_zeros(hi) + LO_BITS
        return -1
    for o in range(o0, o0 + T.card_or_n[card]):
        anywhere = T.or_ncells[o] == 0
        ar = T.or_cells[o, 0, 0]
        ac = T.or_cells[o, 0, 1]
        amin = T.or_cells[o, 0, 2]
        for i in range(T.onboard.shape[0] if anywhere else n_anchors):
            if anywhere:
                t = T.onboard[i]
            else:
                p = anchors[i]
                if (s[BOARD + p] & 3) < amin:
                    continue
                t = _square_at(p, -ar, -ac)
                if t < 0:
                    continue
            if impro == 0:
                if pattern_fits(s, T, me, o, t, rank, borrow) and summon_stock_ok(
                    s, T, me, o, t, rank, own_kind
                ):
                    return o * WITNESS + t
                continue
            e = pattern_enemies(s, T, me, o, t, rank)
            if e < 0:
                continue
            ne = e >> 4
            if ne > borrow + 1 or (ne == borrow + 1 and (impro & e & 15) == 0):
                continue
            if summon_stock_ok(s, T, me, o, t, rank, own_kind):
                return o * WITNESS + t
    return -1


@njit(cache=True, _nrt=False)
def _one_missing(s, T, me, o, t, rank):
    """The square where one more own common piece would complete orientation ``o`` entering
    ``t`` (no borrowing), -1 if there is none: every other requirement must already hold."""
    if T.sq_color[t] < 0:
        return -1
    miss = -1
    tcode = s[BOARD + t]
    req = T.or_target_req[o]
    if req > 0:
        if tcode == 0:
            if req > COMMON:
                return -1
            miss = t
        elif (tcode >> 2) != me or (tcode & 3) < req or (tcode & 3) > rank:
            return -1
    elif tcode != 0 and (tcode & 3) > rank:
        return -1
    for k in range(T.or_ncells[o]):
        q = _square_at(t, T.or_cells[o, k, 0], T.or_cells[o, k, 1])
        if q < 0 or T.sq_color[q] < 0:
            return -1
        code = s[BOARD + q]
        if code == 0:
            if miss >= 0 or T.or_cells[o, k, 2] > COMMON:
                return -1
            miss = q
        elif (code >> 2) != me or (code & 3) < T.or_cells[o, k, 2]:
            return -1
    return miss


@njit(cache=True, _nrt=False)
def placement_completions(s, T, me, card, own_leg, mark, stamp):
    """Mark every empty square where one more common piece of ``me`` would make ``card``
    summonable: ``mark[q] = stamp`` (the caller gives each card its own stamp, so a square
    counts once per card). Valid when the card is not summonable now, nothing may be
    borrowed or improvised, and some stock is left after placing (so the summoned piece
    comes from the stock; a legend's piece is checked as usual)."""
    rank = T.card_rank[card]
    legendary = rank == LEGENDARY
    o0 = T.card_or_start[card]
    for o in range(o0, o0 + T.card_or_n[card]):
        for i in range(T.onboard.shape[0]):
            t = T.onboard[i]
            q = _one_missing(s, T, me, o, t, rank)
            if q < 0 or mark[q] == stamp:
                continue
            if legendary and not summon_stock_ok(s, T, me, o, t, rank, own_leg):
                continue
            mark[q] = stamp
