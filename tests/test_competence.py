"""`kalarite competence`: a small run end to end (greedy, a few games), the JSON it prints,
that the full player and its twin played the same deals, the paired gap's arithmetic, and
one `kalarite: error:` line for a bad argument."""

import json

import numpy as np
import pytest
from scipy import stats as sps

from results.competence import paired_gap
from results.store import read_table
from sim.app.cli import main
from sim.app.competence import competence_text


def _run(tmp_path, capsys, *extra):
    argv = ["competence", "--player", "greedy", "--games", "2", "--decks", "everfrost"]
    argv += ["--modes", "deathmatch", "--workers", "0", "--out", str(tmp_path / "c"), "--json"]
    rc = main(argv + list(extra))
    cap = capsys.readouterr()
    assert rc == 0, cap.err
    return json.loads(cap.out)


def test_a_small_run_end_to_end(tmp_path, capsys):
    res = _run(tmp_path, capsys)
    assert {"command", "player", "games", "seed", "decks", "modes", "datasets", "method"} <= set(
        res
    )
    assert res["player"] == "greedy" and res["decks"] == ["everfrost"]
    assert sorted(res["datasets"]) == ["everfrost-seat0", "everfrost-seat1"]
    (row,) = res["results"]
    assert row["deck"] == "everfrost" and row["mechanic"] == "frozen"
    assert row["twin"] == "greedy:restrict=frozen" and row["mode"] == "deathmatch"
    assert row["pairs"] == 5 * 2 * 2 and row["unpaired"] == 0  # 5 opponents, 2 seats, 2 games
    assert row["lo"] <= row["gap"] <= row["hi"]
    assert row["gap"] == pytest.approx(row["full_rate"] - row["twin_rate"])
    assert row["use"]["twin"]["thaws"] == 0 and row["use"]["full"]["games"] == 20
    assert (row["finding"] is not None) == row["flagged"]
    if row["flagged"]:
        assert "greedy extracts no measurable value from thawing frozen effects" in row["finding"]
    text = competence_text(res)
    assert "everfrost" in text and "reproduce: kalarite competence" in text
    # the same command again resumes: nothing is played twice, the figures are the same
    again = _run(tmp_path, capsys)
    assert again["results"] == res["results"]


def test_the_twin_played_the_full_players_deals(tmp_path, capsys):
    res = _run(tmp_path, capsys)
    for name in res["datasets"].values():
        g = read_table(name, "games").to_pylist()
        by_key = {}
        for r in g:
            key = (r["mode"], r["seat0_deck"], r["seat1_deck"], r["game_index"])
            by_key.setdefault(key, []).append(r)
        assert len(by_key) == 5 * 2
        for rows in by_key.values():
            assert len(rows) == 2  # the full player's game and the twin's
            assert rows[0]["seed"] == rows[1]["seed"]
            assert {r["seat0_policy"] for r in rows} | {r["seat1_policy"] for r in rows} == {
                "greedy",
                "greedy:restrict=frozen",
            }
        assert len({rows[0]["seed"] for rows in by_key.values()}) == 5  # a seed per matchup


def test_a_twin_plays_its_full_players_seeds():
    from sim.content import load_content
    from sim.study import seed_policy, study_from_dict

    assert seed_policy("planner:restrict=frozen:width=4") == "planner:width=4"
    assert seed_policy("mc:playouts=3") == "mc:playouts=3"
    spec = {"decks": [["everfrost", "imperial"]], "games": 3, "seed": 4,
            "policies": [["planner"], ["planner:restrict=frozen", "planner"],
                         ["greedy:restrict=frozen", "planner"]]}  # fmt: skip
    old = study_from_dict({**spec, "deals": "per-player"}, load_content())
    seeds = [m.seed for m in old.matchups()]
    assert seeds[0] == seeds[1] != seeds[2]  # per player: another full player, other deals
    new = study_from_dict(spec, load_content())  # shared deals (the default): every player
    assert len({m.seed for m in new.matchups()}) == 1


def test_paired_gap_is_the_mean_difference_with_its_t_interval():
    full = {(i,): {"seed": i, "share": s} for i, s in enumerate([1, 1, 1, 0, 0.5, 1])}
    twin = {(i,): {"seed": i, "share": s} for i, s in enumerate([0, 0, 1, 0, 0.5, 0])}
    twin[(9,)] = {"seed": 9, "share": 1.0}  # not in full: left out
    g = paired_gap(full, twin)
    d = np.array([1, 1, 0, 0, 0, 1.0])
    lo, hi = sps.t.interval(0.95, 5, loc=d.mean(), scale=d.std(ddof=1) / np.sqrt(6))
    assert g["pairs"] == 6 and g["unpaired"] == 1
    assert g["gap"] == pytest.approx(0.5) and g["lo"] == pytest.approx(lo)
    # a gap of two win shares lies in [-1, 1]: the t bound beyond it is clipped there
    assert hi > 1 and g["hi"] == 1.0 and g["flagged"] == (lo <= 0)
    assert not g["identical"] and paired_gap(full, dict(full))["identical"]
    assert g["full_rate"] == pytest.approx(4.5 / 6) and g["twin_rate"] == pytest.approx(1.5 / 6)
    # a seed that differs is not a pair (another deal)
    twin[(0,)] = {"seed": 77, "share": 0.0}
    assert paired_gap(full, twin)["pairs"] == 5
    # a sure, large gap is not flagged; a small one is
    big = {(i,): {"seed": i, "share": 1.0 if i % 10 else 0.0} for i in range(50)}
    none = {(i,): {"seed": i, "share": 0.0} for i in range(50)}
    assert not paired_gap(big, none)["flagged"]
    small = {(i,): {"seed": i, "share": 1.0 if i == 0 else 0.0} for i in range(50)}
    assert paired_gap(small, none)["flagged"]


@pytest.mark.parametrize(
    "args,message",
    [
        (["--decks", "imperial"], "'imperial' is not an expansion deck"),
        (["--modes", "melee"], "'melee' is not a duel mode"),
        (["--player", "random"], "random has no restricted twin"),
        (["--player", "planner:restrict=warp"], "give the full player"),
        (["--player", "genius"], "unknown policy 'genius'"),
        (["--games", "0"], "--games must be a positive integer"),
        (["--games", "1"], "--games must be at least 2"),
        (["--games", "many"], "invalid int value"),
    ],
)
def test_bad_arguments_give_one_error_line(args, message, capsys, tmp_path):
    rc = main(["competence", "--out", str(tmp_path / "x"), *args])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and err[0].startswith("kalarite: error:")
    assert message in err[0]
    assert not (tmp_path / "x").exists()  # nothing half-written
