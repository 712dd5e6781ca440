"""core.rows: the result-row layout that results/ reads, importable without the engine."""

import json
import subprocess
import sys

import core.rows as rows

# the only core modules the dataset side may load: the contracts, none of them compiled
ROW_LAYOUT_MODULES = {"core", "core.constants", "core.layout", "core.rows"}


def test_results_store_does_not_load_the_engine():
    """`import results.store` (the service's web process, every reader of a dataset) loads the
    row layout only: not core.kernel, nor any module with compiled engine code."""
    probe = (
        "import json, sys; import results.store; "
        "print(json.dumps(sorted(m for m in sys.modules if m == 'core' or m.startswith('core.'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    loaded = set(json.loads(out.stdout))
    assert "core.rows" in loaded  # the probe sees results.schema's import at all
    assert "core.kernel" not in loaded
    assert loaded <= ROW_LAYOUT_MODULES, sorted(loaded - ROW_LAYOUT_MODULES)


def test_kernel_still_exports_the_row_layout():
    """`from core.kernel import R_WIDTH` (tests, benchmarks, older callers) keeps working and
    names the very same numbers as core.rows."""
    import core.kernel as kernel

    names = [n for n in vars(rows) if n.isupper()]
    assert {"R_WIDTH", "SEAT_COLUMNS", "CARD_EVENT_NAMES", "ERR_LOG"} <= set(names)
    for name in names:
        assert getattr(kernel, name) == getattr(rows, name), name


def test_seat_columns_fit_the_seat_block():
    assert len(rows.SEAT_COLUMNS) == rows.R_SEAT_WIDTH
    assert rows.R_WIDTH == rows.R_SEAT + 4 * rows.R_SEAT_WIDTH
    assert len(rows.CARD_EVENT_NAMES) == rows.CE_WARPED + 1
