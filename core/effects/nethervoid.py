"""The Nethervoid ops that are not piece selectors: counting an effect-made legend as
summoned, losing one of your own actions, the being's card going under your deck, possessed
summoning, and the placing region "next to a piece of the colour placed"."""

from core.constants import (
    EK_BEING,
    EV_CARD_TO_BOTTOM,
    EV_LEGEND_SUMMONED,
    EV_LOSE_OWN_ACTION,
    EV_POSSESS,
    LEGENDARY,
    MODE_MELEE,
    SR_LEGEND,
)
from core.effects.emit import emit_target
from core.jit import njit
from core.layout import (
    ACTIONS_LEFT,
    BOARD,
    COLOUR,
    CUR,
    EFF_BEING_SQ,
    EFF_CARD,
    EFF_KIND,
    EFF_SEL_OWNER,
    EFF_TARGET,
    LEGENDS_SUMMONED,
    MODE,
    N_PLAYERS,
    SUMMON_COLOUR,
)
from core.ops import I_REGION, R_NEXT_TO_SAME_COLOUR
from core.rules.events import log_event
from core.rules.modes import scores_destruction
from core.rules.piles import return_to_bottom
from core.rules.scoring import add_points


@njit(cache=True, _nrt=False)
def legend_summoned_targets(s, opts, n, alt):
    """Melee: the point of a legend goes to a column of the player's choice (any other
    colour), as for a summoned legend card; the targets are those colours."""
    me = s[COLOUR + s[CUR]]
    for c in range(s[N_PLAYERS]):
        if c != me:
            n = emit_target(opts, n, c, -1, alt)
    return n


@njit(cache=True, _nrt=False)
def legend_summoned(s, ev, column):
    """Counts as summoning a legend on the being's square: the turn's legend counter (High
    Form tasks) and, in Deathmatch, 1 point (melee: in ``column``)."""
    seat = s[CUR]
    s[LEGENDS_SUMMONED] += 1
    sq = s[EFF_BEING_SQ] if s[EFF_BEING_SQ] >= 0 else s[EFF_TARGET]
    log_event(s, ev, EV_LEGEND_SUMMONED, seat, sq, 0, 0)
    if s[MODE] == MODE_MELEE:
        add_points(s, ev, seat, 1, SR_LEGEND, column)
    elif scores_destruction(s[MODE]):
        add_points(s, ev, seat, 1, SR_LEGEND, 0)


@njit(cache=True, _nrt=False)
def lose_own_action(s, ev):
    """Spend one of your remaining actions doing nothing (Demon of Sloth)."""
    if s[ACTIONS_LEFT] > 0:
        s[ACTIONS_LEFT] -= 1
        log_event(s, ev, EV_LOSE_OWN_ACTION, s[CUR], s[ACTIONS_LEFT], 0, 0)


@njit(cache=True, _nrt=False)
def card_to_bottom(s, T, ev):
    """The running being's card goes under its seat's deck now instead of to the discard
    pile at the program's end (Hell Hound); in team play the bottom-six rule shifts by one
    card exactly as for the discard action (reference fact 67)."""
    card = s[EFF_CARD]
    if card < 0 or s[EFF_KIND] != EK_BEING:
        return
    seat = s[CUR]
    return_to_bottom(s, T, seat, card)
    s[EFF_CARD] = -1
    log_event(s, ev, EV_CARD_TO_BOTTOM, seat, card, 0, 0)


@njit(cache=True, _nrt=False)
def possess(s, ev):
    """Your next summon this turn builds its pattern from the selected piece's colour."""
    c = s[EFF_SEL_OWNER]
    if c >= 0:
        s[SUMMON_COLOUR] = c
        log_event(s, ev, EV_POSSESS, s[CUR], c, 0, 0)


@njit(cache=True, _nrt=False)
def same_colour_ok(s, T, i, q, owner):
    """Region next-to-same-colour (place only): ``q`` touches a piece of ``owner``."""
    if (T.ops[i, I_REGION] & R_NEXT_TO_SAME_COLOUR) == 0:
        return True
    for d in range(8):
        p = T.nbr[q, d]
        if p >= 0:
            code = s[BOARD + p]
            if code != 0 and (code >> 2) == owner:
                return True
    return False


@njit(cache=True, inline="always", _nrt=False)
def gateway_candidate(s, q, seat):
    """A piece that can become your Gateway: yours (your colour) and not legendary."""
    code = s[BOARD + q]
    return code != 0 and (code >> 2) == seat and (code & 3) != LEGENDARY
