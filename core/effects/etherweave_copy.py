"""Copying a warp effect (Etherweave): a being's effect runs another card's warp program.

``copy-warp`` is targeted (one target per card that may be copied), so it may stand in a
choose block. Carrying it out replaces the rest of the running program by the copied warp
program (BGA performWarp replaces the card being played): the effect registers start afresh
as for any program, the running card stays the being's card (it is discarded at the end as
usual), and the copied card stays where it is. A copy is not playing the warp: the pending
state and the warped-this-turn mask are untouched. A card flagged ``no-copy`` is never
copied; a warp program never copies (refused at load), so copies cannot recurse.
"""

from core.constants import EV_COPY_WARP
from core.effects.emit import emit_target
from core.jit import njit
from core.layout import (
    CUR,
    DISC,
    DISC_CAP,
    DISC_N,
    EFF_AFFECTED_COLOURS,
    EFF_AFFECTED_N,
    EFF_BEING_MOVED,
    EFF_CARD,
    EFF_CHOICE,
    EFF_COMBAT_USED,
    EFF_DESTROYED_TOTAL,
    EFF_DIR,
    EFF_END,
    EFF_LAST_DESTROYED,
    EFF_LAST_DESTROYED_LEGEND,
    EFF_LAST_DONE,
    EFF_PC,
    EFF_PLACED_N,
    EFF_SEL_OWNER,
    EFF_SEL_OWNER_PREV,
    EFF_SEL_RANK,
    EFF_SEL_SQ,
    EFF_SEL_WAS_RED,
    PENDING,
)
from core.ops import CW_FROM_PENDING
from core.rules.events import log_event


@njit(cache=True, _nrt=False)
def reset_effect_registers(s):
    """Every program starts with fresh result registers (a copied warp too)."""
    s[EFF_LAST_DONE] = 1
    s[EFF_LAST_DESTROYED] = 0
    s[EFF_LAST_DESTROYED_LEGEND] = 0
    s[EFF_COMBAT_USED] = 0
    s[EFF_BEING_MOVED] = 0
    s[EFF_SEL_SQ] = -1
    s[EFF_SEL_RANK] = 0
    s[EFF_SEL_OWNER] = -1
    s[EFF_SEL_OWNER_PREV] = -1
    s[EFF_SEL_WAS_RED] = 0
    s[EFF_DIR] = -1
    s[EFF_CHOICE] = -1
    s[EFF_PLACED_N] = 0
    s[EFF_AFFECTED_N] = 0
    s[EFF_AFFECTED_COLOURS] = 0
    s[EFF_DESTROYED_TOTAL] = 0


@njit(cache=True, inline="always", _nrt=False)
def _copyable(T, card):
    return card >= 0 and T.card_has_warp[card] == 1 and T.card_no_copy[card] == 0


@njit(cache=True, _nrt=False)
def copy_warp_targets(s, T, source, opts, n, alt):
    """The cards whose warp may be copied: the pending being (CW_FROM_PENDING) or each
    warp card of the discard pile (CW_FROM_DISCARD); never a no-copy card."""
    seat = s[CUR]
    if source == CW_FROM_PENDING:
        card = s[PENDING + seat]
        if _copyable(T, card):
            n = emit_target(opts, n, card, -1, alt)
        return n
    for k in range(s[DISC_N + seat]):
        card = s[DISC + seat * DISC_CAP + k]
        if _copyable(T, card):
            n = emit_target(opts, n, card, -1, alt)
    return n


@njit(cache=True, _nrt=False)
def copy_warp(s, T, ev, card):
    """The rest of the running program is replaced by ``card``'s warp program."""
    log_event(s, ev, EV_COPY_WARP, s[CUR], card, s[EFF_CARD], 0)
    reset_effect_registers(s)
    s[EFF_PC] = T.card_eff2_start[card]
    s[EFF_END] = T.card_eff2_end[card]
