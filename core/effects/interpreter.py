"""The effect interpreter: runs op programs (core.ops) one instruction at a time.

An instruction either happens by itself (gain an action, destroy all...) or needs a target.
Targets are option rows (OPT_TARGET a, b, alternative) so that the same policy interface
that picks actions picks effect choices. A part with no legal target is skipped ("do what
can be done"); an optional part adds an OPT_SKIP row; a single forced target is applied
without asking. Registers in the state (EFF_*) carry results between instructions.

This file holds the program flow (conditions, steps, skipping); the op families live beside
it: where an instruction may act (core.effects.where), its options (core.effects.targets),
applying a target (core.effects.apply), and one file per family of ops (card_ops, mirror,
nethervoid, etherweave, etherweave_pending, etherweave_copy, etherweave_linked,
etherweave_void) over shared primitives (primitives, select); core.effects maps them.
"""

from core.constants import (
    LEGENDARY,
    OPT_SKIP,
    SQ_GREEN,
    SQ_RED,
)
from core.effects.apply import apply_instruction, run_automatic
from core.effects.etherweave import (
    in_discard,
)
from core.effects.nethervoid_select import cond2_holds
from core.effects.select import cond_more
from core.effects.targets import step_targets
from core.jit import njit
from core.jit.profile import P_EFFECT_AUTO, P_EFFECT_TARGETS, enter, leave
from core.layout import (
    ACTIONS_LEFT,
    EFF_BEING_MOVED,
    EFF_CHOICE,
    EFF_COMBAT_USED,
    EFF_END,
    EFF_LAST_DESTROYED,
    EFF_LAST_DESTROYED_LEGEND,
    EFF_LAST_DONE,
    EFF_NEXT_END,
    EFF_NEXT_START,
    EFF_PC,
    EFF_PLACED_N,
    EFF_SEL_RANK,
    EFF_SEL_WAS_RED,
    EFF_TARGET,
)
from core.ops import (
    I_ALTS,
    I_CHOICE,
    I_COND,
    I_COND2,
    I_OP,
    I_OPTIONAL,
    OP_CHOOSE,
    P2_IN_DISCARD,
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
)


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
    if (c2 & P2_IN_DISCARD) and not in_discard(s, T, T.ops[pc, I_CHOICE]):
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
    s[EFF_PC] = pc + _width(T, pc)  # before: copy-warp moves it to the copied program
    if alt >= 0:
        s[EFF_CHOICE] = alt
        apply_instruction(s, T, ev, pc + 1 + alt, a, b)
    else:
        apply_instruction(s, T, ev, pc, a, b)


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
        enter(P_EFFECT_AUTO)
        holds = cond_holds(s, T, pc)
        done = holds and run_automatic(s, T, ev, pc)
        leave()
        if not holds:
            s[EFF_PC] = pc + _width(T, pc)  # transparent: no register changes
            continue
        if done:
            s[EFF_PC] = pc + 1
            continue
        enter(P_EFFECT_TARGETS)
        n = step_targets(s, T, ev, pc, opts)
        leave()
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
