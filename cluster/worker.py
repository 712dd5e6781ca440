"""What a Ray worker does with one chunk: play its games with the compiled kernel and return
the chunk's tables as Parquet bytes (the driver only writes bytes to disk): three, and the
``positions`` table when the study samples positions.

The content and the compiled kernel are loaded once per worker process (``_engine``) and
reused for every chunk that process plays. Nothing here needs Ray: ``play_chunk_files`` is a
plain function, which the runner wraps as a Ray task.
"""

import json
import os
import pathlib
import signal
import socket
import sys
import threading
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

EV_ROWS = 4000  # per-game log rows: enough for card events and task claims
COMPRESSION = "zstd"

_ENGINE = {}


@dataclass(frozen=True)
class ChunkJob:
    matchup: int  # index into the study's matchups
    chunk_index: int
    mode: str
    decks: tuple
    policies: tuple
    seed: int  # the matchup seed
    first_game: int
    n_games: int
    turn_cap: int
    beings_without_effects: bool
    info: dict  # dataset_info: versions and spec (checked here, stored in each file)
    kill_marker: str | None = None  # test hook: die once (os._exit) unless this file exists
    content_dir: str | None = None  # a designer's card files (--content), else the installed
    positions: int = 0  # sample about one turn end in this many (the positions table); 0: off
    games: tuple = ()  # the chunk's game indices (a study of some games); (): a range


class EngineMismatch(RuntimeError):
    """The worker's engine or content is not the driver's."""


def _engine(content_dir=None):
    """(content, play_chunk, card ids, play_chunk_with_positions), loaded once per process and
    content directory; the kernel compiles (or loads from numba's cache) on its first call."""
    if content_dir not in _ENGINE:
        from core.kernel import play_chunk, play_chunk_with_positions
        from sim.content import load_content

        content = load_content(content_dir)
        _ENGINE[content_dir] = (
            content,
            play_chunk,
            [c.id for c in content.cards],
            play_chunk_with_positions,
        )
    return _ENGINE[content_dir]


def _parquet_bytes(table) -> bytes:
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression=COMPRESSION)
    return sink.getvalue().to_pybytes()


def _maybe_die(marker):
    if not marker:
        return
    p = pathlib.Path(marker)
    if not p.exists():
        p.write_text(str(os.getpid()))
        os._exit(1)


def where_played() -> dict:
    """The Ray node, host and process that played a chunk: stored in each of the chunk's
    Parquet files (metadata key ``kalarite.chunk``), so a cluster run shows where every chunk
    ran. The node id is empty outside Ray."""
    node = ""
    ray = sys.modules.get("ray")  # never imported here just to ask
    if ray is not None and ray.is_initialized():
        node = ray.get_runtime_context().get_node_id()
    return {"node_id": node, "host": socket.gethostname(), "pid": os.getpid()}


def _play_runs(play_chunk, head, tail, games):
    """The kernel's rows for the listed games (sorted): one call per run of consecutive
    games, the rows stacked, card events and task claims renumbered to the game's place in
    the list (as a range's rows are numbered from its first game)."""
    runs = []
    for g in games:
        if runs and g == runs[-1][0] + runs[-1][1]:
            runs[-1][1] += 1
        else:
            runs.append([g, 1])
    parts, offset = [], 0
    for first, n in runs:
        rows, cev, tcl = play_chunk(*head, first, n, *tail, 0, EV_ROWS)
        cev = cev.copy()
        tcl = tcl.copy()
        cev[:, 0] += offset
        tcl[:, 0] += offset
        parts.append((rows, cev, tcl))
        offset += n
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(3))


def play_chunk_files(job: ChunkJob, ignore_sigint: bool = True) -> dict:
    """Play one chunk; returns {"files": {table: Parquet bytes}, "games", "errors", "pid",
    "node_id"}. ``ignore_sigint=False`` when the chunk is played in the driver itself
    (workers=0)."""
    # Ctrl-C is the driver's business: it stops the study; a worker interrupted by the same
    # signal mid-chunk (worse: mid-import of numba, which leaves it half-imported for good)
    # only makes Ray retry work that is about to be dropped. Ignore it before any import.
    if ignore_sigint and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    from core import ENGINE_HASH
    from core import constants as K
    from core.kernel import R_ERROR
    from results.schema import chunk_tables
    from sim.players import policy_codes, policy_params

    _maybe_die(job.kill_marker)
    content, play_chunk, card_ids, play_with_positions = _engine(job.content_dir)
    if ENGINE_HASH != job.info["engine_hash"] or content.content_hash != job.info["content_hash"]:
        raise EngineMismatch(
            f"worker engine {ENGINE_HASH}/content {content.content_hash} differ from the "
            f"driver's {job.info['engine_hash']}/{job.info['content_hash']}"
        )
    decks = np.array([content.deck_index(d) for d in job.decks], np.int32)
    head = (
        content.tables,
        K.MODE_NAMES.index(job.mode),
        len(job.decks),
        decks,
        policy_codes(job.policies),
        policy_params(job.policies),
        (job.seed >> 32) & 0xFFFFFFFF,
        job.seed & 0xFFFFFFFF,
    )
    tail = (job.turn_cap, int(job.beings_without_effects))
    pos = None
    if job.positions:
        # the same games as play_chunk's (the sampling draws none of their random numbers)
        args = (*head, job.first_game, job.n_games, *tail)
        rows, cev, tcl, pos = play_with_positions(*args, EV_ROWS, job.positions)
    elif job.games:
        rows, cev, tcl = _play_runs(play_chunk, head, tail, job.games)
    else:
        rows, cev, tcl = play_chunk(*head, job.first_game, job.n_games, *tail, 0, EV_ROWS)
    tables = chunk_tables(
        rows,
        cev,
        tcl,
        first_game=job.first_game,
        seed=job.seed,
        mode=job.mode,
        decks=job.decks,
        policies=job.policies,
        turn_cap=job.turn_cap,
        beings_without_effects=job.beings_without_effects,
        card_ids=card_ids,
        task_names=content.task_names,
        metadata=job.info,
        positions=pos,
        game_indices=np.array(job.games, np.int64) if job.games else None,
    )
    where = where_played()
    chunk_md = json.dumps({"matchup": job.matchup, "chunk": job.chunk_index, **where}).encode()
    tables = {
        name: t.replace_schema_metadata({**t.schema.metadata, b"kalarite.chunk": chunk_md})
        for name, t in tables.items()
    }
    return {
        "files": {name: _parquet_bytes(t) for name, t in tables.items()},
        "games": int(len(rows)),
        "errors": int(np.count_nonzero(rows[:, R_ERROR])),
        "pid": os.getpid(),
        "node_id": where["node_id"],
    }
