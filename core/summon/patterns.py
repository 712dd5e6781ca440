"""Summoning patterns: orientations compiled once, legal summons found fast.

Compilation (plain Python, core.summon.orientations, which loads no numba) turns a card grid
into offsets relative to the target square for each distinct orientation among the 8
symmetries; marks and arrows turn with the pattern.

Search (compiled): a pattern's first cell must sit on one of your pieces, so instead of
sliding every orientation over all 69 squares we anchor that cell on each of your pieces of
sufficient rank (cells are sorted highest rank first, so the anchor set is the smallest).
The turn loop searches on bitboards instead (core.board.bits): in the common case (no borrowed
enemy piece, no melee improvisation) a pattern's legal targets are the AND of the own-piece
sets shifted by each cell's offset, for all targets at once (``find_summons_bits``); with a
borrowed piece or improvisation the same AND over the pieces of every colour gives the
candidate targets, each then tested exactly (``find_summons_wide``). Both list the anchor
search's rows in its order; the anchor search stays as their yardstick for order, and
``reference_summons`` (tests/support/oracles.py) is the plain full scan all of them are
tested against.
"""

import numpy as np

from core.board.bits import COLS_OK, LO_BITS, popcount, shift, trailing_zeros
from core.board.geometry import BM_ONBOARD
from core.constants import COMMON, HEROIC, LEGENDARY, OPT_SUMMON, SCRATCH_ROWS
from core.jit import njit
from core.layout import BOARD, BORROW_ENEMY, IMPRO_LEFT, LSTOCK, NSQ, STOCK


@njit(cache=True, _nrt=False)
def _square_at(sq, dr, dc):
    r = sq // 9 + dr
    c = sq % 9 + dc
    if r < 0 or r > 8 or c < 0 or c > 8:
        return -1
    return r * 9 + c


@njit(cache=True, _nrt=False)
def pattern_enemies(s, T, seat, o, target, being_rank, voids):
    """Can orientation ``o`` be matched with the being entering ``target``, counting every
    piece as if it were the seat's own and up to ``voids`` empty squares as your commons
    (Void Summoner, core.summon.void_cells; 0 otherwise)? -1 if not; else the number of enemy
    pieces the match needs * 16 + the bitmask of their colours. An enemy piece may also
    stand on a target square that must hold your piece; the being then replaces it (BGA,
    War Summoner and improvised summoning alike)."""
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
def pattern_fits(s, T, seat, o, target, being_rank, borrow):
    """Is orientation ``o`` matched by the seat's pieces with the being entering ``target``?

    ``borrow``: how many enemy pieces may stand in for your own (War Summoner), on any cell
    including a target square that must hold your piece. The summon search's hot path: it
    stops at the first cell that does not fit."""
    if T.sq_color[target] < 0:
        return False
    tcode = s[BOARD + target]
    req = T.or_target_req[o]
    if req > 0:
        if tcode == 0 or (tcode & 3) < req or (tcode & 3) > being_rank:
            return False
        if (tcode >> 2) != seat:
            if borrow == 0:
                return False
            borrow -= 1
    elif tcode != 0 and (tcode & 3) > being_rank:
        return False
    for k in range(T.or_ncells[o]):
        q = _square_at(target, T.or_cells[o, k, 0], T.or_cells[o, k, 1])
        if q < 0 or T.sq_color[q] < 0:
            return False
        code = s[BOARD + q]
        if code == 0 or (code & 3) < T.or_cells[o, k, 2]:
            return False
        if (code >> 2) != seat:
            if borrow == 0:
                return False
            borrow -= 1
    return True


@njit(cache=True, _nrt=False)
def summon_stock_ok(s, T, seat, o, target, being_rank, own_of_kind):
    """The summoned piece can be found: stock, an oversummoned own piece of the same kind,
    or one of your pieces of that kind outside the pattern to pick up."""
    legendary = being_rank == LEGENDARY
    if legendary:
        if s[LSTOCK + seat] > 0:
            return True
    elif s[STOCK + seat] > 0:
        return True
    tcode = s[BOARD + target]
    if tcode != 0 and (tcode >> 2) == seat and (((tcode & 3) == LEGENDARY) == legendary):
        return True
    used = 0
    for k in range(T.or_ncells[o]):
        q = _square_at(target, T.or_cells[o, k, 0], T.or_cells[o, k, 1])
        code = s[BOARD + q]
        if code != 0 and (code >> 2) == seat and ((code & 3) == LEGENDARY) == legendary:
            used += 1
    return own_of_kind - used > 0


@njit(cache=True, _nrt=False)
def count_own(s, T, seat, legendary):
    n = 0
    for i in range(T.onboard.shape[0]):
        code = s[BOARD + T.onboard[i]]
        if code != 0 and (code >> 2) == seat and (((code & 3) == LEGENDARY) == legendary):
            n += 1
    return n


@njit(cache=True, _nrt=False)
def anchor_squares(s, T, seat, out):
    """Squares whose pieces may anchor a pattern: yours, every piece while an enemy piece
    may be borrowed, and pieces of colours you may still improvise with (melee). Written to
    ``out``; returns the count."""
    m = 0
    borrow = s[BORROW_ENEMY]
    impro = s[IMPRO_LEFT + seat]
    for i in range(T.onboard.shape[0]):
        p = T.onboard[i]
        code = s[BOARD + p]
        if code != 0 and (borrow > 0 or (code >> 2) == seat or (impro >> (code >> 2)) & 1):
            out[m] = p
            m += 1
    return m


@njit(cache=True, _nrt=False)
def summon_enemies(s, T, seat, o, t, rank, own_kind, borrow, impro, voids):
    """Does (orientation, target) give a summon, counting borrowed and improvised pieces
    and ``voids`` empty squares? -1 if not; else ``pattern_enemies``' code (enemy pieces
    used * 16 + their colours)."""
    e = pattern_enemies(s, T, seat, o, t, rank, voids)
    if e < 0:
        return -1
    ne = e >> 4
    if ne > borrow + 1 or (ne == borrow + 1 and (impro & e & 15) == 0):
        return -1
    if not summon_stock_ok(s, T, seat, o, t, rank, own_kind):
        return -1
    return e


@njit(cache=True, _nrt=False)
def emit_summon(s, T, seat, slot, o, t, rank, own_kind, borrow, impro, opts, n):
    """Append the summon rows of (orientation, target): one plain row when borrowed pieces
    cover every enemy piece; else, when one enemy piece is left over, one row per colour
    whose melee improvisation could cover it (hand slot + 16 * (colour + 1))."""
    e = summon_enemies(s, T, seat, o, t, rank, own_kind, borrow, impro, 0)
    if e < 0:
        return n
    if (e >> 4) <= borrow:
        return add_summon(opts, n, slot, o, t)
    for c in range(4):
        if (impro & e) >> c & 1:
            n = add_summon(opts, n, slot + 16 * (c + 1), o, t)
    return n


@njit(cache=True, _nrt=False)
def find_summons(s, T, seat, card, slot, opts, n, anchors, n_anchors, own_pool, own_leg):
    """Append an OPT_SUMMON row for every legal (orientation, target) of ``card``: the
    anchor search, which the bitboard searches the turn loop uses must match row for row
    (and which the evaluation's ``summon_witness`` follows).

    ``anchors``: from ``anchor_squares``; ``own_pool`` / ``own_leg``: your common+heroic and
    legendary pieces on the board (for the out-of-stock rule). The candidate test is written
    out in this loop on purpose: moving it into a helper that also takes ``opts`` made the
    search 12 times slower (numba's reference counting on every call)."""
    rank = T.card_rank[card]
    own_kind = own_leg if rank == LEGENDARY else own_pool
    borrow = s[BORROW_ENEMY]
    impro = s[IMPRO_LEFT + seat]
    o0 = T.card_or_start[card]
    for o in range(o0, o0 + T.card_or_n[card]):
        anywhere = T.or_ncells[o] == 0  # no pattern cells (Time Traveler): any square
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
                if pattern_fits(s, T, seat, o, t, rank, borrow) and summon_stock_ok(
                    s, T, seat, o, t, rank, own_kind
                ):
                    n = add_summon(opts, n, slot, o, t)
                continue
            e = pattern_enemies(s, T, seat, o, t, rank, 0)
            if e < 0:
                continue
            ne = e >> 4
            if ne > borrow + 1 or (ne == borrow + 1 and (impro & e & 15) == 0):
                continue
            if not summon_stock_ok(s, T, seat, o, t, rank, own_kind):
                continue
            if ne <= borrow:
                n = add_summon(opts, n, slot, o, t)
                continue
            for c in range(4):
                if (impro & e) >> c & 1:
                    n = add_summon(opts, n, slot + 16 * (c + 1), o, t)
    return n


@njit(cache=True, _nrt=False)
def card_summons(s, T, seat, card, slot, opts, n):
    """The summons of one card, doing its own set-up (the turn loop shares it)."""
    bits = own_bits(s, T, seat)
    if s[BORROW_ENEMY] == 0 and s[IMPRO_LEFT + seat] == 0:
        return find_summons_bits(s, T, seat, card, slot, opts, n, bits)
    occ_lo, occ_hi = occupied_bits(s, T)
    return find_summons_wide(s, T, seat, card, slot, opts, n, bits, occ_lo, occ_hi)


@njit(cache=True, _nrt=False)
def own_bits(s, T, seat):
    """The board as bitboards for the seat's summons: its pieces of rank >= 1, 2, 3, all
    pieces of rank >= 2 and 3, the playable squares (each a (lo, hi) pair, core.board.bits), then
    the seat's common+heroic and legendary piece counts."""
    o1l, o2l, o3l, a2l, a3l = _word_bits(s, seat, 0, LO_BITS)
    o1h, o2h, o3h, a2h, a3h = _word_bits(s, seat, LO_BITS, NSQ)
    leg = popcount(o3l) + popcount(o3h)
    pool = popcount(o1l) + popcount(o1h) - leg
    onl = T.board_masks[BM_ONBOARD, 0]
    onh = T.board_masks[BM_ONBOARD, 1]
    return (
        o1l, o1h, o2l, o2h, o3l, o3h, a2l, a2h, a3l, a3h, onl, onh, pool, leg
    )  # fmt: skip


@njit(cache=True, _nrt=False)
def _word_bits(s, seat, start, end):
    """``own_bits``' piece sets for the squares start..end-1, one word (bit q - start).
    Written without branches (each set gains ``b * condition``) so that the compiler can
    vectorise it; the playable squares and the counts come from tables and popcounts."""
    z = np.int64(0)
    o1, o2, o3, a2, a3 = z, z, z, z, z
    for q in range(start, end):
        b = np.int64(1) << (q - start)
        code = np.int64(s[BOARD + q])
        r = code & 3
        own = np.int64(code != 0) & np.int64((code >> 2) == seat)
        up = np.int64(r >= HEROIC)
        lg = np.int64(r == LEGENDARY)
        a2 |= b * up
        a3 |= b * lg
        o1 |= b * own
        o2 |= b * (own & up)
        o3 |= b * (own & lg)
    return o1, o2, o3, a2, a3


@njit(cache=True, _nrt=False)
def _own_at_least(bits, r):
    if r <= COMMON:
        return bits[0], bits[1]
    if r == HEROIC:
        return bits[2], bits[3]
    return bits[4], bits[5]


@njit(cache=True, _nrt=False)
def _targets(bits, req, rank):
    """Squares the being may enter: an own piece of rank req..rank when the pattern needs
    one on the target, else an empty square or a piece of rank <= the being's."""
    if req > 0:
        lo, hi = _own_at_least(bits, req)
        if rank < LEGENDARY:
            xl, xh = _own_at_least(bits, rank + 1)
            return lo & ~xl, hi & ~xh
        return lo, hi
    if rank >= LEGENDARY:
        return bits[10], bits[11]
    if rank == HEROIC:
        return bits[10] & ~bits[8], bits[11] & ~bits[9]
    return bits[10] & ~bits[6], bits[11] & ~bits[7]


@njit(cache=True, _nrt=False)
def orientation_targets(T, bits, o, rank):
    """The targets (a bitboard pair) where orientation ``o`` fits the seat's own pieces of
    ``own_bits``, the being of ``rank`` entering: the piece supply is not checked."""
    lo, hi = _targets(bits, T.or_target_req[o], rank)
    for k in range(T.or_ncells[o]):
        if lo == 0 and hi == 0:
            break
        dc = T.or_cells[o, k, 1]
        ml, mh = _own_at_least(bits, T.or_cells[o, k, 2])
        ml, mh = shift(ml, mh, T.or_cells[o, k, 0] * 9 + dc)
        lo &= ml & COLS_OK[dc + 8, 0]
        hi &= mh & COLS_OK[dc + 8, 1]
    return lo, hi


@njit(cache=True, _nrt=False)
def summonable_targets(s, T, seat, o, rank, bits, in_stock, own_kind):
    """``orientation_targets`` less the targets whose summoned piece cannot be found (no
    stock and every piece of its kind in the pattern): the targets that give a summon."""
    lo, hi = orientation_targets(T, bits, o, rank)
    if in_stock:
        return lo, hi
    keep_lo = np.int64(0)
    keep_hi = np.int64(0)
    while lo != 0:
        t = trailing_zeros(lo)
        lo &= lo - 1
        if summon_stock_ok(s, T, seat, o, t, rank, own_kind):
            keep_lo |= np.int64(1) << t
    while hi != 0:
        t = trailing_zeros(hi)
        hi &= hi - 1
        if summon_stock_ok(s, T, seat, o, t + LO_BITS, rank, own_kind):
            keep_hi |= np.int64(1) << t
    return keep_lo, keep_hi


@njit(cache=True, _nrt=False)
def short_targets(T, bits, empty_lo, empty_hi, o, rank):
    """Targets of orientation ``o`` by how many empty squares it lacks: four bitboard pairs,
    the targets where every requirement is met by the seat's pieces (``own_bits``) but for
    exactly 0, 1, 2 or 3 cells that are empty squares (``empty_lo``, ``empty_hi``) asking for
    a common piece, or an empty target that must hold one. The searches for one more
    placement (core.players.summon_reach) and for void cells (core.summon.void_cells) read
    them; the piece supply is not checked. One running set per count of empty squares."""
    req = T.or_target_req[o]
    z = np.int64(0)
    f0l, f0h = _targets(bits, req, rank)
    f1l, f1h = (empty_lo, empty_hi) if req == COMMON else (z, z)
    f2l, f2h, f3l, f3h = z, z, z, z
    for k in range(T.or_ncells[o]):
        if (f0l | f0h | f1l | f1h | f2l | f2h | f3l | f3h) == 0:
            break
        dc = T.or_cells[o, k, 1]
        d = T.or_cells[o, k, 0] * 9 + dc
        ok_lo = COLS_OK[dc + 8, 0]
        ok_hi = COLS_OK[dc + 8, 1]
        hl, hh = _own_at_least(bits, T.or_cells[o, k, 2])
        hl, hh = shift(hl, hh, d)
        hl &= ok_lo
        hh &= ok_hi
        el, eh = z, z
        if T.or_cells[o, k, 2] <= COMMON:
            el, eh = shift(empty_lo, empty_hi, d)
            el &= ok_lo
            eh &= ok_hi
        f3l = (f3l & hl) | (f2l & el)
        f3h = (f3h & hh) | (f2h & eh)
        f2l = (f2l & hl) | (f1l & el)
        f2h = (f2h & hh) | (f1h & eh)
        f1l = (f1l & hl) | (f0l & el)
        f1h = (f1h & hh) | (f0h & eh)
        f0l &= hl
        f0h &= hh
    return f0l, f0h, f1l, f1h, f2l, f2h, f3l, f3h


@njit(cache=True, _nrt=False)
def find_summons_bits(s, T, seat, card, slot, opts, n, bits):
    """``find_summons`` when no enemy piece may be borrowed and no colour improvised, on
    the bitboards of ``own_bits``: the same rows in the same order (orientation by
    orientation, targets ascending)."""
    rank = T.card_rank[card]
    legendary = rank == LEGENDARY
    own_kind = bits[13] if legendary else bits[12]
    in_stock = (s[LSTOCK + seat] if legendary else s[STOCK + seat]) > 0
    o0 = T.card_or_start[card]
    for o in range(o0, o0 + T.card_or_n[card]):
        lo, hi = summonable_targets(s, T, seat, o, rank, bits, in_stock, own_kind)
        while lo != 0:
            n = add_summon(opts, n, slot, o, trailing_zeros(lo))
            lo &= lo - 1
        while hi != 0:
            n = add_summon(opts, n, slot, o, trailing_zeros(hi) + LO_BITS)
            hi &= hi - 1
    return n


@njit(cache=True, _nrt=False)
def any_summon_bits(s, T, seat, card, bits):
    """Does ``find_summons_bits`` find at least one summon? (It stops at the first.)"""
    rank = T.card_rank[card]
    legendary = rank == LEGENDARY
    own_kind = bits[13] if legendary else bits[12]
    in_stock = (s[LSTOCK + seat] if legendary else s[STOCK + seat]) > 0
    o0 = T.card_or_start[card]
    if not pieces_suffice(T, bits, o0):
        return False
    for o in range(o0, o0 + T.card_or_n[card]):
        lo, hi = summonable_targets(s, T, seat, o, rank, bits, in_stock, own_kind)
        if lo != 0 or hi != 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def pieces_suffice(T, bits, o):
    """Has the seat of ``own_bits`` as many pieces of each rank or better as the pattern of
    orientation ``o`` needs (its cells, and its target where it needs an own piece)? Every
    orientation of a card needs the same, so a card that fails here fits nowhere."""
    n1 = T.or_ncells[o]
    n2 = 0
    n3 = 0
    for k in range(T.or_ncells[o]):
        r = T.or_cells[o, k, 2]
        n2 += r >= HEROIC
        n3 += r >= LEGENDARY
    req = T.or_target_req[o]
    if req > 0:
        n1 += 1
        n2 += req >= HEROIC
        n3 += req >= LEGENDARY
    return (
        popcount(bits[0]) + popcount(bits[1]) >= n1
        and popcount(bits[2]) + popcount(bits[3]) >= n2
        and popcount(bits[4]) + popcount(bits[5]) >= n3
    )


@njit(cache=True, _nrt=False)
def occupied_bits(s, T):
    """Every piece on the board, whatever its colour, as a (lo, hi) bitboard pair."""
    lo = np.int64(0)
    hi = np.int64(0)
    for q in range(LO_BITS):
        lo |= np.int64(s[BOARD + q] != 0) << q
    for q in range(LO_BITS, NSQ):
        hi |= np.int64(s[BOARD + q] != 0) << (q - LO_BITS)
    return lo, hi


@njit(cache=True, _nrt=False)
def _any_at_least(bits, occ_lo, occ_hi, r):
    """Pieces of any colour of rank >= r."""
    if r <= COMMON:
        return occ_lo, occ_hi
    if r == HEROIC:
        return bits[6], bits[7]
    return bits[8], bits[9]


@njit(cache=True, _nrt=False)
def wide_targets(T, bits, occ_lo, occ_hi, o, rank):
    """``orientation_targets`` with the pieces of every colour (``occupied_bits``): the
    targets where each cell holds a piece of enough rank, the being of ``rank`` entering."""
    req = T.or_target_req[o]
    if req > 0:
        lo, hi = _any_at_least(bits, occ_lo, occ_hi, req)
        if rank < LEGENDARY:
            xl, xh = _any_at_least(bits, occ_lo, occ_hi, rank + 1)
            lo &= ~xl
            hi &= ~xh
    else:
        lo, hi = _targets(bits, 0, rank)
    for k in range(T.or_ncells[o]):
        if lo == 0 and hi == 0:
            break
        dc = T.or_cells[o, k, 1]
        ml, mh = _any_at_least(bits, occ_lo, occ_hi, T.or_cells[o, k, 2])
        ml, mh = shift(ml, mh, T.or_cells[o, k, 0] * 9 + dc)
        lo &= ml & COLS_OK[dc + 8, 0]
        hi &= mh & COLS_OK[dc + 8, 1]
    return lo, hi


@njit(cache=True, _nrt=False)
def find_summons_wide(s, T, seat, card, slot, opts, n, bits, occ_lo, occ_hi):
    """``find_summons`` (borrowed enemy pieces, melee improvisation) on bitboards: the
    targets where every cell holds a piece of any colour of enough rank (``_targets`` and
    the shifts of ``find_summons_bits``, with every colour counted), each then given the
    exact test of ``emit_summon``. A match needs its cells filled, so no summon is lost; the rows
    come in the anchor search's order (orientation by orientation, targets ascending,
    improvised colours ascending)."""
    rank = T.card_rank[card]
    own_kind = bits[13] if rank == LEGENDARY else bits[12]
    borrow = s[BORROW_ENEMY]
    impro = s[IMPRO_LEFT + seat]
    o0 = T.card_or_start[card]
    for o in range(o0, o0 + T.card_or_n[card]):
        lo, hi = wide_targets(T, bits, occ_lo, occ_hi, o, rank)
        while lo != 0:
            t = trailing_zeros(lo)
            lo &= lo - 1
            n = emit_summon(s, T, seat, slot, o, t, rank, own_kind, borrow, impro, opts, n)
        while hi != 0:
            t = trailing_zeros(hi) + LO_BITS
            hi &= hi - 1
            n = emit_summon(s, T, seat, slot, o, t, rank, own_kind, borrow, impro, opts, n)
    return n


@njit(cache=True, _nrt=False)
def add_summon(opts, n, slot, o, t):
    """Append the summon row (slot, orientation, target) unless the buffer is full; the new
    row count."""
    if n < opts.shape[0] - SCRATCH_ROWS:
        opts[n, 0] = OPT_SUMMON
        opts[n, 1] = slot
        opts[n, 2] = o
        opts[n, 3] = t
        return n + 1
    return n


@njit(cache=True, _nrt=False)
def pattern_squares(T, o, target, out):
    """Squares of your pieces used by the pattern (the target excluded); returns the count."""
    m = 0
    for k in range(T.or_ncells[o]):
        out[m] = _square_at(target, T.or_cells[o, k, 0], T.or_cells[o, k, 1])
        m += 1
    return m
