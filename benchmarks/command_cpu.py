"""What each command that plays nothing costs, warm, side by side with another checkout
(issue 38: `kalarite --version` took 6.1 s and `cards show` 2 CPU-seconds at 25b763c, numba's
import most of it; the target is under 0.5 CPU-seconds for `--version`, `--help`, `cards`
and `players`).

    python -m benchmarks.command_cpu --baseline ../base-25b763c --rounds 9 \\
        --out benchmarks/results/command_cpu_vs_25b763c.json

Each command runs as a user runs it, in a fresh process (``python -m sim.app.cli ...`` in the
checkout's directory, so its own packages are imported), and is timed in CPU seconds of that
process (user + system, from the children's rusage; wall seconds beside). Warm: each
checkout has its own kernel cache (KALARITE_NUMBA_CACHE), filled by one untimed run of every
command before the rounds. The rounds alternate which checkout goes first. The figures are
medians over the rounds; the ratio is this over the baseline (lower is better).

``report`` and ``moves`` are timed too (a report of a 40-game study made once by this
checkout; the position file of docs/cli.md): they play nothing either, and ``moves`` must
only load cached kernels.
"""

import argparse
import json
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

from sim.app.bench.side_by_side import cli_module, git_commit

ROOT = pathlib.Path(__file__).resolve().parent.parent
TARGET_CPU_S = 0.5
TARGETED = ("--version", "--help", "cards", "players")


def commands(work: pathlib.Path, dataset: pathlib.Path, position: pathlib.Path) -> dict:
    """name -> argv (after ``kalarite``); ``work`` is scratch space of one run."""
    return {
        "--version": ["--version"],
        "--help": ["--help"],
        "cards": ["cards"],
        "cards show": ["cards", "show", "sylvan/naiad"],
        "players": ["players"],
        "report (no dataset)": ["report", str(work / "no-such-run")],
        "moves": ["moves", str(position)],
        "report (40 games)": ["report", str(dataset), "--out", str(work / "report")],
    }


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(root: str, argv: list, cache: str) -> dict:
    """One command in a fresh process of checkout ``root``: CPU and wall seconds."""
    env = dict(os.environ, KALARITE_NUMBA_CACHE=cache)
    env.pop("PYTHONPATH", None)
    env.pop("NUMBA_CACHE_DIR", None)  # each checkout's core names its own cache
    cmd = [sys.executable, "-m", cli_module(root), *argv]
    c0, w0 = _children_cpu(), time.perf_counter()
    rc = subprocess.run(
        cmd, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    ).returncode
    return {"cpu_s": _children_cpu() - c0, "wall_s": time.perf_counter() - w0, "rc": rc}


def position_file(work: pathlib.Path) -> pathlib.Path:
    """The position file of docs/cli.md, as written there."""
    doc = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    text = doc.split("<!-- file: position.toml -->\n```toml\n", 1)[1].split("```", 1)[0]
    path = work / "position.toml"
    path.write_text(text, encoding="utf-8")
    return path


def small_dataset(work: pathlib.Path) -> pathlib.Path:
    """A 40-game random study played by this checkout (in this process's CLI)."""
    out = work / "run"
    argv = ["simulate", "--decks", "sylvan,highland", "--mode", "deathmatch", "--games", "40"]
    argv += ["--policy", "random", "--workers", "0", "--out", str(out)]
    subprocess.run(
        [sys.executable, "-m", "sim.app.cli", *argv], cwd=ROOT, check=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    return out


def compare(baseline: str, rounds: int, only=None) -> dict:
    baseline = os.path.abspath(baseline)
    this = str(ROOT)
    res = {
        "what": "warm CPU seconds of one command in a fresh process (median over rounds)",
        "baseline": baseline,
        "baseline_commit": git_commit(baseline),
        "this_commit": git_commit(this),
        "rounds": rounds,
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "load_average_start": os.getloadavg(),
        "commands": {},
    }
    with tempfile.TemporaryDirectory(prefix="kalarite-cmd-") as tmp:
        work = pathlib.Path(tmp)
        cmds = commands(work, small_dataset(work), position_file(work))
        if only:
            cmds = {k: v for k, v in cmds.items() if k in only}
        caches = {root: str(work / f"cache-{i}") for i, root in enumerate((baseline, this))}
        for root in (baseline, this):  # warm: kernel caches, font caches, .pyc files
            for argv in cmds.values():
                timed(root, argv, caches[root])
        runs = {name: {baseline: [], this: []} for name in cmds}
        for r in range(rounds):
            for name, argv in cmds.items():
                order = (baseline, this) if r % 2 == 0 else (this, baseline)
                for root in order:
                    runs[name][root].append(timed(root, argv, caches[root]))
        for name, by_root in runs.items():
            t = [x["cpu_s"] for x in by_root[this]]
            b = [x["cpu_s"] for x in by_root[baseline]]
            row = {
                "argv": cmds[name],
                "cpu_s": round(statistics.median(t), 3),
                "baseline_cpu_s": round(statistics.median(b), 3),
                "ratio": round(statistics.median(t) / statistics.median(b), 3),
                "wall_s": round(statistics.median(x["wall_s"] for x in by_root[this]), 3),
                "baseline_wall_s": round(
                    statistics.median(x["wall_s"] for x in by_root[baseline]), 3
                ),
                "exit_status": sorted({x["rc"] for x in by_root[this]}),
            }
            if name in TARGETED:
                row["under_target"] = row["cpu_s"] < TARGET_CPU_S
            res["commands"][name] = row
    res["load_average_end"] = os.getloadavg()
    return res


def table(res: dict) -> str:
    rows = ["| command | this (CPU s) | baseline (CPU s) | ratio | wall this / baseline (s) |"]
    rows.append("| --- | --- | --- | --- | --- |")
    for name, r in res["commands"].items():
        mark = "" if "under_target" not in r else (" ✓" if r["under_target"] else " ✗")
        rows.append(
            f"| `{name}` | {r['cpu_s']:.2f}{mark} | {r['baseline_cpu_s']:.2f} | "
            f"{r['ratio']:.2f}x | {r['wall_s']:.2f} / {r['baseline_wall_s']:.2f} |"
        )
    return "\n".join(rows)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.command_cpu", description=__doc__)
    p.add_argument("--baseline", required=True, help="another checkout (e.g. of 25b763c)")
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--only", action="append", help="time only this command (repeatable)")
    p.add_argument("--out", help="write the figures as JSON here")
    args = p.parse_args(argv)
    res = compare(args.baseline, args.rounds, args.only)
    print(table(res))
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(res, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
