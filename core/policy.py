"""Players inside the compiled engine. All of them only pick a row of the option list.

random: in the action phase, first a kind of option uniformly among the kinds present
(place, summon, discard, flare, end turn), then an instance of that kind uniformly. In the
claim phase it claims one of the claimable tasks uniformly and never declines. Everywhere
else (effect targets including "skip", pick-ups, returning cards after a discard, setup) it
picks uniformly among all options.
"""

from numba import njit

from core.constants import OPT_CLAIM, PH_ACTION, PH_CLAIM, POL_RANDOM
from core.layout import PHASE
from core.rng import rand_below


@njit(cache=True)
def _nth_of_kind(opts, n, kind, j):
    for i in range(n):
        if opts[i, 0] == kind:
            if j == 0:
                return i
            j -= 1
    return -1


@njit(cache=True)
def _count_kind(opts, n, kind):
    c = 0
    for i in range(n):
        if opts[i, 0] == kind:
            c += 1
    return c


@njit(cache=True)
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


@njit(cache=True)
def choose(s, T, opts, n, policy):
    """Dispatch on the seat's policy code (constants.POL_*)."""
    if policy == POL_RANDOM:
        return choose_random(s, opts, n)
    return -1  # unknown policy: the caller reports it
