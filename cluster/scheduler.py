"""The one chunk scheduler: studies (cluster/runner.py) and `kalarite check` (sim/app/check.py)
play their chunks through ``run_chunks``, so a fix to the loop reaches both.

- A window of chunks in flight (the session's ``window``), topped up as results arrive.
- A task whose worker dies is retried by Ray (``MAX_RETRIES``); an error raised inside the
  worker is not retried (it would fail again): ``ChunkFailed``.
- Each result is handed to ``on_result`` as it arrives, in the order chunks finish; the
  caller writes it (a study) or keeps it (a check) and drops it.
- Ctrl-C (``CtrlC``): acknowledged at once, no new chunk is submitted, the chunks in flight
  are finished and handed over, then KeyboardInterrupt; a second Ctrl-C stops at once.
- Chunks still in flight when the loop ends early are dropped, never cancelled
  (``_drop_inflight``).
"""

import signal
import threading

MAX_RETRIES = 3


class ChunkFailed(RuntimeError):
    """A chunk failed for good: ``job`` is the chunk's job, ``reason`` one line."""

    def __init__(self, job, reason: str):
        super().__init__(reason)
        self.job = job
        self.reason = reason


def error_text(e) -> str:
    """One line for a failed task: the worker's own exception where Ray carries it."""
    cause = getattr(e, "cause", None)
    if cause is not None and not isinstance(cause, type(e)):
        text = f"{type(cause).__name__}: {cause}"
    else:
        text = str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__
    return " ".join(text.split())[:400]


def run_chunks(session, fn, jobs, on_result, *, tick=None, stop=None, on_submit=None):
    """Play every job of ``jobs`` (an iterable) as ``fn(job)`` on ``session``; call
    ``on_result(job, result)`` for each as it arrives. ``tick()``: called about twice a
    second (the progress display); ``stop``: a ``CtrlC`` whose flag stops the submitting,
    after which the chunks in flight are finished and KeyboardInterrupt is raised;
    ``on_submit(in_flight)``: after each submission. Raises ChunkFailed when a chunk
    fails for good; anything ``on_result`` raises ends the loop the same way."""
    ray = session.ray
    remote = ray.remote(num_cpus=1, max_retries=MAX_RETRIES, retry_exceptions=False)(fn)
    pending = iter(jobs)
    inflight = {}

    def submit():
        while len(inflight) < session.window:
            job = next(pending, None)
            if job is None:
                return
            inflight[remote.remote(job)] = job
            if on_submit is not None:
                on_submit(len(inflight))

    try:
        submit()
        while inflight:
            if tick is not None:
                tick()
            ready, _ = ray.wait(list(inflight), num_returns=1, timeout=0.5)
            for ref in ready:
                job = inflight.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayError as e:
                    raise ChunkFailed(job, error_text(e)) from None
                on_result(job, result)
            if stop is None or not stop.hit.is_set():
                submit()
        if stop is not None:
            stop.check()  # Ctrl-C: the chunks in flight were finished and handed over
    finally:
        _drop_inflight(inflight)


def _drop_inflight(inflight):
    """Drop the chunks in flight without cancelling them. ``ray.cancel`` raises
    KeyboardInterrupt inside the worker; one that lands while the worker is still importing
    numba leaves a half-imported numba behind, and every later chunk on that worker then fails
    ("module 'numba' has no attribute 'core'"). A local session is shut down right after
    anyway; a cluster's workers just finish a chunk nobody writes."""
    inflight.clear()


class CtrlC:
    """Turn SIGINT into a flag: no new chunk is submitted, the few in flight are finished and
    handed over, then the run stops. (A KeyboardInterrupt raised inside a Ray call could be
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
