"""Ops on cards rather than pieces: take a frozen effect from the discard pile, discard a
flare from the hand. Both are targeted (the target is a pile position or a hand slot), so
``optional`` gives the player the yes/no."""

from core.constants import CK_FLARE, EV_CARD_TO_FROZEN, EV_DISCARD_FLARE
from core.effects.emit import emit_target
from core.jit import njit
from core.layout import CUR, DISC, DISC_CAP, DISC_N, FROZEN, HAND_N
from core.rules.events import log_event
from core.rules.piles import discard_card, discard_own, discard_take, hand_card, hand_remove


@njit(cache=True, _nrt=False)
def card_to_frozen_targets(s, T, opts, n, alt):
    """Positions in the current seat's discard pile of cards that carry a frozen program."""
    seat = s[CUR]
    for k in range(s[DISC_N + seat]):
        if T.card_has_frozen[s[DISC + seat * DISC_CAP + k]] == 1:
            n = emit_target(opts, n, k, -1, alt)
    return n


@njit(cache=True, _nrt=False)
def card_to_frozen(s, ev, k):
    """Card ``k`` of the discard pile becomes the stored frozen effect; a card stored
    before goes to the discard pile (one frozen effect at a time)."""
    seat = s[CUR]
    card = discard_take(s, seat, k)
    old = s[FROZEN + seat]
    if old >= 0:
        discard_own(s, seat, old)
    s[FROZEN + seat] = card
    log_event(s, ev, EV_CARD_TO_FROZEN, seat, card, old, 0)


@njit(cache=True, _nrt=False)
def discard_flare_targets(s, T, opts, n, alt):
    seat = s[CUR]
    for slot in range(s[HAND_N + seat]):
        if T.card_kind[hand_card(s, seat, slot)] == CK_FLARE:
            n = emit_target(opts, n, slot, -1, alt)
    return n


@njit(cache=True, _nrt=False)
def discard_flare(s, T, ev, slot):
    seat = s[CUR]
    card = hand_remove(s, seat, slot)
    discard_card(s, T, seat, card)
    log_event(s, ev, EV_DISCARD_FLARE, seat, card, 0, 0)
