"""The statistics of the balance report, all from statsmodels and scipy: nothing computed by
hand that they compute.

- a proportion (a win rate, a claim rate): Wilson score interval,
  ``statsmodels.stats.proportion.proportion_confint(method="wilson")``; its test against 50%
  (against the fair share 1/n of a game of n sides) is the score test that the Wilson
  interval inverts (``proportions_ztest(value=0.5, prop_var=0.5)``), so "the interval
  excludes 50%" and "p < 0.05" agree;
- a difference of two independent proportions (first vs second player, summoned vs not, study
  B vs study A): Newcombe's hybrid score interval (built from the two Wilson intervals),
  ``confint_proportions_2indep(method="newcomb")``, and the score test
  ``test_proportions_2indep(method="score")``;
- many tests at once: Holm's step-down correction, ``multipletests(method="holm")``;
- a mean (points, turns): Student t interval, ``scipy.stats.t.interval``;
- a mean share of games scored 1, 1/2 or 0 (a win share with shared wins): the Wilson score
  interval with the summed shares as successes (``share_interval``): a share in [0, 1] of
  mean p varies at most p(1 - p), the binomial variance the Wilson interval assumes;
- a mean of paired differences of such shares: Student t interval clipped to [-1, 1]
  (``paired_difference``), with no interval where it has none (fewer than two pairs, or the
  same difference in every pair: a zero-width interval would claim certainty).

Every share's interval lies in [0, 1] and every difference's in [-1, 1]
(``clip_share``, ``clip_difference``: a method whose own bounds can leave them, a normal or
t interval, is clipped and says so with ``clipped``).

Every function returns plain JSON-ready dicts (floats, ints, None).
"""

import gc
import math
import warnings

import numpy as np
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import (
    confint_proportions_2indep,
    proportion_confint,
    proportions_ztest,
    test_proportions_2indep,
)

LEVEL = 0.95
ALPHA = 1 - LEVEL
SMALL_SAMPLE = 100  # a rate resting on fewer trials (decisive games, games) is marked small

METHODS = {
    "level": LEVEL,
    "proportion": "Wilson score interval (statsmodels proportion_confint, method='wilson')",
    "proportion_test": "score test against 50% (statsmodels proportions_ztest, prop_var=0.5), "
    "the test the Wilson interval inverts",
    "difference": "Newcombe hybrid score interval for a difference of two independent "
    "proportions (statsmodels confint_proportions_2indep, method='newcomb')",
    "difference_test": "score test (statsmodels test_proportions_2indep, method='score')",
    "multiple_tests": "Holm step-down correction within each table "
    "(statsmodels multipletests, method='holm')",
    "mean": "Student t interval (scipy.stats.t.interval)",
    "share": "Wilson score interval of a mean share (win 1, shared win 1/2), the summed "
    "shares as successes; every share's interval lies in [0, 1]",
    "paired_difference": "Student t interval of the mean paired difference, clipped to "
    "[-1, 1] (marked where clipped); none where every pair differs alike",
    "small_sample": SMALL_SAMPLE,
}


def _f(x):
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else x


def _wilson(k, n) -> tuple:
    """The Wilson score interval of ``k`` (possibly fractional) successes in ``n > 0``
    trials, held inside [0, 1] against float noise."""
    lo, hi = proportion_confint(k, n, alpha=ALPHA, method="wilson")
    lo = 0.0 if k <= 0 else min(max(float(lo), 0.0), 1.0)  # exactly 0 and 1 at the ends
    hi = 1.0 if k >= n else min(max(float(hi), 0.0), 1.0)
    return lo, hi


def clip_share(lo, hi) -> tuple:
    """(lo, hi, clipped): a share's bounds held inside [0, 1]; ``clipped`` says a bound
    was moved (the method's own interval reached past 0% or 100%). None stays None."""
    return _clip(lo, hi, 0.0, 1.0)


def clip_difference(lo, hi) -> tuple:
    """(lo, hi, clipped): a difference of two shares held inside [-1, 1]."""
    return _clip(lo, hi, -1.0, 1.0)


def _clip(lo, hi, low, high) -> tuple:
    lo, hi = _f(lo), _f(hi)
    if lo is None or hi is None:
        return lo, hi, False
    new_lo, new_hi = min(max(lo, low), high), min(max(hi, low), high)
    return new_lo, new_hi, (new_lo != lo or new_hi != hi)


def win_share(winner, seat=0):
    """A seat's points of a game: 1 a win, 1/2 a shared win (``winner`` < 0), 0 a loss. The
    one definition of a game's win share (ratings, competence, suggest, tune, duels): a float
    for one game, an array for an array of winners."""
    if isinstance(winner, int | np.integer):  # one game: no array round trip, per-game loops
        return 0.5 if winner < 0 else (1.0 if winner == seat else 0.0)
    w = np.asarray(winner)
    share = np.where(w < 0, 0.5, np.where(w == seat, 1.0, 0.0))
    return float(share) if share.ndim == 0 else share


def win_share_sql(seat: str = "0") -> str:
    """``win_share`` as a SQL expression over a games table's ``winner`` column, ``seat`` a
    SQL expression (a seat number or a column such as ``first_seat``)."""
    return f"CASE WHEN winner < 0 THEN 0.5 WHEN winner = {seat} THEN 1.0 ELSE 0.0 END"


def share_interval(shares) -> dict:
    """The mean of per-game shares in [0, 1] (a win 1, a shared win 1/2, a loss 0) and its
    Wilson score interval, the summed shares taken as the successes of ``n`` games (module
    docstring): ``{"mean", "lo", "hi", "n"}``, bounds None for no game. The one interval
    of a single share that is not a count (suggest's win shares, the paired analysis)."""
    y = np.asarray(shares, float).ravel()
    n = len(y)
    if n == 0:
        return {"mean": None, "lo": None, "hi": None, "n": 0}
    if np.any((y < 0) | (y > 1)) or not np.all(np.isfinite(y)):
        raise ValueError("share_interval: every share lies in [0, 1]")
    lo, hi = _wilson(float(y.sum()), n)
    return {"mean": float(y.mean()), "lo": lo, "hi": hi, "n": n}


def paired_difference(d) -> dict:
    """The mean of paired differences of two shares (each in [-1, 1]) with its Student t
    interval clipped to [-1, 1]: ``{"mean", "lo", "hi", "n", "clipped", "degenerate"}``.
    ``degenerate`` names why there is no interval (bounds None): "no pairs", "one pair",
    "identical in every pair" (no game changed) or "the same change in every pair"."""
    d = np.asarray(d, float).ravel()
    n = len(d)
    out = {"mean": float(d.mean()) if n else None, "lo": None, "hi": None, "n": n}
    out |= {"clipped": False, "degenerate": None}
    if n == 0:
        return out | {"degenerate": "no pairs"}
    if n == 1:
        return out | {"degenerate": "one pair"}
    if np.all(d == d[0]):
        why = "identical in every pair" if d[0] == 0 else "the same change in every pair"
        return out | {"degenerate": why}
    sd = float(d.std(ddof=1))
    lo, hi = sps.t.interval(LEVEL, n - 1, loc=out["mean"], scale=sd / math.sqrt(n))
    lo, hi, clipped = clip_difference(lo, hi)
    return out | {"lo": lo, "hi": hi, "clipped": clipped}


def proportion(k, n) -> dict:
    """k successes in n trials: rate and its Wilson interval; ``small`` below SMALL_SAMPLE."""
    k, n = int(k), int(n)
    if n <= 0:
        return {"k": k, "n": n, "rate": None, "lo": None, "hi": None, "small": True}
    lo, hi = _wilson(k, n)
    return {
        "k": k,
        "n": n,
        "rate": k / n,
        "lo": _f(lo),
        "hi": _f(hi),
        "small": n < SMALL_SAMPLE,
    }


def test_share(k, n, share):
    """Two-sided p-value of the score test of ``rate == share`` (None when n == 0): the test
    the Wilson interval inverts, so "the interval excludes ``share``" and "p < 0.05" agree."""
    if n <= 0:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, p = proportions_ztest(int(k), int(n), value=share, prop_var=share)
    return _f(p)


def test_half(k, n):
    """Two-sided p-value of the score test of ``rate == 0.5`` (None when n == 0)."""
    return test_share(k, n, 0.5)


def win_record(wins, losses, draws) -> dict:
    """Results of one side: the win rate over decisive games (draws left out of it) with its
    interval and test against 50%, and the draw rate over all games."""
    wins, losses, draws = int(wins), int(losses), int(draws)
    decisive = wins + losses
    wr = proportion(wins, decisive)
    wr["p_value"] = test_half(wins, decisive)
    wr["excludes_half"] = wr["rate"] is not None and (wr["lo"] > 0.5 or wr["hi"] < 0.5)
    return {
        "games": decisive + draws,
        "wins": wins,
        "losses": losses,
        "draws": draws,
        "decisive": decisive,
        "win_rate": wr,
        "draw_rate": proportion(draws, decisive + draws),
    }


def share_record(wins, losses, draws, share) -> dict:
    """``win_record`` of a seat (or team) in a game of more than two sides: the win rate over
    decisive games is tested against its fair ``share`` (1/3, 1/4, 1/2) instead of 50%;
    ``win_rate`` holds ``share`` and ``excludes_share`` (the interval excludes it)."""
    rec = win_record(wins, losses, draws)
    wr = rec["win_rate"]
    del wr["excludes_half"]
    wr["share"] = float(share)
    wr["p_value"] = test_share(rec["wins"], rec["decisive"], share)
    wr["excludes_share"] = wr["rate"] is not None and (wr["lo"] > share or wr["hi"] < share)
    return rec


def add_records(*recs) -> dict:
    recs = [r for r in recs if r]
    return win_record(
        sum(r["wins"] for r in recs), sum(r["losses"] for r in recs), sum(r["draws"] for r in recs)
    )


def flip(rec) -> dict:
    """The same games seen from the other side."""
    return win_record(rec["losses"], rec["wins"], rec["draws"])


def difference(k1, n1, k2, n2) -> dict | None:
    """Rate 1 minus rate 2 of two independent samples: Newcombe interval and score-test p."""
    k1, n1, k2, n2 = int(k1), int(n1), int(k2), int(n2)
    if n1 <= 0 or n2 <= 0:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lo, hi = confint_proportions_2indep(
            k1, n1, k2, n2, method="newcomb", compare="diff", alpha=ALPHA
        )
        _, p = test_proportions_2indep(
            k1, n1, k2, n2, method="score", compare="diff", return_results=False
        )
    p = _f(p)
    lo, hi, _ = clip_difference(lo, hi)
    if p is None:  # no variation at all (both 0% or both 100%): no evidence of a difference
        p = 1.0
    return {
        "diff": k1 / n1 - k2 / n2,
        "lo": _f(lo),
        "hi": _f(hi),
        "p_value": p,
        "excludes_zero": bool(lo is not None and (lo > 0 or hi < 0)),
        "small": min(n1, n2) < SMALL_SAMPLE,
    }


def holm(pvalues) -> list:
    """Holm-adjusted p-values (None stays None)."""
    idx = [i for i, p in enumerate(pvalues) if p is not None]
    out = [None] * len(pvalues)
    if idx:
        # multipletests(method="holm") calls gc.collect(), which costs ~0.1 s a call in a
        # process holding many objects (matplotlib): freeze them out of the collection
        gc.freeze()
        try:
            adj = multipletests(np.array([pvalues[i] for i in idx]), alpha=ALPHA, method="holm")
        finally:
            gc.unfreeze()
        adj = adj[1]
        for i, a in zip(idx, adj, strict=True):
            out[i] = float(a)
    return out


def mark_holm(items, key_p="p_value", key_adj="p_holm", key_sig="significant"):
    """Add Holm-adjusted p-values and the significance decision to dicts holding ``key_p``."""
    adj = holm([it.get(key_p) if it else None for it in items])
    for it, a in zip(items, adj, strict=True):
        if it:
            it[key_adj] = a
            it[key_sig] = a is not None and a < ALPHA


def mean_ci(mean, sd, n) -> dict:
    """Mean with its Student t interval, from a sample's mean, standard deviation and size."""
    n = int(n)
    mean, sd = _f(mean), _f(sd)
    if n <= 0 or mean is None:
        return {"n": n, "mean": None, "lo": None, "hi": None, "small": True}
    lo = hi = None
    if n >= 2 and sd is not None:
        if sd == 0:
            lo = hi = mean
        else:
            lo, hi = sps.t.interval(LEVEL, n - 1, loc=mean, scale=sd / math.sqrt(n))
    return {"n": n, "mean": mean, "lo": _f(lo), "hi": _f(hi), "small": n < SMALL_SAMPLE}
