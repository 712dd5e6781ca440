"""Where a report or a compare page is written, checked before anything is: the directory
must not be a file or a study dataset, and an earlier report's plots are cleared (its groups
may differ). Used by the ``report``/``compare`` commands, the API and the demo.
"""

import json
import pathlib

from results.layout import MANIFEST  # light: no pyarrow, pandas or numba


def report_dir(run, out) -> pathlib.Path:
    out = pathlib.Path(out) if out else pathlib.Path(run) / "report"
    if out.exists() and not out.is_dir():
        raise OSError(f"--out {str(out)!r} exists and is not a directory")
    if (out / MANIFEST).exists():
        raise ValueError(
            f"--out {str(out)!r} is a study dataset; write the report to another directory "
            "(e.g. its report/ folder)"
        )
    if out.is_dir():
        old = out / "summary.json"
        if old.is_file():
            try:
                is_report = "kalarite_report" in json.loads(old.read_text())
            except (OSError, ValueError):
                is_report = False
            if is_report:  # an earlier report: its plots go, since the groups may differ
                for p in out.glob("*.png"):
                    p.unlink()
    return out


def compare_dir(a, b, out) -> pathlib.Path:
    """Where the compare page goes: --html, else B/compare-vs-<A's directory name>."""
    if out:
        d = pathlib.Path(out)
    else:
        d = pathlib.Path(b) / f"compare-vs-{pathlib.Path(a).resolve().name}"
    if d.exists() and not d.is_dir():
        raise OSError(f"--html {str(d)!r} exists and is not a directory")
    if (d / MANIFEST).exists():
        raise ValueError(f"--html {str(d)!r} is a study dataset; choose another directory")
    return d
