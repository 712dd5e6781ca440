"""What a Ray worker does with one chunk of `kalarite check`: play its games with the
invariant checker after every applied option (core.kernel ``play_games_checked``) and return
the games that broke one, nothing else (no dataset is written).

The chunk is played with a short event log (``EV_ROWS``, enough for nearly every game and
twice as fast as the replay's). A game that broke something after overflowing it (the
checks that read the log skip an incomplete one, and ERR_LOG marks the overflow itself) is
played again alone with the log of `kalarite play --check` (sim.single_game.LOG_ROWS), so a
game's verdict is always the one its replay command gives.
"""

import os
import signal
import threading
from dataclasses import dataclass

EV_ROWS = 2000  # per-game log rows of the checked chunk (a game over it is played again)

_ENGINE = {}


@dataclass(frozen=True)
class CheckJob:
    matchup: int  # index into the check's matchups
    chunk_index: int
    mode: str
    decks: tuple
    policies: tuple
    seed: int  # the matchup seed
    first_game: int
    n_games: int
    turn_cap: int
    beings_without_effects: bool
    engine_hash: str  # the driver's: a worker with another engine or content refuses the job
    content_hash: str
    content_dir: str | None = None  # a designer's card files (--content), else the installed


class EngineMismatch(RuntimeError):
    """The worker's engine or content is not the driver's."""


def _content(content_dir):
    if content_dir not in _ENGINE:
        from sim.content import load_content

        _ENGINE[content_dir] = load_content(content_dir)
    return _ENGINE[content_dir]


def check_chunk(job: CheckJob, ignore_sigint: bool = True) -> dict:
    """Play one chunk with the checker; returns {"matchup", "chunk", "games", "broken":
    [(game index, code, turn, actions done), ...], "replayed": games played again with the
    long log, "pid"}."""
    if ignore_sigint and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the driver's (cluster/worker)
    import numpy as np

    from core import ENGINE_HASH
    from core import constants as K
    from core.kernel import play_games_checked
    from core.rows import R_ACTIONS, R_ERROR, R_LOG_LOST, R_TURNS
    from sim.players import policy_codes, policy_params
    from sim.single_game import LOG_ROWS

    content = _content(job.content_dir)
    if ENGINE_HASH != job.engine_hash or content.content_hash != job.content_hash:
        raise EngineMismatch(
            f"worker engine {ENGINE_HASH}/content {content.content_hash} differ from the "
            f"driver's {job.engine_hash}/{job.content_hash}"
        )
    head = (
        content.tables,
        K.MODE_NAMES.index(job.mode),
        len(job.decks),
        np.array([content.deck_index(d) for d in job.decks], np.int32),
        policy_codes(job.policies),
        policy_params(job.policies),
        (job.seed >> 32) & 0xFFFFFFFF,
        job.seed & 0xFFFFFFFF,
    )
    tail = (job.turn_cap, int(job.beings_without_effects))
    rows = play_games_checked(*head, job.first_game, job.n_games, *tail, EV_ROWS)[0]
    broken, replayed = [], 0
    for g in np.flatnonzero(rows[:, R_ERROR]):
        row = rows[g]
        gi = job.first_game + int(g)
        if row[R_LOG_LOST]:  # the short log overflowed (ERR_LOG, or a check it left out)
            row = play_games_checked(*head, gi, 1, *tail, LOG_ROWS)[0][0]
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
