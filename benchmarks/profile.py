"""Where a workload's time goes, phase by phase of the engine, as JSON.

    python -m benchmarks.profile --out benchmarks/results/profile_after.json
    python -m benchmarks.profile --workloads planner_high_form_expansion --games-scale 0.5
    python -m benchmarks.profile --compare before.json after.json   # a Markdown table

Each workload is played twice, each time in a fresh process: by the plain engine (CPU
seconds, the digest of its result rows) and by a profiled build (KALARITE_PROFILE=1, its own
kernel cache: core.jit.profile), whose timers charge every cycle of the kernel to the
innermost open phase: option listing by kind, the summon search by kind, applying options
(effect resolution), lookahead copies, the lookahead's turn flow, evaluation (plain, from
what changed, its summon and task checks), position keys, learned values, the player's own
code. The Python driver is what the worker does around the kernel (the call, the result
tables, Parquet), in CPU seconds. Both builds must play the same games (``same_games``).

The timers cost a few dozen cycles a pair; ``timer_share`` estimates how much of the profiled
time they are (calls times the cost of a pair), and ``profiled_vs_plain`` the total
distortion. Cycles are converted to seconds with the cycle counter's rate measured over the
run; on a loaded machine the counter also runs while the process waits, so profile on a
quiet one (``load_avg`` is recorded). Nothing here is asserted in tests.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import time

from sim.app.bench.side_by_side import PLAY_ROWS

REPO = pathlib.Path(__file__).resolve().parent.parent

# (name, mode, policy, decks, games)
WORKLOADS = [
    ("random_high_form", "high-form", "random", ("imperial", "highland"), 3000),
    ("random_deathmatch", "deathmatch", "random", ("sylvan", "imperial"), 3000),
    ("planner_high_form_base", "high-form", "planner", ("imperial", "highland"), 40),
    ("planner_deathmatch_base", "deathmatch", "planner", ("sylvan", "imperial"), 40),
    ("planner_high_form_expansion", "high-form", "planner", ("everfrost", "etherweave"), 30),
    ("planner_deathmatch_expansion", "deathmatch", "planner", ("nethervoid", "everfrost"), 30),
    ("sage_high_form_expansion", "high-form", "sage", ("etherweave", "nethervoid"), 20),
    ("mc_high_form_base", "high-form", "mc", ("imperial", "highland"), 20),
    ("seer_high_form_base", "high-form", "seer", ("imperial", "highland"), 10),
    ("seer_deathmatch_expansion", "deathmatch", "seer", ("nethervoid", "everfrost"), 10),
    ("seer_high_form_expansion", "high-form", "seer", ("etherweave", "nethervoid"), 10),
]

WORKER = (
    PLAY_ROWS
    + r"""
import hashlib, json, os, sys, time
import numpy as np
from core.jit import profile as P
from core.kernel import R_ACTIONS, R_DECISIONS
from results.schema import chunk_tables
from sim.content import load_content

try:  # the chunk's Parquet files as the worker finishes them
    from results.layout import encode as _encode

    def parquet_files(tables):
        return _encode(tables, {"matchup": 0, "chunk": 0})
except ImportError:  # a checkout from before results.layout
    from cluster.worker import _parquet_bytes

    def parquet_files(tables):
        return {name: _parquet_bytes(t) for name, t in tables.items()}

content = load_content()
card_ids = [c.id for c in content.cards]
job = json.loads(sys.argv[1])
decks = job["decks"]
specs = [job["policy"]] * len(decks)
play_rows(content, job["mode"], decks, specs, job["seed"], 0, 1)  # compile or load the kernel
P.reset()
c0 = time.process_time()
w0 = time.perf_counter()
k0 = P.cycles_now()
rows, cev, tcl = play_rows(content, job["mode"], decks, specs, job["seed"], 0, job["games"], 4000)
k1 = P.cycles_now()
w1 = time.perf_counter()
c1 = time.process_time()
tables = chunk_tables(
    rows, cev, tcl, first_game=0, seed=job["seed"], mode=job["mode"], decks=tuple(decks),
    policies=tuple(specs), turn_cap=200, beings_without_effects=False, card_ids=card_ids,
    task_names=content.task_names, positions=None, metadata={
        "engine_hash": "profile", "engine_version": "profile", "study": {},
        "content_hash": content.content_hash, "beings_without_effects": False},
)
files = parquet_files(tables)
c2 = time.process_time()
h = hashlib.sha256()
for a in (rows, cev, tcl):
    h.update(np.ascontiguousarray(a).tobytes())
phases = P.read() if P.PROFILE else {}
pair = P.timer_cost(200000) / 200000 if P.PROFILE else 0.0
print(json.dumps({
    "profiled": P.PROFILE,
    "games": int(len(rows)),
    "actions": int(rows[:, R_ACTIONS].sum()),
    "decisions": int(rows[:, R_DECISIONS].sum()),
    "kernel_call_cpu_s": c1 - c0,
    "kernel_call_wall_s": w1 - w0,
    "tables_and_parquet_cpu_s": c2 - c1,
    "parquet_bytes": sum(len(b) for b in files.values()),
    "cycles": k1 - k0,
    "cycles_per_s": (k1 - k0) / (w1 - w0),
    "timer_pair_cycles": pair,
    "phases": phases,
    "digest": h.hexdigest(),
}))
"""
)


def _play(root: pathlib.Path, job: dict, profiled: bool) -> dict:
    env = dict(os.environ)
    env.pop("KALARITE_PROFILE", None)
    if profiled:
        env["KALARITE_PROFILE"] = "1"
    r = subprocess.run(
        [sys.executable, "-c", WORKER, json.dumps(job)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )
    if r.returncode != 0:
        raise SystemExit(f"profile worker failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def profile_workload(root, name, mode, policy, decks, games, seed=7) -> dict:
    job = {"mode": mode, "policy": policy, "decks": list(decks), "games": games, "seed": seed}
    plain = _play(root, job, False)
    prof = _play(root, job, True)
    rate = prof["cycles_per_s"]
    total = prof["cycles"]
    calls = sum(p["calls"] for p in prof["phases"].values())
    phases = {}
    for ph, v in prof["phases"].items():
        phases[ph] = {
            "self_s": round(v["self"] / rate, 4),
            "self_share": round(v["self"] / total, 4) if total else 0.0,
            "inclusive_s": round(v["inclusive"] / rate, 4),
            "calls": v["calls"],
            "from": {c: round(x / rate, 4) for c, x in v.get("callers", {}).items()},
        }
    driver = plain["tables_and_parquet_cpu_s"] + max(
        0.0, plain["kernel_call_cpu_s"] - plain["kernel_call_wall_s"]
    )
    return {
        "mode": mode,
        "policy": policy,
        "decks": list(decks),
        "games": plain["games"],
        "actions": plain["actions"],
        "decisions": plain["decisions"],
        "plain_cpu_s": round(plain["kernel_call_cpu_s"], 4),
        "plain_cpu_per_game_ms": round(1000 * plain["kernel_call_cpu_s"] / plain["games"], 3),
        "profiled_cpu_s": round(prof["kernel_call_cpu_s"], 4),
        "profiled_vs_plain": round(prof["kernel_call_cpu_s"] / plain["kernel_call_cpu_s"], 3),
        "timer_pair_cycles": round(prof["timer_pair_cycles"], 1),
        "timer_share": round(calls * prof["timer_pair_cycles"] / total, 4) if total else 0.0,
        "python_driver_cpu_s": round(driver, 4),
        "python_driver_share": round(driver / (driver + plain["kernel_call_cpu_s"]), 4),
        "parquet_bytes_per_game": round(plain["parquet_bytes"] / plain["games"], 1),
        "same_games": plain["digest"] == prof["digest"],
        "phases": phases,
    }


def run(root: pathlib.Path, names, scale: float) -> dict:
    head = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    out = {
        "commit": head,
        "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "load_avg_at_start": os.getloadavg(),
        "workloads": {},
    }
    for name, mode, policy, decks, games in WORKLOADS:
        if names and name not in names:
            continue
        n = max(1, round(games * scale))
        res = profile_workload(root, name, mode, policy, decks, n)
        out["workloads"][name] = res
        top = sorted(res["phases"].items(), key=lambda kv: -kv[1]["self_share"])[:4]
        print(
            f"{name}: {res['plain_cpu_per_game_ms']} ms/game plain, "
            + ", ".join(f"{k} {100 * v['self_share']:.0f}%" for k, v in top),
            file=sys.stderr,
            flush=True,
        )
    out["load_avg_at_end"] = os.getloadavg()
    return out


def compare_table(before: dict, after: dict) -> str:
    """Markdown: per workload, each phase's self seconds per game before and after."""
    lines = []
    for name, b in before["workloads"].items():
        a = after["workloads"].get(name)
        if a is None:
            continue
        lines.append(
            f"\n**{name}** ({b['policy']}, {b['mode']}, {' vs '.join(b['decks'])}): plain "
            f"{b['plain_cpu_per_game_ms']} -> {a['plain_cpu_per_game_ms']} ms a game\n"
        )
        lines.append("| phase | before ms/game | share | after ms/game | share |")
        lines.append("|---|---|---|---|---|")
        names = list(b["phases"]) + [p for p in a["phases"] if p not in b["phases"]]
        for ph in names:
            pb, pa = b["phases"].get(ph), a["phases"].get(ph)
            if max(x["self_share"] if x else 0.0 for x in (pb, pa)) < 0.005:
                continue

            def cell(x, run):
                if x is None:  # a phase the other build did not time separately
                    return "- | -"
                return f"{1000 * x['self_s'] / run['games']:.3f} | {100 * x['self_share']:.1f}%"

            lines.append(f"| {ph} | {cell(pb, b)} | {cell(pa, a)} |")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--workloads", help="comma-separated names (default: all)")
    p.add_argument("--games-scale", type=float, default=1.0, help="times each workload's games")
    p.add_argument("--root", default=str(REPO), help="the checkout to profile")
    p.add_argument("--out", help="also write the JSON here")
    p.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    a = p.parse_args(argv)
    if a.compare:
        before, after = (json.loads(pathlib.Path(f).read_text()) for f in a.compare)
        print(compare_table(before, after))
        return
    names = set(a.workloads.split(",")) if a.workloads else set()
    unknown = names - {w[0] for w in WORKLOADS}
    if unknown:
        raise SystemExit(f"unknown workloads: {', '.join(sorted(unknown))}")
    res = run(pathlib.Path(a.root), names, a.games_scale)
    text = json.dumps(res, indent=1)
    print(text)
    if a.out:
        pathlib.Path(a.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
