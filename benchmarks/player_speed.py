"""A lookahead player's cost per game, this checkout against another, side by side.

    python -m benchmarks.player_speed --baseline ../kalarite-dfb0661 --rounds 7
    python -m benchmarks.player_speed --baseline ../kalarite-dfb0661 --policy sage \\
        --baseline-policy planner --rounds 7

Each checkout plays in its own long-lived worker process (sim.app.bench.side_by_side.Worker,
through ``PLAY_ROWS``: that checkout's kernel call); rounds alternate which side plays
first, and each side's figure is CPU seconds of its own process, so other load slows neither side
more. The workloads are self-play games of the player in High Form and Deathmatch, with
base decks and with expansion decks. ``same_games`` compares the digests of the result rows:
true when both sides played identical games (meaningful when both play the same player).
The ratio is games per CPU-second of this checkout over the baseline's (median of the
rounds, with their range). Nothing here is asserted in tests.
"""

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time

from sim.app.bench.side_by_side import Worker, git_commit, ratio_summary

# (name, mode, decks, games per round)
WORKLOADS = [
    ("high_form_base", "high-form", ("imperial", "highland"), 30),
    ("deathmatch_base", "deathmatch", ("sylvan", "imperial"), 30),
    ("high_form_expansion", "high-form", ("everfrost", "etherweave"), 24),
    ("deathmatch_expansion", "deathmatch", ("nethervoid", "everfrost"), 24),
    ("high_form_expansion_2", "high-form", ("etherweave", "nethervoid"), 24),
]


def compare(baseline, this, policy, baseline_policy, rounds, scale=1.0, cache="fresh") -> dict:
    """``cache`` "fresh": each side compiles its kernel into an empty cache folder of its own
    (as a new user's first run does) and plays one untimed game per workload first; "existing":
    each side loads whatever its cache already holds. The engine's speed moved 10-20% either
    way with its cache's history (round 5 in benchmarks/README.md), so fresh is the default."""
    baseline = os.path.abspath(baseline)
    this = os.path.abspath(this)
    res = {
        "baseline": baseline,
        "baseline_commit": git_commit(baseline),
        "this_commit": git_commit(this),
        "policy": policy,
        "baseline_policy": baseline_policy,
        "rounds": rounds,
        "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "load_avg_at_start": os.getloadavg(),
        "cache": cache,
        "workloads": {},
    }
    caches = [tempfile.mkdtemp(prefix="kalarite-speed-") for _ in "ab"] if cache == "fresh" else []
    base_w, this_w = Worker(baseline, *caches[:1]), Worker(this, *caches[1:])
    same_all = True
    try:
        for name, mode, decks, games in WORKLOADS:
            games = max(2, round(games * scale))
            if caches:  # the compile (first workload) and first-call costs, untimed
                base_w.run(mode, baseline_policy, decks, 1, seed=99)
                this_w.run(mode, policy, decks, 1, seed=99)
            ratios, this_rate, base_rate, same = [], [], [], True
            for r in range(rounds):
                order = [(base_w, False), (this_w, True)]
                if r % 2:
                    order.reverse()
                out = {}
                for w, is_this in order:
                    pol = policy if is_this else baseline_policy
                    out[is_this] = w.run(mode, pol, decks, games, seed=100 + r)
                same &= out[True]["digest"] == out[False]["digest"]
                t = games / out[True]["cpu_s"]
                b = games / out[False]["cpu_s"]
                this_rate.append(t)
                base_rate.append(b)
                ratios.append(t / b)
            res["workloads"][name] = {
                "mode": mode,
                "decks": list(decks),
                "games_per_round": games,
                **ratio_summary(ratios),
                "games_per_cpu_s": round(statistics.median(this_rate), 2),
                "baseline_games_per_cpu_s": round(statistics.median(base_rate), 2),
                "same_games": same,
                "ratios": [round(x, 3) for x in ratios],
            }
            same_all &= same
            print(f"{name}: {res['workloads'][name]['ratio']}x (same games: {same})", flush=True)
    finally:
        base_w.close()
        this_w.close()
        for c in caches:
            shutil.rmtree(c, ignore_errors=True)
    res["same_games"] = same_all
    res["load_avg_at_end"] = os.getloadavg()
    return res


def table(res: dict) -> str:
    lines = [
        f"| workload ({res['policy']} / {res['baseline_policy']} at {res['baseline_commit']}) "
        "| ratio | min..max | games/CPU-s | baseline | same games |",
        "|---|---|---|---|---|---|",
    ]
    for name, w in res["workloads"].items():
        lines.append(
            f"| {name.replace('_', ' ')} ({' vs '.join(w['decks'])}) | {w['ratio']}x | "
            f"{w['min']}..{w['max']} | {w['games_per_cpu_s']} | "
            f"{w['baseline_games_per_cpu_s']} | {'yes' if w['same_games'] else 'no'} |"
        )
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--baseline", required=True, help="the other checkout (a git worktree)")
    p.add_argument("--this", default=".", help="this checkout")
    p.add_argument("--policy", default="planner")
    p.add_argument("--baseline-policy", help="the baseline's player (default: --policy)")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--games-scale", type=float, default=1.0)
    p.add_argument(
        "--cache",
        choices=("fresh", "existing"),
        default="fresh",
        help="fresh: each side compiles cold into its own empty cache (default); existing: "
        "each loads what its cache holds",
    )
    p.add_argument("--out", help="also write the JSON here")
    a = p.parse_args(argv)
    res = compare(
        a.baseline, a.this, a.policy, a.baseline_policy or a.policy, a.rounds, a.games_scale,
        a.cache,
    )  # fmt: skip
    print(table(res))
    if a.out:
        with open(a.out, "w") as f:
            f.write(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
