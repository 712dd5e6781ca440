"""The learning loop (benchmarks.learning_loop) end to end on a small sample: self-play with
positions, a fit with a hidden layer on every round's positions so far, the new profile
against the last round's player, the curve written round by round, and a run again resumes
(nothing is played or fitted twice)."""

import json
import shutil

import sim.players
from benchmarks.learning_loop import main
from sim.players import load_profiles


def test_the_learning_loop_runs_round_after_round(tmp_path, monkeypatch):
    profiles = tmp_path / "players.toml"
    shutil.copy(sim.players.PROFILES_PATH, profiles)
    monkeypatch.setattr(sim.players, "PROFILES_PATH", profiles)
    curve = tmp_path / "curve.json"
    argv = [
        "--rounds", "2", "--out", str(tmp_path / "loop"), "--curve", str(curve),
        "--start", "planner:width=2", "--base", "planner:width=2", "--games", "5",
        "--match-games", "1", "--hidden", "3", "--decks", "imperial,etherweave", "--name", "t",
    ]  # fmt: skip
    main(argv)
    c = json.loads(curve.read_text())
    assert c["start"] == "planner:width=2" and c["command"].startswith("python -m benchmarks")
    assert [r["round"] for r in c["rounds"]] == [1, 2]
    first, second = c["rounds"]
    assert (first["player"], first["against"]) == ("t-r1", "planner:width=2")
    assert (second["player"], second["against"], second["data_player"]) == ("t-r2", "t-r1", "t-r1")
    assert len(first["positions_studies"]) == 1 and len(second["positions_studies"]) == 2
    assert second["self_play"] == {"name": "positions-r2", "games": 5, "seed": 32, "positions": 2}
    for r in c["rounds"]:
        for mode in ("high-form", "deathmatch"):
            d = r["duel"][mode]
            lo, hi = d["score_interval"]
            assert d["games"] == 8 and lo <= d["score"] <= hi  # 4 ordered pairings x 2 seats
            fit = r["fit"][mode]
            assert fit["train_positions"] > 100 and fit["test_log_loss"] > 0
    made = load_profiles(profiles)
    assert len(made["t-r2"].models["deathmatch"]["hidden"]["bias"]) == 3
    assert made["t-r2"].provenance["hidden"] == 3
    # again: every step is found done, nothing changes
    text = curve.read_text()
    main(argv)
    assert curve.read_text() == text
