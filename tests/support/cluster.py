"""A real Ray cluster of two nodes on this machine, started the stock way (`ray start --head`,
then `ray start --address`, one CPU each), for the cluster tests (test_cluster_nodes,
test_service_cluster). Each node runs ``ray start --block`` in a session of its own, so
SIGTERM stops that node alone and SIGKILL of its process group kills it like a crashed
machine; everything is stopped at the end (only the processes started here)."""

import json
import os
import pathlib
import signal
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest

from sim.app.service.children import kill_leftovers
from tests.support.service import child_env, free_port

RAY = os.path.join(os.path.dirname(sys.executable), "ray")
START_S = 180.0  # a busy 2-core machine starts a Ray node in 10 to 60 s

NODES = """
import json, sys, time, ray
ray.init(address=sys.argv[1], logging_level="ERROR", log_to_driver=False)
deadline = time.time() + float(sys.argv[2])
while time.time() < deadline:
    alive = [n["NodeID"] for n in ray.nodes() if n["Alive"]]
    if len(alive) >= int(sys.argv[3]):
        break
    time.sleep(1)
print(json.dumps(alive))
"""


@dataclass
class Cluster:
    address: str
    head_id: str  # the Ray node id of the head
    worker_id: str  # the Ray node id of the joined node
    env: dict  # the environment a driver on this machine uses (as the nodes were started)
    head: subprocess.Popen = field(repr=False)
    worker: subprocess.Popen = field(repr=False)

    @property
    def nodes(self) -> set:
        return {self.head_id, self.worker_id}

    def kill_worker_node(self):
        """The joined node dies at once (SIGKILL to every process of its session), as a
        machine that loses power."""
        os.killpg(self.worker.pid, signal.SIGKILL)
        self.worker.wait(30)


def stock_env(home: pathlib.Path, **extra) -> dict:
    """The environment of a user who set nothing: a home of its own (``home``) holding a Ray
    token in ``~/.ray/auth_token``, as any earlier local Ray leaves one, no ``RAY_AUTH_*``
    variable; the compiled engine is the tests' usual cache."""
    home.mkdir(parents=True, exist_ok=True)
    cache = os.environ.get("KALARITE_NUMBA_CACHE") or str(
        pathlib.Path.home() / ".cache" / "kalarite" / "numba"
    )
    env = child_env(HOME=str(home), KALARITE_NUMBA_CACHE=cache, **extra)
    for key in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
        env.pop(key, None)
    if os.path.exists(RAY):
        subprocess.run([RAY, "get-auth-token", "--generate"], env=env, capture_output=True)
    return env


def ray_start(args, log, env) -> subprocess.Popen:
    """``ray start ... --block`` in a session of its own."""
    with open(log, "ab") as f:
        return subprocess.Popen(
            [RAY, "start", *args, "--block", "--disable-usage-stats"],
            stdin=subprocess.DEVNULL,
            stdout=f,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )


def stop_node(proc):
    if proc is None:
        return
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    kill_leftovers(proc.pid)


def _alive_nodes(address: str, env: dict, want: int) -> tuple:
    """(ids of the alive nodes once there are ``want``, the asking driver's stderr). The
    asking driver is this helper's own: it sends Ray's token as Ray is told to."""
    p = subprocess.run(
        [sys.executable, "-c", NODES, address, str(START_S), str(want)],
        env={**env, "RAY_AUTH_MODE": env.get("RAY_AUTH_MODE", "token")},
        capture_output=True,
        text=True,
        timeout=START_S + 60,
    )
    lines = [x for x in p.stdout.splitlines() if x.startswith("[")]
    return (json.loads(lines[-1]) if lines else []), p.stderr.strip()[-300:]


@contextmanager
def two_nodes(tmp, env, node_env=None):
    """Yield a Cluster of a head and one joined node (one CPU each) in ``tmp`` (logs);
    ``env``: the nodes' and the drivers' environment; ``node_env``: the joined node's extra
    variables. The joined node sets ``RAY_AUTH_MODE=token`` as Ray asks of a node joining a
    cluster with tokens (the head turns them on when it finds one). Skips when the nodes do
    not come up in START_S (a starved machine)."""
    if not os.path.exists(RAY):
        pytest.skip(f"no ray command next to {sys.executable}")
    port = free_port()
    address = f"127.0.0.1:{port}"
    head = worker = None
    try:
        head_args = ["--head", f"--port={port}", "--num-cpus=1", "--include-dashboard=false"]
        head_args.append(f"--ray-client-server-port={free_port()}")
        head = ray_start(head_args, tmp / "head.log", env)
        nodes, err = _alive_nodes(address, env, 1)  # the head first: the joined node is the other
        if len(nodes) != 1:
            pytest.skip(f"the Ray head did not come up in {START_S:.0f} s ({err})")
        worker_env = {"RAY_AUTH_MODE": "token", **env, **(node_env or {})}
        worker = ray_start([f"--address={address}", "--num-cpus=1"], tmp / "node.log", worker_env)
        both, err = _alive_nodes(address, env, 2)
        if len(both) < 2:
            log = " ".join((tmp / f).read_text()[-400:] for f in ("head.log", "node.log"))
            pytest.skip(f"the joined Ray node did not come up in {START_S:.0f} s ({err} {log})")
        other = next(n for n in both if n != nodes[0])
        yield Cluster(address, nodes[0], other, env, head, worker)
    finally:
        stop_node(worker)
        stop_node(head)
        for proc in (worker, head):
            if proc is not None:
                assert kill_leftovers(proc.pid) == 0  # nothing of the cluster left behind
