"""The turn loop as a state machine: legal options for the pending decision, and applying one.

``advance`` runs everything automatic (turn start, effects without a choice, forced moves)
and stops at the next real decision, leaving its options in ``opts``. ``apply_option``
carries out one option row. Every player (random, greedy, search) goes through these two,
so they share all the rules.
"""

from numba import njit

from core.cards import discard_card, hand_card, hand_remove, refill_hand, return_to_bottom
from core.constants import (
    CK_BEING,
    CK_FLARE,
    CK_LEGEND,
    COMMON,
    EK_BEING,
    EK_FLARE,
    EK_NONE,
    END_DECK,
    END_SCORE,
    END_TURN_CAP,
    EV_CLAIM,
    EV_DISCARD,
    EV_END,
    EV_FLARE,
    EV_PLACE,
    EV_RETURN,
    EV_SCORE,
    EV_SETUP_PIECE,
    EV_SKIP,
    EV_SUMMON,
    EV_TURN,
    HEROIC,
    LEGENDARY,
    MODE_DEATHMATCH,
    MODE_HIGH_FORM,
    OPT_CLAIM,
    OPT_DISCARD,
    OPT_END_TURN,
    OPT_FLARE,
    OPT_NO_CLAIM,
    OPT_PICKUP,
    OPT_PLACE,
    OPT_RETURN,
    OPT_RETURN_DONE,
    OPT_SETUP,
    OPT_SKIP,
    OPT_SUMMON,
    PH_ACTION,
    PH_CLAIM,
    PH_EFFECT,
    PH_OVER,
    PH_PLACE_PICKUP,
    PH_PLACE_SQUARE,
    PH_RETURN,
    PH_SETUP,
    PH_SUMMON_PICKUP,
    SCRATCH_ROWS,
    SQ_GREEN,
    SQ_RED,
    SR_FLARE,
    SR_LEGEND,
    SR_TASK,
)
from core.effects import apply_target, run_effect, skip_step
from core.events import log_event
from core.layout import (
    ACTIONS_DONE,
    ACTIONS_LEFT,
    BOARD,
    BORROW_ENEMY,
    CUR,
    DECISIONS,
    DECK_CNT,
    DESTROYED,
    DISCARD_USED,
    EFF_AFFECTED_COLOURS,
    EFF_AFFECTED_N,
    EFF_BEING_MOVED,
    EFF_BEING_SQ,
    EFF_CARD,
    EFF_CHOICE,
    EFF_COMBAT_USED,
    EFF_DIR,
    EFF_END,
    EFF_KIND,
    EFF_LAST_DESTROYED,
    EFF_LAST_DESTROYED_LEGEND,
    EFF_LAST_DONE,
    EFF_NEXT_END,
    EFF_NEXT_START,
    EFF_OPP,
    EFF_ORIENT,
    EFF_PC,
    EFF_PLACED_N,
    EFF_SEL_OWNER,
    EFF_SEL_RANK,
    EFF_SEL_SQ,
    EFF_SEL_WAS_RED,
    EFF_TARGET,
    END_REASON,
    END_SEAT,
    EXTRA_DRAW_BEINGS,
    EXTRA_DRAW_LEGENDS,
    EXTRA_TURN,
    FINAL_TURN,
    FIRST,
    GAME_OVER,
    HAND_N,
    IS_EXTRA,
    LEGENDS_SUMMONED,
    LSTOCK,
    MODE,
    N_DISCARDS,
    N_FLARES,
    N_PLACES,
    N_PLAYERS,
    N_SUMMONS,
    N_TASKS_CLAIMED,
    PEND_CARD,
    PEND_ORIENT,
    PEND_TARGET,
    PHASE,
    SCORE,
    STOCK,
    SUMMONED_GREEN,
    SUMMONED_N,
    SUMMONED_RED,
    TASK_PTS,
    TAVAIL,
    TCLAIM_TURN,
    TCLAIMED,
    TURN_CAP,
    TURN_NO,
    WINNER,
)
from core.patterns import anchor_squares, count_own, find_summons, pattern_squares
from core.pieces import destroy, pick_up, put
from core.scoring import (
    decide_winner,
    pieces_on_board,
    refresh_scores,
    score_destruction,
    score_reached,
)
from core.task_display import remove_claimed
from core.tasks import task_holds

MAX_PATTERN = 16

# ---------------------------------------------------------------------------------------------
# small helpers


@njit(cache=True, inline="always")
def _opt(opts, n, kind, a, b, c):
    if n < opts.shape[0]:
        opts[n, 0] = kind
        opts[n, 1] = a
        opts[n, 2] = b
        opts[n, 3] = c
        return n + 1
    return n


@njit(cache=True)
def flare_halves(s, T, card, seat, opp):
    """Bitmask of the flare halves allowed against ``opp``: 1 upper, 2 lower."""
    upg = pieces_on_board(s, T, opp, HEROIC) - pieces_on_board(s, T, seat, HEROIC)
    allp = pieces_on_board(s, T, opp, COMMON) - pieces_on_board(s, T, seat, COMMON)
    m = 0
    if upg >= T.flare_x[card]:
        m |= 1
    if allp >= T.flare_y[card]:
        m |= 2
    return m


# ---------------------------------------------------------------------------------------------
# options per phase


@njit(cache=True)
def action_options(s, T, opts):
    seat = s[CUR]
    n = 0
    if s[ACTIONS_LEFT] > 0:
        if s[STOCK + seat] > 0:
            for i in range(T.onboard.shape[0]):
                q = T.onboard[i]
                if s[BOARD + q] == 0:
                    n = _opt(opts, n, OPT_PLACE, q, 0, 0)
        elif pieces_on_board(s, T, seat, COMMON) - pieces_on_board(s, T, seat, LEGENDARY) > 0:
            n = _opt(opts, n, OPT_PLACE, -1, 0, 0)  # pick a piece up first, then place
        anchors = opts[opts.shape[0] - SCRATCH_ROWS :, 0]
        n_anchors = anchor_squares(s, T, seat, anchors)
        own_leg = count_own(s, T, seat, True)
        own_pool = count_own(s, T, seat, False)
        for slot in range(s[HAND_N + seat]):
            card = hand_card(s, seat, slot)
            kind = T.card_kind[card]
            if kind == CK_BEING or kind == CK_LEGEND:
                n = find_summons(
                    s, T, seat, card, slot, opts, n, anchors, n_anchors, own_pool, own_leg
                )
            if kind == CK_BEING and s[DISCARD_USED] == 0:
                n = _opt(opts, n, OPT_DISCARD, slot, 0, 0)
    n_actions = n
    for slot in range(s[HAND_N + seat]):
        card = hand_card(s, seat, slot)
        if T.card_kind[card] == CK_FLARE:
            for opp in range(s[N_PLAYERS]):
                if opp != seat and flare_halves(s, T, card, seat, opp) != 0:
                    n = _opt(opts, n, OPT_FLARE, slot, opp, 0)
    # the turn may end when no action is left or none is possible: a flare stays optional
    if s[ACTIONS_LEFT] == 0 or n_actions == 0:
        n = _opt(opts, n, OPT_END_TURN, 0, 0, 0)
    return n


@njit(cache=True)
def claim_options(s, T, opts):
    n = 0
    for k in range(3):
        t = s[TAVAIL + k]
        if t >= 0 and task_holds(s, T, t, s[CUR]):
            n = _opt(opts, n, OPT_CLAIM, t, 0, 0)
    if n > 0:
        n = _opt(opts, n, OPT_NO_CLAIM, 0, 0, 0)
    return n


@njit(cache=True)
def _summon_pickup_options(s, T, opts):
    seat = s[CUR]
    card = s[PEND_CARD]
    legendary = T.card_rank[card] == LEGENDARY
    used = opts[opts.shape[0] - MAX_PATTERN :, 0]  # scratch: the pattern squares
    m = pattern_squares(T, s[PEND_ORIENT], s[PEND_TARGET], used)
    n = 0
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


@njit(cache=True)
def phase_options(s, T, ev, opts):
    """Options of the pending decision (the effect phase recomputes its step's targets)."""
    ph = s[PHASE]
    seat = s[CUR]
    n = 0
    if ph == PH_ACTION:
        return action_options(s, T, opts)
    if ph == PH_PLACE_PICKUP:
        for i in range(T.onboard.shape[0]):
            q = T.onboard[i]
            code = s[BOARD + q]
            if code != 0 and (code >> 2) == seat and (code & 3) != LEGENDARY:
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
            n = _opt(opts, n, OPT_RETURN, slot, 0, 0)
        return _opt(opts, n, OPT_RETURN_DONE, 0, 0, 0)
    if ph == PH_EFFECT:
        return run_effect(s, T, ev, opts)
    if ph == PH_CLAIM:
        return claim_options(s, T, opts)
    if ph == PH_SETUP:
        n = _opt(opts, n, OPT_SETUP, 0, 0, 0)
        return _opt(opts, n, OPT_SETUP, 1, 0, 0)
    return 0


# ---------------------------------------------------------------------------------------------
# turn flow


@njit(cache=True)
def start_turn(s, T, ev, seat, extra):
    s[CUR] = seat
    s[IS_EXTRA] = extra
    s[TURN_NO] += 1
    s[ACTIONS_LEFT] = 1 if s[TURN_NO] == 1 else 2
    s[DISCARD_USED] = 0
    s[EXTRA_DRAW_BEINGS] = 0
    s[EXTRA_DRAW_LEGENDS] = 0
    for k in range(16):
        s[DESTROYED + k] = 0
    s[SUMMONED_N] = 0
    s[SUMMONED_RED] = 0
    s[SUMMONED_GREEN] = 0
    s[LEGENDS_SUMMONED] = 0
    s[BORROW_ENEMY] = 0
    if seat == s[END_SEAT] and extra == 0:
        s[FINAL_TURN] = 1
    s[PHASE] = PH_ACTION
    log_event(s, ev, EV_TURN, seat, s[ACTIONS_LEFT], extra, 0)


@njit(cache=True)
def game_over(s, T, ev, reason):
    refresh_scores(s, T)
    if reason != 0:
        s[END_REASON] = reason
    decide_winner(s, T)
    s[GAME_OVER] = 1
    s[PHASE] = PH_OVER
    log_event(s, ev, EV_END, s[CUR], s[END_REASON], s[WINNER], 0)


@njit(cache=True)
def finish_turn(s, T, ev):
    """After the optional task claim: refill, end checks, hand over to the next seat."""
    seat = s[CUR]
    refill_hand(s, T, ev, seat, s[EXTRA_DRAW_BEINGS], s[EXTRA_DRAW_LEGENDS])
    refresh_scores(s, T)
    if s[END_SEAT] < 0:
        if score_reached(s):
            s[END_SEAT] = seat
            s[END_REASON] = END_SCORE
        elif s[DECK_CNT + seat] == 0:
            s[END_SEAT] = seat
            s[END_REASON] = END_DECK
    if s[TURN_NO] >= s[TURN_CAP]:  # the simulator's safety net wins over extra turns
        game_over(s, T, ev, END_TURN_CAP)
        return
    if s[EXTRA_TURN] == 1:
        s[EXTRA_TURN] = 0
        start_turn(s, T, ev, seat, 1)
        return
    if s[FINAL_TURN] == 1 and seat == s[END_SEAT]:
        game_over(s, T, ev, 0)
        return
    start_turn(s, T, ev, (seat + 1) % s[N_PLAYERS], 0)


@njit(cache=True)
def end_turn(s, T, ev):
    if s[MODE] == MODE_DEATHMATCH:
        score_destruction(s, ev)
    if s[MODE] == MODE_HIGH_FORM:
        s[PHASE] = PH_CLAIM  # the claim phase is skipped by advance when nothing holds
        return
    finish_turn(s, T, ev)


@njit(cache=True)
def _effect_done(s, T):
    """The running program ended: the card goes to its discard pile."""
    if s[EFF_CARD] >= 0:
        discard_card(s, T, s[CUR], s[EFF_CARD])
    s[EFF_CARD] = -1
    s[EFF_KIND] = EK_NONE
    s[PHASE] = PH_ACTION


@njit(cache=True)
def _start_program(s, start, end, next_start, next_end):
    s[EFF_PC] = start
    s[EFF_END] = end
    s[EFF_NEXT_START] = next_start
    s[EFF_NEXT_END] = next_end
    s[EFF_LAST_DONE] = 1
    s[EFF_LAST_DESTROYED] = 0
    s[EFF_LAST_DESTROYED_LEGEND] = 0
    s[EFF_COMBAT_USED] = 0
    s[EFF_BEING_MOVED] = 0
    s[EFF_SEL_SQ] = -1
    s[EFF_SEL_RANK] = 0
    s[EFF_SEL_OWNER] = -1
    s[EFF_SEL_WAS_RED] = 0
    s[EFF_DIR] = -1
    s[EFF_CHOICE] = -1
    s[EFF_PLACED_N] = 0
    s[EFF_AFFECTED_N] = 0
    s[EFF_AFFECTED_COLOURS] = 0
    s[PHASE] = PH_EFFECT


@njit(cache=True)
def _complete_summon(s, T, ev):
    seat = s[CUR]
    card = s[PEND_CARD]
    o = s[PEND_ORIENT]
    t = s[PEND_TARGET]
    rank = T.card_rank[card]
    put(s, t, seat, rank)
    s[SUMMONED_N] += 1
    if T.sq_color[t] == SQ_RED:
        s[SUMMONED_RED] += 1
    elif T.sq_color[t] == SQ_GREEN:
        s[SUMMONED_GREEN] += 1
    s[N_SUMMONS + seat] += 1
    log_event(s, ev, EV_SUMMON, seat, card, t, o)
    if rank == LEGENDARY:
        s[LEGENDS_SUMMONED] += 1
        if s[MODE] == MODE_DEATHMATCH:
            s[SCORE + seat] += 1
            log_event(s, ev, EV_SCORE, seat, 1, SR_LEGEND, 0)
    s[EFF_CARD] = card
    s[EFF_KIND] = EK_BEING
    s[EFF_BEING_SQ] = t
    s[EFF_ORIENT] = o
    s[EFF_TARGET] = t
    _start_program(s, T.card_eff_start[card], T.card_eff_end[card], -1, -1)


@njit(cache=True)
def _needs_pickup(s, T, card):
    seat = s[CUR]
    if T.card_rank[card] == LEGENDARY:
        return s[LSTOCK + seat] == 0
    return s[STOCK + seat] == 0


@njit(cache=True)
def _play_flare(s, T, ev, slot, opp):
    seat = s[CUR]
    card = hand_remove(s, seat, slot)
    halves = flare_halves(s, T, card, seat, opp)
    s[N_FLARES + seat] += 1
    log_event(s, ev, EV_FLARE, seat, card, opp, halves)
    if s[MODE] == MODE_DEATHMATCH:
        s[SCORE + opp] += 1
        log_event(s, ev, EV_SCORE, opp, 1, SR_FLARE, 0)
    s[EFF_CARD] = card
    s[EFF_KIND] = EK_FLARE
    s[EFF_BEING_SQ] = -1
    s[EFF_ORIENT] = -1
    s[EFF_OPP] = opp
    # both conditions are judged now; the lower half runs even if the upper changed them
    if halves & 1:
        if halves & 2:
            _start_program(
                s,
                T.card_eff_start[card],
                T.card_eff_end[card],
                T.card_eff2_start[card],
                T.card_eff2_end[card],
            )
        else:
            _start_program(s, T.card_eff_start[card], T.card_eff_end[card], -1, -1)
    else:
        _start_program(s, T.card_eff2_start[card], T.card_eff2_end[card], -1, -1)


# ---------------------------------------------------------------------------------------------
# applying options


@njit(cache=True)
def apply_option(s, T, ev, kind, a, b, c):
    """Carry out one option of the pending decision (no validation: options come from
    ``advance``)."""
    seat = s[CUR]
    s[DECISIONS] += 1
    ph = s[PHASE]
    if ph == PH_EFFECT:
        if kind == OPT_SKIP:
            log_event(s, ev, EV_SKIP, seat, s[EFF_CARD], s[EFF_PC], 0)
            skip_step(s, T)
        else:
            apply_target(s, T, ev, a, b, c)
        return
    if kind == OPT_PLACE:
        if ph == PH_ACTION:
            s[ACTIONS_LEFT] -= 1
            s[ACTIONS_DONE] += 1
            s[N_PLACES + seat] += 1
            if a < 0:
                s[PHASE] = PH_PLACE_PICKUP
                return
        put(s, a, seat, COMMON)
        log_event(s, ev, EV_PLACE, seat, a, COMMON, 0)
        s[PHASE] = PH_ACTION
    elif kind == OPT_PICKUP:
        pick_up(s, ev, a, seat)
        if ph == PH_PLACE_PICKUP:
            s[PHASE] = PH_PLACE_SQUARE
        else:
            _complete_summon(s, T, ev)
    elif kind == OPT_SUMMON:
        s[ACTIONS_LEFT] -= 1
        s[ACTIONS_DONE] += 1
        card = hand_remove(s, seat, a)
        s[BORROW_ENEMY] = 0  # a borrowed enemy piece serves the next summon only
        s[PEND_CARD] = card
        s[PEND_ORIENT] = b
        s[PEND_TARGET] = c
        if s[BOARD + c] != 0:
            destroy(s, ev, c, seat, 1)  # oversummoning
        if _needs_pickup(s, T, card):
            s[PHASE] = PH_SUMMON_PICKUP
        else:
            _complete_summon(s, T, ev)
    elif kind == OPT_DISCARD:
        s[ACTIONS_LEFT] -= 1
        s[ACTIONS_DONE] += 1
        s[DISCARD_USED] = 1
        s[N_DISCARDS + seat] += 1
        card = hand_remove(s, seat, a)
        discard_card(s, T, seat, card)
        log_event(s, ev, EV_DISCARD, seat, card, 0, 0)
        s[PHASE] = PH_RETURN
    elif kind == OPT_RETURN:
        card = hand_remove(s, seat, a)
        return_to_bottom(s, T, seat, card)
        log_event(s, ev, EV_RETURN, seat, card, 0, 0)
    elif kind == OPT_RETURN_DONE:
        s[PHASE] = PH_ACTION
    elif kind == OPT_FLARE:
        _play_flare(s, T, ev, a, b)
    elif kind == OPT_END_TURN:
        end_turn(s, T, ev)
    elif kind == OPT_CLAIM:
        pts = T.task_points[a]
        s[TASK_PTS + seat] += pts
        s[TCLAIMED + a] = seat
        s[TCLAIM_TURN + a] = s[TURN_NO]
        s[N_TASKS_CLAIMED + seat] += 1
        log_event(s, ev, EV_CLAIM, seat, a, pts, 0)
        log_event(s, ev, EV_SCORE, seat, pts, SR_TASK, 0)
        remove_claimed(s, T, a)
        finish_turn(s, T, ev)
    elif kind == OPT_NO_CLAIM:
        finish_turn(s, T, ev)
    elif kind == OPT_SETUP:
        _setup_pieces(s, T, ev, a)


@njit(cache=True)
def _setup_pieces(s, T, ev, own_index):
    """Duel: the second seat puts its piece on duel_start[own_index], the first seat's on
    the other square; then the first seat starts."""
    setter = s[CUR]
    first = s[FIRST]
    mine = T.duel_start[own_index]
    theirs = T.duel_start[1 - own_index]
    put(s, mine, setter, COMMON)
    log_event(s, ev, EV_SETUP_PIECE, setter, mine, s[BOARD + mine], 0)
    put(s, theirs, first, COMMON)
    log_event(s, ev, EV_SETUP_PIECE, setter, theirs, s[BOARD + theirs], 0)
    start_turn(s, T, ev, first, 0)


@njit(cache=True)
def advance(s, T, ev, opts):
    """Resolve everything automatic; return the number of options of the next decision
    (rows of ``opts``), or 0 when the game is over."""
    while s[GAME_OVER] == 0:
        ph = s[PHASE]
        n = phase_options(s, T, ev, opts)
        if ph == PH_EFFECT and n == 0:
            _effect_done(s, T)
            continue
        if n == 0:
            if ph == PH_CLAIM:
                finish_turn(s, T, ev)
                continue
            if ph == PH_SUMMON_PICKUP or ph == PH_PLACE_PICKUP or ph == PH_PLACE_SQUARE:
                s[PHASE] = PH_ACTION  # cannot happen when options are generated correctly
                continue
            end_turn(s, T, ev)
            continue
        if n == 1 and s[PHASE] != PH_EFFECT:
            apply_option(s, T, ev, opts[0, 0], opts[0, 1], opts[0, 2], opts[0, 3])
            continue
        return n
    return 0
