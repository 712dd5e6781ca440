"""Phase timers for ``benchmarks/profile.py``: where a workload's engine time goes.

``enter(phase)`` / ``leave()`` bracket a part of the engine. With KALARITE_PROFILE=1 in the
environment they read the processor's cycle counter and charge the cycles since the last
mark to the phase running then (so every cycle is charged to exactly one phase, the
innermost: *self* time), keep a stack of the open phases, and add each phase's *inclusive*
cycles (enter to leave) and its calls. Without it (every normal run) both are empty
functions that LLVM removes, so the timers cost nothing and never change a game.

The counters live in one process-wide int64 buffer (``BUFFER``), reached from compiled code
through a symbol registered with LLVM (``llvmlite.binding.add_symbol``) rather than a baked
address, so a profiled build can be cached like any other. A profiled build compiles into
its own cache (core/__init__: ENGINE_HASH + "-profile"), never mixed with the plain one.

Phase codes are listed in ``PHASES`` (names for the JSON); 0 is everything outside any phase
(the kernel's own loop: dealing, recording rows).
"""

import os

import llvmlite.binding as llvm
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from core.jit import njit

PROFILE = os.environ.get("KALARITE_PROFILE", "") == "1"

PHASES = (
    "kernel",  # outside every phase: dealing, recording result rows
    "turn_flow",  # the game's advance loop: automatic steps, turn ends, refills
    "options_action",  # listing place / discard / flare / end options
    "options_effect",  # an effect step: its targets listed, automatic steps run
    "options_other",  # pick-ups, returns, claims, set-up, colours
    "summon_plain",  # summon search, plain patterns (bitboards)
    "summon_possessed",  # summon search with a possessed colour (Nethervoid)
    "summon_void",  # summon search through void cells (Etherweave)
    "summon_detached",  # summon search of detached patterns (Time Traveler)
    "apply",  # applying an option: placing, summoning, an effect step's target
    "effect_targets",  # an effect step's targets listed (core.effects.targets)
    "effect_auto",  # an effect's automatic steps and conditions
    "player",  # the player's own code: choosing, scoring loops, beam and heap
    "copy",  # lookahead copies of the state row
    "lookahead_flow",  # the lookahead's advance loop (core.players.lookahead)
    "evaluate",  # the plain evaluation of a position
    "eval_delta",  # evaluation from what changed, its preparation, placement shortcut
    "eval_board",  # the board part of an evaluation (scores, pieces by rank)
    "eval_hand",  # the hand part of an evaluation from what changed (own loop)
    "eval_diff",  # the squares a child changed
    "eval_bits",  # the child's bitboards for its board and hand parts
    "eval_task_part",  # the task part from what changed (its own loop)
    "eval_prepare",  # the decision's context and the placement shortcut's set-up
    "eval_summon",  # can a hand card be summoned (the evaluation's first-fit search)
    "eval_through",  # can a hand card be summoned through a square that got better
    "eval_completions",  # which squares would make a hand card summonable (placements)
    "placements",  # the placement shortcut's value and key of each placement
    "tasks",  # does a colour meet a task (the game's claims and the evaluation)
    "keys",  # position fingerprints (board hash, key)
    "learned",  # a learned model's value (features and dot product)
)
N_PHASES = len(PHASES)
(
    P_KERNEL,
    P_TURN_FLOW,
    P_OPTIONS_ACTION,
    P_OPTIONS_EFFECT,
    P_OPTIONS_OTHER,
    P_SUMMON_PLAIN,
    P_SUMMON_POSSESSED,
    P_SUMMON_VOID,
    P_SUMMON_DETACHED,
    P_APPLY,
    P_EFFECT_TARGETS,
    P_EFFECT_AUTO,
    P_PLAYER,
    P_COPY,
    P_LOOKAHEAD_FLOW,
    P_EVALUATE,
    P_EVAL_DELTA,
    P_EVAL_BOARD,
    P_EVAL_HAND,
    P_EVAL_DIFF,
    P_EVAL_BITS,
    P_EVAL_TASK_PART,
    P_EVAL_PREPARE,
    P_EVAL_SUMMON,
    P_EVAL_THROUGH,
    P_EVAL_COMPLETIONS,
    P_PLACEMENTS,
    P_TASKS,
    P_KEYS,
    P_LEARNED,
) = range(N_PHASES)

# buffer layout: [current phase, last mark, stack depth], the stack (phase, entered at),
# then per phase (self cycles, inclusive cycles, calls), then per (caller, phase) the
# inclusive cycles of the phase's calls from that caller
B_CUR, B_LAST, B_DEPTH = 0, 1, 2
B_STACK = 4
MAX_STACK = 64
B_PHASES = B_STACK + 2 * MAX_STACK
B_EDGES = B_PHASES + 3 * N_PHASES
BUFFER_SIZE = B_EDGES + N_PHASES * N_PHASES
SYMBOL = "kalarite_profile_buffer"

BUFFER = np.zeros(BUFFER_SIZE, np.int64)
llvm.add_symbol(SYMBOL, BUFFER.ctypes.data)


@intrinsic
def _buffer(typingctx):
    """A pointer to ``BUFFER`` (an external global resolved when the code is loaded)."""
    sig = types.CPointer(types.int64)()

    def codegen(context, builder, signature, args):
        mod = builder.module
        gv = mod.globals.get(SYMBOL)
        if gv is None:
            gv = ir.GlobalVariable(mod, ir.IntType(64), SYMBOL)
            gv.linkage = "external"
        return gv

    return sig, codegen


@intrinsic
def _cycles(typingctx):
    """The processor's cycle counter (llvm.readcyclecounter: rdtsc on x86)."""
    sig = types.int64()

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.readcyclecounter")
        return builder.call(fn, [])

    return sig, codegen


if PROFILE:

    @njit(cache=True, _nrt=False)
    def enter(phase):
        p = _buffer()
        now = _cycles()
        cur = p[B_CUR]
        p[B_PHASES + 3 * cur] += now - p[B_LAST]
        d = p[B_DEPTH]
        if d < MAX_STACK:
            p[B_STACK + 2 * d] = cur
            p[B_STACK + 2 * d + 1] = now
        p[B_DEPTH] = d + 1
        p[B_CUR] = phase
        p[B_PHASES + 3 * phase + 2] += 1
        p[B_LAST] = now

    @njit(cache=True, _nrt=False)
    def leave():
        p = _buffer()
        now = _cycles()
        cur = p[B_CUR]
        p[B_PHASES + 3 * cur] += now - p[B_LAST]
        d = p[B_DEPTH] - 1
        p[B_DEPTH] = d
        if 0 <= d < MAX_STACK:
            spent = now - p[B_STACK + 2 * d + 1]
            caller = p[B_STACK + 2 * d]
            p[B_PHASES + 3 * cur + 1] += spent
            p[B_EDGES + caller * N_PHASES + cur] += spent
            p[B_CUR] = caller
        p[B_LAST] = now

else:

    @njit(cache=True, _nrt=False)
    def enter(phase):
        pass

    @njit(cache=True, _nrt=False)
    def leave():
        pass


@njit(cache=True, _nrt=False)
def start_timers():
    """Start counting now (the cycles before the first mark belong to no phase)."""
    if PROFILE:
        p = _buffer()
        p[B_LAST] = _cycles()


@njit(cache=True, _nrt=False)
def cycles_now():
    return _cycles()


@njit(cache=True, _nrt=False)
def timer_cost(n):
    """Cycles of ``n`` enter/leave pairs (the timers' own cost, to correct the figures)."""
    t0 = _cycles()
    for _ in range(n):
        enter(P_KERNEL)
        leave()
    return _cycles() - t0


def reset():
    BUFFER[:] = 0


def read() -> dict:
    """Per phase name: self cycles, inclusive cycles, calls (phase 0's inclusive is its self),
    and ``callers``: the inclusive cycles of its calls by calling phase."""
    out = {}
    for i, name in enumerate(PHASES):
        b = B_PHASES + 3 * i
        callers = {}
        for c, caller in enumerate(PHASES):
            v = int(BUFFER[B_EDGES + c * N_PHASES + i])
            if v:
                callers[caller] = v
        out[name] = {
            "self": int(BUFFER[b]),
            "inclusive": int(BUFFER[b + 1]) if i else int(BUFFER[b]),
            "calls": int(BUFFER[b + 2]),
            "callers": callers,
        }
    return out
