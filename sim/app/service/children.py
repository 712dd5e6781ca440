"""Child processes of the service: spawned in their own session (a Ctrl-C on the service's
terminal does not reach them; the service decides what each one gets) and tied to the
service's life with Linux's parent-death signal, so a ``kill -9`` of the service takes its
children with it instead of leaving a study running that nobody watches.

``python -m sim.app.service.job`` and ``python -m sim.app.service.rayhost`` call ``tie_to_parent``
first thing; the service passes its pid in ``KALARITE_SERVICE_PID`` so a child whose parent
died before the tie was made exits at once.
"""

import ctypes
import os
import signal
import subprocess
import sys

PARENT_ENV = "KALARITE_SERVICE_PID"
_PR_SET_PDEATHSIG = 1


def tie_to_parent(sig: int) -> None:
    """Get ``sig`` when the parent dies (Linux; elsewhere the service's shutdown still stops
    its children). Exits when the parent is already gone."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
    want = os.environ.get(PARENT_ENV)
    if want and os.getppid() != int(want):
        os._exit(3)


def spawn(argv: list, log_path, env: dict | None = None, cwd=None) -> subprocess.Popen:
    """Start ``argv`` (a ``python -m`` module of this package) with its output appended to
    ``log_path``. Call it from a thread that lives as long as the service: the parent-death
    signal follows the thread that spawned the child."""
    full_env = dict(os.environ if env is None else env)
    full_env[PARENT_ENV] = str(os.getpid())
    full_env.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    with open(log_path, "ab") as log:
        return subprocess.Popen(
            [sys.executable, *argv],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=full_env,
            cwd=cwd,
            start_new_session=True,
        )


def stop(proc: subprocess.Popen, first=signal.SIGINT, wait_s: float = 30.0) -> int | None:
    """Send ``first`` and wait up to ``wait_s`` seconds; then kill the child's whole process
    group. Returns the exit status."""
    if proc.poll() is not None:
        return proc.returncode
    try:
        proc.send_signal(first)
        return proc.wait(wait_s)
    except subprocess.TimeoutExpired:
        kill_group(proc.pid)
        return proc.wait(10)


def ours(pid: int, marker: str) -> bool:
    """Is ``pid`` a child a kalarite service spawned for ``marker`` (a study id or a data
    directory)? Guards against killing a process that merely reused the pid."""
    import psutil

    try:
        cmd = " ".join(psutil.Process(pid).cmdline())
    except (psutil.Error, OSError):
        return False
    # sim.service. is the package's name before it moved under sim/app/ (an older service's child)
    return ("sim.app.service." in cmd or "sim.service." in cmd) and marker in cmd


def kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def kill_leftovers(pgid: int) -> int:
    """Kill what is left of the process group ``pgid`` of a child of a service that died
    (Ray's agents can outlive their raylet). Linux never reuses a pid as long as a process
    group of that id exists, so whatever is still in the group is the old child's; only
    processes that look like ours (Ray's or this package's) are touched, in case the group
    emptied and its number went to a stranger. Returns how many processes were killed."""
    import psutil

    killed = 0
    for p in psutil.process_iter():
        try:
            if os.getpgid(p.pid) != pgid or p.pid == os.getpid():
                continue
            cmd = " ".join(p.cmdline()) or p.name()
            if "ray" in cmd or "sim.app.service" in cmd or "sim.service" in cmd:
                p.kill()
                killed += 1
        except (psutil.Error, OSError):
            continue
    return killed
