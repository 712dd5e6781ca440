"""Detached patterns (card key ``summon-on = "empty-colourless"``, Time Traveler): the being
may enter any empty colourless square as long as its pattern stands somewhere on the board.

The pattern's existence is a yes/no, so a summon row names only the square (its orientation
column is the card's first detached orientation row, which has no marks). An instance is
judged with the same allowances as any summon: void cells (Void Summoner), a borrowed enemy
piece (War Summoner), one melee improvisation, or a possessed colour (Possessed Summoner:
every cell then holds that colour's pieces, but for one melee improvisation with a third
colour, as in core.summon.possessed). ``detached_ways``
answers with a bitmask: bit 0, an instance needing no improvisation; bit c + 1, one that
needs colour c's improvisation. A summon needing an improvisation is offered only when no
instance does without (as ``core.summon.patterns`` offers one only when needed).

Out of stock, a piece may be picked up only if some instance does not use it (BGA playCard's
shortage branch forbids the pieces that belong to every instance found): the instances are
judged with the allowances the summon was found with, kept in PEND_ALLOW.
"""

from core.constants import COMMON, LEGENDARY
from core.jit import njit
from core.layout import BOARD, BORROW_ENEMY, IMPRO_LEFT, LSTOCK, STOCK, SUMMON_COLOUR, VOID_CELLS
from core.summon.patterns import _square_at, add_summon
from core.summon.possessed import possessed_impro


@njit(cache=True, _nrt=False)
def detached_ways(s, T, colour, card, skip, voids, borrow, impro):
    """Bitmask of the ways ``card``'s detached pattern stands on the board for pieces of
    ``colour`` (bit 0 plain, bit c + 1 with colour c's improvisation, ``impro`` being the
    colours still improvisable), counting only instances that do not use square ``skip``."""
    ways = 0
    o0 = T.card_det_start[card]
    for o in range(o0, o0 + T.card_det_n[card]):
        for i in range(T.onboard.shape[0]):
            a = T.onboard[i]  # the first cell, at (0, 0)
            nv = voids
            ne = 0
            mask = 0
            ok = True
            for k in range(T.or_ncells[o]):
                q = _square_at(a, T.or_cells[o, k, 0], T.or_cells[o, k, 1])
                if q < 0 or q == skip or T.sq_color[q] < 0:
                    ok = False
                    break
                code = s[BOARD + q]
                if code == 0:
                    if T.or_cells[o, k, 2] != COMMON or nv == 0:
                        ok = False
                        break
                    nv -= 1
                elif (code & 3) < T.or_cells[o, k, 2]:
                    ok = False
                    break
                elif (code >> 2) != colour:
                    ne += 1
                    mask |= 1 << (code >> 2)
            if not ok:
                continue
            if ne <= borrow:
                ways |= 1
            elif ne == borrow + 1:
                ways |= (impro & mask) << 1
    return ways


@njit(cache=True, _nrt=False)
def _allowances(s, seat):
    """(pattern colour, void cells, borrowed pieces, improvisable colours) for the next
    summon of ``seat``'s colour."""
    if s[SUMMON_COLOUR] >= 0:
        return s[SUMMON_COLOUR], 0, 0, possessed_impro(s, seat, s[SUMMON_COLOUR])
    return seat, s[VOID_CELLS], s[BORROW_ENEMY], s[IMPRO_LEFT + seat]


@njit(cache=True, _nrt=False)
def _own_of_kind(s, T, seat, card, q):
    """A piece of the seat that could be picked up for ``card`` (legendary for a legend)."""
    code = s[BOARD + q]
    if code == 0 or (code >> 2) != seat:
        return False
    return ((code & 3) == LEGENDARY) == (T.card_rank[card] == LEGENDARY)


@njit(cache=True, _nrt=False)
def _usable_ways(s, T, seat, card):
    """``detached_ways`` for the next summon, less the ways that leave no piece to pick up
    when the seat is out of stock."""
    pcol, voids, borrow, impro = _allowances(s, seat)
    ways = detached_ways(s, T, pcol, card, -1, voids, borrow, impro)
    if ways == 0:
        return 0
    legendary = T.card_rank[card] == LEGENDARY
    if (s[LSTOCK + seat] if legendary else s[STOCK + seat]) == 0:
        spare = 0  # the ways that leave one of your pieces of the right kind to pick up
        for i in range(T.onboard.shape[0]):
            q = T.onboard[i]
            if _own_of_kind(s, T, seat, card, q):
                spare |= detached_ways(s, T, pcol, card, q, voids, borrow, impro)
        ways &= spare
    return ways


@njit(cache=True, _nrt=False)
def detached_summons(s, T, seat, card, slot, opts, n):
    """Append an OPT_SUMMON row for every empty colourless square ``card`` may enter (its
    pattern stands somewhere), per improvised colour where one is needed."""
    ways = _usable_ways(s, T, seat, card)
    o = T.card_det_start[card]
    for c in range(-1, 4):
        if c >= 0 and (ways & 1) != 0:
            break  # improvising is offered only where no instance does without
        if (ways >> (c + 1)) & 1 == 0:
            continue
        a = slot if c < 0 else slot + 16 * (c + 1)
        for i in range(T.onboard.shape[0]):
            q = T.onboard[i]
            if s[BOARD + q] == 0 and T.sq_color[q] == 0:
                n = add_summon(opts, n, a, o, q)
    return n


@njit(cache=True, _nrt=False)
def detached_summonable(s, T, seat, card):
    """Would ``detached_summons`` list at least one row? (The players' evaluation.)"""
    if _usable_ways(s, T, seat, card) == 0:
        return False
    for i in range(T.onboard.shape[0]):
        q = T.onboard[i]
        if s[BOARD + q] == 0 and T.sq_color[q] == 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def pack_allowances(s, seat, impro_colour):
    """PEND_ALLOW for the summon being made: its allowances before the summon clears them."""
    pcol, voids, borrow, _ = _allowances(s, seat)
    p = 0 if pcol == seat else pcol + 1
    return voids + 4 * borrow + 16 * (impro_colour + 1) + 256 * p


@njit(cache=True, _nrt=False)
def detached_pickup_ok(s, T, seat, card, q, packed):
    """The out-of-stock pick-up of a detached summon: ``q`` is not in every instance found
    with the allowances in ``packed`` (PEND_ALLOW)."""
    voids = packed & 3
    borrow = (packed >> 2) & 3
    ic = ((packed >> 4) & 15) - 1
    p = (packed >> 8) & 15
    pcol = seat if p == 0 else p - 1
    impro = 0 if ic < 0 else 1 << ic
    wanted = 1 if ic < 0 else 1 | (1 << (ic + 1))
    if not _own_of_kind(s, T, seat, card, q):
        return False
    return detached_ways(s, T, pcol, card, q, voids, borrow, impro) & wanted != 0
