"""The effect interpreter: runs op programs (core.ops) one instruction at a time.

An instruction either happens by itself (gain an action) or needs a target. Targets are
written as option rows (OPT_TARGET sq, sq2, alternative) so that the same policy interface
that picks actions picks effect choices. A part with no legal target is skipped ("do what
can be done"); an optional part adds an OPT_SKIP row. A single forced target is applied
without asking. Registers in the state (EFF_*) carry results between instructions.
"""

from numba import njit

from core.constants import EV_EFFECT_PLACE, EV_GAIN_ACTION, EV_MOVE, OPT_SKIP, OPT_TARGET
from core.events import log_event
from core.layout import (
    ACTIONS_LEFT,
    BOARD,
    CUR,
    EFF_BEING_SQ,
    EFF_END,
    EFF_LAST_DESTROYED,
    EFF_LAST_DONE,
    EFF_LAST_EQUAL,
    EFF_NEXT_END,
    EFF_NEXT_START,
    EFF_PC,
    EFF_SEL_SQ,
)
from core.ops import (
    C_DONE,
    C_DONE_NOT_EQUAL,
    I_ALTS,
    I_COND,
    I_MOVE_KIND,
    I_MOVE_TYPE,
    I_OP,
    I_OPTIONAL,
    I_PARAM,
    I_RANKS,
    I_REGION,
    I_WHO,
    MK_COMBAT,
    MK_COMBAT_IF_PREV_NOT_EQUAL,
    MT_LEAP,
    OP_CHOOSE,
    OP_CONVERT,
    OP_DESTROY,
    OP_DOWNGRADE,
    OP_GAIN_ACTION,
    OP_MOVE,
    OP_PLACE,
    OP_UPGRADE,
    RG_ANYWHERE,
    W_ENEMY,
    W_SELF,
)
from core.pieces import (
    can_convert,
    can_downgrade,
    can_upgrade,
    convert,
    destroy,
    downgrade,
    has_stock,
    put,
    upgrade,
)


@njit(cache=True, inline="always")
def _emit(opts, n, a, b, alt):
    if n < opts.shape[0] - 1:  # keep one row free for a skip option
        opts[n, 0] = OPT_TARGET
        opts[n, 1] = a
        opts[n, 2] = b
        opts[n, 3] = alt
        return n + 1
    return n


@njit(cache=True, inline="always")
def _in_region(s, T, i, sq):
    region = T.ops[i, I_REGION]
    if region == RG_ANYWHERE:
        return True
    return False


@njit(cache=True, inline="always")
def _selected(s, T, i, sq, seat):
    """Does the piece on ``sq`` match the instruction's owner / rank / region selector?"""
    code = s[BOARD + sq]
    if code == 0:
        return False
    who = T.ops[i, I_WHO]
    if who == W_SELF and (code >> 2) != seat:
        return False
    if who == W_ENEMY and (code >> 2) == seat:
        return False
    if ((1 << (code & 3)) & T.ops[i, I_RANKS]) == 0:
        return False
    return _in_region(s, T, i, sq)


@njit(cache=True, inline="always")
def _move_is_combat(s, T, i):
    kind = T.ops[i, I_MOVE_KIND]
    if kind == MK_COMBAT_IF_PREV_NOT_EQUAL:
        return s[EFF_LAST_EQUAL] == 0
    return kind == MK_COMBAT


@njit(cache=True, inline="always")
def _can_enter(s, dest, mover_rank, combat):
    code = s[BOARD + dest]
    if code == 0:
        return True
    if combat:
        return (code & 3) <= mover_rank
    return (code & 3) < mover_rank


@njit(cache=True)
def instruction_targets(s, T, i, opts, n, alt):
    """Append the legal targets of instruction ``i`` (not OP_CHOOSE) to ``opts``."""
    seat = s[CUR]
    op = T.ops[i, I_OP]
    onb = T.onboard
    if op == OP_PLACE:
        if not has_stock(s, seat, T.ops[i, I_PARAM]):
            return n
        for k in range(onb.shape[0]):
            q = onb[k]
            if s[BOARD + q] == 0 and _in_region(s, T, i, q):
                n = _emit(opts, n, q, -1, alt)
    elif op == OP_MOVE:
        combat = _move_is_combat(s, T, i)
        leap = T.ops[i, I_MOVE_TYPE] == MT_LEAP
        for k in range(onb.shape[0]):
            q = onb[k]
            if not _selected(s, T, i, q, seat):
                continue
            r = s[BOARD + q] & 3
            if leap:
                for m in range(onb.shape[0]):
                    d = onb[m]
                    if d != q and _can_enter(s, d, r, combat):
                        n = _emit(opts, n, q, d, alt)
            else:
                for dd in range(8):
                    d = T.nbr[q, dd]
                    if d >= 0 and _can_enter(s, d, r, combat):
                        n = _emit(opts, n, q, d, alt)
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
                ok = can_convert(s, q, seat)
            if ok:
                n = _emit(opts, n, q, -1, alt)
    return n


@njit(cache=True)
def step_targets(s, T, pc, opts):
    """Options for the instruction at ``pc`` (a choice block unions its alternatives)."""
    n = 0
    if T.ops[pc, I_OP] == OP_CHOOSE:
        for a in range(T.ops[pc, I_ALTS]):
            n = instruction_targets(s, T, pc + 1 + a, opts, n, a)
    else:
        n = instruction_targets(s, T, pc, opts, n, -1)
    return n


@njit(cache=True)
def apply_instruction(s, T, ev, i, a, b):
    """Carry out instruction ``i`` on target (a, b); sets the result registers."""
    seat = s[CUR]
    op = T.ops[i, I_OP]
    s[EFF_LAST_EQUAL] = 0
    s[EFF_LAST_DESTROYED] = 0
    if op == OP_PLACE:
        put(s, a, seat, T.ops[i, I_PARAM])
        log_event(s, ev, EV_EFFECT_PLACE, seat, a, s[BOARD + a], 0)
    elif op == OP_MOVE:
        mover = s[BOARD + a]
        victim = s[BOARD + b]
        if victim != 0:
            destroy(s, ev, b, seat, 1)
            s[EFF_LAST_DESTROYED] = 1
            if (victim & 3) == (mover & 3):
                s[EFF_LAST_EQUAL] = 1
        s[BOARD + a] = 0
        s[BOARD + b] = mover
        log_event(s, ev, EV_MOVE, seat, a, b, mover)
        if s[EFF_BEING_SQ] == a:
            s[EFF_BEING_SQ] = b
        a = b
    elif op == OP_UPGRADE:
        upgrade(s, ev, a, seat)
    elif op == OP_DOWNGRADE:
        downgrade(s, ev, a, seat)
    elif op == OP_CONVERT:
        convert(s, ev, a, seat)
        s[EFF_LAST_DESTROYED] = 1
    elif op == OP_DESTROY:
        destroy(s, ev, a, seat, 1)
        s[EFF_LAST_DESTROYED] = 1
        if s[EFF_BEING_SQ] == a:
            s[EFF_BEING_SQ] = -1
    s[EFF_SEL_SQ] = a
    s[EFF_LAST_DONE] = 1


@njit(cache=True, inline="always")
def _width(T, pc):
    """Rows taken by the step at ``pc`` (a choice block includes its alternatives)."""
    if T.ops[pc, I_OP] == OP_CHOOSE:
        return 1 + T.ops[pc, I_ALTS]
    return 1


@njit(cache=True, inline="always")
def _cond_holds(s, T, pc):
    c = T.ops[pc, I_COND]
    if c == C_DONE:
        return s[EFF_LAST_DONE] == 1
    if c == C_DONE_NOT_EQUAL:
        return s[EFF_LAST_DONE] == 1 and s[EFF_LAST_EQUAL] == 0
    return True


@njit(cache=True)
def apply_target(s, T, ev, a, b, alt):
    """The pending step's target was chosen: carry it out and move past the step."""
    pc = s[EFF_PC]
    i = pc + 1 + alt if alt >= 0 else pc
    apply_instruction(s, T, ev, i, a, b)
    s[EFF_PC] = pc + _width(T, pc)


@njit(cache=True)
def skip_step(s, T):
    pc = s[EFF_PC]
    s[EFF_LAST_DONE] = 0
    s[EFF_LAST_EQUAL] = 0
    s[EFF_LAST_DESTROYED] = 0
    s[EFF_PC] = pc + _width(T, pc)


@njit(cache=True)
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
        if not _cond_holds(s, T, pc):
            skip_step(s, T)
            continue
        if T.ops[pc, I_OP] == OP_GAIN_ACTION:
            s[ACTIONS_LEFT] += T.ops[pc, I_PARAM]
            log_event(s, ev, EV_GAIN_ACTION, s[CUR], T.ops[pc, I_PARAM], 0, 0)
            s[EFF_LAST_DONE] = 1
            s[EFF_PC] = pc + 1
            continue
        n = step_targets(s, T, pc, opts)
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
