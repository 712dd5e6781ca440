"""Run a study: the dataset store, the study's chunks (results.layout) and the one driver
(cluster/driver.py: warm-up, the session, progress, Ctrl-C and failures around the one chunk
scheduler, cluster/scheduler.py), which plays each chunk as a task of the one worker
(cluster/worker.py, the worker process keeps its compiled kernel between tasks); each
finished chunk is written through the store as it arrives and dropped.

- Workers of a cluster must run the same kalarite: engine and content hashes and the
  players' parameter rows (resolved once here, shipped with every chunk) are checked on
  every chunk.
- A task whose worker dies is retried (the scheduler); its chunk is still written once, by
  the driver, under a name fixed by (matchup, chunk index).
- Ctrl-C is acknowledged at once, finishes the chunks in flight and leaves a resumable
  dataset (its manifest says "interrupted", never "complete"); running the study again
  plays the missing chunks (also of a finished study that lost some), and is a no-op when
  nothing is missing.
- The engine is compiled (or loaded) once in the driver before any worker starts
  (cluster/warmup.py), so the workers load numba's cache instead of all compiling at once.
- ``workers=0`` plays the chunks in this process, without Ray (cluster/inprocess.py).
- Progress: a bar on a terminal, else a plain line every few seconds (cluster/progress.py).

The driver's test hooks (KALARITE_TEST_KILL_CHUNK, KALARITE_TEST_INTERRUPT_AFTER,
KALARITE_TEST_HOLD_FILE) are described in cluster/driver.py.
"""

import dataclasses
import os
import time
from dataclasses import dataclass, field

from cluster import progress as plain_progress
from cluster.driver import Driver, RunFailed, chunk_jobs
from cluster.session import RayStartError  # noqa: F401  (re-exported: the runner's errors)
from cluster.until import play_looks
from results.looks import chunk_size_for_looks
from results.looks import plan as plan_looks
from results.store import DatasetStore, dataset_info, stored_deals
from sim.chunking import MAX_CHUNKS, choose_chunk_size, count_chunks
from sim.study_size import DiskSpaceError, big_study_warning, check_free_disk


class StudyFailed(RunFailed):
    """The study could not finish (a chunk failed for good, or the dataset could not be
    written: a full disk, say); the dataset stays resumable (exit status 1, not 2: the input
    was fine)."""


@dataclass
class RunSummary:
    out: str
    games: int  # games in the study
    games_played: int  # played by this run
    games_skipped: int  # finished by an earlier run
    chunks: int
    chunks_played: int
    chunks_skipped: int
    wall_s: float  # the whole run, starting Ray included
    workers: int
    start_s: float = 0.0  # of which: starting or connecting to Ray
    compile_s: float = 0.0  # of which: compiling the engine (first run of an engine version)
    play_s: float = 0.0  # of which: from the first chunk submitted to the last written
    workers_start_s: float = 0.0  # of play_s: the workers starting, before the first chunk
    nothing_to_do: bool = False  # the study was finished already, nothing was missing
    refilled: bool = False  # the study was finished, and chunks it had lost were played again
    errors: int = 0  # games with a non-zero error code
    status: str = "complete"
    max_in_flight: int = 0  # most chunks submitted and not yet written at once
    worker_pids: set = field(default_factory=set)
    tables: tuple = ("games", "card_events", "task_claims")  # what the dataset holds
    stopped: dict | None = None  # a study played --until: where it stopped and why

    @property
    def playing_s(self) -> float:
        """The time spent playing: from the first chunk submitted to the last one written,
        less the workers' start-up (for a summary built without ``play_s``, the wall time
        less compiling and starting Ray)."""
        play = self.play_s or max(0.0, self.wall_s - self.start_s - self.compile_s)
        return max(0.0, play - self.workers_start_s)

    @property
    def games_per_s(self) -> float:
        """Games this run played over the time spent playing (Ray up, engine compiled,
        workers started: all three are shown apart). The progress display's rate is the
        same rate seen from the workers (their seconds playing each chunk)."""
        play = self.playing_s
        return self.games_played / play if play > 0 else 0.0

    def line(self) -> str:
        stopped = f"; stopped: {self.stopped['why']}" if self.stopped else ""
        if self.nothing_to_do:
            return (
                f"nothing to do: {self.out} already holds this finished study "
                f"({self.games:,} games in {self.chunks:,} chunks){stopped}"
            )
        done = self.games_played + self.games_skipped
        text = f"{done} games"
        if self.refilled:
            text += (
                f" (the finished study had lost or damaged {self.chunks_played} chunk"
                f"{'s' * (self.chunks_played != 1)}: {self.games_played} games played again)"
            )
        elif self.games_skipped:
            text += f" ({self.games_skipped} from an earlier run)"
        if self.status != "complete":
            text += f" of {self.games}"
        where = "in this process" if self.workers == 0 else f"{self.start_s:.1f} s starting Ray"
        compiled = f"{self.compile_s:.1f} s compiling the engine, " if self.compile_s else ""
        if self.workers_start_s >= 0.05:
            where += f", {self.workers_start_s:.1f} s starting workers"
        text += (
            f" in {self.wall_s:.1f} s ({compiled}{where}, {self.playing_s:.1f} s playing), "
            f"{self.games_per_s:,.0f} games/s, {max(self.workers, 1)} "
            f"worker{'s' if self.workers > 1 else ''}"
        )
        if self.errors:
            text += f", {self.errors} games with engine errors"
        return f"{text} -> {self.out} ({', '.join(self.tables)}){stopped}"


class StudyInterrupted(KeyboardInterrupt):
    def __init__(self, summary: RunSummary):
        super().__init__()
        self.summary = summary


def run_study(
    study,
    content,
    out,
    *,
    workers: int | None = None,
    address: str | None = None,
    chunk_size: int | None = None,
    overwrite: bool = False,
    progress: bool | None = None,
    force: bool = False,
    session=None,
) -> RunSummary:
    """Play ``study`` into the dataset ``out``; returns the summary. Raises StoreError,
    ChunkingError or RayStartError before anything is written, StudyInterrupted on Ctrl-C and
    StudyFailed when a chunk fails for good (both leave a resumable dataset), DiskSpaceError
    when the estimated output is more than the free disk space at ``out`` (unless ``force``).
    ``session``: one the caller opened and closes (cluster.session ``lent``). ``workers=0``
    plays in this process without Ray. A finished study is played again only where chunks
    are missing; with none missing nothing happens (``summary.nothing_to_do``)."""
    t0 = time.perf_counter()  # wall time includes compiling and starting Ray
    if workers is not None and workers < 0:
        raise ValueError("--workers must be at least 1 (0: in this process, without Ray)")
    if not overwrite:
        study = dealt_as_stored(study, out)
    matchups = study.matchups()
    info = dataset_info(study, content)  # the players are resolved here, once
    size = choose_chunk_size(matchups, chunk_size or study.chunk_size)
    if study.until and not (chunk_size or study.chunk_size):  # chunks that end on the looks
        aligned = chunk_size_for_looks(size, study.games)
        within = min(size, plan_looks(study.games)[0])
        size = aligned if count_chunks(matchups, aligned) <= MAX_CHUNKS else within
    store = DatasetStore.prepare(out, info, matchups, size, overwrite=overwrite)
    missing = None
    if store.resume:
        missing = store.missing_chunks()  # checks every chunk on disk (results/chunk_check.py)
        for line in store.damaged_text():
            plain_progress.say(line)
    if store.finished_before and not missing:
        n = store.layout.total_chunks()
        return RunSummary(
            out=str(store.root),
            games=study.total_games,
            games_played=0,
            games_skipped=study.total_games,
            chunks=n,
            chunks_played=0,
            chunks_skipped=n,
            wall_s=time.perf_counter() - t0,
            workers=workers if workers is not None else 0,
            nothing_to_do=True,
        )
    left = _games_left(store, missing)
    try:  # a study that cannot fit on the disk does not start (--force: it does)
        check_free_disk(left, store.root, force)
    except DiskSpaceError:
        store.rollback()
        raise
    warning = big_study_warning(left, _expected_workers(workers))
    if warning:
        plain_progress.say(warning)
    try:
        driver = Driver.open(workers, address, progress, failed=StudyFailed, lent=session)
    except BaseException:
        store.rollback()
        raise
    with driver:
        return _run(study, store, driver, t0)


def dealt_as_stored(study, out):
    """``study`` dealt as the dataset in ``out`` was (its ``deals``), unless the spec named
    its own: a dataset started before shared deals resumes with the seeds it started with."""
    stored = stored_deals(out)
    if study.deals_given or stored is None or stored == study.deals:
        return study
    return dataclasses.replace(study, deals=stored)


def _games_left(store, missing) -> list:
    """[(matchup, games still to play), ...]: ``missing`` chunks (None: every chunk)."""
    if missing is None:
        return [(mu, mu.games) for mu in store.matchups]
    left = {}
    for m, c in missing:
        left[m] = left.get(m, 0) + store.layout.games_in(m, c)
    return [(store.matchups[m], n) for m, n in left.items()]


def _expected_workers(workers) -> int:
    """The workers the run will have, before Ray says (a cluster's: this machine's cores)."""
    if workers == 0:
        return 1
    return workers or os.cpu_count() or 1


def _run(study, store, driver, t0):
    try:
        done = store.begin(driver.session.workers)
    except OSError as e:
        raise StudyFailed(f"cannot write the dataset manifest: {e.strerror or e}") from None
    chunks = store.layout.chunks()
    todo = [c for c in chunks if (c.matchup, c.index) not in done]
    skipped_games = sum(c.n_games for c in chunks if (c.matchup, c.index) in done)
    summary = RunSummary(
        out=str(store.root),
        games=study.total_games,
        games_played=0,
        games_skipped=skipped_games,
        chunks=len(chunks),
        chunks_played=0,
        chunks_skipped=len(chunks) - len(todo),
        wall_s=0.0,
        workers=driver.workers,
        start_s=driver.start_s,
        compile_s=driver.compile_s,
        refilled=store.finished_before,
        tables=tuple(store.tables),
    )

    def stats():
        now = time.perf_counter()
        summary.wall_s = now - t0
        summary.play_s = now - driver.t_play
        summary.workers_start_s = driver.workers_start_s
        summary.max_in_flight = driver.max_in_flight
        return {
            "games_played": summary.games_played,
            "chunks_played": summary.chunks_played,
            "wall_s": round(summary.wall_s, 3),
            "ray_start_s": round(summary.start_s, 3),
            "compile_s": round(summary.compile_s, 3),
            "play_s": round(summary.play_s, 3),
            "workers_start_s": round(summary.workers_start_s, 3),
        }

    def write(job, res):
        try:
            store.write_chunk(job.matchup, job.chunk_index, res["files"])
        except OSError as e:
            raise StudyFailed(
                f"cannot write chunk {job.chunk_index} of {partition(job)}: {e.strerror or e}"
            ) from None
        del res["files"]
        summary.games_played += job.n_games
        summary.errors += res["errors"]
        summary.worker_pids.add(res["pid"])
        summary.chunks_played += 1

    def partition(job):
        return store.layout.partition(job.matchup)

    def play(chunks):
        jobs = chunk_jobs(study, store.matchups, store.info, chunks, positions=study.positions)
        driver.play(jobs, write, where=partition)

    try:
        resume = "run the same command again to resume"
        with driver.playing(summary.games, skipped_games, len(todo), then=resume) as prog:
            if study.until:  # doubling looks: play up to each, stop at the first that decides
                summary.stopped = play_looks(study, store, done, play, prog.note)
                summary.games = summary.games_played + summary.games_skipped
                summary.chunks = len(done)
            else:
                play(todo)
    except KeyboardInterrupt:
        summary.status = "interrupted"
        store.end_run("interrupted", **stats())
        raise StudyInterrupted(summary) from None
    except BaseException:
        summary.status = "failed"
        try:
            store.end_run("failed", **stats())
        except OSError:
            pass  # a full disk: the manifest still says "running", which resumes the same way
        raise
    try:
        store.end_run("complete", **stats())
    except OSError as e:
        raise StudyFailed(f"cannot write the dataset manifest: {e.strerror or e}") from None
    summary.nothing_to_do = bool(study.until and store.finished_before and not summary.games_played)
    return summary
