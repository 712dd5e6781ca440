"""Etherweave warp effects and the pending being: the turn-flow side.

A being card with a warp program may be warped from the hand at no action cost wherever a
flare could be played, never in the game's first round (BGA playWarp refuses while its turn
counter is 1; the counter moves on when the table's first seat starts a normal turn). The
card stays in hand as its seat's pending being: at most one per seat, never discarded by the
discard action nor returned to the deck in its return step, and summoning it ends the
pending state (BGA playCard). A seat still holding a pending being when the game ends loses
2 points (every column in melee, the team score in team play); the end-trigger test already
counts those 2 points off (BGA stNextPlayer).
"""

from core.constants import (
    CK_BEING,
    EK_WARP,
    EV_SCORE,
    EV_WARP,
    MODE_MELEE,
    OPT_WARP,
    SR_PENALTY,
)
from core.jit import njit
from core.layout import (
    BORROW_ENEMY,
    COLOUR,
    CUR,
    EFF_BEING_SQ,
    EFF_CARD,
    EFF_KIND,
    EFF_ORIENT,
    EFF_OVERSUMMONED,
    EFF_TARGET,
    EXTRA_COUNT,
    FIRST,
    HAND_N,
    MAX_PLAYERS,
    MODE,
    N_PLAYERS,
    PENDING,
    SCORE,
    SCORE_COLOR,
    TURN_NO,
    WARP_OPEN,
    WARPED_MASK,
)
from core.rules.events import log_event
from core.rules.modes import has_tasks, n_colours
from core.rules.piles import hand_card
from core.rules.scoring import add_points

PENALTY = 2  # points a pending being costs at the end of the game


@njit(cache=True, _nrt=False)
def warp_options(s, T, opts, n):
    """One OPT_WARP per hand card with a warp program, if the seat has no pending being and
    the first round is over."""
    seat = s[CUR]
    if s[WARP_OPEN] == 0 or s[PENDING + seat] >= 0:
        return n
    for slot in range(s[HAND_N + seat]):
        card = hand_card(s, seat, slot)
        if T.card_kind[card] == CK_BEING and T.card_has_warp[card] == 1 and n < opts.shape[0]:
            opts[n, 0] = OPT_WARP
            opts[n, 1] = slot
            opts[n, 2] = 0
            opts[n, 3] = 0
            n += 1
    return n


@njit(cache=True, _nrt=False)
def begin_warp(s, T, ev, slot):
    """The card becomes the pending being *before* its program runs (so a warp may discard
    itself, BGA playWarp) and is the running program's card (no being, no pattern); returns
    it. The caller starts its warp program. As for a thaw, a borrowed enemy piece not used
    yet is lost (BGA clears the bonus at the start of every effect but a flare's)."""
    seat = s[CUR]
    card = hand_card(s, seat, slot)
    s[PENDING + seat] = card
    s[WARPED_MASK] |= 1 << T.card_deck_pos[card]
    log_event(s, ev, EV_WARP, seat, card, 0, 0)
    s[EFF_CARD] = card
    s[EFF_KIND] = EK_WARP
    s[EFF_BEING_SQ] = -1
    s[EFF_ORIENT] = -1
    s[EFF_TARGET] = -1
    s[EFF_OVERSUMMONED] = 0
    s[BORROW_ENEMY] = 0
    return card


@njit(cache=True, inline="always", _nrt=False)
def is_pending(s, seat, card):
    return card >= 0 and s[PENDING + seat] == card


@njit(cache=True, _nrt=False)
def end_pending_on_summon(s, seat, card):
    """Summoning the pending being ends its pending state."""
    if s[PENDING + seat] == card:
        s[PENDING + seat] = -1


@njit(cache=True, _nrt=False)
def open_warps_at_turn_start(s, seat, extra):
    """The turn's warp counters start afresh; the first round is over once the first seat
    starts its second normal turn."""
    s[EXTRA_COUNT] = 0
    s[WARPED_MASK] = 0
    if extra == 0 and seat == s[FIRST] and s[TURN_NO] > 1:
        s[WARP_OPEN] = 1


@njit(cache=True, _nrt=False)
def _colour_pending(s, colour):
    """Seats of this colour holding a pending being (team play: up to two)."""
    k = 0
    for p in range(s[N_PLAYERS]):
        if s[COLOUR + p] == colour and s[PENDING + p] >= 0:
            k += 1
    return k


@njit(cache=True, _nrt=False)
def reacher_after_penalty(s, target):
    """``scoring.score_reacher`` with each pending being's 2 points already taken off."""
    if s[MODE] == MODE_MELEE:
        for p in range(s[N_PLAYERS]):
            pen = PENALTY if s[PENDING + p] >= 0 else 0
            for c in range(s[N_PLAYERS]):
                if c != p and s[SCORE_COLOR + p * MAX_PLAYERS + c] - pen >= target:
                    return p
        return -1
    for c in range(n_colours(s)):
        if s[SCORE + c] - PENALTY * _colour_pending(s, c) >= target:
            return c
    return -1


@njit(cache=True, _nrt=False)
def causality_penalty(s, ev):
    """Game end: -2 for each seat still holding a pending being. Deathmatch: as points
    (melee: in every opponent column); High Form: off the derived score
    (after ``refresh_scores``), logged as a score event of reason SR_PENALTY."""
    for p in range(s[N_PLAYERS]):
        if s[PENDING + p] < 0:
            continue
        if s[MODE] == MODE_MELEE:
            for c in range(s[N_PLAYERS]):
                if c != p:
                    add_points(s, ev, p, -PENALTY, SR_PENALTY, c)
        elif has_tasks(s[MODE]):
            col = s[COLOUR + p]
            s[SCORE + col] -= PENALTY
            log_event(s, ev, EV_SCORE, col, -PENALTY, SR_PENALTY, 0)
        else:
            add_points(s, ev, p, -PENALTY, SR_PENALTY, 0)
