"""The one call the turn loop makes to a player: dispatch on the seat's policy code.

Every player only picks a row of the option list, so they all share every rule, and none
reads hidden information (core.players.lookahead, core.players.hidden). One player per file:
random (core.players.random_player), greedy (core.players.greedy), planner
(core.players.planner), mc (core.players.mc).
"""

from core.constants import POL_GREEDY, POL_MC, POL_PLANNER, POL_RANDOM
from core.jit import njit
from core.jit.profile import P_PLAYER, enter, leave
from core.players.greedy import choose_greedy
from core.players.mc import choose_mc
from core.players.planner import choose_planner
from core.players.random_player import choose_random


@njit(cache=True, _nrt=True)
def choose(s, T, opts, n, policy, params, work, wopts, ev0, fwork):
    enter(P_PLAYER)
    r = _choose_body(s, T, opts, n, policy, params, work, wopts, ev0, fwork)
    leave()
    return r


@njit(cache=True, _nrt=True)
def _choose_body(s, T, opts, n, policy, params, work, wopts, ev0, fwork):
    """Dispatch on the seat's policy code (constants.POL_*); -1 for an unknown code.
    Buffers: core.kernel.workspace."""
    if n == 1:
        return 0
    if policy == POL_RANDOM:
        return choose_random(s, opts, n)
    if policy == POL_GREEDY:
        return choose_greedy(s, T, opts, n, params, work, wopts, ev0, fwork)
    if policy == POL_PLANNER:
        return choose_planner(s, T, opts, n, params, work, wopts, ev0, fwork)
    if policy == POL_MC:
        return choose_mc(s, T, opts, n, params, work, wopts, ev0, fwork)
    return -1
