"""Restricted twins: a lookahead player that gives up one mechanic (parameter PP_RESTRICT).

``frozen`` never picks OPT_THAW, ``warp`` never picks OPT_WARP: the option is left out at the
root and everywhere in the player's search of its own turn (greedy's arg-max, the planner's
beam, mc's candidates and its own moves in the playouts). ``gateway`` forbids no option: the
hand-set evaluation already gives the Gateway no value, and a learned evaluation reads the
code and zeroes its Gateway features. Comparing a player with its twin on the same deals
measures what the mechanic is worth to that player (`kalarite competence`).

A forbidden option is never the only option of a decision (a thaw and a warp always come
with ending the turn or an action), so a restricted player always has an allowed row; if
none were allowed, the players fall back to row 0.
"""

import numpy as np

from core.constants import OPT_THAW, OPT_WARP
from core.jit import njit
from core.players.params import PP_RESTRICT, RESTRICT_FROZEN, RESTRICT_WARP

FORBIDDEN = -np.inf  # the value a forbidden option gets in a player's scores


@njit(cache=True, _nrt=False)
def forbidden_kind(params):
    """The option kind this player never picks, or -1."""
    code = int(params[PP_RESTRICT])
    if code == RESTRICT_FROZEN:
        return OPT_THAW
    if code == RESTRICT_WARP:
        return OPT_WARP
    return -1


@njit(cache=True, _nrt=False)
def forbid(vals, stat, opts, n, kind, over):
    """Mark the rows of kind ``kind`` (-1: none) as never chosen: value FORBIDDEN and status
    ``over`` (the planner then treats them as finished plans that never win)."""
    if kind < 0:
        return
    for k in range(n):
        if opts[k, 0] == kind:
            vals[k] = FORBIDDEN
            stat[k] = over


@njit(cache=True, _nrt=False)
def first_allowed(opts, n, kind):
    """The first row a player restricted from ``kind`` may pick (0 if none may)."""
    for k in range(n):
        if opts[k, 0] != kind:
            return k
    return 0


@njit(cache=True, _nrt=False)
def count_allowed(opts, n, kind):
    c = 0
    for k in range(n):
        if opts[k, 0] != kind:
            c += 1
    return c


@njit(cache=True, _nrt=False)
def nth_allowed(opts, n, kind, j):
    """Row of the ``j``-th allowed option (0-based)."""
    for k in range(n):
        if opts[k, 0] != kind:
            if j == 0:
                return k
            j -= 1
    return 0
