"""`kalarite players`, `kalarite ladder` and `kalarite tune` on small runs, and their errors."""

import json
import math

import pytest

from results.ratings import bradley_terry
from sim.app.ladder import all_decks, ladder_decks
from sim.content import BASE_DECKS, load_content
from sim.players import load_profiles, parse_policy
from sim.strength import LADDER_FILES, load_ladder
from tests.support.cli import assert_one_line_error, run

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
    # the strongest first: rated players by their base-deck rating, the unrated after them
    ratings = [r["rating"] for r in rows]
    first_unrated = ratings.index(None) if None in ratings else len(ratings)
    assert all(x is None for x in ratings[first_unrated:])
    assert ratings[:first_unrated] == sorted(ratings[:first_unrated], reverse=True)


def test_players_text_names_the_ladder_command(capsys):
    rc, out, err = run(capsys, "players")
    assert rc == 0, err
    assert "planner" in out and "kalarite ladder" in out


def test_players_shows_both_ladders(capsys):
    """The base-deck and the all-deck ladders are both checked in; each has its column and
    its line naming the decks, games, date and command."""
    base, every = load_ladder(), load_ladder(deck_set="all")
    assert every is not None, f"{LADDER_FILES['all']} is checked in"
    assert every["deck_set"] == "all" and every["decks"] == all_decks(load_content())
    assert len(every["decks"]) == 6 and every["command"].endswith("--decks all")
    rc, out, err = run(capsys, "players")
    assert rc == 0, err
    head = out.splitlines()[0]
    assert "rating, base decks [95%]" in head and "rating, all decks [95%]" in head
    (line_base,) = [x for x in out.splitlines() if x.startswith("Ratings, base decks")]
    (line_all,) = [x for x in out.splitlines() if x.startswith("Ratings, all decks")]
    assert (
        base["command"] in line_base
        and f"{sum(h['games'] for h in base['head_to_head']):,}" in line_base
    )
    assert every["command"] in line_all and f"{every['games']:,} ladder games" in line_all
    assert every["date"] in line_all and ", ".join(every["decks"]) in line_all
    planner = next(x for x in out.splitlines() if x.startswith("planner "))
    want = next(p for p in every["players"] if p["name"] == "planner")
    assert f"{want['rating']:+.0f} [{want['rating_lo']:+.0f}, {want['rating_hi']:+.0f}]" in planner
    rc, out, err = run(capsys, "players", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert rows["planner"]["rating_all_decks"] == want["rating"]
    assert rows["planner"]["rating_all_decks_interval"] == [want["rating_lo"], want["rating_hi"]]


def test_players_without_the_all_deck_ladder_says_how_to_make_it(capsys, tmp_path):
    rc, out, err = run(capsys, "players", "--ladder-all", tmp_path / "none.json")
    assert rc == 0, err
    assert "Ratings, all decks: no ladder yet (run `kalarite ladder --decks all" in out
    rc, out, err = run(capsys, "players", "--ladder-all", tmp_path / "none.json", "--json")
    assert all(r["rating_all_decks"] is None for r in json.loads(out))


def test_ladder_deck_option():
    content = load_content()
    assert ladder_decks(content, None) == ("base", list(BASE_DECKS))
    assert ladder_decks(content, "base") == ("base", list(BASE_DECKS))
    deck_set, decks = ladder_decks(content, "all")
    assert deck_set == "all" and decks == all_decks(content)
    assert set(decks) == set(content.decks) and set(BASE_DECKS) < set(decks)
    assert ladder_decks(content, "everfrost, imperial,everfrost") == (
        "custom",
        ["everfrost", "imperial"],
    )
    assert ladder_decks(content, "sylvan,highland,imperial") == ("base", list(BASE_DECKS))
    assert ladder_decks(content, ",".join(reversed(decks))) == ("all", decks)
    for bad in ("imperial,atlantis", "", " , "):
        with pytest.raises(ValueError, match="--decks"):
            ladder_decks(content, bad)


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


def test_a_tiny_six_deck_ladder_runs_and_rates(capsys, tmp_path):
    result = tmp_path / "ladder_all.json"
    rc, out, err = run(
        capsys, "ladder", "--out", tmp_path / "run", "--players", "random,greedy",
        "--decks", "all", "--games", 1, "--workers", 1, "--result", result,
        "--speed-seconds", 0.1,
    )  # fmt: skip
    assert rc == 0, err
    lad = json.loads(result.read_text())
    decks = all_decks(load_content())
    assert lad["deck_set"] == "all" and lad["decks"] == decks and len(decks) == 6
    assert lad["command"].endswith("--decks all")
    assert lad["games"] == 2 * 36  # both duel modes x 36 ordered deck pairings x 1 game
    assert {d for pair in lad["study"]["decks"] for d in pair} == set(decks)
    assert all(h["games"] == 36 for h in lad["head_to_head"])
    ends = lad["end_reasons"]["all_games"]
    assert sum(n for by in ends.values() for n in by.values()) == 72
    assert lad["end_reasons"]["without_random"] == {}  # every game had random in it
    rc, out, err = run(capsys, "players", "--ladder-all", result)
    assert rc == 0, err
    assert "Ratings, all decks (" + ", ".join(decks) + ")" in out and "72 ladder games" in out


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["ladder", "--out", "x", "--decks", "imperial,atlantis"], "unknown deck 'atlantis'"),
        (["ladder", "--out", "x", "--decks", ","], "--decks needs"),
        (["ladder", "--out", "x", "--decks", "imperial,sylvan"], "needs --result"),
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
