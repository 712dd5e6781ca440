"""A proof, run at load time, that every op of the registry (core.ops.OPS) has its branch in
each function of core.effects that its family names, and in no other.

The dispatching functions (``run_automatic``, ``instruction_targets``, ``apply_instruction``,
``step_targets``) are compiled ``if op == OP_X`` ladders whose last branch does nothing, so
an op left out of one would be skipped without a word, or would play as another op. This
reads the functions' source (``ast``, never importing the compiled modules) and lists the
``OP_*`` names each compares with; ``prove_dispatch()`` raises DispatchProofError, one line
naming the op and the function, when an op is missing where its family needs it or named
where its family does not go. Plain Python; it imports only core.ops.
"""

import ast
import functools
import pathlib

from core import ops as O

CORE = pathlib.Path(__file__).resolve().parent.parent


class DispatchProofError(ValueError):
    """An op's code is missing from a function its family needs, or stands in another."""


def compared_ops(source: str, function: str) -> set:
    """The ``OP_*`` names ``function`` in ``source`` compares with ``==`` (either side)."""
    tree = ast.parse(source)
    fn = next(
        (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function),
        None,
    )
    if fn is None:
        raise DispatchProofError(f"op dispatch: no function {function}")
    names = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Compare) and any(isinstance(o, ast.Eq) for o in node.ops):
            for side in [node.left, *node.comparators]:
                if isinstance(side, ast.Name) and side.id.startswith("OP_"):
                    names.add(side.id)
    return names


def dispatch_table(root=CORE) -> dict:
    """{function: the op codes it names} for every function of core.ops.DISPATCH_FILES."""
    codes = {k: v for k, v in vars(O).items() if k.startswith("OP_") and isinstance(v, int)}
    sources = {}
    out = {}
    for function, rel in O.DISPATCH_FILES.items():
        path = pathlib.Path(root) / rel
        if path not in sources:
            sources[path] = path.read_text(encoding="utf-8")
        names = compared_ops(sources[path], function)
        unknown = sorted(n for n in names if n not in codes)
        if unknown:
            raise DispatchProofError(f"op dispatch: {function} names {unknown[0]}, not an op")
        out[function] = {codes[n] for n in names}
    return out


def prove_dispatch(root=CORE) -> None:
    """Raise DispatchProofError unless each op stands in exactly its family's functions."""
    table = dispatch_table(root)
    for spec in O.OPS:
        wanted = O.FAMILIES[spec.family]
        for function in wanted:
            if spec.code not in table[function]:
                raise DispatchProofError(
                    f"op dispatch: {spec.name} ({spec.family}) has no branch in {function} "
                    f"({O.DISPATCH_FILES[function]})"
                )
        for function, codes in table.items():
            if function not in wanted and spec.code in codes:
                raise DispatchProofError(
                    f"op dispatch: {spec.name} is {spec.family} but {function} "
                    f"({O.DISPATCH_FILES[function]}) has a branch for it"
                )


@functools.cache
def prove_dispatch_once() -> None:
    """prove_dispatch over the installed engine, once per process (load_content calls it)."""
    prove_dispatch()
