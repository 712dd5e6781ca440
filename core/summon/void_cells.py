"""Void summoning (Void Summoner, reference fact 65): the next summon this turn may count up to
VOID_CELLS empty squares as common pieces of your colour.

A separate compiled path, so the plain search (core.summon.patterns) keeps its speed: the turn loop
calls ``void_summons`` only while VOID_CELLS is set. Without borrowed or improvised pieces
(the usual case) a bitboard pre-filter (``_candidates``, the plain search's bitboards with a
running set per void cell used) names the targets worth the full test, which then decides
each one exactly as the full scan would, in the same order. The fit itself is
``core.summon.patterns.pattern_enemies`` with its ``voids`` allowance. An empty square stands
in only where the pattern asks for a piece of common rank (a ``c`` cell, or the target of a
card whose target must hold your common piece: the being then enters the empty square, as BGA's
foundPattern counts the target as a pattern cell and the project's decision lets a void
stand there as a borrowed piece may). The empty squares receive nothing: the pattern is just
satisfied. A heroic cell still needs a real piece. Borrowed enemy pieces (War Summoner) and
melee improvisation combine with void cells, each with its own allowance, so the search is
a full scan: an anchor cell may itself be empty. With no void cell allowed it lists exactly
what ``reference_summons`` (tests/support/oracles.py) lists (the tests hold it to that).
"""

from core.board.bits import pop_square
from core.constants import LEGENDARY
from core.jit import njit
from core.layout import BORROW_ENEMY, IMPRO_LEFT, VOID_CELLS
from core.summon.patterns import (
    add_summon,
    count_own,
    occupied_bits,
    own_bits,
    short_targets,
    summon_enemies,
)

MAX_FAST_VOIDS = 3  # allowances the bitboard pre-filter counts up to (more: the full scan)


@njit(cache=True, _nrt=False)
def _void_rows(s, T, seat, o, t, rank, own_kind, voids, borrow, impro):
    """The rows (orientation ``o``, target ``t``) gives: -1 none, 16 one plain row (the
    borrowed pieces cover every enemy piece), else the bitmask of the colours whose
    improvisation covers the one enemy piece left over (a row each)."""
    e = summon_enemies(s, T, seat, o, t, rank, own_kind, borrow, impro, voids)
    if e < 0:
        return -1
    if (e >> 4) <= borrow:
        return 16
    return impro & e & 15


@njit(cache=True, _nrt=False)
def _fast(s, seat):
    """The bitboard pre-filter applies: nothing borrowed or improvised, few void cells."""
    return s[BORROW_ENEMY] == 0 and s[IMPRO_LEFT + seat] == 0 and s[VOID_CELLS] <= MAX_FAST_VOIDS


@njit(cache=True, _nrt=False)
def _board_sets(s, T, seat):
    """(``own_bits``, the empty playable squares) for ``_candidates``."""
    bits = own_bits(s, T, seat)
    occ_lo, occ_hi = occupied_bits(s, T)
    return bits, bits[10] & ~occ_lo, bits[11] & ~occ_hi


@njit(cache=True, _nrt=False)
def _candidates(T, bits, empty_lo, empty_hi, o, rank, voids):
    """Every target (a bitboard pair) where orientation ``o`` fits the seat's own pieces
    with at most ``voids`` empty squares standing in where a common piece is asked for, the
    rule of ``pattern_enemies`` when no enemy piece may be used (``short_targets``). A
    superset of the targets the full scan accepts (the piece supply is not checked), so each
    one is then asked of ``_void_rows`` itself."""
    f0l, f0h, f1l, f1h, f2l, f2h, f3l, f3h = short_targets(T, bits, empty_lo, empty_hi, o, rank)
    lo, hi = f0l, f0h
    if voids >= 1:
        lo |= f1l
        hi |= f1h
    if voids >= 2:
        lo |= f2l
        hi |= f2h
    if voids >= 3:
        lo |= f3l
        hi |= f3h
    return lo, hi


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
    if _fast(s, seat):  # only the pre-filter's targets, ascending as in the full scan
        bits, el, eh = _board_sets(s, T, seat)
        for o in range(o0, o0 + T.card_or_n[card]):
            lo, hi = _candidates(T, bits, el, eh, o, rank, voids)
            while lo != 0 or hi != 0:
                t, lo, hi = pop_square(lo, hi)
                if _void_rows(s, T, seat, o, t, rank, own_kind, voids, borrow, impro) == 16:
                    n = add_summon(opts, n, slot, o, t)
        return n
    for o in range(o0, o0 + T.card_or_n[card]):
        for i in range(T.onboard.shape[0]):
            t = T.onboard[i]
            r = _void_rows(s, T, seat, o, t, rank, own_kind, voids, borrow, impro)
            if r == 16:
                n = add_summon(opts, n, slot, o, t)
            elif r > 0:
                for c in range(4):
                    if (r >> c) & 1:
                        n = add_summon(opts, n, slot + 16 * (c + 1), o, t)
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
    if _fast(s, seat):
        bits, el, eh = _board_sets(s, T, seat)
        for o in range(o0, o0 + T.card_or_n[card]):
            lo, hi = _candidates(T, bits, el, eh, o, rank, voids)
            while lo != 0 or hi != 0:
                t, lo, hi = pop_square(lo, hi)
                if _void_rows(s, T, seat, o, t, rank, own_kind, voids, borrow, impro) >= 0:
                    return True
        return False
    for o in range(o0, o0 + T.card_or_n[card]):
        for i in range(T.onboard.shape[0]):
            if _void_rows(s, T, seat, o, T.onboard[i], rank, own_kind, voids, borrow, impro) >= 0:
                return True
    return False
