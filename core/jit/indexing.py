"""Array indexing in the engine's kernels without numba's negative-index wraparound.

numba follows Python: ``a[i]`` with a signed ``i`` reads ``a[i + len(a)]`` when ``i < 0``, so
every array access the engine makes (the state row, the tables, the players' scratch:
hundreds per action) carries a compare and a select on the index. The engine never means a
negative index (no constant one anywhere in core/, and every "none" value such as -1 for no
square or no card is tested before it is used as an index), so for the functions compiled
through the engine's pipeline (core.jit.pipeline) the index is only widened to a pointer-sized
integer: 12-22% more of the seer's games per CPU-second on every workload, same games
(benchmarks/README.md, issue 46 round 7).

Scope: only while ``EngineLowering`` lowers a function; everything else numba compiles in
the process (the overloads numba compiles for numpy functions through its own pipeline, the
tests' and the benchmarks' own ``numba.njit`` functions) keeps Python's indexing.

What keeps it honest: the *index-checked* build (KALARITE_INDEX_CHECK=1, core/__init__: a
cache of its own) compiles the same kernels with numba's bounds checks, which then see the
raw index: a negative or too large index raises IndexError instead of reading past the
array. ``tests/test_index_check.py`` plays games of every player, mode and deck family in
that build, and checks that it does catch a negative index.
"""

import os

import numba.np.arrayobj as arrayobj
from numba.core import cgutils, lowering, types
from numba.core.compiler_machinery import register_pass
from numba.core.typed_passes import BaseNativeLowering, NativeLowering

from core import INDEX_CHECK

_engine_lowering = [False]
_where = [None]  # the index-checked build: the location of the instruction being lowered
_numba_fix_integer_index = arrayobj.fix_integer_index
_numba_run_lowering = BaseNativeLowering.run_pass


def _fix_integer_index(context, builder, idxty, idx, size):
    """numba's ``fix_integer_index`` (wraparound) outside the engine; inside, the index only
    cast to the pointer-sized integer (signed or unsigned as numba does)."""
    if not _engine_lowering[0]:
        return _numba_fix_integer_index(context, builder, idxty, idx, size)
    return context.cast(builder, idx, idxty, types.intp if idxty.signed else types.uintp)


def _run_lowering(self, state):
    """Every lowering pass says whether it lowers an engine function; the previous answer is
    restored after it (numba may compile a callee while lowering a caller)."""
    before = _engine_lowering[0]
    _engine_lowering[0] = isinstance(self, EngineLowering)
    try:
        return _numba_run_lowering(self, state)
    finally:
        _engine_lowering[0] = before


@register_pass(mutates_CFG=True, analysis_only=False)
class EngineLowering(NativeLowering):
    """numba's native lowering, for the engine's pipeline: array indices without
    wraparound."""

    _name = "kalarite_native_lowering"


_numba_do_boundscheck = cgutils.do_boundscheck
_numba_lower_inst = lowering.Lower.lower_inst


def _do_boundscheck(context, builder, ind, dimlen, axis=None):
    """numba's bounds check, its IndexError naming the engine line that indexed (the
    index-checked build only)."""
    if not _engine_lowering[0]:
        return _numba_do_boundscheck(context, builder, ind, dimlen, axis)
    loc = _where[0]
    msg = f"index out of bounds (axis {axis}) at {os.path.relpath(loc.filename)}:{loc.line}"
    for bad in (
        builder.icmp_signed(">=", ind, dimlen),
        builder.icmp_signed("<", ind, ind.type(0)),
    ):
        with cgutils.if_unlikely(builder, bad):
            context.call_conv.return_user_exc(builder, IndexError, (msg,))


def _lower_inst(self, inst):
    _where[0] = inst.loc  # formatted only where an index is checked
    return _numba_lower_inst(self, inst)


arrayobj.fix_integer_index = _fix_integer_index
BaseNativeLowering.run_pass = _run_lowering
if INDEX_CHECK:
    cgutils.do_boundscheck = _do_boundscheck
    lowering.Lower.lower_inst = _lower_inst
