"""Etherweave ops around the pending being and the hand (discard or return the pending
being, discard a hand card), the swap of two pieces, Gate of Oblivion's extra count and the
warp-unplayed condition (Eternal Emperor).

The pending-being ops are targeted (one target: the card), so ``optional`` is the yes/no
and ``return-pending`` may stand in a choose block. They never touch a card flagged
``no-copy`` (Merchant of Time: while pending it can be neither discarded nor returned).
"""

from core.constants import (
    EV_DISCARD_PENDING,
    EV_EFFECT_DISCARD,
    EV_EXTRA_COUNT,
    EV_RETURN_PENDING,
    EV_SWAP,
)
from core.effects.emit import emit_target
from core.jit import njit
from core.layout import (
    BOARD,
    CUR,
    EFF_BEING_MOVED,
    EFF_BEING_SQ,
    EFF_CARD,
    EXTRA_COUNT,
    GATEWAY,
    HAND_N,
    MAX_PLAYERS,
    PENDING,
    WARPED_MASK,
)
from core.ops import F_WITH_SAME_RANK, I_FLAGS, I_PARAM, I_PARAM2, W_ENEMY, W_SELF
from core.rules.events import log_event
from core.rules.piles import discard_card, hand_card, hand_remove


@njit(cache=True, _nrt=False)
def pending_targets(s, T, opts, n, alt):
    """The pending being, unless there is none or it may not be touched (no-copy)."""
    card = s[PENDING + s[CUR]]
    if card >= 0 and T.card_no_copy[card] == 0:
        n = emit_target(opts, n, card, -1, alt)
    return n


@njit(cache=True, _nrt=False)
def _slot_of(s, seat, card):
    for slot in range(s[HAND_N + seat]):
        if hand_card(s, seat, slot) == card:
            return slot
    return -1


@njit(cache=True, _nrt=False)
def discard_pending(s, T, ev):
    """The pending being goes to the discard pile; the seat has no pending being any more."""
    seat = s[CUR]
    card = s[PENDING + seat]
    hand_remove(s, seat, _slot_of(s, seat, card))
    discard_card(s, T, seat, card)
    s[PENDING + seat] = -1
    log_event(s, ev, EV_DISCARD_PENDING, seat, card, 0, 0)


@njit(cache=True, _nrt=False)
def return_pending(s, ev):
    """The pending being stays in hand as an ordinary card (Warpmaster)."""
    seat = s[CUR]
    card = s[PENDING + seat]
    s[PENDING + seat] = -1
    log_event(s, ev, EV_RETURN_PENDING, seat, card, 0, 0)


@njit(cache=True, _nrt=False)
def hand_card_targets(s, opts, n, alt):
    """Hand slots of every card but the pending being (Reality Patch)."""
    seat = s[CUR]
    for slot in range(s[HAND_N + seat]):
        if hand_card(s, seat, slot) != s[PENDING + seat]:
            n = emit_target(opts, n, slot, -1, alt)
    return n


@njit(cache=True, _nrt=False)
def discard_hand_card(s, T, ev, slot):
    seat = s[CUR]
    card = hand_remove(s, seat, slot)
    discard_card(s, T, seat, card)
    log_event(s, ev, EV_EFFECT_DISCARD, seat, card, 0, 0)


@njit(cache=True, _nrt=False)
def swap_partner_ok(s, T, i, a, b, seat):
    """The partner on ``b`` of the piece on ``a``: owner I_PARAM (W_SELF, W_ENEMY or any),
    rank mask I_PARAM2, and with-same-rank (F_WITH_SAME_RANK)."""
    if b == a:
        return False
    code = s[BOARD + b]
    if code == 0:
        return False
    who = T.ops[i, I_PARAM]
    owner = code >> 2
    if who == W_SELF and owner != seat:
        return False
    if who == W_ENEMY and owner == seat:
        return False
    if ((1 << (code & 3)) & T.ops[i, I_PARAM2]) == 0:
        return False
    if (T.ops[i, I_FLAGS] & F_WITH_SAME_RANK) and (code & 3) != (s[BOARD + a] & 3):
        return False
    return True


@njit(cache=True, _nrt=False)
def swap(s, ev, a, b):
    """The pieces on ``a`` and ``b`` exchange squares; nothing is destroyed. Gateway marks
    and the being follow their pieces."""
    pa = s[BOARD + a]
    pb = s[BOARD + b]
    s[BOARD + a] = pb
    s[BOARD + b] = pa
    for p in range(MAX_PLAYERS):
        if s[GATEWAY + p] == a:
            s[GATEWAY + p] = b
        elif s[GATEWAY + p] == b:
            s[GATEWAY + p] = a
    if s[EFF_BEING_SQ] == a:
        s[EFF_BEING_SQ] = b
        s[EFF_BEING_MOVED] = 1
    elif s[EFF_BEING_SQ] == b:
        s[EFF_BEING_SQ] = a
        s[EFF_BEING_MOVED] = 1
    log_event(s, ev, EV_SWAP, s[CUR], a, b, 0)


@njit(cache=True, _nrt=False)
def extra_count(s, ev):
    """Gate of Oblivion's warp: for the rest of the turn each piece you destroy counts one
    more (stacks)."""
    s[EXTRA_COUNT] += 1
    log_event(s, ev, EV_EXTRA_COUNT, s[CUR], s[EXTRA_COUNT], 0, 0)


@njit(cache=True, inline="always", _nrt=False)
def warp_unplayed(s, T):
    """The running card's warp was not played this turn (Eternal Emperor)."""
    card = s[EFF_CARD]
    return card < 0 or ((s[WARPED_MASK] >> T.card_deck_pos[card]) & 1) == 0
