"""kalarite on a real Ray cluster of two nodes, started the stock way on this machine
(tests/support/cluster.py): `ray start --head` finds a token in its ``~/.ray/auth_token``
(this test's own home) and turns token authentication on, and `kalarite simulate --address`
follows it with no setting of its own.

- A study's chunks run on both nodes (each chunk's Parquet metadata names its node), and
  its rows are those of the same study played in one process (``--workers 0``), with the
  installed card files and with a changed copy (``--content DIR``), whose files reach the
  other node with the chunks (written to that node's own temporary directory).
- A driver the cluster refuses (a wrong token, none, tokens turned off here) is one error
  line naming what to set, within seconds; `kalarite serve` says the same and does not
  start.
- The joined node killed (its whole session, SIGKILL) while it plays a chunk: the study
  still ends complete with exactly the in-process rows (Ray retries the lost chunks), 0
  games lost or duplicated.

Random players and small studies: the cluster's start-up is most of the time."""

import json
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import psutil
import pyarrow.parquet as pq
import pytest

from results.layout import CHUNK_KEY
from results.store import read_table
from tests.support.cluster import stock_env, two_nodes
from tests.support.service import wait_for

GAMES, CHUNK = 3000, 500  # 6 chunks of about a second
RUN_S = 600  # a study on the cluster, starting its workers included, on a busy machine
STUDY = ["--decks", "imperial,highland", "--policy", "random", "--seed", "5"]
STUDY += ["--games", str(GAMES), "--chunk-size", str(CHUNK)]


def _short_dir(prefix: str) -> pathlib.Path:
    """A directory with a short path: Ray's sockets live under a node's TMPDIR (at most 107
    characters for a socket's path)."""
    return pathlib.Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """Two nodes of one CPU each, started as a user who set nothing would (``stock_env``),
    with a temporary directory for each node."""
    tmp = tmp_path_factory.mktemp("cluster")
    dirs = [_short_dir("krh"), _short_dir("krw")]
    env = stock_env(tmp / "home", TMPDIR=str(dirs[0]))
    try:
        with two_nodes(tmp, env, node_env={"TMPDIR": str(dirs[1])}) as c:
            c.tmp_dirs = dirs
            yield c
    finally:
        for d in dirs:
            shutil.rmtree(d, ignore_errors=True)


def _kalarite(env, *args, timeout=RUN_S) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sim.app.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _rows(out) -> list:
    """The games table's rows, in game order (the chunks land in any order)."""
    table = read_table(out, "games")
    rows = table.to_pylist()
    return sorted(rows, key=lambda r: (r["matchup"], r["mode"], r["game_index"]))


def _chunks(out) -> list:
    """[(Ray node id, matchup, chunk index), ...] from each chunk file's own metadata."""
    where = []
    for f in sorted((pathlib.Path(out) / "games").rglob("*.parquet")):
        meta = json.loads(pq.read_schema(f).metadata[CHUNK_KEY])
        where.append((meta["node_id"], meta["matchup"], meta["chunk"]))
    return where


def _played_on(out) -> set:
    return {node for node, _, _ in _chunks(out)}


@pytest.fixture(scope="module")
def in_process(cluster, tmp_path_factory):
    """The study played in one process, without Ray: the rows and chunks every cluster run
    must give."""
    out = tmp_path_factory.mktemp("reference") / "d"
    p = _kalarite(cluster.env, "simulate", *STUDY, "--workers", "0", "--out", str(out))
    assert p.returncode == 0, p.stderr
    return _rows(out), sorted((m, c) for _, m, c in _chunks(out))


def _on_cluster(cluster, out, *extra, env=None) -> subprocess.CompletedProcess:
    return _kalarite(env or cluster.env, "simulate", *STUDY, *extra,
                     "--address", cluster.address, "--out", str(out))  # fmt: skip


def test_a_stock_cluster_plays_a_study_on_both_nodes(cluster, in_process, tmp_path):
    p = _on_cluster(cluster, tmp_path / "d")
    assert p.returncode == 0, p.stderr
    assert "InvalidAuthToken" not in p.stderr  # the token was followed, not retried
    rows, chunks = in_process
    assert _rows(tmp_path / "d") == rows
    played = _chunks(tmp_path / "d")
    assert {node for node, _, _ in played} == cluster.nodes, played  # both nodes played
    assert sorted((m, c) for _, m, c in played) == chunks


def test_a_copy_of_the_cards_reaches_the_other_node_as_data(cluster, tmp_path):
    cards = tmp_path / "cards"
    p = _kalarite(cluster.env, "cards", "copy", str(cards))
    assert p.returncode == 0, p.stderr
    with open(cards / "highland.toml", "a") as f:  # a copy of its own: its own content hash
        f.write("\n# a designer's note\n")
    reference = tmp_path / "ref"
    p = _kalarite(cluster.env, "simulate", *STUDY, "--content", str(cards), "--workers", "0",
                  "--out", str(reference))  # fmt: skip
    assert p.returncode == 0, p.stderr
    p = _on_cluster(cluster, tmp_path / "d", "--content", str(cards))
    assert p.returncode == 0, p.stderr
    assert _rows(tmp_path / "d") == _rows(reference)
    assert _played_on(tmp_path / "d") == cluster.nodes
    content_hash = json.loads((reference / "study.json").read_text())["content_hash"]
    for node_tmp in cluster.tmp_dirs:  # each node wrote the files it was sent, in its own
        written = list(node_tmp.glob(f"kalarite-content-*/{content_hash}/highland.toml"))
        assert written and "a designer's note" in written[0].read_text()


REFUSED = {  # a driver the cluster refuses: what it lacks, and what the line names
    "a wrong token": ({"RAY_AUTH_TOKEN": "0" * 32}, "refused this machine's token"),
    "no token": ({"HOME": "EMPTY"}, "this machine has none"),
    "tokens turned off here": ({"RAY_AUTH_MODE": "disabled"}, "unset RAY_AUTH_MODE"),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_refused_driver_is_one_line_naming_what_to_set(cluster, tmp_path, case):
    change, said = REFUSED[case]
    env = {**cluster.env, **change}
    if env["HOME"] == "EMPTY":
        (tmp_path / "home").mkdir()
        env["HOME"] = str(tmp_path / "home")
    t0 = time.monotonic()
    p = _on_cluster(cluster, tmp_path / "d", env=env)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr  # no page of Ray's warnings
    assert lines[0].startswith(f"kalarite: error: Ray at {cluster.address} ") and said in lines[0]
    assert time.monotonic() - t0 < 60  # seconds, not Ray's minutes of retries
    assert not (tmp_path / "d").exists()
    if case == "a wrong token":  # the service says the same and does not start
        p = _kalarite(env, "serve", "--address", cluster.address, "--data", str(tmp_path / "s"))
        assert p.returncode == 2 and p.stderr.strip().splitlines() == lines


def _worker_node_plays(cluster) -> bool:
    """Does a worker process of the joined node run a chunk now (Ray titles it so)?"""
    try:
        procs = psutil.Process(cluster.worker.pid).children(recursive=True)
    except psutil.Error:
        return False
    for p in procs:
        try:
            if p.cmdline() and p.cmdline()[0].startswith("ray::run_chunk"):
                return True
        except psutil.Error:
            continue
    return False


def test_a_node_killed_mid_study_loses_and_duplicates_no_game(cluster, in_process, tmp_path):
    """Last in this file: the cluster has one node after it."""
    hold = tmp_path / "hold"  # the driver waits after its first chunk while this exists
    hold.write_text("")
    env = {**cluster.env, "KALARITE_TEST_HOLD_FILE": str(hold)}
    cmd = [sys.executable, "-m", "sim.app.cli", "simulate", *STUDY]
    cmd += ["--address", cluster.address, "--out", str(tmp_path / "d")]
    with open(tmp_path / "driver.log", "w") as log:
        driver = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: _worker_node_plays(cluster), RUN_S, "a chunk on the joined node", 0.02)
        cluster.kill_worker_node()
        hold.unlink()
        assert driver.wait(RUN_S) == 0, (tmp_path / "driver.log").read_text()[-2000:]
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.wait(30)
    rows, chunks = in_process
    assert _rows(tmp_path / "d") == rows  # every game once, each as in one process
    assert sorted((m, c) for _, m, c in _chunks(tmp_path / "d")) == chunks
