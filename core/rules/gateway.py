"""The Nethervoid Gateway: at most one per seat, a marked non-legendary piece of the seat's
colour (GATEWAY[seat] is its square, -1 for none).

The mark follows its piece. Every primitive that changes a square calls in here: a move
carries the mark along (``follow_gateway``); a piece leaving the board (destroyed, converted,
picked up) or becoming legendary loses it (``drop_gateway``). A being of a deck flagged
``gateway`` becomes the Gateway when summoned if the seat has none, or if the Gateway is
common and the being heroic (reference fact 60; BGA playCard decides after the oversummon).
"""

from core.constants import COMMON, EV_GATEWAY, EV_GATEWAY_LOST, HEROIC
from core.jit import njit
from core.layout import BOARD, CUR, GATEWAY, MAX_PLAYERS
from core.rules.events import log_event


@njit(cache=True, _nrt=False)
def drop_gateway(s, ev, sq):
    """The piece on ``sq`` leaves the board or becomes legendary: any Gateway mark is lost."""
    for p in range(MAX_PLAYERS):
        if s[GATEWAY + p] == sq:
            s[GATEWAY + p] = -1
            log_event(s, ev, EV_GATEWAY_LOST, p, sq, 0, 0)


@njit(cache=True, inline="always", _nrt=False)
def follow_gateway(s, a, b):
    """The piece on ``a`` moved to ``b``: its Gateway mark goes with it."""
    for p in range(MAX_PLAYERS):
        if s[GATEWAY + p] == a:
            s[GATEWAY + p] = b


@njit(cache=True, _nrt=False)
def set_gateway(s, ev, seat, sq):
    """The piece on ``sq`` becomes the seat's Gateway (the old mark, if any, is lifted)."""
    s[GATEWAY + seat] = sq
    log_event(s, ev, EV_GATEWAY, seat, sq, s[BOARD + sq], 0)


@njit(cache=True, _nrt=False)
def gateway_on_summon(s, T, ev, card, sq):
    """A being just entered ``sq``: if its deck has the Gateway, it may take the mark."""
    d = T.card_deck[card]
    if d < 0 or T.deck_gateway[d] == 0:
        return
    seat = s[CUR]
    g = s[GATEWAY + seat]
    if g < 0 or ((s[BOARD + g] & 3) == COMMON and T.card_rank[card] == HEROIC):
        set_gateway(s, ev, seat, sq)
