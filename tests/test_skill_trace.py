"""The skill trace (results/analysis/skill_trace.py, ``kalarite trace``): each deck's slope
per doubling recovered with its interval's coverage on simulated traces with a planted
slope, the joint test's false-positive rate on traces whose levels are the same player
(A/A) and its power (benchmarks/trace_power.py), and a tiny real trace end to end through
the command line and the report."""

import json

import numpy as np
import pytest

from benchmarks import trace_power as tp
from results.analysis.skill_trace import ALPHA, fit_trace
from sim.app.cli import main

STRENGTHS = tp.STRENGTHS["deathmatch"]


def test_a_planted_slope_is_recovered_and_its_intervals_cover():
    """One deck gains 0.3 in log-odds per doubling (about 6 points): its slope is found,
    unbiased, and every deck's 95% interval covers its true slope about 95% of the time."""
    rng = np.random.default_rng(4)
    gam = tp.planted_slopes(6, 0, 0.3)
    truth = tp.true_slopes(STRENGTHS, gam, 67)
    assert truth[0] == pytest.approx(6.2, abs=0.3) and abs(truth.sum()) < 1.0
    slopes, covered = [], []
    for _ in range(250):
        fit = fit_trace(tp.simulate(STRENGTHS, gam, 67, rng), 6, 3.0)
        slopes.append(fit["slope"])
        covered.append((fit["lo"] <= truth) & (truth <= fit["hi"]))
    slopes, covered = np.array(slopes), np.array(covered)
    se = slopes.std(axis=0) / np.sqrt(len(slopes))
    assert np.all(np.abs(slopes.mean(axis=0) - truth) < 4 * se + 0.1)
    # 250 traces: coverage measured to about +-2.8 points (2 SE) per deck
    assert covered.mean() >= 0.95 - 0.015 and covered.mean(axis=0).min() >= 0.95 - 0.035


def test_identical_levels_are_said_to_depend_at_most_alpha_of_the_time():
    """A/A: every level the same player (no slope): the joint test says "balance depends on
    strength" at most alpha of the time (400 traces: within its sampling error)."""
    rng = np.random.default_rng(9)
    gam = tp.planted_slopes(6, None, 0.0)
    said = [fit_trace(tp.simulate(STRENGTHS, gam, 40, rng), 6, 3.0)["depends"] for _ in range(400)]
    rate = np.mean(said)
    assert rate <= ALPHA + 2.33 * np.sqrt(ALPHA * (1 - ALPHA) / 400), rate


def test_power_against_a_planted_slope():
    """The power figure (small): a deck gaining about 6 points per doubling at 1,005 games
    a level is found by the joint test most of the time (benchmarks/trace_power.py: the
    full figures)."""
    res = tp.run(60, 67, 0.3, seed=5)
    assert res["fitted"] == 60 and res["rejected"] >= 0.8


def test_a_trace_that_cannot_be_fitted_says_so():
    assert fit_trace(np.zeros((0, 6)), 3, 3.0) is None
    # every game of a pairing won by the same deck: separated, no slope claimed
    cells = [(0, 1, x, f, 5, 0) for x in (0, 1, 2, 3) for f in (1.0, -1.0)]
    cells += [(0, 2, x, f, 2, 3) for x in (0, 1, 2, 3) for f in (1.0, -1.0)]
    cells += [(1, 2, x, f, 3, 2) for x in (0, 1, 2, 3) for f in (1.0, -1.0)]
    assert fit_trace(cells, 3, 3.0) is None


def test_a_tiny_trace_end_to_end(tmp_path, capsys):
    """kalarite trace plays the planner at widths 1, 2, 4, 8 (self-play on every pairing of
    three decks, adjacent widths against each other with each deck against itself in both
    seats) into a dataset kalarite report reads: the skill trace in summary.json, its
    section, and the deck trace on the first screen beside the three-way label."""
    out = tmp_path / "trace"
    args = ["trace", "--player", "planner", "--base", "1", "--decks", "imperial,highland,sylvan"]
    assert main([*args, "--games", "4", "--out", str(out), "--workers", "0", "--seed", "3"]) == 0
    assert f"kalarite report {out}" in capsys.readouterr().out
    m = json.loads((out / "study.json").read_text())
    assert m["study"]["trace"] == {"player": "planner", "levels": [1, 2, 4, 8]}
    assert m["study"]["mirrors"] is False and m["deals"] == "shared"
    # self-play: 3 pairings x 4 levels; head-to-head: 3 decks x 2 seatings x 3 adjacent pairs
    assert len(m["matchups"]) == 12 + 18 and m["games"] == 4 * 30
    assert main(["report", str(out)]) == 0
    s = json.loads((out / "report" / "summary.json").read_text())
    t = s["skill_trace"]
    assert t["levels"] == [1, 2, 4, 8] and t["setting"] == "width"
    hf = t["modes"]["high-form"]
    assert set(hf["decks"]) == {"imperial", "highland", "sylvan"}
    for d in hf["decks"].values():
        assert {"slope", "slope_lo", "slope_hi"} <= set(d) and len(d["rates"]) == 4
        assert sum(r["decisive"] for r in d["rates"]) <= 4 * 2 * 4
    assert [(x["from"], x["to"]) for x in hf["strength"]] == [(1, 2), (2, 4), (4, 8)]
    assert all(x["decisive"] + x["draws"] == 3 * 2 * 4 for x in hf["strength"])
    # the three-way label compares the two top levels; the trace line beside it
    (glance,) = s["at_a_glance"]["modes"]
    assert glance["trace"].startswith("deck trace")
    comp = s["stability"]["modes"]["high-form"]["comparisons"][0]
    assert comp["from_to"] == ["planner:width=4", "planner:width=8"]
    page = (out / "report" / "index.html").read_text()
    assert 'id="skill-trace"' in page and "Strength trace" in page
    assert 'alt="high-form: each deck&#x27;s win rate against the field at each budget"' in page


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--player", "greedy"], "has no search budget"),
        (["--player", "planner", "--levels", "3"], "--levels must be 4 to 12 budgets"),
        (["--player", "planner", "--levels", "10" * 10], "--levels must be 4 to 12 budgets"),
        (["--player", "planner", "--base", "5"], "outside planner's range 1 to 32"),
        (["--player", "planner", "--modes", "melee"], "duel modes"),
    ],
)
def test_bad_trace_flags_are_one_line(tmp_path, capsys, argv, needle):
    out = tmp_path / "t"
    rc = main(["trace", *argv, "--games", "2", "--out", str(out), "--workers", "0"])
    err = capsys.readouterr().err
    assert rc == 2 and len(err.strip().splitlines()) == 1 and needle in err, err
    assert not out.exists()
