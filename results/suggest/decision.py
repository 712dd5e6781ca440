"""The one decision of `kalarite suggest`, from a step's first games to the edit it accepts:
pure functions of per-game values, so the real suggestion (sim/app/suggest) and its
calibration (benchmarks/suggest_sim.py, which runs this very module end to end) decide with
the same code. The statistics are the project's (results.stats: the win share, the Wilson
``share_interval``, the ``paired_difference`` t interval); only the race's one-sided bounds
and the confirmation's one-sided test are written here.

A step decides, in order:

0. **The direction** (``direction``): the base's first games (Wilson intervals of its win
   share) say whether the goal asks for a buff, a nerf, both, or is already met.
1. **The race** (``after_round``): every candidate plays the same deals as the shared base
   (common random numbers). For each game ``i`` of the goal's matchups, ``u[c, i]`` is the
   candidate's change of the goal metric in that game: its deck's win share (win 1, shared
   win 1/2, loss 0) minus the base deck's in the same deal, signed in the goal's direction
   (a buff goal counts a gain, a nerf goal a loss), 0 where the game is unchanged. Rounds
   double the games; after each complete round:

   a. **Surely worse than the leader** (the candidate with the highest mean): the paired
      difference ``u[c] - u[leader]`` over the same games has its upper confidence bound
      below 0: dropped.
   b. **Cannot move the goal by ``min_effect``**: the upper confidence bound of the
      candidate's mean is below ``min_effect``: dropped.
   c. **Budget cut** (sequential halving, Karnin, Koren & Somekh 2013): of the survivors,
      the best half by mean (at least ``keep``) go on; the others are cut, recorded as such.
      This rule spends the budget; its error is not bounded by ``alpha`` but measured (the
      benchmark's pick accuracy); a and b are the decisions.

   The race stops with ``keep`` finalists, or when every survivor's projected win share
   is inside the goal's band (the budget's own stop is the application's).

   The error of a and b: one-sided t bounds, Bonferroni over the ``R`` planned rounds: a at
   level ``alpha / (2 R K (K - 1))`` for each ordered pair of the ``K`` candidates (the
   leader is chosen from the data, so every pair is covered), b at ``alpha / (2 R K)`` for
   each candidate; each half-width is at least ``ln(1/a) / n`` (the exact bound on a share
   of flipped games when none of ``n`` flipped, so that an edit that flipped nothing yet is
   not taken as exactly null). With probability at least ``1 - alpha``, no candidate whose
   true effect is the best is dropped by a and none whose true effect is at least
   ``min_effect`` by b.
2. **The finalists** (``finalists``): the best ``keep`` survivors, and any raced edit whose
   projected win share is inside the band (a vs-field or nerf goal), as many as the budget
   has room for.
3. **The confirmation** (``confirm``): the finalists are replayed on fresh seeds under two
   players; a candidate is *confirmed* when, under both players, its one-sided paired
   t-test in the goal's direction is significant at ``alpha / m`` (Bonferroni over the
   ``m`` candidates replayed). With no real effect anywhere, a step confirms a false
   suggestion with probability at most ``alpha``.
4. **The acceptance** (``accept``): of the confirmed edits, the one with the largest
   confirmed effect (both players pooled) is accepted when that effect is at least
   ``min_effect``; ``reached`` says whether its projection meets the goal (``--stack``).

The whole chain's error rate and power are measured by benchmarks/suggest_sim.py
(benchmarks/results/suggest_sim.json).
"""

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as sps

from results import stats
from sim.suggest.grammar import BUFF, NERF

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


@dataclass(frozen=True)
class Rules:
    """What the decisions need of a goal: its kind and band, the smallest effect worth
    having, the error rate, the rounds planned and the finalists kept."""

    kind: str = "vs-field"
    band: tuple = (0.0, 1.0)
    min_effect: float = 0.01
    alpha: float = 0.05
    rounds: int = 6
    keep: int = 3

    @classmethod
    def of(cls, goal) -> "Rules":
        """The rules of a goal (sim.suggest.goal.Goal)."""
        return cls(goal.kind, tuple(goal.band), goal.min_effect, goal.alpha, goal.rounds,
                   goal.confirm_count)  # fmt: skip


def direction(rules: Rules, base_modes: dict, base_cells: list) -> dict:
    """Where the goal wants the deck to go, from the base's first games: {"direction": BUFF,
    NERF or 0 (both ways), "weights": {cell: +1/-1/0}, "met": bool, "why": text}.

    vs-field and nerf: every cell of the goal weighs +1 (a buff) or -1 (a nerf); the base
    against the field (its 95% interval over the goal's modes pooled) below the band asks
    for a buff, above it a nerf; inside the band the goal is met. matchup-floor: each cell
    below the floor weighs +1, above the ceiling -1, inside 0."""
    lo, hi = rules.band
    weights = {}
    if rules.kind in ("vs-field", "nerf"):
        m = base_modes["pooled"]
        if m["hi"] < lo:
            d, why = BUFF, f"the base is below the band ({_pct(m)})"
        elif m["lo"] > hi:
            edge = "band" if rules.kind == "vs-field" else "ceiling"
            d, why = NERF, f"the base is above the {edge} ({_pct(m)})"
        elif m["lo"] >= lo and m["hi"] <= hi:
            return {"direction": 0, "weights": {}, "met": True,
                    "why": f"the base is inside the goal's range ({_pct(m)})"}  # fmt: skip
        else:
            d = BUFF if m["mean"] < (lo + hi) / 2 else NERF
            if rules.kind == "nerf":
                d = NERF
            why = (
                f"the base's interval reaches the goal's range ({_pct(m)}): not clearly "
                f"outside it; searching for a {'buff' if d == BUFF else 'nerf'}"
            )
        for c in base_cells:
            weights[(c["mode"], c["opponent"])] = d
        return {"direction": d, "weights": weights, "met": False, "why": why}
    below = above = 0
    for c in base_cells:
        w = 0
        if c["mean"] < lo:
            w, below = BUFF, below + 1
        elif c["mean"] > hi:
            w, above = NERF, above + 1
        weights[(c["mode"], c["opponent"])] = w
    if not below and not above:
        return {"direction": 0, "weights": {}, "met": True,
                "why": "every matchup of the base is inside the floor and ceiling"}  # fmt: skip
    d = BUFF if below and not above else NERF if above and not below else 0
    why = f"{below} matchup(s) below the floor, {above} above the ceiling"
    return {"direction": d, "weights": weights, "met": False, "why": why}


def _pct(m) -> str:
    return f"{m['mean']:.1%} [{m['lo']:.1%}, {m['hi']:.1%}]"


def after_round(u, arms, r: int, rules: Rules, *, k0: int, modes: dict | None = None,
                halving: bool = True) -> dict:  # fmt: skip
    """The race's decisions after complete round ``r`` (``decide_round``) and whether it
    stops: ``modes`` ({cid: {mode: projected share and its interval}}, optional) is kept
    in each living arm's history. Returns ``decide_round``'s dict with ``stop``: "finalists"
    (``keep`` or fewer left), "inside the band" (every survivor projected inside it) or
    None (the race goes on)."""
    alive = [a for a in arms if a.alive]
    decision = decide_round(
        u, arms, r, k0=k0, rounds=rules.rounds, alpha=rules.alpha,
        min_effect=rules.min_effect, keep=rules.keep, halving=halving,
    )  # fmt: skip
    for a in alive:
        if modes is not None and a.cid in modes:
            a.history[-1]["modes"] = modes[a.cid]
    left = [a for a in arms if a.alive]
    stop = None
    if len(left) <= rules.keep:
        stop = "finalists"
    elif left and all(inside_band(rules, a.history[-1].get("modes")) for a in left):
        stop = "inside the band"
    return decision | {"stop": stop}


def inside_band(rules: Rules, modes: dict | None) -> bool:
    """Is every mode's projected 95% interval inside the goal's range (vs-field, nerf)?"""
    if rules.kind == "matchup-floor" or not modes:
        return False
    lo, hi = rules.band
    return all(lo <= m["projected_lo"] and m["projected_hi"] <= hi for m in modes.values())


def arm_rows(arms) -> list:
    """The arms in rank order (``ranked``) as records: cid, alive, the round it was dropped
    in (1-based), why, and its history; what ``finalists`` reads and race.json keeps."""
    return [
        {
            "cid": a.cid,
            "alive": a.alive,
            "dropped_round": None if a.dropped_round is None else a.dropped_round + 1,
            "reason": a.reason,
            "history": a.history,
        }
        for a in ranked(arms)
    ]


def finalists(rules: Rules, rows: list, room: int) -> list:
    """The cids replayed: the best ``keep`` survivors of the race (``arm_rows``, rank
    order), and any raced edit projected inside the band (up to ``2 * keep`` in all), at
    most ``room`` (what the budget can replay)."""
    out = [a["cid"] for a in rows if a["alive"]][: rules.keep]
    if rules.kind != "matchup-floor":
        for a in rows:
            last = a["history"][-1].get("modes") if a["history"] else None
            if inside_band(rules, last) and a["cid"] not in out and len(out) < 2 * rules.keep:
                out.append(a["cid"])
    return out[:room]


def pooled_effect(result: dict) -> float:
    """A replayed edit's confirmed effect on the goal: its players' objective effects
    averaged (``result["objective_by_player"]``)."""
    ob = result["objective_by_player"]
    return sum(v["effect"] for v in ob.values()) / len(ob)


def replay_order(results: dict) -> list:
    """The replayed cids ranked: the confirmed first, each group by its pooled effect."""
    return sorted(results, key=lambda c: (not results[c]["confirmed"], -pooled_effect(results[c])))


def accept(rules: Rules, results: dict) -> str | None:
    """The accepted edit of a step: the confirmed one with the largest pooled effect, when
    that effect is at least ``min_effect`` (``results``: {cid: {"confirmed",
    "objective_by_player"}}); None when no edit clears it."""
    for cid in replay_order(results):
        if not results[cid]["confirmed"]:
            return None
        return cid if pooled_effect(results[cid]) >= rules.min_effect else None
    return None


def reached(rules: Rules, projected: dict, cells: list) -> bool:
    """Does an accepted edit's confirmed projection (point estimate) meet the goal: every
    mode's ``projected`` share in the band (vs-field, nerf), every matchup ``cells`` row's
    (matchup-floor)?"""
    lo, hi = rules.band
    if rules.kind == "matchup-floor":
        return all(lo <= r["projected"] <= hi for r in cells if r["projected"] is not None)
    return all(lo <= v <= hi for v in projected.values())
