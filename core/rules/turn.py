"""The turn loop as a state machine: legal options for the pending decision, and applying one.

``advance`` runs everything automatic (turn start, effects without a choice, forced moves)
and stops at the next real decision, leaving its options in ``opts``. ``apply_option``
carries out one option row. Every player (random, greedy, search) goes through these two,
so they share all the rules.
"""

from core.board.pieces import destroy, pick_up, put
from core.constants import (
    CK_LEGEND,
    COMMON,
    CW_LEGEND,
    CW_NONE,
    CW_PAIR,
    EK_BEING,
    EK_FLARE,
    EK_NONE,
    EK_WARP,
    END_DECK,
    END_SCORE,
    END_TURN_CAP,
    EV_CLAIM,
    EV_DISCARD,
    EV_END,
    EV_END_TRIGGER,
    EV_FLARE,
    EV_HAND_OVER,
    EV_IMPROVISE,
    EV_PASS,
    EV_PLACE,
    EV_RETURN,
    EV_SCORE,
    EV_SETUP_PIECE,
    EV_SKIP,
    EV_SUMMON,
    EV_TURN,
    LEGENDARY,
    MODE_MELEE,
    MODE_NEW_PLAYER,
    OPT_CLAIM,
    OPT_COLOUR,
    OPT_DISCARD,
    OPT_END_TURN,
    OPT_FLARE,
    OPT_KEEP_FROZEN,
    OPT_NO_CLAIM,
    OPT_PASS,
    OPT_PICKUP,
    OPT_PLACE,
    OPT_RETURN,
    OPT_RETURN_DONE,
    OPT_SETUP,
    OPT_SKIP,
    OPT_SUMMON,
    OPT_THAW,
    OPT_WARP,
    PH_ACTION,
    PH_CLAIM,
    PH_COLOUR,
    PH_EFFECT,
    PH_OVER,
    PH_PLACE_PICKUP,
    PH_PLACE_SQUARE,
    PH_RETURN,
    PH_SUMMON_PICKUP,
    PH_TURN_END,
    SQ_GREEN,
    SQ_RED,
    SR_DESTRUCTION,
    SR_FLARE,
    SR_LEGEND,
    SR_TASK,
)
from core.effects.etherweave_copy import reset_effect_registers
from core.effects.interpreter import apply_target, skip_step
from core.jit import njit
from core.jit.profile import P_APPLY, P_TURN_FLOW, enter, leave
from core.layout import (
    ACTIONS_DONE,
    ACTIONS_LEFT,
    BOARD,
    BORROW_ENEMY,
    COLOUR,
    COLOUR_CHOICES,
    COLOUR_WHY,
    CONTROL,
    CUR,
    DECISIONS,
    DECK_CNT,
    DESTROYED,
    DISCARD_USED,
    EFF_BEING_SQ,
    EFF_CARD,
    EFF_END,
    EFF_KIND,
    EFF_NEXT_END,
    EFF_NEXT_START,
    EFF_OPP,
    EFF_ORIENT,
    EFF_OVERSUMMONED,
    EFF_PC,
    EFF_TARGET,
    END_REASON,
    END_SEAT,
    EXTRA_DRAW_BEINGS,
    EXTRA_DRAW_LEGENDS,
    EXTRA_TURN,
    FINAL_TURN,
    FIRST,
    GAME_OVER,
    GATEWAY,
    HAND_N,
    IMPRO_LEFT,
    IS_EXTRA,
    LEGENDS_SUMMONED,
    LOOKAHEAD,
    LSTOCK,
    MODE,
    N_DISCARDS,
    N_FLARES,
    N_GATEWAY_TURNS,
    N_PLACES,
    N_PLAYERS,
    N_SUMMONS,
    N_TASKS_CLAIMED,
    N_THAWS,
    N_WARPS,
    PASSED,
    PEND_ALLOW,
    PEND_CARD,
    PEND_ORIENT,
    PEND_TARGET,
    PHASE,
    SETUP_N,
    SETUP_PAIRS,
    STOCK,
    SUMMON_COLOUR,
    SUMMONED_GREEN,
    SUMMONED_N,
    SUMMONED_RED,
    TASK_PTS,
    TCLAIM_TURN,
    TCLAIMED,
    TURN_CAP,
    TURN_NO,
    VOID_CELLS,
    WINNER,
)
from core.rules.events import log_event
from core.rules.frozen import begin_thaw, keep_frozen, lose_action_at_turn_start, store_after_effect
from core.rules.gateway import gateway_on_summon
from core.rules.modes import has_tasks, is_team, scores_destruction
from core.rules.options import flare_halves, phase_options
from core.rules.piles import (
    discard_card,
    hand_add,
    hand_card,
    hand_remove,
    refill_hand,
    refill_legends,
    return_to_bottom,
)
from core.rules.scoring import (
    add_points,
    decide_winner,
    refresh_scores,
    score_destruction,
    target_score,
)
from core.rules.task_display import remove_claimed
from core.rules.warp import (
    begin_warp,
    causality_penalty,
    end_pending_on_summon,
    open_warps_at_turn_start,
    reacher_after_penalty,
)
from core.summon.detached import pack_allowances

SIDEWAYS_CARDS = 6  # team play: the bottom six cards of each deck lie sideways
SLOT_BITS = 4  # OPT_SUMMON column 1: hand slot + 16 * (improvised colour + 1)


@njit(cache=True, _nrt=False)
def start_turn(s, T, ev, seat, extra):
    s[CUR] = seat
    s[CONTROL] = seat
    s[PASSED] = 0
    s[COLOUR_WHY] = CW_NONE
    s[IS_EXTRA] = extra
    s[TURN_NO] += 1
    s[ACTIONS_LEFT] = 1 if s[TURN_NO] == 1 else 2
    lose_action_at_turn_start(s, seat, extra)
    open_warps_at_turn_start(s, seat, extra)
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
    s[SUMMON_COLOUR] = -1
    s[VOID_CELLS] = 0
    if seat == s[END_SEAT] and extra == 0:
        s[FINAL_TURN] = 1
    s[PHASE] = PH_ACTION
    log_event(s, ev, EV_TURN, seat, s[ACTIONS_LEFT], extra, 0)


@njit(cache=True, _nrt=False)
def game_over(s, T, ev, reason):
    refresh_scores(s, T)
    causality_penalty(s, ev)
    if reason != 0:
        s[END_REASON] = reason
    decide_winner(s, T)
    s[GAME_OVER] = 1
    s[PHASE] = PH_OVER
    log_event(s, ev, EV_END, s[CUR], s[END_REASON], s[WINNER], 0)


@njit(cache=True, _nrt=False)
def finish_turn(s, T, ev):
    """After the optional task claim: refill, end checks, hand over to the next seat.

    A player's lookahead copy (``LOOKAHEAD``) stops here: the refill would draw hidden cards.
    The turn ends here (telemetry: a Gateway held now counts one Gateway turn)."""
    if s[GATEWAY + s[CUR]] >= 0:
        s[N_GATEWAY_TURNS + s[CUR]] += 1
    if s[LOOKAHEAD] != 0:
        refresh_scores(s, T)
        s[PHASE] = PH_TURN_END
        return
    seat = s[CUR]
    mode = s[MODE]
    if is_team(mode):
        # team play: instead of drawing legends, hand them all to the teammate, who draws up
        # to 2 and any extra legend this turn earned (rules summary, reference fact 68)
        _hand_legends_over(s, T, ev, seat)
        refill_hand(s, T, ev, seat, 0, s[EXTRA_DRAW_BEINGS], 0)
        refill_legends(s, T, ev, (seat + 2) % 4, 2, s[EXTRA_DRAW_LEGENDS])
    else:
        legends = 0 if mode == MODE_NEW_PLAYER else 2
        refill_hand(s, T, ev, seat, legends, s[EXTRA_DRAW_BEINGS], s[EXTRA_DRAW_LEGENDS])
    refresh_scores(s, T)
    # team play: the bottom six cards of a deck lie sideways (a card returned to the bottom
    # is turned sideways and the uppermost sideways one straightened, so six stay sideways);
    # drawing the last card that is not sideways triggers the end
    last_card = SIDEWAYS_CARDS if is_team(mode) else 0
    if s[END_SEAT] < 0:
        reacher = reacher_after_penalty(s, target_score(mode, s[N_PLAYERS]))
        if reacher >= 0:
            s[END_SEAT] = seat
            s[END_REASON] = END_SCORE
        elif s[DECK_CNT + seat] <= last_card:
            s[END_SEAT] = seat
            s[END_REASON] = END_DECK
        if s[END_SEAT] >= 0:
            log_event(s, ev, EV_END_TRIGGER, seat, s[END_REASON], reacher, s[N_PLAYERS])
            if mode == MODE_NEW_PLAYER:
                game_over(s, T, ev, 0)  # new-player rules: no final round
                return
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


@njit(cache=True, _nrt=False)
def _hand_legends_over(s, T, ev, seat):
    """Team play: the legend cards in hand go to the teammate, who plays next for the team
    (so each team holds its legend cards between its members)."""
    mate = (seat + 2) % 4
    k = 0
    while k < s[HAND_N + seat]:
        card = hand_card(s, seat, k)
        if T.card_kind[card] == CK_LEGEND:
            hand_remove(s, seat, k)
            hand_add(s, mate, card)
            log_event(s, ev, EV_HAND_OVER, seat, card, mate, 0)
        else:
            k += 1


@njit(cache=True, _nrt=False)
def end_turn(s, T, ev):
    if scores_destruction(s[MODE]):
        odd = score_destruction(s, ev)
        if odd != 0:  # melee: leftover commons of two colours make one more pair
            s[COLOUR_WHY] = CW_PAIR
            s[COLOUR_CHOICES] = odd
            s[PHASE] = PH_COLOUR
            return
    if has_tasks(s[MODE]):
        s[PHASE] = PH_CLAIM  # the claim phase is skipped by advance when nothing holds
        return
    finish_turn(s, T, ev)


@njit(cache=True, _nrt=False)
def _effect_done(s, T, ev):
    """The running program ended: the card goes to its discard pile (or, with a frozen
    program, to the frozen slot)."""
    if store_after_effect(s, T, ev):
        return
    if s[EFF_KIND] == EK_WARP:
        s[EFF_CARD] = -1  # the warped card stays in hand, pending
    if s[EFF_CARD] >= 0:
        discard_card(s, T, s[CUR], s[EFF_CARD])
    s[EFF_CARD] = -1
    s[EFF_KIND] = EK_NONE
    s[PHASE] = PH_ACTION


@njit(cache=True, _nrt=False)
def _start_program(s, start, end, next_start, next_end):
    s[EFF_PC] = start
    s[EFF_END] = end
    s[EFF_NEXT_START] = next_start
    s[EFF_NEXT_END] = next_end
    reset_effect_registers(s)
    s[PHASE] = PH_EFFECT


@njit(cache=True, _nrt=False)
def _complete_summon(s, T, ev):
    seat = s[CUR]
    me = s[COLOUR + seat]
    card = s[PEND_CARD]
    o = s[PEND_ORIENT]
    t = s[PEND_TARGET]
    rank = T.card_rank[card]
    put(s, t, me, rank)
    s[SUMMONED_N] += 1
    if T.sq_color[t] == SQ_RED:
        s[SUMMONED_RED] += 1
    elif T.sq_color[t] == SQ_GREEN:
        s[SUMMONED_GREEN] += 1
    s[N_SUMMONS + seat] += 1
    log_event(s, ev, EV_SUMMON, seat, card, t, o)
    gateway_on_summon(s, T, ev, card, t)  # after the oversummon (BGA playCard)
    s[EFF_CARD] = card
    s[EFF_KIND] = EK_BEING
    s[EFF_BEING_SQ] = t
    s[EFF_ORIENT] = o
    s[EFF_TARGET] = t
    _start_program(s, T.card_eff_start[card], T.card_eff_end[card], -1, -1)
    if rank == LEGENDARY:
        s[LEGENDS_SUMMONED] += 1
        if s[MODE] == MODE_MELEE:  # the point goes to a colour column of the player's choice
            s[COLOUR_WHY] = CW_LEGEND
            s[COLOUR_CHOICES] = ((1 << s[N_PLAYERS]) - 1) & ~(1 << me)
            s[PHASE] = PH_COLOUR
        elif scores_destruction(s[MODE]):
            add_points(s, ev, seat, 1, SR_LEGEND, 0)


@njit(cache=True, _nrt=False)
def _needs_pickup(s, T, card):
    seat = s[COLOUR + s[CUR]]
    if T.card_rank[card] == LEGENDARY:
        return s[LSTOCK + seat] == 0
    return s[STOCK + seat] == 0


@njit(cache=True, _nrt=False)
def _play_flare(s, T, ev, slot, opp):
    seat = s[CUR]
    card = hand_remove(s, seat, slot)
    halves = flare_halves(s, T, card, seat, opp)
    s[N_FLARES + seat] += 1
    log_event(s, ev, EV_FLARE, seat, card, opp, halves)
    if scores_destruction(s[MODE]):
        # the opponent gains 1 (melee: in the flare player's column); in team play colour
        # ``opp`` is also the seat number of one member of that team
        add_points(s, ev, opp, 1, SR_FLARE, s[COLOUR + seat])
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


@njit(cache=True, _nrt=False)
def apply_option(s, T, ev, kind, a, b, c):
    enter(P_APPLY)
    r = _apply_option_body(s, T, ev, kind, a, b, c)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _apply_option_body(s, T, ev, kind, a, b, c):
    """Carry out one option of the pending decision (no validation: options come from
    ``advance``)."""
    seat = s[CUR]
    me = s[COLOUR + seat]
    s[DECISIONS] += 1
    ph = s[PHASE]
    if kind == OPT_PASS:
        s[PASSED] = 1
        s[CONTROL] = (seat + 2) % 4
        log_event(s, ev, EV_PASS, seat, s[CONTROL], 0, 0)
        return
    if ph == PH_EFFECT:
        if kind == OPT_SKIP:
            log_event(s, ev, EV_SKIP, seat, s[EFF_CARD], s[EFF_PC], 0)
            skip_step(s, T)
        else:
            apply_target(s, T, ev, a, b, c)
        return
    if kind == OPT_PLACE:
        # after a team pass the teammate places: logged and counted under the teammate
        placer = s[CONTROL]
        if ph == PH_ACTION:
            s[ACTIONS_LEFT] -= 1
            s[ACTIONS_DONE] += 1
            s[N_PLACES + placer] += 1
            if a < 0:
                s[PHASE] = PH_PLACE_PICKUP
                return
        put(s, a, me, COMMON)
        log_event(s, ev, EV_PLACE, placer, a, COMMON, 0)
        s[PHASE] = PH_ACTION
    elif kind == OPT_PICKUP:
        pick_up(s, ev, a, me)
        if ph == PH_PLACE_PICKUP:
            s[PHASE] = PH_PLACE_SQUARE
        else:
            _complete_summon(s, T, ev)
    elif kind == OPT_SUMMON:
        s[ACTIONS_LEFT] -= 1
        s[ACTIONS_DONE] += 1
        card = hand_remove(s, seat, a & ((1 << SLOT_BITS) - 1))
        end_pending_on_summon(s, seat, card)
        impro = (a >> SLOT_BITS) - 1
        if impro >= 0:  # melee improvisation: once per game per opponent colour
            s[IMPRO_LEFT + seat] &= ~(1 << impro)
            log_event(s, ev, EV_IMPROVISE, seat, impro, 0, 0)
        s[PEND_ALLOW] = pack_allowances(s, me, impro)  # for a detached pick-up
        s[BORROW_ENEMY] = 0  # a borrowed enemy piece serves the next summon only
        s[SUMMON_COLOUR] = -1  # so does possession
        s[VOID_CELLS] = 0  # and void cells, used or not (BGA playCard)
        s[PEND_CARD] = card
        s[PEND_ORIENT] = b
        s[PEND_TARGET] = c
        s[EFF_OVERSUMMONED] = s[BOARD + c]  # what the summon itself destroys (0: nothing)
        if s[BOARD + c] != 0:
            destroy(s, ev, c, me, 1)  # oversummoning
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
    elif kind == OPT_THAW:
        s[N_THAWS + seat] += 1
        card = begin_thaw(s, ev)
        _start_program(s, T.card_eff2_start[card], T.card_eff2_end[card], -1, -1)
    elif kind == OPT_KEEP_FROZEN:
        keep_frozen(s, ev, a)
    elif kind == OPT_WARP:
        s[N_WARPS + seat] += 1
        card = begin_warp(s, T, ev, a)
        _start_program(s, T.card_eff2_start[card], T.card_eff2_end[card], -1, -1)
    elif kind == OPT_END_TURN:
        end_turn(s, T, ev)
    elif kind == OPT_CLAIM:
        pts = T.task_points[a]
        s[TASK_PTS + me] += pts
        s[TCLAIMED + a] = me
        s[TCLAIM_TURN + a] = s[TURN_NO]
        s[N_TASKS_CLAIMED + seat] += 1
        log_event(s, ev, EV_CLAIM, seat, a, pts, 0)
        log_event(s, ev, EV_SCORE, me, pts, SR_TASK, 0)
        remove_claimed(s, T, a)
        finish_turn(s, T, ev)
    elif kind == OPT_NO_CLAIM:
        finish_turn(s, T, ev)
    elif kind == OPT_SETUP:
        if s[MODE] == MODE_MELEE:
            _melee_setup_piece(s, T, ev, a)
        else:
            _setup_pieces(s, T, ev, a)
    elif kind == OPT_COLOUR:
        why = s[COLOUR_WHY]
        s[COLOUR_WHY] = CW_NONE
        s[COLOUR_CHOICES] = 0
        if why == CW_LEGEND:
            add_points(s, ev, seat, 1, SR_LEGEND, a)
            s[PHASE] = PH_EFFECT  # the legend's effect was set up and waits
        else:
            add_points(s, ev, seat, 1, SR_DESTRUCTION, a)
            finish_turn(s, T, ev)


@njit(cache=True, _nrt=False)
def _setup_pieces(s, T, ev, own_index):
    """Duel (and team Deathmatch, for the two colours): the second seat (team Deathmatch:
    the fourth, of the other team than the first) puts its colour's piece on
    duel_start[own_index], the first seat's colour on the other square; then the first seat
    starts."""
    setter = s[CUR]
    first = s[FIRST]
    mine = T.duel_start[own_index]
    theirs = T.duel_start[1 - own_index]
    put(s, mine, s[COLOUR + setter], COMMON)
    log_event(s, ev, EV_SETUP_PIECE, setter, mine, s[BOARD + mine], 0)
    put(s, theirs, s[COLOUR + first], COMMON)
    log_event(s, ev, EV_SETUP_PIECE, setter, theirs, s[BOARD + theirs], 0)
    start_turn(s, T, ev, first, 0)


@njit(cache=True, _nrt=False)
def melee_setup_colour(first, n_players, k):
    """Colour of the k-th melee starting piece: the third seat's, then the first's and the
    second's (3 players) or the third's, the fourth's and the first's (4 players)."""
    if n_players == 3:
        step = (2, 0, 1)[k]
    else:
        step = (2, 3, 0)[k]
    return (first + step) % n_players


@njit(cache=True, _nrt=False)
def _melee_setup_piece(s, T, ev, sq):
    """The last seat puts one starting piece next to a diamond mark; after three, the first
    seat starts."""
    setter = s[CUR]
    k = s[SETUP_N]
    colour = melee_setup_colour(s[FIRST], s[N_PLAYERS], k)
    put(s, sq, colour, COMMON)
    log_event(s, ev, EV_SETUP_PIECE, setter, sq, s[BOARD + sq], 0)
    for pair in range(T.melee_start.shape[0]):
        if T.melee_start[pair, 0] == sq or T.melee_start[pair, 1] == sq:
            s[SETUP_PAIRS] |= 1 << pair
    s[SETUP_N] = k + 1
    if k + 1 == T.melee_start.shape[0]:
        start_turn(s, T, ev, s[FIRST], 0)


@njit(cache=True, _nrt=False)
def advance(s, T, ev, opts):
    enter(P_TURN_FLOW)
    r = _advance_body(s, T, ev, opts)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _advance_body(s, T, ev, opts):
    """Resolve everything automatic; return the number of options of the next decision
    (rows of ``opts``), or 0 when the game is over."""
    while s[GAME_OVER] == 0:
        ph = s[PHASE]
        n = phase_options(s, T, ev, opts)
        if not settle(s, T, ev, opts, ph, n):
            return n
    return 0


@njit(cache=True, _nrt=False)
def settle(s, T, ev, opts, ph, n):
    """What ``advance`` does with the ``n`` options just listed for phase ``ph``: resolve
    what needs no decision (no option, or one outside an effect) and return True, or return
    False: a decision is pending."""
    if ph == PH_EFFECT and n == 0:
        _effect_done(s, T, ev)
        return True
    if n == 0:
        if ph == PH_CLAIM:
            finish_turn(s, T, ev)
            return True
        if ph == PH_SUMMON_PICKUP or ph == PH_PLACE_PICKUP or ph == PH_PLACE_SQUARE:
            s[PHASE] = PH_ACTION  # cannot happen when options are generated correctly
            return True
        end_turn(s, T, ev)
        return True
    if n == 1 and s[PHASE] != PH_EFFECT:
        apply_option(s, T, ev, opts[0, 0], opts[0, 1], opts[0, 2], opts[0, 3])
        return True
    return False
