"""Compile the engine once, in the driver, before the workers start.

numba compiles the kernel on its first call and caches the machine code on disk (core/
__init__.py). If every Ray worker hit a cold cache at once, each would compile the same code
side by side (on a busy 2-core machine: 24 minutes instead of 2) while the progress bar sat at
0. So the driver compiles first, saying so with the elapsed time, and the workers then load
the cache in a fraction of a second.

``warm_up()`` is the one call the runner makes: point it at another entry point (one that
compiles less, say) without touching the runner.
"""

import json
import pathlib
import sys
import threading
import time

DEFAULT_COMPILE_S = 60.0  # a cold compile on the 2-core development machine (about 50 s)
_TICK_S = 1.0  # terminal: how often the elapsed time is redrawn
_LINE_S = 15.0  # not a terminal: how often a line is printed


def _kernel(checked: bool = False):
    """``play_games``: the compiled kernel behind ``core.kernel.play``, the seam every command
    plays through; ``checked``: ``play_games_checked``, the same loop with the invariant
    checker, which only `kalarite check`, ``play --check`` and the tests compile (its cache
    index is all this reads: nothing here calls a kernel but through the seam)."""
    from core.kernel import play_games, play_games_checked

    return play_games_checked if checked else play_games


def engine_is_cached(checked: bool = False) -> bool | None:
    """Does numba's on-disk cache hold the kernel for this engine version? None: unknown."""
    try:  # the cache index of the kernel, empty when missing or stale (numba internals)
        return bool(_kernel(checked)._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - numba internals moved: fall back to "unknown"
        return None


def _estimate_file() -> pathlib.Path:
    import numba

    return pathlib.Path(numba.config.CACHE_DIR).parent / "compile-seconds.json"


def compile_estimate_s() -> float:
    """The last cold compile measured on this machine, else the development machine's."""
    try:
        return float(json.loads(_estimate_file().read_text())["seconds"])
    except (OSError, ValueError, KeyError, TypeError):
        return DEFAULT_COMPILE_S


def _remember(seconds: float):
    try:
        path = _estimate_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"seconds": round(seconds, 1)}))
    except OSError:
        pass


def _play_one_game(checked: bool = False):
    """One game of the smallest kind through the seam (core.kernel.play), so that the kernel
    a chunk runs compiles (or loads) with the one signature every chunk uses."""
    from core.kernel import play
    from sim.content import load_content
    from sim.games import batch

    b = batch(load_content(), "high-form", ("imperial", "imperial"), ("random", "random"), 1)
    # positions_every stays 0, but the unchecked kernel compiles its sampling all the same
    play(b, 0, 1, turn_cap=5, allow_no_effect=True, ev_rows=64, checked=checked)


def warm_up(say=None, checked: bool = False) -> float:
    """Compile (or load) the engine in this process. On a cold cache ``say(text, final)``
    gets the message "compiling the engine (first run only, about N minutes)" with the elapsed
    time, every second on a terminal, else every 15 s, and once more when done. Returns the
    seconds spent compiling (0.0 when the cache was warm). ``checked``: the kernel with the
    invariant checker (`kalarite check`)."""
    cached = engine_is_cached(True) if checked else engine_is_cached()
    play = (lambda: _play_one_game(True)) if checked else _play_one_game
    if cached is not False:
        t0 = time.perf_counter()
        play()
        spent = time.perf_counter() - t0
        return spent if spent > 10 else 0.0
    say = say or _stderr_printer()
    minutes = max(1, round(compile_estimate_s() / 60))
    head = f"compiling the engine (first run only, about {minutes} minute{'s' * (minutes > 1)})"
    t0 = time.perf_counter()
    done = threading.Event()

    def ticker():
        tty = sys.stderr.isatty()
        every = _TICK_S if tty else _LINE_S
        say(f"{head}...", False)
        while not done.wait(every):
            say(f"{head}: {_clock(time.perf_counter() - t0)} elapsed", False)

    thread = threading.Thread(target=ticker, daemon=True)
    thread.start()
    try:
        play()
    finally:
        done.set()
        thread.join()
    spent = time.perf_counter() - t0
    _remember(spent)
    say(f"compiled the engine in {_clock(spent)}; later runs load it in about a second", True)
    return spent


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m}:{s:02d}"


def _stderr_printer():
    """Terminal: one line redrawn in place; otherwise one line per message."""
    tty = sys.stderr.isatty()

    def say(text, final):
        if tty:
            end = "\n" if final else ""
            sys.stderr.write(f"\r\x1b[2Kkalarite: {text}{end}")
        else:
            sys.stderr.write(f"kalarite: {text}\n")
        sys.stderr.flush()

    return say
