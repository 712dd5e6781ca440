"""Possessed summoning (Possessed Summoner, reference fact 65): the next summon this turn
builds its pattern from one enemy colour's pieces instead of yours; the summoned piece,
its stock and any out-of-stock pick-up stay yours.

A separate compiled path, so the plain search (core.patterns.find_summons) keeps its speed:
the turn loop calls ``possessed_summons`` only while SUMMON_COLOUR is set. Every pattern
cell must hold a piece of the possessed colour of at least the cell's rank; a target that
must hold your piece (t,c cards) must then hold a piece of the possessed colour, which the
being oversummons (BGA foundPattern counts the target as a pattern cell). In melee one cell
(the target included) may instead hold a piece of a third colour whose improvisation you
still have, which spends it, offered only where the possessed colour alone does not fit
(BGA foundPattern; the card text is silent). Your own pieces never fit, and a borrowed
enemy piece (War Summoner) never meets a possession. ``reference_possessed`` is the plain
full scan the anchored search is tested against.
"""

from core.constants import LEGENDARY
from core.jit import njit
from core.layout import BOARD, IMPRO_LEFT, NSQ
from core.patterns import _add, _square_at, count_own, pattern_enemies, summon_stock_ok


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
    names it as ``core.patterns`` does (hand slot + 16 * (colour + 1))."""
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
                n = _add(opts, n, slot, o, t)
            else:
                for c in range(4):
                    if (impro & e) >> c & 1:
                        n = _add(opts, n, slot + 16 * (c + 1), o, t)
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
                n = _add(opts, n, slot, o, t)
            elif other != seat and other != colour and (impro >> other) & 1:
                n = _add(opts, n, slot + 16 * (other + 1), o, t)
    return n
