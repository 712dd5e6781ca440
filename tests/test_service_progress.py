"""The service's games/s and ETA, from the times a dataset records (injected here: no clock
is read, and no two clocks are compared). The rate is over playing time, as the study's own
log counts it: this run's chunks (written since the manifest's run began, after compiling
and connecting to Ray); after its first wave (one chunk per worker, which also waited for
the workers to start) the games landed since over the time since, before it the games over
the time since the start of play. The page once divided by the wall time since the service
started the run (compiling included) and showed 3.9 games/s where the log said 77."""

import datetime
import json
import os

import pytest

from results.layout import Layout, part_name
from results.store import MANIFEST
from sim.app.service import progress

T0 = 1_800_000_000  # the run's start of play (epoch seconds, whole: as the manifest keeps it)
MATCHUPS = [{"mode": "high-form", "matchup": ["imperial", "highland"], "policies": "random",
             "games": 1000}]  # fmt: skip
CHUNK = 100


def iso(t: float) -> str:
    return datetime.datetime.fromtimestamp(t, datetime.UTC).isoformat(timespec="seconds")


def dataset(root, runs, chunks, status="running", manifest_at=None, workers=1):
    """A dataset of 10 chunks of 100 games: ``runs`` [(started, status)] (the last one with
    ``workers``), ``chunks`` {chunk: the time its games file was written}; the manifest file
    written at ``manifest_at`` (default: the last run's start)."""
    root.mkdir(parents=True, exist_ok=True)
    manifest = {"status": status, "chunk_size": CHUNK, "matchups": MATCHUPS,
                "runs": [{"started": iso(t), "status": s} for t, s in runs]}  # fmt: skip
    manifest["runs"][-1]["workers"] = workers
    path = root / MANIFEST
    path.write_text(json.dumps(manifest))
    at = runs[-1][0] if manifest_at is None else manifest_at
    os.utime(path, (at, at))
    layout = Layout.of_manifest(manifest)
    d = layout.directory(root, "games", 0)
    d.mkdir(parents=True, exist_ok=True)
    for c, t in chunks.items():
        (d / part_name(c)).write_bytes(b"")
        os.utime(d / part_name(c), (t, t))
    return root


def test_the_rate_is_over_playing_time(tmp_path):
    # a run that began playing at T0 (after a minute of compiling: not in the rate); its one
    # worker took 3 s to start, then played a chunk a second; one chunk is an earlier run's
    runs = [(T0 - 3600, "interrupted"), (T0, "running")]
    chunks = {0: T0 - 3500, 1: T0 + 4, 2: T0 + 5, 3: T0 + 6, 4: T0 + 7}
    p = progress.scan(dataset(tmp_path / "d", runs, chunks), since=T0 - 60)
    assert p["games_done"] == 500 and p["games_this_run"] == 400
    assert (p["play_started"], p["last_chunk_at"]) == (T0, T0 + 7)
    r = progress.rates(p, 1000, now=T0 + 7)
    assert r == {"games_per_s": 100.0, "eta_s": 5.0}  # after the first: 300 games in 3 s
    # between chunks the time left counts down, the rate holds
    assert progress.rates(p, 1000, now=T0 + 9) == {"games_per_s": 100.0, "eta_s": 3.0}
    assert progress.rates(p, 1000, now=T0 + 60)["eta_s"] == 0.0
    assert progress.rates(p, None, now=T0 + 7)["eta_s"] is None  # a suggestion: no target


def test_the_first_wave_is_one_chunk_per_worker(tmp_path):
    """Two workers: their first chunks land together (both waited for the workers); the
    rate counts from the second."""
    chunks = {0: T0 + 4, 1: T0 + 4.5, 2: T0 + 5, 3: T0 + 6}
    p = progress.scan(dataset(tmp_path / "d", [(T0, "running")], chunks, workers=2), since=T0)
    assert progress.rates(p, 1000, now=T0 + 6)["games_per_s"] == round(200 / 1.5, 2)
    # until more chunks than workers have landed: the games over the time since play began
    p = progress.scan(dataset(tmp_path / "e", [(T0, "running")], {0: T0 + 4}, workers=2))
    assert progress.rates(p, 1000, now=T0 + 4)["games_per_s"] == 25.0


def test_the_manifest_file_time_refines_the_whole_second(tmp_path):
    """The manifest keeps whole seconds; its file, written as the run begins, the fraction."""
    d = dataset(tmp_path / "d", [(T0, "running")], {0: T0 + 2.5}, manifest_at=T0 + 0.5)
    p = progress.scan(d, since=T0)
    assert p["play_started"] == T0 + 0.5
    assert progress.rates(p, 1000, now=T0 + 2.5)["games_per_s"] == 50.0
    # a manifest written later (a look of a study played --until): the whole second stands
    d = dataset(tmp_path / "e", [(T0, "running")], {0: T0 + 2.5}, manifest_at=T0 + 2)
    assert progress.scan(d, since=T0)["play_started"] == T0


@pytest.mark.parametrize(
    "runs, chunks, since, why",
    [
        ([(T0, "running")], {}, T0, "no chunk of this run yet"),
        ([(T0, "running")], {0: T0}, T0, "a chunk at the very start: no time to divide by"),
        ([(T0, "interrupted")], {0: T0 + 1}, T0, "no run is playing"),
        ([(T0, "running")], {0: T0 + 1}, T0 + 30, "the manifest's run is a dead service's"),
    ],
)
def test_no_rate_without_a_playing_run(tmp_path, runs, chunks, since, why):
    p = progress.scan(dataset(tmp_path / "d", runs, chunks), since=since)
    assert progress.rates(p, 1000, now=T0 + 10) == {"games_per_s": None, "eta_s": None}, why


def test_a_suggestion_adds_up_its_datasets(tmp_path):
    """A suggestion's datasets are played in turn: its games are theirs, its rate the one
    playing now."""
    root = tmp_path / "report"
    dataset(root / "step-1" / "race" / "base-1", [(T0, "complete")], {0: T0 + 1, 1: T0 + 2},
            status="complete")  # fmt: skip
    dataset(root / "step-1" / "race" / "round-1", [(T0 + 10, "running")], {0: T0 + 14})
    (root / "step-1" / "candidates" / "c001").mkdir(parents=True)  # card files: no dataset
    p = progress.scan_tree(root, since=T0 - 60)
    assert p["games_done"] == 300 and p["games_this_run"] == 100
    assert progress.rates(p, None, now=T0 + 14) == {"games_per_s": 25.0, "eta_s": None}
    assert [os.path.relpath(d, root) for d in progress.datasets(root)] == [
        "step-1/race/base-1",
        "step-1/race/round-1",
    ]
