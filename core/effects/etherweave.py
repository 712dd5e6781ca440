"""Etherweave ops and selectors that need no warp machinery: choosing an empty square
(Singularity), the colourless region, the distance-2 destination and the "at most two of one
colour" owner rule (Dark Sphere), and discarding every legend card in hand (Iris of Eternity).
"""

from core.constants import (
    CK_LEGEND,
    EV_DISCARD_LEGEND,
    EV_SELECT_SQUARE,
    LEGENDARY,
    SQ_GREEN,
    SQ_RED,
)
from core.jit import njit
from core.layout import (
    BOARD,
    CUR,
    DISC,
    DISC_CAP,
    DISC_N,
    EFF_SEL_OWNER,
    EFF_SEL_OWNER_PREV,
    EFF_SEL_RANK,
    EFF_SEL_SQ,
    EFF_SEL_WAS_RED,
    HAND_N,
    SEAT_DECK,
)
from core.ops import R_NEXT_TO_ENEMY, R_NEXT_TO_OWN_2, R_NEXT_TO_OWN_NEAR_SEL
from core.rules.events import log_event
from core.rules.piles import discard_card, hand_card, hand_remove


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


@njit(cache=True, _nrt=False)
def _own_next_to(s, T, q, seat):
    k = 0
    for d in range(8):
        p = T.nbr[q, d]
        if p >= 0 and s[BOARD + p] != 0 and (s[BOARD + p] >> 2) == seat:
            k += 1
    return k


@njit(cache=True, _nrt=False)
def region_ether(s, T, inc, q, seat):
    """The Etherweave regions: next to two of your pieces (Greater Shadow Twin), next to a
    piece of yours that touches the selected square (Lesser Shadow Twin's second victim),
    next to an enemy piece (Polarity Queen's warp)."""
    if (inc & R_NEXT_TO_OWN_2) and _own_next_to(s, T, q, seat) >= 2:
        return True
    sel = s[EFF_SEL_SQ]
    if (inc & R_NEXT_TO_OWN_NEAR_SEL) and sel >= 0:
        for d in range(8):
            p = T.nbr[q, d]
            if p >= 0 and s[BOARD + p] != 0 and (s[BOARD + p] >> 2) == seat:
                if T.dist[p, sel] == 1:
                    return True
    if inc & R_NEXT_TO_ENEMY:
        for d in range(8):
            p = T.nbr[q, d]
            if p >= 0 and s[BOARD + p] != 0 and (s[BOARD + p] >> 2) != seat:
                return True
    return False


@njit(cache=True, _nrt=False)
def in_discard(s, T, pos):
    """A card of the current seat's deck at deck position ``pos`` is in its discard pile."""
    seat = s[CUR]
    deck = s[SEAT_DECK + seat]
    for k in range(s[DISC_N + seat]):
        card = s[DISC + seat * DISC_CAP + k]
        if T.card_deck[card] == deck and T.card_deck_pos[card] == pos:
            return True
    return False


@njit(cache=True, _nrt=False)
def linked_partner(s, T, q, d, dd, seat, being):
    """Polarity Queen (linked): after the step q -> d in direction ``dd``, another
    non-legendary piece of yours (not the being, not the piece that stepped) can take a
    combat step in the opposite direction. Judged on the board after the first step (the
    board is restored before returning)."""
    mover = s[BOARD + q]
    victim = s[BOARD + d]
    s[BOARD + d] = mover
    s[BOARD + q] = 0
    back = (dd + 4) % 8
    found = False
    for k in range(T.onboard.shape[0]):
        p = T.onboard[k]
        code = s[BOARD + p]
        if code == 0 or (code >> 2) != seat or (code & 3) == LEGENDARY or p == being or p == d:
            continue
        t = T.nbr[p, back]
        if t >= 0 and (s[BOARD + t] == 0 or (s[BOARD + t] & 3) <= (code & 3)):
            found = True
            break
    s[BOARD + q] = mover
    s[BOARD + d] = victim
    return found
