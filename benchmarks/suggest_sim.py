"""Calibrated simulations of `kalarite suggest`'s decision, whole: each simulated step runs
the one decision module (results/suggest/decision.py), from the base's first games to the
accepted edit: the direction, the race's rounds and stops (``after_round``), the finalists,
the confirmation under two players and the acceptance. Only the games are simulated.

The calibration is the measured one (../shared/suggest-design.md, section 3.2): K candidate
edits, each flipping a share ``q ~ U(0.01, 0.15)`` of the paired games (the measured 0.014 to
0.093); effects 70% null, 25% +-0.5..2 points, 5% +2..4 points; per pair ``d`` in {-1, 0, +1}
with mean the edit's effect. The base wins ``BASE_SHARE`` of its games (Everfrost's 32%
against the field), the goal's band is 45-52% (a buff); the effects are the same under both
confirming players.

    python -m benchmarks.suggest_sim                    # every figure, 200 runs each
    python -m benchmarks.suggest_sim --runs 50 --json   # fewer runs, one JSON object
    python -m benchmarks.suggest_sim --out benchmarks/results/suggest_sim.json

Figures:
- ``whole_null`` (the error rate): steps where no edit does anything (every edit's effect 0;
  its games still flip both ways; 30% of the edits to a card never drawn): the share of
  steps that confirm a false suggestion, and that accept one (target <= alpha);
- ``whole_calibrated``: steps on the calibrated mix: the share that accept an edit, that
  accept one whose true effect is at least the smallest effect, that accept one whose true
  effect is not positive (an error), and that accept one within 0.5 points of the best;
- ``whole_power``: steps of K - 1 null edits and one planted edit of +1, +2 or +3 points
  (flip share 8%): the share that accept the planted edit (the power);
- ``screen``: the share of runs whose race pick (its leader at its end) is within 0.5 points
  of the best candidate, and the games the race used over those of 4,000 fixed games per
  candidate (the base's games counted on both sides);
- ``drop_aa``: how often the race's decisions (not the budget cut) drop an edit whose true
  effect equals the smallest effect (it must not be dropped): at most alpha;
- ``drop_power``: the share of null or worse edits the decisions drop, round by round, in a
  race with one edit 3 points better (the decisions' power, the budget cut off);
- ``power``: the share of confirmations of a finalist with a true effect of +1, +2 and +3
  points at the default confirmation size.
"""

import argparse
import datetime
import hashlib
import json
import math
import pathlib

import numpy as np

from results.suggest import decision
from results.suggest.decision import Arm, Rules, ranked
from sim.suggest.grammar import BUFF

K = 128
FIRST = 250  # pairs per candidate in round 1 (25 per matchup over 10 matchups and modes)
ROUNDS = 6
FIXED = 4000
CONFIRM_PAIRS = 3000  # per player (300 per matchup and mode over 10)
ALPHA = 0.05
MIN_EFFECT = 0.01
KEEP = 3
BAND = (0.45, 0.52)
BASE_SHARE = 0.32
PLAYERS = ("top", "second")
RULES = Rules("vs-field", BAND, MIN_EFFECT, ALPHA, ROUNDS, KEEP)


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


def race(rng, eff, q, *, first=FIRST, rounds=ROUNDS, keep=KEEP, alpha=ALPHA,
         min_effect=MIN_EFFECT, halving=True):  # fmt: skip
    """One simulated race decided by ``decision.after_round``: (arms, games used
    (candidates and base), per-arm values)."""
    rules = Rules("vs-field", BAND, min_effect, alpha, rounds, keep)
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
        if decision.after_round(u, arms, r, rules, k0=k, halving=halving)["stop"]:
            break
    return arms, games, data


def step(rng, eff, q, *, rules=RULES, first=FIRST, confirm_pairs=CONFIRM_PAIRS):
    """One simulated step of suggest, every choice made by results.suggest.decision: the
    direction from the base's first ``first`` games, the race, the finalists, their
    confirmation under two players on fresh games and the acceptance. Returns {"direction",
    "finalists", "confirmed" (cids), "accepted" (an index or None), "arms", "games"}."""
    base = (rng.uniform(0, 1, first) < BASE_SHARE).astype(float)
    m, lo, hi = decision.share95(base)
    rates = {"pooled": {"mean": m, "lo": lo, "hi": hi}}
    cells = [{"mode": "high-form", "opponent": "field", "mean": m}]
    dirn = decision.direction(rules, rates, cells)
    out = {"direction": dirn["direction"], "finalists": [], "confirmed": [], "accepted": None}
    if dirn["met"] or dirn["direction"] != BUFF:  # the simulated edits are buffs
        return out | {"arms": [], "games": first}
    arms, games, _ = race(rng, eff, q, first=first, rounds=rules.rounds, keep=rules.keep,
                          alpha=rules.alpha, min_effect=rules.min_effect)  # fmt: skip
    fin = decision.finalists(rules, decision.arm_rows(arms), room=rules.keep)
    idx = {c: int(c[1:]) for c in fin}
    per_player = {
        p: {c: pairs(rng, eff[[i]], q[[i]], confirm_pairs)[0] for c, i in idx.items()}
        for p in PLAYERS
    }
    conf = decision.confirm(per_player, rules.alpha)
    results = {
        c: {
            "confirmed": conf[c]["confirmed"],
            "objective_by_player": {p: {"effect": float(per_player[p][c].mean())} for p in PLAYERS},
        }
        for c in fin
    }
    accepted = decision.accept(rules, results)
    return out | {
        "finalists": [idx[c] for c in fin],
        "confirmed": [idx[c] for c in fin if conf[c]["confirmed"]],
        "accepted": None if accepted is None else idx[accepted],
        "arms": arms,
        "games": games,
    }


def whole_null_figure(runs, seed=2, zero_share=0.3):
    """Steps where no edit does anything; ``zero_share`` of them edit a card the deck never
    draws (every game unchanged), the rest flip games both ways."""
    rng = np.random.default_rng(seed)
    confirmed = accepted = 0
    for _ in range(runs):
        eff, q = calibrated(rng, null=True)
        never = rng.uniform(0, 1, K) < zero_share
        res = step(rng, eff, np.where(never, 1e-9, q))
        confirmed += bool(res["confirmed"])
        accepted += res["accepted"] is not None
    return {"runs": runs, "steps_confirming_a_false_suggestion": confirmed / runs,
            "steps_accepting_a_false_suggestion": accepted / runs}  # fmt: skip


def whole_calibrated_figure(runs, seed=6):
    """Steps on the calibrated mix: how often an edit is accepted, and what it truly is."""
    rng = np.random.default_rng(seed)
    n = {"accepted": 0, "useful": 0, "not_positive": 0, "near_best": 0}
    for _ in range(runs):
        eff, q = calibrated(rng)
        i = step(rng, eff, q)["accepted"]
        if i is None:
            continue
        n["accepted"] += 1
        n["useful"] += eff[i] >= MIN_EFFECT
        n["not_positive"] += eff[i] <= 0
        n["near_best"] += eff[i] >= eff.max() - 0.005
    return {
        "runs": runs,
        "steps_accepting_an_edit": n["accepted"] / runs,
        "steps_accepting_an_edit_of_at_least_the_smallest_effect": n["useful"] / runs,
        "steps_accepting_an_edit_without_a_positive_effect": n["not_positive"] / runs,
        "steps_accepting_an_edit_within_half_a_point_of_the_best": n["near_best"] / runs,
    }


def whole_power_figure(runs, seed=9, q=0.08):
    """Steps of K - 1 null edits (calibrated flip shares) and one planted edit: the share
    that accept the planted one."""
    rng = np.random.default_rng(seed)
    out = {}
    for effect in (0.01, 0.02, 0.03):
        hit = 0
        for _ in range(runs):
            eff, qs = calibrated(rng, null=True)
            planted = int(rng.integers(K))
            eff[planted], qs[planted] = effect, q
            hit += step(rng, eff, qs)["accepted"] == planted
        out[f"{effect * 100:+.0f} points"] = hit / runs
    return {"runs": runs, "flip_share": q, "planted_edit_accepted": out}


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
    by_round = [FIRST * 2**r for r in range(rounds)]
    return {"runs": runs, "pairs_by_round": by_round,
            "weak_edits_dropped_by_round": [float(x / n_weak) for x in dropped]}  # fmt: skip


def power_figure(runs, seed=4, q=0.08):
    rng = np.random.default_rng(seed)
    out = {}
    for effect in (0.01, 0.02, 0.03):
        ok = 0
        for _ in range(runs):
            per_player = {
                p: {"c001": pairs(rng, np.array([effect]), np.array([q]), CONFIRM_PAIRS)[0]}
                for p in PLAYERS
            }
            # three finalists replayed: the level is alpha / 3
            for p in PLAYERS:
                per_player[p]["c002"] = per_player[p]["c003"] = np.zeros(2)
            ok += decision.confirm(per_player, ALPHA)["c001"]["confirmed"]
        out[f"{effect * 100:+.0f} points"] = ok / runs
    return {"runs": runs, "flip_share": q, "pairs_per_player": CONFIRM_PAIRS, "confirmed": out}


def figures(runs) -> dict:
    """Every figure at ``runs`` runs (the drop figures at a quarter, at least 20)."""
    few = max(20, runs // 4)
    source = pathlib.Path(decision.__file__).read_bytes()
    return {
        "whole_null": whole_null_figure(runs),
        "whole_calibrated": whole_calibrated_figure(runs),
        "whole_power": whole_power_figure(few),
        "screen": screen_figure(runs),
        "drop_aa": drop_aa_figure(few),
        "drop_power": drop_power_figure(few),
        "power": power_figure(runs),
        "settings": {
            "K": K,
            "first": FIRST,
            "rounds": ROUNDS,
            "alpha": ALPHA,
            "min_effect": MIN_EFFECT,
            "keep": KEEP,
            "band": list(BAND),
            "base_share": BASE_SHARE,
            "confirm_pairs": CONFIRM_PAIRS,
        },  # fmt: skip
        "decision_module": {
            "path": "results/suggest/decision.py",
            "sha256": hashlib.sha256(source).hexdigest()[:16],
        },
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--out", default=None, help="also write the figures to this JSON file")
    args = ap.parse_args(argv)
    res = figures(args.runs)
    if args.out:
        stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")
        record = {"command": f"python -m benchmarks.suggest_sim --runs {args.runs}",
                  "date": stamp} | res  # fmt: skip
        pathlib.Path(args.out).write_text(json.dumps(record, indent=1) + "\n")
    if args.json:
        print(json.dumps(res, indent=1))
        return
    for line in summary_lines(res):
        print(line)
    if math.isnan(res["screen"]["games_share_of_fixed_4000"]):
        raise SystemExit(1)


def summary_lines(res) -> list:
    """The figures in words, one line each."""
    wn, wc, wp = res["whole_null"], res["whole_calibrated"], res["whole_power"]
    s, dp = res["screen"], res["drop_power"]
    by_round = ", ".join(
        f"{n:,} pairs: {x:.0%}"
        for n, x in zip(dp["pairs_by_round"], dp["weak_edits_dropped_by_round"], strict=True)
    )
    return [
        f"whole step, null (error rate): {wn['steps_accepting_a_false_suggestion']:.1%} accept "
        f"and {wn['steps_confirming_a_false_suggestion']:.1%} confirm a false suggestion "
        f"({wn['runs']} steps)",
        f"whole step, calibrated: {wc['steps_accepting_an_edit']:.0%} accept an edit, "
        f"{wc['steps_accepting_an_edit_of_at_least_the_smallest_effect']:.0%} one of at least "
        f"the smallest effect, {wc['steps_accepting_an_edit_without_a_positive_effect']:.1%} "
        f"one without a positive effect, "
        f"{wc['steps_accepting_an_edit_within_half_a_point_of_the_best']:.0%} one within 0.5 "
        f"points of the best ({wc['runs']} steps)",
        f"whole step, power (a planted edit accepted): {wp['planted_edit_accepted']} "
        f"({wp['runs']} steps each)",
        f"screen: pick within 0.5 points of the best in {s['pick_within_half_point']:.0%} of "
        f"{s['runs']} runs, {s['games_share_of_fixed_4000']:.0%} of the games of 4,000 fixed "
        f"(at most {s['games_share_max']:.0%})",
        f"drop A/A: {res['drop_aa']['races_dropping_an_edit_at_the_smallest_effect']:.1%} of "
        f"{res['drop_aa']['runs']} races dropped an edit at the smallest effect",
        f"drop power: share of null or worse edits dropped by the decisions after each round "
        f"({by_round})",
        f"confirmation power: {res['power']['confirmed']}",
    ]


if __name__ == "__main__":
    main()
