"""Run a command and time its output: each line of its stdout and stderr (a carriage-return
redraw counts as a line) with the seconds since the start, then the longest silent stretch.
Why: "no silent stretch over 5 s" is a claim about what a user sees; this measures it.

    python -m benchmarks.output_gaps [--quiet] -- kalarite suggest ... --out runs/s

Prints ``longest gap: N.N s (before: LINE)`` last, and exits with the command's status.
"""

import argparse
import os
import subprocess
import sys
import time


def timed_lines(argv, echo=True):
    """Yield (seconds since start, line) for each line the command writes (stderr merged
    into stdout, unbuffered), the final one at its exit; returns the exit status."""
    t0 = time.perf_counter()
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    buf = b""
    while True:
        chunk = os.read(proc.stdout.fileno(), 4096)
        if not chunk:
            break
        buf += chunk
        while True:
            cut = min((i for i in (buf.find(b"\n"), buf.find(b"\r")) if i >= 0), default=-1)
            if cut < 0:
                break
            line, buf = buf[:cut], buf[cut + 1 :]
            if line.strip():
                yield time.perf_counter() - t0, line.decode(errors="replace")
    if buf.strip():
        yield time.perf_counter() - t0, buf.decode(errors="replace")
    rc = proc.wait()
    yield time.perf_counter() - t0, f"(exit status {rc})"
    return rc


def longest_gap(stamps) -> tuple[float, str]:
    """The longest stretch between consecutive stamps (from the start), and the line ending it."""
    best, last, line_after = 0.0, 0.0, ""
    for t, line in stamps:
        if t - last > best:
            best, line_after = t - last, line
        last = t
    return best, line_after


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quiet", action="store_true", help="print only the longest gap")
    p.add_argument("command", nargs=argparse.REMAINDER, help="the command (after --)")
    args = p.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        p.error("give the command to time after --")
    stamps = []
    for t, line in timed_lines(command):
        stamps.append((t, line))
        if not args.quiet:
            print(f"{t:8.1f}s  {line}", flush=True)
    gap, line = longest_gap(stamps)
    print(f"longest gap: {gap:.1f} s (before: {line.strip()[:100]})")
    rc = stamps[-1][1].removeprefix("(exit status ").removesuffix(")")
    return int(rc) if rc.lstrip("-").isdigit() else 1


if __name__ == "__main__":
    sys.exit(main())
