"""A study's dataset opened for analysis: its Parquet tables as DuckDB views, and what the
study's manifest says about its content."""

import pathlib

import duckdb
import pyarrow as pa

from results.analysis.labels import FORMAT
from results.layout import missing_dataset
from results.schema import PARTITION_COLUMNS, SCHEMAS, TABLES
from results.store import MANIFEST, open_table, read_manifest


class DatasetError(ValueError):
    """A missing, unreadable or incomplete dataset: one line, exit status 2."""


# --- loading ---------------------------------------------------------------------------------


def _has_files(path: pathlib.Path) -> bool:
    return path.is_dir() and any(
        p.suffix == ".parquet" and not p.name.startswith(".") for p in path.rglob("*.parquet")
    )


def _empty_table(table: str) -> pa.Table:
    schema = SCHEMAS[table]
    for c in PARTITION_COLUMNS:
        schema = schema.append(pa.field(c, pa.string()))
    return schema.empty_table()


def stopped_at(manifest) -> int | None:
    """The games per matchup a study played ``--until`` stopped at (results/looks.py: its
    games below that index are the study), or None."""
    until = manifest.get("until") if isinstance(manifest, dict) else None
    stop = until.get("stopped") if isinstance(until, dict) else None
    games = stop.get("games") if isinstance(stop, dict) else None
    return games if isinstance(games, int) and not isinstance(games, bool) else None


def register_look(con, name: str, data, max_games: int | None) -> None:
    """Register ``data`` (a table of a study) in ``con`` as ``name``: its games of index
    below ``max_games`` (a look of a study played ``--until``), or all of them (None)."""
    if max_games is None:
        con.register(name, data)
        return
    con.register(f"{name}_all", data)
    con.execute(
        f"CREATE VIEW {name} AS SELECT * FROM {name}_all WHERE game_index < {int(max_games)}"
    )


def register_study_games(con, name: str, run) -> int | None:
    """Register the games of the study in ``run`` as ``name``, as the report reads them: a
    study played ``--until`` only up to the look it stopped at (the games past it, played
    by chunks in flight at the stop, are not the study). Returns that look's games per
    matchup (None: every game). ``compare``'s reads of the raw games go through it."""
    stop = stopped_at(read_manifest(run))
    register_look(con, name, open_table(run, "games"), stop)
    return stop


class Dataset:
    """A study's manifest and its three tables, registered in an in-memory DuckDB.
    ``max_games``: only the games of index below it in every matchup (a look of a study
    played ``--until``); by default those of the look it stopped at, for such a study."""

    def __init__(self, root, allow_incomplete: bool = False, max_games: int | None = None):
        self.root = pathlib.Path(root)
        root = self.root
        problem = missing_dataset(root)
        if problem:
            raise DatasetError(problem)
        try:
            m = read_manifest(root)
        except (OSError, ValueError) as e:
            raise DatasetError(f"cannot read {root / MANIFEST}: {e}") from None
        if not isinstance(m, dict) or m.get("format") != FORMAT or "study" not in m:
            raise DatasetError(f"{root / MANIFEST} is not a kalarite study manifest (format 1)")
        self.manifest = m
        self.max_games = max_games if max_games is not None else stopped_at(m)
        self.complete = m.get("status") == "complete"
        if not self.complete and not allow_incomplete:
            raise DatasetError(
                f"the study in {str(root)!r} is incomplete (status {m.get('status')!r}); run "
                "the same study command again to finish it, or pass --allow-incomplete"
            )
        if not _has_files(root / "games"):
            raise DatasetError(f"the study in {str(root)!r} has no games (games/ is empty)")
        self.con = duckdb.connect()
        self.games_metadata = {}  # kalarite.* Parquet metadata of the games table
        for t in TABLES:
            if _has_files(root / t):
                try:
                    data = open_table(root, t)
                except (OSError, pa.ArrowException) as e:
                    raise DatasetError(f"cannot read {root / t}: {e}") from None
            elif t != "games" and not self.complete:
                data = _empty_table(t)
            else:
                raise DatasetError(f"the study in {str(root)!r} is incomplete: {t}/ is missing")
            register_look(self.con, f"{t}_raw", data, self.max_games)
            if t == "games":
                md = data.schema.metadata or {}
                self.games_metadata = {k.decode(): v.decode() for k, v in md.items()}
        self._check_counts(allow_incomplete)

    def rows(self, sql: str, params=None) -> list:
        """The rows of a query as dicts."""
        try:
            cur = self.con.execute(sql, params or [])
            names = [d[0] for d in cur.description]
            return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
        except duckdb.Error as e:
            raise DatasetError(f"cannot read the dataset in {str(self.root)!r}: {e}") from None

    def execute(self, sql: str):
        try:
            self.con.execute(sql).fetchall()
        except duckdb.Error as e:
            raise DatasetError(f"cannot read the dataset in {str(self.root)!r}: {e}") from None

    def _check_counts(self, allow_incomplete):
        have = {
            (r["mode"], r["matchup"], r["policies"]): (r["n"], r["distinct_n"])
            for r in self.rows(
                "SELECT mode, matchup, policies, count(*) AS n, "
                "count(DISTINCT game_index) AS distinct_n FROM games_raw GROUP BY ALL"
            )
        }
        self.games_present = sum(n for n, _ in have.values())
        self.games_expected = int(self.manifest.get("games") or 0)
        if self.max_games is not None:
            self.games_expected = sum(
                min(int(mu.get("games") or 0), self.max_games)
                for mu in self.manifest.get("matchups", [])
            )
        for key, (n, d) in have.items():
            if n != d:
                raise DatasetError(
                    f"the dataset in {str(self.root)!r} holds a game twice in {'/'.join(key)}"
                )
        if allow_incomplete and self.max_games is None:
            return  # (a look's games are all there before it is read: checked below)
        for mu in self.manifest.get("matchups", []):
            key = (mu["mode"], mu["matchup"], mu["policies"])
            n = have.get(key, (0, 0))[0]
            want = mu["games"] if self.max_games is None else min(mu["games"], self.max_games)
            if n != want:
                raise DatasetError(
                    f"the dataset in {str(self.root)!r} is incomplete: {'/'.join(key)} has "
                    f"{n} of {want} games"
                )


# --- groups: mode x policy pairing -----------------------------------------------------------


def study_content(manifest):
    """The current game content if it is the content the study was played with, else None."""
    try:
        from sim.content import load_content

        c = load_content()
    except Exception:  # content that does not load is only a missing list of names
        return None
    return c if c.content_hash == manifest.get("content_hash") else None


def table_columns(d: Dataset, table: str) -> set:
    return {r["column_name"] for r in d.rows(f"DESCRIBE SELECT * FROM {table}")}


def has_column(d: Dataset, table: str, column: str) -> bool:
    return column in table_columns(d, table)
