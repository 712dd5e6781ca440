"""No import cycle among the project's modules (issue 47, item 6), read with ``ast``.

An edge A -> B is an import statement in module A that names module B: ``import B``,
``from B import name``, or ``from P import B`` (B a module of package P), relative imports
resolved. Imports inside functions count as much as those at the top: a lazy import that
only dodges a cycle at import time still ties the two modules together. Not edges: the
implicit import of a package's ``__init__`` when one of its modules is imported (Python's
package mechanism, not a dependency the code declares), and ``-m MODULE`` strings of child
processes (another process). Where this fails, move the code both modules need to where it
belongs (docs/developer.md) rather than importing lazily.
"""

import ast
import pathlib
import textwrap

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("core", "sim", "cluster", "results", "benchmarks")


def module_name(rel: pathlib.PurePath) -> str:
    parts = list(rel.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_graph(root: pathlib.Path) -> tuple[dict, dict]:
    """({module: {modules it imports}}, {(module, target): [line, ...]}) over PACKAGES."""
    files = {
        module_name(p.relative_to(root)): p for pkg in PACKAGES for p in (root / pkg).rglob("*.py")
    }
    graph, lines = {}, {}
    for module, path in files.items():
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(
                        package[: len(package) - (node.level - 1)] + [base] * bool(base)
                    )
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names
                ]
            else:
                continue
            for target in targets:
                while target and target not in files:  # `import a.b.c` of a module a.b
                    target = target.rpartition(".")[0]
                if target and target != module:
                    graph.setdefault(module, set()).add(target)
                    lines.setdefault((module, target), []).append(node.lineno)
    return graph, lines


def cycles(graph: dict) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def describe(component: list, graph: dict, lines: dict) -> str:
    edges = [
        f"  {a} -> {b} (line {', '.join(map(str, sorted(set(lines[a, b]))))})"
        for a in component
        for b in sorted(graph.get(a, ()))
        if b in component
    ]
    return "import cycle among " + ", ".join(component) + ":\n" + "\n".join(edges)


def test_no_module_imports_itself_through_others():
    graph, lines = module_graph(ROOT)
    found = [describe(c, graph, lines) for c in cycles(graph)]
    assert not found, "\n".join(found)


def test_the_checker_finds_lazy_relative_and_package_cycles(tmp_path):
    files = {
        "core/__init__.py": "",
        "core/a.py": "from core import b\n",
        "core/b.py": "def f():\n    from . import a\n",  # lazy and relative: a cycle
        "sim/__init__.py": "",
        "sim/x/__init__.py": "from sim.x.y import g\n",  # a package and its module
        "sim/x/y.py": "def g():\n    from sim.x import h\n",
        "results/__init__.py": "",
        "results/p.py": "import results.q\n",
        "results/q.py": "from results import shared\n",  # no cycle: q -> shared only
        "results/shared.py": "CMD = ['-m', 'results.p']\n",  # a child process: not an edge
    }
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    for pkg in PACKAGES:
        (tmp_path / pkg).mkdir(exist_ok=True)
    graph, lines = module_graph(tmp_path)
    assert cycles(graph) == [["core.a", "core.b"], ["sim.x", "sim.x.y"]]
    assert lines["core.b", "core.a"] == [2]
    assert "results.p" not in graph.get("results.shared", set())
