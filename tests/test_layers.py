"""The layering of the packages, read from their imports with ``ast`` (module level and inside
functions alike, relative imports resolved, plus ``-m`` module strings of child processes):

- core imports only core;
- the sim library (sim/ outside sim/app/ and sim/api.py) imports only core and sim;
- results imports sim, results and, of core, only its row layout (core, core.constants,
  core.rows, core.layout), not the compiled engine;
- cluster imports core, sim and results;
- the application layer (sim/app/, sim/api.py, benchmarks/) may import anything, and only it
  imports cluster.runner or sim/app/;
- no cycle between the packages core, the sim library, cluster and results.

A failure lists every violation as ``file:line: module (layer) imports target (layer)``.
"""

import ast
import pathlib
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("core", "sim", "cluster", "results", "benchmarks")
ALLOWED = {
    "core": {"core"},
    "sim": {"core", "sim"},
    "results": {"core", "sim", "results"},
    "cluster": {"core", "sim", "results", "cluster"},
    "app": {"core", "sim", "results", "cluster", "app"},
}
RESULTS_CORE = {"core", "core.constants", "core.rows", "core.layout"}  # the row layout only
LIBRARY = ("core", "sim", "cluster", "results")

# (file, imported module) pairs allowed for now, each with the reason it is still there.
KNOWN: set[tuple[str, str]] = set()


def module_name(rel: pathlib.PurePath) -> str:
    parts = list(rel.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(module: str) -> str:
    """core, sim (the library), cluster, results, or app (sim/app, sim/api.py, benchmarks)."""
    parts = module.split(".")
    if parts[0] == "benchmarks" or parts[:2] in (["sim", "app"], ["sim", "api"]):
        return "app"
    return parts[0]


def _module_strings(node):
    """Module names a call or list names as a child process's ``-m MODULE`` or
    ``runpy.run_module("MODULE")``."""
    if isinstance(node, ast.List | ast.Tuple):
        items = node.elts
        for a, b in zip(items, items[1:], strict=False):
            if isinstance(a, ast.Constant) and a.value == "-m" and isinstance(b, ast.Constant):
                yield b.value
    elif isinstance(node, ast.Call):
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
        if name == "run_module" and node.args and isinstance(node.args[0], ast.Constant):
            yield node.args[0].value


def imported_names(source: str, module: str, is_package: bool):
    """(line, candidate module names) for every import in ``source``, lazy ones included."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, [alias.name]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module
            # `from sim import api` imports the module sim.api; `from x import name` only x
            yield node.lineno, [f"{name}.{a.name}" for a in node.names] + [name]
        else:
            for name in _module_strings(node):
                if isinstance(name, str):
                    yield node.lineno, [name]


def edges(root: pathlib.Path):
    """(file, line, module, target module) for every import of a project module by another."""
    files = sorted(p for pkg in PACKAGES for p in (root / pkg).rglob("*.py"))
    known = {module_name(p.relative_to(root)) for p in files}
    out = []
    for path in files:
        rel = path.relative_to(root)
        module = module_name(rel)
        for line, names in imported_names(path.read_text(), module, path.name == "__init__.py"):
            if names[0].split(".")[0] not in PACKAGES and names[-1].split(".")[0] not in PACKAGES:
                continue
            # the module itself, or for `from x import name` x when name is not a module
            target = next((n for n in names if n in known), None)
            if target is None:
                out.append((rel.as_posix(), line, module, names[-1] + " (no such module)"))
            elif target != module:
                out.append((rel.as_posix(), line, module, target))
    return out


def violations(root: pathlib.Path) -> list[str]:
    bad = []
    graph = {}
    for file, line, module, target in edges(root):
        where = f"{file}:{line}: {module} ({layer(module)}) imports {target}"
        if target.endswith("(no such module)"):
            bad.append((file, target.split()[0], where))
            continue
        src, dst = layer(module), layer(target)
        where += f" ({dst})"
        if src != dst:
            graph.setdefault(src, set()).add(dst)
        if dst not in ALLOWED[src]:
            bad.append((file, target, where))
        elif src == "results" and dst == "core" and target not in RESULTS_CORE:
            bad.append((file, target, where + ": results reads only the row layout of core"))
        elif src not in ("app", "cluster") and target == "cluster.runner":
            bad.append((file, target, where + ": only the application runs studies"))
    library = {k: {d for d in v if d in LIBRARY} for k, v in graph.items() if k in LIBRARY}
    for cycle in package_cycles(library):
        bad.append(("", "", "package cycle: " + " -> ".join(cycle)))
    return bad


def package_cycles(graph: dict) -> list[list[str]]:
    """Each cycle of the package graph once, as a path that returns to its start."""
    cycles = []

    def walk(path):
        for nxt in sorted(graph.get(path[-1], ())):
            if nxt == path[0]:
                cycles.append([*path, nxt])
            elif nxt not in path and nxt > path[0]:  # start each cycle at its smallest node
                walk([*path, nxt])

    for start in sorted(graph):
        walk([start])
    return cycles


def test_layering():
    found = violations(ROOT)
    unexpected = [w for f, t, w in found if (f, t) not in KNOWN]
    stale = sorted(KNOWN - {(f, t) for f, t, _ in found})
    for w in unexpected:
        print(w)
    assert not unexpected, f"{len(unexpected)} layering violation(s):\n" + "\n".join(unexpected)
    assert not stale, f"known exceptions that no longer happen, remove them from KNOWN: {stale}"


def write(root, files):
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text))
    for pkg in PACKAGES:
        (root / pkg).mkdir(exist_ok=True)


def test_checker_finds_lazy_relative_and_subprocess_imports(tmp_path):
    """The checker itself: a tree with one violation of each kind is reported in full."""
    write(
        tmp_path,
        {
            "core/__init__.py": "",
            "core/kernel.py": "",
            "core/rows.py": "",
            "core/board/__init__.py": "",
            "core/board/bits.py": "from ..rows import X\n",  # relative, allowed
            "core/board/geometry.py": "def f():\n    from sim import study\n",  # lazy, up
            "sim/__init__.py": "",
            "sim/study.py": "",
            "sim/players.py": "from results.store import read\n",  # sim library -> results
            "sim/api.py": "from cluster.runner import run_study\nfrom sim.app import cli\n",
            "sim/app/__init__.py": "",
            "sim/app/cli.py": "import cluster.runner\n",
            "sim/app/job.py": 'CMD = ["-m", "sim.app.gone"]\n',  # a module string to nowhere
            "results/__init__.py": "",
            "results/store.py": "from core.rows import R_WINNER\nfrom sim import study\n",
            "results/schema.py": "from core.kernel import R_WINNER\n",  # the engine
            "results/labels.py": "from . import store\nfrom .store import x\n",
            "cluster/__init__.py": "",
            "cluster/runner.py": "from results import store\n",
            "cluster/fanout.py": "from sim.app import tune\n",  # cluster -> application
        },
    )
    found = sorted(w for _, _, w in violations(tmp_path))
    assert found == sorted(
        [
            "core/board/geometry.py:2: core.board.geometry (core) imports sim.study (sim)",
            "sim/players.py:1: sim.players (sim) imports results.store (results)",
            "sim/app/job.py:1: sim.app.job (app) imports sim.app.gone (no such module)",
            "results/schema.py:1: results.schema (results) imports core.kernel (core): "
            "results reads only the row layout of core",
            "cluster/fanout.py:1: cluster.fanout (cluster) imports sim.app (app)",
            "package cycle: core -> sim -> results -> core",
            "package cycle: results -> sim -> results",
        ]
    ), "\n".join(found)


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("sim.app.service.job", "app"),
        ("sim.api", "app"),
        ("benchmarks.bench", "app"),
        ("sim.apis", "sim"),
        ("sim.study", "sim"),
        ("results.store", "results"),
    ],
)
def test_layer_of_a_module(module, expected):
    assert layer(module) == expected
