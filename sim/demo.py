"""`kalarite demo`: run the default study (sim/studies/demo.toml) and write its report."""

import pathlib

from results.commands import report_dir
from results.report import make_report
from sim.content import load_content
from sim.study import load_study

DEMO_SPEC = pathlib.Path(__file__).parent / "studies" / "demo.toml"


def run_demo(out: str, games: int | None, workers: int | None) -> int:
    from cluster.runner import StudyInterrupted, run_study

    content = load_content()
    study = load_study(DEMO_SPEC, content)
    if games is not None:
        if games <= 0:
            raise ValueError(f"--games must be a positive integer, got {games}")
        study.games = games
    try:
        summary = run_study(study, content, out, workers=workers, overwrite=True)
    except StudyInterrupted as e:
        print(f"kalarite: interrupted: {e.summary.line()}")
        return 130
    print(f"kalarite: {summary.line()}")
    target = report_dir(out, None)
    r = make_report(out, target)
    print(f"kalarite: demo report -> {r['index']}")
    return 0
