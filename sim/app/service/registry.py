"""The study registry: one SQLite file under ``--data`` (WAL journal, so a ``kill -9`` never
leaves it half-written).

A study's row says what it is (name, normalized spec, games) and where it stands: its state,
the phase of a running study (``playing``, then ``reporting``), the pid of its child process,
and the error that stopped it. The dataset on disk, not this table, says which games are done.

States: ``queued`` -> ``running`` -> ``finished`` | ``failed`` | ``cancelled``; a failed or
cancelled study can be resumed (back to ``queued``). Every change of state is one UPDATE
whose WHERE names the states it may come from, so a cancel racing a finish has one winner;
``delete`` removes a row that is not running the same way, so it cannot race a start.

Each row names its ``owner`` (the token that submitted it; NULL for a study from before
tokens). The ``tokens`` table holds the per-user tokens (sim.app.service.tokens): a name, a
role and the SHA-256 of the token, never the token.
"""

import json
import pathlib
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass

STATES = ("queued", "running", "finished", "failed", "cancelled")
ACTIVE = ("queued", "running")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS studies (
    id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    name TEXT NOT NULL,
    state TEXT NOT NULL,
    phase TEXT,
    spec TEXT NOT NULL,
    games_total INTEGER NOT NULL,
    matchups INTEGER NOT NULL,
    created REAL NOT NULL,
    started REAL,
    finished REAL,
    error TEXT,
    pid INTEGER,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    runs INTEGER NOT NULL DEFAULT 0,
    owner TEXT
);
CREATE INDEX IF NOT EXISTS studies_state ON studies(state, seq);
CREATE TABLE IF NOT EXISTS tokens (
    name TEXT PRIMARY KEY,
    role TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    created REAL NOT NULL
);
"""


@dataclass
class StudyRow:
    id: str
    seq: int
    name: str
    state: str
    phase: str | None
    spec: dict
    games_total: int
    matchups: int
    created: float
    started: float | None
    finished: float | None
    error: str | None
    pid: int | None
    cancel_requested: bool
    runs: int
    owner: str | None = None


def new_id() -> str:
    """12 hex digits from the OS's random source: ids are made here, never taken from a
    request."""
    return secrets.token_hex(6)


class Registry:
    """Thread-safe access to the registry (one connection behind a lock: every statement is
    short)."""

    def __init__(self, path):
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            columns = {r[1] for r in self._db.execute("PRAGMA table_info(studies)")}
            if "owner" not in columns:  # a registry from before tokens
                self._db.execute("ALTER TABLE studies ADD COLUMN owner TEXT")

    def close(self):
        with self._lock:
            self._db.close()

    def _one(self, sql, args=()) -> StudyRow | None:
        with self._lock:
            row = self._db.execute(sql, args).fetchone()
        return _row(row) if row else None

    def _all(self, sql, args=()) -> list:
        with self._lock:
            rows = self._db.execute(sql, args).fetchall()
        return [_row(r) for r in rows]

    def _update(self, sql, args=()) -> bool:
        with self._lock:
            return self._db.execute(sql, args).rowcount > 0

    # --- reading ---------------------------------------------------------------------------

    def get(self, study_id: str) -> StudyRow | None:
        return self._one("SELECT * FROM studies WHERE id = ?", (study_id,))

    def list(self, state: str | None = None, limit: int = 500) -> list:
        if state:
            return self._all(
                "SELECT * FROM studies WHERE state = ? ORDER BY seq DESC LIMIT ?", (state, limit)
            )
        return self._all("SELECT * FROM studies ORDER BY seq DESC LIMIT ?", (limit,))

    def next_queued(self) -> StudyRow | None:
        return self._one("SELECT * FROM studies WHERE state = 'queued' ORDER BY seq LIMIT 1")

    def count(self, state: str) -> int:
        with self._lock:
            return self._db.execute(
                "SELECT COUNT(*) FROM studies WHERE state = ?", (state,)
            ).fetchone()[0]

    def active_of(self, owner: str) -> int:
        """How many studies ``owner`` has queued or running."""
        with self._lock:
            return self._db.execute(
                "SELECT COUNT(*) FROM studies WHERE owner = ? AND state IN ('queued', 'running')",
                (owner,),
            ).fetchone()[0]

    def ids(self) -> set:
        with self._lock:
            return {r[0] for r in self._db.execute("SELECT id FROM studies")}

    # --- changes ---------------------------------------------------------------------------

    def add(
        self,
        study_id: str,
        name: str,
        spec: dict,
        games_total: int,
        matchups: int,
        owner: str | None = None,
    ):
        with self._lock:
            self._db.execute(
                "INSERT INTO studies (id, seq, name, state, spec, games_total, matchups, "
                "created, owner) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM studies), "
                "?, 'queued', ?, ?, ?, ?, ?)",
                (study_id, name, json.dumps(spec), games_total, matchups, time.time(), owner),
            )

    def delete(self, study_id: str) -> str | None:
        """Remove the row of a study that is not running. Returns the state it was in (the
        row is gone unless that is ``running``), or None when there is no such study."""
        with self._lock:
            row = self._db.execute("SELECT state FROM studies WHERE id = ?", (study_id,)).fetchone()
            if row is None:
                return None
            if row["state"] != "running":
                self._db.execute(
                    "DELETE FROM studies WHERE id = ? AND state != 'running'", (study_id,)
                )
            return row["state"]

    def start(self, study_id: str) -> bool:
        """queued -> running (phase playing); counts the run."""
        return self._update(
            "UPDATE studies SET state = 'running', phase = 'playing', started = ?, error = NULL, "
            "finished = NULL, runs = runs + 1 WHERE id = ? AND state = 'queued' "
            "AND cancel_requested = 0",
            (time.time(), study_id),
        )

    def set_pid(self, study_id: str, pid: int | None, phase: str | None = None):
        if phase is None:
            self._update("UPDATE studies SET pid = ? WHERE id = ?", (pid, study_id))
        else:
            self._update(
                "UPDATE studies SET pid = ?, phase = ? WHERE id = ?", (pid, phase, study_id)
            )

    def finish(self, study_id: str, state: str, error: str | None = None) -> bool:
        """running -> finished | failed | cancelled."""
        assert state in ("finished", "failed", "cancelled")
        return self._update(
            "UPDATE studies SET state = ?, phase = NULL, pid = NULL, error = ?, finished = ?, "
            "cancel_requested = 0 WHERE id = ? AND state = 'running'",
            (state, error, time.time(), study_id),
        )

    def requeue(self, study_id: str) -> bool:
        """running -> queued: the service stopped (or died) under it; the next start resumes."""
        return self._update(
            "UPDATE studies SET state = 'queued', phase = NULL, pid = NULL WHERE id = ? "
            "AND state = 'running'",
            (study_id,),
        )

    def cancel(self, study_id: str) -> str | None:
        """Cancel a queued study at once, or flag a running one (the executor stops its child).
        Returns the state it was in, or None when there was nothing to cancel."""
        with self._lock:
            row = self._db.execute("SELECT state FROM studies WHERE id = ?", (study_id,)).fetchone()
            if row is None or row["state"] not in ACTIVE:
                return None
            if row["state"] == "queued":
                self._db.execute(
                    "UPDATE studies SET state = 'cancelled', finished = ?, error = NULL "
                    "WHERE id = ? AND state = 'queued'",
                    (time.time(), study_id),
                )
            else:
                self._db.execute(
                    "UPDATE studies SET cancel_requested = 1 WHERE id = ? AND state = 'running'",
                    (study_id,),
                )
            return row["state"]

    def resume(self, study_id: str) -> bool:
        """failed | cancelled -> queued."""
        return self._update(
            "UPDATE studies SET state = 'queued', error = NULL, finished = NULL, "
            "cancel_requested = 0 WHERE id = ? AND state IN ('failed', 'cancelled')",
            (study_id,),
        )

    # --- tokens ----------------------------------------------------------------------------

    def add_token(self, name: str, role: str, token_hash: str) -> bool:
        """False when a token of that name exists."""
        with self._lock:
            try:
                self._db.execute(
                    "INSERT INTO tokens (name, role, hash, created) VALUES (?, ?, ?, ?)",
                    (name, role, token_hash, time.time()),
                )
            except sqlite3.IntegrityError:
                return False
            return True

    def revoke_token(self, name: str) -> bool:
        return self._update("DELETE FROM tokens WHERE name = ?", (name,))

    def tokens(self) -> list:
        """(name, role, hash, created) of every token, by name."""
        with self._lock:
            rows = self._db.execute(
                "SELECT name, role, hash, created FROM tokens ORDER BY name"
            ).fetchall()
        return [tuple(r) for r in rows]


def has_tokens(path) -> bool:
    """Does the registry at ``path`` hold any token? Read-only: creates nothing when there is
    no registry yet."""
    path = pathlib.Path(path).absolute()
    if not path.is_file():
        return False
    try:
        db = sqlite3.connect(path.as_uri() + "?mode=ro", uri=True)
        try:
            return db.execute("SELECT COUNT(*) FROM tokens").fetchone()[0] > 0
        finally:
            db.close()
    except sqlite3.Error:
        return False


def _row(r) -> StudyRow:
    d = dict(r)
    d["spec"] = json.loads(d["spec"])
    d["cancel_requested"] = bool(d["cancel_requested"])
    return StudyRow(**d)
