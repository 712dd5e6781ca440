"""Player ratings from a dataset of games between players: a Bradley-Terry fit on the Elo
scale with 95% Wald intervals, and head-to-head win rates with Wilson intervals.

``bradley_terry`` fits ratings to (i, j, score of i) results by maximum likelihood; a shared
win counts half to each side, and a weak prior (``PRIOR_DRAWS`` virtual shared wins between
every two players) keeps the rating of a player that never lost finite. ``fit`` reads a
study's games table (``kalarite ladder``'s, sim/app/ladder.py) and returns the ratings
overall and per mode, the steps between consecutive players, and the head-to-head records.
"""

import math

import numpy as np
import pyarrow.compute as pc

from results import stats
from results.store import read_table

ELO = 400 / math.log(10)  # Elo points per unit of log-odds: 400 points = 10:1 odds
PRIOR_DRAWS = 1.0


def _games(run_dir):
    t = read_table(
        run_dir, "games", columns=["mode", "seat0_policy", "seat1_policy", "winner", "error"]
    )
    t = t.filter(pc.equal(t["error"], 0))
    return t.to_pydict()


def bradley_terry(players, results, anchor=0) -> dict:
    """``results``: (i, j, score of i) per game (1 win, 0.5 shared, 0 loss). Returns the
    ratings (Elo scale, players[anchor] at 0) with their 95% intervals and standard errors,
    and ``steps``: each player's rating minus the previous player's, with its interval."""
    k = len(players)
    wins = np.zeros((k, k))  # wins[i, j]: points i scored against j
    for i, j, sc in results:
        wins[i, j] += sc
        wins[j, i] += 1 - sc
    for i in range(k):
        for j in range(k):
            if i != j:
                wins[i, j] += PRIOR_DRAWS / 2
    n = wins + wins.T
    free = [i for i in range(k) if i != anchor]
    r = np.zeros(k)
    for _ in range(200):  # Newton's method on the free ratings
        p = 1 / (1 + np.exp(r[None, :] - r[:, None]))  # p[i, j]: i beats j
        grad = (wins - n * p).sum(axis=1)
        h = n * p * (1 - p)
        hess = -np.diag(h.sum(axis=1)) + h
        step = np.linalg.solve(hess[np.ix_(free, free)], grad[free])
        r[free] -= step
        if np.abs(step).max() < 1e-10:
            break
    p = 1 / (1 + np.exp(r[None, :] - r[:, None]))
    h = n * p * (1 - p)
    info = np.diag(h.sum(axis=1)) - h
    cov = np.zeros((k, k))
    cov[np.ix_(free, free)] = np.linalg.inv(info[np.ix_(free, free)])
    out = {}
    for i, name in enumerate(players):
        se = math.sqrt(cov[i, i])
        out[name] = {
            "rating": float(ELO * r[i]),
            "rating_lo": float(ELO * (r[i] - 1.96 * se)),
            "rating_hi": float(ELO * (r[i] + 1.96 * se)),
            "rating_se": float(ELO * se),
        }
    steps = []
    for i in range(1, k):
        d = r[i] - r[i - 1]
        se = math.sqrt(max(0.0, cov[i, i] + cov[i - 1, i - 1] - 2 * cov[i, i - 1]))
        steps.append(
            {
                "player": players[i],
                "previous": players[i - 1],
                "difference": float(ELO * d),
                "difference_lo": float(ELO * (d - 1.96 * se)),
                "difference_hi": float(ELO * (d + 1.96 * se)),
            }
        )
    return {"ratings": out, "steps": steps}


def fit(run_dir, players, modes) -> dict:
    """Ratings overall and per mode (of ``modes``), and head-to-head records, from a ladder
    dataset."""
    g = _games(run_dir)
    index = {p: i for i, p in enumerate(players)}
    per_mode = {m: [] for m in modes}
    h2h = {}
    for mode, a, b, w in zip(
        g["mode"], g["seat0_policy"], g["seat1_policy"], g["winner"], strict=True
    ):
        if a not in index or b not in index or mode not in per_mode:
            continue
        sc = stats.win_share(w, 0)
        per_mode[mode].append((index[a], index[b], sc))
        lo, hi = sorted((a, b), key=index.get)
        rec = h2h.setdefault((lo, hi, mode), [0, 0, 0])  # wins of lo, wins of hi, shared
        if w < 0:
            rec[2] += 1
        elif (w == 0) == (a == lo):
            rec[0] += 1
        else:
            rec[1] += 1
    anchor = players.index("greedy") if "greedy" in players else 0
    overall = bradley_terry(players, [x for m in modes for x in per_mode[m]], anchor)
    by_mode = {
        m: bradley_terry(players, per_mode[m], anchor)["ratings"] for m in modes if per_mode[m]
    }
    head = []
    for (a, b, mode), (wa, wb, d) in sorted(
        h2h.items(), key=lambda kv: (index[kv[0][0]], index[kv[0][1]], kv[0][2])
    ):
        rec = stats.win_record(wb, wa, d)  # from the side of b, listed later (stronger)
        head.append(
            {
                "player": b,
                "opponent": a,
                "mode": mode,
                "games": wa + wb + d,
                "wins": wb,
                "losses": wa,
                "shared": d,
                "won_share_of_games": wb / (wa + wb + d) if wa + wb + d else None,
                "win_rate": rec["win_rate"]["rate"],
                "win_rate_lo": rec["win_rate"]["lo"],
                "win_rate_hi": rec["win_rate"]["hi"],
                "excludes_half": rec["win_rate"].get("excludes_half"),
            }
        )
    return {
        "anchor": players[anchor],
        "ratings": overall["ratings"],
        "steps": overall["steps"],
        "ratings_by_mode": by_mode,
        "head_to_head": head,
    }
