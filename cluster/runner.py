"""Run a study on Ray: split it into chunks of games, play each chunk as a Ray task (the
worker process keeps its compiled kernel between tasks), and write each finished chunk
through the dataset store as it arrives.

- Ray: an existing session is used as it is (and left running); ``address`` (or
  ``RAY_ADDRESS``) connects to an existing cluster; otherwise a local Ray starts with
  ``workers`` CPUs and stops at the end. Workers of a cluster must run the same kalarite
  (engine and content hashes are checked on every chunk).
- At most ``2 * workers`` chunks are in flight (and at most ``workers`` run at once), so
  memory stays bounded whatever the number of games; each result is written and dropped as
  soon as it arrives.
- A task whose worker dies is retried by Ray (``MAX_RETRIES``); its chunk is still written
  once, by the driver, under a name fixed by (matchup, chunk index).
- Ctrl-C is acknowledged at once, finishes the chunks in flight and leaves a resumable
  dataset; running the study again plays the missing chunks (also of a finished study that
  lost some), and is a no-op when nothing is missing.
- The engine is compiled (or loaded) once in the driver before any worker starts
  (cluster/warmup.py), so the workers load numba's cache instead of all compiling at once.
- ``workers=0`` plays the chunks in this process, without Ray (cluster/inprocess.py).
- Progress: a bar on a terminal, else a plain line every few seconds (cluster/progress.py).

Test hooks (environment of the driver): ``KALARITE_TEST_KILL_CHUNK=N`` makes the worker of
chunk N of the first matchup die once (``os._exit``), using the marker file
``KALARITE_TEST_KILL_MARKER``; ``KALARITE_TEST_INTERRUPT_AFTER=N`` raises KeyboardInterrupt in
the driver after N chunks were written; ``KALARITE_TEST_HOLD_FILE=path`` makes the driver wait
after each chunk it writes for as long as that file exists (writing and submitting nothing
meanwhile; Ctrl-C ends the wait), so a test can hold a study part-way by construction.
"""

import logging
import os
import signal
import socket
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

from cluster import progress as plain_progress
from cluster.worker import ChunkJob, play_chunk_files
from results.store import DatasetStore, dataset_info, job_info
from sim.chunking import choose_chunk_size
from sim.study import plan_chunks
from sim.study_size import DiskSpaceError, big_study_warning, check_free_disk

MAX_RETRIES = 3
IN_FLIGHT_PER_WORKER = 2


class StudyFailed(RuntimeError):
    """The study could not finish (a chunk failed for good, or the dataset could not be
    written: a full disk, say); the dataset stays resumable (exit status 1, not 2: the input
    was fine)."""


class RayStartError(ValueError):
    """Ray could not start or be reached (one line, exit status 2; nothing written)."""


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
    play_s: float = 0.0  # of which: playing, from the first chunk submitted to the last written
    nothing_to_do: bool = False  # the study was finished already, nothing was missing
    refilled: bool = False  # the study was finished, and chunks it had lost were played again
    errors: int = 0  # games with a non-zero error code
    status: str = "complete"
    max_in_flight: int = 0  # most chunks submitted and not yet written at once
    worker_pids: set = field(default_factory=set)
    tables: tuple = ("games", "card_events", "task_claims")  # what the dataset holds

    @property
    def playing_s(self) -> float:
        """The time spent playing (``play_s``; for a summary built without it, the wall time
        less compiling and starting Ray)."""
        return self.play_s or max(0.0, self.wall_s - self.start_s - self.compile_s)

    @property
    def games_per_s(self) -> float:
        """Games this run played over the time spent playing: from the first chunk submitted
        (Ray up, engine compiled; the workers loading the kernel included) to the last one
        written. The progress display's rate has the same definition."""
        play = self.playing_s
        return self.games_played / play if play > 0 else 0.0

    def line(self) -> str:
        if self.nothing_to_do:
            return (
                f"nothing to do: {self.out} already holds this finished study "
                f"({self.games:,} games in {self.chunks:,} chunks)"
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
        text += (
            f" in {self.wall_s:.1f} s ({compiled}{where}, {self.playing_s:.1f} s playing), "
            f"{self.games_per_s:,.0f} games/s, {max(self.workers, 1)} "
            f"worker{'s' if self.workers > 1 else ''}"
        )
        if self.errors:
            text += f", {self.errors} games with engine errors"
        return f"{text} -> {self.out} ({', '.join(self.tables)})"


class StudyInterrupted(KeyboardInterrupt):
    def __init__(self, summary: RunSummary):
        super().__init__()
        self.summary = summary


# --- progress ------------------------------------------------------------------------------


def _display(progress):
    """The progress display: none with ``progress=False``; else a line in a notebook, a bar
    on a terminal, plain lines on stderr otherwise (logs, pipes, CI)."""
    if progress is False:
        return plain_progress.NoProgress
    if plain_progress.in_notebook():
        return plain_progress.NotebookProgress
    return _RichProgress if sys.stdout.isatty() else plain_progress.LineProgress


class _RichProgress:
    """Games done, games/s and ETA on a terminal: the rate of ``plain_progress._Counter``
    (games this run played over the time since play started, as in the summary line), not
    rich's own estimate, which starts at the first update and read 5-10x high early on."""

    def __init__(self, total: int, done: int, start: float | None = None):
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            ProgressColumn,
            TextColumn,
            TimeElapsedColumn,
        )
        from rich.text import Text

        counter = self.counter = plain_progress._Counter(total, done, start)

        class _Rate(ProgressColumn):
            def render(self, task):
                r = counter.rate()
                if not r:
                    return Text("- games/s ETA -")
                left = plain_progress._clock((counter.total - counter.done) / r)
                return Text(f"{r:,.0f} games/s ETA {left}")

        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("games"),
            _Rate(),
            TimeElapsedColumn(),
            transient=True,
        )
        self._task = self._progress.add_task("starting workers", total=total, completed=done)

    def __enter__(self):
        self._progress.start()
        return self

    def __exit__(self, *exc):
        self._progress.stop()
        return False

    def started(self):
        self._progress.update(self._task, description="playing")

    def advance(self, games: int):
        self.counter.advance(games)
        self._progress.advance(self._task, games)

    def tick(self):
        pass

    def note(self, text: str):
        self._progress.console.print(f"kalarite: {text}")


def _say(text: str):
    """A message of the run before (or outside) the progress display: one line on stderr."""
    print(f"kalarite: {text}", file=sys.stderr, flush=True)


# --- Ray -------------------------------------------------------------------------------------


def _check_reachable(address: str, timeout: float = 5.0):
    """Fail fast on a GCS address nobody listens at (ray.init would retry for minutes)."""
    host, _, port = address.rpartition(":")
    if "://" in address or not host or not port.isdigit():
        return  # ray://, "auto" and the like: left to Ray
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as e:
        raise RayStartError(f"cannot reach Ray at {address}: {e.strerror or e}") from None


class _Ray:
    """The Ray session for one run: reuse, connect, or start (and then stop) one."""

    def __init__(self, workers: int | None, address: str | None, say=None):
        import ray

        self.ray = ray
        self.owned = False
        address = address or os.environ.get("RAY_ADDRESS") or None
        say = say or (lambda text: None)
        try:
            if ray.is_initialized():
                pass
            elif address:
                _check_reachable(address)
                say(f"connecting to Ray at {address}...")
                ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
                self.owned = True
            else:
                os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
                n = workers or os.cpu_count() or 1
                say(f"starting Ray (local, {n} worker{'s' * (n != 1)})...")
                ray.init(
                    address="local",
                    num_cpus=n,
                    include_dashboard=False,
                    logging_level=logging.ERROR,
                    log_to_driver=False,
                )
                self.owned = True
        except (KeyboardInterrupt, RayStartError):
            raise
        except Exception as e:
            where = f"at {address}" if address else "locally"
            text = " ".join(str(e).split())[:300]
            raise RayStartError(f"cannot start or reach Ray {where}: {text}") from None
        self.cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.workers = workers or self.cpus

    @property
    def window(self) -> int:
        """Chunks in flight. Ray runs at most one chunk per CPU; when the session has more
        CPUs than ``workers``, the window itself keeps the concurrency at ``workers``."""
        if self.workers >= self.cpus:
            return IN_FLIGHT_PER_WORKER * self.workers
        return self.workers

    def close(self):
        if self.owned:
            self.ray.shutdown()


def _kill_marker(chunk, matchup: int) -> str | None:
    want = os.environ.get("KALARITE_TEST_KILL_CHUNK")
    if want is None or matchup != 0 or chunk.index != int(want):
        return None
    return os.environ.get("KALARITE_TEST_KILL_MARKER") or os.path.join(
        tempfile.gettempdir(), f"kalarite-kill-{os.getpid()}-{want}"
    )


def _error_text(e) -> str:
    cause = getattr(e, "cause", None)
    if cause is not None and not isinstance(cause, type(e)):
        text = f"{type(cause).__name__}: {cause}"
    else:
        text = str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
    return " ".join(text.split())[:400]


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
) -> RunSummary:
    """Play ``study`` into the dataset ``out``; returns the summary. Raises StoreError,
    ChunkingError or RayStartError before anything is written, StudyInterrupted on Ctrl-C and
    StudyFailed when a chunk fails for good (both leave a resumable dataset), DiskSpaceError
    when the estimated output is more than the free disk space at ``out`` (unless ``force``).
    ``workers=0``
    plays in this process without Ray. A finished study is played again only where chunks
    are missing; with none missing nothing happens (``summary.nothing_to_do``)."""
    from cluster.warmup import warm_up

    t0 = time.perf_counter()  # wall time includes compiling and starting Ray
    if workers is not None and workers < 0:
        raise ValueError("--workers must be at least 1 (0: in this process, without Ray)")
    matchups = study.matchups()
    info = dataset_info(study, content)
    size = choose_chunk_size(matchups, chunk_size or study.chunk_size)
    store = DatasetStore.prepare(out, info, matchups, size, overwrite=overwrite)
    display = _display(progress)
    missing = None
    if store.resume:
        missing = store.missing_chunks()  # checks every chunk on disk (results/chunk_check.py)
        for line in store.damaged_text():
            _say(line)
    if store.finished_before and not missing:
        n = len(plan_chunks(store.matchups, store.chunk_size))
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
        _say(warning)
    try:
        say = None if display is not plain_progress.NoProgress else (lambda text, final: None)
        compile_s = warm_up(say)
        t1 = time.perf_counter()
        if workers == 0:
            from cluster.inprocess import InProcessSession

            session = InProcessSession()
        else:
            session = _Ray(workers, address, None if say else _say)
    except BaseException:
        store.rollback()
        raise
    try:
        return _run(
            study, store, session, display, t0, time.perf_counter() - t1, compile_s, workers
        )
    finally:
        session.close()


def _games_left(store, missing) -> list:
    """[(matchup, games still to play), ...]: ``missing`` chunks (None: every chunk)."""
    if missing is None:
        return [(mu, mu.games) for mu in store.matchups]
    left = {}
    for m, c in missing:
        mu = store.matchups[m]
        left[m] = left.get(m, 0) + mu.chunk_games(c, store.chunk_size)[1]
    return [(store.matchups[m], n) for m, n in left.items()]


def _expected_workers(workers) -> int:
    """The workers the run will have, before Ray says (a cluster's: this machine's cores)."""
    if workers == 0:
        return 1
    return workers or os.cpu_count() or 1


def _run(study, store, session, display, t0, start_s, compile_s=0.0, workers=None):
    ray = session.ray
    try:
        done = store.begin(session.workers)
    except OSError as e:
        raise StudyFailed(f"cannot write the dataset manifest: {e.strerror or e}") from None
    info = job_info(store.info)
    chunks = plan_chunks(store.matchups, store.chunk_size)
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
        workers=0 if workers == 0 else session.workers,
        start_s=start_s,
        compile_s=compile_s,
        refilled=store.finished_before,
        tables=tuple(store.tables),
    )
    interrupt_after = os.environ.get("KALARITE_TEST_INTERRUPT_AFTER")
    interrupt_after = int(interrupt_after) if interrupt_after else None
    hold_file = os.environ.get("KALARITE_TEST_HOLD_FILE")
    remote = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(
        play_chunk_files
    )
    window = session.window
    pending = iter(todo)
    inflight = {}

    def submit():
        while len(inflight) < window:
            ch = next(pending, None)
            if ch is None:
                return
            mu = store.matchups[ch.matchup]
            job = ChunkJob(
                matchup=ch.matchup,
                chunk_index=ch.index,
                mode=mu.mode,
                decks=mu.decks,
                policies=mu.policies,
                seed=mu.seed,
                first_game=ch.first_game,
                n_games=ch.n_games,
                turn_cap=study.turn_cap,
                beings_without_effects=study.beings_without_effects,
                info=info,
                kill_marker=_kill_marker(ch, ch.matchup),
                content_dir=getattr(study, "content", None),
                positions=study.positions,
                games=ch.games,
            )
            inflight[remote.remote(job)] = ch
            summary.max_in_flight = max(summary.max_in_flight, len(inflight))

    def stats():
        now = time.perf_counter()
        summary.wall_s = now - t0
        summary.play_s = now - t_play
        return {
            "games_played": summary.games_played,
            "chunks_played": summary.chunks_played,
            "wall_s": round(summary.wall_s, 3),
            "ray_start_s": round(summary.start_s, 3),
            "compile_s": round(summary.compile_s, 3),
            "play_s": round(summary.play_s, 3),
        }

    prog = None

    def acknowledge():
        text = (
            f"Ctrl-C: stopping once the {len(inflight)} chunk{'s' * (len(inflight) != 1)} in "
            "flight are written (Ctrl-C again stops at once); run the same command again to "
            "resume"
        )
        if prog is not None:
            prog.note(text)
        else:
            print(f"kalarite: {text}", file=sys.stderr, flush=True)

    stop = _CtrlC(acknowledge)
    t_play = time.perf_counter()
    try:
        t_play = time.perf_counter()  # the start of play: the rate shown and the summary's
        with stop, display(summary.games, skipped_games, start=t_play) as prog:
            submit()
            while inflight:
                prog.tick()
                ready, _ = ray.wait(list(inflight), num_returns=1, timeout=0.5)
                for ref in ready:
                    ch = inflight.pop(ref)
                    try:
                        res = ray.get(ref)
                    except ray.exceptions.RayError as e:
                        mu = store.matchups[ch.matchup]
                        raise StudyFailed(
                            f"chunk {ch.index} of {mu.partition} failed: {_error_text(e)}"
                        ) from None
                    try:
                        store.write_chunk(ch.matchup, ch.index, res["files"])
                    except OSError as e:
                        mu = store.matchups[ch.matchup]
                        raise StudyFailed(
                            f"cannot write chunk {ch.index} of {mu.partition}: {e.strerror or e}"
                        ) from None
                    del res["files"]
                    summary.games_played += ch.n_games
                    summary.errors += res["errors"]
                    summary.worker_pids.add(res["pid"])
                    summary.chunks_played += 1
                    prog.started()
                    prog.advance(ch.n_games)
                    if interrupt_after is not None and summary.chunks_played >= interrupt_after:
                        raise KeyboardInterrupt
                    if hold_file:
                        _hold_while(hold_file, stop)
                if not stop.hit.is_set():
                    submit()
            stop.check()  # Ctrl-C: the chunks in flight were finished and written, now stop
    except KeyboardInterrupt:
        _drop_inflight(inflight)
        summary.status = "interrupted"
        store.end_run("interrupted", **stats())
        raise StudyInterrupted(summary) from None
    except BaseException:
        _drop_inflight(inflight)
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
    return summary


def _hold_while(path: str, stop) -> None:
    """Test hook (KALARITE_TEST_HOLD_FILE): wait while ``path`` exists or until Ctrl-C."""
    while os.path.exists(path) and not stop.hit.is_set():
        time.sleep(0.05)


class _CtrlC:
    """Turn SIGINT into a flag: no new chunk is submitted, the few in flight are finished and
    written, then the run stops. (A KeyboardInterrupt raised inside a Ray call could be
    swallowed there, and cancelling busy tasks sometimes made Ray's core abort the driver.)
    A second Ctrl-C stops at once."""

    def __init__(self, acknowledge=None):
        self.hit = threading.Event()
        self.previous = None
        self.acknowledge = acknowledge  # says on screen, at once, that the stop is under way

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._handler)
        return self

    def _handler(self, *_):
        if self.hit.is_set():
            raise KeyboardInterrupt
        self.hit.set()
        if self.acknowledge is not None:
            self.acknowledge()

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)

    def check(self):
        if self.hit.is_set():
            raise KeyboardInterrupt


def _drop_inflight(inflight):
    """Drop the chunks in flight without cancelling them. ``ray.cancel`` raises
    KeyboardInterrupt inside the worker; one that lands while the worker is still importing
    numba leaves a half-imported numba behind, and every later chunk on that worker then fails
    ("module 'numba' has no attribute 'core'"). A local session is shut down right after
    anyway; a cluster's workers just finish a chunk nobody writes."""
    inflight.clear()
