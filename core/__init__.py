"""The compiled engine: jitted kernels over plain arrays; it knows mechanics, not cards.

numba's on-disk cache does not notice when a function *called* by a cached kernel changes in
another file, and would then run stale machine code. So the cache directory is keyed by a hash
of every source file of this package: any engine edit starts a fresh cache. Set
KALARITE_NUMBA_CACHE to choose where the caches live.

Reference counting: numba's runtime (NRT) increments and decrements the reference count of
every array an engine function receives, on every call; with the tables (then a namedtuple
of dozens of arrays, now one pointer: core.tables) passed down to small helpers hundreds of
times per action, those atomic updates took about three quarters of all cycles. The engine
functions never allocate, so they are
compiled with ``_nrt=False`` (no reference counting; about 4.5x faster). Only functions
that allocate (the kernel drivers, the invariant checker, the Monte Carlo player) keep the
runtime, marked ``_nrt=True`` explicitly: a function without the flag would inherit its
caller's setting. ``_nrt`` is a numba compiler option with a leading underscore, so
pyproject pins the numba versions it was tested with. Engine modules import ``njit`` from
core.jit (one compiled version per function).
"""

import hashlib
import os
import pathlib

import numba


def _engine_hash(root: pathlib.Path = pathlib.Path(__file__).parent) -> str:
    """Every .py file under ``root`` (core/), subpackages included, named by its path relative
    to it (a bare file name would collide across the subpackages' __init__.py files)."""
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


ENGINE_HASH = _engine_hash()
_root = os.environ.get("KALARITE_NUMBA_CACHE") or str(
    pathlib.Path.home() / ".cache" / "kalarite" / "numba"
)
numba.config.CACHE_DIR = os.path.join(_root, ENGINE_HASH)
