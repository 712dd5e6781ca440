"""The learned leaf's summon checks derived from a reference position: the decision whose
options the scoring is valuing (core.players.greedy score_options), shared by all its
finished children.

A leaf's features ask, card by card, whether a colour could summon the card now: the
opponents' whole pools and the seat's own hand (core.players.features). Most of the seer's
leaves are an effect's targets played to the turn's end: a few squares differ from the
decision's position. ``prepare`` records there, for every card those checks ask about, the
card and its first summon (the *witness*, core.players.summon_reach) or that it has none,
with each colour's summon bitboards and whether its stock holds a piece. A leaf then
compares its bitboards with the reference's (ten words a colour, no square-by-square diff)
and answers a card asked at the same index as:

- unchanged bitboards, stock in both: the reference's answer (the plain summon search reads
  nothing else: the pattern, the colour's pieces by rank, every colour's upgraded pieces and
  the stock);
- a witness: summonable if the witness still fits, else searched again;
- none: a new fit needs a condition that turned true. With no own piece gained (no bit of
  the colour's pieces of rank >= 1, 2 or 3 set that was clear), the pattern's cells can only
  have got worse, so the new fit's target is one that opened: for a common being a square
  no longer holding an upgraded piece, or an own piece no longer heroic or better; for a
  heroic one the same with legendary. None opened for the card's rank: still none; some:
  the targets searched only among them. An own piece gained: searched again.

Only where the plain search is the one asked (no borrowed piece, improvisation or void
cells, the card without a detached pattern, stock in the reference and the leaf); anything
else is searched as before. Exact: tests/test_player_speedups.py compares the features with
the from-scratch ones at every leaf of seer and sage games.

Layout of the int row ``ref``: [0] valid, then one block per seat (REF_BLOCK ints): valid,
stock and legend-stock flags, hand and deck counts, the colour's bitboards as int32 halves,
then per hand slot and per deck card ``card << 20 | (witness + 2)`` (witness -2: not
recorded).
"""

import numpy as np

from core.constants import CK_BEING, CK_LEGEND, COMMON, HEROIC, LEGENDARY
from core.jit import njit
from core.layout import (
    BORROW_ENEMY,
    COLOUR,
    DECK,
    DECK_CAP,
    DECK_CNT,
    DECK_HEAD,
    HAND,
    HAND_CAP,
    HAND_N,
    IMPRO_LEFT,
    LSTOCK,
    MAX_PLAYERS,
    N_PLAYERS,
    STOCK,
    VOID_CELLS,
)
from core.players.summon_reach import (
    WITNESS,
    fits_through,
    hand_bits,
    slot_summonable,
    summon_witness,
)
from core.summon.patterns import pattern_fits

RB_VALID = 0
RB_STOCK = 1
RB_LSTOCK = 2
RB_HAND_N = 3
RB_DECK_N = 4
RB_BITS = 5  # ten bitboard words (own_bits' piece sets), two int32 halves each
N_REF_WORDS = 10
RB_HAND = RB_BITS + 2 * N_REF_WORDS
RB_DECK = RB_HAND + HAND_CAP
REF_BLOCK = RB_DECK + DECK_CAP
REF_SIZE = 1 + MAX_PLAYERS * REF_BLOCK
CARD_SHIFT = 20
NOT_RECORDED = -2


@njit(cache=True, _nrt=False)
def forget_ref(ref):
    """No reference: every check searches from scratch."""
    ref[0] = 0


@njit(cache=True, _nrt=False)
def plain_search(s, c):
    """Is the plain summon search the one asked for colour ``c`` (no borrowed piece,
    improvisation or void cells)?"""
    return s[BORROW_ENEMY] == 0 and s[IMPRO_LEFT + c] == 0 and s[VOID_CELLS] == 0


@njit(cache=True, _nrt=False)
def _word(ref, at):
    return (np.int64(ref[at + 1]) << 32) | (np.int64(ref[at]) & 0xFFFFFFFF)


@njit(cache=True, _nrt=False)
def _entry(s, T, c, card, bits, asked):
    wit = NOT_RECORDED
    if asked and T.card_det_n[card] == 0:
        wit = summon_witness(s, T, c, card, bits)
    return (card << CARD_SHIFT) | (wit + 2)


@njit(cache=True, _nrt=False)
def prepare_ref(s, T, seat, ref):
    """Record the reference answers of ``s`` for the features of ``seat``: its own hand's
    beings and legends, and every opponent's pool (hand beings and deck)."""
    me = s[COLOUR + seat]
    for p in range(s[N_PLAYERS]):
        blk = 1 + p * REF_BLOCK
        c = s[COLOUR + p]
        ref[blk + RB_VALID] = 0
        if (p != seat and c == me) or not plain_search(s, c):
            continue
        bits = hand_bits(s, T, c)
        for i in range(N_REF_WORDS):
            w = bits[i]
            ref[blk + RB_BITS + 2 * i] = np.int32(w & 0xFFFFFFFF)
            ref[blk + RB_BITS + 2 * i + 1] = np.int32(w >> 32)
        ref[blk + RB_STOCK] = 1 if s[STOCK + c] > 0 else 0
        ref[blk + RB_LSTOCK] = 1 if s[LSTOCK + c] > 0 else 0
        ref[blk + RB_HAND_N] = s[HAND_N + p]
        for k in range(s[HAND_N + p]):
            card = s[HAND + p * HAND_CAP + k]
            kind = T.card_kind[card]
            asked = kind == CK_BEING or kind == CK_LEGEND
            ref[blk + RB_HAND + k] = _entry(s, T, c, card, bits, asked)
        n = 0 if p == seat else s[DECK_CNT + p]
        ref[blk + RB_DECK_N] = n
        h = s[DECK_HEAD + p]
        for i in range(n):
            card = s[DECK + p * DECK_CAP + (h + i) % DECK_CAP]
            ref[blk + RB_DECK + i] = _entry(s, T, c, card, bits, True)
        ref[blk + RB_VALID] = 1
    ref[0] = 1


@njit(cache=True, _nrt=False)
def compare_ref(s, ref, p, c, bits):
    """How the leaf ``s``'s bitboards ``bits`` of colour ``c`` (seat ``p``) differ from the
    reference's: (usable, same, gained, stock in both, legend stock in both, the targets
    opened for common beings lo, hi, for heroic beings lo, hi). Not usable: no reference
    for the seat, or not the plain search."""
    blk = 1 + p * REF_BLOCK
    z = np.int64(0)
    if ref.shape[0] == 0 or ref[0] == 0 or ref[blk + RB_VALID] == 0 or not plain_search(s, c):
        return False, False, False, False, False, z, z, z, z
    stock = ref[blk + RB_STOCK] == 1 and s[STOCK + c] > 0
    lstock = ref[blk + RB_LSTOCK] == 1 and s[LSTOCK + c] > 0
    r = blk + RB_BITS
    same = True
    for i in range(N_REF_WORDS):
        if _word(ref, r + 2 * i) != bits[i]:
            same = False
            break
    if same:
        return True, True, False, stock, lstock, z, z, z, z
    gained = (
        (bits[0] & ~_word(ref, r)) | (bits[1] & ~_word(ref, r + 2))
        | (bits[2] & ~_word(ref, r + 4)) | (bits[3] & ~_word(ref, r + 6))
        | (bits[4] & ~_word(ref, r + 8)) | (bits[5] & ~_word(ref, r + 10))
    )  # fmt: skip
    if gained != 0:
        return True, False, True, stock, lstock, z, z, z, z
    # opened targets: an upgraded piece gone (an empty-target pattern may enter), an own
    # piece no longer above the being's rank (an own-target pattern may take it)
    cl = (_word(ref, r + 12) & ~bits[6]) | (_word(ref, r + 4) & ~bits[2])
    ch = (_word(ref, r + 14) & ~bits[7]) | (_word(ref, r + 6) & ~bits[3])
    hl = (_word(ref, r + 16) & ~bits[8]) | (_word(ref, r + 8) & ~bits[4])
    hh = (_word(ref, r + 18) & ~bits[9]) | (_word(ref, r + 10) & ~bits[5])
    return True, False, False, stock, lstock, cl, ch, hl, hh


@njit(cache=True, _nrt=False)
def ref_summonable(s, T, ref, p, c, i, deck, card, bits, cmp):
    """``slot_summonable(s, T, c, card, bits)`` for seat ``p``'s hand slot ``i`` (deck card
    ``i`` with ``deck``), from the reference where it answers (``cmp``: ``compare_ref``'s
    result; ``bits``: the leaf's ``hand_bits`` of ``c``)."""
    usable, same, gained, stock, lstock, cl, ch, hl, hh = cmp
    if not usable:
        return slot_summonable(s, T, c, card, bits)
    blk = 1 + p * REF_BLOCK
    if i >= ref[blk + (RB_DECK_N if deck else RB_HAND_N)]:
        return slot_summonable(s, T, c, card, bits)
    packed = ref[blk + (RB_DECK if deck else RB_HAND) + i]
    rank = T.card_rank[card]
    if (
        (packed >> CARD_SHIFT) != card  # a detached pattern's card is not recorded
        or not (lstock if rank == LEGENDARY else stock)
    ):
        return slot_summonable(s, T, c, card, bits)
    wit = (packed & ((1 << CARD_SHIFT) - 1)) - 2
    if wit == NOT_RECORDED:
        return slot_summonable(s, T, c, card, bits)
    if same:
        return wit >= 0
    if wit >= 0:
        if pattern_fits(s, T, c, wit // WITNESS, wit % WITNESS, rank, 0):
            return True
        return summon_witness(s, T, c, card, bits) >= 0
    if gained:
        return summon_witness(s, T, c, card, bits) >= 0
    if rank == COMMON:
        return (cl | ch) != 0 and fits_through(T, card, bits, cl, ch)
    if rank == HEROIC:
        return (hl | hh) != 0 and fits_through(T, card, bits, hl, hh)
    return False
