"""Every interval the report, compare, suggest and the service print stays where its quantity
can be: a share's in [0, 1], a difference of shares' in [-1, 1] (+-100 points), at every
count, the degenerate ones included (0 games, 1 game, every game alike, tiny samples).

Seeded random sweeps over many counts (hypothesis is not a dependency): each function is fed
the small and extreme samples where normal and t intervals leave the range.
"""

import numpy as np
import pytest

from results import stats
from results.analysis.card_contrast import contrasts
from results.analysis.stability import compare_tables
from results.compare.paired import paired_row
from results.competence import paired_gap
from results.suggest.decision import effect95, share95
from results.suggest.effects import Pairs, per_cell, per_mode, tie_break_check
from sim.app.suggest.plan import base_rates

COUNTS = [0, 1, 2, 3, 4, 5, 7, 10, 20, 50, 200]
SHARES = np.array([0.0, 0.5, 1.0])
EPS = 1e-12


def _inside(lo, hi, low, high, what):
    if lo is None or hi is None or np.isnan(lo) or np.isnan(hi):
        return
    assert low - EPS <= lo <= hi <= high + EPS, f"{what}: [{lo}, {hi}] outside [{low}, {high}]"


def _samples(rng, n):
    """Shares of n games: all losses, all wins, all shared, a single odd game, random."""
    yield np.zeros(n)
    yield np.ones(n)
    yield np.full(n, 0.5)
    if n:
        one = np.zeros(n)
        one[0] = 1.0
        yield one
        yield 1.0 - one
    for _ in range(4):
        yield rng.choice(SHARES, size=n, p=rng.dirichlet(np.ones(3)))


@pytest.mark.parametrize("n", COUNTS)
def test_proportion_and_difference_stay_in_range(n):
    rng = np.random.default_rng(n)
    for k in sorted({0, 1, n // 2, max(n - 1, 0), n}):
        if k > n:
            continue
        p = stats.proportion(k, n)
        _inside(p["lo"], p["hi"], 0, 1, f"proportion({k}, {n})")
        if n:
            assert p["lo"] <= p["rate"] <= p["hi"]
        rec = stats.share_record(k, n - k, 0, 1 / 3)
        _inside(rec["win_rate"]["lo"], rec["win_rate"]["hi"], 0, 1, "share_record")
        for n2 in (0, 1, 3, n, 40):
            for k2 in {0, n2 // 2, n2} if n2 else {0}:
                d = stats.difference(k, n, k2, n2)
                if d is not None:
                    _inside(d["lo"], d["hi"], -1, 1, f"difference({k},{n},{k2},{n2})")
    rec = stats.win_record(*rng.integers(0, n + 1, 3))
    _inside(rec["draw_rate"]["lo"], rec["draw_rate"]["hi"], 0, 1, "draw rate")


@pytest.mark.parametrize("n", COUNTS)
def test_share_and_paired_difference_stay_in_range(n):
    rng = np.random.default_rng(100 + n)
    for y in _samples(rng, n):
        s = stats.share_interval(y)
        _inside(s["lo"], s["hi"], 0, 1, f"share_interval n={n}")
        if n:
            assert s["lo"] <= s["mean"] <= s["hi"]
        assert share95(y)[1] >= 0 or n == 0
        for x in _samples(rng, n):
            d = stats.paired_difference(x - y)
            _inside(d["lo"], d["hi"], -1, 1, f"paired_difference n={n}")
            if d["lo"] is None:  # no interval: it says why, never a zero-width one
                assert d["degenerate"]
            else:
                assert d["lo"] < d["hi"]
            m, lo, hi = effect95(x - y)
            _inside(lo, hi, -1, 1, "effect95")


def test_the_reported_suggest_cases_print_no_share_below_zero():
    # "the base is below the band (18.8% [-2.7%, 40.2%])": 16 games, 3 won
    m, lo, hi = share95(np.array([1.0] * 3 + [0.0] * 13))
    assert m == pytest.approx(3 / 16) and 0 < lo < m < hi < 1
    # "+0.0 [+0.0, +0.0]": no game changed, so no interval at all
    d = stats.paired_difference(np.zeros(12))
    assert d["lo"] is None and d["degenerate"] == "identical in every pair"


@pytest.mark.parametrize("n", [0, 1, 2, 3, 6, 30])
def test_suggest_effects_stay_in_range(n):
    rng = np.random.default_rng(7 + n)
    cells = [("high-form", "imperial"), ("high-form", "sylvan"), ("deathmatch", "imperial")]
    for _ in range(6):
        p = Pairs(cells)
        for c in cells:
            p.base[c] = rng.choice(SHARES, size=n)
            p.cand[c] = np.where(rng.random(n) < 0.3, rng.choice(SHARES, size=n), p.base[c])
            p.tie[c] = rng.random(n) < 0.2
        for row in per_mode(p, ["high-form", "deathmatch"]).values():
            _inside(row["lo"], row["hi"], -1, 1, "per_mode effect")
            _inside(row["base_lo"], row["base_hi"], 0, 1, "per_mode base")
            _inside(row["projected_lo"], row["projected_hi"], 0, 1, "per_mode projected")
        for row in per_cell(p):
            _inside(row["lo"], row["hi"], -1, 1, "per_cell effect")
            _inside(row["projected_lo"], row["projected_hi"], 0, 1, "per_cell projected")
        w = tie_break_check(p, {c: 1 for c in cells})["without_tie_breaks"]
        _inside(w["lo"], w["hi"], -1, 1, "without tie-breaks")
        by_key = {
            ("high-form", "highland", opp): {
                i: {"share": s} for i, s in enumerate(p.base[("high-form", opp)])
            }
            for opp in ("imperial", "sylvan")
        }
        rates = base_rates(by_key, "highland", cells[:2], n)
        for r in [*rates["cells"], *rates["modes"].values(), rates["pooled"]]:
            _inside(r["lo"], r["hi"], 0, 1, "suggest base rate")


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 40])
def test_compare_paired_rows_and_competence_gaps_stay_in_range(n):
    rng = np.random.default_rng(300 + n)
    for ya in _samples(rng, n):
        for yb in _samples(rng, n):
            row = paired_row("x", [], ya, yb, "share")
            d = row["diff"]
            if d:
                _inside(d["lo"], d["hi"], -1, 1, "paired row")
                _inside(d["unpaired_lo"], d["unpaired_hi"], -1, 1, "unpaired row")
                if d["lo"] is not None:
                    assert d["lo"] < d["hi"]
            full = {(i,): {"seed": i, "share": s} for i, s in enumerate(ya)}
            twin = {(i,): {"seed": i, "share": s} for i, s in enumerate(yb)}
            g = paired_gap(full, twin)
            _inside(g["lo"], g["hi"], -1, 1, "competence gap")


@pytest.mark.parametrize("games", [1, 2, 3, 5, 20])
def test_stability_moves_stay_within_100_points(games):
    rng = np.random.default_rng(games)
    names = ["highland", "imperial", "sylvan"]
    for _ in range(30):
        tables = []
        for _side in range(2):
            wins, draws = np.zeros((3, 3)), np.zeros((3, 3))
            for i in range(3):
                for j in range(i + 1, 3):
                    k = rng.integers(0, games + 1)
                    dr = rng.integers(0, games - k + 1)
                    wins[i, j], wins[j, i], draws[i, j] = k, games - k - dr, dr
                    draws[j, i] = dr
            tables.append((wins, draws))
        c = compare_tables(names, *tables)
        for x in c["decks"].values():
            _inside(x["delta_lo"], x["delta_hi"], -100, 100, "stability move 95%")
            _inside(x["within_lo"], x["within_hi"], -100, 100, "stability move 90%")


@pytest.mark.parametrize("rows", [6, 12, 40])
def test_card_contrasts_stay_in_range(rows):
    rng = np.random.default_rng(rows)
    for _ in range(10):
        played = rng.random((rows, 4)) < 0.6
        won = (rng.random(rows) < rng.random()).astype(float)
        for c in contrasts(played, won, np.arange(rows) // 2):
            if c:
                _inside(c["lo"], c["hi"], -1, 1, "card contrast")


@pytest.mark.parametrize("games", [1, 3, 8])
def test_until_look_intervals_stay_within_100_points(games):
    from results.analysis.look_decision import deck_intervals

    rng = np.random.default_rng(games)
    decks = ["highland", "imperial", "sylvan"]
    for _ in range(10):
        cells = []
        for i, x in enumerate(decks):
            for y in decks[i + 1 :]:
                k = int(rng.integers(0, games + 1))
                for deck, opp, w in ((x, y, k), (y, x, games - k)):
                    rec = {"wins": w, "losses": games - w, "draws": 0}
                    cells.append({"deck": deck, "opp_deck": opp, "combined": rec})
        summary = {
            "groups": [{"id": 0, "mode": "high-form", "symmetric": True,
                        "policies": ["random", "random"], "decks": decks}],
            "matchups": [{"group": 0, "cells": cells}],
        }  # fmt: skip
        rows = deck_intervals(summary, 0.05)
        assert rows
        for r in rows:
            _inside(r["lo"], r["hi"], 0, 100, "an --until look's deck interval")
