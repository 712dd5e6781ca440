"""``njit`` for the engine: every kernel compiles one version, whatever integers it is given.

numba compiles a separate version of a function for every combination of argument types it
is called with, and a constant argument counts as its own type (``Literal[int](2)``): called
with ``HEROIC`` in one place, ``COMMON`` in another and an int32 read from the state in a
third, ``pieces_on_board`` was compiled three times, each version carrying its whole tree
of callees through LLVM. This dispatcher widens every integer and boolean argument to int64
before compiling, so a function gets one version per array signature and its callers
convert their arguments at the call (a widening that never changes a value). Use it as
numba's: ``@njit(cache=True, _nrt=False)``.
"""

import sys

import numba
from numba.core import sigutils, types
from numba.core.registry import CPUDispatcher, cpu_target

_registries_loaded = False


def _load_registries():
    """numba loads its typing and lowering registries at the first compile or cache load of a
    process; one of them (numba.np.arraymath) imports scipy.linalg only to see whether BLAS is
    there (for np.dot and friends, which the engine never uses): 0.4 s of every warm
    ``kalarite play``. Load them with that one import refused, then allow it again, so that
    scipy.linalg still imports normally later (the report's statistics)."""
    global _registries_loaded
    if _registries_loaded:
        return
    _registries_loaded = True
    if "scipy.linalg" in sys.modules:
        return  # already imported: nothing to save
    blas = "scipy.linalg.cython_blas"
    sys.modules[blas] = None  # `import scipy.linalg.cython_blas` raises ImportError
    try:
        cpu_target.target_context.refresh()
    finally:
        if sys.modules.get(blas, 0) is None:
            del sys.modules[blas]


def canonical(t):
    """The argument type a kernel is compiled for: integers and booleans become int64."""
    t = types.unliteral(t)
    if isinstance(t, types.Boolean) or (isinstance(t, types.Integer) and t.bitwidth < 64):
        return types.int64
    if isinstance(t, types.Integer) and t.signed:
        return types.int64
    return t


class OneVersionDispatcher(CPUDispatcher):
    """A CPUDispatcher that compiles the canonical form of each signature."""

    def compile(self, sig):
        _load_registries()
        args, return_type = sigutils.normalize_signature(sig)
        canon = tuple(canonical(a) for a in args)
        if canon != tuple(args):
            sig = canon if return_type is None else return_type(*canon)
        return super().compile(sig)


def njit(fn=None, *, cache=False, **options):
    """numba.njit with OneVersionDispatcher (plain Python under NUMBA_DISABLE_JIT=1)."""

    def wrap(f):
        if numba.config.DISABLE_JIT:
            return f
        targetoptions = {**options, "nopython": True, "boundscheck": None}
        d = OneVersionDispatcher(py_func=f, locals={}, targetoptions=targetoptions)
        if cache:
            d.enable_caching()
        return d

    return wrap if fn is None else wrap(fn)
