"""Where chunks are played: a Ray session (reused, connected to, or started and later
stopped) or this process (``workers=0``, cluster/inprocess.py). Studies and `kalarite check`
open one the same way (``open_session``) and hand it to the chunk scheduler
(cluster/scheduler.py).

- An existing Ray session of this process is used as it is (and left running); ``address``
  (or ``RAY_ADDRESS``) connects to an existing cluster; otherwise a local Ray starts with
  ``workers`` CPUs and stops at ``close``. A cluster's authentication is followed as it is
  (cluster/connect.py: Ray's token where the cluster asks for one). Workers of a cluster
  must run the same kalarite (the worker checks the engine of every chunk; the content and
  the players travel with it).
- Starting or connecting is counted on screen while it lasts (a ``Step``), and its seconds
  are the run's ``start_s``; the workers' own start-up (process, imports, kernel load) is
  counted by the progress display until the first chunk lands.
- A session one command opens for many runs (`kalarite suggest`: every study and check of
  a suggestion) is lent to each (``open_session(..., lent=session)``): the run plays on it
  and leaves it open; the command closes it once, at its end.
- ``window``: chunks in flight. At most ``2 * workers`` (and at most ``workers`` run at
  once), so memory stays bounded whatever the number of games.
"""

import logging
import os

from cluster.connect import ClusterRefused, follow_cluster_auth
from cluster.progress import Step

IN_FLIGHT_PER_WORKER = 2


class RayStartError(ValueError):
    """Ray could not start or be reached (one line, exit status 2; nothing written)."""


_FOLLOWED = set()  # the cluster addresses this process already asked (cluster/connect.py)


def reach_cluster(workers: int | None, address: str | None) -> None:
    """Check that the cluster a run will use (``address`` or ``RAY_ADDRESS``) answers and
    accepts this driver, following its token, before anything slow happens (compiling the
    engine): one line (RayStartError) within seconds when it does not. Asks once per
    process and address; nothing to do in this process (``workers=0``), with a Ray already
    up, or for a local Ray."""
    address = address or os.environ.get("RAY_ADDRESS") or None
    if workers == 0 or not address or address in _FOLLOWED:
        return
    import ray

    if ray.is_initialized():
        return
    try:
        follow_cluster_auth(address)  # the cluster's token, or one line why not
    except ClusterRefused as e:
        raise RayStartError(str(e)) from None
    _FOLLOWED.add(address)


def start_local_ray(cpus: int):
    """Start a local Ray of ``cpus`` CPUs in this process, quiet (no dashboard, no usage
    report, no workers' logs), the one way every kalarite process starts one (a run's
    session, ``fan_out``, the service's own Ray: sim/app/service/rayhost.py); the ``ray``
    module."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    ray.init(
        address="local",
        num_cpus=cpus,
        include_dashboard=False,
        logging_level=logging.ERROR,
        log_to_driver=False,
    )
    return ray


class RaySession:
    """The Ray session for one run: reuse, connect, or start (and then stop) one.
    ``local``: never a cluster (``RAY_ADDRESS`` is not followed), for work whose workers are
    not checked against the driver's engine (``fan_out``)."""

    def __init__(self, workers: int | None, address: str | None, say=None, local=False):
        import ray

        self.ray = ray
        self.owned = False
        address = None if local else (address or os.environ.get("RAY_ADDRESS") or None)
        say = say or (lambda text, final: None)
        try:
            if ray.is_initialized():
                pass
            elif address:
                reach_cluster(workers, address)
                with Step(f"connecting to Ray at {address}", say) as step:
                    ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
                    step.done(f"connected to Ray at {address} in {step.elapsed():.1f} s")
                self.owned = True
            else:
                n = workers or os.cpu_count() or 1
                what = f"Ray (local, {n} worker{'s' * (n != 1)})"
                with Step(f"starting {what}", say) as step:
                    start_local_ray(n)
                    step.done(f"started {what} in {step.elapsed():.1f} s")
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


class LentSession:
    """A session its opener lends to one run: the run uses it as its own, and its
    ``close`` leaves it open (the opener closes it)."""

    def __init__(self, session):
        self.session = session

    def __getattr__(self, name):
        return getattr(self.session, name)

    def close(self):
        pass


def open_session(workers: int | None, address: str | None = None, say=None, lent=None):
    """This process (``workers=0``) or a Ray session (``say(text, final)``: its start-up,
    counted while it lasts: cluster.progress ``Step``, ``step_printer``); ``lent``: a
    session the caller opened and will close, used as it is (``LentSession``).
    Raises RayStartError when Ray cannot start or be reached."""
    if lent is not None:
        return LentSession(lent)
    if workers == 0:
        from cluster.inprocess import InProcessSession

        return InProcessSession()
    return RaySession(workers, address, say)
