"""Run pip and show that it is working: ``python scripts/pip_progress.py WHAT -- pip ...``.

`make` installs kalarite into .venv with pip; a first install downloads and unpacks a few
hundred megabytes (numba, Ray, pyarrow...) and took minutes with no output under ``--quiet``.
This wrapper runs the pip command it is given and, instead of pip's hundreds of lines, keeps
one status line: what is being done, how many packages pip has collected, downloaded and is
installing, and the elapsed time. On a terminal the line is redrawn every second; in a log, a
line is printed at each change of phase and otherwise every ``KALARITE_PIP_EVERY`` seconds
(10), so nothing is silent for long either way. pip's warnings and errors are printed as they
come; if pip fails, the end of its output is printed in full, then its exit status is ours.

Standard library only: it runs before anything is installed.
"""

import collections
import os
import re
import subprocess
import sys
import threading
import time

TAIL_LINES = 60  # of pip's output, printed when it fails


class Status:
    """What pip is doing, from its output lines."""

    def __init__(self, what: str):
        self.what = what
        self.collected = 0
        self.downloaded = 0
        self.installing = 0
        self.phase = "resolving"
        self.lock = threading.Lock()

    def read(self, line: str) -> bool:
        """Take one line of pip's output; True when the phase changed."""
        before = self.phase
        with self.lock:
            if line.startswith(("Collecting ", "Processing ", "Requirement already")):
                self.collected += 1
            elif line.lstrip().startswith(("Downloading ", "Using cached ")):
                self.downloaded += 1
                self.phase = "downloading"
            elif line.startswith("Building wheel") or line.startswith("Building editable"):
                self.phase = "building"
            elif line.startswith("Installing collected packages:"):
                self.installing = len(line.split(":", 1)[1].split(","))
                self.phase = "installing"
            elif line.startswith("Successfully installed"):
                self.phase = "done"
        return self.phase != before

    def line(self, elapsed: float) -> str:
        with self.lock:
            m, s = divmod(int(elapsed), 60)
            counts = f"{self.collected} packages checked, {self.downloaded} downloaded"
            if self.installing:
                counts += f", {self.installing} to install"
            return f"kalarite: {self.what}: {self.phase} ({counts}; {m}:{s:02d})"


def run(what: str, argv: list, stream=sys.stderr, every_s: float | None = None) -> int:
    every_s = float(os.environ.get("KALARITE_PIP_EVERY", "10")) if every_s is None else every_s
    tty = stream.isatty()
    status = Status(what)
    tail = collections.deque(maxlen=TAIL_LINES)
    t0 = time.monotonic()
    done = threading.Event()
    printed = {"at": t0}

    def show(final=False):
        text = status.line(time.monotonic() - t0)
        if final and not tty and printed.get("text", "").split(" (")[0] == text.split(" (")[0]:
            return  # the phase's line is printed already
        printed["text"] = text
        if tty:
            stream.write(f"\r\x1b[2K{text}" + ("\n" if final else ""))
        else:
            stream.write(text + "\n")
        stream.flush()
        printed["at"] = time.monotonic()

    def ticker():
        while not done.wait(1.0 if tty else min(1.0, every_s)):
            if tty or time.monotonic() - printed["at"] >= every_s:
                show()

    show()
    thread = threading.Thread(target=ticker, daemon=True)
    thread.start()
    env = dict(os.environ, PIP_PROGRESS_BAR="off", PYTHONUNBUFFERED="1")
    try:
        proc = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
        )
    except OSError as e:
        done.set()
        stream.write(f"\nkalarite: cannot run {argv[0]}: {e.strerror or e}\n")
        return 127
    for raw in proc.stdout:
        line = raw.rstrip("\n")
        tail.append(line)
        if re.match(r"^(WARNING|ERROR)\b", line):
            stream.write(("\n" if tty else "") + line + "\n")
        if status.read(line) and not tty:
            show()
    rc = proc.wait()
    done.set()
    thread.join()
    if rc:
        stream.write(("\n" if tty else "") + f"kalarite: pip failed (exit status {rc}):\n")
        stream.write("\n".join(tail) + "\n")
    else:
        status.phase = "done"
        show(final=True)
    stream.flush()
    return rc


def main(args: list) -> int:
    if "--" not in args or args.index("--") != 1 or len(args) < 3:
        print("usage: pip_progress.py WHAT -- COMMAND...", file=sys.stderr)
        return 2
    return run(args[0], args[2:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
