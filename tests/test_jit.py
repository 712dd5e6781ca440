"""core.jit's changes to how numba compiles the engine: one version per kernel, link-only
callees, remembered function resolutions and the trimmed pipeline. Each patches numba
internals, so each is checked here against what numba itself would do."""

import operator

import numpy as np
import pytest
from numba.core import types
from numba.core.registry import cpu_target

from core import jit as J

pytestmark = pytest.mark.skipif(
    not hasattr(J, "OneVersionDispatcher"), reason="NUMBA_DISABLE_JIT=1: nothing is compiled"
)


@J.njit
def _leaf(a, i):
    return a[i] * 2


@J.njit
def _caller(a, i):
    return _leaf(a, i) + _leaf(a, np.int32(i))


def test_one_version_per_kernel_whatever_integers_it_is_given():
    a = np.arange(5, dtype=np.int32)
    assert _leaf(a, 3) == 6
    assert _leaf(a, np.int32(3)) == 6
    assert _leaf(a, np.int8(1)) == 2
    assert len(_leaf.overloads) == 1
    (sig,) = _leaf.overloads
    assert sig[1] == types.int64


def test_a_callee_compiled_from_compiled_code_is_link_only_and_the_caller_runs_it():
    @J.njit
    def leaf(a, i):
        return a[i] + 1

    @J.njit
    def caller(a):
        return leaf(a, 0) + leaf(a, 1)

    a = np.array([10, 20], np.int64)
    assert caller(a) == 32
    assert len(caller.overloads) == 1
    assert len(leaf.overloads) == 0  # typed and lowered for linking, no machine code
    assert len(leaf._link_only) == 1
    (cres,) = leaf._link_only.values()
    assert isinstance(cres.library, J.LinkOnlyLibrary)
    with pytest.raises(RuntimeError, match="no machine code"):
        cres.library.get_pointer_to_function("anything")
    assert leaf(a, 1) == 21  # called from Python it compiles in full
    assert len(leaf.overloads) == 1


def test_remembered_resolutions_equal_numba_own():
    ctx = cpu_target.typing_context
    ctx.refresh()
    fnty = ctx.resolve_value_type(operator.add)
    for args in [
        (types.int32, types.int64),
        (types.float64, types.int8),
        (types.Array(types.int32, 1, "C"), types.int64),
    ]:
        mine = fnty.get_call_type(ctx, args, {})
        again = fnty.get_call_type(ctx, args, {})
        plain = J._plain_function_call_type(fnty, ctx, args, {})
        assert mine == plain == again
        assert mine is again  # the second call is a lookup
        assert fnty.get_impl_key(mine) == fnty.get_impl_key(plain)


def test_an_unmatched_call_still_fails_as_numba_reports_it():
    @J.njit
    def bad(a):
        return a + "x"

    with pytest.raises(Exception, match="(?i)typing"):
        bad(np.int64(1))


def test_the_pipeline_runs_without_the_passes_the_engine_does_not_need():
    from numba.core.compiler import Flags

    from core.jit.pipeline import EnginePipeline

    ctx = cpu_target
    pipe = EnginePipeline(ctx.typing_context, ctx.target_context, None, None, None, Flags(), {})
    (pm,) = pipe.define_pipelines()
    names = {p.name() for p, _ in pm.passes}
    assert {"nopython_type_inference", "kalarite_native_lowering", "reconstruct_ssa"} <= names
    assert "native_lowering" not in names  # the engine's: no index wraparound (core.jit.indexing)
    assert not names & {"inline_closure_likes", "with_lifting", "literal_unroll"}


def test_a_closure_in_a_kernel_is_refused_at_compile_time_not_miscompiled():
    @J.njit
    def with_closure(n):
        def inner(k):
            return k + n

        return inner(1)

    with pytest.raises(Exception, match="make_function"):
        with_closure(2)


def _middling_callee():
    """A kernel costing LLVM's inliner far more than its default budget and far less than
    the wide one: a chain of dependent array reads and arithmetic."""
    lines = ["def middling(a, i):", "    x = a[i]"]
    for k in range(40):
        lines.append(f"    x = (x ^ a[(i + x + {k}) & 7]) * {2 * k + 3} + {k}")
    lines.append("    return x")
    scope = {}
    exec("\n".join(lines), scope)
    return J.njit(scope["middling"])


def _calls_to(kernel, callee_name):
    (ir,) = kernel.inspect_llvm().values()
    return sum(1 for line in ir.splitlines() if " call " in line and callee_name in line)


def test_a_kernel_marked_wide_inlining_inlines_what_the_default_budget_calls():
    middling = _middling_callee()

    def default_first(a):
        return middling(a, 1) + middling(a, 2)

    def wide(a):
        return middling(a, 1) + middling(a, 2)

    def default_after(a):
        return middling(a, 1) + middling(a, 2)

    # marked by qualified name: the three names differ
    default_first, wide = J.njit(default_first), J.njit(wide, wide_inlining=True)
    a = np.arange(8, dtype=np.int64)
    assert default_first(a) == wide(a)
    default_after = J.njit(default_after)  # compiled after the wide one
    assert default_after(a) == wide(a)
    assert _calls_to(default_first, "middling") >= 2  # the default budget keeps the calls
    assert _calls_to(wide, "middling") == 0  # the wide one inlines both
    assert _calls_to(default_after, "middling") >= 2  # and the default is back after it
    assert J.WIDE_INLINE_THRESHOLD > J.DEFAULT_INLINE_THRESHOLD


def test_the_kernel_that_plays_games_is_marked_wide_inlining():
    from core.kernel import play_games, play_games_checked

    assert play_games.py_func.__qualname__ in J._wide_inlining
    assert play_games_checked.py_func.__qualname__ not in J._wide_inlining
