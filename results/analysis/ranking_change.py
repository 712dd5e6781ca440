"""How the deck ranking and the decks' verdicts change between two sets of self-play games:
description beside the stability decision (results/analysis/stability.py), never part of it.

- **Kendall tau** (tau-b) of the two rankings by win rate against the field, with a
  percentile bootstrap interval: the games are resampled within each deck pairing (a
  pairing's pairs of games together where the two sets share deals), ``BOOTSTRAP``
  replicates from a fixed seed, so a report is the same every time it is written. Decks
  nearly tied with each other swap places by chance however many games are played, so a
  low tau alone says little.
- **Confident reversals**: a pair of decks whose gap (win rate of one minus the other) is
  significant in opposite directions under the two sets (each gap's z-test with the
  covariance of the pairing both decks share; the pair's p-value is the larger of its two
  one-sided p-values, an intersection-union test, Holm over the pairs).
- **Verdict flips**: a deck favoured under one set and disfavoured under the other (each
  verdict from its Wilson interval, ``results.analysis.sensitivity.verdict``); a change to
  or from *even* is not counted (near 50% it happens by chance).
"""

import itertools

import numpy as np
from scipy.stats import norm

from results import stats

BOOTSTRAP = 1000  # replicates of the tau interval
BOOTSTRAP_SEED = 41  # the interval is the same every time the report is written


def tau_b(x, y):
    """Kendall's tau-b of the rows of ``x`` and ``y`` (``(..., K)``), nan where a ranking
    is all ties (scipy.stats.kendalltau's statistic, vectorised over the leading axes)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    i, j = np.triu_indices(x.shape[-1], 1)
    dx = np.sign(x[..., i] - x[..., j])
    dy = np.sign(y[..., i] - y[..., j])
    num = (dx * dy).sum(axis=-1)
    den = np.sqrt((dx != 0).sum(axis=-1) * (dy != 0).sum(axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def _rates(wins, draws):
    w = wins.sum(axis=-1)
    d = w + wins.sum(axis=-2)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(d > 0, w / np.maximum(d, 1), np.nan)


def _resample(wins, draws, rng, n_rep):
    """``n_rep`` bootstrap copies (n_rep, K, K) of one table: each pairing's games drawn
    again from its own outcomes."""
    k = wins.shape[-1]
    w_out, d_out = np.zeros((n_rep, k, k)), np.zeros((n_rep, k, k))
    for i, j in itertools.combinations(range(k), 2):
        counts = np.array([wins[i, j], wins[j, i], draws[i, j]])
        n = int(counts.sum())
        if n == 0:
            continue
        draw = rng.multinomial(n, counts / n, size=n_rep)
        w_out[:, i, j], w_out[:, j, i] = draw[:, 0], draw[:, 1]
        d_out[:, i, j] = d_out[:, j, i] = draw[:, 2]
    return w_out, d_out


def bootstrap_tau(wins_a, draws_a, wins_b, draws_b, joint=None, n_rep=BOOTSTRAP):
    """(tau, lo, hi): tau-b of the two rankings and its 95% percentile bootstrap interval,
    the games resampled within each pairing (a paired pairing's pairs resampled together).
    None for a tau that is undefined."""
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    tau = tau_b(_rates(wins_a, draws_a), _rates(wins_b, draws_b))
    if not np.isfinite(tau):
        return None, None, None
    wa, da = _resample(wins_a, draws_a, rng, n_rep)
    wb, db = _resample(wins_b, draws_b, rng, n_rep)
    for (i, j), tab in (joint or {}).items():
        tab = np.asarray(tab, float)
        n = int(tab.sum())
        n_a = wins_a[i, j] + wins_a[j, i] + draws_a[i, j]
        n_b = wins_b[i, j] + wins_b[j, i] + draws_b[i, j]
        if not n == n_a == n_b:
            continue  # a pairing taken unpaired (moves: only part of its games pair up)
        draw = rng.multinomial(n, tab.ravel() / n, size=n_rep).reshape(n_rep, 3, 3)
        a, b = draw.sum(axis=2), draw.sum(axis=1)  # outcomes under A, under B
        for w, d, o in ((wa, da, a), (wb, db, b)):
            w[:, i, j], w[:, j, i] = o[:, 0], o[:, 1]
            d[:, i, j] = d[:, j, i] = o[:, 2]
    reps = tau_b(_rates(wa, da), _rates(wb, db))
    reps = reps[np.isfinite(reps)]
    lo, hi = np.percentile(reps, [2.5, 97.5]) if len(reps) else (None, None)
    return float(tau), _f(lo), _f(hi)


def _f(x):
    return None if x is None else float(x)


def reversals(names, rates_a, cov_a, rates_b, cov_b) -> list:
    """The confident reversals: pairs of decks whose gap is significant in opposite
    directions under A and under B (Holm over the pairs). Each: ``decks`` [x, y], ``gaps``
    (points: x minus y under A, under B), ``p_holm``."""
    pairs, pvals = [], []
    for i, j in itertools.combinations(range(len(names)), 2):
        z = []
        for r, c in ((rates_a, cov_a), (rates_b, cov_b)):
            gap = r[i] - r[j]
            se = np.sqrt(max(c[i, i] + c[j, j] - 2 * c[i, j], 0.0))
            z.append(gap / se if se > 0 else np.sign(gap) * np.inf)
        # x ahead under A and behind under B, or the other way round: the more likely
        p = min(max(norm.sf(z[0]), norm.cdf(z[1])), max(norm.cdf(z[0]), norm.sf(z[1])))
        pairs.append((i, j, 100 * (rates_a[i] - rates_a[j]), 100 * (rates_b[i] - rates_b[j])))
        pvals.append(float(p))
    out = []
    for (i, j, ga, gb), ph in zip(pairs, stats.holm(pvals), strict=True):
        if ph is not None and ph < stats.ALPHA:
            out.append(
                {
                    "decks": [names[i], names[j]],
                    "gaps": [round(float(ga), 2), round(float(gb), 2)],
                    "p_holm": ph,
                }
            )
    return out


def flips(verdicts: dict) -> list:
    """The decks whose verdict goes between favoured and disfavoured ({deck: [A's, B's]})."""
    return [d for d, v in verdicts.items() if {"favoured", "disfavoured"} == set(v)]
