"""The compiler pipeline for the engine's kernels: numba's nopython pipeline without the
passes that serve Python features the engine never uses (about 2 s of a cold compile).

Dropped:
- ``WithLifting`` (``with objmode`` blocks), ``InlineClosureLikes`` and
  ``MakeFunctionToJitFunction`` (closures and comprehensions inside a kernel),
  ``FindLiterallyCalls`` and ``LiteralUnroll`` (``numba.literally``, ``literal_unroll``).
  A kernel that uses one of these fails to compile with a typing error (a closure names
  ``make_function``: ``tests/test_jit.py``); it is never miscompiled.
- ``NoPythonSupportedFeatureValidation`` and ``DumpParforDiagnostics`` (``parallel=True``).
- The rewrites after typing (``NopythonRewrites``): string-literal indexes, arrays built
  from constant lists and fused array expressions, none of which the kernels use; an array
  expression would still compile, as one loop per operation.
Kept: SSA reconstruction (without it a name assigned two constants, ``err = 0`` then
``err = ERR_POLICY``, fails to type) and every pass before typing that rewrites constants.
The overloads numba compiles for numpy functions keep numba's own pipeline.
Changed: the lowering is ``EngineLowering`` (core.jit.indexing), array indices without
Python's negative-index wraparound.
"""

from numba.core.compiler import CompilerBase
from numba.core.compiler_machinery import PassManager
from numba.core.typed_passes import (
    AnnotateTypes,
    InlineOverloads,
    IRLegalization,
    NoPythonBackend,
    NopythonTypeInference,
    PreLowerStripPhis,
)
from numba.core.untyped_passes import (
    DeadBranchPrune,
    FixupArgs,
    GenericRewrites,
    InlineInlinables,
    IRProcessing,
    LiteralPropagationSubPipelinePass,
    ReconstructSSA,
    RewriteDynamicRaises,
    RewriteSemanticConstants,
    TranslateByteCode,
)

from core.jit.indexing import EngineLowering


class EnginePipeline(CompilerBase):
    """numba's nopython pipeline less the passes listed in the module's docstring."""

    def define_pipelines(self):
        pm = PassManager("kalarite")
        if self.state.func_ir is None:
            pm.add_pass(TranslateByteCode, "analyzing bytecode")
            pm.add_pass(FixupArgs, "fix up args")
        pm.add_pass(IRProcessing, "processing IR")
        pm.add_pass(RewriteSemanticConstants, "rewrite semantic constants")
        pm.add_pass(DeadBranchPrune, "dead branch pruning")
        pm.add_pass(GenericRewrites, "nopython rewrites")
        pm.add_pass(RewriteDynamicRaises, "rewrite dynamic raises")
        pm.add_pass(InlineInlinables, "inline inlinable functions")
        pm.add_pass(DeadBranchPrune, "dead branch pruning")
        pm.add_pass(ReconstructSSA, "ssa")
        pm.add_pass(DeadBranchPrune, "dead branch pruning")
        pm.add_pass(LiteralPropagationSubPipelinePass, "Literal propagation")
        pm.add_pass(NopythonTypeInference, "nopython frontend")
        pm.add_pass(PreLowerStripPhis, "remove phis nodes")
        pm.add_pass(InlineOverloads, "inline overloaded functions")
        pm.add_pass(IRLegalization, "ensure IR is legal prior to lowering")
        pm.add_pass(AnnotateTypes, "annotate types")
        pm.add_pass(EngineLowering, "native lowering, no index wraparound")
        pm.add_pass(NoPythonBackend, "nopython mode backend")
        pm.finalize()
        return [pm]
