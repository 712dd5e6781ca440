"""Connecting to a cluster, without one (cluster/connect.py, cluster/session.py): every
command that plays games takes ``--address``, and nothing is asked of a cluster that a run
will not use. The cluster itself answering (a token followed, refused, or missing) is
tests/test_cluster_nodes.py, on a real two-node cluster."""

import argparse
import socket

import pytest

from cluster import session
from cluster.connect import ClusterRefused, follow_cluster_auth, is_host_port
from cluster.session import RayStartError, reach_cluster
from sim.app.cli import build_parser

PLAYING = ("study", "simulate", "trace", "suggest", "check", "ladder", "competence", "serve")


def _subcommands(parser) -> dict:
    """{name: subparser} of the CLI."""
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sub.choices


@pytest.mark.parametrize("command", PLAYING)
def test_every_command_that_plays_takes_an_address(command):
    sub = _subcommands(build_parser())[command]
    flags = {s for a in sub._actions for s in a.option_strings}
    assert "--address" in flags


@pytest.mark.parametrize(
    "address, asked",
    [("127.0.0.1:6379", True), ("head.example:6379", True), ("ray://head:10001", False),
     ("auto", False), ("head", False)],
)  # fmt: skip
def test_only_a_gcs_address_is_asked_first(address, asked):
    assert is_host_port(address) is asked


def test_nothing_is_asked_in_process_or_without_an_address(monkeypatch):
    monkeypatch.setattr(session, "follow_cluster_auth", _never)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    reach_cluster(0, "127.0.0.1:1")  # --workers 0: no Ray at all
    reach_cluster(None, None)  # a local Ray of this run's own


def _never(address):
    raise AssertionError(f"asked {address}")


def test_an_address_nobody_listens_at_is_one_line_at_once(monkeypatch):
    with socket.socket() as s:  # a port that was free a moment ago
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(session, "_FOLLOWED", set())
    # (an xdist worker may hold a Ray session from another module's test: this one asks
    # as a fresh driver process would)
    monkeypatch.setattr("ray.is_initialized", lambda: False)
    with pytest.raises(RayStartError, match=f"cannot reach Ray at 127.0.0.1:{port}"):
        reach_cluster(None, f"127.0.0.1:{port}")


def test_a_port_that_is_not_rays_is_one_line(monkeypatch):
    """A listener that is not Ray's GCS: the child's bounded wait ends in one line."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        address = f"127.0.0.1:{s.getsockname()[1]}"
        with pytest.raises(ClusterRefused, match=f"Ray at {address}"):
            follow_cluster_auth(address)
