"""The decision rules of `kalarite suggest`'s race (screening) and of its confirmation: pure
functions of per-game differences, so the real race and the simulated benchmarks
(benchmarks/suggest_sim.py) decide with the same code.

Every candidate plays the same deals as the shared base (common random numbers). For each
game ``i`` of the goal's matchups, ``u[c, i]`` is the candidate's change of the goal metric
in that game: its deck's win share (win 1, shared win 1/2, loss 0) minus the base deck's in
the same deal, signed in the goal's direction (a buff goal counts a gain, a nerf goal a
loss), 0 where the game is unchanged. Rounds double the games; after each complete round:

1. **Surely worse than the leader** (the candidate with the highest mean): the paired
   difference ``u[c] - u[leader]`` over the same games has its upper confidence bound below
   0: dropped.
2. **Cannot move the goal by ``min_effect``**: the upper confidence bound of the candidate's
   mean is below ``min_effect``: dropped.
3. **Budget cut** (sequential halving, Karnin, Koren & Somekh 2013): of the survivors, the
   best half by mean (at least ``keep``) go on; the others are cut, recorded as such. This
   rule spends the budget; its error is not bounded by ``alpha`` but measured (the
   benchmark's pick accuracy); rules 1 and 2 are the decisions.

The error of rules 1 and 2: one-sided t bounds, Bonferroni over the ``R`` planned rounds:
rule 1 at level ``alpha / (2 R K (K - 1))`` for each ordered pair of the ``K`` candidates (the
leader is chosen from the data, so every pair is covered), rule 2 at ``alpha / (2 R K)`` for
each candidate; each half-width is at least ``ln(1/a) / n`` (the exact bound on a share of
flipped games when none of ``n`` flipped, so that an edit that flipped nothing yet is not
taken as exactly null). With probability at least ``1 - alpha``, no candidate whose true
effect is the best is dropped by rule 1 and none whose true effect is at least ``min_effect``
by rule 2.

Confirmation (``confirm``): the finalists are replayed on fresh seeds under two players; a
candidate is *confirmed* when, under both players, its one-sided paired t-test in the goal's
direction is significant at ``alpha / m`` (Bonferroni over the ``m`` candidates replayed).
With no real effect anywhere, a race confirms a false suggestion with probability at most
``alpha``.
"""

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as sps

from results import stats

DROP_WORSE = "worse than the leader"
DROP_SMALL = "cannot move the goal by the smallest effect"
DROP_CUT = "cut by the budget (sequential halving)"


@dataclass
class Arm:
    """A candidate in the race: its id, prior order and fate."""

    cid: str
    order: int  # prior rank: ties are broken by it, and a budget cut keeps the earlier
    alive: bool = True
    dropped_round: int | None = None
    reason: str | None = None
    history: list = field(default_factory=list)  # per round: n, mean, lo, hi (95%), bounds


def levels(alpha: float, k: int, rounds: int) -> tuple:
    """The one-sided levels of rule 1's bounds (each ordered pair of candidates) and rule
    2's (each candidate), per round."""
    k, rounds = max(k, 2), max(rounds, 1)
    return alpha / (2 * rounds * k * (k - 1)), alpha / (2 * rounds * k)


def bounds(u: np.ndarray, a: float) -> tuple:
    """(mean, lower, upper): one-sided bounds at level ``a`` of the mean of ``u`` (rows:
    candidates, columns: games), each half-width at least ln(1/a)/n."""
    u = np.atleast_2d(np.asarray(u, float))
    n = u.shape[1]
    mean = u.mean(axis=1)
    if n < 2:
        return mean, np.full_like(mean, -np.inf), np.full_like(mean, np.inf)
    sd = u.std(axis=1, ddof=1)
    half = sps.t.ppf(1 - a, n - 1) * sd / math.sqrt(n)
    half = np.maximum(half, math.log(1 / a) / n)
    return mean, mean - half, mean + half


def share95(y) -> tuple:
    """(mean, lo, hi): a win share's 95% interval for display, the Wilson score interval
    of results.stats.share_interval (inside [0, 1]; nan bounds for no game)."""
    r = stats.share_interval(y)
    return _triple(r)


def effect95(d) -> tuple:
    """(mean, lo, hi): the 95% interval of a mean paired difference for display
    (results.stats.paired_difference: a t interval inside [-1, 1]; nan bounds where it has
    none: fewer than two pairs, or the same difference in every pair)."""
    return _triple(stats.paired_difference(d))


def _triple(r) -> tuple:
    nan = float("nan")
    m = nan if r["mean"] is None else r["mean"]
    return m, nan if r["lo"] is None else r["lo"], nan if r["hi"] is None else r["hi"]


def decide_round(u, arms, r: int, *, k0: int, rounds: int, alpha: float, min_effect: float,
                 keep: int, halving: bool = True) -> dict:  # fmt: skip
    """Apply the rules after complete round ``r`` to the living ``arms`` (in order), whose
    per-game values ``u`` (one row per living arm, all games so far) are given. Marks the
    dropped arms and returns {"leader": cid, "dropped": [(cid, reason)], "level": a}."""
    alive = [a for a in arms if a.alive]
    assert len(alive) == len(u)
    a_pair, a_one = levels(alpha, k0, rounds)
    u = np.asarray(u, float)
    mean, lo, hi = bounds(u, a_one)
    order = sorted(range(len(alive)), key=lambda i: (-mean[i], alive[i].order))
    lead = order[0]
    for i, arm in enumerate(alive):
        m95 = effect95(u[i])
        arm.history.append(
            {
                "round": r,
                "n": int(u.shape[1]),
                "mean": float(mean[i]),
                "lo": m95[1],
                "hi": m95[2],
                "lower_bound": float(lo[i]),
                "upper_bound": float(hi[i]),
            }
        )
    dropped = []
    diff_hi = bounds(u - u[lead], a_pair)[2]
    for i in order:
        arm = alive[i]
        if i != lead and diff_hi[i] < 0:
            dropped.append((arm, f"{DROP_WORSE} ({alive[lead].cid})"))
        elif hi[i] < min_effect:
            dropped.append((arm, DROP_SMALL))
    gone = {id(x) for x, _ in dropped}
    if halving:
        rest = [i for i in order if id(alive[i]) not in gone]
        n_keep = max(keep, math.ceil(len(alive) / 2))
        for rank, i in enumerate(rest[n_keep:], start=n_keep + 1):
            dropped.append(
                (alive[i], f"{DROP_CUT}: rank {rank} of {len(rest)} after round {r + 1}")
            )
    for arm, why in dropped:
        arm.alive = False
        arm.dropped_round = r
        arm.reason = why
    return {
        "leader": alive[lead].cid,
        "dropped": [(x.cid, w) for x, w in dropped],
        "levels": {"pair": a_pair, "one": a_one},
    }


def ranked(arms) -> list:
    """Every arm in rank order: the survivors by their last mean, then the dropped ones,
    latest first, each group by its last mean."""

    def last(arm):
        return arm.history[-1]["mean"] if arm.history else -math.inf

    alive = sorted((a for a in arms if a.alive), key=lambda a: (-last(a), a.order))
    gone = sorted(
        (a for a in arms if not a.alive),
        key=lambda a: (
            -(a.dropped_round if a.dropped_round is not None else -1),
            -last(a),
            a.order,
        ),
    )
    return alive + gone


def one_sided_p(d) -> float:
    """p-value of the paired one-sided t-test that the mean of ``d`` is > 0 (1.0 when every
    difference is 0)."""
    d = np.asarray(d, float)
    if len(d) < 2:
        return 1.0
    if not np.any(d != 0):
        return 1.0
    if np.all(d == d[0]):
        return 0.0 if d[0] > 0 else 1.0
    return float(sps.ttest_1samp(d, 0.0, alternative="greater").pvalue)


def confirm(per_player: dict, alpha: float) -> dict:
    """``per_player``: {player: {cid: signed per-game differences on fresh seeds}}. Returns
    {cid: {"confirmed": bool, "p": {player: p}, "level": alpha/m}}: confirmed when every
    player's one-sided test is significant at ``alpha / m``."""
    cids = sorted({c for v in per_player.values() for c in v})
    m = max(len(cids), 1)
    out = {}
    for c in cids:
        ps = {p: one_sided_p(v[c]) for p, v in per_player.items() if c in v}
        ok = len(ps) == len(per_player) and all(x < alpha / m for x in ps.values())
        out[c] = {"confirmed": bool(ok), "p": ps, "level": alpha / m}
    return out
