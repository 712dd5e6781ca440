"""The random player. In the action phase, first a kind of option uniformly among the kinds
present (place, summon, discard, flare, end turn), then an instance of that kind uniformly. In the
claim phase it claims one of the claimable tasks uniformly and never declines. Everywhere
else (effect targets including "skip", pick-ups, returning cards after a discard, setup) it
picks uniformly among all options.
"""

from core.constants import OPT_CLAIM, PH_ACTION, PH_CLAIM
from core.jit import njit
from core.layout import PHASE
from core.rules.rng import rand_below


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
