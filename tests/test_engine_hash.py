"""core.ENGINE_HASH keys the compiled-kernel cache: it must change with any engine source."""

import pathlib
import shutil

import core
from core import engine_hash

CORE = pathlib.Path(core.__file__).parent


def _copy(tmp_path):
    dst = tmp_path / "core"
    shutil.copytree(CORE, dst, ignore=shutil.ignore_patterns("__pycache__"))
    return dst


def test_hash_of_this_tree_is_the_engine_hash():
    assert engine_hash(CORE) == core.ENGINE_HASH


def test_an_edit_in_a_subpackage_changes_the_hash(tmp_path):
    root = _copy(tmp_path)
    (root / "extra").mkdir()
    (root / "extra" / "deep.py").write_text("X = 1\n")
    before = engine_hash(root)
    (root / "extra" / "deep.py").write_text("X = 2\n")
    assert engine_hash(root) != before
    for nested in sorted(p for p in root.rglob("*.py") if p.parent.name != "extra"):
        if nested.parent != root:  # the real subpackages, once core/ has them
            edited = engine_hash(root)
            nested.write_text(nested.read_text() + "\n# edited\n")
            assert engine_hash(root) != edited, nested


def test_moving_a_file_between_subpackages_changes_the_hash(tmp_path):
    """Paths count, relative to core/: the same bytes under another name are another engine
    (and two subpackages' __init__.py files do not collide)."""
    root = _copy(tmp_path)
    before = engine_hash(root)
    (root / "moved_here").mkdir()
    src = next(p for p in sorted(root.glob("*.py")) if p.name != "__init__.py")
    src.rename(root / "moved_here" / src.name)
    assert engine_hash(root) != before
