"""greedy: one-ply lookahead, and the option scoring the turn planner builds on.

The value of an option is the evaluation (core.players.evaluate) of the state it leads to:
the option applied to a lookahead copy (core.players.lookahead), which is then run to the next
decision of the turn or to the end of the turn, whichever comes first.
Ties are broken uniformly at random.

Placements are most of the options and differ from each other by one square only, so they
take a shortcut: one representative placement is played out on a copy; every other
placement's value is that copy's position value with the piece moved to its square, plus the
hand part read from a table of the squares that would make a card summonable
(core.players.summon_reach). The shortcut applies when nothing about the path to the next decision
depends on where the piece goes (duel rules without borrowed pieces, stock and two empty
squares left afterwards); tests check it gives the same values as the plain way.

Every other option is played out on a copy, and the position it leads to is evaluated
from what changed (core.players.eval_delta).

Buffers (``core.kernel.workspace``): ``work`` rows 0 (copies), 2 (the representative), 3
(card marks), 4 (evaluation context); ``wopts[0]``; ``fwork`` rows 0 (hand gain per
square), 1 to 3 (values, statuses and keys of the options), 4 (task truths).
"""

import numpy as np

from core.constants import CK_BEING, CK_LEGEND, COMMON, OPT_PLACE, PH_ACTION
from core.jit import njit
from core.jit.profile import P_EVAL_PREPARE, P_PLACEMENTS, enter, leave
from core.layout import (
    BOARD,
    BORROW_ENEMY,
    COLOUR,
    CUR,
    GAME_OVER,
    HAND,
    HAND_CAP,
    HAND_N,
    IMPRO_LEFT,
    MODE,
    N_AVAIL,
    NSQ,
    PHASE,
    STOCK,
    TAVAIL,
    VOID_CELLS,
)
from core.players.eval_delta import child_value, prepare
from core.players.evaluate import (
    W_CENTRE,
    W_CLAIMABLE,
    W_EXPOSED,
    W_LEGENDS_READY,
    W_OPP_CLAIMABLE,
    W_SUMMONABLE,
    _exposed,
    evaluate,
)
from core.players.leaf import leaf, refer_leaves, unrefer_leaves
from core.players.lookahead import (
    advance_turn,
    begin,
    board_hash,
    hand_mix,
    key_with_hand,
    square_hash,
    state_key,
)
from core.players.restrict import FORBIDDEN, first_allowed, forbid, forbidden_kind
from core.players.summon_reach import hand_bits, placement_completions, slot_summonable
from core.players.task_reach import common_matters, enemy_piece_ignored, own_piece_only_helps
from core.players.weights import N_WEIGHTS
from core.rules.modes import has_tasks, n_colours
from core.rules.rng import rand_below
from core.rules.tasks import board_sets, no_sets, task_holds_on, with_own_piece
from core.rules.turn import apply_option

EPS = 1e-9
ST_OVER = 0  # the option ends the turn (or the game)
ST_PENDING = 1  # another decision of the turn follows
ST_UNSURE = 2  # a placement that ends the turn's actions (a task claim may follow)
F_TRUTH = 4  # fwork row: which colours meet which displayed task (placement shortcut)
W_CTX = 4  # work row: the decision's evaluation context (core.players.eval_delta)
# which keys score_options computes: none, every option's, or only those not ending the turn
KEYS_NONE = 0
KEYS_ALL = 1
KEYS_PENDING = 2


@njit(cache=True, _nrt=False)
def option_value(s, T, opts, k, w, seat, c, copts, ev0):
    """Value of option ``k`` the plain way, and its status (ST_*); ``c`` holds the result."""
    begin(c, s)
    apply_option(c, T, ev0, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
    r = advance_turn(c, T, ev0, copts, False)
    return evaluate(c, T, seat, w, copts), ST_OVER if r == 0 else ST_PENDING


@njit(cache=True, _nrt=False)
def placement_shortcut(s, T, opts, n):
    """The first placement option if the placement shortcut applies, else -1."""
    if s[PHASE] != PH_ACTION or s[BORROW_ENEMY] != 0 or s[VOID_CELLS] != 0:
        return -1
    for k in range(s[HAND_N + s[CUR]]):  # a detached pattern: its completions are not listed
        if T.card_det_n[s[HAND + s[CUR] * HAND_CAP + k]] > 0:
            return -1
    me = s[COLOUR + s[CUR]]
    if s[IMPRO_LEFT + me] != 0 or s[STOCK + me] < 2:
        return -1
    empty = 0
    for i in range(T.onboard.shape[0]):
        if s[BOARD + T.onboard[i]] == 0:
            empty += 1
    if empty < 3:
        return -1
    first = -1
    count = 0
    for k in range(n):
        if opts[k, 0] == OPT_PLACE and opts[k, 1] >= 0:
            count += 1
            if first < 0:
                first = k
    return first if count >= 2 else -1


@njit(cache=True, _nrt=False)
def prepare_placements(s, T, opts, n, w, seat, rep, copts, ev0, mark, gain, truth):
    enter(P_EVAL_PREPARE)
    r = _prepare_placements_body(s, T, opts, n, w, seat, rep, copts, ev0, mark, gain, truth)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _prepare_placements_body(s, T, opts, n, w, seat, rep, copts, ev0, mark, gain, truth):
    """Set up the placement shortcut. ``rep`` becomes the representative placement's result
    with that piece taken off again; ``gain[q]`` the hand part a piece on q adds;
    ``truth[t * 4 + c]`` whether colour c meets task t without the piece. Returns (the value
    of the representative minus its square part, the representative's status), or status
    -1 when the shortcut does not apply."""
    k0 = placement_shortcut(s, T, opts, n)
    if k0 < 0:
        return 0.0, -1
    q0 = opts[k0, 1]
    me = s[COLOUR + s[CUR]]
    begin(rep, s)
    apply_option(rep, T, ev0, OPT_PLACE, q0, 0, 0)
    r = advance_turn(rep, T, ev0, copts, False)
    if rep[GAME_OVER] != 0 or rep[BOARD + q0] != COMMON + 4 * me:
        return 0.0, -1
    v0 = evaluate(rep, T, seat, w, copts)
    rep[BOARD + q0] = 0
    for q in range(NSQ):
        gain[q] = 0.0
        mark[q] = 0
    sets = board_sets(rep) if has_tasks(rep[MODE]) else no_sets()
    if has_tasks(rep[MODE]):
        for k in range(N_AVAIL):
            t = rep[TAVAIL + k]
            if t >= 0:
                for c in range(n_colours(rep)):
                    truth[t * 4 + c] = 1.0 if task_holds_on(rep, T, t, c, sets) else 0.0
    if w[W_SUMMONABLE] != 0 or w[W_LEGENDS_READY] != 0:
        bits = hand_bits(rep, T, me)
        for slot in range(rep[HAND_N + seat]):
            card = rep[HAND + seat * HAND_CAP + slot]
            kind = T.card_kind[card]
            if kind != CK_BEING and kind != CK_LEGEND:
                continue
            wk = w[W_SUMMONABLE] if kind == CK_BEING else w[W_LEGENDS_READY]
            if wk == 0 or slot_summonable(rep, T, me, card, bits):
                continue
            placement_completions(rep, T, me, card, bits, mark, slot + 1)
            for q in range(NSQ):
                if mark[q] == slot + 1:
                    gain[q] += wk
    v0 -= _square_part(rep, T, seat, w, q0, gain, truth, sets)
    return v0, ST_OVER if r == 0 else ST_PENDING


@njit(cache=True, _nrt=False)
def _square_part(rep, T, seat, w, q, gain, truth, sets):
    """The part of a placement's value that depends on its square ``q``: summons it makes
    possible, tasks it decides, the centre, exposure (see core.players.evaluate). ``sets``:
    the representative's ``board_sets`` (without a piece on q) where it has tasks."""
    me = rep[COLOUR + seat]
    ncol = n_colours(rep)
    code = COMMON + 4 * me
    v = gain[q]
    if T.sq_central[q] != 0:
        v += w[W_CENTRE]
    if w[W_EXPOSED] != 0:
        mine = 0
        theirs = 0
        for d in range(8):
            nb = T.nbr[q, d]
            if nb < 0 or rep[BOARD + nb] == 0 or (rep[BOARD + nb] >> 2) == me:
                continue
            mine = 1  # next to an enemy piece: every rank is at least common
            if (rep[BOARD + nb] & 3) == COMMON and not _exposed(rep, T, nb, rep[BOARD + nb]):
                theirs += 1
        v += w[W_EXPOSED] * (mine - theirs / (ncol - 1))
    if has_tasks(rep[MODE]) and (w[W_CLAIMABLE] != 0 or w[W_OPP_CLAIMABLE] != 0):
        if rep[BOARD + q] == 0:  # the placed position's sets: one more own common piece
            sets = with_own_piece(sets, me, q)
            rep[BOARD + q] = code
        else:  # (a placement on a taken square would not be the representative's)
            rep[BOARD + q] = code
            sets = board_sets(rep)
        mine_best = 0
        threat = 0
        for k in range(N_AVAIL):
            t = rep[TAVAIL + k]
            if t < 0:
                continue
            pts = T.task_points[t]
            matters = common_matters(T, t, q)
            helps = own_piece_only_helps(T, t)
            ignored = enemy_piece_ignored(T, t)
            for c in range(ncol):
                if (c == me and w[W_CLAIMABLE] == 0) or (c != me and w[W_OPP_CLAIMABLE] == 0):
                    continue
                if (mine_best if c == me else threat) >= pts:
                    continue
                known = truth[t * 4 + c] != 0  # without the piece
                keep = (known and helps) if c == me else ignored
                if not matters or keep:
                    holds = known
                else:
                    holds = task_holds_on(rep, T, t, c, sets)
                if holds:
                    if c == me:
                        mine_best = pts
                    else:
                        threat = pts
        rep[BOARD + q] = 0
        v += w[W_CLAIMABLE] * mine_best + w[W_OPP_CLAIMABLE] * threat
    return v


@njit(cache=True, _nrt=False)
def placement_value(rep, T, seat, w, q, v0, gain, truth, sets):
    """Value of placing on ``q`` from the prepared representative (see prepare_placements;
    ``sets``: its ``board_sets``)."""
    return v0 + _square_part(rep, T, seat, w, q, gain, truth, sets)


@njit(cache=True, _nrt=False)
def score_options(
    s, T, opts, n, w, seat, vals, stat, keys, want_keys, work, wopts, ev0, fwork,
    params, at_end, exact,
):  # fmt: skip
    """Value (``vals[k]``) and status (``stat[k]``, ST_*) of every option of ``s``; with
    ``want_keys`` (KEYS_*) also the lookahead.key_of of the state each option leads to: of
    every option (KEYS_ALL), or only of those that do not end the turn (KEYS_PENDING; a
    finished option's ``keys[k]`` is then 0). With ``at_end`` an option that ends the turn
    is worth the turn planner's value of that end (core.players.leaf with ``params`` and
    ``exact``), taken on the copy it was played on; without it, the evaluation like every
    other option. The child evaluations' context (eval_delta.prepare) is made when the first
    of them needs it: a position whose options all end the turn valued ``at_end`` (an
    effect's targets, most of the seer's leaves) needs none. The learned leaves of a
    decision with several options take its summon answers as their reference
    (core.players.summon_ref), made at the first of them."""
    rep = work[2]
    referred = False
    ctx = work[W_CTX]
    prepared = False
    base, rstat = prepare_placements(
        s, T, opts, n, w, seat, rep, wopts[0], ev0, work[3], fwork[0], fwork[F_TRUTH]
    )
    rsets = board_sets(rep) if rstat >= 0 and has_tasks(rep[MODE]) else no_sets()
    keyed = rstat >= 0 and want_keys != KEYS_NONE
    bh = board_hash(rep) if keyed else 0
    hm = hand_mix(rep) if keyed else 0
    code = COMMON + 4 * s[COLOUR + seat]
    for k in range(n):
        if rstat >= 0 and opts[k, 0] == OPT_PLACE and opts[k, 1] >= 0:
            enter(P_PLACEMENTS)
            q = opts[k, 1]
            vals[k] = placement_value(rep, T, seat, w, q, base, fwork[0], fwork[F_TRUTH], rsets)
            stat[k] = ST_PENDING if rstat == ST_PENDING else ST_UNSURE
            if want_keys != KEYS_NONE:  # the piece on q, through the board's hash only
                keys[k] = key_with_hand(rep, bh ^ square_hash(q, code), hm)
            leave()
        else:
            c = work[0]
            begin(c, s)
            apply_option(c, T, ev0, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
            r = advance_turn(c, T, ev0, wopts[0], False)
            stat[k] = ST_OVER if r == 0 else ST_PENDING
            if want_keys == KEYS_ALL or (want_keys == KEYS_PENDING and r != 0):
                keys[k] = state_key(c)  # before leaf, which may end the game in c
            elif want_keys == KEYS_PENDING:
                keys[k] = 0
            if r == 0 and at_end:
                if not referred and n - k >= 2:
                    referred = refer_leaves(s, T, seat, params, work)
                vals[k] = leaf(c, T, seat, params, exact, work, wopts, ev0, fwork)
            else:
                if not prepared:
                    prepare(s, T, seat, w, ctx, wopts[0])
                    prepared = True
                vals[k] = child_value(c, s, T, seat, w, ctx, wopts[0])
    if referred:
        unrefer_leaves(work)


@njit(cache=True, _nrt=False)
def choose_greedy(s, T, opts, n, params, work, wopts, ev0, fwork):
    w = params[:N_WEIGHTS]
    vals = fwork[1]
    score_options(
        s, T, opts, n, w, s[CUR], vals, fwork[2], fwork[3], KEYS_NONE, work, wopts, ev0, fwork,
        params, False, False,
    )  # fmt: skip
    banned = forbidden_kind(params)  # a restricted twin (core.players.restrict)
    forbid(s, T, vals, fwork[2], opts, n, banned, ST_OVER)
    best = -np.inf
    ties = 0
    pick = first_allowed(s, T, opts, n, banned)
    for k in range(n):
        if banned >= 0 and vals[k] == FORBIDDEN:  # marked by forbid above
            continue
        v = vals[k]
        if v > best + EPS:
            best = v
            ties = 1
            pick = k
        elif v >= best - EPS:
            ties += 1
            if rand_below(s, ties) == 0:
                pick = k
    return pick
