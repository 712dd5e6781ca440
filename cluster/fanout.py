"""Independent calls of one function in parallel on Ray, for jobs that are a list of calls
rather than a study of chunks (``kalarite tune``: each candidate's games against the
opponent). No dataset, no retries, no progress: the caller gets the results in order.

Like the study runner, it starts a local Ray of its own (never someone else's cluster) unless
this process already has one, and shuts down only a Ray it started.
"""

import os
from contextlib import contextmanager


@contextmanager
def fan_out(fn, workers: int | None = None):
    """Yield ``run(calls)``: it runs ``fn(*args)`` for every argument tuple in ``calls``, all
    submitted at once, and returns their results in the order of ``calls``. ``fn`` must be
    importable by name in a Ray worker (a module-level function)."""
    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    owned = not ray.is_initialized()
    if owned:
        ray.init(
            address="local",
            num_cpus=workers or os.cpu_count(),
            include_dashboard=False,
            log_to_driver=False,
        )
    remote = ray.remote(fn)

    def run(calls) -> list:
        return ray.get([remote.remote(*args) for args in calls])

    try:
        yield run
    finally:
        if owned:
            ray.shutdown()
