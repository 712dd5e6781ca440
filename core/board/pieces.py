"""Pieces on the board and in stock: every change of a square goes through here.

Keeping stock bookkeeping in these few functions is what lets the invariant checker demand
"board + stock = total" after every action. ``seat`` arguments here are piece colours (a
team's shared colour in team play); the log names the seat whose turn it is.
"""

from core.constants import (
    COMMON,
    EV_CONVERT,
    EV_DESTROY,
    EV_DOWNGRADE,
    EV_PICKUP,
    EV_REMOVED,
    EV_UPGRADE,
    HEROIC,
    LEGENDARY,
)
from core.jit import njit
from core.layout import (
    BOARD,
    CONTROL,
    CUR,
    DESTROYED,
    EXTRA_COUNT,
    LEG_TOTAL,
    LSTOCK,
    POOL_TOTAL,
    STOCK,
)
from core.rules.events import log_event
from core.rules.gateway import drop_gateway


@njit(cache=True, _nrt=False)
def owner_of(code):
    return code >> 2


@njit(cache=True, _nrt=False)
def rank_of(code):
    return code & 3


@njit(cache=True, _nrt=False)
def piece_code(owner, rank):
    return owner * 4 + rank


@njit(cache=True, _nrt=False)
def has_stock(s, seat, rank):
    """A piece of this rank can come from the seat's stock (legendary pieces are separate)."""
    if rank == LEGENDARY:
        return s[LSTOCK + seat] > 0
    return s[STOCK + seat] > 0


@njit(cache=True, _nrt=False)
def lift(s, sq):
    """Take the piece off ``sq`` back into its owner's stock; returns its code."""
    code = s[BOARD + sq]
    if code != 0:
        if (code & 3) == LEGENDARY:
            s[LSTOCK + (code >> 2)] += 1
        else:
            s[STOCK + (code >> 2)] += 1
        s[BOARD + sq] = 0
    return code


@njit(cache=True, _nrt=False)
def put(s, sq, seat, rank):
    """Put a piece from the seat's stock on an empty square (caller checked the stock)."""
    if rank == LEGENDARY:
        s[LSTOCK + seat] -= 1
    else:
        s[STOCK + seat] -= 1
    s[BOARD + sq] = seat * 4 + rank


@njit(cache=True, _nrt=False)
def destroy(s, ev, sq, by_seat, counts):
    """Destroy the piece on ``sq``; an enemy piece adds to the mover's turn counters.

    ``counts`` is how many destroyed pieces an enemy victim counts for: 1, 0 for effects
    whose destructions the rules exclude from the tally, 2 for "count it as two"; a
    counted victim counts EXTRA_COUNT more (Gate of Oblivion's warp, this turn).
    Returns the destroyed piece's code (0 if the square was empty).
    """
    code = lift(s, sq)
    if code == 0:
        return 0
    counted = 0
    if counts > 0 and (code >> 2) != by_seat:
        counted = counts + s[EXTRA_COUNT]
        s[DESTROYED + (code >> 2) * 4 + (code & 3)] += counted
    log_event(s, ev, EV_DESTROY, s[CUR], sq, code, counted)
    drop_gateway(s, ev, sq)
    return code


@njit(cache=True, _nrt=False)
def remove_from_game(s, ev, sq, code):
    """The piece ``code`` just destroyed on ``sq`` leaves the game: it went back to its
    owner's stock, so it is taken out of the stock and out of the owner's total."""
    who = code >> 2
    if (code & 3) == LEGENDARY:
        s[LSTOCK + who] -= 1
        s[LEG_TOTAL + who] -= 1
    else:
        s[STOCK + who] -= 1
        s[POOL_TOTAL + who] -= 1
    log_event(s, ev, EV_REMOVED, s[CUR], sq, code, 0)


@njit(cache=True, _nrt=False)
def pick_up(s, ev, sq, seat):
    """Out-of-stock step: a seat takes one of its own pieces back (never counted). Logged
    under the seat in control (the teammate placing after a team pass)."""
    code = lift(s, sq)
    log_event(s, ev, EV_PICKUP, s[CONTROL], sq, code, 0)
    drop_gateway(s, ev, sq)


@njit(cache=True, _nrt=False)
def can_upgrade(s, sq):
    code = s[BOARD + sq]
    r = code & 3
    if code == 0 or r == LEGENDARY:
        return False
    if r == HEROIC:
        return s[LSTOCK + (code >> 2)] > 0
    return True


@njit(cache=True, _nrt=False)
def upgrade(s, ev, sq, by_seat):
    code = s[BOARD + sq]
    who = code >> 2
    if (code & 3) == COMMON:
        s[BOARD + sq] = who * 4 + HEROIC
    else:  # heroic -> legendary: the double-sided piece goes back, a legendary one comes out
        s[STOCK + who] += 1
        s[LSTOCK + who] -= 1
        s[BOARD + sq] = who * 4 + LEGENDARY
    log_event(s, ev, EV_UPGRADE, s[CUR], sq, s[BOARD + sq], 0)
    if (s[BOARD + sq] & 3) == LEGENDARY:
        drop_gateway(s, ev, sq)  # a legendary piece is never the Gateway


@njit(cache=True, _nrt=False)
def can_downgrade(s, sq):
    code = s[BOARD + sq]
    r = code & 3
    if code == 0 or r == COMMON:
        return False
    if r == LEGENDARY:
        return s[STOCK + (code >> 2)] > 0
    return True


@njit(cache=True, _nrt=False)
def downgrade(s, ev, sq, by_seat):
    code = s[BOARD + sq]
    who = code >> 2
    if (code & 3) == HEROIC:
        s[BOARD + sq] = who * 4 + COMMON
    else:
        s[LSTOCK + who] += 1
        s[STOCK + who] -= 1
        s[BOARD + sq] = who * 4 + HEROIC
    log_event(s, ev, EV_DOWNGRADE, s[CUR], sq, s[BOARD + sq], 0)


@njit(cache=True, _nrt=False)
def convert(s, ev, sq, seat, rank):
    """Replace an enemy piece by the seat's piece of ``rank``. The enemy piece counts as a
    destroyed one (reference fact 41) through the destroyed-piece tally, so Gate of
    Oblivion's warp adds EXTRA_COUNT to it as to a destruction (BGA convertPiece and
    updateDestroyed; the warp's text only says "when you destroy a piece")."""
    code = lift(s, sq)
    s[DESTROYED + (code >> 2) * 4 + (code & 3)] += 1 + s[EXTRA_COUNT]
    put(s, sq, seat, rank)
    log_event(s, ev, EV_CONVERT, s[CUR], sq, code, s[BOARD + sq])
    drop_gateway(s, ev, sq)
