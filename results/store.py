"""A study's dataset on disk: the manifest ``study.json`` and one Parquet file per chunk and
table, written atomically under a name fixed by (mode, matchup, policies, chunk index).

Layout of ``--out`` (results.layout, which also says how many chunks a matchup has and
how many games each holds)::

    study.json                                      manifest: spec, versions, status, runs
    games/mode=M/matchup=A-vs-B/policies=P-vs-Q/part-00000.parquet
    card_events/mode=M/matchup=A-vs-B/policies=P-vs-Q/part-00000.parquet
    task_claims/...
    positions/...                                   only when the study samples positions

A chunk's files are written to a hidden temporary name and renamed into place, ``games``
last; a chunk is finished when all of its files (one per table of the study:
``dataset_tables``) exist and are sound (readable Parquet
with the chunk's rows: results/chunk_check.py). Only the driver writes, one chunk result at a
time, so a chunk whose task was retried is still written once, and a resumed study skips the
finished chunks and plays the damaged ones again.
"""

import datetime
import json
import os
import pathlib
import shutil

import pyarrow.dataset as ds

from results.layout import MANIFEST, Layout, parse_part
from results.schema import ALL_TABLES, PARTITION_SCHEMA, dataset_tables

MANIFEST_BYTES = 256 << 20  # a manifest lists a study's chunks: far under this
FORMAT = 1
_PROBE = ".kalarite-write-test"


class StoreError(ValueError):
    """--out cannot hold this study (one line, exit status 2)."""


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def _write_atomic(path: pathlib.Path, data: bytes):
    """Write ``path`` whole or not at all (a full disk leaves no partial file behind)."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def engine_version() -> str:
    from sim import version

    return version()


def dataset_info(study, content, players=None) -> dict:
    """What identifies a dataset's games besides their seeds: the engine and content versions,
    the normalized study spec, and the players' parameter rows as resolved now (the profile
    file and the players' defaults are outside the engine hash): ``players`` {spec: digest}
    and ``players_hash`` go to the manifest and every Parquet file, the rows themselves
    (``player_rows``) to the manifest and, through the runner, to every worker (sim.games).
    A designer's content (--content) adds its directory and the cards that differ from the
    installed ones (``content_changes``); ``content_record`` (every card's data, for
    ``compare``) goes to the manifest only. ``players``: already resolved ({spec: Player}),
    else resolved here."""
    from core import ENGINE_HASH
    from sim.content.copies import custom_dir, load_content_dir
    from sim.content.diff import content_record, diff_records, summary_of
    from sim.games import players_digests, players_hash, resolve_players

    if players is None:
        players = resolve_players(p for mu in study.matchups() for p in mu.policies)
    digests = players_digests(players)
    record = content_record(content)
    where = custom_dir(content)
    changes = None
    if where is not None:
        changes = summary_of(diff_records(content_record(load_content_dir(None)), record))
    return {
        "engine_hash": ENGINE_HASH,
        "engine_version": engine_version(),
        "content_hash": content.content_hash,
        "content_dir": where,
        "content_changes": changes,
        "beings_without_effects": study.beings_without_effects,
        "task_names": list(content.task_names),
        "study": study.to_dict(),
        "players_hash": players_hash(digests),
        "players": digests,
        "player_rows": {spec: p.to_json() for spec, p in players.items()},
        "content_record": record,
    }


_MANIFEST_ONLY = ("content_record", "player_rows")


def job_info(info: dict) -> dict:
    """``dataset_info`` without the content record and the players' rows: what every chunk
    carries to its worker and into its Parquet files' metadata (the rows travel with each
    job on their own, only those its matchup plays)."""
    return {k: v for k, v in info.items() if k not in _MANIFEST_ONLY}


def read_manifest(out) -> dict:
    """study.json, read as any untrusted document is (sim.inputs: bounded nesting and size,
    one-line ValueError)."""
    from sim.inputs import read_document

    path = pathlib.Path(out) / MANIFEST
    return read_document(path, str(path), "JSON", ValueError, max_bytes=MANIFEST_BYTES)


def stored_deals(out) -> str | None:
    """How the games of the dataset in ``out`` were dealt (its spec's ``deals``; per-player
    for one stored before the key), or None where ``out`` holds no readable study."""
    from sim.study import canonical_spec

    try:
        m = read_manifest(out)
    except (OSError, ValueError):
        return None
    spec = canonical_spec(m.get("study")) if isinstance(m, dict) else None
    return spec.get("deals") if isinstance(spec, dict) else None


def open_table(out, table: str) -> ds.Dataset:
    """One table of a study as a pyarrow dataset (partition columns as strings)."""
    if table not in ALL_TABLES:
        raise ValueError(f"unknown table {table!r} (tables: {', '.join(ALL_TABLES)})")
    return ds.dataset(
        pathlib.Path(out) / table,
        format="parquet",
        partitioning=ds.partitioning(PARTITION_SCHEMA, flavor="hive"),
    )


def read_table(out, table: str, columns=None):
    return open_table(out, table).to_table(columns=columns)


class DatasetStore:
    """Where one study's chunks go. ``prepare`` checks and creates ``--out``; ``begin`` starts
    (or resumes) the run and says which chunks are finished; ``write_chunk`` writes one chunk;
    ``end_run`` records how the run ended (``complete`` marks the dataset finished)."""

    def __init__(self, root, info, matchups, chunk_size):
        self.root = pathlib.Path(root)
        self.info = info  # engine/content versions, normalized spec (see dataset_info)
        self.tables = dataset_tables(info["study"])  # what each chunk writes
        self.matchups = matchups
        self.chunk_size = chunk_size
        self.resume = False
        self.replace = False  # --overwrite of an existing dataset
        self.finished_before = False  # resuming a finished study (to refill lost chunks)
        self.manifest = None
        self._created = []  # directories prepare() made, for rollback
        self._done = None  # the sound finished chunks, once checked (resume)
        self.damaged = []  # (matchup, chunk, reason) of chunks found unsound on resume
        self._layout = None

    @property
    def layout(self) -> Layout:
        """The dataset's files (the chunk size is the dataset's own once resuming)."""
        if self._layout is None or self._layout.chunk_size != self.chunk_size:
            self._layout = Layout.of_matchups(self.matchups, self.chunk_size)
        return self._layout

    # --- before anything is written ------------------------------------------------------

    @classmethod
    def prepare(cls, out, info, matchups, chunk_size, overwrite=False):
        """Check that ``out`` can take this study, and create it. Raises StoreError (nothing
        written) when it cannot. On resume the chunk size of the dataset is kept."""
        store = cls(out, info, matchups, chunk_size)
        root = store.root
        if root.exists() and not root.is_dir():
            raise StoreError(f"--out {str(root)!r} exists and is not a directory")
        old = None
        if root.is_dir():
            try:
                entries = [p.name for p in root.iterdir()]
            except OSError as e:
                raise StoreError(f"cannot read --out {str(root)!r}: {e.strerror}") from None
            if MANIFEST in entries:
                try:
                    old = read_manifest(root)
                    if not isinstance(old, dict) or old.get("format") != FORMAT:
                        raise ValueError
                except (OSError, ValueError):
                    if not overwrite:
                        raise StoreError(
                            f"{root / MANIFEST} is unreadable; pass --overwrite to replace "
                            "the dataset"
                        ) from None
                    old = {"status": "unreadable"}
            elif entries and set(entries) - {_PROBE}:
                raise StoreError(
                    f"--out {str(root)!r} is not empty and holds no kalarite study; "
                    "refusing to write there"
                )
        if old is not None:
            if overwrite:
                store.replace = True
            else:
                diff = store._differences(old)
                finished = old.get("status") == "complete"
                if diff:
                    state = "a finished" if finished else "an unfinished"
                    *most, last = diff.split(", ")
                    what = f"{', '.join(most)} and {last}" if most else last
                    verb = "differ" if most else "differs"
                    raise StoreError(
                        f"{str(root)!r} holds {state} different study (its {what} {verb}); "
                        "pass --overwrite to replace it, or choose another --out"
                    )
                changed = store._players_changed(old)
                if changed:
                    raise StoreError(
                        f"{changed}; start a new --out (or pass --overwrite to replace the "
                        f"study in {str(root)!r})"
                    )
                store.resume = True
                store.finished_before = finished
                store.chunk_size = int(old["chunk_size"])
                store.manifest = old
        store._create()
        return store

    def _differences(self, old) -> str:
        keys = [
            ("study spec", "study"),
            ("engine version", "engine_hash"),
            ("content version", "content_hash"),
        ]
        from sim.study import canonical_spec

        def norm(k, v):  # a spec of before same_players: the same players written two ways
            return canonical_spec(v) if k == "study" else v

        diff = [label for label, k in keys if norm(k, old.get(k)) != norm(k, self.info[k])]
        return ", ".join(diff)

    def _players_changed(self, old) -> str | None:
        """Why the study's players are not the ones that played its finished chunks, or None.
        A dataset started before the players were recorded cannot show its players were
        the same, so it is never resumed (its engine differs anyway: the record came with
        an engine change)."""
        before, now = old.get("players"), self.info["players"]
        if not isinstance(before, dict):
            return (
                "the study was started by a kalarite that did not record its players' "
                "parameters, so resuming it could mix two players under one name"
            )
        from sim.games import changed_parts
        from sim.players import load_profiles

        profiles = load_profiles()
        rows = old.get("player_rows")
        rows = rows if isinstance(rows, dict) else {}  # the manifest is untrusted
        for spec, digest in now.items():
            if before.get(spec) == digest:
                continue
            base = spec.split(":")[0]
            who = f"the profile of {spec!r}" if base in profiles else f"the player {spec!r}"
            try:
                what = ": " + ", ".join(changed_parts(rows[spec], self.info["player_rows"][spec]))
            except (KeyError, TypeError, ValueError, IndexError):
                what = ""  # no readable record of the old row: the hashes say it all
            return (
                f"{who} changed since this study started (players hash "
                f"{before.get(spec, 'none')}, now {digest}{what})"
            )
        return None

    def _create(self):
        missing = []
        p = self.root.absolute()
        while not p.exists():
            missing.append(p)
            if p.parent == p:
                break
            p = p.parent
        if p.exists() and not p.is_dir():
            raise StoreError(f"cannot write to --out {str(self.root)!r}: {str(p)!r} is a file")
        try:
            for d in reversed(missing):
                d.mkdir()
                self._created.append(d)
            probe = self.root / _PROBE
            with open(probe, "wb") as f:
                f.write(b"ok")
            probe.unlink()
        except OSError as e:
            self.rollback()
            reason = e.strerror or str(e)
            raise StoreError(f"cannot write to --out {str(self.root)!r}: {reason}") from None

    def rollback(self):
        """Undo ``prepare`` (the run never started): remove the directories it created."""
        (self.root / _PROBE).unlink(missing_ok=True)
        for d in reversed(self._created):
            try:
                d.rmdir()
            except OSError:
                pass
        self._created = []

    # --- the run ---------------------------------------------------------------------------

    def begin(self, workers: int | None = None) -> set:
        """Start the run: replace an old dataset when asked, write the manifest, remove
        temporary leftovers. Returns the finished chunks as (matchup index, chunk index)."""
        if self.replace:
            for t in ALL_TABLES:  # the old study's tables, whichever it had
                if (self.root / t).exists():
                    shutil.rmtree(self.root / t)
            (self.root / MANIFEST).unlink(missing_ok=True)
        done = self._finished_chunks() if self.resume else set()
        runs = list(self.manifest.get("runs", [])) if self.manifest else []
        runs.append({"started": _now(), "status": "running", "workers": workers})
        self.manifest = {
            "format": FORMAT,
            "status": "running",
            **{k: self.info[k] for k in ("engine_hash", "engine_version", "content_hash")},
            "beings_without_effects": self.info["beings_without_effects"],
            "task_names": self.info.get("task_names", []),
            "content_dir": self.info.get("content_dir"),
            "content_changes": self.info.get("content_changes"),
            "content": self.info.get("content_record"),
            "study": self.info["study"],
            "deals": self.info["study"]["deals"],  # sim.study: how its matchups are seeded
            "players_hash": self.info["players_hash"],
            "players": self.info["players"],
            "player_rows": self.info["player_rows"],
            "chunk_size": self.chunk_size,
            "tables": list(self.tables),
            "partitioning": list(PARTITION_SCHEMA.names),
            "matchups": [
                {**mu.to_dict(), "chunks": self.layout.chunks_of(m)}
                for m, mu in enumerate(self.matchups)
            ],
            "games": sum(m.games for m in self.matchups),
            **self._until(),
            "created": (self.manifest or {}).get("created", _now()),
            "completed": None,
            "runs": runs,
        }
        self._write_manifest()
        self._created = []  # from now on the dataset is the user's
        return done

    def _until(self) -> dict:
        """A study played ``--until``: its looks and the error spent over them, before any
        look is read (each run reads them again: results/looks.py)."""
        spec = self.info["study"]
        if not spec.get("until"):
            return {}
        from results.looks import block

        return {"until": block(spec["until"], spec["games"])}

    def record_look(self, rec: dict, stopped: dict | None):
        """Record a look of a study played ``--until`` (and where it stopped)."""
        until = self.manifest["until"]
        until["results"] = [r for r in until["results"] if r["look"] < rec["look"]] + [rec]
        until["stopped"] = stopped
        self._write_manifest()

    def _finished_chunks(self) -> set:
        """The chunks on disk that count as done: all of its files there and sound
        (results/chunk_check.py). Those with every file there but one unsound go to
        ``self.damaged`` as (matchup, chunk, reason), their files removed so that they are
        played again (and a reader of the unfinished dataset does not trip on them). Checked
        once per run; ``missing_chunks`` and ``begin`` share the result."""
        if self._done is not None:
            return self._done
        from results.chunk_check import chunk_problem

        layout = self.layout
        present = None
        for t in self.tables:
            have = set()
            for m in range(len(layout)):
                d = layout.directory(self.root, t, m)
                if not d.is_dir():
                    continue
                for p in d.iterdir():
                    if p.name.startswith(".") and p.name.endswith(".tmp"):
                        p.unlink(missing_ok=True)  # a write cut short
                    elif (c := parse_part(p.name)) is not None:
                        have.add((m, c))
            present = have if present is None else present & have
        done = set()
        self.damaged = []
        for m, c in sorted(present or ()):
            n = layout.games_in(m, c)
            if n == 0:
                continue  # not a chunk of this study (never played: ignored)
            paths = {t: self.chunk_path(t, m, c) for t in self.tables}
            first, last = layout.first_game(m, c), layout.last_game(m, c)
            problem = chunk_problem(paths, first, n, last)
            if problem is None:
                done.add((m, c))
                continue
            self.damaged.append((m, c, problem))
            for t in ("games", *(t for t in self.tables if t != "games")):  # games first
                paths[t].unlink(missing_ok=True)
        self._done = done
        return done

    def damaged_text(self) -> list:
        """One line per damaged chunk found by the check (at most 10, then a count)."""
        lines = [
            f"chunk {c} of {self.layout.partition(m)} (games "
            f"{self.layout.first_game(m, c):,}..): {why}: replaying it"
            for m, c, why in self.damaged[:10]
        ]
        if len(self.damaged) > 10:
            lines.append(f"... and {len(self.damaged) - 10} more damaged chunks: replaying them")
        return lines

    def missing_chunks(self) -> list:
        """(matchup index, chunk index) of the chunks not (or not soundly) on disk."""
        done = self._finished_chunks() if self.resume else set()
        layout = self.layout
        return [
            (m, c)
            for m in range(len(layout))
            for c in range(layout.chunks_of(m))
            if (m, c) not in done
        ]

    def chunk_path(self, table: str, matchup: int, chunk_index: int) -> pathlib.Path:
        return self.layout.path(self.root, table, matchup, chunk_index)

    def write_chunk(self, matchup: int, chunk_index: int, files: dict):
        """Write one chunk's tables (Parquet bytes by table name); ``games`` last."""
        for t in (*(t for t in self.tables if t != "games"), "games"):
            path = self.chunk_path(t, matchup, chunk_index)
            path.parent.mkdir(parents=True, exist_ok=True)
            _write_atomic(path, files[t])

    def end_run(self, status: str, **stats):
        """Record how this run ended: "complete" marks the dataset finished; "interrupted" or
        "failed" leaves it resumable."""
        run = self.manifest["runs"][-1]
        run.update(status=status, ended=_now(), **stats)
        if status == "complete":
            self.manifest["status"] = "complete"
            self.manifest["completed"] = run["ended"]
        self._write_manifest()

    def _write_manifest(self):
        data = json.dumps(self.manifest, indent=2, sort_keys=False).encode() + b"\n"
        _write_atomic(self.root / MANIFEST, data)
