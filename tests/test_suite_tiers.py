"""How the suite runs (tests/conftest.py): `make test` and CI run every test, `make
test-fast` leaves out exactly the two tiers; every service and browser module is in the
system tier; the kernels are compiled once, by the controller, never by an xdist worker."""

import pathlib
import re
import types

import conftest
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULES = {p.stem for p in (ROOT / "tests").glob("test_*.py")}


def _recipe(target: str) -> str:
    text = (ROOT / "Makefile").read_text()
    m = re.search(rf"^{re.escape(target)}:.*\n((?:\t.*\n)+)", text, re.M)
    assert m, f"no make target {target}"
    return m.group(1)


def test_make_test_and_ci_run_everything():
    recipe = _recipe("test")
    pytest_line = next(line for line in recipe.splitlines() if "-m pytest" in line)
    args = pytest_line.split("-m pytest", 1)[1]
    assert " -m " not in args and " -k " not in args and "--deselect" not in args
    assert (ROOT / ".ci" / "run").read_text().strip().endswith("make test")


def test_make_test_fast_leaves_out_only_the_two_tiers():
    recipe = _recipe("test-fast")
    assert '-m "not system and not docs"' in recipe


def test_every_service_and_browser_module_is_a_system_test():
    system = {m for m in MODULES if m.startswith("test_service_") or m == "test_browser"}
    assert system and all(conftest.TIERS.get(m) == "system" for m in system)
    assert conftest.TIERS.get("test_docs_snippets") == "docs"
    assert set(conftest.TIERS) <= MODULES and set(conftest.GROUPS) <= MODULES
    assert set(conftest.TIERS.values()) == {"system", "docs"}


@pytest.mark.parametrize("worker", [False, True])
def test_the_kernels_are_compiled_once_by_the_controller(monkeypatch, worker):
    import cluster.warmup as warmup

    calls = []
    monkeypatch.setattr(warmup, "warm_up", lambda say=None, checked=False: calls.append(checked))
    config = types.SimpleNamespace(
        getoption=lambda name: 2 if name == "numprocesses" else None,
        pluginmanager=types.SimpleNamespace(get_plugin=lambda name: None),
    )
    if worker:
        config.workerinput = {"workerid": "gw0"}
    conftest.pytest_sessionstart(types.SimpleNamespace(config=config))
    assert calls == ([] if worker else [False, True])  # both kernels, in the controller only
