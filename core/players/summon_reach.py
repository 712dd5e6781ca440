"""What a player's evaluation asks about summons: can this card be summoned at all right now,
and which single placement would make it summonable.

``slot_summonable`` is the summon search with an early exit: the evaluation only needs "at
least one", and stopping at the first fit makes the usual case several times cheaper. It runs
on the turn loop's bitboards (computed once per hand by ``hand_bits``). Its acceptance
test is the same as the turn loop's (tests compare the witness with the anchor search's first
row, and the answer with the options, over many positions); keep them in step when the
summon rules change.

``placement_completions`` serves the greedy player's placement shortcut: for every empty
square, how many of the seat's non-summonable hand cards one more common piece there would
make summonable (duel rules: no borrowed or improvised pieces, stock left after placing).
"""

import numpy as np

from core.board.bits import LO_BITS, pop_square, trailing_zeros
from core.constants import COMMON, LEGENDARY
from core.jit import njit
from core.jit.profile import P_EVAL_COMPLETIONS, P_EVAL_SUMMON, enter, leave
from core.layout import (
    BOARD,
    BORROW_ENEMY,
    IMPRO_LEFT,
    LSTOCK,
    STOCK,
    SUMMON_COLOUR,
    VOID_CELLS,
)
from core.summon.detached import detached_summonable
from core.summon.patterns import (
    occupied_bits,
    orientation_targets,
    own_bits,
    pieces_suffice,
    short_targets,
    summon_enemies,
    summon_stock_ok,
    summonable_targets,
    wide_targets,
)
from core.summon.void_cells import void_summonable

WITNESS = 128  # a witness is orientation * WITNESS + target square
ALL_SQUARES = -1  # a target mask of every square, for fits_through


@njit(cache=True, _nrt=False)
def fits_through(T, card, bits, xl, xh):
    """Does some orientation of ``card`` fit the seat's pieces (``bits``: ``hand_bits``) with
    its target among the squares ``xl``/``xh`` (ALL_SQUARES: any)? The search of a card that
    did not fit in a recorded position, through the squares that changed since (the child
    evaluations, core.players.eval_delta; the learned leaf's reference, summon_ref)."""
    rank = T.card_rank[card]
    o0 = T.card_or_start[card]
    if not pieces_suffice(T, bits, o0):
        return False
    for o in range(o0, o0 + T.card_or_n[card]):
        lo, hi = orientation_targets(T, bits, o, rank)
        if (lo & xl) != 0 or (hi & xh) != 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def hand_bits(s, T, me):
    """The summon search set-up shared by every card of a hand: the seat's ``own_bits``
    (bitboards, then own common/heroic and legendary pieces on the board at 12 and 13)
    followed, at 14 and 15, by every colour's pieces (``occupied_bits``; only needed with a
    borrowed piece or melee improvisation, else 0)."""
    bits = own_bits(s, T, me)
    if s[BORROW_ENEMY] == 0 and s[IMPRO_LEFT + me] == 0:
        return bits + (np.int64(0), np.int64(0))
    return bits + occupied_bits(s, T)


@njit(cache=True, _nrt=False)
def _square_at(sq, dr, dc):
    r = sq // 9 + dr
    c = sq % 9 + dc
    if r < 0 or r > 8 or c < 0 or c > 8:
        return -1
    return r * 9 + c


@njit(cache=True, _nrt=False)
def slot_summonable(s, T, me, card, bits):
    enter(P_EVAL_SUMMON)
    r = _slot_summonable_body(s, T, me, card, bits)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _slot_summonable_body(s, T, me, card, bits):
    """Does ``find_summons`` list at least one summon of ``card`` for colour ``me``? (A
    detached pattern, and void cells, ask their own searches, as the turn loop does.)"""
    if T.card_det_n[card] > 0:
        return detached_summonable(s, T, me, card)
    if s[VOID_CELLS] > 0 and s[SUMMON_COLOUR] < 0:
        return void_summonable(s, T, me, card)
    return summon_witness(s, T, me, card, bits) >= 0


@njit(cache=True, _nrt=False)
def summon_witness(s, T, me, card, bits):
    enter(P_EVAL_SUMMON)
    r = _summon_witness_body(s, T, me, card, bits)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _summon_witness_body(s, T, me, card, bits):
    """The first summon the turn loop would list for ``card`` (``bits``: ``hand_bits``), as
    orientation * 128 + target square; -1 if there is none: the lowest target of the first
    orientation that has one, on the bitboards the turn loop's searches use."""
    rank = T.card_rank[card]
    legendary = rank == LEGENDARY
    own_kind = bits[13] if legendary else bits[12]
    borrow = s[BORROW_ENEMY]
    impro = s[IMPRO_LEFT + me]
    o0 = T.card_or_start[card]
    if borrow == 0 and impro == 0:
        if not pieces_suffice(T, bits, o0):
            return -1
        in_stock = (s[LSTOCK + me] if legendary else s[STOCK + me]) > 0
        for o in range(o0, o0 + T.card_or_n[card]):
            lo, hi = summonable_targets(s, T, me, o, rank, bits, in_stock, own_kind)
            if lo != 0:
                return o * WITNESS + trailing_zeros(lo)
            if hi != 0:
                return o * WITNESS + trailing_zeros(hi) + LO_BITS
        return -1
    for o in range(o0, o0 + T.card_or_n[card]):
        lo, hi = wide_targets(T, bits, bits[14], bits[15], o, rank)
        while lo != 0:
            t = trailing_zeros(lo)
            lo &= lo - 1
            if summon_enemies(s, T, me, o, t, rank, own_kind, borrow, impro, 0) >= 0:
                return o * WITNESS + t
        while hi != 0:
            t = trailing_zeros(hi) + LO_BITS
            hi &= hi - 1
            if summon_enemies(s, T, me, o, t, rank, own_kind, borrow, impro, 0) >= 0:
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
def placement_completions(s, T, me, card, bits, mark, stamp):
    enter(P_EVAL_COMPLETIONS)
    r = _placement_completions_body(s, T, me, card, bits, mark, stamp)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _placement_completions_body(s, T, me, card, bits, mark, stamp):
    """Mark every empty square where one more common piece of ``me`` would make ``card``
    summonable: ``mark[q] = stamp`` (the caller gives each card its own stamp, so a square
    counts once per card). Valid when the card is not summonable now, nothing may be
    borrowed or improvised, and some stock is left after placing (so the summoned piece
    comes from the stock; a legend's piece is checked as usual). ``bits``: ``hand_bits``.
    The targets one piece short are found on bitboards (``short_targets``); only they are
    looked at square by square, for the square that is missing."""
    rank = T.card_rank[card]
    legendary = rank == LEGENDARY
    occ_lo, occ_hi = occupied_bits(s, T)
    empty_lo = bits[10] & ~occ_lo
    empty_hi = bits[11] & ~occ_hi
    o0 = T.card_or_start[card]
    for o in range(o0, o0 + T.card_or_n[card]):
        _, _, lo, hi, _, _, _, _ = short_targets(T, bits, empty_lo, empty_hi, o, rank)
        while lo != 0 or hi != 0:
            t, lo, hi = pop_square(lo, hi)
            q = _one_missing(s, T, me, o, t, rank)
            if q < 0 or mark[q] == stamp:
                continue
            if legendary and not summon_stock_ok(s, T, me, o, t, rank, bits[13]):
                continue
            mark[q] = stamp
