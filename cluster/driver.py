"""The one driver around the chunk scheduler: studies (cluster/runner.py) and `kalarite check`
(sim/app/check.py) play their chunks through a ``Driver``, so what surrounds the loop
(cluster/scheduler.py ``run_chunks``) is written once and behaves the same for both.

- ``Driver.open``: a cluster that refuses this driver is one line at once
  (cluster/session.py ``reach_cluster``); then the engine is compiled (or loaded) once here,
  before any worker starts (cluster/warmup.py; the checked kernel for a check), its progress
  shown; then the session (Ray, or this process with ``workers=0``), its start counted on
  screen. ``close`` (or the ``with`` block's end) stops a Ray it started.
- ``Driver.playing``: the progress display (cluster/progress.py) and Ctrl-C
  (scheduler.CtrlC: acknowledged at once with the chunks in flight, which are finished and
  handed over before KeyboardInterrupt) around one or more ``play`` calls.
- ``Driver.play``: the jobs played by the one worker (cluster/worker.py); each result handed
  to the caller (who writes it, or keeps it), then counted on the display. A chunk that fails
  for good is one line, ``RunFailed("chunk N of WHERE failed: why")``.
- ``chunk_jobs``: the worker's jobs of some chunks, carrying the dataset's identity
  (results.store ``dataset_info`` / ``job_info``) and the players' rows resolved once.

Test hooks (environment of the driver), the same for a study and a check:
``KALARITE_TEST_KILL_CHUNK=N`` makes the worker of chunk N of the first matchup die once
(``os._exit``), using the marker file ``KALARITE_TEST_KILL_MARKER``;
``KALARITE_TEST_INTERRUPT_AFTER=N`` raises KeyboardInterrupt in the driver after N chunks
were handed over; ``KALARITE_TEST_HOLD_FILE=path`` makes the driver wait after each chunk
for as long as that file exists (submitting nothing meanwhile; Ctrl-C ends the wait), so a
test can hold a run part-way by construction.
"""

import os
import tempfile
import time
from contextlib import contextmanager

from cluster import progress as displays
from cluster import session as sessions
from cluster.scheduler import ChunkFailed, CtrlC, run_chunks


class RunFailed(RuntimeError):
    """A run could not finish: a chunk failed for good (one line; exit status 1, not 2: the
    input was fine). Light to import (the worker and the store are imported where used), so
    the CLI's commands name it without loading them."""


def _quiet(text, final):
    pass


class Driver:
    """One run's session, display and Ctrl-C around the chunk scheduler (see the module)."""

    def __init__(self, session, display, *, workers, compile_s=0.0, start_s=0.0, failed=RunFailed):
        self.session = session
        self.display = display  # the progress display's class (cluster.progress.display_for)
        self.workers = 0 if workers == 0 else session.workers  # 0: in this process
        self.compile_s = compile_s  # seconds compiling the engine (0.0: it was cached)
        self.start_s = start_s  # seconds starting or connecting to Ray
        self.failed = failed  # the error a chunk that fails for good raises (a RunFailed)
        self.t_play = time.perf_counter()  # the first chunk submitted (set by ``playing``)
        self.prog = None  # the display while playing
        self.stop = None  # the CtrlC while playing
        self.then = ""  # said after the Ctrl-C acknowledgement
        self.in_flight = 0
        self.max_in_flight = 0  # most chunks submitted and not yet handed over at once
        self.landed = 0  # chunks handed over in this run
        self.workers_start_s = 0.0  # the workers' start-up: the first chunk's wait less play

    @classmethod
    def open(
        cls, workers, address=None, progress=None, *, checked=False, failed=RunFailed, lent=None
    ):
        """Reach the cluster, compile the engine, open the session (see the module); ``lent``:
        a session the caller opened and closes (a suggestion lends one to each of its runs).
        Raises RayStartError when Ray cannot start or be reached (nothing was played)."""
        from cluster import warmup  # looked up here: tests replace warm_up

        display = displays.display_for(progress)
        quiet = display is displays.NoProgress
        sessions.reach_cluster(workers, address)  # a refusing cluster: one line, at once
        say = _quiet if quiet else None
        compile_s = warmup.warm_up(say, checked=True) if checked else warmup.warm_up(say)
        t0 = time.perf_counter()
        shown = None if quiet else displays.step_printer()
        session = sessions.open_session(workers, address, shown, lent=lent)
        start_s = time.perf_counter() - t0
        return cls(
            session, display, workers=workers, compile_s=compile_s, start_s=start_s, failed=failed
        )

    def close(self):
        self.session.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    @contextmanager
    def playing(self, total: int, done: int = 0, chunks: int | None = None, then: str = ""):
        """The display (``total`` games, ``done`` of them by an earlier run, ``chunks`` to
        play) and Ctrl-C around the ``play`` calls of the block; yields the display.
        ``then``: what the Ctrl-C acknowledgement adds (how to resume, what is lost)."""
        self.t_play = time.perf_counter()  # the start of play: the rate shown, the summary's
        self.then = then
        self.stop = CtrlC(self._acknowledge)
        shown = self.display(
            total, done, start=self.t_play, workers=self.session.workers, chunks=chunks
        )
        try:
            with self.stop, shown as prog:
                self.prog = prog
                yield prog
        finally:
            self.prog = None

    def _acknowledge(self):
        n = self.in_flight
        when = f"once the {n} chunk{'s' * (n != 1)} in flight are finished" if n else "now"
        then = f"; {self.then}" if self.then else ""
        text = f"Ctrl-C: stopping {when} (Ctrl-C again stops at once){then}"
        (self.prog.note if self.prog is not None else displays.say)(text)

    def play(self, jobs, on_result, where=None):
        """Play ``jobs`` (inside ``playing``); ``on_result(job, result)`` for each as it
        arrives, then the display counts it. Raises ``self.failed`` (one line naming the
        chunk: ``where(job)``, default its mode and decks) when a chunk fails for good."""
        from cluster.worker import run_chunk

        where = where or (lambda job: f"{job.mode} {'-'.join(job.decks)}")
        hooks = _TestHooks()

        def landed(job, res):
            self.in_flight -= 1
            if self.landed == 0:  # the workers' start-up: shown apart from playing
                waited = time.perf_counter() - self.t_play
                self.workers_start_s = max(0.0, waited - res.get("play_s", 0.0))
            on_result(job, res)
            self.landed += 1
            self.prog.started()
            self.prog.advance(job.n_games, res.get("play_s"))
            hooks.after_chunk(self.landed, self.stop)

        try:
            run_chunks(
                self.session,
                run_chunk,
                jobs,
                landed,
                tick=self.prog.tick,
                stop=self.stop,
                on_submit=self._submitted,
            )
        except ChunkFailed as e:
            text = f"chunk {e.job.chunk_index} of {where(e.job)} failed: {e}"
            raise self.failed(text) from None

    def _submitted(self, n):
        self.in_flight = n
        self.max_in_flight = max(self.max_in_flight, n)


def chunk_jobs(study, matchups, info: dict, chunks, **extra):
    """The worker's job of each chunk (results.layout.Chunk of ``matchups``): the chunk, the
    dataset's identity (``info``: results.store.dataset_info, shipped as its job_info) and
    the rows of the players its matchup seats (resolved once, in ``info``); ``extra``: the
    job's other fields (``positions``, ``checked``)."""
    from cluster.worker import ChunkJob
    from results.store import job_info

    identity = job_info(info)
    rows = info["player_rows"]
    for ch in chunks:
        mu = matchups[ch.matchup]
        yield ChunkJob.of(ch, mu, study, identity, rows, kill_marker=_kill_marker(ch), **extra)


def _kill_marker(chunk) -> str | None:
    want = os.environ.get("KALARITE_TEST_KILL_CHUNK")
    if want is None or chunk.matchup != 0 or chunk.index != int(want):
        return None
    return os.environ.get("KALARITE_TEST_KILL_MARKER") or os.path.join(
        tempfile.gettempdir(), f"kalarite-kill-{os.getpid()}-{want}"
    )


class _TestHooks:
    """KALARITE_TEST_INTERRUPT_AFTER and KALARITE_TEST_HOLD_FILE (see the module)."""

    def __init__(self):
        after = os.environ.get("KALARITE_TEST_INTERRUPT_AFTER")
        self.interrupt_after = int(after) if after else None
        self.hold_file = os.environ.get("KALARITE_TEST_HOLD_FILE")

    def after_chunk(self, landed: int, stop) -> None:
        if self.interrupt_after is not None and landed >= self.interrupt_after:
            raise KeyboardInterrupt
        while self.hold_file and os.path.exists(self.hold_file) and not stop.hit.is_set():
            time.sleep(0.05)
