"""Players inside the compiled engine. All of them only pick a row of the option list, so
they share every rule, and none reads hidden information (core.lookahead, core.hidden).

random: in the action phase, first a kind of option uniformly among the kinds present
(place, summon, discard, flare, end turn), then an instance of that kind uniformly. In the
claim phase it claims one of the claimable tasks uniformly and never declines. Everywhere
else (effect targets including "skip", pick-ups, returning cards after a discard, setup) it
picks uniformly among all options.

greedy: one-ply lookahead (core.greedy): every option is tried on a lookahead copy, run to
the next decision of the turn or to the end of the turn, and scored by core.evaluate with
the seat's weights; ties are broken uniformly at random.

planner: searches whole turns, beam-pruned by the same evaluation (core.planner).

mc: flat Monte Carlo. The best ``candidates`` options by the greedy score each get
``playouts`` random playouts of ``horizon`` turns (or to the end of the game), each on a copy
whose hidden cards are sampled afresh (core.hidden); the option with the best mean
evaluation (a won game counts the win weight) is played.
"""

import numpy as np

from core.constants import (
    OPT_CLAIM,
    PH_ACTION,
    PH_CLAIM,
    POL_GREEDY,
    POL_MC,
    POL_PLANNER,
    POL_RANDOM,
)
from core.evaluate import N_WEIGHTS, evaluate
from core.greedy import choose_greedy, option_value
from core.hidden import determinize
from core.jit import njit
from core.layout import CUR, GAME_OVER, LOOKAHEAD, PHASE, RNG, TURN_NO
from core.lookahead import copy_row
from core.planner import choose_planner
from core.player_params import PP_MC_CANDIDATES, PP_MC_HORIZON, PP_MC_PLAYOUTS
from core.rules.rng import _store, rand_below
from core.rules.turn import advance, apply_option

EPS = 1e-9


@njit(cache=True, _nrt=False)
def _nth_of_kind(opts, n, kind, j):
    for i in range(n):
        if opts[i, 0] == kind:
            if j == 0:
                return i
            j -= 1
    return -1


@njit(cache=True, _nrt=False)
def _count_kind(opts, n, kind):
    c = 0
    for i in range(n):
        if opts[i, 0] == kind:
            c += 1
    return c


@njit(cache=True, _nrt=False)
def choose_random(s, opts, n):
    ph = s[PHASE]
    if ph == PH_ACTION:
        mask = 0
        for i in range(n):
            mask |= 1 << opts[i, 0]
        kinds = 0
        m = mask
        while m:
            kinds += m & 1
            m >>= 1
        pick = rand_below(s, kinds)
        kind = 0
        while True:
            if mask & (1 << kind):
                if pick == 0:
                    break
                pick -= 1
            kind += 1
        return _nth_of_kind(opts, n, kind, rand_below(s, _count_kind(opts, n, kind)))
    if ph == PH_CLAIM:
        return _nth_of_kind(opts, n, OPT_CLAIM, rand_below(s, _count_kind(opts, n, OPT_CLAIM)))
    return rand_below(s, n)


@njit(cache=True, _nrt=False)
def _playout(s, T, seat, w, horizon, work, wopts, ev0):
    """Random play from ``work[1]`` for ``horizon`` turns; the value for ``seat``."""
    c = work[1]
    stop = c[TURN_NO] + horizon
    n = advance(c, T, ev0, wopts[1])
    while n > 0 and c[TURN_NO] < stop:
        k = choose_random(c, wopts[1], n)
        apply_option(c, T, ev0, wopts[1][k, 0], wopts[1][k, 1], wopts[1][k, 2], wopts[1][k, 3])
        n = advance(c, T, ev0, wopts[1])
    return evaluate(c, T, seat, w, wopts[1])


@njit(cache=True, _nrt=True)
def choose_mc(s, T, opts, n, params, work, wopts, ev0, fwork):
    if n == 1:
        return 0
    seat = s[CUR]
    w = params[:N_WEIGHTS]
    playouts = int(params[PP_MC_PLAYOUTS])
    horizon = int(params[PP_MC_HORIZON])
    cands = min(n, int(params[PP_MC_CANDIDATES]))
    # preselect the best candidates by the greedy value
    value = np.empty(n)  # one small allocation per mc decision; mc decisions are costly anyway
    for k in range(n):
        value[k] = option_value(s, T, opts, k, w, seat, work[0], wopts[0], ev0)[0]
    order = np.argsort(-value)
    best = -np.inf
    pick = order[0]
    for j in range(cands):
        k = order[j]
        total = 0.0
        for _ in range(playouts):
            c = work[1]
            copy_row(c, s)
            c[LOOKAHEAD] = 0
            _reseed(c, s)
            determinize(c, T, seat, work[2])
            apply_option(c, T, ev0, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
            if c[GAME_OVER] == 1:
                total += evaluate(c, T, seat, w, wopts[1])
            else:
                total += _playout(s, T, seat, w, horizon, work, wopts, ev0)
        mean = total / playouts
        if mean > best + EPS:
            best = mean
            pick = k
    return pick


@njit(cache=True, _nrt=False)
def _reseed(c, s):
    """Give the playout copy fresh random words drawn from the real game's generator, so
    playouts differ from each other but the game stays reproducible."""
    for i in range(4):
        v = rand_below(s, 1 << 30) * 4 + rand_below(s, 4)
        _store(c, RNG + i, v if v != 0 else 1)


@njit(cache=True, _nrt=True)
def choose(s, T, opts, n, policy, params, work, wopts, ev0, fwork):
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
