"""The flat Monte Carlo player. The best ``candidates`` options by the greedy score each
get ``playouts`` random playouts of ``horizon`` turns (or to the end of the game), each on a copy
whose hidden cards are sampled afresh (core.players.hidden); the option with the best mean
evaluation (a won game counts the win weight) is played.
"""

import numpy as np

from core.constants import PH_ACTION
from core.jit import njit
from core.layout import CONTROL, CUR, GAME_OVER, LOOKAHEAD, PHASE, RNG, TURN_NO
from core.players.evaluate import evaluate
from core.players.greedy import option_value
from core.players.hidden import determinize
from core.players.lookahead import copy_row
from core.players.params import PP_MC_CANDIDATES, PP_MC_HORIZON, PP_MC_PLAYOUTS
from core.players.random_action import advance_deciding
from core.players.random_player import choose_random
from core.players.restrict import (
    FORBIDDEN,
    count_allowed,
    forbidden_kind,
    is_banned,
    nth_allowed,
)
from core.players.weights import N_WEIGHTS
from core.rules.rng import _store, rand_below
from core.rules.turn import apply_option

EPS = 1e-9
EVERY_SEAT = 0xFF  # advance_deciding's bit set of random seats: all of them


@njit(cache=True, _nrt=False)
def playout(s, T, seat, w, horizon, banned, work, wopts, ev0):
    """Random play from ``work[1]`` for ``horizon`` turns; the value for ``seat``. A
    restricted seat (``banned`` >= 0) picks uniformly among its allowed options."""
    c = work[1]
    stop = c[TURN_NO] + horizon
    # every seat plays at random, the restricted seat's own actions from the full list
    randoms = EVERY_SEAT if banned < 0 else EVERY_SEAT & ~(1 << seat)
    n = advance_deciding(c, T, ev0, wopts[1], randoms)
    while n > 0 and c[TURN_NO] < stop:
        if n == 1 and c[PHASE] == PH_ACTION:
            k = 0  # drawn on the way, as choose_random draws (advance_deciding)
        elif banned >= 0 and c[CONTROL] == seat and count_allowed(c, T, wopts[1], n, banned) < n:
            m = count_allowed(c, T, wopts[1], n, banned)
            k = nth_allowed(c, T, wopts[1], n, banned, rand_below(c, m)) if m > 0 else 0
        else:
            k = choose_random(c, wopts[1], n)
        apply_option(c, T, ev0, wopts[1][k, 0], wopts[1][k, 1], wopts[1][k, 2], wopts[1][k, 3])
        n = advance_deciding(c, T, ev0, wopts[1], randoms)
    return evaluate(c, T, seat, w, wopts[1])


@njit(cache=True, _nrt=True)
def choose_mc(s, T, opts, n, params, work, wopts, ev0, fwork):
    if n == 1:
        return 0
    seat = s[CUR]
    w = params[:N_WEIGHTS]
    playouts = int(params[PP_MC_PLAYOUTS])
    horizon = int(params[PP_MC_HORIZON])
    banned = forbidden_kind(params)  # a restricted twin (core.players.restrict)
    cands = min(count_allowed(s, T, opts, n, banned), int(params[PP_MC_CANDIDATES]))
    # preselect the best candidates by the greedy value
    value = np.empty(n)  # one small allocation per mc decision; mc decisions are costly anyway
    for k in range(n):
        if is_banned(s, T, opts, k, banned):
            value[k] = FORBIDDEN  # sorted last, never a candidate
        else:
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
                total += playout(s, T, seat, w, horizon, banned, work, wopts, ev0)
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
