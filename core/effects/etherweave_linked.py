"""The opposed pair (Etherweave, Antimatter Spirit's warp), a linked effect: all of it or
none of it.

Your common piece is put on an empty square and makes a combat step in some direction; an
enemy common piece is then put on the square it left and makes a combat step the opposite
way. The whole chain is one decision (square, direction, enemy colour), and only chains that
can be carried out completely are offered, so a player (random play too) never starts one
that would stop half-way; with none possible, nothing happens. A common piece's combat step
enters an empty square or takes a common piece of any colour, so both neighbours on the line
must be on the board and hold no upgraded piece. The enemy colour must have a piece in stock
once the first step is done (a common of that colour taken by the first step is back in its
stock by then). Target encoding: a = the square, b = direction + 8 * enemy colour.
"""

from core.board.pieces import has_stock, put
from core.constants import COMMON, EV_EFFECT_PLACE, EV_MOVE
from core.effects.emit import emit_target
from core.effects.primitives import kill, select_piece, touch
from core.jit import njit
from core.layout import BOARD, CUR, EFF_DIR, EFF_PLACED_N, EFF_PLACED_OWNER, STOCK
from core.rules.events import log_event
from core.rules.gateway import follow_gateway
from core.rules.modes import n_colours


@njit(cache=True, inline="always", _nrt=False)
def _common_can_enter(s, q):
    code = s[BOARD + q]
    return code == 0 or (code & 3) == COMMON


@njit(cache=True, _nrt=False)
def opposed_pair_targets_at(s, T, q, seat, opts, n, alt):
    """Every complete chain starting on the empty square ``q`` (caller checked the region)
    for colour ``seat``."""
    if not has_stock(s, seat, COMMON):
        return n
    for d in range(8):
        f = T.nbr[q, d]
        b = T.nbr[q, (d + 4) % 8]
        if f < 0 or b < 0 or not _common_can_enter(s, f) or not _common_can_enter(s, b):
            continue
        taken = s[BOARD + f]
        for e in range(n_colours(s)):
            if e == seat:
                continue
            back = 1 if taken != 0 and (taken >> 2) == e else 0
            if s[STOCK + e] + back > 0:
                n = emit_target(opts, n, q, d + 8 * e, alt)
    return n


@njit(cache=True, _nrt=False)
def _placed(s, ev, q, owner):
    put(s, q, owner, COMMON)
    log_event(s, ev, EV_EFFECT_PLACE, s[CUR], q, s[BOARD + q], 0)
    k = s[EFF_PLACED_N]
    if k < 2:
        s[EFF_PLACED_OWNER + k] = owner
    s[EFF_PLACED_N] = k + 1


@njit(cache=True, _nrt=False)
def _step(s, ev, a, b, seat):
    """A combat step of the common piece on ``a`` onto ``b`` (a common there is destroyed,
    counted for the player whose effect it is)."""
    mover = s[BOARD + a]
    if s[BOARD + b] != 0:
        kill(s, ev, b, seat, 1)
    s[BOARD + a] = 0
    s[BOARD + b] = mover
    follow_gateway(s, a, b)
    log_event(s, ev, EV_MOVE, s[CUR], a, b, mover)


@njit(cache=True, _nrt=False)
def opposed_pair(s, T, ev, q, code, seat):
    """Carry out the chain (q, direction, enemy colour) = (q, code % 8, code // 8)."""
    d = code % 8
    e = code // 8
    f = T.nbr[q, d]
    b = T.nbr[q, (d + 4) % 8]
    _placed(s, ev, q, seat)
    _step(s, ev, q, f, seat)
    touch(s, f)
    _placed(s, ev, q, e)
    _step(s, ev, q, b, seat)
    touch(s, b)
    select_piece(s, T, b)
    s[EFF_DIR] = (d + 4) % 8
