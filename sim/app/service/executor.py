"""The queue: one thread that starts queued studies (``max_running`` at a time), watches their
child processes, and records how each ended.

A study is two children in turn: ``kalarite study spec.toml --out dataset`` (phase
``playing``), then ``kalarite report dataset --out report`` (phase ``reporting``); it is
``finished`` when the report's summary.json is written. Cancel sends SIGINT to the running
child: the runner finishes the chunks in flight and stops, leaving a resumable dataset.
Resume queues it again; ``kalarite study`` on the same dataset plays only the missing chunks
(or, when the dataset is complete, the report alone is made).

With ``--workers 0`` there is no Ray: each study plays in its child process. Otherwise,
without ``--address``, the executor first starts the service's own local Ray
(``sim.app.service.rayhost``) and gives its address to every study. Every child is spawned from
this thread (the parent-death signal follows the spawning thread), so one-off commands such
as ``compare`` are handed to it through ``run_task``.

On start, studies left ``running`` by a service that died are queued again (after making
sure no child of the old service is still at work). On stop, running studies get SIGINT and
go back to ``queued``, so the next start resumes them.
"""

import queue
import signal
import subprocess
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass

import psutil

from sim.app.service import children, progress, suggestions
from sim.app.service.config import ServiceConfig
from sim.app.service.localray import LocalRay
from sim.app.service.logs import error_line, read_from
from sim.app.service.registry import Registry
from sim.app.service.summary import is_suggestion

CANCEL_GRACE_S = 120.0  # a cancelled child gets this long to finish its chunks, then SIGKILL
MAX_TASKS = 2  # one-off children (compare) at once


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
        self.local_ray = LocalRay(config)
        self.ray = self.local_ray.state  # what /info shows

    # --- life ------------------------------------------------------------------------------

    def start(self):
        self._recover()
        self._thread = threading.Thread(target=self._loop, name="kalarite-executor", daemon=True)
        self._thread.start()

    def stop(self, timeout: float | None = None):
        """Stop: running studies get SIGINT and are queued again (each child is waited for
        a bounded time, then killed), then the local Ray stops."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def wake(self):
        self._wake.set()

    def run_task(self, argv: list, log_path) -> Future:
        """Run a one-off child (``python -m sim.app.service.job ...``); the future gets its exit
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
        self.local_ray.watch()
        self._run_tasks()
        for sid in list(self.jobs):
            self._watch(sid)
        if not self.local_ray.ready:
            return
        while len(self.jobs) < self.config.max_running and not self._stop.is_set():
            row = self.registry.next_queued()
            if row is None or not self.registry.start(row.id):
                break
            self._begin(row.id)

    # --- studies ---------------------------------------------------------------------------

    def _begin(self, sid: str):
        """Start the running study ``sid``: play it, or only report it when its dataset is
        already complete (a resume after the games were done)."""
        try:
            if is_suggestion(self.registry.get(sid).spec):
                self._spawn(sid, "playing")  # `kalarite suggest` resumes by itself
            elif progress.scan(self.config.dataset_dir(sid))["complete"]:
                self._spawn(sid, "reporting")
            else:
                self._spawn(sid, "playing")
        except OSError as e:
            self.registry.finish(sid, "failed", f"cannot start the study: {e.strerror or e}")

    def _spawn(self, sid: str, phase: str):
        c = self.config
        d = c.study_dir(sid)
        if phase == "playing" and is_suggestion(self.registry.get(sid).spec):
            argv = suggestions.spawn_argv(c, sid, self.ray.address)
        elif phase == "playing":
            argv = ["study", str(d / "spec.toml"), "--out", str(c.dataset_dir(sid))]
            if c.workers == 0:
                argv += ["--workers", "0"]  # in the child's own process, without Ray
            else:
                argv += ["--address", self.ray.address]
                if c.workers:
                    argv += ["--workers", str(c.workers)]
        else:
            argv = ["report", str(c.dataset_dir(sid)), "--out", str(c.report_dir(sid))]
        log = d / "run.log"
        offset = log.stat().st_size if log.exists() else 0
        proc = children.spawn(
            ["-m", "sim.app.service.job", *argv], log, env=self.local_ray.child_env(), cwd=d
        )
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
        output = read_from(self.config.study_dir(sid) / "run.log", job.log_offset)
        if row.cancel_requested:
            self.registry.finish(sid, "cancelled")
        elif is_suggestion(row.spec):
            if rc == 0 and suggestions.finished(self.config, sid):
                self.registry.finish(sid, "finished")
            else:
                why = error_line(output) or f"the suggestion stopped (exit status {rc})"
                self.registry.finish(sid, "failed", why)
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
                t.proc = children.spawn(["-m", "sim.app.service.job", *t.argv], t.log_path)
            except OSError as e:
                t.future.set_exception(e)
                continue
            self._running_tasks.append(t)

    # --- restart and shutdown --------------------------------------------------------------

    def _recover(self):
        """Queue again what a dead service left running; make sure its children are gone."""
        self.local_ray.end_leftover()
        for row in self.registry.list(state="running"):
            if row.pid:
                if children.ours(row.pid, row.id):
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
        self.local_ray.stop()
