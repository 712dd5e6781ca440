"""Progress of a running study or check: a bar on a terminal (``RichProgress``), plain lines
where there is none (logs, pipes, ``make demo`` under CI) and a notebook cell; ``display_for``
picks one.

Every display is built as ``Display(total, done, start=...)`` (``start``: the runner's start of
play, so the rate shown and the summary line's agree) and has the runner's interface: a
context manager with ``started()``,
``advance(games)``, ``tick()`` (called about twice a second, also when nothing finished) and
``note(text)`` (a message that must show at once, e.g. the Ctrl-C acknowledgement).
"""

import os
import sys
import time


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class _Counter:
    """Games done and the rate: games played by this run over the time since play started
    (``start``: when the runner submitted the first chunk, after compiling and starting Ray),
    the same definition as the run's summary line. A chunk's games count when it arrives, so
    early on the rate errs low, never high."""

    def __init__(self, total: int, done: int, start: float | None = None):
        self.total = total
        self.done = done
        self.done0 = done  # finished by an earlier run: not this run's rate
        self.start = time.perf_counter() if start is None else start

    def advance(self, games: int):
        self.done += games

    def rate(self) -> float | None:
        dt = time.perf_counter() - self.start
        played = self.done - self.done0
        return played / dt if dt > 0 and played > 0 else None

    def text(self) -> str:
        pct = 100.0 * self.done / self.total if self.total else 100.0
        text = f"{self.done:,} of {self.total:,} games ({pct:.0f}%)"
        r = self.rate()
        if r:
            text += f", {r:,.0f} games/s, about {_clock((self.total - self.done) / r)} left"
        else:
            text += f", waiting for the first chunk ({_clock(time.perf_counter() - self.start)})"
        return text


class NoProgress:
    def __init__(self, *a, **k):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def started(self):
        pass

    def advance(self, games: int):
        pass

    def tick(self):
        pass

    def note(self, text: str):
        print(f"kalarite: {text}", file=sys.stderr, flush=True)


class LineProgress(NoProgress):
    """One plain line on stderr every ``every`` seconds (default 5; the environment variable
    KALARITE_PROGRESS_EVERY sets it), and one when the study's last chunk arrives."""

    def __init__(self, total: int, done: int, every: float | None = None, stream=None, start=None):
        self.counter = _Counter(total, done, start)
        env = os.environ.get("KALARITE_PROGRESS_EVERY")
        self.every = every if every is not None else float(env) if env else 5.0
        self.stream = stream or sys.stderr
        self.last = time.perf_counter()

    def _line(self):
        self.stream.write(f"kalarite: {self.counter.text()}\n")
        self.stream.flush()
        self.last = time.perf_counter()

    def __enter__(self):
        self._line()
        return self

    def advance(self, games: int):
        self.counter.advance(games)
        if self.counter.done >= self.counter.total:
            self._line()

    def tick(self):
        if time.perf_counter() - self.last >= self.every:
            self._line()

    def note(self, text: str):
        self.stream.write(f"kalarite: {text}\n")
        self.stream.flush()


class NotebookProgress(NoProgress):
    """One line in a notebook cell, updated in place (IPython's display handles: no widget
    library needed)."""

    def __init__(self, total: int, done: int, display=None, start=None):
        self.counter = _Counter(total, done, start)
        self._display = display
        self.handle = None
        self.last = 0.0

    def __enter__(self):
        if self._display is None:
            from IPython.display import display

            self._display = display
        self.handle = self._display(self._text(), display_id=True)
        return self

    def _text(self, extra=""):
        return f"kalarite: {self.counter.text()}{extra}"

    def _show(self, extra=""):
        self.last = time.perf_counter()
        if self.handle is not None:
            self.handle.update(self._text(extra))

    def advance(self, games: int):
        self.counter.advance(games)
        if time.perf_counter() - self.last > 0.5 or self.counter.done >= self.counter.total:
            self._show()

    def tick(self):
        if time.perf_counter() - self.last > 1.0:
            self._show()

    def note(self, text: str):
        self._show(f" — {text}")


def in_notebook() -> bool:
    """Running inside a Jupyter kernel (IPython's ZMQ shell)?"""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    try:
        shell = ipython.get_ipython()
    except Exception:  # noqa: BLE001
        return False
    return shell is not None and "ZMQ" in type(shell).__name__


class RichProgress:
    """Games done, games/s and ETA on a terminal: the rate of ``_Counter`` (games this run
    played over the time since play started, as in the summary line), not rich's own
    estimate, which starts at the first update and read 5-10x high early on."""

    def __init__(self, total: int, done: int, start: float | None = None):
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            ProgressColumn,
            TextColumn,
            TimeElapsedColumn,
        )
        from rich.text import Text

        counter = self.counter = _Counter(total, done, start)

        class _Rate(ProgressColumn):
            def render(self, task):
                r = counter.rate()
                if not r:
                    return Text("- games/s ETA -")
                left = _clock((counter.total - counter.done) / r)
                return Text(f"{r:,.0f} games/s ETA {left}")

        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("games"),
            _Rate(),
            TimeElapsedColumn(),
            transient=True,
        )
        self._task = self._progress.add_task("starting workers", total=total, completed=done)

    def __enter__(self):
        self._progress.start()
        return self

    def __exit__(self, *exc):
        self._progress.stop()
        return False

    def started(self):
        self._progress.update(self._task, description="playing")

    def advance(self, games: int):
        self.counter.advance(games)
        self._progress.advance(self._task, games)

    def tick(self):
        pass

    def note(self, text: str):
        self._progress.console.print(f"kalarite: {text}")


def display_for(progress):
    """The progress display of a run: none with ``progress=False``; else a line in a
    notebook, a bar on a terminal, plain lines on stderr otherwise (logs, pipes, CI)."""
    if progress is False:
        return NoProgress
    if in_notebook():
        return NotebookProgress
    return RichProgress if sys.stdout.isatty() else LineProgress


def say(text: str):
    """A message of the run before (or outside) the progress display: one line on stderr."""
    print(f"kalarite: {text}", file=sys.stderr, flush=True)
