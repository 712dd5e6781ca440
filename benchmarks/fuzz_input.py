"""The input fuzzer's long run: seeded mutants of every card file, of position files and of
study specs, each run through the real command line in its own process with a timeout.

    python -m benchmarks.fuzz_input --mutants 100 --out benchmarks/results/fuzz_input.json
    make fuzz

``--mutants N`` is per kind (content, position, spec; ``numbers`` is the numeric corpus of
benchmarks/numeric_extremes.py: every number flag of every command, the numbers of the files
they read and the service's routes, with NaN, the infinities, 1e400, huge integers, -0 and
negatives), followed by ``--structural`` structural
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

from benchmarks import numeric_extremes as numeric
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


def _number_case(args):
    """One numeric case as a fresh `kalarite` process in its own process group (killed whole
    at the timeout, so no Ray it started outlives it): (case, outcome, detail, seconds)."""
    case, timeout = args
    start = time.monotonic()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RAY_USAGE_STATS_ENABLED": "0"}
    with tempfile.TemporaryDirectory(prefix="kalarite-numbers-") as d:
        argv = numeric.write(case, pathlib.Path(d))
        p = subprocess.Popen(
            [sys.executable, "-m", "sim.app.cli", *argv],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=d,
            env=env,
            start_new_session=True,
        )
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            p.communicate()
            if case.must_refuse:
                return case, "failure", f"no refusal within {timeout:.0f} s", timeout
            return case, "accepted", f"still running at {timeout:.0f} s", timeout
    if p.returncode < 0:
        return case, "failure", f"killed by signal {-p.returncode}", time.monotonic() - start
    outcome, detail = numeric.judge(case, p.returncode, out, err)
    return case, outcome, detail, time.monotonic() - start


def run_numbers(timeout: float, jobs: int) -> dict:
    """The numeric corpus: every command-line case in its own process, every service case
    through FastAPI's TestClient in this process (it runs no engine code)."""
    from fastapi.testclient import TestClient

    from sim.app.service.app import create_app
    from sim.app.service.config import ServiceConfig

    cases = numeric.cli_cases()
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for case, outcome, detail, seconds in pool.map(_number_case, [(c, timeout) for c in cases]):
            rows.append((case, outcome, detail, seconds))
            if outcome == "failure":
                print(f"FAILURE {case.label()}: {detail}", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="kalarite-numbers-") as d:
        token = "fuzz-token-0123"
        config = ServiceConfig(data=pathlib.Path(d) / "data", token=token, address="127.0.0.1:9")
        with TestClient(
            create_app(config),
            headers={"authorization": f"Bearer {token}"},
            raise_server_exceptions=False,
        ) as client:
            for case in numeric.service_cases():
                start = time.monotonic()
                outcome, detail = numeric.run_service(case, client)
                rows.append((case, outcome, detail, time.monotonic() - start))
                if outcome == "failure":
                    print(f"FAILURE {case.label()}: {detail}", file=sys.stderr)
    counts = {"cases": len(rows), "refused": 0, "accepted": 0, "failures": 0}
    by_target = {}
    for case, outcome, _, _ in rows:
        key = "failures" if outcome == "failure" else outcome
        counts[key] += 1
        t = by_target.setdefault(case.target, {"refused": 0, "accepted": 0, "failures": 0})
        t[key] += 1
    return {
        **counts,
        "must_refuse": list(numeric.MUST_REFUSE[:5]) + ["10**40", "2**64"],
        "may_accept": list(numeric.MAY_ACCEPT),
        "by_target": dict(sorted(by_target.items())),
        "failed": [{"case": c.label(), "detail": d} for c, o, d, _ in rows if o == "failure"],
        "slowest_s": round(max((s for *_, s in rows), default=0.0), 1),
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mutants", type=int, default=100, help="mutants of each kind")
    p.add_argument("--seed", type=int, default=2027)
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per command")
    p.add_argument("--jobs", type=int, default=2, help="mutants run at once")
    p.add_argument("--kinds", default="content,position,spec,numbers")
    p.add_argument(
        "--numbers-timeout",
        type=float,
        default=60.0,
        help="seconds per numeric case: a value that must be refused and is not by then fails; "
        "one that may be taken counts as taken (a suggest of 50 games runs for minutes)",
    )
    p.add_argument(
        "--structural",
        type=int,
        default=None,
        help="structural mutants of each kind (default: every change once, or mutants // 4)",
    )
    p.add_argument("--out", help="also write the JSON summary to this file")
    args = p.parse_args(argv)
    kinds = tuple(k for k in args.kinds.split(",") if k != "numbers")
    todo = (
        mutants(args.seed, args.mutants, kinds=kinds, structural=args.structural) if kinds else []
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
        "numbers": run_numbers(args.numbers_timeout, args.jobs)
        if "numbers" in args.kinds
        else None,
        "wall_s": round(time.monotonic() - start, 1),
        "timeout_s": args.timeout,
        "jobs": args.jobs,
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
    }
    text = json.dumps(summary, indent=2)
    print(text)
    if args.out:
        pathlib.Path(args.out).write_text(text + "\n")
    numbers = summary["numbers"] or {"failures": 0}
    return 1 if summary["failures"] or numbers["failures"] else 0


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
