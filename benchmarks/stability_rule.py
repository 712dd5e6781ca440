"""The stability rule (results/analysis/stability.py) on simulated studies: how often it calls
two identical players player-sensitive or stable, and its power against a planted move.

A simulated study is one mode of six decks in self-play, mirror matches left out: every
pairing of two decks plays G = n / 5 games (n: games a deck against the field), each game
won by either deck (Bradley-Terry probabilities from ``STRENGTHS``, near the planner's
Deathmatch and High Form rates of the README) or a shared win (``DRAW_RATE``). Two sets of
games are drawn (players A and B, independent deals) and fed to the project's own
``results.analysis.deck_moves.moves`` (vectorised over the replicates) and
``results.analysis.stability.decide`` (the rule itself, one comparison at a time) and
``players_differ`` (the global test). tests/test_stability_rule.py runs the small version;

    python -m benchmarks.stability_rule --reps 10000 --out benchmarks/results/stability_rule.json

writes the full one (a few minutes of one core).
"""

import argparse
import json
import math
import pathlib
import time

import numpy as np

from results.analysis import deck_moves
from results.analysis.stability import MARGIN_POINTS, SENSITIVE, STABLE, decide, players_differ

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


def verdicts(table_a, table_b, margin=MARGIN_POINTS) -> dict:
    """The rule on every replicate: ``verdict`` (array of words), ``differ`` (the global
    test's rejections), ``games_needed`` (per replicate, None unless undetermined)."""
    m = deck_moves.moves(*table_a, *table_b)
    out, differ, needed = [], [], []
    for r in range(m["delta"].shape[0]):
        se = 100 * np.sqrt(np.diag(m["cov"][r]))
        rule = decide(100 * m["delta"][r], se, m["games"][r], margin)
        out.append(rule["verdict"])
        needed.append(rule["games_needed"])
        g = players_differ(m["delta"][r], m["cov"][r])
        differ.append(bool(g and g["differ"]))
    return {"verdict": np.array(out), "differ": np.array(differ), "games_needed": needed}


def rates(v: dict) -> dict:
    """The share of each verdict, and of the global test's rejections."""
    n = len(v["verdict"])
    return {
        "stable": float(np.mean(v["verdict"] == STABLE)),
        "player-sensitive": float(np.mean(v["verdict"] == SENSITIVE)),
        "undetermined": float(np.mean(v["verdict"] == "undetermined")),
        "players_differ": float(np.mean(v["differ"])),
        "reps": n,
    }


def aa(strengths, games_a_deck: int, reps: int, seed: int) -> dict:
    """Identical players: both sets drawn from the same truth."""
    rng = np.random.default_rng(seed)
    p = win_matrix(strengths)
    g = games_a_deck // PAIRINGS_PER_DECK
    return rates(verdicts(simulate(p, g, reps, rng), simulate(p, g, reps, rng)))


def planned_size(strengths, planted, pilot_games_a_deck: int = 600) -> int:
    """The games a deck the rule says a planted move needs: its ``games_needed`` on the
    expected tables of a pilot study (the truth seen without noise)."""
    g = pilot_games_a_deck // PAIRINGS_PER_DECK
    a = expected_table(win_matrix(strengths), g)
    b = expected_table(win_matrix(strengths, planted), g)
    m = deck_moves.moves(*a, *b)
    rule = decide(100 * m["delta"], 100 * np.sqrt(np.diag(m["cov"])), m["games"])
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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=10000)
    ap.add_argument("--sizes", default="300,600,2000,4000,6000,8000,10000")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    t0 = time.time()
    result = {"reps": args.reps, "margin_points": MARGIN_POINTS, "aa": {}, "power": {}}
    for mode, s in STRENGTHS.items():
        result["aa"][mode] = {
            n: aa(s, int(n), args.reps, args.seed + k) for k, n in enumerate(args.sizes.split(","))
        }
        for pts in (8, 6):
            planted = (0, pts)
            need = planned_size(s, planted)
            result["power"][f"{mode}: deck 0 +{pts} points"] = {
                "planned_games_a_deck": need,
                "at_planned": power(s, planted, need, args.reps, args.seed + 100),
                "at_600": power(s, planted, 600, args.reps, args.seed + 200),
            }
        print(mode, json.dumps(result["aa"][mode]), flush=True)
    result["seconds"] = round(time.time() - t0, 1)
    text = json.dumps(result, indent=1)
    if args.out:
        pathlib.Path(args.out).write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
