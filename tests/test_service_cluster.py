"""A study run by the service on a two-node Ray cluster started on this machine (`ray start
--head`, then a second `ray start --address` with its own CPU): its chunks ran on both nodes,
as each chunk's Parquet metadata records. The cluster is small (one CPU a node), bounded in
time, and always stopped at the end (only the processes this test started)."""

import json
import os
import signal
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

from sim.app.service.children import kill_leftovers
from tests.service_support import LiveService, child_env, free_port, wait_state

RAY = os.path.join(os.path.dirname(sys.executable), "ray")
START_S = 180.0  # a busy 2-core machine starts a Ray node in 10 to 60 s

NODES = """
import json, sys, time, ray
ray.init(address=sys.argv[1], logging_level="ERROR", log_to_driver=False)
deadline = time.time() + float(sys.argv[2])
while time.time() < deadline:
    alive = [n["NodeID"] for n in ray.nodes() if n["Alive"]]
    if len(alive) >= 2:
        break
    time.sleep(1)
print(json.dumps(alive))
"""


def _ray_start(args, log, env):
    """``ray start ... --block`` in a session of its own: SIGTERM stops that node alone."""
    with open(log, "ab") as f:
        return subprocess.Popen(
            [RAY, "start", *args, "--block", "--disable-usage-stats"],
            stdin=subprocess.DEVNULL,
            stdout=f,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )


def _stop(proc):
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


@pytest.fixture
def cluster(tmp_path):
    if not os.path.exists(RAY):
        pytest.skip(f"no ray command next to {sys.executable}")
    env = child_env(RAY_AUTH_MODE="token")
    port = free_port()
    address = f"127.0.0.1:{port}"
    head = node = None
    try:
        head = _ray_start(
            ["--head", f"--port={port}", "--num-cpus=1", "--include-dashboard=false"],
            tmp_path / "head.log",
            env,
        )
        node = _ray_start([f"--address={address}", "--num-cpus=1"], tmp_path / "node.log", env)
        p = subprocess.run(
            [sys.executable, "-c", NODES, address, str(START_S)],
            env=env,
            capture_output=True,
            text=True,
            timeout=START_S + 60,
        )
        nodes = _alive_nodes(p.stdout)
        if len(nodes) < 2:
            log = " ".join((tmp_path / f).read_text()[-400:] for f in ("head.log", "node.log"))
            pytest.skip(
                f"a two-node Ray cluster did not come up in {START_S:.0f} s "
                f"(nodes: {len(nodes)}; {p.stderr.strip()[-300:]} {log})"
            )
        yield address, set(nodes), env
    finally:
        _stop(node)
        _stop(head)
        for proc in (node, head):
            if proc is not None:
                assert kill_leftovers(proc.pid) == 0  # nothing of the cluster left behind


def _alive_nodes(stdout: str) -> list:
    lines = [x for x in stdout.splitlines() if x.startswith("[")]
    return json.loads(lines[-1]) if lines else []


def test_study_runs_on_both_nodes(cluster, tmp_path):
    address, nodes, env = cluster
    svc = LiveService(tmp_path / "data", "--address", address, env=env).start()
    try:
        with svc.client() as c:
            info = c.get("/info").json()
            assert info["ray"] == {
                "mode": "cluster",
                "state": "ready",
                "address": address,
                "cpus": None,
                "error": None,
            }
            spec = {"name": "two nodes", "decks": [["imperial", "highland"]], "games": 200}
            spec["policies"] = "random"
            sid = c.post("/studies", json={**spec, "seed": 5, "chunk_size": 10}).json()["id"]
            s = wait_state(c, sid, ("finished", "failed"), 1200)
            assert s["state"] == "finished", s
    finally:
        assert svc.stop() in (0, -signal.SIGTERM)
    files = sorted((tmp_path / "data" / "studies" / sid / "dataset" / "games").rglob("*.parquet"))
    assert len(files) == 20
    played_on = {}
    for f in files:
        where = json.loads(pq.read_schema(f).metadata[b"kalarite.chunk"])
        played_on.setdefault(where["node_id"], []).append(where["chunk"])
    assert set(played_on) == nodes, played_on  # both nodes played chunks
    assert sorted(c for cs in played_on.values() for c in cs) == list(range(20))
