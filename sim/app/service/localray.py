"""Where the studies' Ray is: an existing cluster (``--address`` or ``RAY_ADDRESS``), or the
service's own local Ray, a child process (``sim.app.service.rayhost``) started once, watched on
every tick of the executor, started again if it dies, and stopped with the service.

``DATA/ray/`` holds its address (``address.json``, written by the child once Ray is up), its
pid (``host.pid``, so a service restarted after a crash can end a leftover) and its log.
"""

import json
import os
import signal
import subprocess
import time
from dataclasses import dataclass, field

import psutil

from sim.app.service import children
from sim.app.service.logs import tail

START_S = 300.0  # the service's own Ray must be up within this (a busy machine is slow)
RETRY_S = 60.0  # after a failed start, wait this long before trying again


@dataclass
class RayState:
    mode: str  # local | cluster | none (--workers 0)
    state: str = "starting"  # starting | ready | failed
    address: str | None = None
    cpus: int | None = None
    error: str | None = None
    proc: subprocess.Popen | None = field(default=None, repr=False)
    since: float = 0.0

    def to_dict(self) -> dict:
        return {
            "mode": self.mode,
            "state": self.state,
            "address": self.address,
            "cpus": self.cpus,
            "error": self.error,
        }


class LocalRay:
    def __init__(self, config):
        self.config = config
        address = config.address or os.environ.get("RAY_ADDRESS") or None
        if config.workers == 0:  # every study in its own process: no Ray at all
            self.state = RayState(mode="none", state="ready")
        else:
            self.state = RayState(mode="cluster" if address else "local", address=address)
        if address:
            self.state.state = "ready"
        self.dir = config.data / "ray"

    @property
    def ready(self) -> bool:
        return self.state.state == "ready"

    def child_env(self) -> dict:
        """The environment of a study: the service's own Ray runs with token authentication
        (Ray's default for a new local cluster), so its clients must too."""
        env = dict(os.environ)
        if self.state.mode == "local":
            env.setdefault("RAY_AUTH_MODE", "token")
        env.pop("RAY_ADDRESS", None)  # the address is passed explicitly
        return env

    def watch(self):
        """Start the local Ray, notice when it is up, or when it died (then start another)."""
        r = self.state
        if r.mode != "local" or (r.state == "ready" and r.proc.poll() is None):
            return
        now = time.time()
        if r.state == "ready":
            r.state, r.error, r.proc, r.since = "failed", "the service's Ray stopped", None, 0.0
        if r.proc is None:
            if r.state == "failed" and now - r.since < RETRY_S:
                return
            self._spawn(now)
            return
        address_file = self.dir / "address.json"
        if r.proc.poll() is not None:
            r.state, r.since, r.proc = "failed", now, None
            r.error = f"the service's Ray did not start: {tail(self.dir / 'ray.log') or '-'}"
        elif address_file.exists():
            info = json.loads(address_file.read_text())
            r.state, r.address, r.cpus, r.error = "ready", info["address"], info["cpus"], None
        elif now - r.since > START_S:
            children.stop(r.proc, signal.SIGTERM, 30)
            r.state, r.since, r.proc = "failed", now, None
            r.error = f"the service's Ray did not start within {START_S:.0f} s"

    def _spawn(self, now: float):
        r = self.state
        self.dir.mkdir(exist_ok=True)
        (self.dir / "address.json").unlink(missing_ok=True)
        cpus = self.config.workers or os.cpu_count() or 1
        r.proc = children.spawn(
            ["-m", "sim.app.service.rayhost", str(self.dir / "address.json"), str(cpus)],
            self.dir / "ray.log",
            env=self.child_env(),
        )
        (self.dir / "host.pid").write_text(str(r.proc.pid))
        r.state, r.since, r.address = "starting", now, None

    def end_leftover(self):
        """A service that died left its Ray's pid: end whatever is left of it."""
        host = self.dir / "host.pid"
        if not host.exists():
            return
        try:
            pid = int(host.read_text())
        except ValueError:
            pid = 0
        if pid and children.ours(pid, str(self.dir)):
            try:
                os.kill(pid, signal.SIGTERM)
                psutil.Process(pid).wait(60)
            except (psutil.Error, OSError):
                pass
        if pid:
            children.kill_leftovers(pid)
        host.unlink(missing_ok=True)

    def stop(self):
        r = self.state
        if r.proc is None:
            return
        children.stop(r.proc, signal.SIGTERM, 60)
        children.kill_leftovers(r.proc.pid)
        (self.dir / "host.pid").unlink(missing_ok=True)
        r.proc, r.state = None, "failed"
        r.error = "the service stopped"
