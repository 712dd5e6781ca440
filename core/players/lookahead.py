"""A player's view of the rest of its own turn.

Lookahead players try options on copies of the state. A copy made by ``begin`` differs from
the game in two ways that keep hidden information out of the player's hands:
- it stops at the end of the turn (``LOOKAHEAD`` makes ``finish_turn`` stop before the
  refill, whose draws would reveal the order of the seat's deck), in phase PH_TURN_END;
- its task deck looks empty, so a claim in the copy does not reveal the next task.
Nothing else within a turn is random or hidden (the rules use the random generator only to
shuffle), so a copy plays the turn exactly as the game would.

``advance_turn`` is ``core.rules.turn.advance`` for such copies. With ``listing`` off it returns -1
as soon as it is certain the next decision has two or more options, without listing them: the
greedy player only needs to know that the turn waits for a decision there; an effect step
is then listed into a three-row buffer, so that the listing stops at its second target
(core.effects.targets ``_full``).
"""

import numpy as np

from core.constants import (
    CK_BEING,
    COMMON,
    LEGENDARY,
    MODE_NEW_PLAYER,
    PH_ACTION,
    PH_CLAIM,
    PH_EFFECT,
    PH_PLACE_PICKUP,
    PH_PLACE_SQUARE,
    PH_RETURN,
    PH_SUMMON_PICKUP,
    PH_TURN_END,
)
from core.jit import njit
from core.jit.profile import P_COPY, P_KEYS, P_LOOKAHEAD_FLOW, enter, leave
from core.layout import (
    ACTIONS_LEFT,
    BOARD,
    COLOUR,
    CONTROL,
    CUR,
    DISCARD_USED,
    EFF_CARD,
    EFF_PC,
    EFF_SEL_SQ,
    GAME_OVER,
    HAND,
    HAND_CAP,
    HAND_N,
    LOOKAHEAD,
    MODE,
    PASSED,
    PEND_CARD,
    PHASE,
    STOCK,
    SUMMONED_N,
    TDECK_CNT,
    TURN_NO,
)
from core.rules.options import phase_options
from core.rules.rng import _mix32
from core.rules.scoring import pieces_on_board
from core.rules.turn import _effect_done, apply_option, end_turn, finish_turn

EFFECT_PROBE = 3  # two targets and a skip row: enough to tell a decision from none or one


@njit(cache=True, _nrt=False)
def copy_row(dst, src):
    """``dst[:] = src`` without numba's runtime (a slice assignment needs it)."""
    enter(P_COPY)
    for i in range(src.shape[0]):
        dst[i] = src[i]
    leave()


@njit(cache=True, _nrt=False)
def begin(c, s):
    """Make ``c`` a lookahead copy of the game state ``s``."""
    copy_row(c, s)
    c[LOOKAHEAD] = 1
    c[TDECK_CNT] = 0


@njit(cache=True, _nrt=False)
def _two_actions(s, T):
    """Action phase with an action left: are there surely two options? One place option
    per empty square while in stock (else one, if a piece can be picked up), and one discard
    option per being card in hand while the discard is allowed (game.action_options)."""
    if s[ACTIONS_LEFT] <= 0:
        return False
    seat = s[CUR]
    me = s[COLOUR + seat]
    places = 0
    if s[STOCK + me] > 0:
        for i in range(T.onboard.shape[0]):
            if s[BOARD + T.onboard[i]] == 0:
                places += 1
                if places == 2:
                    return True
    elif pieces_on_board(s, T, me, COMMON) - pieces_on_board(s, T, me, LEGENDARY) > 0:
        places = 1
    if s[PASSED] == 1 or s[DISCARD_USED] != 0 or s[MODE] == MODE_NEW_PLAYER:
        return False
    beings = 0
    for k in range(s[HAND_N + seat]):
        if T.card_kind[s[HAND + seat * HAND_CAP + k]] == CK_BEING:
            beings += 1
    return places + beings >= 2


@njit(cache=True, _nrt=False)
def advance_turn(c, T, ev, opts, listing):
    enter(P_LOOKAHEAD_FLOW)
    r = _advance_turn_body(c, T, ev, opts, listing)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _advance_turn_body(c, T, ev, opts, listing):
    """Resolve everything automatic in the copy ``c``; return the number of options of the
    next decision (listed in ``opts``), 0 when the turn or the game is over, or -1 (only
    without ``listing``) when a decision with two or more options is pending."""
    while c[GAME_OVER] == 0:
        ph = c[PHASE]
        if ph == PH_TURN_END:
            return 0
        if not listing:
            if ph == PH_ACTION and _two_actions(c, T):
                return -1
            if ph == PH_RETURN and c[HAND_N + c[CUR]] > 0:
                return -1  # a card to return, or done
        if ph == PH_EFFECT and not listing:
            n = phase_options(c, T, ev, opts[:EFFECT_PROBE])  # none, one, or a decision
        else:
            n = phase_options(c, T, ev, opts)
        if ph == PH_EFFECT and n == 0:
            _effect_done(c, T, ev)
            continue
        if n == 0:
            if ph == PH_CLAIM:
                finish_turn(c, T, ev)
                continue
            if ph == PH_SUMMON_PICKUP or ph == PH_PLACE_PICKUP or ph == PH_PLACE_SQUARE:
                c[PHASE] = PH_ACTION
                continue
            end_turn(c, T, ev)
            continue
        if n == 1 and c[PHASE] != PH_EFFECT:
            apply_option(c, T, ev, opts[0, 0], opts[0, 1], opts[0, 2], opts[0, 3])
            continue
        return n
    return 0


@njit(cache=True, _nrt=False)
def square_hash(q, code):
    """Zobrist-style hash of a piece on a square (XOR over the board gives board_hash)."""
    return _mix32(np.int64(q) * 16 + np.int64(code) + 0x10000)


@njit(cache=True, _nrt=False)
def board_hash(s):
    enter(P_KEYS)
    r = _board_hash_body(s)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _board_hash_body(s):
    h = np.int64(0)
    for q in range(81):
        code = s[BOARD + q]
        if code != 0:
            h ^= square_hash(q, code)
    return h


@njit(cache=True, _nrt=False)
def key_of(s, bh):
    enter(P_KEYS)
    r = _key_of_body(s, bh, hand_mix(s))
    leave()
    return r


@njit(cache=True, _nrt=False)
def key_with_hand(s, bh, hand):
    """``key_of(s, bh)`` given ``hand_mix(s)`` (the same for every placement of a position)."""
    enter(P_KEYS)
    r = _key_of_body(s, bh, hand)
    leave()
    return r


@njit(cache=True, _nrt=False)
def hand_mix(s):
    """The deciding seat's hand as ``key_of`` mixes it in."""
    seat = np.int64(s[CUR])
    hand = np.int64(0)
    for k in range(s[HAND_N + seat]):
        hand += _mix32(np.int64(s[HAND + seat * HAND_CAP + k]) + 0x20000)
    return hand & 0xFFFFFFFF


@njit(cache=True, _nrt=False)
def _key_of_body(s, bh, hand):
    """A 32-bit fingerprint of what a decision within a turn depends on: the board (its
    ``board_hash`` ``bh``), the deciding seat's hand (``hand_mix``), the phase, the effect
    being resolved, actions left, whose turn and which turn. Equal positions reached in
    different orders get equal keys (the turn planner merges them). The board is read
    only through ``bh``."""
    seat = np.int64(s[CUR])
    h = _mix32(np.int64(bh) ^ hand)
    h = _mix32(h ^ (_i(s[PHASE]) + 16 * _i(s[ACTIONS_LEFT]) + 256 * seat + 4096 * _i(s[CONTROL])))
    h = _mix32(h ^ (_i(s[EFF_PC]) & 0xFFFF) ^ ((_i(s[TURN_NO]) & 0xFFFF) << 16))
    h = _mix32(h ^ ((_i(s[EFF_CARD]) + 1) & 0xFFFF) ^ (((_i(s[EFF_SEL_SQ]) + 1) & 0xFF) << 16))
    h = _mix32(h ^ ((_i(s[PEND_CARD]) + 1) & 0xFFFF) ^ ((_i(s[SUMMONED_N]) & 0xFF) << 16))
    return h & 0x7FFFFFFF  # fits the int32 rows plans are stored in


@njit(cache=True, _nrt=False)
def _i(x):
    return np.int64(x)


@njit(cache=True, _nrt=False)
def state_key(s):
    return key_of(s, board_hash(s))
