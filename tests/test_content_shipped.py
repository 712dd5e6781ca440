"""Everything a worker needs travels with its chunk (sim/content/shipped.py, cluster/worker.py):
a ``--content DIR`` copy is played from the files sent with the job, not from a path on the
worker's disk, and a node whose kalarite engine differs refuses the chunk by name. The
chunks run in this process (``run_chunk`` is a plain function), with the worker's content
cache emptied and its temporary directory this test's own, as on a fresh node."""

import os
import shutil
import time

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import sim.content.shipped as shipped
from cluster.worker import ChunkJob, EngineMismatch, run_chunk
from results.layout import Chunk
from results.store import dataset_info, job_info
from sim.content import ContentError, load_content
from sim.content.copies import copy_content, load_content_dir
from sim.study import study_from_dict

SPEC = {"decks": [["imperial", "highland"]], "policies": "random", "games": 4, "seed": 3}


@pytest.fixture
def fresh_node(tmp_path, monkeypatch):
    """A worker process that has loaded no content yet, with a temporary directory of its own
    (where sent card files are written)."""
    node_tmp = tmp_path / "node-tmp"
    node_tmp.mkdir()
    monkeypatch.setattr(shipped, "_UNPACKED", {})
    monkeypatch.setattr(shipped.tempfile, "tempdir", str(node_tmp))
    return node_tmp


def _job(content, study):
    info = dataset_info(study, content)
    mu = study.matchups()[0]
    return ChunkJob.of(Chunk(0, 0, 0, 4), mu, study, job_info(info), info["player_rows"])


def _rows(result) -> list:
    return pq.read_table(pa.BufferReader(result["files"]["games"])).to_pylist()


def _copy_with_a_change(where):
    """A copy of the card files whose bytes differ from the installed ones (its own content
    hash) while its cards play the same games."""
    d = copy_content(where)
    with open(d / "sylvan.toml", "a") as f:
        f.write("\n# a designer's note: this copy has its own content hash\n")
    return d


def test_a_copy_is_played_from_the_files_sent_not_from_its_directory(tmp_path, fresh_node):
    copy = _copy_with_a_change(tmp_path / "cards")
    content = load_content_dir(copy)
    assert content.content_hash != load_content().content_hash
    study = study_from_dict({**SPEC, "content": str(copy)}, content)
    job = _job(content, study)
    shutil.rmtree(copy)  # the worker's node has no such directory
    played = run_chunk(job, ignore_sigint=False)
    assert played["games"] == 4
    written = fresh_node / f"kalarite-content-{shipped.os.getuid()}" / content.content_hash
    assert sorted(p.name for p in written.iterdir()) == [n for n, _ in job.content.files]
    installed = load_content()
    same_cards = study_from_dict(SPEC, installed)
    reference = run_chunk(_job(installed, same_cards), ignore_sigint=False)
    assert _rows(played) == _rows(reference)  # a note changed, not a card: the same games


def test_a_content_unused_for_a_day_is_removed_when_another_is_written(tmp_path, fresh_node):
    root = fresh_node / f"kalarite-content-{shipped.os.getuid()}"
    old, recent = root / ("0" * 16), root / ("1" * 16)
    for d in (old, recent):
        d.mkdir(parents=True)
        (d / "board.toml").write_text("")
    two_days_ago = time.time() - 2 * 86400
    os.utime(old, (two_days_ago, two_days_ago))
    copy = _copy_with_a_change(tmp_path / "cards")
    content = load_content_dir(copy)
    run_chunk(_job(content, study_from_dict({**SPEC, "content": str(copy)}, content)), False)
    assert sorted(p.name for p in root.iterdir()) == sorted([recent.name, content.content_hash])


def test_the_installed_content_is_sent_too_and_played_from_the_installed_files(fresh_node):
    content = load_content()
    job = _job(content, study_from_dict(SPEC, content))
    assert job.content.content_hash == content.content_hash and job.content.files
    assert run_chunk(job, ignore_sigint=False)["games"] == 4
    assert not any(fresh_node.iterdir())  # nothing written: the node's files are the same


def test_a_node_with_another_engine_refuses_its_chunks_by_name(fresh_node):
    content = load_content()
    job = _job(content, study_from_dict(SPEC, content))
    other = ChunkJob(**{**job.__dict__, "info": {**job.info, "engine_hash": "0" * 16}})
    with pytest.raises(EngineMismatch, match=r"node .* runs another kalarite .* every node"):
        run_chunk(other, ignore_sigint=False)


def test_card_files_changed_after_loading_are_refused_in_the_driver(tmp_path):
    copy = _copy_with_a_change(tmp_path / "cards")
    content = load_content_dir(copy)
    study = study_from_dict({**SPEC, "content": str(copy)}, content)
    with open(copy / "sylvan.toml", "a") as f:
        f.write("# edited while the study starts\n")
    with pytest.raises(ContentError, match="changed after they were loaded"):
        _job(content, study)
