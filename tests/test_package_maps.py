"""Every package's ``__init__`` docstring is its map: it names each of its modules and
subpackages (a subpackage's modules may be mapped in its parent's docstring, in the section on
it), and docs/developer.md names every package (issue 37: 17 modules were missing from their
package's map). A new file without a line in its map fails here."""

import ast
import pathlib
import re

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
ROOTS = ("core", "sim", "cluster", "results", "benchmarks", "tests")


def _packages():
    for root in ROOTS:
        for init in sorted((REPO / root).rglob("__init__.py")):
            if "__pycache__" not in init.parts:
                yield init.parent


def _members(package: pathlib.Path):
    """Its modules (by stem) and subpackages (by folder name)."""
    for p in sorted(package.iterdir()):
        if p.suffix == ".py" and p.name != "__init__.py":
            yield p.stem
        elif p.is_dir() and (p / "__init__.py").exists():
            yield p.name


def _named(text: str, name: str) -> bool:
    """Named as code (``name``, `name`, `name.py`, `name/`) in the text."""
    return re.search(rf"`{re.escape(name)}(\.py|/)?`", text) is not None


def _doc(package: pathlib.Path) -> str:
    return ast.get_docstring(ast.parse((package / "__init__.py").read_text())) or ""


@pytest.mark.parametrize("package", list(_packages()), ids=lambda p: str(p.relative_to(REPO)))
def test_the_package_docstring_names_every_module(package):
    doc = _doc(package)
    if (package.parent / "__init__.py").exists():  # a subpackage: or in its parent's map
        doc += _doc(package.parent)
    missing = [m for m in _members(package) if not _named(doc, m)]
    assert not missing, f"{package.relative_to(REPO)}/__init__.py's docstring misses {missing}"


def test_the_developer_map_names_every_package():
    text = (REPO / "docs" / "developer.md").read_text()
    missing = [
        str(p.relative_to(REPO))
        for p in _packages()
        if not any(
            f"`{name}`" in text
            for name in (p.relative_to(REPO).as_posix(), p.relative_to(REPO).as_posix() + "/")
        )
        and f"`{p.name}/`" not in text  # a subpackage named in its parent's paragraph
    ]
    assert not missing, f"docs/developer.md does not name {missing}"


def test_a_missing_module_is_found(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text('"""Map: ``alpha``."""\n')
    (pkg / "alpha.py").write_text("")
    (pkg / "beta.py").write_text("")
    doc = ast.get_docstring(ast.parse((pkg / "__init__.py").read_text()))
    assert [m for m in _members(pkg) if not _named(doc, m)] == ["beta"]
