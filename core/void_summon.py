"""Void summoning (Void Summoner, reference fact 65): the next summon this turn may count up to
VOID_CELLS empty squares as common pieces of your colour.

A separate compiled path, so the plain search (core.patterns) keeps its speed: the turn loop
calls ``void_summons`` only while VOID_CELLS is set. An empty square stands in only where
the pattern asks for a piece of common rank (a ``c`` cell, or the target of a card whose
target must hold your common piece: the being then enters the empty square, as BGA's
foundPattern counts the target as a pattern cell and the project's decision lets a void
stand there as a borrowed piece may). The empty squares receive nothing: the pattern is just
satisfied. A heroic cell still needs a real piece. Borrowed enemy pieces (War Summoner) and
melee improvisation combine with void cells, each with its own allowance, so the search is
a full scan: an anchor cell may itself be empty. With no void cell allowed it lists exactly
what ``core.patterns.reference_summons`` lists (the tests hold it to that).
"""

from core.constants import COMMON, LEGENDARY
from core.jit import njit
from core.layout import BOARD, BORROW_ENEMY, IMPRO_LEFT, VOID_CELLS
from core.patterns import _add, _square_at, count_own, summon_stock_ok


@njit(cache=True, _nrt=False)
def void_fit(s, T, seat, o, target, being_rank, voids):
    """Can orientation ``o`` be matched with the being entering ``target`` when up to
    ``voids`` empty squares count as your commons and every enemy piece stands in for one
    of yours? -1 if not; else the number of enemy pieces needed * 16 + their colours."""
    if T.sq_color[target] < 0:
        return -1
    tcode = s[BOARD + target]
    req = T.or_target_req[o]
    n = 0
    mask = 0
    if req > 0:
        if tcode == 0:
            if req != COMMON or voids == 0:
                return -1
            voids -= 1
        elif (tcode & 3) < req or (tcode & 3) > being_rank:
            return -1
        elif (tcode >> 2) != seat:
            n = 1
            mask = 1 << (tcode >> 2)
    elif tcode != 0 and (tcode & 3) > being_rank:
        return -1
    for k in range(T.or_ncells[o]):
        q = _square_at(target, T.or_cells[o, k, 0], T.or_cells[o, k, 1])
        if q < 0 or T.sq_color[q] < 0:
            return -1
        code = s[BOARD + q]
        if code == 0:
            if T.or_cells[o, k, 2] != COMMON or voids == 0:
                return -1
            voids -= 1
        elif (code & 3) < T.or_cells[o, k, 2]:
            return -1
        elif (code >> 2) != seat:
            n += 1
            mask |= 1 << (code >> 2)
    return n * 16 + mask


@njit(cache=True, _nrt=False)
def _void_rows(s, T, seat, o, t, rank, own_kind, voids, borrow, impro):
    """The rows (orientation ``o``, target ``t``) gives: -1 none, 16 one plain row (the
    borrowed pieces cover every enemy piece), else the bitmask of the colours whose
    improvisation covers the one enemy piece left over (a row each)."""
    e = void_fit(s, T, seat, o, t, rank, voids)
    if e < 0:
        return -1
    ne = e >> 4
    if ne > borrow + 1 or (ne == borrow + 1 and (impro & e & 15) == 0):
        return -1
    if not summon_stock_ok(s, T, seat, o, t, rank, own_kind):
        return -1
    if ne <= borrow:
        return 16
    return impro & e & 15


@njit(cache=True, _nrt=False)
def void_summons(s, T, seat, card, slot, opts, n):
    """Append an OPT_SUMMON row for every legal (orientation, target) of ``card`` with the
    seat's void cells (VOID_CELLS), borrowed pieces and improvisations: one plain row when
    the borrowed pieces cover every enemy piece, else one row per colour whose melee
    improvisation covers the one left over (hand slot + 16 * (colour + 1))."""
    rank = T.card_rank[card]
    own_kind = count_own(s, T, seat, rank == LEGENDARY)
    voids = s[VOID_CELLS]
    borrow = s[BORROW_ENEMY]
    impro = s[IMPRO_LEFT + seat]
    o0 = T.card_or_start[card]
    for o in range(o0, o0 + T.card_or_n[card]):
        for i in range(T.onboard.shape[0]):
            t = T.onboard[i]
            r = _void_rows(s, T, seat, o, t, rank, own_kind, voids, borrow, impro)
            if r == 16:
                n = _add(opts, n, slot, o, t)
            elif r > 0:
                for c in range(4):
                    if (r >> c) & 1:
                        n = _add(opts, n, slot + 16 * (c + 1), o, t)
    return n


@njit(cache=True, _nrt=False)
def void_summonable(s, T, seat, card):
    """Would ``void_summons`` list at least one row? (The players' evaluation.)"""
    rank = T.card_rank[card]
    own_kind = count_own(s, T, seat, rank == LEGENDARY)
    voids = s[VOID_CELLS]
    borrow = s[BORROW_ENEMY]
    impro = s[IMPRO_LEFT + seat]
    o0 = T.card_or_start[card]
    for o in range(o0, o0 + T.card_or_n[card]):
        for i in range(T.onboard.shape[0]):
            if _void_rows(s, T, seat, o, T.onboard[i], rank, own_kind, voids, borrow, impro) >= 0:
                return True
    return False
