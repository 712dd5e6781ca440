"""Independent calls of one function in parallel on Ray, for jobs that are a list of calls
rather than a study of chunks (``kalarite tune``: each candidate's games against the
opponent). No dataset, no retries, no progress: the caller gets the results in order.

Its Ray is a run's session (cluster/session.py ``RaySession``, ``local``): this process's
Ray where it has one, else a local one started for it and stopped after; never someone
else's cluster, whose workers nothing here checks against this engine.
"""

from contextlib import contextmanager

from cluster.session import RaySession


@contextmanager
def fan_out(fn, workers: int | None = None):
    """Yield ``run(calls)``: it runs ``fn(*args)`` for every argument tuple in ``calls``, all
    submitted at once, and returns their results in the order of ``calls``. ``fn`` must be
    importable by name in a Ray worker (a module-level function). Raises RayStartError
    (one line) when Ray cannot start."""
    session = RaySession(workers, None, local=True)
    remote = session.ray.remote(fn)

    def run(calls) -> list:
        return session.ray.get([remote.remote(*args) for args in calls])

    try:
        yield run
    finally:
        session.close()
