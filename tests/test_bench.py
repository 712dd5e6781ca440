"""The side-by-side benchmark machinery (speeds themselves are never asserted)."""

import pathlib

from sim.app.bench import side_by_side as sbs
from sim.app.cli import main

ROOT = str(pathlib.Path(__file__).resolve().parents[1])


def test_two_workers_on_one_checkout_play_identical_games():
    """Both sides of a comparison hash their result rows: a checkout against itself must
    report identical games, and every workload gets a ratio."""
    saved = sbs.WORKLOADS
    sbs.WORKLOADS = [
        ("random_high_form", "high-form", "random", ("imperial", "highland"), 40),
        ("greedy_deathmatch", "deathmatch", "greedy", ("sylvan", "imperial"), 40),
    ]
    try:
        res = sbs.compare(ROOT, ROOT, rounds=2, quick=True, compile_rounds=0)
    finally:
        sbs.WORKLOADS = saved
    assert res["same_games"] is True
    for name in ("random_high_form", "greedy_deathmatch"):
        r = res[name]
        assert r["rounds"] == 2 and r["min"] <= r["ratio"] <= r["max"]
        assert r["actions_per_cpu_s"] > 0 and r["baseline_actions_per_cpu_s"] > 0
    table = sbs.ratio_table(res)
    assert "random high form: actions per CPU-second" in table
    assert "identical games: True" in table


def test_bench_baseline_must_be_a_checkout(tmp_path, capsys):
    assert main(["bench", "--baseline", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kalarite: error: --baseline")
    assert main(["bench", "--baseline", ROOT, "--rounds", "0"]) == 2
    assert main(["bench", "--baseline", ROOT, "--compile-rounds", "0"]) == 2
    capsys.readouterr()
    assert main(["bench", "--quick", "--compile-rounds", "2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["kalarite: error: --compile-rounds needs --baseline"]


def test_quick_bench_reports_every_top_level_key(monkeypatch):
    """`kalarite bench --quick --json` assembles the figures the README and issue 12 name
    at the top level (the measurements themselves are stubbed: timings are never tested)."""
    from sim.app.bench import suite as bench

    def throughput(mode, policy, games, seed=11, decks=("imperial", "highland")):
        return {
            "mode": mode,
            "policy": policy,
            "decks": "-vs-".join(decks),
            "games": games,
            "games_per_s_per_core": 10.0,
            "actions_per_s_per_core": 1000,
            "decisions_per_s_per_core": 2000,
        }

    start = {
        "cold_compile_s": 60.0,
        "cold_compile_cpu_s": 55.0,
        "warm_start_s": 1.2,
        "warm_start_cpu_s": 1.1,
    }
    monkeypatch.setattr(bench, "start_times", lambda: start)
    monkeypatch.setattr(bench, "throughput", throughput)
    monkeypatch.setattr(bench, "jit_speedup", lambda games: {"jit_speedup": 150.0})
    monkeypatch.setattr(bench, "ray_scaling", lambda games, chunk: {"ray_2_vs_1": 1.8})
    res = bench.run(quick=True)
    for key in (
        "actions_per_s_per_core",
        "games_per_s_per_core",
        "cold_compile_s",
        "warm_start_s",
        "ray_2_vs_1",
        "jit_speedup",
        "commit",
    ):
        assert key in res, key
    assert res["cold_compile_s"] == 60.0 and res["warm_start_s"] == 1.2
    assert res["actions_per_s_per_core"] == 1000 and res["jit_speedup"] == 150.0
    table = bench.markdown_table(res)
    cold = "cold compile: first `kalarite play`, empty cache (wall / CPU) | 60.0 s / 55.0 s"
    assert cold in table
    assert "warm start: `kalarite play` (wall / CPU) | 1.2 s / 1.1 s" in table


def test_player_speed_on_one_checkout_plays_identical_games(monkeypatch):
    """The lookahead players' side by side: a checkout against itself, same games, a ratio
    per workload and a table row."""
    from benchmarks import player_speed as ps

    monkeypatch.setattr(ps, "WORKLOADS", [("hf", "high-form", ("imperial", "highland"), 2)])
    res = ps.compare(ROOT, ROOT, "planner", "planner", rounds=2, cache="existing")
    assert res["same_games"] is True
    w = res["workloads"]["hf"]
    assert w["rounds"] == 2 and w["min"] <= w["ratio"] <= w["max"] and w["same_games"]
    assert w["games_per_cpu_s"] > 0 and len(w["ratios"]) == 2
    assert "| hf (imperial vs highland) |" in ps.table(res)


def test_player_speed_compiles_each_side_cold_by_default(monkeypatch):
    """By default each side gets its own empty kernel cache and one untimed game per workload
    before the timed rounds (the compile is not timed); the folders are removed after."""
    import os

    from benchmarks import player_speed as ps

    made, runs = [], []

    class FakeWorker:
        def __init__(self, root, cache=None):
            made.append(cache)

        def run(self, mode, policy, decks, games, seed=11):
            runs.append((games, seed))
            return {"digest": "d", "cpu_s": 1.0}

        def close(self):
            pass

    monkeypatch.setattr(ps, "Worker", FakeWorker)
    monkeypatch.setattr(ps, "WORKLOADS", [("hf", "high-form", ("imperial", "highland"), 4)])
    res = ps.compare(ROOT, ROOT, "planner", "planner", rounds=2)
    assert res["cache"] == "fresh" and len(made) == 2 and made[0] != made[1] and all(made)
    assert runs[:2] == [(1, 99), (1, 99)] and len(runs) == 2 + 2 * 2
    assert not any(os.path.exists(c) for c in made)
    made.clear()
    ps.compare(ROOT, ROOT, "planner", "planner", rounds=1, cache="existing")
    assert made == [None, None]


def test_same_games_spec_names_the_players_it_checks():
    """`same_games --players` puts each named player in self-play on the same decks and
    modes; without it the study keeps its random and greedy players."""
    import tomllib

    from benchmarks.same_games import spec_text

    plain = tomllib.loads(spec_text())
    strong = tomllib.loads(spec_text(["seer", "sage"], games=3))
    assert plain["policies"] == [["random"], ["greedy", "random"]] and plain["games"] == 5
    assert strong["policies"] == [["seer"], ["sage"]] and strong["games"] == 3
    assert strong["decks"] == plain["decks"] and strong["modes"] == "all"
