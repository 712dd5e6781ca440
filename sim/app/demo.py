"""`kalarite demo`: run the default study (sim/studies/demo.toml) and write its report.

Like any study, running it again only plays what is missing; a directory that holds another
study (or the demo with another --games) is replaced only with --overwrite."""

import pathlib
import sys

from results.report import make_report
from results.report_dirs import report_dir
from sim.content import load_content
from sim.study import load_study

DEMO_SPEC = pathlib.Path(__file__).parent.parent / "studies" / "demo.toml"


def run_demo(out: str, games: int | None, workers: int | None, overwrite: bool = False) -> int:
    from cluster.runner import StudyInterrupted, run_study

    content = load_content()
    study = load_study(DEMO_SPEC, content, games=games)  # --games checked as the spec's key
    try:
        summary = run_study(study, content, out, workers=workers, overwrite=overwrite)
    except StudyInterrupted as e:
        print(f"kalarite: interrupted: {e.summary.line()}", file=sys.stderr)
        return 130
    print(f"kalarite: {summary.line()}")
    target = report_dir(out, None)
    print("kalarite: writing the report...", file=sys.stderr, flush=True)
    r = make_report(out, target)
    print(f"kalarite: demo report -> {r['index']}")
    return 0
