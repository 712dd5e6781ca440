"""Frozen effects (Everfrost) and the lost action: the turn-flow side of both.

A being card with a frozen program is stored in its seat's frozen slot after its effect
(one slot: with one already stored, the player keeps one card and discards the other). The
stored program is thawed, at no action cost, wherever a flare could be played; the card
then goes to the discard pile. Lost action: a seat's mark makes every other colour's next
normal turn start with one action; the mark is cleared when that seat starts its own next
normal turn (BGA action_malus: extra turns neither suffer nor clear it).
"""

from core.constants import (
    EK_BEING,
    EK_FROZEN,
    EK_NONE,
    EV_FROZEN,
    EV_KEEP_FROZEN,
    EV_THAW,
    OPT_KEEP_FROZEN,
    OPT_THAW,
    PH_ACTION,
    PH_FROZEN_CHOICE,
)
from core.jit import njit
from core.layout import (
    ACTIONS_LEFT,
    BORROW_ENEMY,
    COLOUR,
    CUR,
    EFF_BEING_SQ,
    EFF_CARD,
    EFF_KIND,
    EFF_ORIENT,
    EFF_OVERSUMMONED,
    EFF_TARGET,
    FROZEN,
    MALUS,
    N_PLAYERS,
    PHASE,
)
from core.rules.events import log_event
from core.rules.piles import discard_own


@njit(cache=True, _nrt=False)
def _row(opts, n, kind, a):
    if n < opts.shape[0]:
        opts[n, 0] = kind
        opts[n, 1] = a
        opts[n, 2] = 0
        opts[n, 3] = 0
        return n + 1
    return n


@njit(cache=True, _nrt=False)
def thaw_options(s, opts, n):
    """The thaw option, where a flare could be played and a frozen effect is stored."""
    if s[FROZEN + s[CUR]] >= 0:
        n = _row(opts, n, OPT_THAW, 0)
    return n


@njit(cache=True, _nrt=False)
def frozen_choice_options(s, opts):
    n = _row(opts, 0, OPT_KEEP_FROZEN, 0)  # keep the card just resolved
    return _row(opts, n, OPT_KEEP_FROZEN, 1)  # keep the stored card


@njit(cache=True, _nrt=False)
def store_after_effect(s, T, ev):
    """A being's program ended: store its card if it has a frozen program. Returns True if
    the card was taken care of (stored, or a keep-or-replace choice is now pending)."""
    card = s[EFF_CARD]
    if s[EFF_KIND] != EK_BEING or card < 0 or T.card_has_frozen[card] == 0:
        return False
    seat = s[CUR]
    if s[FROZEN + seat] >= 0:
        s[PHASE] = PH_FROZEN_CHOICE  # EFF_CARD keeps the new card until the choice
        return True
    s[FROZEN + seat] = card
    log_event(s, ev, EV_FROZEN, seat, card, 0, 0)
    s[EFF_CARD] = -1
    s[EFF_KIND] = EK_NONE
    s[PHASE] = PH_ACTION
    return True


@njit(cache=True, _nrt=False)
def keep_frozen(s, ev, keep_old):
    """Resolve the keep-or-replace choice; the card not kept goes to the discard pile."""
    seat = s[CUR]
    new = s[EFF_CARD]
    old = s[FROZEN + seat]
    if keep_old == 1:
        discard_own(s, seat, new)
        log_event(s, ev, EV_KEEP_FROZEN, seat, old, new, 0)
    else:
        discard_own(s, seat, old)
        s[FROZEN + seat] = new
        log_event(s, ev, EV_KEEP_FROZEN, seat, new, old, 0)
    s[EFF_CARD] = -1
    s[EFF_KIND] = EK_NONE
    s[PHASE] = PH_ACTION


@njit(cache=True, _nrt=False)
def begin_thaw(s, ev):
    """Take the stored card out of the slot as the running program's card (no being, no
    pattern); returns it. The caller starts its frozen program. A borrowed enemy piece not
    used yet is lost (BGA clears the bonus at the start of every effect but a flare's)."""
    seat = s[CUR]
    card = s[FROZEN + seat]
    s[FROZEN + seat] = -1
    log_event(s, ev, EV_THAW, seat, card, 0, 0)
    s[EFF_CARD] = card
    s[EFF_KIND] = EK_FROZEN
    s[EFF_BEING_SQ] = -1
    s[EFF_ORIENT] = -1
    s[EFF_TARGET] = -1
    s[EFF_OVERSUMMONED] = 0
    s[BORROW_ENEMY] = 0
    return card


@njit(cache=True, _nrt=False)
def lose_action_at_turn_start(s, seat, extra):
    """A normal turn clears the seat's own mark, then starts with one action if a seat of
    another colour holds a mark (team play: "each other team")."""
    if extra == 1:
        return
    s[MALUS + seat] = 0
    me = s[COLOUR + seat]
    for p in range(s[N_PLAYERS]):
        if s[MALUS + p] == 1 and s[COLOUR + p] != me and s[ACTIONS_LEFT] > 1:
            s[ACTIONS_LEFT] = 1
