"""Where a cold compile's CPU goes: ``python -m benchmarks.compile_profile [kalarite args]``.

Runs one ``kalarite`` command (default: ``play --decks imperial,highland``) into an empty
kernel cache and prints the CPU seconds of each numba compiler pass, exclusive of the passes
of callees it compiled meanwhile, and of the LLVM steps (IR to text, parsing, per-function
passes, module optimisation, machine code). A profiling aid for core/jit.py; the figures
to compare commits are ``kalarite bench --baseline``'s, measured side by side.
"""

import atexit
import collections
import os
import runpy
import shutil
import sys
import tempfile
import time

_cache = tempfile.mkdtemp(prefix="kalarite-profile-")
os.environ["KALARITE_NUMBA_CACHE"] = _cache

import llvmlite.binding as ll  # noqa: E402
from numba.core import cgutils, codegen  # noqa: E402
from numba.core import compiler_machinery as cm  # noqa: E402

PASSES = collections.Counter()
LLVM = collections.Counter()
_stack = []
_plain_run_pass = cm.PassManager._runPass


def _run_pass(self, index, pss, state):
    t0 = time.process_time()
    _stack.append(0.0)
    try:
        return _plain_run_pass(self, index, pss, state)
    finally:
        dt = time.process_time() - t0
        inner = _stack.pop()
        PASSES[pss.name()] += dt - inner
        if _stack:
            _stack[-1] += dt


def _timed(cls, name, label):
    plain = getattr(cls, name)

    def wrapper(self, *args, **kwargs):
        t0 = time.process_time()
        try:
            return plain(self, *args, **kwargs)
        finally:
            LLVM[label] += time.process_time() - t0

    setattr(cls, name, wrapper)


def _add_ir_module(self, ir_module):
    t0 = time.process_time()
    text = cgutils.normalize_ir_text(str(ir_module))
    t1 = time.process_time()
    mod = ll.parse_assembly(text)
    mod.name = ir_module.name
    mod.verify()
    t2 = time.process_time()
    LLVM["IR to text"] += t1 - t0
    LLVM["parse and verify"] += t2 - t1
    self.add_llvm_module(mod)


def _install():
    cm.PassManager._runPass = _run_pass
    codegen.CPUCodeLibrary.add_ir_module = _add_ir_module
    import core.jit  # the engine's own patches first: its overrides are timed too

    for cls in {codegen.CPUCodeLibrary, core.jit.LinkOnlyLibrary}:
        if "_optimize_functions" in vars(cls):
            _timed(cls, "_optimize_functions", "per-function passes")
    _timed(codegen.CPUCodeLibrary, "_optimize_final_module", "module optimisation")
    _timed(codegen.JITCodeLibrary, "_finalize_specific", "machine code")


def _report():
    total = time.process_time()
    llvm = sum(LLVM.values())
    passes = sum(PASSES.values())
    print(f"\nprocess CPU {total:.1f} s; compiler passes {passes:.1f} s", file=sys.stderr)
    print(f"native_lowering includes the LLVM steps ({llvm:.1f} s):", file=sys.stderr)
    for name, sec in LLVM.most_common():
        print(f"  {sec:6.2f} s  {name}", file=sys.stderr)
    print("passes (exclusive):", file=sys.stderr)
    for name, sec in PASSES.most_common(15):
        print(f"  {sec:6.2f} s  {name}", file=sys.stderr)
    shutil.rmtree(_cache, ignore_errors=True)


def main():
    _install()
    atexit.register(_report)
    sys.argv = ["kalarite", *(sys.argv[1:] or ["play", "--decks", "imperial,highland"])]
    runpy.run_module("sim.app.cli", run_name="__main__")


if __name__ == "__main__":
    main()
