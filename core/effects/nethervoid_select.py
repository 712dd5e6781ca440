"""Selectors and conditions about the Gateway and the other Nethervoid predicates.

Regions next to / on your Gateway, destinations that approach it, and the conditions of the
second predicate set (core.ops P2_*). Without a Gateway the regions and destinations are
empty and the Gateway conditions fail: effects that refer to it do nothing (fact 60).
core.effects.interpreter calls these only when an instruction uses one of these bits.
"""

from core.constants import HEROIC, SQ_GREEN, SQ_RED
from core.effects.etherweave_pending import warp_unplayed
from core.jit import njit
from core.layout import (
    ACTIONS_LEFT,
    BOARD,
    COLOUR,
    CUR,
    DECK_CNT,
    EFF_BEING_SQ,
    EFF_DESTROYED_TOTAL,
    EFF_SEL_RANK,
    GATEWAY,
)
from core.ops import (
    D_NOT_GATEWAY,
    D_TOWARDS_GATEWAY,
    P2_BEING_IS_GATEWAY,
    P2_BEING_NOT_GATEWAY,
    P2_DECK_NOT_EMPTY,
    P2_EFFECT_DESTROYED_2,
    P2_GATEWAY_ELSEWHERE,
    P2_GATEWAY_ON_GREEN,
    P2_GATEWAY_ON_RED,
    P2_LAST_ACTION,
    P2_OPPONENT_MORE_PIECES,
    P2_RANK_HEROIC,
    P2_WARP_UNPLAYED,
    R_GATEWAY,
    R_NEXT_TO_GATEWAY,
)
from core.rules.modes import n_colours


@njit(cache=True, inline="always", _nrt=False)
def my_gateway(s):
    return s[GATEWAY + s[CUR]]


@njit(cache=True, _nrt=False)
def region_gateway(s, T, inc, q):
    """Is ``q`` on your Gateway or next to it (as the region union ``inc`` asks)?"""
    g = my_gateway(s)
    if g < 0:
        return False
    if (inc & R_GATEWAY) and q == g:
        return True
    return (inc & R_NEXT_TO_GATEWAY) != 0 and T.dist[g, q] == 1


@njit(cache=True, _nrt=False)
def dest_gateway(s, T, dm, q, d):
    """A move from ``q`` to ``d`` meets the Gateway destination constraints of ``dm``."""
    g = my_gateway(s)
    if g < 0:
        return False
    if (dm & D_TOWARDS_GATEWAY) and T.dist[g, d] >= T.dist[g, q]:
        return False
    return not ((dm & D_NOT_GATEWAY) and d == g)


@njit(cache=True, _nrt=False)
def pieces_of(s, T, colour):
    n = 0
    for k in range(T.onboard.shape[0]):
        code = s[BOARD + T.onboard[k]]
        if code != 0 and (code >> 2) == colour:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def opponent_has_more(s, T, me):
    mine = pieces_of(s, T, me)
    for c in range(n_colours(s)):
        if c != me and pieces_of(s, T, c) > mine:
            return True
    return False


@njit(cache=True, _nrt=False)
def cond2_holds(s, T, c):
    """All predicates of the second set in mask ``c`` hold."""
    g = my_gateway(s)
    being = s[EFF_BEING_SQ]
    if (c & P2_GATEWAY_ELSEWHERE) and (g < 0 or g == being):
        return False
    if (c & P2_BEING_IS_GATEWAY) and (g < 0 or g != being):
        return False
    if (c & P2_BEING_NOT_GATEWAY) and g >= 0 and g == being:
        return False
    if (c & P2_GATEWAY_ON_RED) and (g < 0 or T.sq_color[g] != SQ_RED):
        return False
    if (c & P2_GATEWAY_ON_GREEN) and (g < 0 or T.sq_color[g] != SQ_GREEN):
        return False
    if (c & P2_EFFECT_DESTROYED_2) and s[EFF_DESTROYED_TOTAL] < 2:
        return False
    if (c & P2_LAST_ACTION) and s[ACTIONS_LEFT] > 0:
        return False
    if (c & P2_OPPONENT_MORE_PIECES) and not opponent_has_more(s, T, s[COLOUR + s[CUR]]):
        return False
    if (c & P2_DECK_NOT_EMPTY) and s[DECK_CNT + s[CUR]] <= 0:
        return False
    if (c & P2_RANK_HEROIC) and s[EFF_SEL_RANK] != HEROIC:
        return False
    if (c & P2_WARP_UNPLAYED) and not warp_unplayed(s, T):
        return False
    return True
