"""Possessed summoning (Possessed Summoner, reference fact 65): the next summon this turn
builds its pattern from one enemy colour's pieces instead of yours; the summoned piece,
its stock and any out-of-stock pick-up stay yours.

A separate compiled path, so the plain search (core.summon.patterns.find_summons) keeps its speed:
the turn loop calls ``possessed_summons`` only while SUMMON_COLOUR is set. Every pattern
cell must hold a piece of the possessed colour of at least the cell's rank, never one of
yours; a target that must hold your piece (t,c cards) must then hold a piece of the
possessed colour, which the being oversummons (BGA foundPattern counts the target as a
pattern cell). Neither a borrowed enemy piece nor melee improvisation applies: they stand in
for your own pieces, and a possessed pattern uses none.
``core.checks.reference_search.reference_possessed`` is the plain full scan the anchored
search is tested against.
"""

from core.constants import LEGENDARY
from core.jit import njit
from core.layout import BOARD
from core.summon.patterns import _add, _square_at, count_own, summon_stock_ok


@njit(cache=True, _nrt=False)
def possessed_fits(s, T, colour, o, target, being_rank):
    """Is orientation ``o`` matched by ``colour``'s pieces with the being entering
    ``target``?"""
    if T.sq_color[target] < 0:
        return False
    tcode = s[BOARD + target]
    req = T.or_target_req[o]
    if req > 0:
        if tcode == 0 or (tcode >> 2) != colour:
            return False
        if (tcode & 3) < req or (tcode & 3) > being_rank:
            return False
    elif tcode != 0 and (tcode & 3) > being_rank:
        return False
    for k in range(T.or_ncells[o]):
        q = _square_at(target, T.or_cells[o, k, 0], T.or_cells[o, k, 1])
        if q < 0 or T.sq_color[q] < 0:
            return False
        code = s[BOARD + q]
        if code == 0 or (code >> 2) != colour or (code & 3) < T.or_cells[o, k, 2]:
            return False
    return True


@njit(cache=True, _nrt=False)
def possessed_summons(s, T, seat, colour, card, slot, opts, n):
    """Append an OPT_SUMMON row for every legal possessed (orientation, target) of
    ``card``: the pattern's first cell (highest rank) is anchored on each piece of
    ``colour``."""
    rank = T.card_rank[card]
    own_kind = count_own(s, T, seat, rank == LEGENDARY)
    o0 = T.card_or_start[card]
    for o in range(o0, o0 + T.card_or_n[card]):
        if T.or_ncells[o] == 0:
            continue  # no pattern cells: nothing to possess (no such card today)
        ar = T.or_cells[o, 0, 0]
        ac = T.or_cells[o, 0, 1]
        amin = T.or_cells[o, 0, 2]
        for i in range(T.onboard.shape[0]):
            p = T.onboard[i]
            code = s[BOARD + p]
            if code == 0 or (code >> 2) != colour or (code & 3) < amin:
                continue
            t = _square_at(p, -ar, -ac)
            if t < 0:
                continue
            if possessed_fits(s, T, colour, o, t, rank) and summon_stock_ok(
                s, T, seat, o, t, rank, own_kind
            ):
                n = _add(opts, n, slot, o, t)
    return n
