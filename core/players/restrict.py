"""Restricted twins: a lookahead player that gives up one mechanic (parameter PP_RESTRICT).

``frozen`` never picks OPT_THAW, ``warp`` never picks OPT_WARP. ``gateway`` never takes an
optional effect part that uses the Nethervoid Gateway (its region or the squares next to it,
a destination towards it, a condition on where it stands or on the being being it, making a
piece the Gateway): it skips them, and a learned evaluation reads the code and zeroes its
Gateway features (core.players.features FL_GATEWAY_BLIND). What the rules do by themselves
stays: a summoned Nethervoid being still becomes the Gateway, and a compulsory part is still
carried out (it has no skip). A forbidden row is left out at the root and everywhere in the
player's search of its own turn (greedy's arg-max, the planner's beam, mc's candidates and its
own moves in the playouts). Comparing a player with its twin on the same deals measures what
the mechanic is worth to that player (`kalarite competence`).

A forbidden option is never the only option of a decision (a thaw and a warp always come
with ending the turn or an action, an optional part with its skip), so a restricted player
always has an allowed row; if none were allowed, the players fall back to row 0.
"""

import numpy as np

from core.constants import OPT_TARGET, OPT_THAW, OPT_WARP
from core.jit import njit
from core.layout import EFF_PC
from core.ops import (
    D_TOWARDS_GATEWAY,
    I_COND2,
    I_DEST,
    I_OP,
    I_OPTIONAL,
    I_REGION,
    I_REGION2,
    OP_BECOME_GATEWAY,
    OP_CHOOSE,
    P2_BEING_IS_GATEWAY,
    P2_GATEWAY_ELSEWHERE,
    P2_GATEWAY_ON_GREEN,
    P2_GATEWAY_ON_RED,
    R_GATE,
)
from core.players.params import PP_RESTRICT, RESTRICT_FROZEN, RESTRICT_GATEWAY, RESTRICT_WARP

FORBIDDEN = -np.inf  # the value a forbidden option gets in a player's scores
NO_BAN = -1  # forbidden_kind: an unrestricted player
# forbidden_kind of the gateway twin: not an option kind (those are below 32), a rule on the
# effect part the options belong to
BAN_GATEWAY = 64
# conditions that make a part depend on the Gateway (not "the being is not the Gateway")
P2_USES_GATEWAY = (
    P2_GATEWAY_ELSEWHERE | P2_BEING_IS_GATEWAY | P2_GATEWAY_ON_RED | P2_GATEWAY_ON_GREEN
)


@njit(cache=True, _nrt=False)
def forbidden_kind(params):
    """What this player never picks: an option kind, BAN_GATEWAY, or NO_BAN."""
    code = int(params[PP_RESTRICT])
    if code == RESTRICT_FROZEN:
        return OPT_THAW
    if code == RESTRICT_WARP:
        return OPT_WARP
    if code == RESTRICT_GATEWAY:
        return BAN_GATEWAY
    return NO_BAN


@njit(cache=True, _nrt=False)
def uses_gateway(T, i):
    """Does instruction ``i`` of the effect programs use the Gateway?"""
    return (
        T.ops[i, I_OP] == OP_BECOME_GATEWAY
        or (T.ops[i, I_REGION] & R_GATE) != 0
        or (T.ops[i, I_REGION2] & R_GATE) != 0
        or (T.ops[i, I_DEST] & D_TOWARDS_GATEWAY) != 0
        or (T.ops[i, I_COND2] & P2_USES_GATEWAY) != 0
    )


@njit(cache=True, _nrt=False)
def is_banned(s, T, opts, k, kind):
    """Is row ``k`` of ``opts`` (the options of position ``s``) one ``kind`` never picks?"""
    o = opts[k, 0]
    if kind != BAN_GATEWAY:
        return kind >= 0 and o == kind
    if o != OPT_TARGET:
        return False
    pc = s[EFF_PC]
    if T.ops[pc, I_OPTIONAL] != 1:  # no skip: the rules make the player take it
        return False
    if uses_gateway(T, pc):
        return True
    alt = opts[k, 3]  # a choice block's alternative
    return T.ops[pc, I_OP] == OP_CHOOSE and alt >= 0 and uses_gateway(T, pc + 1 + alt)


@njit(cache=True, _nrt=False)
def forbid(s, T, vals, stat, opts, n, kind, over):
    """Mark the rows ``kind`` forbids (NO_BAN: none) as never chosen: value FORBIDDEN and
    status ``over`` (the planner then treats them as finished plans that never win)."""
    if kind < 0:
        return
    for k in range(n):
        if is_banned(s, T, opts, k, kind):
            vals[k] = FORBIDDEN
            stat[k] = over


@njit(cache=True, _nrt=False)
def first_allowed(s, T, opts, n, kind):
    """The first row a player restricted by ``kind`` may pick (0 if none may)."""
    for k in range(n):
        if not is_banned(s, T, opts, k, kind):
            return k
    return 0


@njit(cache=True, _nrt=False)
def count_allowed(s, T, opts, n, kind):
    c = 0
    for k in range(n):
        if not is_banned(s, T, opts, k, kind):
            c += 1
    return c


@njit(cache=True, _nrt=False)
def nth_allowed(s, T, opts, n, kind, j):
    """Row of the ``j``-th allowed option (0-based)."""
    for k in range(n):
        if not is_banned(s, T, opts, k, kind):
            if j == 0:
                return k
            j -= 1
    return 0
