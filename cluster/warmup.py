"""Compile the engine once, in the driver, before the workers start.

numba compiles the kernel on its first call and caches the machine code on disk (core/
__init__.py). If every Ray worker hit a cold cache at once, each would compile the same code
side by side (on a busy 2-core machine: 24 minutes instead of 2) while the progress bar sat at
0. So the driver compiles first, saying so with the elapsed time, and the workers then load
the cache in a fraction of a second.

``warm_up()`` is the one call the runner makes: point it at another entry point (one that
compiles less, say) without touching the runner. The engine has two compiled variants:
the kernel every study plays, and the same loop with the invariant checker
(``warm_up(checked=True)``: `kalarite check`, ``play --check`` and the tests), each compiled
once on its first use, each saying so (the second names itself) and keeping its own
estimate. The count starts at the first moment, before numba is even imported.
"""

import json
import pathlib
import sys
import time

DEFAULT_COMPILE_S = 60.0  # a cold compile on the 2-core development machine (about 50 s)
_TICK_S = 1.0  # terminal: how often the elapsed time is redrawn
_LINE_S = 4.0  # not a terminal: how often a line is printed (under 5 s, late ticks included)
_QUIET_S = 2.0  # a warm load says nothing unless it takes longer than this


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


def compile_estimate_s(checked: bool = False) -> float:
    """The last cold compile of this variant measured on this machine, else the development
    machine's."""
    try:
        return float(json.loads(_estimate_file().read_text())[_KEY[checked]])
    except (OSError, ValueError, KeyError, TypeError):
        return DEFAULT_COMPILE_S


_KEY = {False: "seconds", True: "checked_seconds"}


def _remember(seconds: float, checked: bool = False):
    try:
        path = _estimate_file()
        try:
            known = json.loads(path.read_text())
            known = known if isinstance(known, dict) else {}
        except (OSError, ValueError):
            known = {}
        known[_KEY[checked]] = round(seconds, 1)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(known))
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
    """Compile (or load) the engine in this process, counted from the first moment (a
    ``cluster.progress.Step``): "loading the engine" after 2 s of loading, and on a cold
    cache at once "compiling the engine (first run only, about N minutes)", with the elapsed
    time every second on a terminal, else every 4 s, and a last line when done. ``say(text,
    final)``: where the lines go (default: stderr). Returns the seconds spent compiling (0.0
    when the cache was warm). ``checked``: the kernel with the invariant checker (`kalarite
    check`, `play --check`), a second engine variant with its own first compile, which says
    so and keeps its own estimate."""
    from cluster.progress import Step

    what = _WHAT[checked]
    step = Step(f"loading {what}", say, quiet_s=_QUIET_S, every=_every(say))
    with step:
        cached = engine_is_cached(checked)
        if cached is False:
            minutes = max(1, round(compile_estimate_s(checked) / 60))
            step.retitle(
                f"compiling {what} ({_FIRST[checked]}, about {minutes} minute{'s' * (minutes > 1)})"
            )
        t0 = time.perf_counter()
        _play_one_game(checked)
        spent = time.perf_counter() - t0
        if cached is False:
            _remember(step.elapsed(), checked)
            step.done(
                f"compiled {what} in {_clock(step.elapsed())}; later runs load it in about a second"
            )
            return step.elapsed()
    return spent if spent > 10 else 0.0


_WHAT = {False: "the engine", True: "the engine with the invariant checker"}
_FIRST = {False: "first run only", True: "first `kalarite check` or `play --check` only"}


def _every(say) -> float:
    """Seconds between elapsed-time lines: redrawn every second on a terminal, else a line
    every 4 s (no silent stretch over 5 s, a late tick included)."""
    return _TICK_S if say is None and sys.stderr.isatty() else _LINE_S


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds), 60)
    return f"{m}:{s:02d}"
