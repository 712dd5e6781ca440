"""The side-by-side benchmark machinery (speeds themselves are never asserted)."""

import pathlib

from benchmarks import side_by_side as sbs
from sim.cli import main

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
