"""The reply-aware step's world: the game after one of the planner's plans, in a copy where
everything hidden from the planning seat is sampled afresh.

The turn planner (core.players.planner) may check its few best plans against the
opponent's best reply. Each check needs the game as the opponent would find it: the plan
played on a full copy of the game (not a lookahead copy: the refill draws, the end of the
game is tested, the next seat's turn starts), with the seat's own deck order, the other
seats' hidden cards and the shared decks' order drawn afresh from what the seat may know
(core.players.hidden ``determinize``). The copy's random words come from the position's
fingerprint and the sample's number, never from the game's own generator, so sample ``j``
is the same world for every plan (the plans are compared on equal draws), and the game's
own random numbers are untouched.
"""

import numpy as np

from core.jit import njit
from core.layout import CUR, LOOKAHEAD, RNG
from core.players.hidden import determinize
from core.players.lookahead import copy_row
from core.rules.rng import _mix32, _store
from core.rules.turn import advance, apply_option

EPS = 1e-9
STEP = 5  # a path's step: the key of its position, then the option row (core.players.planner)


@njit(cache=True, _nrt=False)
def win_share(logit):
    """The win probability of a learned logit."""
    return 1.0 / (1.0 + np.exp(-logit))


@njit(cache=True, _nrt=False)
def _seed(c, key, sample):
    for i in range(4):
        h = _mix32(np.int64(key) ^ _mix32(np.int64(sample) * 8 + i + 0x2545F491))
        _store(c, RNG + i, h if h != 0 else 0x6A09E667 + i)


@njit(cache=True, _nrt=False)
def _find(opts, n, path, b):
    for k in range(n):
        if (
            opts[k, 0] == path[b + 1]
            and opts[k, 1] == path[b + 2]
            and opts[k, 2] == path[b + 3]
            and opts[k, 3] == path[b + 4]
        ):
            return k
    return -1


@njit(cache=True, _nrt=False)
def reply_world(s, T, path, key, sample, c, pool, copts, ev0):
    """Make ``c`` the game ``s`` after the plan ``path`` ([length, steps...]) in sampled
    world ``sample`` (``key``: the fingerprint of ``s``; ``pool``: int scratch). Returns the
    number of options of the decision that follows (listed in ``copts``), 0 if the game
    ended, or -1 if a step of the plan is not among the options (never expected: a turn
    plays the same in every world)."""
    seat = s[CUR]
    copy_row(c, s)
    c[LOOKAHEAD] = 0
    _seed(c, key, sample)
    determinize(c, T, seat, pool)
    n = advance(c, T, ev0, copts)
    for i in range(path[0]):
        while n == 1:  # the game decides single options by itself
            apply_option(c, T, ev0, copts[0, 0], copts[0, 1], copts[0, 2], copts[0, 3])
            n = advance(c, T, ev0, copts)
        if n <= 0:
            return -1
        b = 1 + i * STEP
        k = _find(copts, n, path, b)
        if k < 0:
            return -1
        apply_option(c, T, ev0, copts[k, 0], copts[k, 1], copts[k, 2], copts[k, 3])
        n = advance(c, T, ev0, copts)
    return n
