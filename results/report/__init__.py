"""The balance report of a study: ``index.html`` (one self-contained file, plots embedded as
PNG data), the plots as PNG files, and ``summary.json`` (every number shown: the dict of
``results.analysis.analyze``). The page draws every part of ``results.parts.PARTS`` in its
order; see results/REPORT.md for what each section means."""

import hashlib
import json
import pathlib

from results import analysis, parts
from results.report.frame import ReportPage
from results.report.html import (  # noqa: F401 (the report's public names)
    CSS,
    SMALL_MARK,
    Cell,
    diff_cell,
    esc,
    pct,
    policy_list,
    prose,
    rests_on,
    seats_label,
    slug_of,
    table,
)

NAV = parts.titled()  # the page's nav: (section, title) of the registered parts


def builder(registry=None) -> type:
    """The page builder of the parts in ``registry`` (default ``results.parts.PARTS``): the
    class of each part's drawing mixed in with the page's frame."""
    registry = registry or parts.PARTS
    drawn = [p for p in registry if p.html]
    mixins = dict.fromkeys(p.mixin()[0] for p in drawn)
    mixins.pop(ReportPage, None)

    members = {"nav": parts.titled(drawn), "drawn": tuple(drawn)}
    return type("ReportBuilder", (*mixins, ReportPage), members)


def write_report(summary: dict, out, progress=None) -> dict:
    """Write index.html, the PNG plots and summary.json into ``out``; returns their paths.
    ``progress(text)`` hears of each section as it is drawn."""
    out = pathlib.Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OSError(f"cannot create --out {str(out)!r}: {e.strerror or e}") from None
    summary = parts.current(summary)
    for part in parts.PARTS:  # a summary made before a part was: computed from the others
        if part.key and part.key not in summary and part.args == ("summary",):
            summary[part.key] = part.function("compute")(summary)
    b = builder()(summary, out)
    page = b.build(progress)
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    sj = out / "summary.json"
    sj.write_text(json.dumps(summary, indent=1, allow_nan=False) + "\n", encoding="utf-8")
    return {"index": index, "summary_json": sj, "plots": b.pngs}


def report_inputs(run_dir) -> dict:
    """What a report is made from: the dataset's manifest (it changes whenever games are
    added, repaired or replayed) and the code that reads and draws them (every source file of
    results/, and the package version). A report whose summary.json holds the same inputs
    would be written again byte for byte, so ``kalarite demo`` keeps it."""
    from results.store import MANIFEST
    from sim import version

    code = hashlib.sha256(version().encode())
    root = pathlib.Path(__file__).resolve().parent.parent
    for path in sorted(root.rglob("*.py")):
        code.update(path.relative_to(root).as_posix().encode())
        code.update(path.read_bytes())
    manifest = pathlib.Path(run_dir) / MANIFEST
    return {
        "dataset": hashlib.sha256(manifest.read_bytes()).hexdigest()[:16],
        "code": code.hexdigest()[:16],
    }


def report_is_current(run_dir, out, margin=None) -> bool:
    """Does ``out`` hold a complete report of ``run_dir`` made from the same inputs (and the
    same stability ``margin``)?"""
    out = pathlib.Path(out)
    try:
        old = json.loads((out / "summary.json").read_text(encoding="utf-8"))
        same = old.get("report_inputs") == {**report_inputs(run_dir), "margin": margin}
    except (OSError, ValueError, AttributeError):
        return False
    return same and (out / "index.html").is_file()


def make_report(run_dir, out, allow_incomplete: bool = False, margin=None, progress=None) -> dict:
    """Analyse the study in ``run_dir`` and write its report into ``out`` (``margin``: the
    stability margin in points, --margin). ``progress(text)`` is told each step (reading the
    games, then each section drawn): a large study's report takes a minute, and a caller
    shows where it stands."""
    if progress:
        progress("reading and analysing the games")
    inputs = {**report_inputs(run_dir), "margin": margin}
    summary = analysis.analyze(run_dir, allow_incomplete=allow_incomplete, margin=margin)
    summary["report_inputs"] = inputs
    paths = write_report(summary, out, progress)
    return {"summary": summary, **paths}
