"""One line of progress on stderr for the application's long steps that are not games (the
report, a first compile of the position query): on a terminal one line redrawn in place with
the elapsed time, in a log a line at most every ``every_s`` seconds (the first at once), so
neither sits silent through a long step nor fills a log with a line per plot."""

import contextlib
import sys
import threading
import time


class ProgressLine:
    """``line(text)``: "kalarite: LABEL: TEXT (m:ss)"; ``close()`` ends a redrawn line."""

    def __init__(self, label: str, stream=None, every_s: float = 4.0):
        self.label = label
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.every_s = every_s
        self.t0 = time.monotonic()
        self.last = None
        self.lock = threading.Lock()

    def __call__(self, text: str, force: bool = False):
        with self.lock:
            now = time.monotonic()
            if not (self.tty or force or self.last is None or now - self.last >= self.every_s):
                return
            self.last = now
            m, s = divmod(int(now - self.t0), 60)
            line = f"kalarite: {self.label}: {text} ({m}:{s:02d})"
            self.stream.write(f"\r\x1b[2K{line}" if self.tty else line + "\n")
            self.stream.flush()

    def close(self):
        if self.tty and self.last is not None:
            self.stream.write("\n")
            self.stream.flush()


@contextlib.contextmanager
def ticking(label: str, text: str, stream=None, every_s: float = 4.0, after_s: float = 0.0):
    """Say ``text`` and say it again as time passes (every second on a terminal, every
    ``every_s`` in a log) while the block runs: a step with nothing to count. ``after_s``:
    say nothing unless the block is still running after that many seconds. ``text`` may be
    a function, called at each line: where a step of several parts stands ("2 of 6")."""
    line = ProgressLine(label, stream, every_s)
    done = threading.Event()

    def tick():
        if done.wait(after_s):
            return
        line(text() if callable(text) else text)
        while not done.wait(1.0):
            line(text() if callable(text) else text)

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    try:
        yield line
    finally:
        done.set()
        thread.join()
        line.close()


def said(line: ProgressLine) -> bool:
    """Has ``line`` printed anything?"""
    return line.last is not None
