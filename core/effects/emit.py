"""Writing effect-target option rows (shared by the op families outside
core.effects.interpreter)."""

from core.constants import OPT_TARGET
from core.jit import njit


@njit(cache=True, _nrt=False)
def emit_target(opts, n, a, b, alt):
    """Append target (a, b) of alternative ``alt``; the last row stays free for a skip."""
    if n < opts.shape[0] - 1:
        opts[n, 0] = OPT_TARGET
        opts[n, 1] = a
        opts[n, 2] = b
        opts[n, 3] = alt
        return n + 1
    return n
