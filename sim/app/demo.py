"""`kalarite demo`: run the default study (sim/studies/demo.toml) and write its report.

Like any study, running it again only plays what is missing; a directory that holds another
study (or the demo with another --games) is replaced only with --overwrite. A report made
from the same dataset by the same code is kept, not written again (about a minute)."""

import pathlib

from results.report import report_is_current
from results.report_dirs import report_dir
from sim.app.report_commands import write_report_with_progress
from sim.content import load_content
from sim.study import load_study

DEMO_SPEC = pathlib.Path(__file__).parent.parent / "studies" / "demo.toml"


def run_demo(out: str, games: int | None, workers: int | None, overwrite: bool = False) -> int:
    from cluster.runner import run_study
    from sim.app.run_outcome import run_to_end

    content = load_content()
    study = load_study(DEMO_SPEC, content, games=games)  # --games checked as the spec's key
    summary, rc = run_to_end(
        lambda: run_study(study, content, out, workers=workers, overwrite=overwrite)
    )
    if rc:
        return rc
    print(f"kalarite: {summary.line()}")
    kept = pathlib.Path(out) / "report"  # (looked at before report_dir clears its plots)
    if report_is_current(out, kept):
        print(
            f"kalarite: demo report -> {kept / 'index.html'} (up to date: the same games "
            f"and report code; `kalarite report {out}` writes it again)"
        )
        return 0
    r = write_report_with_progress(out, report_dir(out, None))
    print(f"kalarite: demo report -> {r['index']}")
    return 0
