"""A study's players are part of its identity: the parameter rows its players resolve to
(profile file and defaults read once, in the driver: sim.games) are recorded in the dataset,
shipped with every chunk and checked by the worker; resume refuses a player that changed,
and `kalarite compare` calls a changed player a change of players.

The profile file is a temporary one here (``sim.players.PROFILES_PATH``), and the studies run
in this process (``workers=0``), so that "the profile file changed on the way" is a rewrite of
that file between two calls.
"""

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import sim.players
from cluster.runner import StudyInterrupted, run_study
from cluster.worker import ChunkJob, EngineMismatch, run_chunk
from core.kernel import play
from results.layout import Chunk
from results.store import MANIFEST, StoreError, dataset_info, job_info, read_manifest, read_table
from sim.app.cli import main
from sim.content import load_content
from sim.games import Player, batch, changed_parts, players_hash, resolve_players
from sim.players import Profile, save_profile
from sim.study import study_from_dict

CONTENT = load_content()
PROFILE = "quick"


@pytest.fixture
def profiles(tmp_path, monkeypatch):
    """A profile file of this test's own, with a greedy profile ``quick``; returns a function
    that rewrites its weights."""
    path = tmp_path / "players.toml"
    monkeypatch.setattr(sim.players, "PROFILES_PATH", path)

    def write(points=12.0, material=0.5):
        weights = {"points": points, "material": material}
        save_profile(Profile(PROFILE, "greedy", weights=weights), path)

    write()
    return write


def _study(**changes):
    spec = {
        "decks": [["imperial", "highland"]],
        "modes": "high-form",
        "policies": [[PROFILE, "random"]],
        "games": 6,
        "seed": 4,
        "chunk_size": 2,
        **changes,
    }
    return study_from_dict(spec, CONTENT)


def _interrupted(out, monkeypatch):
    monkeypatch.setenv("KALARITE_TEST_INTERRUPT_AFTER", "1")
    with pytest.raises(StudyInterrupted):
        run_study(_study(), CONTENT, out, workers=0, progress=False)
    monkeypatch.delenv("KALARITE_TEST_INTERRUPT_AFTER")


def test_the_dataset_records_its_players(profiles, tmp_path):
    out = tmp_path / "s"
    run_study(_study(), CONTENT, out, workers=0, progress=False)
    m = read_manifest(out)
    players = resolve_players([PROFILE, "random"])
    assert m["players"] == {spec: p.digest for spec, p in players.items()}
    assert m["players_hash"] == players_hash(m["players"])
    assert m["player_rows"][PROFILE] == players[PROFILE].to_json()
    md = read_table(out, "games").schema.metadata
    assert md[b"kalarite.players_hash"].decode() == m["players_hash"]
    assert json.loads(md[b"kalarite.players"]) == m["players"]


def test_a_resumed_study_refuses_a_changed_profile(profiles, tmp_path, monkeypatch, capsys):
    out = tmp_path / "s"
    _interrupted(out, monkeypatch)
    before = read_manifest(out)["players"][PROFILE]
    profiles(points=20.0)  # re-tuned while the study was stopped
    now = resolve_players([PROFILE])[PROFILE].digest
    with pytest.raises(StoreError) as e:
        run_study(_study(), CONTENT, out, workers=0, progress=False)
    text = str(e.value)
    assert f"the profile of {PROFILE!r} changed since this study started" in text
    assert f"(players hash {before}, now {now}: weights points)" in text
    assert "start a new --out" in text
    # the command: one line, exit status 2, the dataset left as it was
    spec = tmp_path / "spec.toml"
    spec.write_text(
        'decks = [["imperial", "highland"]]\nmodes = "high-form"\n'
        f'policies = [["{PROFILE}", "random"]]\ngames = 6\nseed = 4\nchunk_size = 2\n'
    )
    assert main(["study", str(spec), "--out", str(out), "--workers", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kalarite: error: the profile of 'quick'")
    assert read_manifest(out)["players"][PROFILE] == before
    profiles(points=12.0)  # the same player again: the study resumes and finishes
    summary = run_study(_study(), CONTENT, out, workers=0, progress=False)
    assert summary.games_skipped == 2 and summary.games_played == 4


def test_a_study_started_before_players_were_recorded_is_not_resumed(
    profiles, tmp_path, monkeypatch
):
    out = tmp_path / "s"
    _interrupted(out, monkeypatch)
    m = read_manifest(out)
    for key in ("players", "players_hash", "player_rows"):
        del m[key]
    (out / MANIFEST).write_text(json.dumps(m))
    with pytest.raises(StoreError, match="did not record its players' parameters"):
        run_study(_study(), CONTENT, out, workers=0, progress=False)


def _job(study, rows):
    """The first chunk's job (four games), as the runner builds it from the identity."""
    info = job_info(dataset_info(study, CONTENT))
    return ChunkJob.of(Chunk(0, 0, 0, 4), study.matchups()[0], study, info, rows)


def _games(result):
    """A chunk's games rows, read back from the worker's Parquet bytes."""
    table = pq.read_table(pa.BufferReader(result["files"]["games"]))
    return table.drop_columns(["seat0_policy", "seat1_policy"]).to_pylist()


def test_the_worker_plays_the_rows_it_is_sent_not_its_profile_file(profiles):
    study = _study()
    rows = {s: p.to_json() for s, p in resolve_players(study.matchups()[0].policies).items()}
    job = _job(study, rows)
    first = _games(run_chunk(job, ignore_sigint=False))
    profiles(points=-50.0)  # this "worker's" profile file differs from the driver's
    assert _games(run_chunk(job, ignore_sigint=False)) == first


def test_the_worker_refuses_rows_that_are_not_the_datasets(profiles):
    study = _study()
    rows = {s: p.to_json() for s, p in resolve_players(study.matchups()[0].policies).items()}
    rows[PROFILE] = {**rows[PROFILE], "params": [x + 1 for x in rows[PROFILE]["params"]]}
    with pytest.raises(EngineMismatch, match="player 'quick'"):
        run_chunk(_job(study, rows), ignore_sigint=False)


def test_other_rows_play_other_games(profiles):
    """The check above means something: the profile's weights do change the games."""
    mu = _study().matchups()[0]
    a = resolve_players(mu.policies)
    profiles(points=-50.0)
    b = resolve_players(mu.policies)
    assert a[PROFILE].digest != b[PROFILE].digest
    games = [
        play(batch(CONTENT, mu.mode, mu.decks, mu.policies, mu.seed, p), 0, 6).rows for p in (a, b)
    ]
    assert not np.array_equal(*games)


def test_changed_parts_name_what_changed():
    a = resolve_players(["planner", "greedy", "mc:playouts=9"])
    b = resolve_players(["planner:width=3:points=11", "random", "mc:playouts=9:horizon=3"])
    assert changed_parts(a["planner"].to_json(), b["planner:width=3:points=11"].to_json()) == [
        "weights points",
        "width",
    ]
    assert changed_parts(a["greedy"].to_json(), b["random"].to_json()) == [
        "the player (greedy -> random)"
    ]
    assert changed_parts(a["mc:playouts=9"].to_json(), b["mc:playouts=9:horizon=3"].to_json()) == [
        "horizon"
    ]
    with pytest.raises(ValueError, match="parameter row of 3 values"):
        Player.from_json("x", {"code": 1, "params": [1, 2, 3]})


def test_compare_calls_a_retuned_profile_a_change_of_players(profiles, tmp_path):
    from results.compare import compare, format_text

    a, b = tmp_path / "a", tmp_path / "b"
    run_study(_study(games=8), CONTENT, a, workers=0, progress=False)
    profiles(points=30.0, material=2.0)
    run_study(_study(games=8), CONTENT, b, workers=0, progress=False)
    res = compare(a, b)
    assert res["differs_in"] == ["policies"] and res["changed_players"] == [PROFILE]
    text = format_text(res)
    assert "differs in: players;" in text
    detail = "the same names, other parameters: quick; players hash"
    assert f"the change compared: policies ({detail}" in text
    assert "differ in no setting" not in text
    # the same player on both sides: nothing changed, as before
    c = tmp_path / "c"
    run_study(_study(games=8, seed=5), CONTENT, c, workers=0, progress=False)
    assert compare(b, c)["differs_in"] == []
