"""``njit`` for the engine: every kernel compiles one version, whatever integers it is given.

- ``__init__`` (this module): the dispatcher and numba's patches; every engine module imports
  ``njit`` from here. Use it as numba's: ``@njit(cache=True, _nrt=False)``.
- ``pipeline``: the compiler pipeline for the kernels, without the passes for Python features
  the engine never uses.
- ``tables_type``: numba's type for core.tables.Tables (one pointer to the packed array
  headers), registered when this package is imported.
- ``profile``: the phase timers ``benchmarks/profile.py`` reads (empty functions unless
  KALARITE_PROFILE=1 builds them in, into a cache of their own).
- ``indexing``: array indices in the kernels without Python's negative-index wraparound, and
  the index-checked build (KALARITE_INDEX_CHECK=1) that proves the kernels never need it.

One version per kernel: numba compiles a separate version of a function for every
combination of argument types, and a constant argument counts as its own type
(``Literal[int](2)``), so a function called with ``HEROIC``, ``COMMON`` and an int32 read from
the state would be compiled three times, each with its whole tree of callees. This
dispatcher widens every integer and boolean argument to int64 before compiling, so a function
gets one version per array signature (a widening that never changes a value).

Link-only callees: numba finalises every compiled function on its own (links in its callees'
LLVM modules, optimises that module, generates machine code), so every kernel whose call tree
holds the rules engine would optimise and generate the whole engine again. A kernel called
from compiled code is compiled *link-only* here: typed and lowered, given numba's
per-function passes, but no module optimisation, no machine code and no cache entry
(``LinkOnlyLibrary``); its caller links it, with everything it calls, flat. So the engine is
optimised and generated once, inside the kernel Python calls (``play_games``), which alone is
cached. A kernel that Python calls directly (the tests call many) compiles in full and is
cached; compiled callers then link that full version. Each library that gets machine code
keeps its copies of link-only callees private (``_finalize_final_module``). The players'
layers and the option generators are plain kernels, not ``inline="always"``: numba would type
an inlined body once per call site, while LLVM inlines them anyway in the one module.

Cold compile: numba's own Python work on the engine's ~300 functions is trimmed three ways,
each measured with ``python -m benchmarks.compile_profile`` (a cold ``kalarite play`` timed
pass by pass): function types remember their resolutions (``_function_call_type``), the
kernels compile through ``pipeline``, and link-only code gets the lightest per-function LLVM
passes (``LinkOnlyLibrary._optimize_functions``).

Wide inlining: with the engine linked flat into one module, LLVM's default inlining budget
left the players' hot layers as separate calls (each array passed as seven values); the
kernels that play whole games (``njit(..., wide_inlining=True)``) are optimised with a wider
one (``WIDE_INLINE_THRESHOLD``), every other module with LLVM's default for -O3.

This module patches numba in six places, each checked by ``tests/test_jit.py`` or the
golden replays and pinned by the numba versions in pyproject:
``CPUCodeLibrary.add_linking_library`` (flat linking), ``CPUCodeLibrary._finalize_final_module``
(private copies), ``CPUCodeLibrary._optimize_final_module`` (wide inlining),
``TargetConfig.values`` / ``__hash__`` (the same results, computed faster) and
``BaseFunction.get_call_type`` (the same results, remembered). ``core.jit.indexing`` patches
two more (``fix_integer_index``, the lowering pass's ``run_pass``) and, in the index-checked
build only, two others (``do_boundscheck``, ``Lower.lower_inst``): tests/test_index_check.py.
"""

import sys

import llvmlite.binding as llvm
import numba
from numba.core import compiler, sigutils, types, typing
from numba.core import event as ev
from numba.core.codegen import CPUCodeLibrary, JITCodeLibrary
from numba.core.compiler_lock import global_compiler_lock, require_global_compiler_lock
from numba.core.registry import CPUDispatcher, cpu_target
from numba.core.targetconfig import TargetConfig
from numba.core.types.functions import BaseFunction

from core.jit.pipeline import EnginePipeline

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


_option_defaults = {}


def _config_values(self):
    """numba's TargetConfig.values (every option's value, the default where unset) without a
    property call per option: numba's typing keys its overload cache by the compile flags
    and compares them this way some hundred thousand times in a cold compile (about a tenth
    of its time)."""
    cls = type(self)
    defaults = _option_defaults.get(cls)
    if defaults is None:
        defaults = _option_defaults[cls] = {k: o.default for k, o in cls.options.items()}
    values = dict(defaults)
    values.update(self._values)
    return values


def _config_hash(self):
    """numba's TargetConfig.__hash__ (which hashes the sorted option names), computed once."""
    cls = type(self)
    h = _option_hashes.get(cls)
    if h is None:
        h = _option_hashes[cls] = hash(tuple(sorted(cls.options)))
    return h


_option_hashes = {}
TargetConfig.values = _config_values
TargetConfig.__hash__ = _config_hash


_plain_function_call_type = BaseFunction.get_call_type
_resolved = {}


def _function_call_type(self, context, args, kws):
    """numba's BaseFunction.get_call_type, remembering each successful resolution. numba
    resolves an operator or a numpy function again at every use, in typing and again in
    lowering, trying each template in turn and formatting an error message for every one
    that does not match (``getitem`` on an int32 array, resolved thousands of times in a
    cold compile: about 7 s of CPU). A function type is immutable (new overloads make a new
    one), so the same arguments always resolve to the same signature; a hit also restores
    the implementation key numba records for it, as a fresh resolution would."""
    try:
        key = (self, context, args, tuple(kws.items()) if kws else ())
        hit = _resolved.get(key)
    except TypeError:  # an unhashable argument: resolve as numba does
        return _plain_function_call_type(self, context, args, kws)
    if hit is None:
        sig = _plain_function_call_type(self, context, args, kws)
        if sig is None:
            return None
        hit = _resolved[key] = (sig, self._impl_keys[sig.args])
    sig, impl_key = hit
    self._impl_keys[sig.args] = impl_key
    return sig


BaseFunction.get_call_type = _function_call_type


class LinkOnlyLibrary(JITCodeLibrary):
    """The code of one kernel for linking into its callers only: finalising it neither
    optimises the module nor generates machine code, and it has no entry point."""

    def finalize(self):
        require_global_compiler_lock()
        self._raise_if_finalized()
        self._finalized = True
        mod = self._final_module
        self._kalarite_defined = {f.name for f in mod.functions if not f.is_declaration} | {
            g.name for g in mod.global_variables if not g.is_declaration
        }

    def _optimize_functions(self, ll_module):
        """numba's per-function passes at the lightest level (-O1: promoting variables to
        registers, simplifying), not -O3: the caller's module optimisation runs the full
        pipeline over these functions anyway once they are linked in. This leaves that
        module smaller for it (skipping the passes entirely made it larger and slower to
        optimise), and takes a tenth of the time."""
        ll_module.data_layout = self._codegen._data_layout
        fpm, pb = self._codegen._function_pass_manager(opt=1)
        for func in ll_module.functions:
            if not func.is_declaration:
                fpm.run(func, pb)

    def get_pointer_to_function(self, name):
        raise RuntimeError(f"{self.name}: a link-only library has no machine code")


_plain_add_linking_library = CPUCodeLibrary.add_linking_library


def _add_linking_library(self, library):
    """numba's add_linking_library, also taking in what a link-only library calls (already
    flat: it was gathered by this same method), each library once."""
    linked = self.__dict__.setdefault("_kalarite_linked", set())
    for lib in (library, *getattr(library, "_kalarite_flat", ())):
        if id(lib) not in linked:
            linked.add(id(lib))
            _plain_add_linking_library(self, lib)
    if isinstance(self, LinkOnlyLibrary):
        self._kalarite_flat = self._linking_libraries


CPUCodeLibrary.add_linking_library = _add_linking_library

_plain_finalize_final_module = CPUCodeLibrary._finalize_final_module


def _finalize_final_module(self):
    """numba's, after making what came from link-only libraries private to this module (once
    it is optimised: the optimiser sees the same linkage as numba's own callees). Each caller
    that gets machine code holds its own copy of its link-only callees; left weak, one
    symbol would be defined in several loaded objects, which the JIT linker does not resolve
    reliably (calls through unrelocated null addresses)."""
    names = set()
    for lib in self._linking_libraries:
        names |= getattr(lib, "_kalarite_defined", set())
    if names:
        mod = self._final_module
        for value in (*mod.functions, *mod.global_variables):
            if value.name in names and not value.is_declaration:
                value.linkage = "internal"
    _plain_finalize_final_module(self)


CPUCodeLibrary._finalize_final_module = _finalize_final_module

# LLVM's inlining budget (its ``-inline-threshold``, a cost in instructions): LLVM's own for
# -O3 everywhere, and a wider one for the kernels that play whole games (``njit(...,
# wide_inlining=True)``). With everything linked flat into one module, the default left the
# players' hot layers (the leaf's features and network, the child evaluations, the option
# scoring) as separate calls, each passing every array as seven values; with the wider budget
# LLVM inlines them into their callers (benchmarks/README.md, issue 46 round 6: the seer
# 1.30-1.34x at 10,000 for about 24 s more of cold compile; 30,000 gave 1.32-1.42x for 180 s
# more). Inlining never changes a result (no fast-math: the same operations in the same order).
DEFAULT_INLINE_THRESHOLD = 250  # LLVM's for -O3 (InlineConstants::OptAggressiveThreshold)
DEFAULT_INLINE_COLD_THRESHOLD = 45  # its default for cold callees
WIDE_INLINE_THRESHOLD = 10_000
_wide_inlining = set()  # the qualified names of the kernels compiled with the wider budget


def _set_inline_threshold(threshold):
    """LLVM reads its inliner options when numba builds a pass pipeline (a fresh one for each
    module it optimises), so setting them around one module's optimisation scopes them to it.
    Both are always given explicitly: LLVM takes the cold threshold from its own option only
    when the threshold was never given."""
    llvm.set_option("", f"-inline-threshold={threshold}")
    llvm.set_option("", f"-inlinecold-threshold={DEFAULT_INLINE_COLD_THRESHOLD}")


_set_inline_threshold(DEFAULT_INLINE_THRESHOLD)
_plain_optimize_final_module = CPUCodeLibrary._optimize_final_module


def _optimize_final_module(self):
    """numba's, with the wider inlining budget for the kernels marked ``wide_inlining``."""
    if self.name not in _wide_inlining:
        return _plain_optimize_final_module(self)
    _set_inline_threshold(WIDE_INLINE_THRESHOLD)
    try:
        return _plain_optimize_final_module(self)
    finally:
        _set_inline_threshold(DEFAULT_INLINE_THRESHOLD)


CPUCodeLibrary._optimize_final_module = _optimize_final_module


class _LinkKey:
    """Stands for a link-only kernel where numba keys an implementation by its entry point."""

    __slots__ = ("fndesc",)

    def __init__(self, fndesc):
        self.fndesc = fndesc


class OneVersionDispatcher(CPUDispatcher):
    """A CPUDispatcher that compiles the canonical form of each signature, link-only when
    it is called from compiled code (see the module's docstring)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._link_only = {}  # canonical argument types -> compile result

    def compile(self, sig):
        _load_registries()
        args, return_type = sigutils.normalize_signature(sig)
        canon = tuple(canonical(a) for a in args)
        if canon != tuple(args):
            sig = canon if return_type is None else return_type(*canon)
        return super().compile(sig)

    def get_call_template(self, args, kws):
        """numba's, compiling a link-only version when there is no full one."""
        pysig, args = self._compiler.fold_argument_types(args, kws)
        if self._can_compile:
            self._compile_link_only(tuple(args))
        call_template = typing.make_concrete_template(
            f"CallTemplate({self.py_func.__name__})",
            key=self.py_func.__name__,
            signatures=self.nopython_signatures,
        )
        return call_template, pysig, args, {}

    @property
    def nopython_signatures(self):
        full = [c.signature for c in self.overloads.values() if not c.objectmode]
        return full + [c.signature for a, c in self._link_only.items() if a not in self.overloads]

    def get_overload(self, sig):
        args = tuple(sigutils.normalize_signature(sig)[0])
        if args in self.overloads:
            return self.overloads[args].entry_point
        return self._link_only[args].entry_point

    def _compile_link_only(self, args):
        _load_registries()
        canon = tuple(canonical(a) for a in args)
        with global_compiler_lock, self._compiling_counter:
            if canon in self.overloads or canon in self._link_only:
                return
            cres = self._cache.load_overload(canon, self.targetctx)  # a full version saved
            if cres is not None:
                self.targetctx.insert_user_function(cres.entry_point, cres.fndesc, [cres.library])
                self.add_overload(cres)
                return
            flags = compiler.Flags()
            self.targetdescr.options.parse_as_flags(flags, self.targetoptions)
            flags.no_compile = True
            flags.no_cpython_wrapper = True
            flags.no_cfunc_wrapper = True
            library = LinkOnlyLibrary(self.targetctx.codegen(), self.py_func.__qualname__)
            details = dict(dispatcher=self, args=canon, return_type=None)
            with ev.trigger_event("numba:compile", data=details):
                cres = compiler.compile_extra(
                    self.targetdescr.typing_context,
                    self.targetctx,
                    self._compiler._get_implementation(canon, {}),
                    args=canon,
                    return_type=None,
                    flags=flags,
                    locals=self.locals,
                    library=library,
                    pipeline_class=self._compiler.pipeline_class,
                )
            key = _LinkKey(cres.fndesc)
            cres = cres._replace(entry_point=key)
            self.targetctx.insert_user_function(key, cres.fndesc, [library])
            self._link_only[canon] = cres


def njit(fn=None, *, cache=False, wide_inlining=False, **options):
    """numba.njit with OneVersionDispatcher (plain Python under NUMBA_DISABLE_JIT=1);
    ``wide_inlining``: optimise this kernel with the wider inlining budget (for kernels Python
    calls to play whole games; see WIDE_INLINE_THRESHOLD)."""

    def wrap(f):
        if numba.config.DISABLE_JIT:
            return f
        if wide_inlining:
            _wide_inlining.add(f.__qualname__)
        targetoptions = {**options, "nopython": True, "boundscheck": None}
        d = OneVersionDispatcher(
            py_func=f, locals={}, targetoptions=targetoptions, pipeline_class=EnginePipeline
        )
        if cache:
            d.enable_caching()
        return d

    return wrap if fn is None else wrap(fn)


# numba's view of core.tables.Tables: registered with the dispatcher every engine module uses,
# so core.tables itself stays plain numpy (results and sim build and read it without numba)
from core.jit import tables_type  # noqa: E402,F401
