"""Static evaluation of a position for one seat: what the greedy player maximises.

value = sum of weight[k] * feature[k], each feature "mine minus the best opponent's" where
that makes sense. The weights are a study parameter (sim/players.py has the defaults and the
names); W_* index both arrays.
"""

from core.constants import CK_BEING, CK_LEGEND, COMMON, HEROIC, LEGENDARY
from core.jit import njit
from core.layout import (
    BOARD,
    COLOUR,
    DESTROYED,
    FROZEN,
    GAME_OVER,
    HAND,
    HAND_CAP,
    HAND_N,
    MODE,
    N_AVAIL,
    SCORE,
    TASK_PTS,
    TAVAIL,
    WINNER,
)
from core.modes import has_tasks, n_colours
from core.patterns import card_summons
from core.tasks import task_holds

W_POINTS = 0  # score difference (High Form: tasks + legends on the board)
W_CLAIMABLE = 1  # points of the best task you could claim now (High Form)
W_DESTROYED = 2  # enemy pieces destroyed this turn, weighted 1 / 2 / 4 by rank
W_UPGRADED = 3  # your heroic pieces minus the opponent's
W_LEGENDARY = 4  # your legendary pieces minus the opponent's
W_MATERIAL = 5  # your pieces minus the opponent's
W_SUMMONABLE = 6  # beings in your hand you could summon now
W_LEGENDS_READY = 7  # legend cards in your hand you could summon now
W_WIN = 8  # game over: +1 won, -1 lost, 0 shared
N_WEIGHTS = 9
WEIGHT_NAMES = (
    "points", "claimable", "destroyed", "upgraded", "legendary", "material", "summonable",
    "legends_ready", "win",
)  # fmt: skip


@njit(cache=True, _nrt=False)
def _pieces(s, T, seat, rank):
    n = 0
    for i in range(T.onboard.shape[0]):
        code = s[BOARD + T.onboard[i]]
        if code != 0 and (code >> 2) == seat and (code & 3) == rank:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def _points(s, T, colour):
    if has_tasks(s[MODE]):
        return s[TASK_PTS + colour] + _pieces(s, T, colour, LEGENDARY)
    return s[SCORE + colour]


@njit(cache=True, _nrt=False)
def evaluate(s, T, seat, w, opts):
    """Value of state ``s`` for ``seat`` (that is, for its colour: a team in team play)
    under weights ``w`` (``opts`` is scratch)."""
    me = s[COLOUR + seat]
    ncol = n_colours(s)
    if s[GAME_OVER] == 1:
        win = 0.0 if s[WINNER] < 0 else (1.0 if s[WINNER] == me else -1.0)
        return w[W_WIN] * win + w[W_POINTS] * (_points(s, T, me) - _best_other(s, T, me))
    v = w[W_POINTS] * (_points(s, T, me) - _best_other(s, T, me))
    if has_tasks(s[MODE]) and w[W_CLAIMABLE] != 0:
        best = 0
        for k in range(N_AVAIL):
            t = s[TAVAIL + k]
            if t >= 0 and T.task_points[t] > best and task_holds(s, T, t, me):
                best = T.task_points[t]
        v += w[W_CLAIMABLE] * best
    d = 0
    for c in range(ncol):
        if c != me:
            b = DESTROYED + c * 4
            d += s[b + COMMON] + 2 * s[b + HEROIC] + 4 * s[b + LEGENDARY]
    v += w[W_DESTROYED] * d
    for p in range(ncol):
        sign = 1.0 if p == me else -1.0 / (ncol - 1)
        c1 = _pieces(s, T, p, COMMON)
        c2 = _pieces(s, T, p, HEROIC)
        c3 = _pieces(s, T, p, LEGENDARY)
        v += sign * (w[W_UPGRADED] * c2 + w[W_LEGENDARY] * c3 + w[W_MATERIAL] * (c1 + c2 + c3))
    if s[FROZEN + seat] >= 0:  # a stored frozen effect: worth a being ready to summon
        v += w[W_SUMMONABLE]
    if w[W_SUMMONABLE] != 0 or w[W_LEGENDS_READY] != 0:
        for slot in range(s[HAND_N + seat]):
            card = s[HAND + seat * HAND_CAP + slot]
            kind = T.card_kind[card]
            if kind != CK_BEING and kind != CK_LEGEND:
                continue
            wk = w[W_SUMMONABLE] if kind == CK_BEING else w[W_LEGENDS_READY]
            if wk != 0 and card_summons(s, T, me, card, slot, opts, 0) > 0:
                v += wk
    return v


@njit(cache=True, _nrt=False)
def _best_other(s, T, me):
    best = -1_000_000
    for p in range(n_colours(s)):
        if p != me:
            x = _points(s, T, p)
            if x > best:
                best = x
    return best
