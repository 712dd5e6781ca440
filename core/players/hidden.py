"""Sampling what a seat cannot see, for players that play on past the end of their turn.

``determinize`` rewrites a copy of the state so that everything hidden from ``seat`` is
drawn afresh from what it could be: the order of its own deck, the other seats' hidden
cards (their hand cards of each kind pooled with the deck of that kind, dealt back in the
same numbers), the order of the legend, flare and task decks. Discard piles, the board and
the task display are public and stay. Each pool is sorted before it is shuffled, so the
sample depends only on what the seat may know (which cards are hidden), never on where they
really lie.
"""

from core.constants import CK_BEING, CK_FLARE, CK_LEGEND
from core.jit import njit
from core.layout import (
    DECK,
    DECK_CAP,
    DECK_CNT,
    DECK_HEAD,
    FDECK,
    FDECK_CNT,
    FDECK_HEAD,
    HAND,
    HAND_CAP,
    HAND_N,
    LDECK,
    LDECK_CNT,
    LDECK_HEAD,
    N_PLAYERS,
    PENDING,
    SHARED_CAP,
    TASK_CAP,
    TDECK,
    TDECK_CNT,
    TDECK_HEAD,
)
from core.rules.piles import hand_card
from core.rules.rng import rand_below


@njit(cache=True, _nrt=False)
def _sort_shuffle(c, pool, m):
    """Sort ``pool[:m]`` (insertion sort: the pools are small), then Fisher-Yates with the
    copy's generator."""
    for i in range(1, m):
        x = pool[i]
        j = i - 1
        while j >= 0 and pool[j] > x:
            pool[j + 1] = pool[j]
            j -= 1
        pool[j + 1] = x
    for i in range(m - 1, 0, -1):
        j = rand_below(c, i + 1)
        x = pool[i]
        pool[i] = pool[j]
        pool[j] = x


@njit(cache=True, inline="always", _nrt=False)
def _hidden(c, T, p, card, kind):
    """A hand card of ``kind`` that others cannot see: not a pending being (Etherweave: its
    warp was played openly, so everybody knows that card)."""
    return T.card_kind[card] == kind and card != c[PENDING + p]


@njit(cache=True, _nrt=False)
def _resample(c, T, seat, kind, base, cap, head_f, cnt_f, pool):
    """Pool the other seats' hand cards of ``kind`` with the deck (base, cap, head, count),
    shuffle, deal the hands back first and the rest to the deck."""
    m = 0
    for p in range(c[N_PLAYERS]):
        if p == seat or (kind == CK_BEING and p != head_owner(base)):
            continue
        for k in range(c[HAND_N + p]):
            if _hidden(c, T, p, hand_card(c, p, k), kind):
                pool[m] = hand_card(c, p, k)
                m += 1
    h = c[head_f]
    for i in range(c[cnt_f]):
        pool[m] = c[base + (h + i) % cap]
        m += 1
    _sort_shuffle(c, pool, m)
    j = 0
    for p in range(c[N_PLAYERS]):
        if p == seat or (kind == CK_BEING and p != head_owner(base)):
            continue
        for k in range(c[HAND_N + p]):
            if _hidden(c, T, p, hand_card(c, p, k), kind):
                c[HAND + p * HAND_CAP + k] = pool[j]
                j += 1
    for i in range(c[cnt_f]):
        c[base + (h + i) % cap] = pool[j]
        j += 1


@njit(cache=True, _nrt=False)
def head_owner(base):
    """The seat whose being deck starts at ``base`` (-1 for the shared decks)."""
    if base < DECK or base >= DECK + 4 * DECK_CAP:
        return -1
    return (base - DECK) // DECK_CAP


@njit(cache=True, _nrt=False)
def determinize(c, T, seat, pool):
    """Resample everything hidden from ``seat`` in the copy ``c`` (``pool``: scratch)."""
    for p in range(c[N_PLAYERS]):
        base = DECK + p * DECK_CAP
        if p == seat:  # own hand known, own deck order not
            _resample(c, T, -1, -2, base, DECK_CAP, DECK_HEAD + p, DECK_CNT + p, pool)
        else:
            _resample(c, T, seat, CK_BEING, base, DECK_CAP, DECK_HEAD + p, DECK_CNT + p, pool)
    _resample(c, T, seat, CK_LEGEND, LDECK, SHARED_CAP, LDECK_HEAD, LDECK_CNT, pool)
    _resample(c, T, seat, CK_FLARE, FDECK, SHARED_CAP, FDECK_HEAD, FDECK_CNT, pool)
    _resample(c, T, -1, -2, TDECK, TASK_CAP, TDECK_HEAD, TDECK_CNT, pool)
