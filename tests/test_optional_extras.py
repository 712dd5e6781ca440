"""Optional libraries are extras of the package: missing, they fail with a line that says how
to install them (issue 23), never with a bare ModuleNotFoundError."""

import pathlib
import sys

import pytest

from results.frames import POLARS_MISSING, summary_frames
from sim import api


@pytest.fixture
def no_polars(monkeypatch):
    monkeypatch.setitem(sys.modules, "polars", None)  # `import polars` now raises ImportError


def test_the_polars_extra_is_declared():
    import tomllib

    root = pathlib.Path(__file__).resolve().parents[1]
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    assert any(req.startswith("polars") for req in extras["polars"])
    assert "kalarite[polars]" in POLARS_MISSING


def test_analysis_frames_without_polars_say_to_install_the_extra(no_polars):
    with pytest.raises(ImportError, match=r"pip install 'kalarite\[polars\]'"):
        summary_frames({}, backend="polars")


def test_study_tables_without_polars_say_to_install_the_extra(no_polars, tmp_path):
    spec = {"decks": [["imperial", "highland"]], "games": 2, "seed": 1, "policies": "random"}
    st = api.run(spec, out=tmp_path / "s", workers=0, progress=False)
    assert len(st.games()) == 2  # pandas needs no extra
    with pytest.raises(ImportError, match=r"pip install 'kalarite\[polars\]'") as info:
        st.games(backend="polars")
    assert not isinstance(info.value, ModuleNotFoundError)
