"""The Python API, for notebooks and scripts: run a study, read its tables and its analysis
as DataFrames, write its report, compare two studies.

    from sim import api

    st = api.run({"decks": ["imperial", "highland"], "games": 500, "seed": 1}, out="runs/a")
    st.games()                     # pandas DataFrame (backend="polars": the polars extra)
    st.analysis()["matchups"]      # the report's numbers as DataFrames
    st.report()                    # runs/a/report/index.html
    api.compare("runs/a", "runs/b").tables["paired_matchups"]

``run`` takes a spec dict (the keys of a study spec TOML, sim/study/) or a spec file; a
spec without ``policies`` is played by the turn planner in every seat (random players' games
are decided by the tie-breakers; ``"policies": "random"`` for speed work). Tiny
studies (well under a minute of play) are played in this process; larger ones on Ray, like
``kalarite study`` (``workers=0`` forces in-process, ``workers=N`` Ray with N workers). A
finished study is not played again: running the same spec into the same ``out`` only plays
what is missing. In a notebook the progress is one line updated in place.

Bad input raises ValueError with the same one-line messages as the command line.
"""

import pathlib
import tempfile

from sim.chunking import matchups_seconds

IN_PROCESS_S = 20.0  # estimated single-core play time under which a study runs in-process
TABLE_NAMES = ("games", "card_events", "task_claims")


def _study(spec, content_dir=None):
    from sim.content.copies import load_content_dir
    from sim.study import load_study, study_from_dict

    if isinstance(spec, dict):
        data = dict(spec)
        if content_dir is not None:
            data["content"] = str(content_dir)
        content = load_content_dir(data.get("content"))
        return study_from_dict(data, content, where="spec")
    return load_study(spec, content_dir=content_dir)


def estimated_seconds(study) -> float:
    """Rough single-core play time of a study (the chunk sizing's estimate)."""
    return matchups_seconds((m, m.games) for m in study.matchups())


def run(
    spec,
    out=None,
    *,
    workers: int | None = None,
    content=None,
    overwrite: bool = False,
    progress: bool | None = None,
    address: str | None = None,
    chunk_size: int | None = None,
) -> "Study":
    """Play a study (spec dict or TOML path) into ``out`` (default: a new temporary
    directory) and return it. ``content``: a directory of card files (as --content)."""
    from cluster.runner import run_study
    from sim.content.copies import load_content_dir

    study = _study(spec, content)
    if out is None:
        out = tempfile.mkdtemp(prefix="kalarite-")
    if workers is None and address is None and estimated_seconds(study) < IN_PROCESS_S:
        workers = 0
    summary = run_study(
        study,
        load_content_dir(study.content),
        out,
        workers=workers,
        address=address,
        chunk_size=chunk_size,
        overwrite=overwrite,
        progress=progress,
    )
    result = Study(out)
    result.summary = summary
    return result


def open(path) -> "Study":  # noqa: A001 - api.open(path) reads naturally in a notebook
    """An existing study dataset."""
    from results.analysis import DatasetError
    from results.store import MANIFEST

    if not (pathlib.Path(path) / MANIFEST).is_file():
        raise DatasetError(f"{str(path)!r} holds no kalarite study (no {MANIFEST})")
    return Study(path)


def _frame(table, backend: str):
    if backend == "pandas":
        from results.pandas_meta import nullable_dtype

        return table.to_pandas(types_mapper=nullable_dtype)
    if backend == "polars":
        from results.frames import polars

        return polars().from_arrow(table)
    if backend == "arrow":
        return table
    raise ValueError(f"backend must be pandas, polars or arrow, got {backend!r}")


class Study:
    """A study dataset on disk: its manifest, tables, analysis and report."""

    def __init__(self, path):
        self.path = pathlib.Path(path)
        self.summary = None  # the run summary when this object comes from run()
        self._analysis = None

    def __repr__(self):
        return f"<kalarite study {str(self.path)!r}>"

    @property
    def manifest(self) -> dict:
        from results.store import read_manifest

        return read_manifest(self.path)

    def table(self, name: str, backend: str = "pandas", columns=None):
        """One of the tables games, card_events, task_claims (positions, where the study
        sampled them) as a DataFrame (pandas: nullable integer dtypes, categoricals for
        repeated strings; or polars, or arrow)."""
        from results.schema import PARTITION_COLUMNS
        from results.store import read_table

        t = read_table(self.path, name, columns=columns)
        for c in PARTITION_COLUMNS:  # repeated strings, like pandas.read_parquet makes them
            if c in t.column_names:
                t = t.set_column(t.column_names.index(c), c, t.column(c).dictionary_encode())
        return _frame(t, backend)

    def games(self, backend: str = "pandas", columns=None):
        return self.table("games", backend, columns)

    def card_events(self, backend: str = "pandas", columns=None):
        return self.table("card_events", backend, columns)

    def task_claims(self, backend: str = "pandas", columns=None):
        return self.table("task_claims", backend, columns)

    def summary_dict(self, allow_incomplete: bool = False) -> dict:
        """Every number of the report (the dict of summary.json)."""
        from results.analysis import analyze

        if self._analysis is None:
            self._analysis = analyze(self.path, allow_incomplete=allow_incomplete)
        return self._analysis

    def analysis(self, backend: str = "pandas", allow_incomplete: bool = False) -> dict:
        """The report's numbers as DataFrames, a frame per part of the report
        (results/parts.py): matchups, deck_vs_field, first_player, tasks, cards, key_findings,
        ... (each part's tidy tables, or its rows flattened)."""
        from results.frames import summary_frames

        return summary_frames(self.summary_dict(allow_incomplete), backend)

    def report(self, out=None, allow_incomplete: bool = False, margin=None) -> pathlib.Path:
        """Write the HTML report (default: the study's report/ folder); its index.html.
        ``margin``: the stability margin in points (default the spec's, else 3)."""
        from results.report import make_report
        from results.report_dirs import report_dir

        target = report_dir(self.path, out)
        return make_report(self.path, target, allow_incomplete=allow_incomplete, margin=margin)[
            "index"
        ]


class Comparison:
    """``compare`` of two studies: ``result`` (the JSON dict), ``tables`` (DataFrames), the
    text of ``kalarite compare`` and the HTML page."""

    def __init__(self, result: dict, backend: str):
        from results.frames import compare_frames

        self.result = result
        self.tables = compare_frames(result, backend)

    def text(self, show_all: bool = False) -> str:
        from results.compare import format_text

        return format_text(self.result, show_all=show_all)

    def __repr__(self):
        return self.text()

    def page(self, out) -> pathlib.Path:
        from results.report.compare_page import write_compare_page

        return write_compare_page(self.result, out)["index"]


def compare(
    a, b, deck_map=None, backend: str = "pandas", allow_incomplete=False, margin=None
) -> Comparison:
    """Compare study ``b`` with the baseline ``a`` (paths or Study objects); ``deck_map``
    reads B's decks as A's ({"imperial-v2": "imperial"}); ``margin``: the stability margin
    in points of ``result["stability"]`` (stable, player-sensitive or undetermined between
    them, for studies that differ only in their players or their seed)."""
    from results.compare import compare as compare_studies

    pa_ = a.path if isinstance(a, Study) else a
    pb_ = b.path if isinstance(b, Study) else b
    return Comparison(compare_studies(pa_, pb_, allow_incomplete, deck_map, margin), backend)
