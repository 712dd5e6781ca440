"""Progress of a running study or check: a bar on a terminal (``RichProgress``), plain lines
where there is none (logs, pipes, ``make demo`` under CI) and a notebook cell; ``display_for``
picks one. ``Step``: a stretch before play (compiling, starting Ray) counted while it lasts.

Every display is built as ``Display(total, done, start=..., workers=..., chunks=...)``
(``start``: when the runner submitted the first chunk) and has the runner's interface: a
context manager with ``started()``, ``advance(games, play_s)`` (a chunk landed, with its
worker's seconds playing it), ``tick()`` (called about twice a second, also when nothing
finished) and ``note(text)`` (a message that must show at once, e.g. the Ctrl-C
acknowledgement). ``clock``: the time source, a fake one in tests.
"""

import os
import sys
import threading
import time

# in a log, a line at least this often: a 5 s cadence missed "no silent stretch over 5 s" by
# a late tick under load (issue 50: 5.4 s)
LINE_EVERY_S = 4.0


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class Estimate:
    """Games done, games/s and the time left, from playing time only.

    The rate is the workers' own: games over the seconds the workers spent playing them
    (each chunk's ``play_s``, measured in the worker), times the workers playing at once.
    Starting Ray and the workers (process start, imports, loading the kernel) is no part of
    it: it is shown apart, as ``starting workers`` until the first chunk lands. Counting it
    made the early ETA 3-8x too long (38:48 shown for 12:23 real), and an ETA computed from
    the wall time since play started climbed while no chunk landed.

    Until the first chunks land (one per worker, or every chunk of a smaller run) the
    display says ``estimating``: one chunk is one matchup's cost. The time left is computed
    when a chunk lands and counts down from there, so it never climbs between landings."""

    def __init__(self, total, done, start=None, workers=1, chunks=None, clock=None):
        self.clock = clock or time.perf_counter
        self.total = total
        self.done = done
        self.start = self.clock() if start is None else start  # the first chunk submitted
        self.workers = max(1, int(workers or 1))
        # chunks this run plays (None: unknown); the estimate waits for the first wave
        self.wave = self.workers if chunks is None else max(1, min(self.workers, chunks))
        self.landed = 0  # chunks of this run that landed
        self.games = 0  # games of this run that landed
        self.busy_s = 0.0  # the workers' seconds playing them
        self.first_at = None  # when the first chunk landed
        self.last_at = None  # when the last one did
        self.left_at_last = None  # the time left, estimated when the last chunk landed

    def advance(self, games: int, play_s: float | None = None):
        now = self.clock()
        if self.first_at is None:
            self.first_at = now
        self.last_at = now
        self.done += games
        self.games += games
        self.landed += 1
        # a worker that did not measure (an older one): its share of the wall time
        self.busy_s += play_s if play_s is not None else (now - self.start) / self.landed
        r = self.rate()
        self.left_at_last = max(0, self.total - self.done) / r if r else None

    def starting(self) -> bool:
        """No chunk of this run has landed yet: the workers are starting."""
        return self.first_at is None

    def rate(self) -> float | None:
        """Games a second, once the first wave landed (None before)."""
        if self.landed < self.wave or self.busy_s <= 0:
            return None
        return self.workers * self.games / self.busy_s

    def left_s(self) -> float | None:
        """Seconds left: the estimate at the last landing, less the time since."""
        if self.left_at_last is None:
            return None
        return max(0.0, self.left_at_last - (self.clock() - self.last_at))

    def status(self) -> str:
        """What the rate column says: starting, estimating, or the rate and time left."""
        if self.starting():
            return f"starting workers ({_clock(self.clock() - self.start)})"
        r = self.rate()
        if r is None:
            return f"estimating ({self.landed} of {self.wave} first chunks in)"
        left = self.left_s()
        if self.done >= self.total:
            return f"{r:,.0f} games/s"
        return f"{r:,.0f} games/s, " + (
            f"about {_clock(left)} left" if left >= 1 else "finishing the last chunks"
        )

    def text(self) -> str:
        pct = 100.0 * self.done / self.total if self.total else 100.0
        return f"{self.done:,} of {self.total:,} games ({pct:.0f}%), {self.status()}"


class NoProgress:
    def __init__(self, *a, **k):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def started(self):
        pass

    def advance(self, games: int, play_s: float | None = None):
        pass

    def tick(self):
        pass

    def note(self, text: str):
        print(f"kalarite: {text}", file=sys.stderr, flush=True)


class LineProgress(NoProgress):
    """One plain line on stderr every ``every`` seconds (default 4; the environment variable
    KALARITE_PROGRESS_EVERY sets it), and one when the study's last chunk arrives."""

    def __init__(self, total, done, every=None, stream=None, start=None, clock=None, **kw):
        self.counter = Estimate(total, done, start, clock=clock, **kw)
        env = os.environ.get("KALARITE_PROGRESS_EVERY")
        self.every = every if every is not None else float(env) if env else LINE_EVERY_S
        self.stream = stream or sys.stderr
        self.last = self.counter.clock()

    def _line(self):
        self.stream.write(f"kalarite: {self.counter.text()}\n")
        self.stream.flush()
        self.last = self.counter.clock()

    def __enter__(self):
        self._line()
        return self

    def advance(self, games: int, play_s: float | None = None):
        self.counter.advance(games, play_s)
        if self.counter.done >= self.counter.total:
            self._line()

    def tick(self):
        if self.counter.clock() - self.last >= self.every:
            self._line()

    def note(self, text: str):
        self.stream.write(f"kalarite: {text}\n")
        self.stream.flush()


class NotebookProgress(NoProgress):
    """One line in a notebook cell, updated in place (IPython's display handles: no widget
    library needed)."""

    def __init__(self, total, done, display=None, start=None, clock=None, **kw):
        self.counter = Estimate(total, done, start, clock=clock, **kw)
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
        self.last = self.counter.clock()
        if self.handle is not None:
            self.handle.update(self._text(extra))

    def advance(self, games: int, play_s: float | None = None):
        self.counter.advance(games, play_s)
        if self.counter.clock() - self.last > 0.5 or self.counter.done >= self.counter.total:
            self._show()

    def tick(self):
        if self.counter.clock() - self.last > 1.0:
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
    """Games done, games/s and the time left on a terminal: ``Estimate``'s (playing time
    only, start-up shown apart), not rich's own estimate, which starts at the first update
    and read 5-10x high early on."""

    def __init__(self, total, done, start=None, clock=None, **kw):
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            ProgressColumn,
            TextColumn,
            TimeElapsedColumn,
        )
        from rich.text import Text

        counter = self.counter = Estimate(total, done, start, clock=clock, **kw)

        class _Rate(ProgressColumn):
            def render(self, task):
                return Text(counter.status())

        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("games"),
            _Rate(),
            TimeElapsedColumn(),
            transient=True,
        )
        self._task = self._progress.add_task("playing", total=total, completed=done)

    def __enter__(self):
        self._progress.start()
        return self

    def __exit__(self, *exc):
        self._progress.stop()
        return False

    def started(self):
        pass

    def advance(self, games: int, play_s: float | None = None):
        self.counter.advance(games, play_s)
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


def step_printer(stream=None):
    """``say(text, final)`` for a ``Step``: on a terminal one line redrawn in place (ended by
    the final message), otherwise one line per message."""
    stream = stream or sys.stderr
    tty = stream.isatty()

    def say_step(text, final):
        if tty:
            stream.write(f"\r\x1b[2Kkalarite: {text}{chr(10) if final else ''}")
        else:
            stream.write(f"kalarite: {text}\n")
        stream.flush()

    say_step.redraws = tty
    return say_step


class Step:
    """A stretch the user waits for before any game counts (compiling the engine, starting
    Ray), counted while it lasts so that no stretch is silent: ``say(text, final)`` gets
    "TEXT..." (at once, or after ``quiet_s`` for a step that is usually short, so a quick one
    says nothing), then "TEXT: M:SS elapsed" every ``every`` seconds (default: every second
    on a terminal, else every 4 s), and ``done(text)`` says the last line. ``retitle``
    changes what the step is called (a warm-up that finds the cache cold), from then on.

    A thread calls ``tick`` while the step lasts; ``clock`` is the time source. Tests pass a
    fake clock and ``thread=False`` and call ``tick`` themselves."""

    def __init__(self, text, say=None, *, quiet_s=0.0, every=None, clock=None, thread=True):
        self.text = text
        self.say = say or step_printer()
        self.clock = clock or time.perf_counter
        self.quiet_s = quiet_s
        tty = getattr(self.say, "redraws", False)
        self.every = every if every is not None else (1.0 if tty else LINE_EVERY_S)
        self.thread = thread
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self.spoken = False  # said anything
        self.ended = False  # said its last line
        self.t0 = None
        self.next_at = quiet_s  # elapsed seconds at which the next line is due
        self._thread = None

    def elapsed(self) -> float:
        return self.clock() - self.t0

    def _speak(self, text, final=False):
        with self._lock:
            if self.ended:
                return
            self.spoken = True
            self.ended = final
            self.say(text, final)

    def __enter__(self):
        self.t0 = self.clock()
        self.tick()
        if self.thread:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def _run(self):
        while not self._stop.wait(max(0.01, min(1.0, self.next_at - self.elapsed()))):
            self.tick()

    def tick(self):
        """Say what is due now: the first line once ``quiet_s`` passed, then the elapsed
        time every ``every`` seconds."""
        t = self.elapsed()
        if t < self.next_at:
            return
        self._speak(f"{self.text}: {_clock(t)} elapsed" if self.spoken else f"{self.text}...")
        self.next_at = t + self.every

    def retitle(self, text: str):
        """From now on the step is ``text``, said at once."""
        self.text = text
        self._speak(f"{text}...")
        self.next_at = self.elapsed() + self.every

    def done(self, text: str):
        """The last line (on a terminal it ends the redrawn one)."""
        self._finish()
        self._speak(text, True)

    def _finish(self):
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()

    def __exit__(self, exc_type, *exc):
        self._finish()
        if not self.spoken:
            return False
        if exc_type is None:  # a step that spoke says it is over
            self._speak(f"{self.text}: done in {_clock(self.elapsed())}", True)
        elif getattr(self.say, "redraws", False):  # ends the redrawn line before the error
            self._speak(f"{self.text}: stopped after {_clock(self.elapsed())}", True)
        return False
