"""Card files edited on purpose, for the tests of what the content loader refuses: one
replacement in a copy of the data folder (the ``data_copy`` fixture, tests/conftest.py), and
the loader's error message."""

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
