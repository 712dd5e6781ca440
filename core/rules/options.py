"""The legal options of the pending decision: what a player may do now (actions, free actions,
claims, the choices inside an effect, melee set-up). Listing only: nothing here changes the
state; ``core.rules.turn`` applies the chosen row. Split from the turn loop (issue 37) so each
file does one job.
"""

import numpy as np

from core.constants import (
    CK_BEING,
    CK_FLARE,
    CK_LEGEND,
    COMMON,
    HEROIC,
    LEGENDARY,
    MODE_MELEE,
    MODE_NEW_PLAYER,
    OPT_CLAIM,
    OPT_COLOUR,
    OPT_DISCARD,
    OPT_END_TURN,
    OPT_FLARE,
    OPT_NO_CLAIM,
    OPT_PASS,
    OPT_PICKUP,
    OPT_PLACE,
    OPT_RETURN,
    OPT_RETURN_DONE,
    OPT_SETUP,
    PH_ACTION,
    PH_CLAIM,
    PH_COLOUR,
    PH_EFFECT,
    PH_FROZEN_CHOICE,
    PH_PLACE_PICKUP,
    PH_PLACE_SQUARE,
    PH_RETURN,
    PH_SETUP,
    PH_SUMMON_PICKUP,
)
from core.effects.interpreter import run_effect
from core.jit import njit
from core.jit.profile import (
    P_OPTIONS_ACTION,
    P_OPTIONS_EFFECT,
    P_OPTIONS_OTHER,
    P_SUMMON_DETACHED,
    P_SUMMON_PLAIN,
    P_SUMMON_POSSESSED,
    P_SUMMON_VOID,
    enter,
    leave,
)
from core.layout import (
    ACTIONS_LEFT,
    BOARD,
    BORROW_ENEMY,
    COLOUR,
    COLOUR_CHOICES,
    CUR,
    DISCARD_USED,
    HAND_N,
    IMPRO_LEFT,
    MODE,
    N_PLAYERS,
    PASSED,
    PEND_ALLOW,
    PEND_CARD,
    PEND_ORIENT,
    PEND_TARGET,
    PHASE,
    SETUP_PAIRS,
    STOCK,
    SUMMON_COLOUR,
    TAVAIL,
    VOID_CELLS,
)
from core.rules.frozen import frozen_choice_options, thaw_options
from core.rules.modes import is_team, n_colours
from core.rules.piles import hand_card
from core.rules.scoring import pieces_on_board
from core.rules.tasks import board_sets, no_sets, reads_sets, task_holds_on
from core.rules.warp import is_pending, warp_options
from core.summon.detached import detached_pickup_ok, detached_summons
from core.summon.patterns import (
    find_summons_bits,
    find_summons_wide,
    occupied_bits,
    own_bits,
    pattern_squares,
)
from core.summon.possessed import possessed_summons
from core.summon.void_cells import void_summons

MAX_PATTERN = 16


@njit(cache=True, _nrt=False)
def _opt(opts, n, kind, a, b, c):
    if n < opts.shape[0]:
        opts[n, 0] = kind
        opts[n, 1] = a
        opts[n, 2] = b
        opts[n, 3] = c
        return n + 1
    return n


@njit(cache=True, _nrt=False)
def flare_halves(s, T, card, seat, opp):
    """Bitmask of the flare halves allowed against colour ``opp``: 1 upper, 2 lower."""
    return _halves(T, card, flare_counts(s, T, s[COLOUR + seat], opp))


@njit(cache=True, _nrt=False)
def flare_counts(s, T, me, opp):
    """Colour ``opp``'s upgraded pieces minus ``me``'s and all its pieces minus ``me``'s,
    packed as ``(upgraded + 128) | (all + 128) << 8``, in one pass over the board."""
    upg = 0
    allp = 0
    for i in range(T.onboard.shape[0]):
        code = s[BOARD + T.onboard[i]]
        if code != 0:
            d = (1 if (code >> 2) == opp else 0) - (1 if (code >> 2) == me else 0)
            allp += d
            if (code & 3) >= HEROIC:
                upg += d
    return (upg + 128) | ((allp + 128) << 8)


@njit(cache=True, _nrt=False)
def _halves(T, card, packed):
    m = 0
    if (packed & 255) - 128 >= T.flare_x[card]:
        m |= 1
    if ((packed >> 8) & 255) - 128 >= T.flare_y[card]:
        m |= 2
    return m


@njit(cache=True, _nrt=False)
def action_options(s, T, opts):
    enter(P_OPTIONS_ACTION)
    r = _action_options_body(s, T, opts)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _action_options_body(s, T, opts):
    """Place / summon / discard while actions are left, flares, the team pass, end turn.

    After a team pass the teammate may only place common pieces, and nobody plays flares."""
    seat = s[CUR]
    me = s[COLOUR + seat]
    passed = s[PASSED] == 1
    n = 0
    if s[ACTIONS_LEFT] > 0:
        if s[STOCK + me] > 0:
            for i in range(T.onboard.shape[0]):
                q = T.onboard[i]
                if s[BOARD + q] == 0:
                    n = _opt(opts, n, OPT_PLACE, q, 0, 0)
        elif pieces_on_board(s, T, me, COMMON) - pieces_on_board(s, T, me, LEGENDARY) > 0:
            n = _opt(opts, n, OPT_PLACE, -1, 0, 0)  # pick a piece up first, then place
    if s[ACTIONS_LEFT] > 0 and not passed:
        bits = own_bits(s, T, me)
        # borrowed enemy pieces and melee improvisation: the search that counts every colour
        plain = s[BORROW_ENEMY] == 0 and s[IMPRO_LEFT + me] == 0
        occ_lo = np.int64(0)
        occ_hi = np.int64(0)
        if not plain:
            occ_lo, occ_hi = occupied_bits(s, T)
        can_discard = s[DISCARD_USED] == 0 and s[MODE] != MODE_NEW_PLAYER
        for slot in range(s[HAND_N + seat]):
            card = hand_card(s, seat, slot)
            kind = T.card_kind[card]
            if (kind == CK_BEING or kind == CK_LEGEND) and T.card_det_n[card] > 0:
                enter(P_SUMMON_DETACHED)
                n = detached_summons(s, T, me, card, slot, opts, n)  # Time Traveler
                leave()
            elif (kind == CK_BEING or kind == CK_LEGEND) and s[SUMMON_COLOUR] >= 0:
                enter(P_SUMMON_POSSESSED)
                n = possessed_summons(s, T, me, s[SUMMON_COLOUR], card, slot, opts, n)
                leave()
            elif (kind == CK_BEING or kind == CK_LEGEND) and s[VOID_CELLS] > 0:
                enter(P_SUMMON_VOID)
                n = void_summons(s, T, me, card, slot, opts, n)
                leave()
            elif kind == CK_BEING or kind == CK_LEGEND:
                enter(P_SUMMON_PLAIN)
                if plain:
                    n = find_summons_bits(s, T, me, card, slot, opts, n, bits)
                else:
                    n = find_summons_wide(s, T, me, card, slot, opts, n, bits, occ_lo, occ_hi)
                leave()
            if kind == CK_BEING and can_discard and not is_pending(s, seat, card):
                n = _opt(opts, n, OPT_DISCARD, slot, 0, 0)
    return free_rows(s, T, opts, n, n > 0)


@njit(cache=True, _nrt=False)
def free_rows(s, T, opts, n, any_action):
    """The action phase's rows after place, summon and discard (``any_action``: is one of
    those possible?): flares, thaws, warps, the team pass, end turn, from row ``n`` on."""
    seat = s[CUR]
    me = s[COLOUR + seat]
    if s[PASSED] != 1:
        counted = 0  # the colours whose flare_counts are in `counts`, 16 bits each
        counts = np.int64(0)
        for slot in range(s[HAND_N + seat]):
            card = hand_card(s, seat, slot)
            if T.card_kind[card] == CK_FLARE:
                for opp in range(n_colours(s)):
                    if opp == me:
                        continue
                    if (counted >> opp) & 1 == 0:
                        counts |= np.int64(flare_counts(s, T, me, opp)) << (16 * opp)
                        counted |= 1 << opp
                    if _halves(T, card, (counts >> (16 * opp)) & 0xFFFF) != 0:
                        n = _opt(opts, n, OPT_FLARE, slot, opp, 0)
        n = thaw_options(s, opts, n)  # a frozen effect thaws wherever a flare could be played
        n = warp_options(s, T, opts, n)  # so may a warp effect be played
        if is_team(s[MODE]) and s[ACTIONS_LEFT] > 0 and any_action:
            n = _opt(opts, n, OPT_PASS, 0, 0, 0)
    # the turn may end when no action is left or none is possible: a flare stays optional
    if s[ACTIONS_LEFT] == 0 or not any_action:
        n = _opt(opts, n, OPT_END_TURN, 0, 0, 0)
    return n


@njit(cache=True, _nrt=False)
def claim_options(s, T, opts):
    n = 0
    sets = no_sets()
    ready = False  # the board's sets, made once for the checks that read them
    for k in range(3):
        t = s[TAVAIL + k]
        if t < 0:
            continue
        if not ready and reads_sets(T, t):
            sets = board_sets(s)
            ready = True
        if task_holds_on(s, T, t, s[COLOUR + s[CUR]], sets):
            n = _opt(opts, n, OPT_CLAIM, t, 0, 0)
    if n > 0:
        n = _opt(opts, n, OPT_NO_CLAIM, 0, 0, 0)
    return n


@njit(cache=True, _nrt=False)
def _summon_pickup_options(s, T, opts):
    seat = s[COLOUR + s[CUR]]
    card = s[PEND_CARD]
    legendary = T.card_rank[card] == LEGENDARY
    n = 0
    if T.card_det_n[card] > 0:  # a detached pattern: a piece not in every instance
        for i in range(T.onboard.shape[0]):
            q = T.onboard[i]
            if detached_pickup_ok(s, T, seat, card, q, s[PEND_ALLOW]):
                n = _opt(opts, n, OPT_PICKUP, q, 0, 0)
        return n
    used = opts[opts.shape[0] - MAX_PATTERN :, 0]  # scratch: the pattern squares
    m = pattern_squares(T, s[PEND_ORIENT], s[PEND_TARGET], used)
    for i in range(T.onboard.shape[0]):
        q = T.onboard[i]
        code = s[BOARD + q]
        if code == 0 or (code >> 2) != seat or (((code & 3) == LEGENDARY) != legendary):
            continue
        if q == s[PEND_TARGET]:
            continue
        in_pattern = False
        for k in range(m):
            if used[k] == q:
                in_pattern = True
        if not in_pattern:
            n = _opt(opts, n, OPT_PICKUP, q, 0, 0)
    return n


@njit(cache=True, _nrt=False)
def phase_options(s, T, ev, opts):
    """Options of the pending decision (the effect phase recomputes its step's targets)."""
    ph = s[PHASE]
    if ph == PH_ACTION:
        return action_options(s, T, opts)
    enter(P_OPTIONS_EFFECT if ph == PH_EFFECT else P_OPTIONS_OTHER)
    n = _phase_options_body(s, T, ev, opts)
    leave()
    return n


@njit(cache=True, _nrt=False)
def _phase_options_body(s, T, ev, opts):
    """Options of the pending decision (the effect phase recomputes its step's targets)."""
    ph = s[PHASE]
    seat = s[CUR]
    me = s[COLOUR + seat]
    n = 0
    if ph == PH_ACTION:
        return action_options(s, T, opts)
    if ph == PH_PLACE_PICKUP:
        for i in range(T.onboard.shape[0]):
            q = T.onboard[i]
            code = s[BOARD + q]
            if code != 0 and (code >> 2) == me and (code & 3) != LEGENDARY:
                n = _opt(opts, n, OPT_PICKUP, q, 0, 0)
        return n
    if ph == PH_PLACE_SQUARE:
        for i in range(T.onboard.shape[0]):
            q = T.onboard[i]
            if s[BOARD + q] == 0:
                n = _opt(opts, n, OPT_PLACE, q, 0, 0)
        return n
    if ph == PH_SUMMON_PICKUP:
        return _summon_pickup_options(s, T, opts)
    if ph == PH_RETURN:
        for slot in range(s[HAND_N + seat]):
            if not is_pending(s, seat, hand_card(s, seat, slot)):
                n = _opt(opts, n, OPT_RETURN, slot, 0, 0)
        return _opt(opts, n, OPT_RETURN_DONE, 0, 0, 0)
    if ph == PH_EFFECT:
        n = run_effect(s, T, ev, opts)
        if n > 0 and is_team(s[MODE]) and s[PASSED] == 0:
            n = _opt(opts, n, OPT_PASS, 0, 0, 0)  # the teammate may finish this effect
        return n
    if ph == PH_CLAIM:
        return claim_options(s, T, opts)
    if ph == PH_SETUP:
        if s[MODE] == MODE_MELEE:
            return _melee_setup_options(s, T, opts)
        n = _opt(opts, n, OPT_SETUP, 0, 0, 0)
        return _opt(opts, n, OPT_SETUP, 1, 0, 0)
    if ph == PH_FROZEN_CHOICE:
        return frozen_choice_options(s, opts)
    if ph == PH_COLOUR:
        for c in range(s[N_PLAYERS]):
            if (s[COLOUR_CHOICES] >> c) & 1:
                n = _opt(opts, n, OPT_COLOUR, c, 0, 0)
        return n
    return 0


@njit(cache=True, _nrt=False)
def _melee_setup_options(s, T, opts):
    """Both squares of every diamond pair not used yet."""
    n = 0
    for k in range(T.melee_start.shape[0]):
        if (s[SETUP_PAIRS] >> k) & 1 == 0:
            for j in range(2):
                n = _opt(opts, n, OPT_SETUP, T.melee_start[k, j], 0, 0)
    return n
