"""Stasis (Etherweave, Merchant of Time): a piece held off the board on a card.

``capture`` (only in the warp program of a ``no-copy`` card, checked at load) takes a piece
off the board and holds it on the running card: STASIS[seat] is its code, STASIS_CARD[seat]
the card. The piece is out of its owner's stock and off the board (so a legendary piece no
longer scores in High Form); capturing destroys nothing and counts for nothing. The card stays
in hand as the pending being, which nothing can discard or return (no-copy), so the piece stays
held until that card is summoned; at the end of the game it is still held (the pending being
costs its 2 points, the piece scores nothing).

``release`` (only in the effect of the card whose warp captures) brings the piece back when
that card's effect runs: a compulsory standard leap judged with the held piece's rank (onto an
empty square or a lower-ranked piece, which is destroyed and counted for the player) onto a
square of the op's region. If no square can take it, the piece goes back to its owner's stock
(our decision: the card leaves the hand, and nothing else can hold the piece).

A Gateway on the captured piece goes into stasis with it (BGA capturePiece): GATEWAY[p] becomes
-2 - holder seat, which every Gateway test reads as "no Gateway", and the mark comes back with
the piece on release unless the seat has designated another Gateway meanwhile. If the piece
goes back to the stock instead, the mark is lost.
"""

from core.constants import EV_CAPTURE, EV_GATEWAY_LOST, EV_RELEASE, EV_STASIS_BACK, LEGENDARY
from core.effects.primitives import kill
from core.jit import njit
from core.layout import (
    BOARD,
    CUR,
    EFF_CARD,
    GATEWAY,
    LSTOCK,
    MAX_PLAYERS,
    STASIS,
    STASIS_CARD,
    STOCK,
)
from core.rules.events import log_event


@njit(cache=True, inline="always", _nrt=False)
def can_capture(s):
    """The seat holds no piece yet (one piece per seat: the holding card is pending)."""
    return s[STASIS + s[CUR]] == 0


@njit(cache=True, _nrt=False)
def capture(s, ev, q):
    """The piece on ``q`` leaves the board and is held on the running card."""
    seat = s[CUR]
    code = s[BOARD + q]
    s[BOARD + q] = 0
    s[STASIS + seat] = code
    s[STASIS_CARD + seat] = s[EFF_CARD]
    for p in range(MAX_PLAYERS):
        if s[GATEWAY + p] == q:
            s[GATEWAY + p] = -2 - seat
    log_event(s, ev, EV_CAPTURE, seat, q, code, 0)


@njit(cache=True, inline="always", _nrt=False)
def held_here(s):
    """The running card holds the seat's piece in stasis."""
    seat = s[CUR]
    return s[STASIS + seat] != 0 and s[STASIS_CARD + seat] == s[EFF_CARD]


@njit(cache=True, inline="always", _nrt=False)
def release_square_ok(s, q):
    """A standard leap of the held piece may end on ``q`` (region checked by the caller)."""
    code = s[BOARD + q]
    return code == 0 or (code & 3) < (s[STASIS + s[CUR]] & 3)


@njit(cache=True, _nrt=False)
def _clear(s, seat):
    s[STASIS + seat] = 0
    s[STASIS_CARD + seat] = -1


@njit(cache=True, _nrt=False)
def release(s, ev, q, colour):
    """The held piece comes back onto ``q``; a piece there is destroyed (counted for the
    player, colour ``colour``); a Gateway mark held with it comes back."""
    seat = s[CUR]
    code = s[STASIS + seat]
    if s[BOARD + q] != 0:
        kill(s, ev, q, colour, 1)
    s[BOARD + q] = code
    _clear(s, seat)
    for p in range(MAX_PLAYERS):
        if s[GATEWAY + p] == -2 - seat:
            s[GATEWAY + p] = q
    log_event(s, ev, EV_RELEASE, seat, q, code, 0)


@njit(cache=True, _nrt=False)
def release_to_stock(s, ev):
    """No square can take the held piece: it goes back to its owner's stock."""
    seat = s[CUR]
    code = s[STASIS + seat]
    if (code & 3) == LEGENDARY:
        s[LSTOCK + (code >> 2)] += 1
    else:
        s[STOCK + (code >> 2)] += 1
    _clear(s, seat)
    for p in range(MAX_PLAYERS):
        if s[GATEWAY + p] == -2 - seat:
            s[GATEWAY + p] = -1
            log_event(s, ev, EV_GATEWAY_LOST, p, -1, 0, 0)
    log_event(s, ev, EV_STASIS_BACK, seat, code, 0, 0)
