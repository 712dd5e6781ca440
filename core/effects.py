"""The effect interpreter: runs op programs (core.ops) one instruction at a time.

An instruction either happens by itself (gain an action, destroy all...) or needs a target.
Targets are option rows (OPT_TARGET a, b, alternative) so that the same policy interface
that picks actions picks effect choices. A part with no legal target is skipped ("do what
can be done"); an optional part adds an OPT_SKIP row; a single forced target is applied
without asking. Registers in the state (EFF_*) carry results between instructions.
"""

from core.cards import deck_base, q_push_top
from core.constants import (
    EV_EFFECT_PLACE,
    EV_GAIN_ACTION,
    EV_LOSE_ACTION,
    EV_MOVE,
    LEGENDARY,
    MODE_MELEE,
    OPT_SKIP,
    OPT_TARGET,
    SQ_GREEN,
    SQ_RED,
)
from core.effects_cards import (
    card_to_frozen,
    card_to_frozen_targets,
    discard_flare,
    discard_flare_targets,
)
from core.effects_mirror import mirror_apply, mirror_targets
from core.effects_nether import (
    card_to_bottom,
    gateway_candidate,
    legend_summoned,
    legend_summoned_targets,
    lose_own_action,
    possess,
    same_colour_ok,
)
from core.effects_select import cond_more, region_more, support_ok, within_45
from core.events import log_event
from core.gateway import follow_gateway, set_gateway
from core.gateway_select import cond2_holds, dest_gateway, region_gateway
from core.jit import njit
from core.layout import (
    ACTIONS_LEFT,
    BOARD,
    BORROW_ENEMY,
    COLOUR,
    CUR,
    DECK_CAP,
    DECK_CNT,
    DECK_HEAD,
    DISC,
    DISC_CAP,
    DISC_N,
    EFF_AFFECTED,
    EFF_AFFECTED_COLOURS,
    EFF_AFFECTED_N,
    EFF_BEING_MOVED,
    EFF_BEING_SQ,
    EFF_CHOICE,
    EFF_COMBAT_USED,
    EFF_DESTROYED_TOTAL,
    EFF_DIR,
    EFF_END,
    EFF_LAST_DESTROYED,
    EFF_LAST_DESTROYED_LEGEND,
    EFF_LAST_DONE,
    EFF_NEXT_END,
    EFF_NEXT_START,
    EFF_ORIENT,
    EFF_PC,
    EFF_PLACED_N,
    EFF_PLACED_OWNER,
    EFF_SEL_OWNER,
    EFF_SEL_RANK,
    EFF_SEL_SQ,
    EFF_SEL_WAS_RED,
    EFF_TARGET,
    EXTRA_DRAW_BEINGS,
    EXTRA_DRAW_LEGENDS,
    EXTRA_TURN,
    GATEWAY,
    MALUS,
    MAX_AFFECTED,
    MODE,
)
from core.modes import n_colours
from core.ops import (
    D_COLOURED,
    D_EMPTY,
    D_EMPTY_OR_HEROIC,
    D_GATE,
    D_MARKED,
    D_NEXT_TO_OWN,
    F_COUNT_TWICE,
    F_FAN,
    F_LAST_DIR,
    F_NO_COUNT,
    F_REMOVE,
    F_SAME_RANK,
    F_STOP_AT_LEGEND,
    I_ALTS,
    I_CHOICE,
    I_COND,
    I_COND2,
    I_DEST,
    I_DIST,
    I_EXCLUDE,
    I_FLAGS,
    I_MOVE_KIND,
    I_MOVE_TYPE,
    I_OP,
    I_OPTIONAL,
    I_PARAM,
    I_PARAM2,
    I_RANKS,
    I_REGION,
    I_REGION2,
    I_SUPPORT,
    I_WHO,
    MK_COMBAT,
    MK_COMBAT_ONCE,
    MK_STANDARD_IF_BEING,
    MT_CHARGE,
    MT_LEAP,
    MT_LEAP2,
    MT_ONTO_SEL,
    MT_SAME_DIR,
    MT_WITHIN_45,
    OP_BECOME_GATEWAY,
    OP_BORROW_ENEMY,
    OP_CARD_TO_BOTTOM,
    OP_CARD_TO_FROZEN,
    OP_CARD_TO_TOP,
    OP_CHOOSE,
    OP_CONVERT,
    OP_DESTROY,
    OP_DESTROY_ALL,
    OP_DISCARD_FLARE,
    OP_DOWNGRADE,
    OP_DRAW_EXTRA,
    OP_GAIN_ACTION,
    OP_GAIN_TURN,
    OP_LEGEND_SUMMONED,
    OP_LOSE_ACTION,
    OP_LOSE_OWN_ACTION,
    OP_MIRROR_PLACE,
    OP_MOVE,
    OP_PICK,
    OP_PLACE,
    OP_POSSESS,
    OP_SHOOT,
    OP_UPGRADE,
    P_BEING_MOVED,
    P_BEING_NOT_MOVED,
    P_CHOICE,
    P_COMBAT_UNUSED,
    P_DESTROYED,
    P_DESTROYED_2,
    P_DESTROYED_LEGEND,
    P_DONE,
    P_FULL_MOON,
    P_MORE,
    P_NOT_DESTROYED,
    P_NOT_DESTROYED_LEGEND,
    P_NOT_FULL_MOON,
    P_NOT_LAST_ACTION,
    P_ON_GREEN,
    P_ON_RED,
    P_PLACED,
    P_PLACED_2,
    P_RANK_COMMON,
    P_RANK_NON_LEGENDARY,
    P_SEL_ON_RED,
    R_ADJ,
    R_ADJ_GREEN,
    R_ADJ_OWN,
    R_ADJ_SEL,
    R_AFFECTED,
    R_ARROW_RAY,
    R_BEING,
    R_CONNECTED,
    R_DIAG,
    R_DIST,
    R_GATE,
    R_MARK2,
    R_MARKED,
    R_MORE,
    R_NEAR_GREEN,
    R_NEAR_RED,
    R_NEXT_TO_SAME_COLOUR,
    R_ORTHO,
    R_SEL,
    W_ENEMY,
    W_ENEMY_UNTOUCHED,
    W_MORE_COMMON,
    W_MORE_UPGRADED,
    W_PLACED_OWNER,
    W_SEL_OWNER,
    W_SELF,
    X_AFFECTED,
    X_BEING,
    X_GATEWAY,
)
from core.patterns import ARROW_BASE, MARK, MARK2
from core.pieces import (
    can_downgrade,
    can_upgrade,
    convert,
    destroy,
    downgrade,
    has_stock,
    put,
    remove_from_game,
    upgrade,
)

# ---------------------------------------------------------------------------------------------
# geometry helpers


@njit(cache=True, _nrt=False)
def _ref(s):
    """Reference square of regions: the being, or where it entered once it is gone."""
    b = s[EFF_BEING_SQ]
    return b if b >= 0 else s[EFF_TARGET]


@njit(cache=True, _nrt=False)
def _mark_at(s, T, q, kind):
    """Is ``q`` a mark of this kind in the orientation used for the summon?"""
    o = s[EFF_ORIENT]
    if o < 0:
        return False
    t = s[EFF_TARGET]
    for k in range(T.or_nmarks[o]):
        if T.or_marks[o, k, 2] != kind:
            continue
        r = t // 9 + T.or_marks[o, k, 0]
        c = t % 9 + T.or_marks[o, k, 1]
        if 0 <= r < 9 and 0 <= c < 9 and r * 9 + c == q:
            return True
    return False


@njit(cache=True, _nrt=False)
def _has_arrow(s, T, d):
    o = s[EFF_ORIENT]
    if o < 0:
        return False
    for k in range(T.or_nmarks[o]):
        if T.or_marks[o, k, 2] == ARROW_BASE + d:
            return True
    return False


@njit(cache=True, _nrt=False)
def _on_arrow_ray(s, T, q):
    ref = _ref(s)
    for d in range(8):
        if not _has_arrow(s, T, d):
            continue
        p = T.nbr[ref, d]
        while p >= 0:
            if p == q:
                return True
            p = T.nbr[p, d]
    return False


@njit(cache=True, _nrt=False)
def _next_to(s, T, q, colour):
    for d in range(8):
        p = T.nbr[q, d]
        if p >= 0 and T.sq_color[p] == colour:
            return True
    return False


@njit(cache=True, _nrt=False)
def _next_to_owner(s, T, q, seat, other_than):
    for d in range(8):
        p = T.nbr[q, d]
        if p >= 0 and p != other_than:
            code = s[BOARD + p]
            if code != 0 and (code >> 2) == seat:
                return True
    return False


@njit(cache=True, _nrt=False)
def _is_affected(s, q):
    for k in range(s[EFF_AFFECTED_N]):
        if s[EFF_AFFECTED + k] == q:
            return True
    return False


@njit(cache=True, _nrt=False)
def _next_to_affected(s, T, q):
    for k in range(s[EFF_AFFECTED_N]):
        a = s[EFF_AFFECTED + k]
        if a != q and T.dist[a, q] == 1:
            return True
    return False


@njit(cache=True, _nrt=False)
def _in_region(s, T, i, q, seat):
    """In the instruction's region union, not excluded, and in its and-region if any."""
    ex = T.ops[i, I_EXCLUDE]
    if (ex & X_BEING) and q == s[EFF_BEING_SQ]:
        return False
    if (ex & X_AFFECTED) and _is_affected(s, q):
        return False
    if (ex & X_GATEWAY) and q == s[GATEWAY + s[CUR]]:
        return False
    if not _in_union(s, T, i, q, seat, T.ops[i, I_REGION]):
        return False
    inc2 = T.ops[i, I_REGION2]
    return inc2 == 0 or _in_union(s, T, i, q, seat, inc2)


@njit(cache=True, _nrt=False)
def _in_union(s, T, i, q, seat, inc):
    if inc == 0:
        return True
    ref = _ref(s)
    d = T.dist[ref, q]
    if (inc & R_BEING) and q == s[EFF_BEING_SQ]:
        return True
    if (inc & R_MARKED) and _mark_at(s, T, q, MARK):
        return True
    if (inc & R_MARK2) and _mark_at(s, T, q, MARK2):
        return True
    if (inc & R_ADJ) and d == 1:
        return True
    if (inc & R_ORTHO) and d == 1 and (ref // 9 == q // 9 or ref % 9 == q % 9):
        return True
    if (inc & R_DIAG) and d == 1 and ref // 9 != q // 9 and ref % 9 != q % 9:
        return True
    if (inc & R_DIST) and 0 < d <= T.ops[i, I_DIST]:
        return True
    if (inc & R_ADJ_GREEN) and _next_to(s, T, q, SQ_GREEN):
        return True
    if (inc & R_NEAR_RED) and (T.sq_color[q] == SQ_RED or _next_to(s, T, q, SQ_RED)):
        return True
    if (inc & R_NEAR_GREEN) and (T.sq_color[q] == SQ_GREEN or _next_to(s, T, q, SQ_GREEN)):
        return True
    if (inc & R_ADJ_OWN) and _next_to_owner(s, T, q, seat, -1):
        return True
    sel = s[EFF_SEL_SQ]
    if (inc & R_SEL) and q == sel:
        return True
    if (inc & R_ADJ_SEL) and sel >= 0 and T.dist[sel, q] == 1:
        return True
    if (inc & R_AFFECTED) and _is_affected(s, q):
        return True
    if (inc & R_CONNECTED) and _next_to_affected(s, T, q):
        return True
    if (inc & R_ARROW_RAY) and _on_arrow_ray(s, T, q):
        return True
    if (inc & R_MORE) and region_more(s, T, inc, q, seat):
        return True
    if (inc & R_GATE) and region_gateway(s, T, inc, q):
        return True
    if inc & R_NEXT_TO_SAME_COLOUR:
        return True  # judged per placed colour by same_colour_ok (alone in its region)
    return False


# ---------------------------------------------------------------------------------------------
# selectors


@njit(cache=True, _nrt=False)
def _count(s, T, seat, rank_min, rank_max):
    n = 0
    for k in range(T.onboard.shape[0]):
        code = s[BOARD + T.onboard[k]]
        if code != 0 and (code >> 2) == seat and rank_min <= (code & 3) <= rank_max:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def _who_ok(s, T, i, owner, seat):
    who = T.ops[i, I_WHO]
    if who == W_SELF:
        return owner == seat
    if owner == seat and who != 0 and who != W_SEL_OWNER:
        return False
    if who == W_ENEMY:
        return True
    if who == W_SEL_OWNER:
        return owner == s[EFF_SEL_OWNER]
    if who == W_MORE_COMMON:
        return _count(s, T, owner, 1, 1) > _count(s, T, seat, 1, 1)
    if who == W_MORE_UPGRADED:
        return _count(s, T, owner, 2, 3) > _count(s, T, seat, 2, 3)
    if who == W_PLACED_OWNER:
        k = T.ops[i, I_PARAM2]
        return k < s[EFF_PLACED_N] and owner == s[EFF_PLACED_OWNER + k]
    if who == W_ENEMY_UNTOUCHED:
        return (s[EFF_AFFECTED_COLOURS] & (1 << owner)) == 0
    return True  # W_ANY


@njit(cache=True, _nrt=False)
def _selected(s, T, i, q, seat):
    """Does the piece on ``q`` match the instruction's owner / rank / region selector?"""
    code = s[BOARD + q]
    if code == 0:
        return False
    r = code & 3
    if ((1 << r) & T.ops[i, I_RANKS]) == 0:
        return False
    if (T.ops[i, I_FLAGS] & F_SAME_RANK) and r != s[EFF_SEL_RANK]:
        return False
    if not _who_ok(s, T, i, code >> 2, seat):
        return False
    if T.ops[i, I_SUPPORT] != 0 and not support_ok(s, T, i, q, seat):
        return False
    return _in_region(s, T, i, q, seat)


# ---------------------------------------------------------------------------------------------
# moves


@njit(cache=True, _nrt=False)
def _is_combat(s, T, i, q):
    kind = T.ops[i, I_MOVE_KIND]
    if kind == MK_COMBAT_ONCE:
        return s[EFF_COMBAT_USED] == 0
    if kind == MK_STANDARD_IF_BEING:
        return q != s[EFF_BEING_SQ]
    return kind == MK_COMBAT


@njit(cache=True, _nrt=False)
def _can_enter(s, dest, mover_rank, combat):
    code = s[BOARD + dest]
    if code == 0:
        return True
    if combat:
        return (code & 3) <= mover_rank
    return (code & 3) < mover_rank


@njit(cache=True, _nrt=False)
def _dest_ok(s, T, i, q, d, seat):
    dm = T.ops[i, I_DEST]
    if dm == 0:
        return True
    code = s[BOARD + d]
    if (dm & D_EMPTY) and code != 0:
        return False
    if (dm & D_EMPTY_OR_HEROIC) and code != 0 and (code & 3) != 2:
        return False
    if (dm & D_NEXT_TO_OWN) and not _next_to_owner(s, T, d, seat, q):
        return False
    if (dm & D_COLOURED) and T.sq_color[d] <= 0:
        return False
    if (dm & D_MARKED) and not _mark_at(s, T, d, MARK):
        return False
    if (dm & D_GATE) and not dest_gateway(s, T, dm, q, d):
        return False
    return True


@njit(cache=True, _nrt=False)
def _full(opts, n):
    """The option buffer is full (``_emit`` would drop further targets): listing stops. A
    player's lookahead passes a three-row buffer to learn only whether a step has zero, one
    or several targets (core.lookahead)."""
    return n >= opts.shape[0] - 1


@njit(cache=True, _nrt=False)
def _emit(opts, n, a, b, alt):
    if n < opts.shape[0] - 1:  # keep one row free for a skip option
        opts[n, 0] = OPT_TARGET
        opts[n, 1] = a
        opts[n, 2] = b
        opts[n, 3] = alt
        return n + 1
    return n


@njit(cache=True, _nrt=False)
def _move_targets(s, T, i, q, seat, opts, n, alt):
    r = s[BOARD + q] & 3
    combat = _is_combat(s, T, i, q)
    mt = T.ops[i, I_MOVE_TYPE]
    if mt == MT_CHARGE:
        stop_leg = (T.ops[i, I_FLAGS] & F_STOP_AT_LEGEND) != 0
        for dd in range(8):
            p = T.nbr[q, dd]
            while p >= 0 and _can_enter(s, p, r, combat):
                if _dest_ok(s, T, i, q, p, seat):
                    n = _emit(opts, n, q, p, alt)
                if stop_leg and (s[BOARD + p] & 3) == LEGENDARY:
                    break
                p = T.nbr[p, dd]
        return n
    if mt == MT_LEAP or mt == MT_LEAP2:
        for m in range(T.onboard.shape[0]):
            d = T.onboard[m]
            if d == q or (mt == MT_LEAP2 and T.dist[q, d] != 2):
                continue
            if _can_enter(s, d, r, combat) and _dest_ok(s, T, i, q, d, seat):
                n = _emit(opts, n, q, d, alt)
        return n
    if mt == MT_ONTO_SEL:
        d = s[EFF_SEL_SQ]
        if d >= 0 and d != q and _can_enter(s, d, r, combat) and _dest_ok(s, T, i, q, d, seat):
            n = _emit(opts, n, q, d, alt)
        return n
    for dd in range(8):
        if mt == MT_SAME_DIR and dd != s[EFF_DIR]:
            continue
        if mt == MT_WITHIN_45 and not within_45(dd, s[EFF_DIR]):
            continue
        d = T.nbr[q, dd]
        if d >= 0 and _can_enter(s, d, r, combat) and _dest_ok(s, T, i, q, d, seat):
            n = _emit(opts, n, q, d, alt)
    return n


@njit(cache=True, _nrt=False)
def _direction(T, a, b):
    """Direction index from a towards b if they are on one line, else -1."""
    dr = b // 9 - a // 9
    dc = b % 9 - a % 9
    if dr != 0 and dc != 0 and abs(dr) != abs(dc):
        return -1
    sr = 1 if dr > 0 else (-1 if dr < 0 else 0)
    sc = 1 if dc > 0 else (-1 if dc < 0 else 0)
    for d in range(8):
        p = T.nbr[a, d]
        if p >= 0 and p // 9 - a // 9 == sr and p % 9 - a % 9 == sc:
            return d
    return -1


# ---------------------------------------------------------------------------------------------
# shots


@njit(cache=True, _nrt=False)
def _shoot_line(s, T, ev, i, d, seat, dry):
    """Walk from the being along ``d``; destroy (unless ``dry``) what the shot hits."""
    kill = T.ops[i, I_RANKS]
    block = T.ops[i, I_PARAM2]
    limit = T.ops[i, I_PARAM]
    rng = T.ops[i, I_DIST]
    hits = 0
    p = T.nbr[_ref(s), d]
    steps = 1
    while p >= 0 and (rng == 0 or steps <= rng):
        code = s[BOARD + p]
        if code != 0:
            bit = 1 << (code & 3)
            if bit & kill:
                hits += 1
                if not dry:
                    _kill(s, ev, p, seat, _weight(T, i))
                if limit > 0 and hits >= limit:
                    break
            elif bit & block:
                break
        p = T.nbr[p, d]
        steps += 1
    return hits


@njit(cache=True, _nrt=False)
def _shoot(s, T, ev, i, d, seat, dry):
    hits = _shoot_line(s, T, ev, i, d, seat, dry)
    if T.ops[i, I_FLAGS] & F_FAN:
        hits += _shoot_line(s, T, ev, i, (d + 1) % 8, seat, dry)
        hits += _shoot_line(s, T, ev, i, (d + 7) % 8, seat, dry)
    return hits


# ---------------------------------------------------------------------------------------------
# targets


@njit(cache=True, _nrt=False)
def instruction_targets(s, T, ev, i, opts, n, alt):
    """Append the legal targets of instruction ``i`` (not OP_CHOOSE) to ``opts``."""
    seat = s[COLOUR + s[CUR]]  # pieces belong to colours (teammates share one)
    op = T.ops[i, I_OP]
    onb = T.onboard
    if op == OP_PLACE:
        rank = T.ops[i, I_PARAM]
        for owner in range(n_colours(s)):
            if not _who_ok(s, T, i, owner, seat) or not has_stock(s, owner, rank):
                continue
            for k in range(onb.shape[0]):
                q = onb[k]
                if (
                    s[BOARD + q] == 0
                    and _in_region(s, T, i, q, seat)
                    and same_colour_ok(s, T, i, q, owner)
                ):
                    n = _emit(opts, n, q, owner, alt)
                    if _full(opts, n):
                        return n
    elif op == OP_MOVE:
        for k in range(onb.shape[0]):
            q = onb[k]
            if _selected(s, T, i, q, seat):
                n = _move_targets(s, T, i, q, seat, opts, n, alt)
                if _full(opts, n):
                    return n
    elif op == OP_SHOOT:
        if T.ops[i, I_FLAGS] & F_LAST_DIR:
            d = s[EFF_DIR]
            if d >= 0 and _shoot(s, T, ev, i, d, seat, True) > 0:
                n = _emit(opts, n, d, -1, alt)
        else:
            # a compulsory shot may take any arrow whose square is on the board, even one
            # that destroys nothing (Fire Dragon: BGA offers every arrow square); an optional
            # shot offers only directions that destroy something (else it is a skip)
            free = T.ops[i, I_OPTIONAL] == 0
            ref = _ref(s)
            for d in range(8):
                if not _has_arrow(s, T, d):
                    continue
                if free and T.nbr[ref, d] >= 0:
                    n = _emit(opts, n, d, -1, alt)
                elif not free and _shoot(s, T, ev, i, d, seat, True) > 0:
                    n = _emit(opts, n, d, -1, alt)
                    if _full(opts, n):
                        return n
    elif op == OP_PICK:
        for k in range(T.ops[i, I_PARAM]):
            n = _emit(opts, n, k, -1, alt)
    elif op == OP_CARD_TO_TOP:
        for k in range(s[DISC_N + s[CUR]]):
            n = _emit(opts, n, k, -1, alt)
    elif op == OP_MIRROR_PLACE:
        n = mirror_targets(s, T, i, seat, opts, n, alt)
    elif op == OP_CARD_TO_FROZEN:
        n = card_to_frozen_targets(s, T, opts, n, alt)
    elif op == OP_DISCARD_FLARE:
        n = discard_flare_targets(s, T, opts, n, alt)
    elif op == OP_LEGEND_SUMMONED:
        n = legend_summoned_targets(s, opts, n, alt)
    else:
        for k in range(onb.shape[0]):
            q = onb[k]
            if not _selected(s, T, i, q, seat):
                continue
            ok = True
            if op == OP_UPGRADE:
                ok = can_upgrade(s, q)
            elif op == OP_DOWNGRADE:
                ok = can_downgrade(s, q)
            elif op == OP_CONVERT:
                code = s[BOARD + q]
                r = T.ops[i, I_PARAM] if T.ops[i, I_PARAM] > 0 else code & 3
                ok = (code >> 2) != seat and has_stock(s, seat, r)
            elif op == OP_BECOME_GATEWAY:
                ok = gateway_candidate(s, q, seat)
            if ok:
                n = _emit(opts, n, q, -1, alt)
                if _full(opts, n):
                    return n
    return n


@njit(cache=True, _nrt=False)
def step_targets(s, T, ev, pc, opts):
    """Options for the instruction at ``pc`` (a choice block unions its alternatives)."""
    n = 0
    if T.ops[pc, I_OP] == OP_CHOOSE:
        for a in range(T.ops[pc, I_ALTS]):
            if _full(opts, n):
                break
            n = instruction_targets(s, T, ev, pc + 1 + a, opts, n, a)
    else:
        n = instruction_targets(s, T, ev, pc, opts, n, -1)
    return n


# ---------------------------------------------------------------------------------------------
# carrying instructions out


@njit(cache=True, _nrt=False)
def _weight(T, i):
    """Destroyed pieces an enemy victim of instruction ``i`` counts for (0, 1 or 2)."""
    f = T.ops[i, I_FLAGS]
    if f & F_NO_COUNT:
        return 0
    return 2 if f & F_COUNT_TWICE else 1


@njit(cache=True, _nrt=False)
def _kill(s, ev, q, seat, counts):
    code = destroy(s, ev, q, seat, counts)
    if code != 0:
        s[EFF_DESTROYED_TOTAL] += 1
        s[EFF_LAST_DESTROYED] += 1
        if (code & 3) == LEGENDARY:
            s[EFF_LAST_DESTROYED_LEGEND] += 1
    if q == s[EFF_BEING_SQ]:
        s[EFF_BEING_SQ] = -1
    return code


@njit(cache=True, _nrt=False)
def _touch(s, q):
    """Remember a square (and its piece's colour) as affected by this effect."""
    n = s[EFF_AFFECTED_N]
    if n < MAX_AFFECTED:
        s[EFF_AFFECTED + n] = q
        s[EFF_AFFECTED_N] = n + 1
    code = s[BOARD + q]
    if code != 0:
        s[EFF_AFFECTED_COLOURS] |= 1 << (code >> 2)


@njit(cache=True, _nrt=False)
def _select(s, T, q):
    code = s[BOARD + q]
    s[EFF_SEL_SQ] = q
    s[EFF_SEL_RANK] = code & 3
    s[EFF_SEL_OWNER] = code >> 2
    s[EFF_SEL_WAS_RED] = 1 if T.sq_color[q] == SQ_RED else 0


@njit(cache=True, _nrt=False)
def _do_move(s, T, ev, i, a, b, seat):
    mover = s[BOARD + a]
    counts = _weight(T, i)
    d = _direction(T, a, b)
    if T.ops[i, I_MOVE_TYPE] == MT_CHARGE and d >= 0:
        p = T.nbr[a, d]
        while p >= 0 and p != b:  # pieces passed on the way are destroyed
            if s[BOARD + p] != 0:
                _kill(s, ev, p, seat, counts)
            p = T.nbr[p, d]
    victim = s[BOARD + b]
    if victim != 0:
        _kill(s, ev, b, seat, counts)
        if (victim & 3) == (mover & 3):
            s[EFF_COMBAT_USED] = 1
    s[BOARD + a] = 0
    s[BOARD + b] = mover
    follow_gateway(s, a, b)
    log_event(s, ev, EV_MOVE, s[CUR], a, b, mover)
    if s[EFF_BEING_SQ] == a:
        s[EFF_BEING_SQ] = b
        s[EFF_BEING_MOVED] = 1
    s[EFF_DIR] = d if T.dist[a, b] == 1 or T.ops[i, I_MOVE_TYPE] == MT_CHARGE else -1


@njit(cache=True, _nrt=False)
def apply_instruction(s, T, ev, i, a, b):
    """Carry out instruction ``i`` on target (a, b); sets the result registers."""
    seat = s[COLOUR + s[CUR]]
    op = T.ops[i, I_OP]
    s[EFF_LAST_DESTROYED] = 0
    s[EFF_LAST_DESTROYED_LEGEND] = 0
    counts = _weight(T, i)
    if op == OP_PLACE:
        put(s, a, b, T.ops[i, I_PARAM])
        log_event(s, ev, EV_EFFECT_PLACE, s[CUR], a, s[BOARD + a], 0)
        if s[EFF_PLACED_N] < 2:
            s[EFF_PLACED_OWNER + s[EFF_PLACED_N]] = b
        s[EFF_PLACED_N] += 1
        _select(s, T, a)
        _touch(s, a)
    elif op == OP_MOVE:
        _select(s, T, a)
        _do_move(s, T, ev, i, a, b, seat)
        s[EFF_SEL_SQ] = b
        _touch(s, b)
    elif op == OP_SHOOT:
        _shoot(s, T, ev, i, a, seat, False)
    elif op == OP_PICK:
        s[EFF_CHOICE] = a
    elif op == OP_CARD_TO_TOP:
        _card_to_top(s, s[CUR], a)
    elif op == OP_MIRROR_PLACE:
        mirror_apply(s, T, ev, a, b, seat)
    elif op == OP_CARD_TO_FROZEN:
        card_to_frozen(s, ev, a)
    elif op == OP_DISCARD_FLARE:
        discard_flare(s, T, ev, a)
    elif op == OP_LEGEND_SUMMONED:
        legend_summoned(s, ev, a)
    else:
        _select(s, T, a)
        _touch(s, a)
        if op == OP_UPGRADE:
            upgrade(s, ev, a, seat)
        elif op == OP_DOWNGRADE:
            downgrade(s, ev, a, seat)
        elif op == OP_CONVERT:
            r = T.ops[i, I_PARAM]
            convert(s, ev, a, seat, r if r > 0 else s[BOARD + a] & 3)
            s[EFF_LAST_DESTROYED] = 1
        elif op == OP_DESTROY:
            code = _kill(s, ev, a, seat, counts)
            if code != 0 and (T.ops[i, I_FLAGS] & F_REMOVE):
                remove_from_game(s, ev, a, code)
        elif op == OP_BECOME_GATEWAY:
            set_gateway(s, ev, s[CUR], a)
    s[EFF_LAST_DONE] = 1


@njit(cache=True, _nrt=False)
def _card_to_top(s, seat, k):
    """Kiskin Spirit: card number ``k`` of the discard pile goes on top of the deck."""
    base = DISC + seat * DISC_CAP
    n = s[DISC_N + seat]
    card = s[base + k]
    for j in range(k, n - 1):
        s[base + j] = s[base + j + 1]
    s[DISC_N + seat] = n - 1
    q_push_top(s, deck_base(seat), DECK_CAP, DECK_HEAD + seat, DECK_CNT + seat, card)


@njit(cache=True, _nrt=False)
def _run_automatic(s, T, ev, i):
    """Instructions without a choice. Returns False if ``i`` needs a target instead."""
    op = T.ops[i, I_OP]
    seat = s[COLOUR + s[CUR]]
    if op == OP_GAIN_ACTION:
        s[ACTIONS_LEFT] += T.ops[i, I_PARAM]
        log_event(s, ev, EV_GAIN_ACTION, s[CUR], T.ops[i, I_PARAM], 0, 0)
    elif op == OP_GAIN_TURN:
        s[EXTRA_TURN] = 1
    elif op == OP_DRAW_EXTRA:
        s[EXTRA_DRAW_BEINGS] += T.ops[i, I_PARAM]
        s[EXTRA_DRAW_LEGENDS] += T.ops[i, I_PARAM2]
    elif op == OP_BORROW_ENEMY:
        # one enemy piece, not cumulative (BGA gainBonusImprovisation sets the bonus to 1)
        s[BORROW_ENEMY] = 1
    elif op == OP_LOSE_ACTION:
        s[MALUS + s[CUR]] = 1
        log_event(s, ev, EV_LOSE_ACTION, s[CUR], 0, 0, 0)
    elif op == OP_LEGEND_SUMMONED and s[MODE] != MODE_MELEE:
        legend_summoned(s, ev, 0)
    elif op == OP_LOSE_OWN_ACTION:
        lose_own_action(s, ev)
    elif op == OP_CARD_TO_BOTTOM:
        card_to_bottom(s, T, ev)
    elif op == OP_POSSESS:
        possess(s, ev)
    elif op == OP_CARD_TO_TOP and s[DISC_N + s[CUR]] == 0:
        pass  # an empty discard pile counts as done (the extra draw still happens)
    elif op == OP_DESTROY_ALL:
        s[EFF_LAST_DESTROYED] = 0
        s[EFF_LAST_DESTROYED_LEGEND] = 0
        counts = _weight(T, i)
        for k in range(T.onboard.shape[0]):
            q = T.onboard[k]
            if _selected(s, T, i, q, seat):
                _kill(s, ev, q, seat, counts)
    else:
        return False
    s[EFF_LAST_DONE] = 1
    return True


@njit(cache=True, _nrt=False)
def _width(T, pc):
    """Rows taken by the step at ``pc`` (a choice block includes its alternatives)."""
    if T.ops[pc, I_OP] == OP_CHOOSE:
        return 1 + T.ops[pc, I_ALTS]
    return 1


@njit(cache=True, _nrt=False)
def _full_moon(s, T):
    t = s[EFF_TARGET]
    c = T.sq_color[t]
    return c == SQ_GREEN or (c == SQ_RED and T.sq_central[t] == 0)


@njit(cache=True, _nrt=False)
def cond_holds(s, T, pc):
    c2 = T.ops[pc, I_COND2]
    if c2 != 0 and not cond2_holds(s, T, c2):
        return False
    c = T.ops[pc, I_COND]
    if c == 0:
        return True
    t = s[EFF_TARGET]
    if (c & P_DONE) and s[EFF_LAST_DONE] != 1:
        return False
    if (c & P_DESTROYED) and s[EFF_LAST_DESTROYED] < 1:
        return False
    if (c & P_NOT_DESTROYED) and s[EFF_LAST_DESTROYED] > 0:
        return False
    if (c & P_DESTROYED_2) and s[EFF_LAST_DESTROYED] < 2:
        return False
    if (c & P_DESTROYED_LEGEND) and s[EFF_LAST_DESTROYED_LEGEND] < 1:
        return False
    if (c & P_NOT_DESTROYED_LEGEND) and s[EFF_LAST_DESTROYED_LEGEND] > 0:
        return False
    if (c & P_NOT_LAST_ACTION) and s[ACTIONS_LEFT] <= 0:
        return False
    if (c & P_ON_GREEN) and (t < 0 or T.sq_color[t] != SQ_GREEN):
        return False
    if (c & P_ON_RED) and (t < 0 or T.sq_color[t] != SQ_RED):
        return False
    if (c & P_FULL_MOON) and not _full_moon(s, T):
        return False
    if (c & P_NOT_FULL_MOON) and _full_moon(s, T):
        return False
    if (c & P_BEING_MOVED) and s[EFF_BEING_MOVED] == 0:
        return False
    if (c & P_BEING_NOT_MOVED) and s[EFF_BEING_MOVED] == 1:
        return False
    if (c & P_RANK_COMMON) and s[EFF_SEL_RANK] != 1:
        return False
    if (c & P_RANK_NON_LEGENDARY) and s[EFF_SEL_RANK] == LEGENDARY:
        return False
    if (c & P_SEL_ON_RED) and s[EFF_SEL_WAS_RED] == 0:
        return False
    if (c & P_CHOICE) and s[EFF_CHOICE] != T.ops[pc, I_CHOICE]:
        return False
    if (c & P_COMBAT_UNUSED) and s[EFF_COMBAT_USED] == 1:
        return False
    if (c & P_PLACED) and s[EFF_PLACED_N] < 1:
        return False
    if (c & P_PLACED_2) and s[EFF_PLACED_N] < 2:
        return False
    if (c & P_MORE) and not cond_more(s, T, c):
        return False
    return True


@njit(cache=True, _nrt=False)
def apply_target(s, T, ev, a, b, alt):
    """The pending step's target was chosen: carry it out and move past the step."""
    pc = s[EFF_PC]
    if alt >= 0:
        apply_instruction(s, T, ev, pc + 1 + alt, a, b)
        s[EFF_CHOICE] = alt
    else:
        apply_instruction(s, T, ev, pc, a, b)
    s[EFF_PC] = pc + _width(T, pc)


@njit(cache=True, _nrt=False)
def skip_step(s, T):
    """The step ran but did nothing (declined, or no legal target)."""
    pc = s[EFF_PC]
    s[EFF_LAST_DONE] = 0
    s[EFF_LAST_DESTROYED] = 0
    s[EFF_LAST_DESTROYED_LEGEND] = 0
    s[EFF_PC] = pc + _width(T, pc)


@njit(cache=True, _nrt=False)
def run_effect(s, T, ev, opts):
    """Run instructions until one needs a decision (returns its option count, options in
    ``opts``) or the program ends (returns 0)."""
    while True:
        pc = s[EFF_PC]
        if pc >= s[EFF_END]:
            if s[EFF_NEXT_START] >= 0:
                s[EFF_PC] = s[EFF_NEXT_START]
                s[EFF_END] = s[EFF_NEXT_END]
                s[EFF_NEXT_START] = -1
                s[EFF_NEXT_END] = -1
                s[EFF_LAST_DONE] = 1
                continue
            return 0
        if not cond_holds(s, T, pc):
            s[EFF_PC] = pc + _width(T, pc)  # transparent: no register changes
            continue
        if _run_automatic(s, T, ev, pc):
            s[EFF_PC] = pc + 1
            continue
        n = step_targets(s, T, ev, pc, opts)
        if n == 0:
            skip_step(s, T)
            continue
        if T.ops[pc, I_OPTIONAL] == 1:
            opts[n, 0] = OPT_SKIP
            opts[n, 1] = -1
            opts[n, 2] = -1
            opts[n, 3] = -1
            n += 1
        elif n == 1:
            apply_target(s, T, ev, opts[0, 1], opts[0, 2], opts[0, 3])
            continue
        return n
