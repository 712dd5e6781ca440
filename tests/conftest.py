"""Fixtures shared by several test files."""

import shutil

import pytest

from sim.content import DATA_DIR


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
