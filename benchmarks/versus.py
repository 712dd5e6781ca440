"""One player's speed here against another checkout of kalarite, measured side by side.

    python -m benchmarks.versus --base ../base --policy greedy --mode high-form

Each round times the same games (High Form or Deathmatch, Imperial vs Highland, one core,
after a warm-up game) in a fresh process of each tree, alternating which goes first, and
counts CPU seconds (so other load on the machine slows neither side's figure). Both trees
run with this interpreter; each compiles its own engine (caches are keyed by the engine's
source). Prints one JSON object: per tree the games per CPU-second of every round, and the
ratio of the medians.
"""

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys

from sim.app.bench.side_by_side import PLAY_ROWS

REPO = pathlib.Path(__file__).resolve().parent.parent

SNIPPET = (
    PLAY_ROWS
    + """
import json, sys, time
from core.kernel import R_DECISIONS
from sim.content import load_content
mode, policy, games, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
c = load_content()
decks, specs = ("imperial", "highland"), [policy, policy]
play_rows(c, mode, decks, specs, seed, 10**6, 1)
t0 = time.process_time()
rows, _, _ = play_rows(c, mode, decks, specs, seed, 0, games)
dt = time.process_time() - t0
print(json.dumps({"games": games, "cpu_s": dt, "games_per_cpu_s": games / dt,
                  "decisions": int(rows[:, R_DECISIONS].sum())}))
"""
)


def run_tree(tree, mode, policy, games, seed) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run(
        [sys.executable, "-c", SNIPPET, mode, policy, str(games), str(seed)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--base", required=True, help="the other checkout (e.g. a worktree)")
    p.add_argument("--policy", default="greedy")
    p.add_argument("--mode", default="high-form")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seed", type=int, default=11)
    a = p.parse_args(argv)
    trees = {"this": REPO, "base": pathlib.Path(a.base).resolve()}
    rates = {k: [] for k in trees}
    raw = {k: [] for k in trees}
    for r in range(a.rounds):
        order = list(trees) if r % 2 == 0 else list(trees)[::-1]
        for k in order:
            res = run_tree(trees[k], a.mode, a.policy, a.games, a.seed)
            raw[k].append(res)
            rates[k].append(res["games_per_cpu_s"])
    med = {k: statistics.median(v) for k, v in rates.items()}
    print(
        json.dumps(
            {
                "policy": a.policy,
                "mode": a.mode,
                "games_per_round": a.games,
                "rounds": a.rounds,
                "trees": {k: str(v) for k, v in trees.items()},
                "games_per_cpu_s": rates,
                "median": med,
                "ratio_this_over_base": med["this"] / med["base"],
                "runs": raw,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
