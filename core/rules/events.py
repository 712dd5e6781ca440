"""The game log: one int32 row per event (kind, turn, seat, a, b, c).

Kernels that do not need a log pass a zero-row array; logging then only counts lost rows.
"""

from core.jit import njit
from core.layout import EV_LOST, EV_N, TURN_NO


@njit(cache=True, _nrt=False)
def log_event(s, ev, kind, seat, a, b, c):
    """Append one event; ``seat`` is the seat it concerns (usually the one to move)."""
    n = s[EV_N]
    if n < ev.shape[0]:
        ev[n, 0] = kind
        ev[n, 1] = s[TURN_NO]
        ev[n, 2] = seat
        ev[n, 3] = a
        ev[n, 4] = b
        ev[n, 5] = c
        s[EV_N] = n + 1
    else:
        s[EV_LOST] += 1
