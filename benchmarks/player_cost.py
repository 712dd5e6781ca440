"""What one player costs against another, per game, measured side by side in one process.

    python -m benchmarks.player_cost --player sage --against planner --rounds 7

Each round plays the same deals with each player in both seats (self-play): every ordered
pairing of the installed decks, both duel modes, ``--games`` games each; the two players'
runs alternate within a round (which goes first alternates by round) and are timed in CPU
seconds of this process, so other load on the machine slows neither side's figure. Prints
(and with ``--out`` writes) one JSON object: per round the CPU seconds and games of each
player, the ratio of the medians of CPU per game, and the decisions per game of each.
"""

import argparse
import itertools
import json
import statistics
import time


def _run(content, spec, mode, pair, games, seed):
    from core.kernel import R_DECISIONS, play
    from sim.games import batch

    b = batch(content, mode, pair, [spec, spec], seed)
    t0 = time.process_time()
    rows = play(b, 0, games).rows
    return time.process_time() - t0, int(rows[:, R_DECISIONS].sum())


def measure(player, against, rounds, games, seed=41) -> dict:
    from sim.content import load_content

    content = load_content()
    pairs = list(itertools.product(content.decks, repeat=2))
    modes = ("high-form", "deathmatch")
    # warm-up: compile (or load) the kernel once before anything is timed
    _run(content, player, modes[0], pairs[0], 1, seed)
    out = []
    for r in range(rounds):
        order = (player, against) if r % 2 == 0 else (against, player)
        row = {}
        for spec in order:
            cpu = 0.0
            decisions = 0
            n = 0
            for m, mode in enumerate(modes):
                for i, pair in enumerate(pairs):
                    s = seed + 1000 * r + 100 * m + i
                    dt, d = _run(content, spec, mode, pair, games, s)
                    cpu += dt
                    decisions += d
                    n += games
            row[spec] = {"cpu_s": round(cpu, 3), "games": n, "decisions": decisions}
        out.append(row)
        print(json.dumps({"round": r, **row}), flush=True)
    per_game = {
        p: statistics.median(x[p]["cpu_s"] / x[p]["games"] for x in out) for p in (player, against)
    }
    return {
        "player": player,
        "against": against,
        "rounds": out,
        "cpu_ms_per_game_median": {p: round(1000 * v, 2) for p, v in per_game.items()},
        "ratio_cpu_per_game": round(per_game[player] / per_game[against], 3),
        "decisions_per_game": {
            p: round(sum(x[p]["decisions"] for x in out) / sum(x[p]["games"] for x in out), 1)
            for p in (player, against)
        },
        "deals": f"{len(pairs)} ordered pairings x 2 duel modes x {games} games, self-play",
    }


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--player", default="sage")
    p.add_argument("--against", default="planner")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--games", type=int, default=2, help="games per pairing and mode per round")
    p.add_argument("--out", help="also write the JSON here")
    args = p.parse_args(argv)
    result = measure(args.player, args.against, args.rounds, args.games)
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
