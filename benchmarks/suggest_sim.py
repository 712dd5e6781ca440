"""Calibrated simulations of `kalarite suggest`'s decisions (results/suggest/race.py): the
race's screening efficiency, its null races (A/A), and the power of its confirmation.

The calibration is the measured one (../shared/suggest-design.md, section 3.2): K candidate
edits, each flipping a share ``q ~ U(0.01, 0.15)`` of the paired games (the measured 0.014 to
0.093); effects 70% null, 25% +-0.5..2 points, 5% +2..4 points; per pair ``d`` in {-1, 0, +1}
with mean the edit's effect. The race itself is `results.suggest.race.decide_round`, the very
function the real race calls; only the games are simulated.

    python -m benchmarks.suggest_sim                    # every figure, 200 runs each
    python -m benchmarks.suggest_sim --runs 50 --json   # fewer runs, one JSON object

Figures:
- ``screen``: the share of runs whose pick (the race's leader at its end) is within 0.5
  points of the best candidate, and the games the race used over those of 4,000 fixed games
  per candidate (the base's games counted on both sides);
- ``null``: races where no edit does anything (every edit's effect 0; its games still flip
  both ways), then the confirmation of the finalists on fresh games under two players: the
  share of races with a confirmed (false) suggestion;
- ``drop_aa``: how often the decision rules (not the budget cut) drop an edit whose true
  effect equals the smallest effect (it must not be dropped): at most alpha;
- ``drop_power``: the share of null or worse edits the decisions drop, round by round, in a
  race with one edit 3 points better (the decisions' power, the budget cut off);
- ``power``: the share of confirmations of a finalist with a true effect of +1, +2 and +3
  points at the default confirmation size.
"""

import argparse
import json
import math

import numpy as np

from results.suggest.race import Arm, confirm, decide_round, ranked

K = 128
FIRST = 250  # pairs per candidate in round 1 (25 per matchup over 10 matchups and modes)
ROUNDS = 6
FIXED = 4000
CONFIRM_PAIRS = 3000  # per player (300 per matchup and mode over 10)
ALPHA = 0.05
MIN_EFFECT = 0.01


def calibrated(rng, k=K, null=False):
    """(effect, flip share) of ``k`` candidate edits."""
    q = rng.uniform(0.01, 0.15, k)
    kind = rng.uniform(0, 1, k)
    eff = np.zeros(k)
    if not null:
        mid = (kind >= 0.70) & (kind < 0.95)
        eff[mid] = rng.uniform(0.005, 0.02, mid.sum()) * rng.choice([-1, 1], mid.sum())
        top = kind >= 0.95
        eff[top] = rng.uniform(0.02, 0.04, top.sum())
    eff = np.clip(eff, -q, q)
    return eff, q


def pairs(rng, eff, q, n):
    """Per-pair differences (rows: edits, columns: ``n`` games) in {-1, 0, +1}."""
    k = len(eff)
    flip = rng.uniform(0, 1, (k, n)) < q[:, None]
    up = rng.uniform(0, 1, (k, n)) < ((1 + eff / q) / 2)[:, None]
    return np.where(flip, np.where(up, 1.0, -1.0), 0.0)


def race(rng, eff, q, *, first=FIRST, rounds=ROUNDS, keep=3, alpha=ALPHA,
         min_effect=MIN_EFFECT, halving=True):  # fmt: skip
    """One simulated race: (arms, games used (candidates and base), per-arm values)."""
    k = len(eff)
    arms = [Arm(f"c{i:03d}", i) for i in range(k)]
    data = [np.zeros(0) for _ in range(k)]
    games = 0
    done = 0
    for r in range(rounds):
        alive = [i for i, a in enumerate(arms) if a.alive]
        if not alive:
            break
        n_r = first * 2**r
        w = n_r - done
        new = pairs(rng, eff[alive], q[alive], w)
        for j, i in enumerate(alive):
            data[i] = np.concatenate([data[i], new[j]])
        games += w * (len(alive) + 1)  # the candidates and the base
        done = n_r
        u = np.array([data[i] for i in alive])
        decide_round(u, arms, r, k0=k, rounds=rounds, alpha=alpha, min_effect=min_effect,
                     keep=keep, halving=halving)  # fmt: skip
        if sum(a.alive for a in arms) <= keep:
            break
    return arms, games, data


def screen_figure(runs, seed=1):
    rng = np.random.default_rng(seed)
    hits, used = 0, []
    fixed = K * FIXED + FIXED
    for _ in range(runs):
        eff, q = calibrated(rng)
        arms, games, _ = race(rng, eff, q)
        pick = int(ranked(arms)[0].cid[1:])
        hits += eff[pick] >= eff.max() - 0.005
        used.append(games / fixed)
    return {
        "runs": runs,
        "pick_within_half_point": hits / runs,
        "games_share_of_fixed_4000": float(np.mean(used)),
        "games_share_max": float(np.max(used)),
    }


def finalists(arms, keep=3):
    return [a for a in ranked(arms) if a.alive][:keep]


def null_figure(runs, seed=2, zero_share=0.3):
    """Null races: no edit has an effect; ``zero_share`` of them are edits to a card the
    deck never draws (every game unchanged), the rest flip games both ways."""
    rng = np.random.default_rng(seed)
    false = 0
    for _ in range(runs):
        eff, q = calibrated(rng, null=True)
        never = rng.uniform(0, 1, K) < zero_share
        q = np.where(never, 1e-9, q)
        arms, _, _ = race(rng, eff, q)
        fin = [int(a.cid[1:]) for a in finalists(arms)]
        per_player = {
            p: {f"c{i:03d}": pairs(rng, eff[[i]], q[[i]], CONFIRM_PAIRS)[0] for i in fin}
            for p in ("top", "second")
        }
        res = confirm(per_player, ALPHA)
        false += any(v["confirmed"] for v in res.values())
    return {"runs": runs, "races_with_a_confirmed_false_suggestion": false / runs}


def drop_aa_figure(runs, seed=3):
    """Races of K edits at exactly the smallest effect (q = 0.08): how often the decision
    rules (worse than the leader, cannot reach the smallest effect) drop any of them."""
    rng = np.random.default_rng(seed)
    bad = 0
    for _ in range(runs):
        eff = np.full(K, MIN_EFFECT)
        q = np.full(K, 0.08)
        arms, _, _ = race(rng, eff, q, halving=False)
        bad += any(a.reason and not a.reason.startswith("cut") for a in arms)
    return {"runs": runs, "races_dropping_an_edit_at_the_smallest_effect": bad / runs}


def drop_power_figure(runs, seed=5):
    """Power of the two decisions: in races of 16 edits (one at +3 points, the rest at 0
    or -1 point, flip share 0.08), the share of the null and worse edits that the decisions
    (not the budget cut) drop by the end of each round, the budget cut off."""
    rng = np.random.default_rng(seed)
    rounds = 5
    dropped = np.zeros(rounds)
    n_weak = 0
    for _ in range(runs):
        eff = np.r_[0.03, np.zeros(10), np.full(5, -0.01)]
        q = np.full(16, 0.08)
        arms, _, _ = race(rng, eff, q, rounds=rounds, halving=False, keep=1)
        for a in arms[1:]:
            n_weak += 1
            if a.dropped_round is not None and not a.reason.startswith("cut"):
                dropped[a.dropped_round :] += 1
    pairs = [FIRST * 2**r for r in range(rounds)]
    return {"runs": runs, "pairs_by_round": pairs,
            "weak_edits_dropped_by_round": [float(x / n_weak) for x in dropped]}  # fmt: skip


def power_figure(runs, seed=4, q=0.08):
    rng = np.random.default_rng(seed)
    out = {}
    for effect in (0.01, 0.02, 0.03):
        ok = 0
        for _ in range(runs):
            per_player = {
                p: {"c001": pairs(rng, np.array([effect]), np.array([q]), CONFIRM_PAIRS)[0]}
                for p in ("top", "second")
            }
            # three finalists replayed: the level is alpha / 3
            per_player["top"]["c002"] = per_player["second"]["c002"] = np.zeros(2)
            per_player["top"]["c003"] = per_player["second"]["c003"] = np.zeros(2)
            ok += confirm(per_player, ALPHA)["c001"]["confirmed"]
        out[f"{effect * 100:+.0f} points"] = ok / runs
    return {"runs": runs, "flip_share": q, "pairs_per_player": CONFIRM_PAIRS, "confirmed": out}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    res = {
        "screen": screen_figure(args.runs),
        "null": null_figure(args.runs),
        "drop_aa": drop_aa_figure(max(20, args.runs // 4)),
        "drop_power": drop_power_figure(max(20, args.runs // 4)),
        "power": power_figure(args.runs),
        "settings": {
            "K": K,
            "first": FIRST,
            "rounds": ROUNDS,
            "alpha": ALPHA,
            "min_effect": MIN_EFFECT,
            "confirm_pairs": CONFIRM_PAIRS,
        },  # fmt: skip
    }
    if args.json:
        print(json.dumps(res, indent=1))
        return
    s = res["screen"]
    print(
        f"screen: pick within 0.5 points of the best in {s['pick_within_half_point']:.0%} of "
        f"{s['runs']} runs, {s['games_share_of_fixed_4000']:.0%} of the games of 4,000 fixed "
        f"(at most {s['games_share_max']:.0%})"
    )
    print(
        f"null races: {res['null']['races_with_a_confirmed_false_suggestion']:.1%} with a "
        f"confirmed false suggestion ({res['null']['runs']} races)"
    )
    print(
        f"drop A/A: {res['drop_aa']['races_dropping_an_edit_at_the_smallest_effect']:.1%} of "
        f"{res['drop_aa']['runs']} races dropped an edit at the smallest effect"
    )
    dp = res["drop_power"]
    print(
        "drop power: share of null or worse edits dropped by the decisions after each round ("
        + ", ".join(f"{n:,} pairs: {x:.0%}" for n, x in zip(dp["pairs_by_round"],
                                                            dp["weak_edits_dropped_by_round"],
                                                            strict=True))
        + ")"
    )  # fmt: skip
    print(f"confirmation power: {res['power']['confirmed']}")
    if math.isnan(s["games_share_of_fixed_4000"]):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
