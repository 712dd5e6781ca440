"""The skill trace of a study with a ``trace`` (sim.study; ``kalarite trace``): one player at
budgets N, 2N, 4N, ... (its search budget, sim.player_kinds), in self-play at each level
and each two adjacent levels against each other. Does balance depend on strength?

- **The strength trace**: per adjacent pair of levels, the larger budget's win rate against
  the smaller one over their head-to-head games (each deck against itself, both seats; shared
  wins left out), with its 95% Wilson interval: does doubling the budget still win? An edge
  that decays toward 50% says more strength changes the games little.
- **The deck trace**: per mode, each deck's win rate against the field (mirror matches left
  out) at each level, with its 95% Wilson band.
- **Each deck's slope**, in points of win rate against the field per doubling of the budget,
  from one logistic regression per mode of every self-play game's result (the first deck of
  its pairing wins; shared wins left out) on the pairing (one intercept each), the first
  mover (and its change per doubling) and deck x log2(budget): the term of the first deck's
  slope minus the second's. The slopes are identified up to a common shift, which no game
  sees, so the deck's slope is read off the model as the change, per doubling between the
  lowest and the highest level, of the deck's modelled win rate against the field (each
  pairing and first mover weighted by its games); its 95% interval by the delta method
  (statsmodels' covariance of the fit, the gradient by central differences).
- **The joint test** of "balance depends on strength": the likelihood-ratio test of the
  model with the deck x log2(budget) terms against the one without (K - 1 degrees of freedom),
  at alpha = 0.05. It uses every level, so it has more power than a comparison of two
  players; under identical levels it says "depends" at most 5% of the time
  (tests/test_skill_trace.py simulates it, with the slopes' coverage and a power figure:
  benchmarks/trace_power.py).
"""

import math
import warnings

import numpy as np
from scipy.stats import chi2, norm

from results import stats
from results.analysis.player_families import trace_levels

ALPHA = stats.ALPHA
Z = float(norm.ppf(1 - ALPHA / 2))
# a fitted log-odds past this (a win probability within 3e-7 of 0 or 1) means the games of a
# pairing, or of one of its levels, all went one way: too few games to fit, no slope given
MAX_LOGIT = 15.0


def _design(cells, k: int, with_slopes: bool = True):
    """The model matrix of ``cells`` (rows: i, j, x, first, wins_i, wins_j; i < j decks, x
    doublings, first +1 when deck i moved first, else -1): pairing intercepts, first mover,
    first mover x x, and (``with_slopes``) the K - 1 free deck slopes (deck K-1's is minus
    their sum)."""
    pairs = sorted({(int(c[0]), int(c[1])) for c in cells})
    col = {p: n for n, p in enumerate(pairs)}
    n_fix = len(pairs) + 2
    x = np.zeros((len(cells), n_fix + (k - 1 if with_slopes else 0)))
    for r, c in enumerate(cells):
        i, j, lev, first = int(c[0]), int(c[1]), float(c[2]), float(c[3])
        x[r, col[(i, j)]] = 1.0
        x[r, len(pairs)] = first
        x[r, len(pairs) + 1] = first * lev
        if with_slopes:
            for d, sign in ((i, 1.0), (j, -1.0)):
                if d < k - 1:
                    x[r, n_fix + d] += sign * lev
                else:  # the last deck's slope is minus the others' sum
                    x[r, n_fix : n_fix + k - 1] -= sign * lev
    return x, pairs


def _fit(x, y):
    import statsmodels.api as sm

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sm.GLM(y, x, family=sm.families.Binomial()).fit()


def field_rates(params, cells, k: int, lev: float, pairs) -> np.ndarray:
    """Each deck's modelled win rate against the field at ``lev`` doublings: its pairings'
    win probabilities, each pairing and first mover weighted by its games (over the
    levels)."""
    num, den = np.zeros(k), np.zeros(k)
    col = {p: n for n, p in enumerate(pairs)}
    n_fix = len(pairs) + 2
    gam = np.append(params[n_fix:], -params[n_fix:].sum())
    weight = {}
    for c in cells:
        key = (int(c[0]), int(c[1]), float(c[3]))
        weight[key] = weight.get(key, 0.0) + float(c[4] + c[5])
    for (i, j, first), w in weight.items():
        eta = params[col[(i, j)]] + params[len(pairs)] * first
        eta += params[len(pairs) + 1] * first * lev + (gam[i] - gam[j]) * lev
        p = 1.0 / (1.0 + math.exp(-eta)) if abs(eta) < 700 else float(eta > 0)
        num[i] += w * p
        num[j] += w * (1 - p)
        den[i] += w
        den[j] += w
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / den, np.nan)


def fit_trace(cells, k: int, span: float) -> dict | None:
    """The slopes and the joint test from ``cells`` (``_design``'s rows) of K decks over
    ``span`` doublings: ``slope``, ``se``, ``lo``, ``hi`` (per deck, points per doubling),
    ``chi2``, ``df``, ``p_value``, ``depends``; None when the model cannot be fitted (no
    game, one level, or games so few that a pairing's went all one way)."""
    cells = np.asarray(cells, float)
    if len(cells) == 0 or span <= 0 or k < 2:
        return None
    y = cells[:, 4:6]
    keep = y.sum(axis=1) > 0
    cells, y = cells[keep], y[keep]
    if len(cells) == 0:
        return None
    x, pairs = _design(cells, k)
    x0, _ = _design(cells, k, with_slopes=False)
    full, null = _fit(x, y), _fit(x0, y)
    theta = np.asarray(full.params, float)
    cov = np.asarray(full.cov_params(), float)
    if not (full.converged and null.converged) or not np.all(np.abs(theta) < MAX_LOGIT):
        return None  # separated: a pairing (or a level of one) went all one way

    def slopes(t):
        top = field_rates(t, cells, k, span, pairs)
        bottom = field_rates(t, cells, k, 0.0, pairs)
        return 100 * (top - bottom) / span

    s = slopes(theta)
    jac = np.zeros((k, len(theta)))
    for n in range(len(theta)):
        h = 1e-5 * (1 + abs(theta[n]))
        up, dn = theta.copy(), theta.copy()
        up[n] += h
        dn[n] -= h
        jac[:, n] = (slopes(up) - slopes(dn)) / (2 * h)
    se = np.sqrt(np.maximum(np.diag(jac @ cov @ jac.T), 0.0))
    lr = max(0.0, 2 * (float(full.llf) - float(null.llf)))
    df = k - 1
    p = float(chi2.sf(lr, df))
    ok = np.isfinite(s) & np.isfinite(se)
    return {
        "slope": np.where(ok, s, np.nan),
        "se": np.where(ok, se, np.nan),
        "lo": np.where(ok, s - Z * se, np.nan),
        "hi": np.where(ok, s + Z * se, np.nan),
        "chi2": lr,
        "df": df,
        "p_value": p,
        "depends": p < ALPHA,
    }


def _num(x, digits=2):
    return None if x is None or not np.isfinite(x) else round(float(x), digits)


def _cells(d, mode, levels, xs, decks) -> list:
    """Self-play games of ``mode`` at each level, as ``_design`` rows (decks in ``decks``
    order)."""
    pos = {n: i for i, n in enumerate(decks)}
    rows = d.rows(
        "SELECT seat0_policy AS p, seat0_deck AS d0, seat1_deck AS d1, first_seat AS f, "
        "count(*) FILTER (WHERE winner = 0) AS w0, count(*) FILTER (WHERE winner = 1) AS w1 "
        "FROM g WHERE mode = ? AND seat0_policy = seat1_policy AND seat0_deck <> seat1_deck "
        "GROUP BY ALL ORDER BY ALL",
        [mode],
    )
    lev = dict(zip(levels, xs, strict=True))
    out = []
    for r in rows:
        if r["p"] not in lev or r["d0"] not in pos or r["d1"] not in pos:
            continue
        i, j, wi, wj = pos[r["d0"]], pos[r["d1"]], r["w0"], r["w1"]
        first_i = r["f"] == 0  # seat 0 (deck d0) moved first
        if i > j:
            i, j, wi, wj, first_i = j, i, wj, wi, not first_i
        out.append((i, j, lev[r["p"]], 1.0 if first_i else -1.0, wi, wj))
    return out


def _deck_rates(d, mode, levels, budgets) -> dict:
    """deck -> per level {budget, rate, lo, hi, wins, decisive} (95% Wilson)."""
    rows = d.rows(
        "SELECT policy, deck, count(*) FILTER (WHERE result = 'win') AS wins, "
        "count(*) FILTER (WHERE result <> 'draw') AS decisive FROM sg "
        "WHERE mode = ? AND policy = opp_policy AND deck <> opp_deck GROUP BY ALL ORDER BY ALL",
        [mode],
    )
    by = {(r["policy"], r["deck"]): r for r in rows}
    decks = list(dict.fromkeys(r["deck"] for r in rows))
    out = {}
    for deck in decks:
        series = []
        for spec, b in zip(levels, budgets, strict=True):
            r = by.get((spec, deck))
            if r is None:
                continue
            p = stats.proportion(r["wins"], r["decisive"])
            series.append(
                {
                    "budget": b,
                    "rate": p["rate"],
                    "lo": p["lo"],
                    "hi": p["hi"],
                    "wins": int(r["wins"]),
                    "decisive": int(r["decisive"]),
                }
            )
        out[deck] = series
    return out


def _strength(d, mode, levels, budgets) -> list:
    """Per adjacent pair: the larger budget's head-to-head record against the smaller."""
    out = []
    for (lo, hi), (b0, b1) in zip(
        zip(levels, levels[1:], strict=False), zip(budgets, budgets[1:], strict=False), strict=True
    ):
        r = d.rows(
            "SELECT count(*) FILTER (WHERE (winner = 0 AND seat0_policy = ?) OR "
            "(winner = 1 AND seat1_policy = ?)) AS wins, count(*) FILTER (WHERE winner >= 0) "
            "AS decisive, count(*) FILTER (WHERE winner < 0) AS draws FROM g WHERE mode = ? "
            "AND ((seat0_policy = ? AND seat1_policy = ?) OR (seat0_policy = ? AND "
            "seat1_policy = ?))",
            [hi, hi, mode, lo, hi, hi, lo],
        )[0]
        p = stats.proportion(r["wins"], r["decisive"])
        out.append(
            {
                "from": b0,
                "to": b1,
                "players": [lo, hi],
                "wins": int(r["wins"]),
                "decisive": int(r["decisive"]),
                "draws": int(r["draws"]),
                "rate": p["rate"],
                "lo": p["lo"],
                "hi": p["hi"],
                "p_value": stats.test_half(r["wins"], r["decisive"]),
                "edge": None if p["lo"] is None else bool(p["lo"] > 0.5),
            }
        )
    return out


def skill_trace(d, summary) -> dict | None:
    """``summary["skill_trace"]`` of a study with a trace (None for another): ``player``,
    ``setting``, ``levels`` (the budgets), ``players`` (each level's spec), and per mode
    (``modes`` -> mode) ``strength`` (per adjacent pair), ``decks`` -> deck -> ``slope``,
    ``slope_lo``, ``slope_hi`` (points per doubling, 95%), ``rates`` (per level), and
    ``joint`` (the test of balance depending on strength)."""
    levels = trace_levels(summary)
    spec = summary["run"]["study"]
    if not levels:
        return None
    trace = spec["trace"]
    budgets = list(trace["levels"])
    xs = [math.log2(b / budgets[0]) for b in budgets]
    span = xs[-1] - xs[0]
    modes = {}
    for mode in dict.fromkeys(g["mode"] for g in summary.get("groups", [])):
        rates = _deck_rates(d, mode, levels, budgets)
        decks = list(rates)
        fit = fit_trace(_cells(d, mode, levels, xs, decks), len(decks), span)
        deck_out = {}
        for i, deck in enumerate(decks):
            deck_out[deck] = {
                "slope": _num(fit["slope"][i]) if fit else None,
                "slope_lo": _num(fit["lo"][i]) if fit else None,
                "slope_hi": _num(fit["hi"][i]) if fit else None,
                "slope_se": _num(fit["se"][i], 3) if fit else None,
                "rates": rates[deck],
            }
        joint = None
        if fit:
            joint = {
                "chi2": round(fit["chi2"], 3),
                "df": fit["df"],
                "p_value": fit["p_value"],
                "depends": bool(fit["depends"]),
            }
        modes[mode] = {
            "strength": _strength(d, mode, levels, budgets),
            "decks": deck_out,
            "joint": joint,
        }
    return {
        "player": trace["player"],
        "setting": levels[0].rsplit(":", 1)[-1].partition("=")[0],
        "levels": budgets,
        "players": levels,
        "doublings": xs,
        "alpha": ALPHA,
        "modes": modes,
    }
