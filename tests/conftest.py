"""Fixtures shared by several test files, and how the suite is run (docs/developer.md, "The
test suite"):

- Before xdist starts its workers, the controller compiles (or loads) the engine's two
  kernels once (``pytest_sessionstart``), so the workers load numba's cache instead of
  compiling the same kernels side by side.
- Tiers, not cuts: ``system`` marks the service, browser, soak and cluster tests, ``docs``
  the doc snippets (``TIERS``). ``make test`` and CI run everything; ``make test-fast``
  leaves these two tiers out for daily work.
- Groups: the tests of a module whose fixtures are expensive (a Ray session, studies, a
  live service) run on one xdist worker (``--dist loadgroup``, ``GROUPS``), so each such
  fixture is built once; the modules that only need *a* Ray share one ``ray_session``.
"""

import logging
import os
import shutil

import pytest

from sim.content import DATA_DIR

# module -> tier (pytest marker); a new service or browser test file gets its tier here
TIERS = {
    "test_browser": "system",
    "test_service_api": "system",
    "test_service_cluster": "system",
    "test_cluster_nodes": "system",
    "test_service_live": "system",
    "test_service_page": "system",
    "test_service_paths": "system",
    "test_service_soak": "system",
    "test_service_users": "system",
    "test_service_suggest": "system",
    "test_service_suggest_page": "system",
    "test_service_preflight": "system",
    "test_service_progress": "system",
    "test_docs_snippets": "docs",
}
# module -> xdist group: one worker runs all its tests (its module fixtures built once);
# "ray": the modules that share this process's ``ray_session``
GROUPS = {
    "test_studies": "ray",
    "test_report_multiplayer": "ray",
    "test_check": "ray",
    "test_suggest_e2e": "ray",
    "test_looks": "ray",
    "test_service_api": "service_api",
    "test_service_page": "service_page",
    "test_service_users": "service_users",
    "test_service_live": "service_live",
    "test_service_suggest": "service_suggest",
    "test_service_suggest_page": "service_suggest_page",
    "test_browser": "browser",
    "test_report": "report",
    "test_parts": "parts",
    "test_report_layout": "report_layout",
    "test_learn": "learn",
    "test_positions": "positions",
    "test_suggest_skip": "suggest_skip",
    "test_docs_snippets": "docs",
    "test_cluster_nodes": "cluster_nodes",
}


def pytest_sessionstart(session):
    """In the controller of a parallel run (not in an xdist worker, and before xdist's own
    ``pytest_sessionstart``, which is ``trylast``, starts the workers): compile or load both
    kernels of the engine once, the plain one and the one with the invariant checker."""
    config = session.config
    if hasattr(config, "workerinput") or not _parallel(config):
        return
    from cluster.warmup import warm_up

    reporter = config.pluginmanager.get_plugin("terminalreporter")

    def say(text, final):
        if reporter is not None:
            reporter.write_line(f"kalarite: {text}")

    warm_up(say)
    warm_up(say, checked=True)


def _parallel(config) -> bool:
    try:
        return bool(config.getoption("numprocesses"))
    except ValueError:  # pytest-xdist not loaded (-p no:xdist)
        return False


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Each test gets its module's tier marker and xdist group (before xdist reads the
    groups)."""
    for item in items:
        module = item.module.__name__.rpartition(".")[2] if item.module else ""
        if module in TIERS:
            item.add_marker(getattr(pytest.mark, TIERS[module]))
        if module in GROUPS:
            item.add_marker(pytest.mark.xdist_group(GROUPS[module]))


@pytest.fixture(scope="session")
def ray_session():
    """One local Ray (2 CPUs) for this test process, started at first use and stopped at the
    end, shared by the modules that only need *a* Ray (their ``GROUPS`` entry puts them on
    one worker). A Ray this process already has is used as it is. The tests of starting Ray
    itself (test_long_runs) do not use it."""
    import ray

    if ray.is_initialized():
        yield ray
        return
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        logging_level=logging.ERROR,
        log_to_driver=False,
    )
    yield ray
    ray.shutdown()


@pytest.fixture
def data_copy(tmp_path):
    """A copy of sim/data to edit (the real files are never touched)."""
    dst = tmp_path / "data"
    shutil.copytree(DATA_DIR, dst)
    return dst


@pytest.fixture(autouse=True, scope="session")
def _own_check_records(tmp_path_factory):
    """`kalarite check` records (results/checked.py) go to a directory of this test session,
    so the user's own records never change what a report warns about (the installed content's
    checked-in record still counts)."""
    import os

    old = os.environ.get("KALARITE_CHECKED_DIR")
    os.environ["KALARITE_CHECKED_DIR"] = str(tmp_path_factory.mktemp("checked"))
    yield
    if old is None:
        os.environ.pop("KALARITE_CHECKED_DIR", None)
    else:
        os.environ["KALARITE_CHECKED_DIR"] = old
