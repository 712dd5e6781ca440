"""Measurements that can run on any checkout, and `kalarite bench --baseline DIR`.

Absolute speeds differ a lot between machines and with the load other processes put on a
shared one, so a speed claim is a ratio against a named commit measured side by side: the
same games played by this checkout and by the baseline checkout, in alternating rounds, each
timed in CPU seconds of its own process. Each checkout runs in its own long-lived worker
process (``WORKER``, started with this Python in the checkout's directory, so its own
``core``/``sim`` packages are imported); the worker plays through ``PLAY_ROWS``, the kernel
call of either kind of checkout (the seam, or the ``play_chunk`` of older ones). The
workers also hash the result rows, card events and task claims of every workload:
``same_games`` says whether both checkouts played identical games.

Cold compile and warm start time the real command, ``kalarite play``, in a fresh process
(``python -m sim.app.cli play``, or ``sim.cli`` in a checkout from before sim/app/): cold with
an empty kernel cache (KALARITE_NUMBA_CACHE), warm with the cache that run left. Both are
reported in wall seconds and CPU seconds (the CPU figure is the stable one on a loaded
machine).
"""

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

# ``play_rows(content, mode, decks, specs, seed, first, n, ev_rows)`` -> (result rows, card
# events, task claims) in any checkout: the seam (core.kernel.play, sim.games.batch) where it
# exists, else the 14-number ``play_chunk`` call of the checkouts before it (25b763c and
# older). The programs below run in another checkout's directory, so they cannot import this
# module: they are source text, and this is the one copy of the old call.
PLAY_ROWS = r"""
try:
    from core.kernel import play as _play
    from sim.games import batch as _batch

    def play_rows(content, mode, decks, specs, seed, first, n, ev_rows=0):
        out = _play(_batch(content, mode, decks, specs, seed), first, n, ev_rows=ev_rows)
        return out.rows, out.card_events, out.task_claims
except ImportError:  # a checkout from before the seam
    import numpy as _np
    from core import constants as _K
    from core.kernel import play_chunk as _play_chunk
    from sim.players import policy_codes as _codes, policy_params as _params

    def play_rows(content, mode, decks, specs, seed, first, n, ev_rows=0):
        args = (
            content.tables, _K.MODE_NAMES.index(mode), len(decks),
            _np.array([content.deck_index(d) for d in decks], _np.int32),
            _codes(specs), _params(specs), (seed >> 32) & 0xFFFFFFFF, seed & 0xFFFFFFFF,
        )
        return _play_chunk(*args, first, n, 200, 0, 0, ev_rows)
"""

WORKER = (
    PLAY_ROWS
    + r"""
import hashlib, json, sys, time
import numpy as np
from core.kernel import R_ACTIONS, R_DECISIONS
from sim.content import load_content

content = load_content()
ready = False
for line in sys.stdin:
    job = json.loads(line)
    decks = job["decks"]
    specs = [job["policy"]] * len(decks)
    if not ready:  # compile (or load the cache) outside the timing
        play_rows(content, job["mode"], decks, specs, job["seed"], 0, 1)
        ready = True
    c0 = time.process_time()
    w0 = time.perf_counter()
    rows, cev, tcl = play_rows(
        content, job["mode"], decks, specs, job["seed"], job["first"], job["games"],
        job["ev_rows"],
    )
    cpu = time.process_time() - c0
    wall = time.perf_counter() - w0
    h = hashlib.sha256()
    for a in (rows, cev, tcl):
        h.update(np.ascontiguousarray(a).tobytes())
    print(json.dumps({
        "actions": int(rows[:, R_ACTIONS].sum()),
        "decisions": int(rows[:, R_DECISIONS].sum()),
        "cpu_s": cpu, "wall_s": wall, "digest": h.hexdigest(),
    }), flush=True)
"""
)

# (name, mode, policy, decks, games per round in a full run)
WORKLOADS = [
    ("random_high_form", "high-form", "random", ("imperial", "highland"), 3000),
    ("random_deathmatch", "deathmatch", "random", ("sylvan", "imperial"), 3000),
    ("greedy_high_form", "high-form", "greedy", ("imperial", "highland"), 60),
    ("greedy_deathmatch", "deathmatch", "greedy", ("sylvan", "imperial"), 60),
    ("random_melee_4", "melee", "random", ("imperial", "highland", "sylvan", "highland"), 1500),
    ("random_team_high_form", "team-high-form", "random", ("imperial", "highland") * 2, 1500),
]


class Worker:
    """A long-lived process playing workloads with one checkout's engine."""

    def __init__(self, root: str, cache: str | None = None):
        env = dict(os.environ)
        env.pop("PYTHONPATH", None)
        if cache:
            env["KALARITE_NUMBA_CACHE"] = cache
        self.root = root
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKER],
            cwd=root,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, mode, policy, decks, games, seed=11, first=0, ev_rows=0) -> dict:
        job = dict(
            mode=mode, policy=policy, decks=list(decks), games=games, seed=seed, first=first,
            ev_rows=ev_rows,
        )  # fmt: skip
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"benchmark worker in {self.root} died")
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cli_module(root: str) -> str:
    """The CLI's module in checkout ``root``: ``sim.app.cli``, or ``sim.cli`` in a checkout
    from before the application layer moved to sim/app/."""
    return (
        "sim.app.cli" if os.path.isfile(os.path.join(root, "sim", "app", "cli.py")) else "sim.cli"
    )


def timed_play(root: str, cache: str) -> dict:
    """``kalarite play`` (one random High Form game) in a fresh process of checkout ``root``
    with the kernel cache ``cache``: wall and CPU seconds."""
    env = dict(os.environ, KALARITE_NUMBA_CACHE=cache)
    env.pop("PYTHONPATH", None)
    cmd = [sys.executable, "-m", cli_module(root), "play", "--decks", "imperial,highland"]
    c0 = _children_cpu()
    w0 = time.perf_counter()
    subprocess.run(cmd, cwd=root, env=env, check=True, stdout=subprocess.DEVNULL)
    return {"wall_s": time.perf_counter() - w0, "cpu_s": _children_cpu() - c0}


def cold_and_warm(root: str, warm_runs: int = 3) -> dict:
    """First ``kalarite play`` into an empty kernel cache, then the best of ``warm_runs``
    warm ones."""
    with tempfile.TemporaryDirectory(prefix="kalarite-cache-") as cache:
        cold = timed_play(root, cache)
        warm = [timed_play(root, cache) for _ in range(warm_runs)]
    best = min(warm, key=lambda r: r["wall_s"])
    return {
        "cold_compile_s": round(cold["wall_s"], 2),
        "cold_compile_cpu_s": round(cold["cpu_s"], 2),
        "warm_start_s": round(best["wall_s"], 2),
        "warm_start_cpu_s": round(min(r["cpu_s"] for r in warm), 2),
    }


def git_commit(root: str) -> str:
    out = subprocess.run(
        ["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    dirty = subprocess.run(
        ["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
    )
    return out.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


def ratio_summary(ratios: list) -> dict:
    return {
        "ratio": round(statistics.median(ratios), 2),
        "min": round(min(ratios), 2),
        "max": round(max(ratios), 2),
        "rounds": len(ratios),
    }


def compare(baseline: str, this: str, rounds: int, quick: bool, compile_rounds: int) -> dict:
    """Every workload, cold compile and warm start, alternating between ``this`` checkout and
    ``baseline``. Ratios are this over baseline for speeds (higher is better) and for times
    (lower is better)."""
    baseline = os.path.abspath(baseline)
    this = os.path.abspath(this)
    res = {
        "baseline": baseline,
        "baseline_commit": git_commit(baseline),
        "this_commit": git_commit(this),
        "rounds": rounds,
    }
    scale = 10 if quick else 1
    base_w, this_w = Worker(baseline), Worker(this)
    try:
        same = True
        for name, mode, policy, decks, games in WORKLOADS:
            games = max(4, games // scale)
            ratios, this_rate, base_rate = [], [], []
            for r in range(rounds):
                order = [(base_w, False), (this_w, True)]
                if r % 2:
                    order.reverse()  # neither side always runs right after the other
                out = {}
                for w, is_this in order:
                    out[is_this] = w.run(mode, policy, decks, games, ev_rows=200 if r == 0 else 0)
                same &= out[True]["digest"] == out[False]["digest"]
                t = out[True]["actions"] / out[True]["cpu_s"]
                b = out[False]["actions"] / out[False]["cpu_s"]
                this_rate.append(t)
                base_rate.append(b)
                ratios.append(t / b)
            res[name] = {
                **ratio_summary(ratios),
                "actions_per_cpu_s": round(statistics.median(this_rate)),
                "baseline_actions_per_cpu_s": round(statistics.median(base_rate)),
            }
        res["same_games"] = same
    finally:
        base_w.close()
        this_w.close()
    cold, warm, cold_cpu, warm_cpu = [], [], [], []
    for r in range(compile_rounds):
        pair = {}
        for root in (baseline, this) if r % 2 == 0 else (this, baseline):
            pair[root] = cold_and_warm(root)
        b, t = pair[baseline], pair[this]
        cold.append(t["cold_compile_s"] / b["cold_compile_s"])
        cold_cpu.append(t["cold_compile_cpu_s"] / b["cold_compile_cpu_s"])
        warm.append(t["warm_start_s"] / b["warm_start_s"])
        warm_cpu.append(t["warm_start_cpu_s"] / b["warm_start_cpu_s"])
        res.setdefault("compile_runs", []).append({"baseline": b, "this": t})
    if compile_rounds:
        res["cold_compile"] = ratio_summary(cold)
        res["cold_compile_cpu"] = ratio_summary(cold_cpu)
        res["warm_start"] = ratio_summary(warm)
        res["warm_start_cpu"] = ratio_summary(warm_cpu)
    return res


def ratio_table(res: dict) -> str:
    """Markdown table of a --baseline comparison."""
    rows = [("measure (this / baseline)", "ratio", "min..max", "this", "baseline")]
    for name, *_ in WORKLOADS:
        if name in res:
            r = res[name]
            rows.append(
                (
                    f"{name.replace('_', ' ')}: actions per CPU-second",
                    f"{r['ratio']}x",
                    f"{r['min']}..{r['max']}",
                    f"{r['actions_per_cpu_s']:,}",
                    f"{r['baseline_actions_per_cpu_s']:,}",
                )
            )
    runs = res.get("compile_runs", [])
    for key, label in (
        ("cold_compile", "cold compile, first `kalarite play` (wall s)"),
        ("cold_compile_cpu", "cold compile, first `kalarite play` (CPU s)"),
        ("warm_start", "warm `kalarite play` (wall s)"),
        ("warm_start_cpu", "warm `kalarite play` (CPU s)"),
    ):
        if key in res:
            r = res[key]
            field = key + "_s" if not key.endswith("_cpu") else key.replace("_cpu", "_cpu_s")
            this_v = statistics.median(run["this"][field] for run in runs)
            base_v = statistics.median(run["baseline"][field] for run in runs)
            rows.append((label, f"{r['ratio']}x", f"{r['min']}..{r['max']}", this_v, base_v))
    lines = [f"| {' | '.join(str(c) for c in row)} |" for row in rows]
    lines.insert(1, "|" + " --- |" * len(rows[0]))
    head = (
        f"this {res['this_commit']} vs baseline {res['baseline_commit']} ({res['baseline']}), "
        f"{res['rounds']} interleaved rounds; identical games: {res.get('same_games')}"
    )
    return head + "\n\n" + "\n".join(lines)
