"""`kalarite players`, `kalarite ladder` and `kalarite tune` on small runs, and their errors."""

import json
import math

import pytest

from results.ratings import bradley_terry
from sim.app.players_view import load_ladder
from sim.players import load_profiles, parse_policy
from tests.test_cli import assert_one_line_error, run

PLAYER_NAMES = {"random", "greedy", "mc", "planner"}


def test_players_json_lists_every_player_with_speed_and_rating(capsys):
    rc, out, err = run(capsys, "players", "--json")
    assert rc == 0, err
    rows = json.loads(out)
    names = {r["name"] for r in rows}
    assert PLAYER_NAMES | set(load_profiles()) == names
    for r in rows:
        assert {"name", "games_per_s_per_core", "rating", "parameters"} <= set(r)
    ladder = load_ladder()
    assert ladder is not None, "benchmarks/results/ladder.json is checked in"
    rated = {r["name"]: r for r in rows if r["rating"] is not None}
    assert PLAYER_NAMES <= set(rated)
    for r in rated.values():
        lo, hi = r["rating_interval"]
        assert lo <= r["rating"] <= hi and r["games_per_s_per_core"] > 0


def test_players_text_names_the_ladder_command(capsys):
    rc, out, err = run(capsys, "players")
    assert rc == 0, err
    assert "planner" in out and "kalarite ladder" in out


def test_bradley_terry_recovers_known_strengths():
    """Simulated games between three players of Elo 0, 200 and 400."""
    import numpy as np

    rng = np.random.default_rng(1)
    true = [0.0, 200.0, 400.0]
    games = []
    for i in range(3):
        for j in range(i + 1, 3):
            p = 1 / (1 + 10 ** ((true[j] - true[i]) / 400))
            games += [(i, j, float(rng.random() < p)) for _ in range(3000)]
    fit = bradley_terry(["a", "b", "c"], games)
    r = fit["ratings"]
    assert r["a"]["rating"] == 0.0
    for name, want in zip("bc", true[1:], strict=True):
        assert r[name]["rating_lo"] < want < r[name]["rating_hi"]
        assert r[name]["rating_hi"] - r[name]["rating_lo"] < 80
    step = fit["steps"][1]  # c over b: 200 Elo
    assert step["player"] == "c" and step["difference_lo"] < 200 < step["difference_hi"]


def test_a_small_ladder_runs_and_rates(capsys, tmp_path):
    result = tmp_path / "ladder.json"
    rc, out, err = run(
        capsys, "ladder", "--out", tmp_path / "run", "--players", "random,greedy",
        "--games", 2, "--workers", 1, "--result", result, "--speed-seconds", 0.2,
    )  # fmt: skip
    assert rc == 0, err
    lad = json.loads(result.read_text())
    assert lad["command"].startswith("kalarite ladder --out ")
    assert [p["name"] for p in lad["players"]] == ["random", "greedy"]
    assert lad["rating_anchor"] == "greedy" and lad["players"][1]["rating"] == 0.0
    assert math.isfinite(lad["players"][0]["rating"]) and len(lad["steps"]) == 1
    h2h = lad["head_to_head"]
    assert {(h["player"], h["opponent"], h["mode"]) for h in h2h} == {
        ("greedy", "random", "high-form"),
        ("greedy", "random", "deathmatch"),
    }
    assert all(h["games"] == 18 for h in h2h)  # 9 ordered deck pairings x 2 games


def test_tune_writes_a_profile_that_round_trips(capsys, tmp_path):
    path = tmp_path / "players.toml"
    rc, out, err = run(
        capsys, "tune", "--player", "greedy", "--opponent", "random", "--name", "quick",
        "--iterations", 1, "--population", 2, "--games", 4, "--validation", 4,
        "--workers", 1, "--profiles", path,
    )  # fmt: skip
    assert rc == 0, err
    prof = load_profiles(path)["quick"]
    assert prof.player == "greedy" and prof.provenance["opponent"] == "random"
    assert prof.provenance["validation_games"] == 4
    code, row = parse_policy("quick", load_profiles(path))
    assert row[0] == prof.weights["points"]


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["ladder", "--out", "x", "--players", "random"], "two or more"),
        (["ladder", "--out", "x", "--players", "random,genius"], "unknown policy 'genius'"),
        (["tune", "--name", "bad name"], "--name"),
        (["tune", "--name", "t", "--population", "1"], "--population"),
        (["players", "--ladder", "/nonexistent/dir/ladder.json", "--json"], None),
    ],
)
def test_bad_player_commands_fail_in_one_line(capsys, argv, needle):
    rc, out, err = run(capsys, *argv)
    if needle is None:  # a missing ladder file is not an error: no ratings
        assert rc == 0 and all(r["rating"] is None for r in json.loads(out))
        return
    assert_one_line_error(rc, out, err, needle)
