"""The example cloud clusters of docs/cluster.md (docs/examples/) are not started here, but
the fields kalarite relies on are checked: the same kalarite on every node, Ray's token on
every node with token authentication on, the head's GCS port the docs' ``--address`` names,
and room for the dataset on the head."""

import pathlib

import pytest

yaml = pytest.importorskip("yaml")

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "docs" / "examples"


def _load(name: str) -> dict:
    return yaml.safe_load((EXAMPLES / name).read_text())


def test_the_cluster_launcher_config_installs_kalarite_and_the_token_everywhere():
    c = _load("ray-cluster.yaml")
    assert c["provider"]["type"] == "aws" and c["provider"]["region"]
    types = c["available_node_types"]
    assert c["head_node_type"] in types and len(types) == 2
    workers = next(t for name, t in types.items() if name != c["head_node_type"])
    assert 0 <= workers["min_workers"] <= workers["max_workers"] <= c["max_workers"]
    assert c["file_mounts"]["~/.ray/auth_token"] == "~/.ray/auth_token"  # one token everywhere
    checkout = c["file_mounts"]["~/kalarite"]
    assert checkout == "." and any("pip install" in s and "~/kalarite" in s
                                   for s in c["setup_commands"])  # fmt: skip
    head, joined = c["head_start_ray_commands"], c["worker_start_ray_commands"]
    (start_head,) = [s for s in head if "ray start" in s]
    (start_worker,) = [s for s in joined if "ray start" in s]
    assert start_head.startswith("RAY_AUTH_MODE=token ") and "--head --port=6379" in start_head
    assert start_worker.startswith("RAY_AUTH_MODE=token ")
    assert "--address=$RAY_HEAD_IP:6379" in start_worker
    disk = c["available_node_types"][c["head_node_type"]]["node_config"]
    assert disk["BlockDeviceMappings"][0]["Ebs"]["VolumeSize"] >= 50  # GB for the datasets


def test_the_kuberay_cluster_gives_every_pod_the_image_and_the_token():
    c = _load("kuberay-cluster.yaml")
    assert c["apiVersion"] == "ray.io/v1" and c["kind"] == "RayCluster"
    head = c["spec"]["headGroupSpec"]["template"]["spec"]["containers"][0]
    groups = c["spec"]["workerGroupSpecs"]
    assert groups and all(g["minReplicas"] <= g["replicas"] <= g["maxReplicas"] for g in groups)
    pods = [head] + [g["template"]["spec"]["containers"][0] for g in groups]
    for pod in pods:
        assert pod["image"] == head["image"]  # the same kalarite on every node
        env = {e["name"]: e for e in pod["env"]}
        assert env["RAY_AUTH_MODE"]["value"] == "token"
        assert env["RAY_AUTH_TOKEN"]["valueFrom"]["secretKeyRef"]["key"] == "token"
    assert {"containerPort": 6379, "name": "gcs"} in head["ports"]
    mounts = {m["name"]: m["mountPath"] for m in head["volumeMounts"]}
    volumes = {v["name"] for v in c["spec"]["headGroupSpec"]["template"]["spec"]["volumes"]}
    assert set(mounts) <= volumes  # the datasets' volume exists
