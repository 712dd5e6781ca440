"""The stability rule (results/analysis/stability.py) on simulated studies: how often it calls
two identical players player-sensitive or stable, and its power against a planted move, per
mode at fixed sizes and for the design the project runs.

A simulated mode is six decks in self-play, mirror matches left out: every pairing of two
decks plays G = n / 5 games (n: games a deck against the field), each game won by either deck
(Bradley-Terry probabilities from ``STRENGTHS``, near the planner's Deathmatch and High Form
rates of the README) or a shared win (``DRAW_RATE``). Per mode (``aa``, ``power``): two sets
of games (players A and B, independent deals) at a fixed size. ``small_counts``: identical
players at 30, 100 and 300 games a deck (alpha 0.05) and at the first look of a cap-40 study
(50 a deck, its share of alpha), under the rule and under the plug-in rule before it, on the
same tables. ``design``: the design actually run (``design_study``): both modes, B dealt A's
deals (outcomes correlated 0.07 within a pairing, paired through the rule's joint tables),
looked at as ``kalarite study --until decided`` looks, the study's verdict over its modes.
Every table goes through the project's own ``deck_moves.moves``, ``stability.rule_inputs``,
``stability.decide`` and ``players_differ``; tests/test_stability_rule.py and
tests/test_stability_corrections.py run small versions;

    python -m benchmarks.stability_rule --out benchmarks/results/stability_rule.json

writes the full one (a few minutes of one core).
"""

import argparse
import json
import math
import pathlib
import time

import numpy as np
from scipy.stats import norm

from results import looks, stats
from results.analysis import deck_moves
from results.analysis.stability import (
    ALPHA,
    MARGIN_POINTS,
    SENSITIVE,
    STABLE,
    UNDETERMINED,
    combine,
    decide,
    players_differ,
    rule_inputs,
)

# log-strengths fitted to the planner's field rates (README, seed 31): Deathmatch 57.5 / 56.9
# / 65.4 / 31.5 / 31.0 / 57.7%, High Form 51.8 / 60.9 / 65.0 / 27.3 / 33.3 / 61.8%
STRENGTHS = {
    "deathmatch": np.array([0.27, 0.25, 0.56, -0.67, -0.69, 0.28]),
    "high-form": np.array([0.07, 0.40, 0.55, -0.85, -0.61, 0.43]),
}
DRAW_RATE = 0.01  # shared wins: 0 in 10,080 planner games, a little here to exercise them
PAIRINGS_PER_DECK = 5


def win_matrix(strengths, planted=None) -> np.ndarray:
    """P[i, j]: deck i's chance to win a decisive game against deck j. ``planted``: (deck,
    points) added to that deck's chance against every other deck, so its rate against the
    field moves by that many points and the others' by a fifth of it the other way."""
    s = np.asarray(strengths, float)
    p = 1 / (1 + np.exp(-(s[:, None] - s[None, :])))
    if planted:
        d, pts = planted
        p[d, :] = np.clip(p[d, :] + pts / 100, 0.01, 0.99)
        p[:, d] = 1 - p[d, :]
        p[d, d] = 0.5
    return p


def field_rates(p) -> np.ndarray:
    k = len(p)
    return (p.sum(axis=1) - 0.5) / (k - 1)


def simulate(p, games_per_pairing: int, reps: int, rng) -> tuple:
    """``reps`` win tables of one player: (wins, draws), each (reps, K, K)."""
    k = len(p)
    wins, draws = np.zeros((reps, k, k)), np.zeros((reps, k, k))
    for i in range(k):
        for j in range(i + 1, k):
            q = (1 - DRAW_RATE) * np.array([p[i, j], p[j, i]])
            out = rng.multinomial(games_per_pairing, [q[0], q[1], DRAW_RATE], size=reps)
            wins[:, i, j], wins[:, j, i] = out[:, 0], out[:, 1]
            draws[:, i, j] = draws[:, j, i] = out[:, 2]
    return wins, draws


def expected_table(p, games_per_pairing: int) -> tuple:
    """The win table at its expectation (fractional counts): what the rule sees of a truth."""
    k = len(p)
    wins = (1 - DRAW_RATE) * games_per_pairing * p * (1 - np.eye(k))
    draws = DRAW_RATE * games_per_pairing * (1 - np.eye(k))
    return wins, draws


def verdicts(
    table_a, table_b, margin=MARGIN_POINTS, alpha=ALPHA, rule="score", global_test=True
) -> dict:
    """The rule on every replicate: ``verdict`` (array of words), ``differ`` (the global
    test's rejections), ``games_needed`` (per replicate, None unless undetermined). ``rule``:
    "score" (the rule's own inputs, ``stability.rule_inputs``) or "plug-in" (the rule before
    the 2026-12-06 audit: the plug-in SE, no continuity correction), on the same tables.
    A replicate that no deck's test can decide (no raw beyond-p below alpha, not every
    deck within) is undetermined without the full rule: Holm only raises p-values."""
    m = deck_moves.moves(*table_a, *table_b)
    delta, se, games, cc = rule_inputs(m)
    if rule == "plug-in":
        se = 100 * np.sqrt(np.maximum(np.diagonal(m["cov"], axis1=-2, axis2=-1), 0.0))
        cc = np.zeros_like(se)
    reps = delta.shape[0]
    out = np.full(reps, UNDETERMINED, dtype=object)
    needed = [None] * reps
    far = np.maximum(np.abs(delta) - cc, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_raw = np.where(se > 0, norm.sf((far - margin) / se), (far > margin).astype(float))
    z = norm.ppf(1 - alpha)
    all_within = (np.abs(delta) + cc + z * se < margin).all(axis=-1)
    for r in np.flatnonzero((p_raw.min(axis=-1) < alpha) | all_within):
        d = decide(delta[r], se[r], games[r], margin, alpha, cc[r])
        out[r] = d["verdict"]
        needed[r] = d["games_needed"]
    differ = []
    for r in range(reps if global_test else 0):
        g = players_differ(m["delta"][r], m["cov"][r], alpha)
        differ.append(bool(g and g["differ"]))
    return {"verdict": out.astype(str), "differ": np.array(differ), "games_needed": needed}


def share(hits: int, n: int) -> list:
    """A share with its 95% Wilson interval: [share, lo, hi]."""
    ci = stats.proportion(hits, n)
    return [round(hits / n, 5), round(ci["lo"], 5), round(ci["hi"], 5)]


def rates(v: dict) -> dict:
    """The share of each verdict, and of the global test's rejections; ``sensitive_ci``:
    the player-sensitive share with its 95% interval."""
    n = len(v["verdict"])
    out = {
        "stable": float(np.mean(v["verdict"] == STABLE)),
        "player-sensitive": float(np.mean(v["verdict"] == SENSITIVE)),
        "undetermined": float(np.mean(v["verdict"] == UNDETERMINED)),
        "sensitive_ci": share(int(np.sum(v["verdict"] == SENSITIVE)), n),
        "reps": n,
    }
    if len(v["differ"]):
        out["players_differ"] = float(np.mean(v["differ"]))
    return out


def aa(strengths, games_a_deck: int, reps: int, seed: int, alpha=ALPHA, rule="score") -> dict:
    """Identical players: both sets drawn from the same truth."""
    rng = np.random.default_rng(seed)
    p = win_matrix(strengths)
    g = games_a_deck // PAIRINGS_PER_DECK
    tables = simulate(p, g, reps, rng), simulate(p, g, reps, rng)
    return rates(verdicts(*tables, alpha=alpha, rule=rule, global_test=rule == "score"))


def small_counts(strengths, games_a_deck: int, reps: int, seed: int, alpha=ALPHA) -> dict:
    """Identical players at a small size: the rule and the plug-in rule before it, on the
    same simulated tables (F4 of the 2026-12-06 audit)."""
    rng = np.random.default_rng(seed)
    p = win_matrix(strengths)
    g = games_a_deck // PAIRINGS_PER_DECK
    tables = simulate(p, g, reps, rng), simulate(p, g, reps, rng)
    out = {"alpha": alpha}
    for rule in ("score", "plug-in"):
        out[rule] = rates(verdicts(*tables, alpha=alpha, rule=rule, global_test=False))
    return out


def planned_size(strengths, planted, pilot_games_a_deck: int = 600) -> int:
    """The games a deck the rule says a planted move needs: its ``games_needed`` on the
    expected tables of a pilot study (the truth seen without noise)."""
    g = pilot_games_a_deck // PAIRINGS_PER_DECK
    a = expected_table(win_matrix(strengths), g)
    b = expected_table(win_matrix(strengths, planted), g)
    delta, se, games, cc = rule_inputs(deck_moves.moves(*a, *b))
    rule = decide(delta, se, games, continuity=cc)
    if rule["verdict"] == SENSITIVE:
        return pilot_games_a_deck
    return int(rule["games_needed"])


def power(strengths, planted, games_a_deck: int, reps: int, seed: int) -> dict:
    """How often the rule calls a planted move player-sensitive at ``games_a_deck``."""
    rng = np.random.default_rng(seed)
    g = math.ceil(games_a_deck / PAIRINGS_PER_DECK)
    a = simulate(win_matrix(strengths), g, reps, rng)
    b = simulate(win_matrix(strengths, planted), g, reps, rng)
    return {**rates(verdicts(a, b)), "games_a_deck": g * PAIRINGS_PER_DECK}


# --- the design the project runs: two modes, shared deals, --until decided -------------------

DEAL_CORRELATION = 0.07  # within a pairing, A's and B's outcomes on one deal (2026-12-03)


def joint_probabilities(q_a, q_b, rho: float = DEAL_CORRELATION) -> np.ndarray:
    """P(outcome under A, outcome under B) of one shared deal, 3 x 3: with probability
    ``rho`` one uniform draw decides both games (the outcomes' quantiles coincide), else
    they are independent; the outcomes' correlation is then about ``rho``, and each
    player's outcomes keep their own probabilities ``q_a``, ``q_b``."""
    ca, cb = np.cumsum([0.0, *q_a]), np.cumsum([0.0, *q_b])
    same = np.clip(
        np.minimum(ca[1:, None], cb[None, 1:]) - np.maximum(ca[:-1, None], cb[None, :-1]), 0, 1
    )
    return rho * same + (1 - rho) * np.outer(q_a, q_b)


def _outcomes(p, i, j):
    return (1 - DRAW_RATE) * np.array([p[i, j], p[j, i], 0.0]) + np.array([0, 0, DRAW_RATE])


def design_study(truths: dict, cap: int, reps: int, seed: int, rho=DEAL_CORRELATION) -> dict:
    """``reps`` simulated studies of the design actually run: every mode of ``truths``
    (mode -> (win matrix of A, of B)), six decks, every pairing ``cap`` games, B dealt A's
    deals (paired through the rule's joint tables), looked at as ``kalarite study --until
    decided`` looks (results/looks.py: each look's tests at its share of alpha), stopping
    when every mode is stable or player-sensitive. The study's verdict (``combine`` over the
    modes, at the look it stopped or at the cap) and each mode's, with the stop look."""
    rng = np.random.default_rng(seed)
    plan = looks.plan(cap)
    alphas = looks.spent(plan)
    k = len(next(iter(truths.values()))[0])
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    # per mode, look and pairing: the joint tables' increments, (reps, 3, 3)
    counts = {}
    for mode, (pa, pb) in truths.items():
        prob = [joint_probabilities(_outcomes(pa, i, j), _outcomes(pb, i, j)) for i, j in pairs]
        done, per_look = 0, []
        for g in plan:
            per_look.append(
                [rng.multinomial(g - done, q.ravel(), size=reps).reshape(reps, 3, 3) for q in prob]
            )
            done = g
        counts[mode] = np.cumsum(np.array(per_look), axis=0)  # (looks, pairs, reps, 3, 3)
    study, by_mode, stops, paired = [], {m: [] for m in truths}, [], len(pairs)
    for r in range(reps):
        for n, alpha in enumerate(alphas):
            words = {}
            for mode in truths:
                joint = {pr: counts[mode][n, x, r] for x, pr in enumerate(pairs)}
                wa, da, wb, db = (np.zeros((k, k)) for _ in range(4))
                for (i, j), t in joint.items():
                    wa[i, j], wa[j, i], da[i, j] = t[0].sum(), t[1].sum(), t[2].sum()
                    wb[i, j], wb[j, i], db[i, j] = t[:, 0].sum(), t[:, 1].sum(), t[:, 2].sum()
                    da[j, i], db[j, i] = da[i, j], db[i, j]
                m = deck_moves.moves(wa, da, wb, db, joint)
                paired = min(paired, m["paired"])
                delta, se, games, cc = rule_inputs(m)
                words[mode] = decide(delta, se, games, MARGIN_POINTS, alpha, cc)["verdict"]
            if UNDETERMINED not in words.values() or n == len(alphas) - 1:
                break
        study.append(combine(words.values()))
        for mode, w in words.items():
            by_mode[mode].append(w)
        stops.append(n + 1)
    study, stops = np.array(study), np.array(stops)

    def shares(v):
        return {w: share(int(np.sum(v == w)), reps) for w in (STABLE, SENSITIVE, UNDETERMINED)}

    return {
        "cap_games_a_pairing": cap,
        "games_a_deck_at_cap": cap * (k - 1),
        "looks": plan,
        "alpha_spent": [round(a, 8) for a in alphas],
        "deal_correlation": rho,
        "paired_pairings": paired,
        "reps": reps,
        "study": shares(study),
        "modes": {m: shares(np.array(v)) for m, v in by_mode.items()},
        "stopped_at_look": {str(n + 1): float(np.mean(stops == n + 1)) for n in range(len(plan))},
    }


def design_cells(reps: int, seed: int) -> dict:
    """The credibility study's design (cap 1,600 a pairing): identical players, and one deck
    moved +8 points in Deathmatch (High Form identical) at caps 1,600 and 480."""
    same = {m: (win_matrix(s), win_matrix(s)) for m, s in STRENGTHS.items()}
    moved = dict(same)
    moved["deathmatch"] = (
        win_matrix(STRENGTHS["deathmatch"]),
        win_matrix(STRENGTHS["deathmatch"], (0, 8)),
    )
    return {
        "identical players, cap 1,600": design_study(same, 1600, reps, seed),
        "Deathmatch deck 0 +8, cap 1,600": design_study(moved, 1600, reps // 2, seed + 1),
        "Deathmatch deck 0 +8, cap 480": design_study(moved, 480, reps // 2, seed + 2),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=4000)
    ap.add_argument("--sizes", default="30,100,300,600,2000,4000,8000,10000")
    ap.add_argument("--small", default="30,100,300", help="sizes also run under the plug-in rule")
    ap.add_argument("--tiny-reps", type=int, default=40000)
    ap.add_argument("--design-reps", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    t0 = time.time()
    result = {
        "reps": args.reps,
        "margin_points": MARGIN_POINTS,
        "aa": {},
        "small_counts": {},
        "power": {},
    }
    small = [int(n) for n in args.small.split(",") if n]
    first_look = looks.spent(looks.plan(40))[0]  # a cap-40 study's first look: 50 a deck
    for mode, s in STRENGTHS.items():
        result["aa"][mode] = {
            n: aa(s, int(n), args.reps, args.seed + k) for k, n in enumerate(args.sizes.split(","))
        }
        result["small_counts"][mode] = {
            str(n): small_counts(s, n, args.reps, args.seed + 50 + k) for k, n in enumerate(small)
        }
        result["small_counts"][mode]["50 at the first look of a cap of 40"] = small_counts(
            s, 50, args.tiny_reps, args.seed + 60, alpha=first_look
        )
        for pts in (8, 6):
            planted = (0, pts)
            need = planned_size(s, planted)
            result["power"][f"{mode}: deck 0 +{pts} points"] = {
                "planned_games_a_deck": need,
                "at_planned": power(s, planted, need, args.reps, args.seed + 100),
                "at_600": power(s, planted, 600, args.reps, args.seed + 200),
            }
        print(mode, json.dumps(result["aa"][mode]), flush=True)
    result["design"] = design_cells(args.design_reps, args.seed + 300)
    result["seconds"] = round(time.time() - t0, 1)
    text = json.dumps(result, indent=1)
    if args.out:
        pathlib.Path(args.out).write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
