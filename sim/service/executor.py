"""The queue: one thread that starts queued studies (``max_running`` at a time), watches their
child processes, and records how each ended.

A study is two children in turn: ``kalarite study spec.toml --out dataset`` (phase
``playing``), then ``kalarite report dataset --out report`` (phase ``reporting``); it is
``finished`` when the report's summary.json is written. Cancel sends SIGINT to the running
child: the runner finishes the chunks in flight and stops, leaving a resumable dataset.
Resume queues it again; ``kalarite study`` on the same dataset plays only the missing chunks
(or, when the dataset is complete, the report alone is made).

Without ``--address`` the executor first starts the service's own local Ray
(``sim.service.rayhost``) and gives its address to every study. Every child is spawned from
this thread (the parent-death signal follows the spawning thread), so one-off commands such
as ``compare`` are handed to it through ``run_task``.

On start, studies left ``running`` by a service that died are queued again (after making
sure no child of the old service is still at work). On stop, running studies get SIGINT and
go back to ``queued``, so the next start resumes them.
"""

import json
import os
import queue
import signal
import subprocess
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass, field

import psutil

from sim.service import children, progress
from sim.service.config import ServiceConfig
from sim.service.registry import Registry

CANCEL_GRACE_S = 120.0  # a cancelled child gets this long to finish its chunks, then SIGKILL
RAY_START_S = 300.0  # the service's own Ray must be up within this (a busy machine is slow)
RAY_RETRY_S = 60.0
MAX_TASKS = 2  # one-off children (compare) at once
_RESUME_HINT = "; run the same command again to resume"


@dataclass
class _Job:
    proc: subprocess.Popen
    phase: str  # playing | reporting
    log_offset: int
    signalled: float | None = None


@dataclass
class _Task:
    argv: list
    log_path: object
    future: Future
    proc: subprocess.Popen | None = None


@dataclass
class RayState:
    mode: str  # local | cluster
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


def error_line(text: str) -> str | None:
    """The last ``kalarite: error: ...`` line of a child's output, without the prefix and
    without the CLI's resume hint (the service resumes through its API)."""
    for line in reversed(text.splitlines()):
        if line.startswith("kalarite: error: "):
            msg = line[len("kalarite: error: ") :].strip()
            return msg[: -len(_RESUME_HINT)] if msg.endswith(_RESUME_HINT) else msg
    return None


def _ours(pid: int, marker: str) -> bool:
    """Is ``pid`` a child a kalarite service spawned for ``marker`` (a study id or a data
    directory)? Guards against killing a process that merely reused the pid."""
    try:
        cmd = " ".join(psutil.Process(pid).cmdline())
    except (psutil.Error, OSError):
        return False
    return "sim.service." in cmd and marker in cmd


class Executor:
    def __init__(self, config: ServiceConfig, registry: Registry):
        self.config = config
        self.registry = registry
        self.jobs: dict[str, _Job] = {}
        self._tasks: queue.Queue = queue.Queue()
        self._running_tasks: list[_Task] = []
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        address = config.address or os.environ.get("RAY_ADDRESS") or None
        self.ray = RayState(mode="cluster" if address else "local", address=address)
        if address:
            self.ray.state = "ready"
        self._ray_dir = config.data / "ray"

    # --- life ------------------------------------------------------------------------------

    def start(self):
        self._recover()
        self._thread = threading.Thread(target=self._loop, name="kalarite-executor", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 90.0):
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def wake(self):
        self._wake.set()

    def run_task(self, argv: list, log_path) -> Future:
        """Run a one-off child (``python -m sim.service.job ...``); the future gets its exit
        status."""
        fut = Future()
        self._tasks.put(_Task(argv, log_path, fut))
        self._wake.set()
        return fut

    def _loop(self):
        try:
            while not self._stop.is_set():
                try:
                    self._tick()
                except Exception as e:  # noqa: BLE001 - the queue must survive one bad tick
                    print(f"kalarite serve: executor: {type(e).__name__}: {e}", flush=True)
                self._wake.wait(self.config.poll_s)
                self._wake.clear()
        finally:
            self._shutdown()

    def _tick(self):
        self._watch_ray()
        self._run_tasks()
        for sid in list(self.jobs):
            self._watch(sid)
        if self.ray.state != "ready":
            return
        while len(self.jobs) < self.config.max_running and not self._stop.is_set():
            row = self.registry.next_queued()
            if row is None or not self.registry.start(row.id):
                break
            self._begin(row.id)

    # --- the service's own Ray -------------------------------------------------------------

    def _watch_ray(self):
        r = self.ray
        if r.mode != "local" or (r.state == "ready" and r.proc.poll() is None):
            return
        now = time.time()
        if r.state == "ready":  # it died under us: start another
            r.state, r.error, r.proc = "failed", "the service's Ray stopped", None
        if r.proc is None:
            if r.state == "failed" and now - r.since < RAY_RETRY_S:
                return
            self._ray_dir.mkdir(exist_ok=True)
            (self._ray_dir / "address.json").unlink(missing_ok=True)
            cpus = self.config.workers or os.cpu_count() or 1
            env = dict(os.environ, RAY_AUTH_MODE=os.environ.get("RAY_AUTH_MODE", "token"))
            r.proc = children.spawn(
                ["-m", "sim.service.rayhost", str(self._ray_dir / "address.json"), str(cpus)],
                self._ray_dir / "ray.log",
                env=env,
            )
            (self._ray_dir / "host.pid").write_text(str(r.proc.pid))
            r.state, r.since = "starting", now
            return
        address_file = self._ray_dir / "address.json"
        if r.proc.poll() is not None:
            tail = _tail(self._ray_dir / "ray.log")
            r.state, r.since, r.proc = "failed", now, None
            r.error = f"the service's Ray did not start: {tail or 'no output'}"
        elif address_file.exists():
            info = json.loads(address_file.read_text())
            r.state, r.address, r.cpus, r.error = "ready", info["address"], info["cpus"], None
        elif now - r.since > RAY_START_S:
            children.stop(r.proc, signal.SIGTERM, 30)
            r.state, r.since, r.proc = "failed", now, None
            r.error = f"the service's Ray did not start within {RAY_START_S:.0f} s"

    def _child_env(self) -> dict:
        env = dict(os.environ)
        if self.ray.mode == "local":
            env.setdefault("RAY_AUTH_MODE", "token")  # what the service's Ray runs with
        env.pop("RAY_ADDRESS", None)  # the address is passed explicitly
        return env

    # --- studies ---------------------------------------------------------------------------

    def _begin(self, sid: str):
        """Start the running study ``sid``: play it, or only report it when its dataset is
        already complete (a resume after the games were done)."""
        try:
            if progress.scan(self.config.dataset_dir(sid))["complete"]:
                self._spawn(sid, "reporting")
            else:
                self._spawn(sid, "playing")
        except OSError as e:
            self.registry.finish(sid, "failed", f"cannot start the study: {e.strerror or e}")

    def _spawn(self, sid: str, phase: str):
        c = self.config
        d = c.study_dir(sid)
        if phase == "playing":
            argv = ["study", str(d / "spec.toml"), "--out", str(c.dataset_dir(sid))]
            argv += ["--address", self.ray.address]
            if c.workers:
                argv += ["--workers", str(c.workers)]
        else:
            argv = ["report", str(c.dataset_dir(sid)), "--out", str(c.report_dir(sid))]
        log = d / "run.log"
        offset = log.stat().st_size if log.exists() else 0
        proc = children.spawn(["-m", "sim.service.job", *argv], log, env=self._child_env(), cwd=d)
        self.jobs[sid] = _Job(proc=proc, phase=phase, log_offset=offset)
        self.registry.set_pid(sid, proc.pid, phase)

    def _watch(self, sid: str):
        job = self.jobs[sid]
        rc = job.proc.poll()
        row = self.registry.get(sid)
        if rc is None:
            if row.cancel_requested and job.signalled is None:
                job.proc.send_signal(signal.SIGINT)
                job.signalled = time.time()
            elif job.signalled is not None and time.time() - job.signalled > CANCEL_GRACE_S:
                children.kill_group(job.proc.pid)
            return
        del self.jobs[sid]
        output = _read_from(self.config.study_dir(sid) / "run.log", job.log_offset)
        if row.cancel_requested:
            self.registry.finish(sid, "cancelled")
        elif job.phase == "playing":
            if progress.scan(self.config.dataset_dir(sid))["complete"]:
                self._spawn(sid, "reporting")
            else:
                why = error_line(output) or f"the study stopped (exit status {rc})"
                self.registry.finish(sid, "failed", why)
        elif rc == 0 and (self.config.report_dir(sid) / "summary.json").is_file():
            self.registry.finish(sid, "finished")
        else:
            why = error_line(output) or f"exit status {rc}"
            self.registry.finish(sid, "failed", f"report: {why}")

    # --- one-off children ------------------------------------------------------------------

    def _run_tasks(self):
        for t in list(self._running_tasks):
            rc = t.proc.poll()
            if rc is not None:
                self._running_tasks.remove(t)
                t.future.set_result(rc)
        while len(self._running_tasks) < MAX_TASKS:
            try:
                t = self._tasks.get_nowait()
            except queue.Empty:
                break
            try:
                t.proc = children.spawn(["-m", "sim.service.job", *t.argv], t.log_path)
            except OSError as e:
                t.future.set_exception(e)
                continue
            self._running_tasks.append(t)

    # --- restart and shutdown --------------------------------------------------------------

    def _recover(self):
        """Queue again what a dead service left running; make sure its children are gone."""
        host = self._ray_dir / "host.pid"
        if host.exists():
            try:
                pid = int(host.read_text())
            except ValueError:
                pid = 0
            if pid and _ours(pid, str(self._ray_dir)):
                try:
                    os.kill(pid, signal.SIGTERM)
                    psutil.Process(pid).wait(60)
                except (psutil.Error, OSError):
                    pass
            if pid:
                children.kill_leftovers(pid)
            host.unlink(missing_ok=True)
        for row in self.registry.list(state="running"):
            if row.pid:
                if _ours(row.pid, row.id):
                    children.kill_group(row.pid)
                    try:
                        psutil.Process(row.pid).wait(10)
                    except (psutil.Error, OSError):
                        pass
                children.kill_leftovers(row.pid)
            if row.cancel_requested:
                self.registry.finish(row.id, "cancelled")
            else:
                self.registry.requeue(row.id)

    def _shutdown(self):
        for job in self.jobs.values():
            if job.proc.poll() is None:
                job.proc.send_signal(signal.SIGINT)
        for sid, job in list(self.jobs.items()):
            children.stop(job.proc, signal.SIGINT, 60)
            row = self.registry.get(sid)
            if row is not None and row.cancel_requested:
                self.registry.finish(sid, "cancelled")
            else:
                self.registry.requeue(sid)
        self.jobs.clear()
        for t in self._running_tasks:
            children.stop(t.proc, signal.SIGINT, 10)
            t.future.set_exception(RuntimeError("the service is stopping"))
        while not self._tasks.empty():
            self._tasks.get_nowait().future.set_exception(RuntimeError("the service is stopping"))
        if self.ray.proc is not None:
            children.stop(self.ray.proc, signal.SIGTERM, 60)
            children.kill_leftovers(self.ray.proc.pid)
            (self._ray_dir / "host.pid").unlink(missing_ok=True)
            self.ray.proc, self.ray.state = None, "failed"


def _read_from(path, offset: int, most: int = 1 << 16) -> str:
    """The end (at most ``most`` bytes) of what a log got after ``offset``."""
    try:
        with open(path, "rb") as f:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(offset, size - most))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def _tail(path, lines: int = 3) -> str:
    text = _read_from(path, 0)
    return " ".join(" ".join(text.strip().splitlines()[-lines:]).split())[:400]
