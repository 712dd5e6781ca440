"""Paired effects of an edit on the goal deck's win share: per matchup cell (mode, opponent),
per mode (the cells of the mode weighted equally: the win share against the field) and on
the goal's objective, from the base's games and the edit's games on the same deals.

A ``Pairs`` holds, per cell, the base deck's and the edited deck's win share in each deal
both played (game index order), and whether either game was decided by the tie-breakers.
"""

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as sps

from results.stats import holm
from results.suggest.data import games
from results.suggest.decision import effect95, share95


@dataclass
class Pairs:
    cells: list  # [(mode, opponent)]
    base: dict = field(default_factory=dict)  # cell -> np.array of base shares
    cand: dict = field(default_factory=dict)  # cell -> np.array of the candidate's shares
    tie: dict = field(default_factory=dict)  # cell -> bool array: either game tie-broken
    index: dict = field(default_factory=dict)  # cell -> game indices
    seed: dict = field(default_factory=dict)  # cell -> the matchup seed

    def d(self, cell) -> np.ndarray:
        return self.cand[cell] - self.base[cell]

    def n(self) -> int:
        return sum(len(v) for v in self.base.values())


def paired(base_out, cand_out, deck: str, cells, cand_deck=None) -> Pairs:
    """The deals both datasets played, per cell; ``cand_deck``: the edited deck's name in
    the candidate's dataset (default ``deck``)."""
    gb = games(base_out)
    gc = gb if cand_out == base_out else games(cand_out)
    p = Pairs(list(cells))
    for cell in cells:
        mode, opp = cell
        rb = gb.get((mode, deck, opp), {})
        rc = gc.get((mode, cand_deck or deck, opp), {})
        idx = sorted(i for i in rb if i in rc and rb[i]["seed"] == rc[i]["seed"])
        p.index[cell] = np.array(idx, np.int64)
        p.base[cell] = np.array([rb[i]["share"] for i in idx])
        p.cand[cell] = np.array([rc[i]["share"] for i in idx])
        p.tie[cell] = np.array([rb[i]["tie_break"] or rc[i]["tie_break"] for i in idx], bool)
        p.seed[cell] = rb[idx[0]]["seed"] if idx else None
    return p


def _summary(d) -> dict:
    m, lo, hi = effect95(d)
    return {"effect": m, "lo": lo, "hi": hi, "pairs": int(len(d))}


def per_mode(p: Pairs, modes) -> dict:
    """{mode: {effect, lo, hi, pairs, base, base_lo, base_hi, projected, projected_lo,
    projected_hi}}: the mode's cells pooled (equal games per cell: the win share against
    the field); the effect's paired t interval, the shares' Wilson intervals (95%,
    results.stats)."""
    out = {}
    for mode in modes:
        cells = [c for c in p.cells if c[0] == mode]
        if not cells:
            continue
        d = np.concatenate([p.d(c) for c in cells])
        b = np.concatenate([p.base[c] for c in cells])
        y = np.concatenate([p.cand[c] for c in cells])
        row = _summary(d)
        bm = share95(b)
        ym = share95(y)
        row |= {"base": bm[0], "base_lo": bm[1], "base_hi": bm[2]}
        row |= {"projected": ym[0], "projected_lo": ym[1], "projected_hi": ym[2]}
        out[mode] = row
    return out


def per_cell(p: Pairs) -> list:
    """One row per cell: the paired effect with its 95% interval and two-sided p-value
    (paired t-test), and the base and edited win shares, Holm-adjusted p over the cells."""
    rows = []
    for cell in p.cells:
        d = p.d(cell)
        row = {"mode": cell[0], "opponent": cell[1], **_summary(d)}
        row["base"] = float(p.base[cell].mean()) if len(d) else None
        row["projected"] = float(p.cand[cell].mean()) if len(d) else None
        ym = share95(p.cand[cell]) if len(d) else (None, None, None)
        row["projected_lo"], row["projected_hi"] = ym[1], ym[2]
        if len(d) >= 2 and np.any(d != 0) and not np.all(d == d[0]):
            row["p"] = float(sps.ttest_1samp(d, 0.0).pvalue)
        else:
            row["p"] = 1.0 if not np.any(d != 0) else 0.0
        rows.append(row)
    for row, adjusted in zip(rows, holm([r["p"] for r in rows]), strict=True):
        row["p_holm"] = adjusted
    return rows


def objective(p: Pairs, weights: dict) -> np.ndarray:
    """The goal's signed per-game objective over the cells with a weight (cell order, game
    order): ``weight * (edited - base)``."""
    parts = [weights[c] * p.d(c) for c in p.cells if weights.get(c)]
    return np.concatenate(parts) if parts else np.zeros(0)


def tie_break_check(p: Pairs, weights: dict) -> dict:
    """Is the effect made by games the tie-breakers decided? The share of the flipped pairs
    (the result changed) in which either game was decided by the tie-breakers, and the
    objective's mean and 95% interval without those pairs."""
    d_all, d_kept, flipped, tie_flipped = [], [], 0, 0
    for c in p.cells:
        w = weights.get(c)
        if not w:
            continue
        d = w * p.d(c)
        t = p.tie[c]
        d_all.append(d)
        d_kept.append(d[~t])
        flipped += int(np.count_nonzero(d))
        tie_flipped += int(np.count_nonzero(d[t]))
    kept = np.concatenate(d_kept) if d_kept else np.zeros(0)
    m, lo, hi = effect95(kept) if len(kept) else (math.nan, math.nan, math.nan)
    return {
        "flipped_pairs": flipped,
        "tie_break_share": tie_flipped / flipped if flipped else 0.0,
        "without_tie_breaks": {"effect": m, "lo": lo, "hi": hi, "pairs": int(len(kept))},
    }
