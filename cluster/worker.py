"""What a Ray worker does with one chunk: the one worker of studies and `kalarite check`.

- A study's chunk: its games through the kernel's seam (core.kernel.play), returned as the
  chunk's Parquet files (bytes: the driver only writes them, results.layout ``encode``
  finishes them): three tables, and ``positions`` when the study samples positions.
- A checked chunk (``ChunkJob.checked``, `kalarite check`): its games with the invariant
  checker after every applied option, a short event log (``CHECK_EV_ROWS``, enough for
  nearly every game and twice as fast as the replay's); only the games that broke something
  come back. A game that broke something after overflowing that log (the checks that read
  the log skip an incomplete one, and ERR_LOG marks the overflow itself) is played again
  alone with the log of `kalarite play --check` (sim.single_game.LOG_ROWS), so a game's
  verdict is always the one its replay command gives.

Everything a chunk needs travels with its job, so a worker on any node plays exactly what
the driver loaded: the card files (sim/content/shipped.py: a ``--content DIR`` copy or a
suggest candidate too, never read from a path on the worker's disk) and the players'
parameter rows (their digests, sim.games; the worker never reads the profile file). Every
chunk is checked before it is played: this node's engine must be the driver's (a node with
another kalarite refuses the chunk, naming itself), and the content and players sent must be
the dataset's.

The content is loaded once per worker process and content hash, and the kernel compiles (or
loads numba's cache) on its first call. Nothing here needs Ray: ``run_chunk`` is a plain
function, which the scheduler wraps as a Ray task.
"""

import os
import pathlib
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass

EV_ROWS = 4000  # per-game log rows of a study's chunk: enough for card events and task claims
CHECK_EV_ROWS = 2000  # per-game log rows of a checked chunk (a game over it is played again)


@dataclass(frozen=True)
class ChunkJob:
    matchup: int  # index into the study's (or check's) matchups
    chunk_index: int
    mode: str
    decks: tuple
    policies: tuple
    seed: int  # the matchup seed
    first_game: int
    n_games: int
    turn_cap: int
    beings_without_effects: bool
    # the dataset's identity (results.store.job_info): engine_hash, content_hash and players
    # ({spec: digest}) checked here; a study's chunk also stores it in each file
    info: dict
    players: dict  # {spec: sim.games.Player.to_json()} of this matchup's seats: what is played
    content: object  # sim.content.shipped.PackedContent: the card files the driver loaded
    positions: int = 0  # sample about one turn end in this many (the positions table); 0: off
    checked: bool = False  # `kalarite check`: the invariant checker, only broken games back
    kill_marker: str | None = None  # test hook: die once (os._exit) unless this file exists
    games: tuple = ()  # the chunk's game indices (a study of listed games); (): a range

    @classmethod
    def of(cls, chunk, mu, study, info: dict, rows: dict, **extra) -> "ChunkJob":
        """The job of ``chunk`` (results.layout.Chunk) of matchup ``mu`` of ``study``:
        ``info`` the identity it is checked against, ``rows`` the resolved players' rows
        ({spec: Player.to_json()}, the study's; the job carries its matchup's); the card
        files of ``study.content`` (None: the installed ones) go with it, packed once."""
        from sim.content.shipped import pack_dir

        return cls(
            matchup=chunk.matchup,
            chunk_index=chunk.index,
            mode=mu.mode,
            decks=mu.decks,
            policies=mu.policies,
            seed=mu.seed,
            first_game=chunk.first_game,
            n_games=chunk.n_games,
            turn_cap=study.turn_cap,
            beings_without_effects=study.beings_without_effects,
            info=info,
            players={p: rows[p] for p in mu.policies},
            content=pack_dir(study.content, info["content_hash"]),
            games=getattr(chunk, "games", ()),
            **extra,
        )


class EngineMismatch(RuntimeError):
    """The worker's engine or content, or the chunk's players, are not the dataset's."""


def _maybe_die(marker):
    if not marker:
        return
    p = pathlib.Path(marker)
    if not p.exists():
        p.write_text(str(os.getpid()))
        os._exit(1)


def where_played() -> dict:
    """The Ray node, host and process that played a chunk: stored in each of the chunk's
    Parquet files (results.layout CHUNK_KEY), so a cluster run shows where every chunk ran.
    The node id is empty outside Ray."""
    node = ""
    ray = sys.modules.get("ray")  # never imported here just to ask
    if ray is not None and ray.is_initialized():
        node = ray.get_runtime_context().get_node_id()
    return {"node_id": node, "host": socket.gethostname(), "pid": os.getpid()}


def check_engine(info: dict) -> None:
    """Refuse a chunk of another engine: this node's kalarite must be the driver's (numba
    compiles this node's own files, so another version would play other games)."""
    from core import ENGINE_HASH

    if ENGINE_HASH != info["engine_hash"]:
        raise EngineMismatch(
            f"node {socket.gethostname()} runs another kalarite (engine {ENGINE_HASH}, the "
            f"driver's is {info['engine_hash']}): install the driver's kalarite on every node "
            "of the cluster"
        )


def _checked_batch(job: ChunkJob, content):
    """The chunk's batch, once the engine, content and players are known to be the
    dataset's."""
    from sim.games import Player, batch

    info = job.info
    if content.content_hash != info["content_hash"]:
        raise EngineMismatch(
            f"the card files sent with this chunk are content {content.content_hash}, not "
            f"the dataset's {info['content_hash']}"
        )
    players = {}
    for spec in dict.fromkeys(job.policies):
        p = Player.from_json(spec, job.players[spec])
        if p.digest != info["players"].get(spec):
            raise EngineMismatch(
                f"the parameters of player {spec!r} sent with this chunk (digest {p.digest}) "
                f"are not the dataset's ({info['players'].get(spec)})"
            )
        players[spec] = p
    return batch(content, job.mode, job.decks, job.policies, job.seed, players)


def run_chunk(job: ChunkJob, ignore_sigint: bool = True) -> dict:
    """Play one chunk. A study's chunk returns {"files": {table: Parquet bytes}, "games",
    "errors", "pid", "node_id"}; a checked chunk {"matchup", "chunk", "games", "broken":
    [(game index, code, turn, actions done), ...], "replayed": games played again with the
    long log, "pid"}; both with "start_s" (the worker process's start-up, in its first
    chunk) and "play_s" (seconds playing the chunk). ``ignore_sigint=False`` when the chunk
    is played in the driver itself (workers=0)."""
    # Ctrl-C is the driver's business: it stops the run; a worker interrupted by the same
    # signal mid-chunk (worse: mid-import of numba, which leaves it half-imported for good)
    # only makes Ray retry work that is about to be dropped. Ignore it before any import.
    if ignore_sigint and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    t0 = time.perf_counter()
    _maybe_die(job.kill_marker)
    from sim.content.shipped import unpack

    check_engine(job.info)
    content = unpack(job.content)
    b = _checked_batch(job, content)
    _start_up(b, job.checked)
    t1 = time.perf_counter()
    res = _play_checked(job, b) if job.checked else _play_files(job, b, content)
    res["start_s"] = t1 - t0  # this process's start-up, paid by its first chunk
    res["play_s"] = time.perf_counter() - t1  # playing the chunk: the progress display's rate
    return res


_STARTED = set()


def _start_up(b, checked: bool):
    """What a worker process does once, before its first chunk's games: load the kernel
    (numba's cache: a batch of no games calls it with the one signature every chunk uses)
    and, for a study's chunks, the tables' pandas metadata (pandas' import). Kept out of
    ``play_s``, so the rate a display shows is the rate of playing."""
    if checked in _STARTED:
        return
    from core.kernel import play

    play(b, 0, 0, ev_rows=CHECK_EV_ROWS if checked else EV_ROWS, checked=checked)
    if not checked:
        from results.pandas_meta import pandas_metadata
        from results.schema import SCHEMAS, TABLES

        for table in TABLES:
            pandas_metadata(SCHEMAS[table])
    _STARTED.add(checked)


def _play_files(job: ChunkJob, b, content) -> dict:
    import numpy as np

    from core.kernel import play
    from core.rows import R_ERROR
    from results.layout import encode
    from results.schema import chunk_tables

    kw = {"turn_cap": job.turn_cap, "allow_no_effect": job.beings_without_effects}
    if job.games:  # listed games: one kernel call per run of consecutive games
        rows, cev, tcl = _play_runs(play, b, job.games, kw)
        positions = None
    else:
        out = play(
            b,
            job.first_game,
            job.n_games,
            ev_rows=EV_ROWS,
            positions_every=job.positions,  # samples draw none of the games' random numbers
            **kw,
        )
        rows, cev, tcl = out.rows, out.card_events, out.task_claims
        positions = out.positions if job.positions else None
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
        card_ids=[c.id for c in content.cards],
        task_names=content.task_names,
        metadata=job.info,
        positions=positions,
        game_indices=np.array(job.games, np.int64) if job.games else None,
    )
    where = where_played()
    return {
        "files": encode(tables, {"matchup": job.matchup, "chunk": job.chunk_index, **where}),
        "games": int(len(rows)),
        "errors": int(np.count_nonzero(rows[:, R_ERROR])),
        "pid": os.getpid(),
        "node_id": where["node_id"],
    }


def _play_runs(play, b, games, kw) -> tuple:
    """(rows, card events, task claims) of the listed games (sorted): one kernel call per
    run of consecutive games, stacked, the events' game offsets renumbered to each game's
    place in the list (as a range's are numbered from its first game)."""
    import numpy as np

    runs = []
    for g in games:
        if runs and g == runs[-1][0] + runs[-1][1]:
            runs[-1][1] += 1
        else:
            runs.append([g, 1])
    parts, offset = [], 0
    for first, n in runs:
        out = play(b, first, n, ev_rows=EV_ROWS, **kw)
        cev, tcl = out.card_events.copy(), out.task_claims.copy()
        cev[:, 0] += offset
        tcl[:, 0] += offset
        parts.append((out.rows, cev, tcl))
        offset += n
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(3))


def _play_checked(job: ChunkJob, b) -> dict:
    import numpy as np

    from core.kernel import play
    from core.rows import R_ACTIONS, R_ERROR, R_LOG_LOST, R_TURNS
    from sim.single_game import LOG_ROWS

    def checked(first, n, ev_rows):
        return play(
            b,
            first,
            n,
            turn_cap=job.turn_cap,
            allow_no_effect=job.beings_without_effects,
            ev_rows=ev_rows,
            checked=True,
        ).rows

    rows = checked(job.first_game, job.n_games, CHECK_EV_ROWS)
    broken, replayed = [], 0
    for g in np.flatnonzero(rows[:, R_ERROR]):
        row = rows[g]
        gi = job.first_game + int(g)
        if row[R_LOG_LOST]:  # the short log overflowed (ERR_LOG, or a check it left out)
            row = checked(gi, 1, LOG_ROWS)[0]
            replayed += 1
            if row[R_ERROR] == 0:
                continue
        broken.append((gi, int(row[R_ERROR]), int(row[R_TURNS]), int(row[R_ACTIONS])))
    return {
        "matchup": job.matchup,
        "chunk": job.chunk_index,
        "games": int(len(rows)),
        "broken": broken,
        "replayed": replayed,
        "pid": os.getpid(),
    }
