"""The decision rules of `kalarite suggest` (results/suggest/decision.py): each has an A/A test
(identical edits, or edits that change nothing on average, are not called different more
often than the rule's error rate) and a power figure, on the calibrated simulation of
benchmarks/suggest_sim.py (fewer runs than the benchmark: the figures are in its output)."""

import math

import numpy as np
import pytest

from benchmarks import suggest_sim as sim
from results.suggest.decision import (
    DROP_CUT,
    DROP_SMALL,
    DROP_WORSE,
    Arm,
    bounds,
    confirm,
    decide_round,
    levels,
    one_sided_p,
    ranked,
)


def _slack(p, n):
    """How far an observed share may exceed its bound ``p`` by chance over ``n`` runs."""
    return p + 3 * math.sqrt(p * (1 - p) / n)


def test_bounds_have_a_floor_for_edits_that_flipped_nothing():
    m, lo, hi = bounds(np.zeros((1, 100)), 0.001)
    assert m[0] == 0 and hi[0] == pytest.approx(math.log(1000) / 100)
    u = np.r_[np.ones(60), np.zeros(40)][None]
    m, lo, hi = bounds(u, 0.01)
    assert lo[0] < 0.6 < hi[0]


def test_levels_split_the_error_over_rounds_candidates_and_rules():
    pair, one = levels(0.05, 10, 4)
    assert pair == pytest.approx(0.05 / (2 * 4 * 10 * 9))
    assert one == pytest.approx(0.05 / (2 * 4 * 10))


def test_a_clearly_worse_and_a_null_edit_are_dropped():
    rng = np.random.default_rng(0)
    arms = [Arm("good", 0), Arm("bad", 1), Arm("null", 2), Arm("good2", 3)]
    u = np.array([
        np.where(rng.uniform(size=4000) < 0.3, 1.0, 0.0),
        np.where(rng.uniform(size=4000) < 0.3, -1.0, 0.0),
        np.zeros(4000),
        np.where(rng.uniform(size=4000) < 0.28, 1.0, 0.0),
    ])  # fmt: skip
    d = decide_round(u, arms, 0, k0=4, rounds=1, alpha=0.05, min_effect=0.01, keep=1,
                     halving=False)  # fmt: skip
    why = dict(d["dropped"])
    assert d["leader"] == "good" and why["bad"].startswith(DROP_WORSE)
    assert why["null"] in (DROP_SMALL,) or why["null"].startswith(DROP_WORSE)
    assert "good2" not in why  # not surely worse than the leader
    assert [a.cid for a in ranked(arms)][:2] == ["good", "good2"]


def test_halving_keeps_the_best_half_and_says_so():
    arms = [Arm(f"c{i}", i) for i in range(8)]
    u = np.array([np.full(10, i / 100) + np.r_[0.01, -0.01].repeat(5) for i in range(8)])
    decide_round(u, arms, 0, k0=8, rounds=3, alpha=0.05, min_effect=0.0, keep=3)
    alive = [a.cid for a in arms if a.alive]
    assert alive == ["c4", "c5", "c6", "c7"]
    assert all(a.reason.startswith(DROP_CUT) for a in arms if not a.alive)


def test_drop_rules_aa():
    """A/A of the two decisions: races of 8 identical edits, each at exactly the smallest
    effect, the budget cut off: no edit may be dropped, at most alpha of the races drop
    one."""
    rng = np.random.default_rng(11)
    runs, bad = 150, 0
    for _ in range(runs):
        eff, q = np.full(8, 0.02), np.full(8, 0.1)
        arms, _, _ = sim.race(rng, eff, q, first=100, rounds=4, halving=False, min_effect=0.02)
        bad += any(a.reason and not a.reason.startswith(DROP_CUT) for a in arms)
    assert bad / runs <= _slack(0.05, runs)


def test_confirmation_aa_and_power():
    """A/A: null steps, decided whole (no edit does anything; a third of them edit a card the
    deck never draws) confirm a false suggestion in at most alpha of the steps. Power: a finalist 3
    points better is confirmed in most replays at the default size."""
    res = sim.whole_null_figure(60, seed=5)
    assert res["steps_confirming_a_false_suggestion"] <= _slack(0.05, 60)
    assert res["steps_accepting_a_false_suggestion"] <= res["steps_confirming_a_false_suggestion"]
    pw = sim.power_figure(40, seed=6)["confirmed"]
    assert pw["+3 points"] >= 0.8 and pw["+1 points"] <= pw["+2 points"] <= pw["+3 points"]


def test_confirm_rule():
    d = {
        "p": {"a": np.r_[np.ones(30), np.zeros(70)], "b": np.zeros(100)},
        "q": {"a": np.r_[np.ones(30), np.zeros(70)], "b": np.r_[np.ones(20), np.zeros(80)]},
    }
    res = confirm({"P": {k: v["a"] for k, v in d.items()}, "Q": {k: v["b"] for k, v in d.items()}},
                  0.05)  # fmt: skip
    assert not res["p"]["confirmed"] and res["q"]["confirmed"]
    assert res["q"]["level"] == 0.025
    assert one_sided_p(np.zeros(5)) == 1.0 and one_sided_p(np.ones(5)) == 0.0


def test_screening_picks_near_the_best_with_few_games():
    """The calibrated race (smaller than the benchmark): a pick within half a point of the
    best in most runs, with about a quarter of the games of 4,000 fixed games each."""
    res = sim.screen_figure(30, seed=7)
    assert res["pick_within_half_point"] >= 0.8
    assert res["games_share_of_fixed_4000"] <= 0.25


def test_drop_rules_power():
    """The decisions drop most null or worse edits once the games add up (a race with one
    edit 3 points better; the figure by round is in the benchmark's output)."""
    res = sim.drop_power_figure(12, seed=8)
    by_round = res["weak_edits_dropped_by_round"]
    assert by_round == sorted(by_round) and by_round[-1] >= 0.6
