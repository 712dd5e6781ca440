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
