"""planner: searches whole turns, beam-pruned by the evaluation.

At the first decision of a turn the planner plays the turn out on lookahead copies
(core.players.lookahead: no hidden card is ever seen). Depth by depth, every option of every state
in the beam is scored the greedy way (core.players.greedy.score_options); options that end the turn
are finished plans, the best ``width`` others (equal positions reached in different orders
merged) are played and form the next beam. The best finished plan is stored and its steps
are played one by one while the game follows it (each step names the fingerprint of the
position it was planned from, so a plan is never followed from another position); anything
unexpected makes it plan again. Decisions with a single option are made by the game itself
and are never part of a plan.

A turn here ends before the refill, so a plan values its position as the opponent will
find it. With a learned model in the seat's row for the game's mode (core.players.learned),
finished plans are valued by the model instead; the beam is still pruned by the hand-set
evaluation, which is cheap to update option by option. Ties between equal plans go to the
one found first (options in the engine's order), so the planner draws no random numbers.

The leaf screen (``PP_LEAF_TOP`` N > 0, off by default): of a position's options that end
the turn, only the N best by the hand-set evaluation are valued at the turn's end (the
learned leaf, on a replay); the others are dropped as plans. Most of the seer's leaves are
an effect's targets, so this is a cheaper search, a different player (docs/players.md).
"""

from core.constants import MAX_OPTIONS
from core.jit import njit
from core.layout import COLOUR, CUR, GAME_OVER, STATE_SIZE
from core.players.endgame import may_end
from core.players.feature_names import N_FEATURES
from core.players.greedy import KEYS_ALL, KEYS_PENDING, ST_OVER, choose_greedy, score_options
from core.players.leaf import F_LEARN as LEAF_F_LEARN
from core.players.leaf import W_LEARN as LEAF_W_LEARN
from core.players.leaf import leaf
from core.players.learned import LEARN_SIZE, forget, has_model
from core.players.lookahead import advance_turn, begin, copy_row, state_key
from core.players.params import (
    PP_ENDGAME,
    PP_LEAF_TOP,
    PP_PLAN_WIDTH,
    PP_REPLY_PLANS,
    PP_REPLY_SAMPLES,
    PP_REPLY_WIDTH,
)
from core.players.reply import EPS, STEP, reply_world, win_share
from core.players.restrict import FORBIDDEN, NO_BAN, forbid, forbidden_kind
from core.players.weights import N_WEIGHTS
from core.rules.turn import apply_option

MAX_WIDTH = 32  # beam width limit (the buffers are sized for it)
MAX_DEPTH = 40  # decisions planned ahead within one turn
MAX_PLANS = 8  # finished plans kept for the reply-aware step (core.players.reply)
HEAP_MIN = 3 * MAX_WIDTH  # in the W_HEAP row: the full heap's lowest entry, -1 if unknown
BEAM_KEYS = 2 * MAX_WIDTH  # in the W_COUNTS row: the state_key of each scored beam state
# rows of ``work``: 0-4 belong to core.players.greedy / core.players.mc
W_HEAP = 5  # heap entries: parent, option, key (3 ints each), then HEAP_MIN
W_COUNTS = 6  # option counts of the beam states, then (from BEAM_KEYS) their keys
W_BEAM = 7  # 2 * MAX_WIDTH beam states (this depth, next depth)
W_PATH = W_BEAM + 2 * MAX_WIDTH  # 2 * MAX_WIDTH paths: [length, steps...]
# the best finished paths: MAX_PLANS of the turn's own search, then one of a reply's search
W_FINAL = W_PATH + 2 * MAX_WIDTH
W_FINAL_META = W_FINAL + MAX_PLANS + 1  # per kept path: its end position's key, when found
W_PLAN = W_FINAL_META + 1  # the plan being followed: [length, next step, steps...]
W_LEARN = W_PLAN + 1  # scratch of the learned value's features
W_REPLY = W_LEARN + 1  # the reply-aware step's copy of the game
WORK_ROWS = W_REPLY + 1
# option lists: wopts[0] and [1] belong to core.players.greedy / core.players.mc
O_BEAM = 2
O_REPLY = O_BEAM + 2 * MAX_WIDTH  # the options of the reply-aware step's copy
WOPTS_ROWS = O_REPLY + 1
# float rows of fwork: 0-4 belong to core.players.greedy
F_HEAP = 5
F_LEARN = F_HEAP + 1  # the learned value's feature vector
F_FINALS = F_LEARN + 1  # values of the kept paths (as W_FINAL)
F_REPLY = F_FINALS + 1  # the reply-aware step's totals per kept path
FWORK_ROWS = F_REPLY + 1
PLAN_OFFSET = 2  # steps of the W_PLAN row start after [length, next step]
MAX_LEAF_TOP = 32  # the leaf screen's limit (sim.player_kinds declares the setting's range)
ST_CHOSEN = 3  # a status of the leaf screen's own: a finished option that passed the screen
assert PLAN_OFFSET + MAX_DEPTH * STEP <= STATE_SIZE
assert 2 * (MAX_PLANS + 1) <= STATE_SIZE and HEAP_MIN < STATE_SIZE
assert BEAM_KEYS + MAX_WIDTH <= STATE_SIZE
assert MAX_OPTIONS >= MAX_WIDTH
assert MAX_OPTIONS >= N_FEATURES
assert W_LEARN == LEAF_W_LEARN and F_LEARN == LEAF_F_LEARN  # core.players.leaf reads them
assert LEARN_SIZE <= STATE_SIZE  # the learned value's int scratch is a work row


@njit(cache=True, _nrt=False)
def reset_plan(work):
    """Forget any plan (a new game starts)."""
    work[W_PLAN, 0] = 0
    work[W_PLAN, 1] = 0


@njit(cache=True, _nrt=False)
def _follow(s, opts, n, work):
    """The option index the stored plan prescribes here, or -1."""
    plan = work[W_PLAN]
    length = plan[0]
    if length == 0:
        return -1
    key = state_key(s)
    for i in range(plan[1], length):
        b = PLAN_OFFSET + i * STEP
        if plan[b] != key:
            continue
        for k in range(n):
            if (
                opts[k, 0] == plan[b + 1]
                and opts[k, 1] == plan[b + 2]
                and opts[k, 2] == plan[b + 3]
                and opts[k, 3] == plan[b + 4]
            ):
                plan[1] = i + 1
                return k
        return -1
    return -1


@njit(cache=True, _nrt=False)
def _extend(dst, src, key, row):
    """Path ``dst`` = path ``src`` plus one step (``key``, option ``row``)."""
    m = src[0]
    for i in range(1 + m * STEP):
        dst[i] = src[i]
    if m < MAX_DEPTH:
        b = 1 + m * STEP
        dst[b] = key
        dst[b + 1] = row[0]
        dst[b + 2] = row[1]
        dst[b + 3] = row[2]
        dst[b + 4] = row[3]
        dst[0] = m + 1


@njit(cache=True, _nrt=False)
def heap_offer(hv, hi, size, width, v, parent, k, key):
    """Keep the ``width`` best candidates (values ``hv``, ints ``hi``: parent, option, key);
    a candidate whose key is already kept replaces it only if better. Returns the size.
    A full heap's lowest entry (the first of equals) is kept in ``hi[HEAP_MIN]`` until an
    entry changes (start a heap with size 0 and ``hi[HEAP_MIN] = -1``); a candidate no
    better than it changes nothing, whether its key is kept or not, so the many candidates
    a full beam turns away cost one comparison."""
    if size == width:
        j = hi[HEAP_MIN]
        if j < 0:
            j = 0
            for i in range(1, size):
                if hv[i] < hv[j]:
                    j = i
            hi[HEAP_MIN] = j
        if v <= hv[j]:
            return size
    for j in range(size):
        if hi[3 * j + 2] == key:
            if v > hv[j]:
                hv[j] = v
                hi[3 * j] = parent
                hi[3 * j + 1] = k
                hi[HEAP_MIN] = -1
            return size
    if size < width:
        j = size
        size += 1
    else:
        j = hi[HEAP_MIN]  # found above, and nothing changed since
    hi[HEAP_MIN] = -1
    hv[j] = v
    hi[3 * j] = parent
    hi[3 * j + 1] = k
    hi[3 * j + 2] = key
    return size


@njit(cache=True, _nrt=False)
def _offer_final(work, fwork, slot0, keep, count, order, v, key, path, pkey, row):
    """Keep the ``keep`` best finished paths (rows W_FINAL + slot0 ...; values in F_FINALS,
    end keys and the order found in W_FINAL_META): ``path`` plus the step (``pkey``,
    ``row``) reaching a turn end of value ``v`` and key ``key``. A path ending where a kept
    one ends replaces it only if better; with ``keep`` 1 this is "the first best found".
    Returns the number kept."""
    vals = fwork[F_FINALS]
    meta = work[W_FINAL_META]
    for i in range(count):
        j = slot0 + i
        if meta[2 * j] == key:
            if v > vals[j]:
                vals[j] = v
                meta[2 * j + 1] = order
                _extend(work[W_FINAL + j], path, pkey, row)
            return count
    if count < keep:
        j = slot0 + count
        count += 1
    else:
        j = slot0
        for i in range(1, count):
            jj = slot0 + i
            if vals[jj] < vals[j] or (vals[jj] == vals[j] and meta[2 * jj + 1] > meta[2 * j + 1]):
                j = jj
        if v <= vals[j]:
            return count
    vals[j] = v
    meta[2 * j] = key
    meta[2 * j + 1] = order
    _extend(work[W_FINAL + j], path, pkey, row)
    return count


@njit(cache=True, _nrt=False)
def best_final(work, fwork, slot0, count):
    """The kept path of the best value, the first found among equals (-1 if none)."""
    vals = fwork[F_FINALS]
    meta = work[W_FINAL_META]
    best = -1
    for i in range(count):
        j = slot0 + i
        if best < 0 or vals[j] > vals[best]:
            best = j
        elif vals[j] == vals[best] and meta[2 * j + 1] < meta[2 * best + 1]:
            best = j
    return best - slot0 if best >= 0 else -1


@njit(cache=True, _nrt=False)
def leaf_screen(s, T, opts, n, vals, stat, top, seat, params, exact, work, wopts, ev0, fwork):
    """The leaf screen: of the options of ``s`` that end the turn (``stat`` ST_OVER, valued
    by the hand-set evaluation in ``vals``, not forbidden), the ``top`` best (the first
    found among equals) are replayed on a copy and valued at the turn's end
    (core.players.leaf); every other one's value becomes FORBIDDEN (never a plan). The
    options that do not end the turn are left as they are."""
    for _ in range(top):
        best = -1
        for k in range(n):
            if stat[k] == ST_OVER and vals[k] != FORBIDDEN:
                if best < 0 or vals[k] > vals[best]:
                    best = k
        if best < 0:
            break
        stat[best] = ST_CHOSEN
    c = work[0]
    for k in range(n):
        if stat[k] == ST_CHOSEN:
            begin(c, s)
            apply_option(c, T, ev0, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
            advance_turn(c, T, ev0, wopts[0], False)
            vals[k] = leaf(c, T, seat, params, exact, work, wopts, ev0, fwork)
            stat[k] = ST_OVER
        elif stat[k] == ST_OVER:
            vals[k] = FORBIDDEN


@njit(cache=True, _nrt=False)
def search(s, T, opts, n, params, work, wopts, ev0, fwork, width, banned, slot0, keep):
    """Search the rest of the turn of the seat to move in ``s`` (its ``n`` options listed in
    ``opts``) with a beam of ``width``; a restricted seat (``banned``: core.players.restrict
    forbidden_kind, NO_BAN for none) never plays what it forbids. Keeps the ``keep`` best
    finished paths from slot ``slot0`` on (``_offer_final``); returns how many were kept (0
    if no plan finished)."""
    w = params[:N_WEIGHTS]
    seat = s[CUR]
    learned = has_model(s, params)
    exact = params[PP_ENDGAME] != 0
    vals = fwork[1]
    stat = fwork[2]
    keys = fwork[3]
    hv = fwork[F_HEAP]
    hi = work[W_HEAP]
    count = 0
    order = 0
    # with one plan kept, a finished plan's end key decides nothing (_offer_final): not computed
    want_keys = KEYS_PENDING if keep == 1 else KEYS_ALL
    top = max(0, min(MAX_LEAF_TOP, int(params[PP_LEAF_TOP])))
    if learned:
        forget(work[W_LEARN])
    # the root: a lookahead copy of s with the game's option list
    cur = 0
    begin(work[W_BEAM], s)
    for k in range(n):
        for j in range(4):
            wopts[O_BEAM, k, j] = opts[k, j]
    counts = work[W_COUNTS]
    counts[0] = n
    work[W_PATH, 0] = 0
    nb = 1
    for _depth in range(MAX_DEPTH):
        size = 0
        hi[HEAP_MIN] = -1
        for b in range(nb):
            st = work[W_BEAM + cur * MAX_WIDTH + b]
            bo = wopts[O_BEAM + cur * MAX_WIDTH + b]
            bn = counts[cur * MAX_WIDTH + b]
            # a finished option is valued at the turn's end (core.players.leaf) where the value
            # needs it, on the copy the scoring has just played it on
            at_end = learned or (exact and may_end(st))
            screen = top > 0 and at_end
            score_options(
                st, T, bo, bn, w, seat, vals, stat, keys, want_keys, work, wopts, ev0, fwork,
                params, at_end and not screen, exact,
            )  # fmt: skip
            forbid(st, T, vals, stat, bo, bn, banned, ST_OVER)  # never wins, never grows
            if screen:
                leaf_screen(st, T, bo, bn, vals, stat, top, seat, params, exact, work, wopts,
                            ev0, fwork)  # fmt: skip
            path = work[W_PATH + cur * MAX_WIDTH + b]
            pkey = state_key(st)
            counts[BEAM_KEYS + b] = pkey  # for its children's paths below
            for k in range(bn):
                v = vals[k]
                if stat[k] == ST_OVER:
                    if v == FORBIDDEN:  # forbidden to a twin, or dropped by the leaf screen
                        continue
                    count = _offer_final(
                        work, fwork, slot0, keep, count, order, v, int(keys[k]), path, pkey, bo[k]
                    )
                    order += 1
                else:
                    size = heap_offer(hv, hi, size, width, v, b, k, int(keys[k]))
        if size == 0:
            break
        nxt = 1 - cur
        nb = 0
        for j in range(size):
            b = hi[3 * j]
            k = hi[3 * j + 1]
            src = work[W_BEAM + cur * MAX_WIDTH + b]
            bo = wopts[O_BEAM + cur * MAX_WIDTH + b]
            dst = work[W_BEAM + nxt * MAX_WIDTH + nb]
            dopts = wopts[O_BEAM + nxt * MAX_WIDTH + nb]
            copy_row(dst, src)
            apply_option(dst, T, ev0, bo[k, 0], bo[k, 1], bo[k, 2], bo[k, 3])
            m = advance_turn(dst, T, ev0, dopts, True)
            while m == 1:  # the game decides single options by itself
                apply_option(dst, T, ev0, dopts[0, 0], dopts[0, 1], dopts[0, 2], dopts[0, 3])
                m = advance_turn(dst, T, ev0, dopts, True)
            parent_path = work[W_PATH + cur * MAX_WIDTH + b]
            pkey = counts[BEAM_KEYS + b]
            if m == 0:
                v = leaf(dst, T, seat, params, exact, work, wopts, ev0, fwork)
                end_key = state_key(dst) if keep > 1 else 0  # unused with one plan kept
                count = _offer_final(
                    work, fwork, slot0, keep, count, order, v, end_key, parent_path, pkey,
                    bo[k],
                )  # fmt: skip
                order += 1
                continue
            _extend(work[W_PATH + nxt * MAX_WIDTH + nb], parent_path, pkey, bo[k])
            counts[nxt * MAX_WIDTH + nb] = m
            nb += 1
        cur = nxt
        if nb == 0:
            break
    return count


@njit(cache=True, _nrt=False)
def _plan(s, T, opts, n, params, work, wopts, ev0, fwork):
    """Search the rest of the turn from ``s``; store the best plan (with the reply-aware
    step on, the best of the few best plans against the opponent's reply); return its first
    option's index (-1 if no plan finished)."""
    width = max(1, min(MAX_WIDTH, int(params[PP_PLAN_WIDTH])))
    plans = max(1, min(MAX_PLANS, int(params[PP_REPLY_PLANS])))
    samples = int(params[PP_REPLY_SAMPLES])
    keep = plans if samples > 0 else 1
    banned = forbidden_kind(params)
    count = search(s, T, opts, n, params, work, wopts, ev0, fwork, width, banned, 0, keep)
    if count == 0:
        return -1
    pick = best_final(work, fwork, 0, count)
    if count > 1:
        pick = reply_step(s, T, params, work, wopts, ev0, fwork, count, samples, pick)
    final = work[W_FINAL + pick]
    plan = work[W_PLAN]
    plan[0] = final[0]
    plan[1] = 0
    for i in range(final[0] * STEP):
        plan[PLAN_OFFSET + i] = final[1 + i]
    return _follow(s, opts, n, work)


@njit(cache=True, _nrt=False)
def reply_step(s, T, params, work, wopts, ev0, fwork, count, samples, pick):
    """The reply-aware step: each of the ``count`` kept plans is played on ``samples``
    copies of the game in which everything hidden from the seat is sampled afresh
    (core.players.reply), the opponent then plays its best turn (this planner's search,
    beam ``PP_REPLY_WIDTH``, valued from its side), and the plan is worth the mean win
    probability the seat keeps after that reply (the mean value where the mode has no
    learned model). Returns the index of the best plan; ``pick`` (the plain search's
    choice) among equals."""
    seat = s[CUR]
    learned = has_model(s, params)
    rwidth = max(1, min(MAX_WIDTH, int(params[PP_REPLY_WIDTH])))
    key = state_key(s)
    total = fwork[F_REPLY]
    c = work[W_REPLY]
    copts = wopts[O_REPLY]
    for i in range(count):
        total[i] = 0.0
    for j in range(samples):
        for i in range(count):
            m = reply_world(s, T, work[W_FINAL + i], key, j, c, work[2], copts, ev0)
            if m < 0:  # the plan could not be played again (never expected): its own value
                v = fwork[F_FINALS, i]
            elif c[GAME_OVER] == 1:
                v = leaf(c, T, seat, params, False, work, wopts, ev0, fwork)
            else:
                mover = c[CUR]
                got = search(
                    c, T, copts, m, params, work, wopts, ev0, fwork, rwidth, NO_BAN, MAX_PLANS, 1
                )
                if got > 0:
                    r = fwork[F_FINALS, MAX_PLANS]
                else:
                    r = leaf(c, T, mover, params, False, work, wopts, ev0, fwork)
                v = r if c[COLOUR + mover] == c[COLOUR + seat] else -r
            total[i] += win_share(v) if learned else v
    best = pick
    for i in range(count):
        if total[i] > total[best] + EPS:
            best = i
    return best


@njit(cache=True, _nrt=False)
def choose_planner(s, T, opts, n, params, work, wopts, ev0, fwork):
    k = _follow(s, opts, n, work)
    if k < 0:
        k = _plan(s, T, opts, n, params, work, wopts, ev0, fwork)
    if k < 0:  # nothing finished within MAX_DEPTH decisions: one step the greedy way
        k = choose_greedy(s, T, opts, n, params, work, wopts, ev0, fwork)
    return k
