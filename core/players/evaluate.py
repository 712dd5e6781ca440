"""Static evaluation of a position for one seat: what the lookahead players maximise.

value = sum of weight[k] * feature[k], each feature "mine minus the opponents'" where that
makes sense (several opponents count as their average). The weights are a study parameter
(sim/players.py has the defaults, the names and the tuned profiles); W_* index both arrays.

The value splits into a *position* part (board, scores, tasks) and a *hand* part (which of
the seat's cards could be summoned now), so the greedy player can add the hand part of a
placement from a precomputed table (core.players.greedy) instead of searching summons again. Only
public information and the seat's own hand are read.
"""

from core.board.bits import popcount
from core.constants import CK_BEING, CK_LEGEND, COMMON, HEROIC, LEGENDARY
from core.jit import njit
from core.jit.profile import P_EVAL_BOARD, P_EVALUATE, enter, leave
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
    PENDING,
    SCORE,
    TASK_PTS,
    TAVAIL,
    WINNER,
)
from core.players.summon_reach import hand_bits, slot_summonable
from core.players.weights import (
    W_CENTRE,
    W_CLAIMABLE,
    W_DESTROYED,
    W_EXPOSED,
    W_LEGENDARY,
    W_LEGENDS_READY,
    W_MATERIAL,
    W_OPP_CLAIMABLE,
    W_PENDING,
    W_POINTS,
    W_SUMMONABLE,
    W_UPGRADED,
    W_WIN,
)
from core.rules.modes import has_tasks, n_colours
from core.rules.tasks import board_sets, no_sets, reads_sets, task_holds_on
from core.summon.patterns import occupied_bits


@njit(cache=True, _nrt=False)
def _points(s, T, colour, legendary):
    if has_tasks(s[MODE]):
        return s[TASK_PTS + colour] + legendary
    return s[SCORE + colour]


@njit(cache=True, _nrt=False)
def best_claimable(s, T, colour):
    """Points of the best available task that ``colour`` meets right now (0 if none)."""
    best, _ = claimable(s, T, colour, True, False)
    return best


@njit(cache=True, _nrt=False)
def claimable(s, T, me, mine, theirs):
    """``best_claimable`` of colour ``me`` (with ``mine``, else 0) and the highest of its
    opponents' (with ``theirs``, else 0), the board's sets made once for all their checks
    (and not at all when no displayed task reads them)."""
    for k in range(N_AVAIL):
        t = s[TAVAIL + k]
        if t >= 0 and reads_sets(T, t):
            return claimable_on(s, T, me, mine, theirs, board_sets(s))
    return claimable_on(s, T, me, mine, theirs, no_sets())


@njit(cache=True, _nrt=False)
def claimable_on(s, T, me, mine, theirs, sets):
    """``claimable`` given the position's ``board_sets``. A task no better than the best
    found already is not checked: the answers are maxima."""
    best = 0
    threat = 0
    for k in range(N_AVAIL):
        t = s[TAVAIL + k]
        if t < 0:
            continue
        pts = T.task_points[t]
        if mine and best < pts and task_holds_on(s, T, t, me, sets):
            best = pts
        if theirs and threat < pts:
            for c in range(n_colours(s)):
                if c != me and task_holds_on(s, T, t, c, sets):
                    threat = pts
                    break
    return best, threat


@njit(cache=True, _nrt=False)
def _exposed(s, T, q, code):
    """Is the piece ``code`` on ``q`` next to an enemy piece of at least its rank?"""
    owner = code >> 2
    rank = code & 3
    for d in range(8):
        n = T.nbr[q, d]
        if n >= 0:
            other = s[BOARD + n]
            if other != 0 and (other >> 2) != owner and (other & 3) >= rank:
                return True
    return False


@njit(cache=True, _nrt=False)
def position_value(s, T, seat, w):
    """Everything but the hand part (see the module docstring)."""
    return board_value(s, T, seat, w) + task_value(s, T, seat, w)


@njit(cache=True, _nrt=False)
def task_formula(w, best, threat):
    """The task part from the points of the best task claimable by the seat and by its
    strongest opponent."""
    v = 0.0
    if w[W_CLAIMABLE] != 0:
        v += w[W_CLAIMABLE] * best
    if w[W_OPP_CLAIMABLE] != 0:
        v += w[W_OPP_CLAIMABLE] * threat
    return v


@njit(cache=True, _nrt=False)
def task_value(s, T, seat, w):
    """The task part: tasks claimable now by the seat and by an opponent (High Form)."""
    if s[GAME_OVER] == 1 or not has_tasks(s[MODE]):
        return 0.0
    best, threat = claimable(s, T, s[COLOUR + seat], w[W_CLAIMABLE] != 0, w[W_OPP_CLAIMABLE] != 0)
    return task_formula(w, best, threat)


@njit(cache=True, _nrt=False)
def task_value_on(s, T, seat, w, sets):
    """``task_value`` given the position's ``board_sets``."""
    if s[GAME_OVER] == 1 or not has_tasks(s[MODE]):
        return 0.0
    me = s[COLOUR + seat]
    best, threat = claimable_on(s, T, me, w[W_CLAIMABLE] != 0, w[W_OPP_CLAIMABLE] != 0, sets)
    return task_formula(w, best, threat)


@njit(cache=True, _nrt=False)
def board_value(s, T, seat, w):
    enter(P_EVAL_BOARD)
    r = _board_value_body(s, T, seat, w)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _board_value_body(s, T, seat, w):
    """The position part without the tasks: scores (the win once the game is over),
    destroyed pieces, pieces on the board by rank, the centre, exposure."""
    me = s[COLOUR + seat]
    ncol = n_colours(s)
    # one pass over the board: pieces per rank, mine and the opponents' (summed)
    m1 = 0
    m2 = 0
    m3 = 0
    o1 = 0
    o2 = 0
    o3 = 0
    leg0 = 0
    leg1 = 0
    leg2 = 0
    leg3 = 0
    centre_m = 0
    centre_o = 0
    exposed_m = 0
    exposed_o = 0
    want_exposed = w[W_EXPOSED] != 0
    for i in range(T.onboard.shape[0]):
        q = T.onboard[i]
        code = s[BOARD + q]
        if code == 0:
            continue
        owner = code >> 2
        rank = code & 3
        if rank == LEGENDARY:
            if owner == 0:
                leg0 += 1
            elif owner == 1:
                leg1 += 1
            elif owner == 2:
                leg2 += 1
            else:
                leg3 += 1
        if owner == me:
            if rank == COMMON:
                m1 += 1
            elif rank == HEROIC:
                m2 += 1
            else:
                m3 += 1
        elif rank == COMMON:
            o1 += 1
        elif rank == HEROIC:
            o2 += 1
        else:
            o3 += 1
        if T.sq_central[q] != 0:
            if owner == me:
                centre_m += 1
            else:
                centre_o += 1
        if want_exposed and _exposed(s, T, q, code):
            if owner == me:
                exposed_m += 1
            else:
                exposed_o += 1
    return _board_from_counts(
        s, T, me, ncol, w, m1, m2, m3, o1, o2, o3, leg0, leg1, leg2, leg3,
        centre_m, centre_o, exposed_m, exposed_o,
    )  # fmt: skip


@njit(cache=True, _nrt=False)
def board_value_bits(s, T, seat, w, bits):
    """``board_value`` from the seat's bitboards (``hand_bits``, computed by the caller for
    the hand part anyway): the piece counts by popcount instead of a pass over the board.
    Duels without the centre and exposure weights (those need the squares themselves); any
    other case is ``board_value``. The same counts into the same arithmetic: the same value."""
    if n_colours(s) != 2 or w[W_CENTRE] != 0 or w[W_EXPOSED] != 0:
        return board_value(s, T, seat, w)
    occ_lo, occ_hi = occupied_bits(s, T)
    return board_value_occ(s, T, seat, w, bits, occ_lo, occ_hi)


@njit(cache=True, _nrt=False)
def board_value_occ(s, T, seat, w, bits, occ_lo, occ_hi):
    """``board_value_bits`` given every colour's pieces (``occupied_bits``, (occ_lo,
    occ_hi)) as well."""
    if n_colours(s) != 2 or w[W_CENTRE] != 0 or w[W_EXPOSED] != 0:
        return board_value(s, T, seat, w)
    enter(P_EVAL_BOARD)
    me = s[COLOUR + seat]
    mine = popcount(bits[0]) + popcount(bits[1])  # own pieces, rank >= 1, 2, 3
    mine_up = popcount(bits[2]) + popcount(bits[3])
    m3 = popcount(bits[4]) + popcount(bits[5])
    all_up = popcount(bits[6]) + popcount(bits[7])  # every colour's, rank >= 2, 3
    all_leg = popcount(bits[8]) + popcount(bits[9])
    pieces = popcount(occ_lo) + popcount(occ_hi)
    o3 = all_leg - m3
    o2 = all_up - mine_up - o3
    o1 = pieces - mine - (all_up - mine_up)
    leg_other = all_leg - m3
    leg0 = m3 if me == 0 else leg_other
    leg1 = m3 if me == 1 else leg_other
    v = _board_from_counts(
        s, T, me, 2, w, mine - mine_up, mine_up - m3, m3, o1, o2, o3, leg0, leg1, 0, 0, 0, 0, 0, 0
    )
    leave()
    return v


@njit(cache=True, _nrt=False)
def _board_from_counts(
    s, T, me, ncol, w, m1, m2, m3, o1, o2, o3, leg0, leg1, leg2, leg3,
    centre_m, centre_o, exposed_m, exposed_o,
):  # fmt: skip
    """The board part from its counts (pieces by rank, legends by colour, centre, exposed)."""
    mine_leg = _pick(me, leg0, leg1, leg2, leg3)
    best_other = -1_000_000
    for c in range(ncol):
        if c != me:
            x = _points(s, T, c, _pick(c, leg0, leg1, leg2, leg3))
            if x > best_other:
                best_other = x
    diff = _points(s, T, me, mine_leg) - best_other
    if s[GAME_OVER] == 1:
        win = 0.0 if s[WINNER] < 0 else (1.0 if s[WINNER] == me else -1.0)
        return w[W_WIN] * win + w[W_POINTS] * diff
    v = w[W_POINTS] * diff
    d = 0
    for c in range(ncol):
        if c != me:
            b = DESTROYED + c * 4
            d += s[b + COMMON] + 2 * s[b + HEROIC] + 4 * s[b + LEGENDARY]
    v += w[W_DESTROYED] * d
    share = 1.0 / (ncol - 1)
    v += w[W_UPGRADED] * m2 + w[W_LEGENDARY] * m3 + w[W_MATERIAL] * (m1 + m2 + m3)
    v -= share * (w[W_UPGRADED] * o2 + w[W_LEGENDARY] * o3 + w[W_MATERIAL] * (o1 + o2 + o3))
    v += w[W_CENTRE] * (centre_m - share * centre_o)
    v += w[W_EXPOSED] * (exposed_m - share * exposed_o)
    return v


@njit(cache=True, _nrt=False)
def _pick(c, a0, a1, a2, a3):
    if c == 0:
        return a0
    if c == 1:
        return a1
    if c == 2:
        return a2
    return a3


@njit(cache=True, _nrt=False)
def pending_value(s, seat, w):
    """Etherweave: a pending being will cost 2 points at the end unless it is summoned
    (``pending`` 2 by default; the learned planner's beam sets 0 and lets its leaf value
    judge the warp, core.players.learned)."""
    if s[PENDING + seat] >= 0:
        return -w[W_PENDING] * w[W_POINTS]
    return 0.0


@njit(cache=True, _nrt=False)
def hand_value(s, T, seat, w, opts):
    """The hand part: each being (legend) card in hand that could be summoned now, and the
    pending being's penalty (already in the score once the game is over)."""
    if s[GAME_OVER] == 1:
        return 0.0
    if w[W_SUMMONABLE] == 0 and w[W_LEGENDS_READY] == 0:
        return pending_value(s, seat, w)
    me = s[COLOUR + seat]
    bits = hand_bits(s, T, me)
    v = pending_value(s, seat, w)
    if s[FROZEN + seat] >= 0:  # a stored frozen effect: worth a being ready to summon
        v += w[W_SUMMONABLE]
    for slot in range(s[HAND_N + seat]):
        card = s[HAND + seat * HAND_CAP + slot]
        kind = T.card_kind[card]
        if kind != CK_BEING and kind != CK_LEGEND:
            continue
        wk = w[W_SUMMONABLE] if kind == CK_BEING else w[W_LEGENDS_READY]
        if wk != 0 and slot_summonable(s, T, me, card, bits):
            v += wk
    return v


@njit(cache=True, _nrt=False)
def evaluate(s, T, seat, w, opts):
    enter(P_EVALUATE)
    r = _evaluate_body(s, T, seat, w, opts)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _evaluate_body(s, T, seat, w, opts):
    """Value of state ``s`` for ``seat`` (that is, for its colour: a team in team play)
    under weights ``w`` (``opts`` is scratch)."""
    return position_value(s, T, seat, w) + hand_value(s, T, seat, w, opts)
