"""The ``report`` and ``compare`` subcommands of ``kalarite``.

``add_report_commands(subparsers)`` registers them on the CLI's subparsers; their handlers
raise ValueError (DatasetError, ComparisonError) or OSError with a one-line message on bad
input, which the CLI prints as ``kalarite: error: ...`` with exit status 2.
"""

import sys

from results.layout import missing_dataset
from results.report_dirs import compare_dir, report_dir
from sim.app.cli_args import add_json_options, emit, wants_json
from sim.app.progress_line import ProgressLine

# results.report and results.compare (pyarrow.dataset, pandas) are imported inside the
# handlers: the CLI builds its parser on every command, and `kalarite play` should not pay a
# second for the report's imports


def write_report_with_progress(run, out, allow_incomplete: bool = False, margin=None) -> dict:
    """Check the dataset first (a refused one prints only its error), then write its report
    saying where it stands (``margin``: the stability margin, --margin)."""
    problem = missing_dataset(run)  # before the report's libraries (a second of CPU) load
    if problem:
        raise ValueError(problem)
    from results.analysis.dataset import Dataset
    from results.report import make_report

    Dataset(run, allow_incomplete=allow_incomplete).con.close()  # refuses a bad dataset
    progress = ProgressLine("writing the report")
    try:
        return make_report(
            run, out, allow_incomplete=allow_incomplete, margin=margin, progress=progress
        )
    finally:
        progress.close()


def cmd_report(args):
    out = report_dir(args.run, args.out)
    r = write_report_with_progress(
        args.run, out, allow_incomplete=args.allow_incomplete, margin=args.margin
    )
    s = r["summary"]
    for w in s["warnings"]:
        print(f"kalarite: warning: {w['text']}")
    n_groups = len(s["groups"]) + len(s["multiplayer"]["groups"])
    print(
        f"kalarite: report of {s['data']['games_analyzed']:,} games in "
        f"{n_groups} group(s) -> {r['index']} ({len(r['plots'])} plots, summary.json)"
    )
    return 0


def cmd_compare(args):
    from results.compare import compare, format_text
    from results.compare.changes import parse_map
    from results.report.compare_page import write_compare_page

    deck_map = parse_map(args.map)
    result = compare(
        args.a,
        args.b,
        allow_incomplete=args.allow_incomplete,
        deck_map=deck_map,
        margin=args.margin,
    )
    nothing = result.get("nothing_to_compare")
    # nothing to compare: the page only where --html asks for it (not beside B by default)
    target = compare_dir(args.a, args.b, args.html) if (args.html or not nothing) else None
    emit(args, result, lambda: format_text(result, show_all=args.all))
    if target is not None:
        page = write_compare_page(result, target)
        where = sys.stderr if wants_json(args) else sys.stdout  # --json: stdout is the JSON
        print(f"kalarite: compare page -> {page['index']}", file=where)
    return 0


def _margin(text: str) -> float:
    """--margin: a number of points, checked by the stability rule's own check."""
    from argparse import ArgumentTypeError

    from results.analysis.stability import check_margin

    try:
        value = float(text)
    except ValueError:
        raise ArgumentTypeError(f"must be a number of points, got {text!r}") from None
    try:
        return check_margin(value, "--margin")
    except ValueError as e:
        raise ArgumentTypeError(str(e).removeprefix("--margin ")) from None


def _margin_option(parser):
    parser.add_argument(
        "--margin",
        type=_margin,
        default=None,
        metavar="POINTS",
        help="the stability rule's margin: a deck's move that matters, in points of win rate "
        "(default: the spec's stability_margin, else 3). Stable: every deck's move within "
        "it; player-sensitive: some deck's move confidently beyond it; else undetermined",
    )


def add_report_commands(subparsers):
    """Register ``report`` and ``compare`` on an argparse subparsers object."""
    summary = "write the balance report of a study: index.html, PNG plots, summary.json"
    report = subparsers.add_parser("report", help=summary, description=summary)
    report.add_argument("run", help="study dataset directory (the --out of simulate/study)")
    report.add_argument("--out", default=None, help="report directory (default: RUN/report)")
    report.add_argument(
        "--allow-incomplete",
        action="store_true",
        help="report on an unfinished study (the report says so)",
    )
    _margin_option(report)
    report.set_defaults(func=cmd_report)

    summary = (
        "compare two studies that differ in one thing (cards, engine or players): what "
        "changed, then the differences with their significance (paired where games pair up); "
        "text here, an HTML page beside B"
    )
    comp = subparsers.add_parser("compare", help=summary, description=summary)
    comp.add_argument("a", help="baseline study dataset directory")
    comp.add_argument("b", help="changed study dataset directory")
    comp.add_argument(
        "--map",
        action="append",
        default=[],
        metavar="VARIANT=ORIGINAL",
        help="read B's deck VARIANT as A's deck ORIGINAL (repeatable; decks declared with "
        "variant_of are mapped already)",
    )
    comp.add_argument(
        "--html",
        default=None,
        metavar="DIR",
        help="directory of the compare page (default: B/compare-vs-<A's directory name>)",
    )
    add_json_options(comp, "the full comparison (what the page's compare.json holds)")
    comp.add_argument(
        "--all", action="store_true", help="list every task and card, not only the significant"
    )
    comp.add_argument(
        "--allow-incomplete", action="store_true", help="compare unfinished studies too"
    )
    _margin_option(comp)
    comp.set_defaults(func=cmd_compare)
    return report, comp
