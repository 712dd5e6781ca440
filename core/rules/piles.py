"""Card piles: own being decks, hands, discard piles, the shared legend and flare decks.

Decks are circular buffers (head = top card) because cards also go to the bottom (discard
action) and, later, on top (Kiskin Spirit). Discard piles are stacks (top = last).
"""

from core.constants import CK_BEING, CK_FLARE, CK_LEGEND, EV_DRAW
from core.jit import njit
from core.layout import (
    DECK,
    DECK_CAP,
    DECK_CNT,
    DECK_HEAD,
    DISC,
    DISC_CAP,
    DISC_N,
    FDECK,
    FDECK_CNT,
    FDECK_HEAD,
    FDISC,
    FDISC_N,
    HAND,
    HAND_CAP,
    HAND_N,
    LDECK,
    LDECK_CNT,
    LDECK_HEAD,
    LDISC,
    LDISC_N,
    SHARED_CAP,
)
from core.rules.events import log_event
from core.rules.rng import rand_below

# --- circular queues ------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def q_pop_top(s, base, cap, head_f, cnt_f):
    """Remove and return the top card, or -1 if the pile is empty."""
    if s[cnt_f] == 0:
        return -1
    card = s[base + s[head_f]]
    s[head_f] = (s[head_f] + 1) % cap
    s[cnt_f] -= 1
    return card


@njit(cache=True, _nrt=False)
def q_push_bottom(s, base, cap, head_f, cnt_f, card):
    s[base + (s[head_f] + s[cnt_f]) % cap] = card
    s[cnt_f] += 1


@njit(cache=True, _nrt=False)
def q_push_top(s, base, cap, head_f, cnt_f, card):
    s[head_f] = (s[head_f] + cap - 1) % cap
    s[base + s[head_f]] = card
    s[cnt_f] += 1


@njit(cache=True, _nrt=False)
def q_shuffle(s, base, cap, head_f, cnt_f):
    """Fisher-Yates over the queue's cards, in place (head kept)."""
    n = s[cnt_f]
    h = s[head_f]
    for i in range(n - 1, 0, -1):
        j = rand_below(s, i + 1)
        a = base + (h + i) % cap
        b = base + (h + j) % cap
        t = s[a]
        s[a] = s[b]
        s[b] = t


# --- per-seat piles -----------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def deck_base(seat):
    return DECK + seat * DECK_CAP


@njit(cache=True, _nrt=False)
def hand_card(s, seat, slot):
    return s[HAND + seat * HAND_CAP + slot]


@njit(cache=True, _nrt=False)
def hand_add(s, seat, card):
    n = s[HAND_N + seat]
    s[HAND + seat * HAND_CAP + n] = card
    s[HAND_N + seat] = n + 1


@njit(cache=True, _nrt=False)
def discard_take(s, seat, k):
    """Take card number ``k`` out of the seat's own discard pile, keeping the order of the
    others (the pile's top is its last card); returns the card."""
    base = DISC + seat * DISC_CAP
    n = s[DISC_N + seat]
    card = s[base + k]
    for j in range(k, n - 1):
        s[base + j] = s[base + j + 1]
    s[DISC_N + seat] = n - 1
    return card


@njit(cache=True, _nrt=False)
def hand_remove(s, seat, slot):
    """Take a card out of the hand, keeping the order of the others; returns the card."""
    base = HAND + seat * HAND_CAP
    n = s[HAND_N + seat]
    card = s[base + slot]
    for i in range(slot, n - 1):
        s[base + i] = s[base + i + 1]
    s[base + n - 1] = -1
    s[HAND_N + seat] = n - 1
    return card


@njit(cache=True, _nrt=False)
def discard_own(s, seat, card):
    s[DISC + seat * DISC_CAP + s[DISC_N + seat]] = card
    s[DISC_N + seat] += 1


@njit(cache=True, _nrt=False)
def discard_card(s, T, seat, card):
    """Put a used or discarded card on the discard pile it belongs to."""
    kind = T.card_kind[card]
    if kind == CK_BEING:
        discard_own(s, seat, card)
    elif kind == CK_LEGEND:
        s[LDISC + s[LDISC_N]] = card
        s[LDISC_N] += 1
    else:
        s[FDISC + s[FDISC_N]] = card
        s[FDISC_N] += 1


@njit(cache=True, _nrt=False)
def return_to_bottom(s, T, seat, card):
    """Discard action: a hand card goes under the deck it came from."""
    kind = T.card_kind[card]
    if kind == CK_BEING:
        q_push_bottom(s, deck_base(seat), DECK_CAP, DECK_HEAD + seat, DECK_CNT + seat, card)
    elif kind == CK_LEGEND:
        q_push_bottom(s, LDECK, SHARED_CAP, LDECK_HEAD, LDECK_CNT, card)
    else:
        q_push_bottom(s, FDECK, SHARED_CAP, FDECK_HEAD, FDECK_CNT, card)


@njit(cache=True, _nrt=False)
def _reshuffle_shared(s, base, head_f, cnt_f, disc, disc_n):
    """A shared deck ran out: its discard pile becomes the new deck, shuffled."""
    s[head_f] = 0
    for i in range(s[disc_n]):
        s[base + i] = s[disc + i]
    s[cnt_f] = s[disc_n]
    s[disc_n] = 0
    q_shuffle(s, base, SHARED_CAP, head_f, cnt_f)


@njit(cache=True, _nrt=False)
def draw_being(s, ev, seat):
    """Own deck is never reshuffled; returns False when it is empty."""
    card = q_pop_top(s, deck_base(seat), DECK_CAP, DECK_HEAD + seat, DECK_CNT + seat)
    if card < 0:
        return False
    hand_add(s, seat, card)
    log_event(s, ev, EV_DRAW, seat, card, 0, 0)
    return True


@njit(cache=True, _nrt=False)
def _draw_shared(s, ev, seat, base, head_f, cnt_f, disc, disc_n):
    """Draw from a shared deck. A draw that empties it shuffles its discard pile in at once
    (BGA; the rules summary only says "when they run out"); a deck still empty at the next
    draw (its pile was empty then) is refilled from the pile first."""
    if s[cnt_f] == 0:
        _reshuffle_shared(s, base, head_f, cnt_f, disc, disc_n)
    card = q_pop_top(s, base, SHARED_CAP, head_f, cnt_f)
    if card < 0:
        return False
    hand_add(s, seat, card)
    log_event(s, ev, EV_DRAW, seat, card, 0, 0)
    if s[cnt_f] == 0:
        _reshuffle_shared(s, base, head_f, cnt_f, disc, disc_n)
    return True


@njit(cache=True, _nrt=False)
def draw_legend(s, ev, seat):
    return _draw_shared(s, ev, seat, LDECK, LDECK_HEAD, LDECK_CNT, LDISC, LDISC_N)


@njit(cache=True, _nrt=False)
def draw_flare(s, ev, seat):
    return _draw_shared(s, ev, seat, FDECK, FDECK_HEAD, FDECK_CNT, FDISC, FDISC_N)


@njit(cache=True, _nrt=False)
def count_in_hand(s, T, seat, kind):
    n = 0
    for i in range(s[HAND_N + seat]):
        if T.card_kind[s[HAND + seat * HAND_CAP + i]] == kind:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def refill_legends(s, T, ev, seat, legends, extra_legends):
    """Legend cards back to ``legends``, then ``extra_legends`` more."""
    while count_in_hand(s, T, seat, CK_LEGEND) < legends:
        if not draw_legend(s, ev, seat):
            break
    for _ in range(extra_legends):
        draw_legend(s, ev, seat)


@njit(cache=True, _nrt=False)
def refill_hand(s, T, ev, seat, legends, extra_beings, extra_legends):
    """End of own turn: flare back to 1, legends to ``legends`` (2; 0 under the new-player
    rules and in team play, where the teammate draws them), beings to 3 (+ extra draws)."""
    while count_in_hand(s, T, seat, CK_FLARE) < 1:
        if not draw_flare(s, ev, seat):
            break
    refill_legends(s, T, ev, seat, legends, 0)
    while count_in_hand(s, T, seat, CK_BEING) < 3:
        if not draw_being(s, ev, seat):
            break
    refill_legends(s, T, ev, seat, 0, extra_legends)
    for _ in range(extra_beings):
        draw_being(s, ev, seat)
