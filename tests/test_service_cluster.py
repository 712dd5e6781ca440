"""A study run by the service on a two-node Ray cluster started on this machine (`ray start
--head`, then a second `ray start --address` with its own CPU): its chunks ran on both nodes,
as each chunk's Parquet metadata records. The cluster is small (one CPU a node), bounded in
time, and always stopped at the end (only the processes this test started)."""

import json
import signal

import pyarrow.parquet as pq
import pytest

from tests.support.cluster import stock_env, two_nodes
from tests.support.service import LiveService, wait_state


@pytest.fixture
def cluster(tmp_path):
    env = stock_env(tmp_path / "home")  # the service follows the cluster's token by itself
    with two_nodes(tmp_path, env) as c:
        yield c.address, c.nodes, env


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
