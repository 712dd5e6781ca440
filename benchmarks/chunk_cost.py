"""What a study's chunk costs beyond the kernel: the kernel alone against the whole chunk a
worker plays, side by side in one process, in interleaved rounds, in CPU seconds.

    python -m benchmarks.chunk_cost                       # 7 rounds, 3,000-game chunks
    python -m benchmarks.chunk_cost --rounds 3 --games 500 --out /tmp/chunk_cost.json

For each workload (random players, the scale study's modes, base and expansion decks), each
round times, in an order that alternates between rounds:

- ``kernel``: ``core.kernel.play`` as the worker calls it (with the event log a study keeps,
  ``cluster.worker.EV_ROWS``, for its card events and task claims);
- ``kernel_no_log``: the same games without the log (for reference: what the log costs);
- ``chunk``: ``cluster.worker.run_chunk`` of the same games, end to end: the chunk's
  identity checks, the kernel, the Arrow tables (``results.schema.chunk_tables``) and the
  Parquet bytes (``results.layout.encode``), what a Ray worker returns.

Issue 38's target: a random study's games per CPU-second end to end at least 85% of the
kernel's alone, ``chunk_vs_kernel`` (the kernel's CPU over the chunk's, per workload and over
all of them, medians of the rounds). The worker's one-time start-up (loading the kernel,
pandas' metadata) is paid before the rounds, as a worker pays it before its first chunk
(``start_up_cpu_s``). Every round checks that the chunk's games table holds the kernel's
games. Timings from a shared machine are a dry run: take the figure on a quiet one. The
study-level figure (workers' CPU of a real 10,000,000-game study against this kernel alone)
is ``python -m benchmarks.scale study``.
"""

import argparse
import dataclasses
import json
import os
import statistics
import subprocess
import sys
import time

# (name, mode, decks): random players, as the scale study plays them
WORKLOADS = [
    ("high_form_base", "high-form", ("imperial", "highland")),
    ("deathmatch_base", "deathmatch", ("sylvan", "imperial")),
    ("high_form_expansion", "high-form", ("everfrost", "etherweave")),
    ("deathmatch_expansion", "deathmatch", ("nethervoid", "etherweave")),
]


def _jobs(games: int, seed: int):
    """Each workload's batch and its chunk's job, built the way the runner builds them."""
    from cluster.worker import ChunkJob
    from results.layout import Layout
    from results.store import dataset_info, job_info
    from sim.content import load_content
    from sim.games import batch
    from sim.study import study_from_dict

    content = load_content()
    out = {}
    for name, mode, decks in WORKLOADS:
        spec = {"decks": [list(decks)], "modes": mode, "policies": "random"}
        study = study_from_dict({**spec, "games": games, "seed": seed}, content)
        mu = study.matchups()[0]
        info = dataset_info(study, content)
        rows = info["player_rows"]
        chunk = Layout.of_matchups([mu], games).chunk(0, 0)
        job = ChunkJob.of(chunk, mu, study, job_info(info), rows)
        out[name] = (batch(content, mu.mode, mu.decks, mu.policies, mu.seed), job)
    return out


def _cpu(fn):
    c0 = time.process_time()
    value = fn()
    return time.process_time() - c0, value


def _same_games(rows, files) -> bool:
    """The chunk's games table holds the kernel's games (winner, turns, actions, scores)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from core.rows import R_ACTIONS, R_SEAT, R_TURNS, S_SCORE

    t = pq.read_table(pa.BufferReader(files["games"]))
    return (
        t.column("turns").to_pylist() == rows[:, R_TURNS].tolist()
        and t.column("actions").to_pylist() == rows[:, R_ACTIONS].tolist()
        and t.column("seat0_score").to_pylist() == rows[:, R_SEAT + S_SCORE].tolist()
    )


def run(rounds: int, games: int, seed: int = 1) -> dict:
    from cluster.worker import EV_ROWS, run_chunk
    from core.kernel import play

    jobs = _jobs(games, seed)
    c0 = time.process_time()
    for b, job in jobs.values():  # a worker's start-up: the kernel, pandas' metadata
        run_chunk(dataclasses.replace(job, n_games=1), False)
        play(b, 0, 1)
    start_up = time.process_time() - c0
    kinds = {
        "kernel": lambda b, job: play(b, 0, games, ev_rows=EV_ROWS).rows,
        "kernel_no_log": lambda b, job: play(b, 0, games).rows,
        "chunk": lambda b, job: run_chunk(job, False),
    }
    times = {name: {k: [] for k in kinds} for name in jobs}
    same = True
    for r in range(rounds):
        order = list(kinds) if r % 2 == 0 else list(kinds)[::-1]
        for name, (b, job) in jobs.items():
            got = {}
            for k in order:
                cpu, got[k] = _cpu(lambda k=k, b=b, job=job: kinds[k](b, job))
                times[name][k].append(cpu)
            same = same and _same_games(got["kernel"], got["chunk"]["files"])
        print(f"round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
    per = {}
    for name, t in times.items():
        med = {k: statistics.median(v) for k, v in t.items()}
        per[name] = {
            **{f"{k}_cpu_s": round(v, 4) for k, v in med.items()},
            "kernel_games_per_cpu_s": round(games / med["kernel"]),
            "chunk_games_per_cpu_s": round(games / med["chunk"]),
            "chunk_vs_kernel": round(med["kernel"] / med["chunk"], 3),
            "chunk_vs_kernel_no_log": round(med["kernel_no_log"] / med["chunk"], 3),
            "rounds_cpu_s": {k: [round(x, 4) for x in v] for k, v in t.items()},
        }
    total = {k: sum(statistics.median(t[k]) for t in times.values()) for k in kinds}
    return {
        "games_per_chunk": games,
        "rounds": rounds,
        "start_up_cpu_s": round(start_up, 3),
        "same_games": same,
        "chunk_vs_kernel": round(total["kernel"] / total["chunk"], 3),
        "chunk_vs_kernel_no_log": round(total["kernel_no_log"] / total["chunk"], 3),
        "target": 0.85,
        "workloads": per,
    }


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--games", type=int, default=3000, help="games a chunk (default 3,000)")
    p.add_argument("--out", help="also write the JSON here")
    a = p.parse_args(argv)
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    meta = {"commit": head, "date": time.strftime("%Y-%m-%dT%H:%M:%S"), "cpus": os.cpu_count()}
    meta["load_avg_at_start"] = os.getloadavg()
    res = {**meta, **run(a.rounds, a.games), "load_avg_at_end": os.getloadavg()}
    text = json.dumps(res, indent=1)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
