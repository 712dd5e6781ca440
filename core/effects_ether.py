"""Etherweave ops and selectors that need no warp machinery: choosing an empty square
(Singularity), the colourless region, the distance-2 destination and the "at most two of one
colour" owner rule (Dark Sphere), and discarding every legend card in hand (Iris of Eternity).
"""

from core.jit import njit

from core.cards import discard_card, hand_card, hand_remove
from core.constants import CK_LEGEND, EV_DISCARD_LEGEND, EV_SELECT_SQUARE, SQ_GREEN, SQ_RED
from core.events import log_event
from core.layout import (
    CUR,
    EFF_SEL_OWNER,
    EFF_SEL_OWNER_PREV,
    EFF_SEL_RANK,
    EFF_SEL_SQ,
    EFF_SEL_WAS_RED,
    HAND_N,
)


@njit(cache=True, inline="always", _nrt=False)
def colourless(T, q):
    """Neither red nor green (the squares a Time Traveler, a Singularity or the Merchant use)."""
    c = T.sq_color[q]
    return c != SQ_RED and c != SQ_GREEN


@njit(cache=True, inline="always", _nrt=False)
def distance_2_ok(s, T, ref, d):
    """Dark Sphere: the step ends at king distance exactly 2 from the being."""
    return ref >= 0 and T.dist[ref, d] == 2


@njit(cache=True, inline="always", _nrt=False)
def not_third_of_colour(s, owner):
    """Dark Sphere: at most two pieces of one colour. The owner is refused only when the two
    pieces selected before (the last two selections of this program) were both its."""
    return not (owner == s[EFF_SEL_OWNER] and owner == s[EFF_SEL_OWNER_PREV])


@njit(cache=True, _nrt=False)
def select_square(s, T, ev, q):
    """The chosen empty square becomes the selected square (no piece: rank and owner 0/-1)."""
    s[EFF_SEL_SQ] = q
    s[EFF_SEL_RANK] = 0
    s[EFF_SEL_OWNER_PREV] = s[EFF_SEL_OWNER]
    s[EFF_SEL_OWNER] = -1
    s[EFF_SEL_WAS_RED] = 1 if T.sq_color[q] == SQ_RED else 0
    log_event(s, ev, EV_SELECT_SQUARE, s[CUR], q, 0, 0)


@njit(cache=True, _nrt=False)
def discard_legend_cards(s, T, ev):
    """Iris of Eternity: every legend card in the current seat's hand is discarded (team
    play: this seat's own hand only, before any legend hand-over)."""
    seat = s[CUR]
    slot = 0
    while slot < s[HAND_N + seat]:
        card = hand_card(s, seat, slot)
        if T.card_kind[card] == CK_LEGEND:
            hand_remove(s, seat, slot)
            discard_card(s, T, seat, card)
            log_event(s, ev, EV_DISCARD_LEGEND, seat, card, 0, 0)
        else:
            slot += 1
