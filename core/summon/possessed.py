"""Possessed summoning (Possessed Summoner, reference fact 65): the next summon this turn
builds its pattern from one enemy colour's pieces instead of yours; the summoned piece,
its stock and any out-of-stock pick-up stay yours.

A separate compiled path, so the plain search (core.summon.patterns.find_summons) keeps its
speed: the turn loop calls ``possessed_summons`` only while SUMMON_COLOUR is set. Every
pattern cell must hold a piece of the possessed colour of at least the cell's rank; a target that
must hold your piece (t,c cards) must then hold a piece of the possessed colour, which the
being oversummons (BGA foundPattern counts the target as a pattern cell). In melee one cell
(the target included) may instead hold a piece of a third colour whose improvisation you
still have, which spends it, offered only where the possessed colour alone does not fit
(BGA foundPattern; the card text is silent). Your own pieces never fit, and a borrowed
enemy piece (War Summoner) never meets a possession.
``reference_possessed`` (tests/support/oracles.py) is the plain full scan the anchored search
is tested against.
"""

from core.constants import LEGENDARY
from core.jit import njit
from core.layout import BOARD, IMPRO_LEFT
from core.summon.patterns import _square_at, add_summon, count_own, pattern_enemies, summon_stock_ok


@njit(cache=True, _nrt=False)
def possessed_impro(s, seat, colour):
    """The colours ``seat`` may improvise with in a summon possessed by ``colour``: its
    unused melee improvisations less the possessed colour (0 outside melee)."""
    return s[IMPRO_LEFT + seat] & ~(1 << colour) & ~(1 << seat)


@njit(cache=True, _nrt=False)
def possessed_summons(s, T, seat, colour, card, slot, opts, n):
    """Append an OPT_SUMMON row for every legal possessed (orientation, target) of
    ``card``: the pattern's first cell (highest rank) is anchored on each piece of
    ``colour`` (or of a colour still improvisable); a row that needs an improvisation
    names it as ``core.summon.patterns`` does (hand slot + 16 * (colour + 1))."""
    rank = T.card_rank[card]
    own_kind = count_own(s, T, seat, rank == LEGENDARY)
    impro = possessed_impro(s, seat, colour)
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
            if code == 0 or (code & 3) < amin:
                continue
            if (code >> 2) != colour and (impro >> (code >> 2)) & 1 == 0:
                continue
            t = _square_at(p, -ar, -ac)
            if t < 0:
                continue
            e = pattern_enemies(s, T, colour, o, t, rank, 0)  # pieces not of ``colour``
            if e < 0 or e >= 32:
                continue
            if e >= 16 and (impro & e & 15) == 0:
                continue
            if not summon_stock_ok(s, T, seat, o, t, rank, own_kind):
                continue
            if e < 16:
                n = add_summon(opts, n, slot, o, t)
            else:
                for c in range(4):
                    if (impro & e) >> c & 1:
                        n = add_summon(opts, n, slot + 16 * (c + 1), o, t)
    return n
