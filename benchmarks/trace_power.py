"""The skill trace's statistics (results/analysis/skill_trace.py) on simulated traces: the
joint test's false-positive rate when every level is the same player (A/A), its power against
a planted slope, and the coverage of the slopes' 95% intervals.

A simulated trace is one mode of six decks (log-strengths near the planner's Deathmatch
rates: benchmarks/stability_rule.py ``STRENGTHS``) at four budgets, N, 2N, 4N, 8N (0 to 3
doublings), every pairing of two decks playing G games per level, the first mover
alternating (a first-mover edge of 0.1 in log-odds). A planted slope moves one deck's
log-odds against every other deck by ``beta`` per doubling (the others' by a fifth of it
the other way). The cells are fed to the project's own ``fit_trace``, one trace at a time.

    python -m benchmarks.trace_power --reps 2000 --out benchmarks/results/trace_power.json

writes the full figures (a few minutes of one core); tests/test_skill_trace.py runs a small
version.
"""

import argparse
import json
import pathlib
import time

import numpy as np

from benchmarks.stability_rule import STRENGTHS
from results.analysis.skill_trace import field_rates, fit_trace

LEVELS = (0.0, 1.0, 2.0, 3.0)  # doublings: N, 2N, 4N, 8N
FIRST = 0.1  # the first mover's edge in log-odds


def planted_slopes(k: int, deck: int | None, beta: float) -> np.ndarray:
    """Each deck's slope in log-odds per doubling (summing to zero): ``deck`` gains
    ``beta``."""
    g = np.zeros(k)
    if deck is not None:
        g[deck] = beta
    return g - g.mean()


def simulate(strengths, gam, games: int, rng, levels=LEVELS) -> np.ndarray:
    """One trace's cells (``fit_trace`` rows): every pairing i < j, level and first mover,
    ``games`` per pairing and level split between the two first movers."""
    k = len(strengths)
    rows = []
    for i in range(k):
        for j in range(i + 1, k):
            for x in levels:
                for first, n in ((1.0, games - games // 2), (-1.0, games // 2)):
                    eta = strengths[i] - strengths[j] + FIRST * first + (gam[i] - gam[j]) * x
                    w = rng.binomial(n, 1 / (1 + np.exp(-eta)))
                    rows.append((i, j, x, first, w, n - w))
    return np.array(rows, float)


def true_slopes(strengths, gam, games: int, levels=LEVELS) -> np.ndarray:
    """The slopes (points per doubling) the model's definition gives for the true
    parameters: each deck's field rate at the top level minus at the bottom, per doubling."""
    k = len(strengths)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    params = np.array(
        [strengths[i] - strengths[j] for i, j in pairs] + [FIRST, 0.0] + list(gam[:-1])
    )
    cells = simulate(strengths, gam, games, np.random.default_rng(0), levels)
    cells[:, 4] = games / 2  # the design's games (weights), not a draw
    cells[:, 5] = games / 2
    span = levels[-1] - levels[0]
    top = field_rates(params, cells, k, span, pairs)
    bottom = field_rates(params, cells, k, 0.0, pairs)
    return 100 * (top - bottom) / span


def run(reps: int, games: int, beta: float, seed: int, mode: str = "deathmatch") -> dict:
    """Rejections of the joint test and coverage of the slopes over ``reps`` traces."""
    rng = np.random.default_rng(seed)
    s = STRENGTHS[mode]
    gam = planted_slopes(len(s), 0 if beta else None, beta)
    truth = true_slopes(s, gam, games)
    reject, covered, fitted = 0, np.zeros(len(s)), 0
    for _ in range(reps):
        fit = fit_trace(simulate(s, gam, games, rng), len(s), LEVELS[-1])
        if fit is None:
            continue
        fitted += 1
        reject += bool(fit["depends"])
        covered += (fit["lo"] <= truth) & (truth <= fit["hi"])
    return {
        "mode": mode,
        "games_per_pairing_and_level": games,
        "games_per_level": games * len(s) * (len(s) - 1) // 2,
        "planted_logit_per_doubling": beta,
        "planted_points_per_doubling": [round(float(x), 3) for x in truth],
        "reps": reps,
        "fitted": fitted,
        "rejected": reject / max(fitted, 1),
        "coverage": [round(float(c) / max(fitted, 1), 4) for c in covered],
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=500)
    p.add_argument(
        "--games", type=int, default=67, help="games per pairing and level (67: 1,005 a level)"
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=None, help="write the JSON here")
    a = p.parse_args(argv)
    t0 = time.perf_counter()
    res = {
        "aa": run(a.reps, a.games, 0.0, a.seed),
        "power": [
            run(a.reps, a.games, beta, a.seed + n + 1) for n, beta in enumerate((0.1, 0.2, 0.3))
        ],
    }
    res["seconds"] = round(time.perf_counter() - t0, 1)
    res["command"] = f"python -m benchmarks.trace_power --reps {a.reps} --games {a.games}"
    text = json.dumps(res, indent=1)
    print(text)
    if a.out:
        pathlib.Path(a.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
