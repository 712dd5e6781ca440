"""The evaluation of the positions a decision's options lead to, reusing what is known about
the decision's own position.

An option changes a few squares (a summon, a move, a destruction...). ``prepare`` records,
for the decision's position, which hand cards can be summoned (with one summon each, the
*witness*) and which displayed tasks each colour meets. ``child_value`` then evaluates a
position reached from it exactly as core.players.evaluate does, but:

- a card that could be summoned stays summonable if its witness still fits (checked
  directly); otherwise it is searched again;
- a card that could not be summoned can only become summonable through a square that got
  better for the seat (an own piece appeared or grew, or a square emptied or its piece
  shrank): with none, it stays unsummonable; with some, any fit found now is one through
  them (one bitboard pass per orientation). This holds while nothing may be borrowed or
  improvised and the stock of the card's kind is not empty before or after (else the card
  is searched again);
- a task is checked again only if a changed square is one it reads (core.players.task_reach), it
  depends on this turn's counters, or the display changed.

Tests compare it with plain evaluation over many positions (tests/test_players.py).

Context row ``ctx`` (int32): [0] valid, [1] hand size, [2] seat, then per hand slot
(card, witness) from CX_SLOTS, task truths (task * 4 + colour) from CX_TASKS, the changed
squares of the current child from CX_DIFF.
"""

import numpy as np

from core.board.bits import LO_BITS, pop_square, popcount
from core.board.geometry import BM_ONBOARD
from core.constants import CK_BEING, CK_LEGEND, LEGENDARY
from core.jit import njit
from core.jit.profile import (
    P_EVAL_BITS,
    P_EVAL_DELTA,
    P_EVAL_DIFF,
    P_EVAL_HAND,
    P_EVAL_PREPARE,
    P_EVAL_TASK_PART,
    P_EVAL_THROUGH,
    enter,
    leave,
)
from core.layout import (
    BOARD,
    BORROW_ENEMY,
    COLOUR,
    FROZEN,
    GAME_OVER,
    HAND,
    HAND_CAP,
    HAND_N,
    IMPRO_LEFT,
    LSTOCK,
    MODE,
    N_AVAIL,
    NSQ,
    STOCK,
    TAVAIL,
    VOID_CELLS,
)
from core.players.evaluate import (
    W_CLAIMABLE,
    W_LEGENDS_READY,
    W_OPP_CLAIMABLE,
    W_SUMMONABLE,
    board_value,
    board_value_occ,
    hand_value,
    pending_value,
    task_formula,
    task_value,
    task_value_on,
)
from core.players.summon_reach import (
    ALL_SQUARES,
    WITNESS,
    fits_through,
    hand_bits,
    summon_witness,
)
from core.players.task_reach import reads_counters, square_matters
from core.rules.modes import has_tasks, n_colours
from core.rules.tasks import board_sets, task_holds_on
from core.summon.detached import detached_summonable
from core.summon.patterns import (
    pattern_fits,
    summon_stock_ok,
)

CX_SLOTS = 4  # 2 ints per hand slot
CX_TASKS = 40  # 24 tasks * 4 colours
CX_DIFF = 140  # changed squares of the child being evaluated
MAX_DIFF = 12  # more changed squares than this: evaluate the plain way


@njit(cache=True, _nrt=False)
def _plain_ok(s, me):
    """The context shortcuts apply (nothing borrowed or improvised, no void cells)."""
    return s[BORROW_ENEMY] == 0 and s[IMPRO_LEFT + me] == 0 and s[VOID_CELLS] == 0


@njit(cache=True, _nrt=False)
def prepare(s, T, seat, w, ctx, opts):
    enter(P_EVAL_PREPARE)
    r = _prepare_body(s, T, seat, w, ctx, opts)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _prepare_body(s, T, seat, w, ctx, opts):
    """Record what the child evaluations reuse from the decision's position ``s``."""
    me = s[COLOUR + seat]
    ctx[0] = 0
    if s[GAME_OVER] != 0 or not _plain_ok(s, me):
        return
    ctx[2] = seat
    ctx[1] = s[HAND_N + seat]
    bits = hand_bits(s, T, me)
    for slot in range(s[HAND_N + seat]):
        card = s[HAND + seat * HAND_CAP + slot]
        ctx[CX_SLOTS + 2 * slot] = card
        wit = -2  # not a summonable kind
        if T.card_kind[card] == CK_BEING or T.card_kind[card] == CK_LEGEND:
            wit = summon_witness(s, T, me, card, bits)
        ctx[CX_SLOTS + 2 * slot + 1] = wit
    if has_tasks(s[MODE]) and (w[W_CLAIMABLE] != 0 or w[W_OPP_CLAIMABLE] != 0):
        sets = board_sets(s)
        for k in range(N_AVAIL):
            t = s[TAVAIL + k]
            if t >= 0:
                for c in range(n_colours(s)):
                    ctx[CX_TASKS + t * 4 + c] = 1 if task_holds_on(s, T, t, c, sets) else 0
    ctx[0] = 1


@njit(cache=True, _nrt=False)
def _mine_rank(code, me):
    return (code & 3) if code != 0 and (code >> 2) == me else 0


@njit(cache=True, _nrt=False)
def _diff(c, s, T, me, ctx):
    enter(P_EVAL_DIFF)
    r = _diff_body(c, s, T, me, ctx)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _diff_body(c, s, T, me, ctx):
    """Changed squares into ctx[CX_DIFF:]; returns (changed, improved for me) counts, or
    (-1, -1) when too many changed. Improved squares come first. (One branch-free pass marks
    the changed squares in two words, then only those are looked at, ascending.)"""
    lo = np.int64(0)
    hi = np.int64(0)
    for q in range(LO_BITS):
        lo |= np.int64(s[BOARD + q] != c[BOARD + q]) << q
    for q in range(LO_BITS, NSQ):
        hi |= np.int64(s[BOARD + q] != c[BOARD + q]) << (q - LO_BITS)
    if popcount(lo) + popcount(hi) > MAX_DIFF:
        return -1, -1
    n = 0
    better = 0
    while lo != 0 or hi != 0:
        q, lo, hi = pop_square(lo, hi)
        a = s[BOARD + q]
        b = c[BOARD + q]
        improved = _mine_rank(b, me) > _mine_rank(a, me) or (b & 3) < (a & 3)
        if improved:  # keep improved squares first
            ctx[CX_DIFF + n] = ctx[CX_DIFF + better]
            ctx[CX_DIFF + better] = q
            better += 1
        else:
            ctx[CX_DIFF + n] = q
        n += 1
    return n, better


@njit(cache=True, _nrt=False)
def _fits_now(T, card, bits):
    enter(P_EVAL_THROUGH)
    r = _fits_now_body(T, card, bits)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _fits_now_body(T, card, bits):
    """Does some orientation of ``card`` fit the seat's pieces (``bits``: ``hand_bits``) with
    the stock not empty? Asked of a card that did not fit in the decision's position: any fit
    now goes through a square that got better (see the module's docstring), so this is the
    search through those squares, on the summon search's bitboards."""
    return fits_through(T, card, bits, ALL_SQUARES, ALL_SQUARES)


@njit(cache=True, _nrt=False)
def _hand_part(c, s, T, seat, w, ctx, opts, better, bits):
    enter(P_EVAL_HAND)
    r = __hand_part_body(c, s, T, seat, w, ctx, opts, better, bits)
    leave()
    return r


@njit(cache=True, _nrt=False)
def __hand_part_body(c, s, T, seat, w, ctx, opts, better, bits):
    me = c[COLOUR + seat]
    v = pending_value(c, seat, w)  # as in core.players.evaluate.hand_value: the pending penalty
    if c[FROZEN + seat] >= 0:  # as in core.players.evaluate.hand_value: a stored frozen effect
        v += w[W_SUMMONABLE]
    used = 0  # bitmask of the decision's hand slots matched so far
    for slot in range(c[HAND_N + seat]):
        card = c[HAND + seat * HAND_CAP + slot]
        kind = T.card_kind[card]
        if kind != CK_BEING and kind != CK_LEGEND:
            continue
        wk = w[W_SUMMONABLE] if kind == CK_BEING else w[W_LEGENDS_READY]
        if wk == 0:
            continue
        if T.card_det_n[card] > 0:  # a detached pattern: no witness, ask its search
            if detached_summonable(c, T, me, card):
                v += wk
            continue
        wit = -3  # unknown: the card was not in the decision's hand
        for k in range(ctx[1]):
            if (used >> k) & 1 == 0 and ctx[CX_SLOTS + 2 * k] == card:
                used |= 1 << k
                wit = ctx[CX_SLOTS + 2 * k + 1]
                break
        legendary = T.card_rank[card] == LEGENDARY
        stock = LSTOCK if legendary else STOCK
        own_kind = bits[13] if legendary else bits[12]
        found = False
        if wit >= 0:
            o = wit // WITNESS
            t = wit % WITNESS
            if pattern_fits(c, T, me, o, t, T.card_rank[card], 0) and summon_stock_ok(
                c, T, me, o, t, T.card_rank[card], own_kind
            ):
                found = True
            else:
                found = summon_witness(c, T, me, card, bits) >= 0
        elif wit == -1 and better >= 0 and s[stock + me] > 0 and c[stock + me] > 0:
            found = better > 0 and _fits_now(T, card, bits)  # the stock supplies the piece
        else:
            found = summon_witness(c, T, me, card, bits) >= 0
        if found:
            v += wk
    return v


@njit(cache=True, _nrt=False)
def _task_part(c, s, T, seat, w, ctx, changed, sets):
    """The task part of ``c`` (``sets``: its ``board_sets``), checking again only the tasks
    a change may have decided."""
    if c[GAME_OVER] == 1 or not has_tasks(c[MODE]):
        return 0.0
    if changed < 0:
        return task_value_on(c, T, seat, w, sets)
    for k in range(N_AVAIL):
        if c[TAVAIL + k] != s[TAVAIL + k]:
            return task_value_on(c, T, seat, w, sets)
    me = c[COLOUR + seat]
    best = 0
    threat = 0
    for k in range(N_AVAIL):
        t = c[TAVAIL + k]
        if t < 0:
            continue
        pts = T.task_points[t]
        again = reads_counters(T, t)
        for i in range(changed):
            if again:
                break
            again = square_matters(T, t, ctx[CX_DIFF + i])
        for col in range(n_colours(c)):
            if col == me:
                if w[W_CLAIMABLE] == 0 or best >= pts:
                    continue
            elif w[W_OPP_CLAIMABLE] == 0 or threat >= pts:
                continue
            if again:
                holds = task_holds_on(c, T, t, col, sets)
            else:
                holds = ctx[CX_TASKS + t * 4 + col] == 1
            if holds:
                if col == me:
                    best = pts
                else:
                    threat = pts
    return task_formula(w, best, threat)


@njit(cache=True, _nrt=False)
def hand_bits_from_sets(c, T, me, sets):
    """``hand_bits(c, T, me)`` and every colour's pieces (``occupied_bits``) from the
    position's ``board_sets``: the same words, without passes of their own."""
    o1l = sets[2 * me]
    o1h = sets[2 * me + 1]
    upl, uph, legl, legh = sets[8], sets[9], sets[10], sets[11]
    occ_lo = sets[0] | sets[2] | sets[4] | sets[6]
    occ_hi = sets[1] | sets[3] | sets[5] | sets[7]
    leg = popcount(o1l & legl) + popcount(o1h & legh)
    pool = popcount(o1l) + popcount(o1h) - leg
    bits = (
        o1l, o1h, o1l & upl, o1h & uph, o1l & legl, o1h & legh, upl, uph, legl, legh,
        T.board_masks[BM_ONBOARD, 0], T.board_masks[BM_ONBOARD, 1], pool, leg,
    )  # fmt: skip
    if c[BORROW_ENEMY] == 0 and c[IMPRO_LEFT + me] == 0:
        return bits + (np.int64(0), np.int64(0)), occ_lo, occ_hi
    return bits + (occ_lo, occ_hi), occ_lo, occ_hi


@njit(cache=True, _nrt=False)
def child_value(c, s, T, seat, w, ctx, opts):
    enter(P_EVAL_DELTA)
    r = _child_value_body(c, s, T, seat, w, ctx, opts)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _child_value_body(c, s, T, seat, w, ctx, opts):
    """``evaluate(c, T, seat, w, opts)`` for a position ``c`` reached from the decision's
    position ``s`` (``prepare`` ran on it into ``ctx``)."""
    me = c[COLOUR + seat]
    if ctx[0] == 0 or ctx[2] != seat or c[GAME_OVER] != 0 or not _plain_ok(c, me):
        return (
            board_value(c, T, seat, w) + task_value(c, T, seat, w) + hand_value(c, T, seat, w, opts)
        )
    changed, better = _diff(c, s, T, me, ctx)
    enter(P_EVAL_BITS)
    sets = board_sets(c)  # one pass for the hand's bitboards, the board part and the tasks
    bits, occ_lo, occ_hi = hand_bits_from_sets(c, T, me, sets)
    leave()
    enter(P_EVAL_TASK_PART)
    tv = _task_part(c, s, T, seat, w, ctx, changed, sets)
    leave()
    v = board_value_occ(c, T, seat, w, bits, occ_lo, occ_hi) + tv
    if w[W_SUMMONABLE] == 0 and w[W_LEGENDS_READY] == 0:
        return v + pending_value(c, seat, w)
    return v + _hand_part(c, s, T, seat, w, ctx, opts, better, bits)
