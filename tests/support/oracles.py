"""Test oracles for the summon searches: plain full scans, written independently of the
anchored and bitboard searches in core.summon, that the tests hold those searches to (same
rows, same order of legality). Nothing in the engine calls them, so they live with the tests:
editing one does not change the engine hash (core/__init__.py) or recompile the kernels.
"""

from core.constants import LEGENDARY
from core.jit import njit
from core.layout import BOARD, BORROW_ENEMY, IMPRO_LEFT, NSQ
from core.summon.patterns import add_summon, count_own, emit_summon, summon_stock_ok


@njit(cache=True, _nrt=False)
def reference_summons(s, T, seat, card, slot, opts, n):
    """Plain scan: every orientation at every square, written independently of
    ``find_summons``'s loop; the yardstick it is tested against."""
    rank = T.card_rank[card]
    own_kind = count_own(s, T, seat, rank == LEGENDARY)
    borrow = s[BORROW_ENEMY]
    impro = s[IMPRO_LEFT + seat]
    o0 = T.card_or_start[card]
    for o in range(o0, o0 + T.card_or_n[card]):
        for t in range(NSQ):
            n = emit_summon(s, T, seat, slot, o, t, rank, own_kind, borrow, impro, opts, n)
    return n


@njit(cache=True, _nrt=False)
def reference_possessed(s, T, seat, colour, card, slot, opts, n):
    """Plain scan: every orientation on every square, each cell checked on its own; the
    cells of other colours are collected and at most one of an improvisable colour is
    allowed."""
    rank = T.card_rank[card]
    own_kind = count_own(s, T, seat, rank == LEGENDARY)
    impro = s[IMPRO_LEFT + seat]
    o0 = T.card_or_start[card]
    for o in range(o0, o0 + T.card_or_n[card]):
        for t in range(NSQ):
            if T.sq_color[t] < 0 or T.or_ncells[o] == 0:
                continue
            ok = True
            others = 0  # cells holding a piece not of ``colour``
            other = -1  # the colour of the last such piece
            tcode = s[BOARD + t]
            if T.or_target_req[o] > 0:
                ok = tcode != 0 and T.or_target_req[o] <= (tcode & 3) <= rank
                if ok and (tcode >> 2) != colour:
                    others += 1
                    other = tcode >> 2
            elif tcode != 0:
                ok = (tcode & 3) <= rank
            for k in range(T.or_ncells[o]):
                r = t // 9 + T.or_cells[o, k, 0]
                c = t % 9 + T.or_cells[o, k, 1]
                if not (0 <= r < 9 and 0 <= c < 9) or T.sq_color[r * 9 + c] < 0:
                    ok = False
                    break
                code = s[BOARD + r * 9 + c]
                if code == 0 or (code & 3) < T.or_cells[o, k, 2]:
                    ok = False
                elif (code >> 2) != colour:
                    others += 1
                    other = code >> 2
            if not ok or others > 1 or not summon_stock_ok(s, T, seat, o, t, rank, own_kind):
                continue
            if others == 0:
                n = add_summon(opts, n, slot, o, t)
            elif other != seat and other != colour and (impro >> other) & 1:
                n = add_summon(opts, n, slot + 16 * (other + 1), o, t)
    return n
