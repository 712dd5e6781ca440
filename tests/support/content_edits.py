"""Card files edited on purpose, for the tests of what the content loader refuses: one
replacement in a copy of the data folder (the ``data_copy`` fixture, tests/conftest.py), and
the loader's error message."""

import pathlib

import pytest

from sim.content import ContentError, load_content


def edit(path, old, new):
    """Replace the first ``old`` in the file by ``new`` (``old`` must be there)."""
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def refusal(data_dir) -> str:
    """The loader's error message for the content in ``data_dir`` (it must refuse it)."""
    with pytest.raises(ContentError) as err:
        load_content(str(data_dir))
    return str(err.value)


OLD_PATTERN = """pattern = [
  "* c *",
  ". @ .",
  "* c *",
]
description = "Optional: destroy one enemy common piece"""


NEW_PATTERN = """pattern = [
  "* c *",
  ". @ .",
  "* . *",
]
description = "Optional: destroy one enemy common piece"""


OLD_OP = '{ op = "destroy", who = "enemy", ranks = "common", region = "diagonal"'


NEW_OP = '{ op = "destroy", who = "enemy", ranks = "non-legendary", region = "diagonal"'


def stronger_swordmaster(path: pathlib.Path, deck_file="imperial.toml"):
    text = (path / deck_file).read_text()
    assert OLD_PATTERN in text and OLD_OP in text
    (path / deck_file).write_text(text.replace(OLD_PATTERN, NEW_PATTERN).replace(OLD_OP, NEW_OP))
