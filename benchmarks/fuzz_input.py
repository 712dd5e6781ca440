"""The input fuzzer's long run: seeded mutants of every card file, of position files and of
study specs, each run through the real command line in its own process with a timeout.

    python -m benchmarks.fuzz_input --mutants 100 --out benchmarks/results/fuzz_input.json
    make fuzz

``--mutants N`` is per kind (content, position, spec), followed by ``--structural`` structural
mutants of each kind (nesting thousands deep, huge values and files, odd encodings; default:
each change once, or N // 4 when that is more). Each mutant (benchmarks/input_mutants.py)
must either load and play, or be refused with exactly one ``kalarite: error:`` line naming the
file, exit status 2. A failure is anything else: a traceback, another exit status, a signal
(a negative status), a run past ``--timeout`` (a hang), or an error that names neither the file
nor, for a changed card, a card. Spec mutants also go to the service's spec check as TOML and
JSON request bodies (in this process: it runs no engine code). Prints and writes one JSON
summary; exit status 1 if any mutant failed.
"""

import argparse
import concurrent.futures
import json
import os
import pathlib
import platform
import subprocess
import sys
import tempfile
import time

from benchmarks.input_mutants import STRUCTURAL, check_service, commands, judge, mutants

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run_subprocess(m, where: pathlib.Path, timeout: float) -> tuple:
    """(outcome, detail, seconds) of one mutant, each command a fresh interpreter."""
    start = time.monotonic()
    outcome = ("played", "")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for argv in commands(m, where):
        try:
            p = subprocess.run(
                [sys.executable, "-m", "sim.app.cli", *argv],
                capture_output=True,
                text=True,
                timeout=timeout,
                cwd=where,
                env=env,
            )
        except subprocess.TimeoutExpired:
            return "failure", f"no answer within {timeout:.0f} s (a hang)", timeout
        if p.returncode < 0:
            return "failure", f"killed by signal {-p.returncode}", time.monotonic() - start
        outcome = judge(m, p.returncode, p.stdout, p.stderr)
        if outcome[0] != "played":
            break
    return outcome[0], outcome[1], time.monotonic() - start


def _one(args):
    m, timeout = args
    with tempfile.TemporaryDirectory(prefix="kalarite-fuzz-") as d:
        outcome, detail, seconds = run_subprocess(m, pathlib.Path(d), timeout)
        if m.kind == "spec" and outcome != "failure":
            service = check_service(m, pathlib.Path(d) / "content-root")
            if service[0] == "failure":
                outcome, detail = service
    return m, outcome, detail, seconds


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mutants", type=int, default=100, help="mutants of each kind")
    p.add_argument("--seed", type=int, default=2027)
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per command")
    p.add_argument("--jobs", type=int, default=2, help="mutants run at once")
    p.add_argument("--kinds", default="content,position,spec")
    p.add_argument(
        "--structural",
        type=int,
        default=None,
        help="structural mutants of each kind (default: every change once, or mutants // 4)",
    )
    p.add_argument("--out", help="also write the JSON summary to this file")
    args = p.parse_args(argv)
    todo = mutants(
        args.seed, args.mutants, kinds=tuple(args.kinds.split(",")), structural=args.structural
    )
    start = time.monotonic()
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for m, outcome, detail, seconds in pool.map(_one, [(m, args.timeout) for m in todo]):
            rows.append((m, outcome, detail, seconds))
            if outcome == "failure":
                print(f"FAILURE {m.kind} {m.file} ({m.what}): {detail}", file=sys.stderr)
    by_kind = {}
    for m, outcome, _, _ in rows:
        k = by_kind.setdefault(m.kind, {"mutants": 0, "played": 0, "refused": 0, "failures": 0})
        k["mutants"] += 1
        k[
            "played" if outcome == "played" else "refused" if outcome == "refused" else "failures"
        ] += 1
    summary = {
        "command": "python -m benchmarks.fuzz_input " + " ".join(argv or sys.argv[1:]),
        "seed": args.seed,
        "mutants": len(rows),
        "loaded_and_played": sum(o == "played" for _, o, _, _ in rows),
        "refused": sum(o == "refused" for _, o, _, _ in rows),
        "failures": sum(o == "failure" for _, o, _, _ in rows),
        "by_kind": by_kind,
        "by_file": _by_file(rows),
        "structural": _structural(rows),
        "failed": [
            {"kind": m.kind, "file": m.file, "what": m.what, "detail": d}
            for m, o, d, _ in rows
            if o == "failure"
        ],
        "slowest_s": round(max((s for *_, s in rows), default=0.0), 1),
        "wall_s": round(time.monotonic() - start, 1),
        "timeout_s": args.timeout,
        "jobs": args.jobs,
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
    }
    text = json.dumps(summary, indent=2)
    print(text)
    if args.out:
        pathlib.Path(args.out).write_text(text + "\n")
    return 1 if summary["failures"] else 0


def _structural(rows) -> dict:
    """Outcomes of the structural mutants by change (the depth is part of the nested ones)."""
    out = {}
    for m, outcome, _, _ in rows:
        if m.what.split(" ")[0] in STRUCTURAL or m.what.startswith("dotted key"):
            key = m.what.split(" ")[0] if not m.what.startswith("dotted") else "dotted-key"
            f = out.setdefault(key, {"played": 0, "refused": 0, "failures": 0})
            f["failures" if outcome == "failure" else outcome] += 1
    return dict(sorted(out.items()))


def _by_file(rows) -> dict:
    out = {}
    for m, outcome, _, _ in rows:
        f = out.setdefault(f"{m.kind}:{m.file}", {"played": 0, "refused": 0, "failures": 0})
        f[
            "played" if outcome == "played" else "refused" if outcome == "refused" else "failures"
        ] += 1
    return dict(sorted(out.items()))


if __name__ == "__main__":
    sys.exit(main())
