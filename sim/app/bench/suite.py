"""The benchmark suite: engine throughput, JIT speed-up, summon search, Ray scaling, memory,
cold compile and warm start. Timings are measured here, never asserted in tests.

Run with `kalarite bench` (full) or `kalarite bench --quick --json` (a few minutes, most of
it the cold compile); `make bench` writes benchmarks/results/latest.json. Engine speeds are
per CPU-second of the (single-threaded) benchmark process, which is the wall time on an idle
machine and stays meaningful on a shared one. `kalarite bench --baseline DIR` measures this
checkout against another one side by side (sim.app.bench.side_by_side).
"""

import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def machine_info() -> dict:
    import numba

    return {
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "cpu": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
        "platform": platform.platform(),
    }


def _content():
    from sim.content import load_content

    return load_content()


def throughput(
    mode: str, policy: str, games: int, seed: int = 11, decks=("imperial", "highland")
) -> dict:
    """Games on one core in this process (the kernel compiled beforehand), per CPU-second."""
    from core.kernel import R_ACTIONS, R_DECISIONS, play
    from sim.games import batch

    b = batch(_content(), mode, decks, [policy] * len(decks), seed)
    play(b, 0, 1)  # compile / load the cache outside the timing
    c0 = time.process_time()
    t0 = time.perf_counter()
    rows = play(b, 0, games).rows
    wall = time.perf_counter() - t0
    dt = time.process_time() - c0
    return {
        "mode": mode,
        "policy": policy,
        "decks": "-vs-".join(decks),
        "games": games,
        "cpu_s": round(dt, 3),
        "wall_s": round(wall, 3),
        "games_per_s_per_core": round(games / dt, 1),
        "actions_per_s_per_core": round(float(rows[:, R_ACTIONS].sum()) / dt),
        "decisions_per_s_per_core": round(float(rows[:, R_DECISIONS].sum()) / dt),
    }


_NOJIT_SNIPPET = """
import json, sys, time
from sim.content import load_content
from sim.games import batch
from core.kernel import R_ACTIONS, play
b = batch(load_content(), "high-form", ("imperial", "highland"), ("random", "random"), 11)
t0 = time.perf_counter()
rows = play(b, 0, int(sys.argv[1])).rows
dt = time.perf_counter() - t0
print(json.dumps({"games": int(sys.argv[1]), "seconds": dt,
                  "actions": int(rows[:, R_ACTIONS].sum())}))
"""


def jit_speedup(nojit_games: int) -> dict:
    """The same random High Form games with NUMBA_DISABLE_JIT=1 (pure Python) vs compiled."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run(
        [sys.executable, "-c", _NOJIT_SNIPPET, str(nojit_games)],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    slow = json.loads(out.stdout.strip().splitlines()[-1])
    fast = throughput("high-form", "random", max(200, nojit_games * 50))
    py_rate = slow["actions"] / slow["seconds"]
    return {
        "python_actions_per_s": round(py_rate, 1),
        "python_games": nojit_games,
        "jit_actions_per_s": fast["actions_per_s_per_core"],
        "jit_speedup": round(fast["actions_per_s_per_core"] / py_rate, 1),
    }


def summon_search(n_games: int = 200, reps: int = 5) -> dict:
    """Legal-summon search alone over a fixed set of mid-game positions."""
    from sim.app.bench.positions import collect_positions, time_summon_search

    T = _content().tables
    states = collect_positions(T, n_games)
    found, seconds, calls = time_summon_search(T, states, reps)
    return {
        "positions": int(len(states)),
        "searches": int(calls),
        "summons_found_per_s": round(found / seconds),
        "searches_per_s": round(calls / seconds),
    }


class _RssSampler:
    """Peak total resident memory of this process and the Ray workers it drives."""

    def __init__(self):
        import psutil

        self.psutil = psutil
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self):
        me = self.psutil.Process()
        while not self._stop.is_set():
            total = me.memory_info().rss
            for p in self.psutil.process_iter(["cmdline", "memory_info"]):
                cmd = " ".join(p.info["cmdline"] or [])
                if "ray::" in cmd or "default_worker.py" in cmd:
                    total += p.info["memory_info"].rss
            self.peak = max(self.peak, total)
            self._stop.wait(0.5)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def ray_run(games: int, workers: int, chunk_size: int, measure_memory: bool = False) -> dict:
    """One random High Form matchup through Ray into a temporary dataset."""
    from cluster.runner import run_study
    from sim.study import simulate_study

    content = _content()
    study = simulate_study(
        content, ["imperial", "highland"], "high-form", ("random", "random"), games, 1, 200, False
    )
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run")
        if measure_memory:
            with _RssSampler() as mem:
                s = run_study(
                    study, content, out, workers=workers, chunk_size=chunk_size, progress=False
                )
            peak = mem.peak
        else:
            s = run_study(
                study, content, out, workers=workers, chunk_size=chunk_size, progress=False
            )
            peak = None
    res = {
        "games": games,
        "workers": workers,
        "wall_s": round(s.wall_s, 2),
        "start_s": round(s.start_s, 2),
        "play_s": round(s.playing_s, 2),
        "games_per_s": round(s.games_per_s, 1),  # over play_s (Ray start and compile apart)
    }
    if peak is not None:
        res["peak_rss_mib"] = round(peak / 2**20)
    return res


def ray_scaling(games: int, chunk_size: int) -> dict:
    one = ray_run(games, 1, chunk_size)
    two = ray_run(games, 2, chunk_size)
    return {
        "one_worker": one,
        "two_workers": two,
        "ray_2_vs_1": round(two["games_per_s"] / one["games_per_s"], 2),
    }


def start_times() -> dict:
    """Cold compile (a first `kalarite play` into an empty kernel cache) and warm start
    (the same command again), in a fresh process each (sim.app.bench.side_by_side)."""
    from sim.app.bench.side_by_side import cold_and_warm

    return cold_and_warm(REPO)


MULTI_SEAT = [
    ("random_melee_3", "melee", ("imperial", "highland", "sylvan")),
    ("random_melee_4", "melee", ("imperial", "highland", "sylvan", "highland")),
    ("random_team_high_form", "team-high-form", ("imperial", "highland", "sylvan", "sylvan")),
    ("random_team_deathmatch", "team-deathmatch", ("imperial", "highland", "sylvan", "sylvan")),
    ("random_new_player", "new-player", ("imperial", "imperial")),
]


def run(quick: bool) -> dict:
    res = {"machine": machine_info(), "quick": quick, "date": time.strftime("%Y-%m-%dT%H:%M:%S")}
    try:
        res["commit"] = subprocess.run(
            ["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
    except OSError:
        res["commit"] = ""
    st = start_times()
    res["start"] = st
    res["cold_compile_s"] = st["cold_compile_s"]
    res["warm_start_s"] = st["warm_start_s"]
    hf = throughput("high-form", "random", 1000 if quick else 5000)
    res["random_high_form"] = hf
    res["actions_per_s_per_core"] = hf["actions_per_s_per_core"]
    res["games_per_s_per_core"] = hf["games_per_s_per_core"]
    js = jit_speedup(2 if quick else 5)
    res["jit"] = js
    res["jit_speedup"] = js["jit_speedup"]
    sc = ray_scaling(8000 if quick else 40000, 1000 if quick else 2000)
    res["ray"] = sc
    res["ray_2_vs_1"] = sc["ray_2_vs_1"]
    if quick:
        return res
    res["random_deathmatch"] = throughput("deathmatch", "random", 5000)
    res["greedy_high_form"] = throughput("high-form", "greedy", 100)
    res["greedy_deathmatch"] = throughput("deathmatch", "greedy", 100)
    res["planner_high_form"] = throughput("high-form", "planner", 20)
    res["planner_deathmatch"] = throughput("deathmatch", "planner", 20)
    for key, mode, decks in MULTI_SEAT:
        res[key] = throughput(mode, "random", 2000, decks=decks)
    res["summon_search"] = summon_search()
    res["large_study_memory"] = ray_run(200_000, 2, 2000, measure_memory=True)
    return res


def run_baseline(
    baseline: str, quick: bool, rounds: int | None = None, compile_rounds: int = 1
) -> dict:
    """This checkout against ``baseline`` (another checkout), interleaved: every workload's
    actions per CPU-second, cold compile and warm start, as ratios this / baseline. A cold
    compile varies by about 15% from run to run on one machine, so a claim about it wants
    several ``compile_rounds`` (pairs, alternating which side goes first)."""
    from sim.app.bench.side_by_side import compare

    if not os.path.isdir(os.path.join(baseline, "core")):
        raise ValueError(f"--baseline {baseline!r} is not a kalarite checkout (no core/)")
    rounds = rounds or (3 if quick else 7)
    res = compare(baseline, REPO, rounds, quick, compile_rounds=compile_rounds)
    res["machine"] = machine_info()
    res["date"] = time.strftime("%Y-%m-%dT%H:%M:%S")
    return res


def markdown_table(res: dict) -> str:
    """The README table of a full run."""
    rows = [("measure", "value")]
    keys = [
        "random_high_form",
        "random_deathmatch",
        "greedy_high_form",
        "greedy_deathmatch",
        "planner_high_form",
        "planner_deathmatch",
    ]
    for key in keys + [k for k, _, _ in MULTI_SEAT]:
        if key in res:
            r = res[key]
            seats = r["decks"].count("-vs-") + 1
            what = f"{r['policy']} {r['mode']}" + (f" ({seats} seats)" if seats > 2 else "")
            rows.append((f"{what}: actions/s per core", f"{r['actions_per_s_per_core']:,}"))
            rows.append((f"{what}: games/s per core", f"{r['games_per_s_per_core']:,}"))
    rows.append(("JIT speed-up vs NUMBA_DISABLE_JIT=1", f"{res['jit_speedup']}x"))
    one = res.get("ray", {}).get("one_worker")
    how = f" ({one['games']:,} random High Form games, play time)" if one else ""
    rows.append((f"Ray: 2 workers vs 1{how}", f"{res['ray_2_vs_1']}x"))
    if "summon_search" in res:
        rows.append(
            ("summon search: summons found/s", f"{res['summon_search']['summons_found_per_s']:,}")
        )
    if "large_study_memory" in res:
        m = res["large_study_memory"]
        rows.append(
            (
                f"peak memory, {m['games']:,}-game study (driver + workers)",
                f"{m['peak_rss_mib']} MiB",
            )
        )
    if "start" in res:
        w = res["start"]
        rows.append(
            (
                "cold compile: first `kalarite play`, empty cache (wall / CPU)",
                f"{w['cold_compile_s']} s / {w['cold_compile_cpu_s']} s",
            )
        )
        rows.append(
            (
                "warm start: `kalarite play` (wall / CPU)",
                f"{w['warm_start_s']} s / {w['warm_start_cpu_s']} s",
            )
        )
    lines = [f"| {a} | {b} |" for a, b in rows]
    lines.insert(1, "| --- | --- |")
    return "\n".join(lines)
