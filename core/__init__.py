"""The compiled engine: jitted kernels over plain arrays; it knows mechanics, not cards.
core imports only core.

The contracts shared with sim and results, at the top:
- ``constants``: small integer codes (ranks, modes, phases, option kinds, policies).
- ``layout``: where each field of a game lives in its int32 state row.
- ``ops``: the effect op vocabulary: instruction columns, the op registry, selector names.
- ``tables``: the content arrays every kernel receives (built by sim.content).
- ``rows``: the result-row layout results/ reads (imports nothing, loads no engine).
- ``kernel``: the drivers that play whole games: ``play(Batch, ...)``, the one seam, over the
  compiled ``play_games`` and ``play_games_checked``.

The engine, by part:
- ``board/``: squares, bitboards, pieces and stock.
- ``rules/``: the turn loop and the rules it follows (set-up, scoring, modes, piles, tasks, the
  expansions' turn flow).
- ``summon/``: which summons are legal now.
- ``effects/``: the interpreter of card effect programs and its op families.
- ``players/``: the players inside the engine and their search and evaluation.
- ``checks/``: the invariant checker and the load-time proofs of the tables and the op
  dispatch.
- ``jit/``: ``njit`` and the numba plumbing.

The kernel cache: numba's on-disk cache does not notice when a function *called* by a cached
kernel changes in another file, and would then run stale machine code. So the cache directory
is keyed by a hash of every source file under core/ (``ENGINE_HASH``): any engine edit starts
a fresh cache. Set KALARITE_NUMBA_CACHE to choose where the caches live.

Importing core does not import numba (about a second of CPU): the cache directory goes to
numba through ``NUMBA_CACHE_DIR``, which numba reads when it is first imported, so commands
that play nothing (``kalarite cards``, ``players``, ``--version``) never load it. The modules
those commands read (constants, layout, ops, tables, rows, ``rules/task_codes``,
``summon/orientations``, ``players/weights``, ``players/feature_names``) import no numba;
tests/test_cli_imports.py keeps it so.

Reference counting: numba's runtime (NRT) increments and decrements the reference count of
every array an engine function receives, on every call; with the tables passed down to small
helpers hundreds of times per action, those atomic updates took about three quarters of all
cycles. The engine functions never allocate, so they are compiled with ``_nrt=False`` (no
reference counting). Only functions that allocate (the kernel drivers, the invariant checker,
the Monte Carlo player) keep the runtime, marked ``_nrt=True`` explicitly: a function without
the flag would inherit its caller's setting. ``_nrt`` is a numba compiler option with a
leading underscore, so pyproject pins the numba versions it was tested with. Engine modules
import ``njit`` from core.jit (one compiled version per function).
"""

import hashlib
import os
import pathlib
import sys


def engine_hash(root: pathlib.Path = pathlib.Path(__file__).parent) -> str:
    """Every .py file under ``root`` (core/), subpackages included, named by its path relative
    to it (a bare file name would collide across the subpackages' __init__.py files)."""
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


ENGINE_HASH = engine_hash()
_root = os.environ.get("KALARITE_NUMBA_CACHE") or str(
    pathlib.Path.home() / ".cache" / "kalarite" / "numba"
)
# a profiled build (core.jit.profile) has timers compiled in, an index-checked build
# (core.jit.indexing) numba's bounds checks: each its own cache
_flavour = "-profile" if os.environ.get("KALARITE_PROFILE", "") == "1" else ""
INDEX_CHECK = os.environ.get("KALARITE_INDEX_CHECK", "") == "1"  # core.jit.indexing reads it
if INDEX_CHECK:
    _flavour += "-indexcheck"
    os.environ["NUMBA_BOUNDSCHECK"] = "1"  # numba reads it at its import
CACHE_DIR = os.path.join(_root, ENGINE_HASH + _flavour)
os.environ["NUMBA_CACHE_DIR"] = CACHE_DIR  # numba reads it at its import
if "numba" in sys.modules:  # numba was imported first: tell it directly
    sys.modules["numba"].config.CACHE_DIR = CACHE_DIR
    if INDEX_CHECK:
        sys.modules["numba"].config.BOUNDSCHECK = 1
