"""The shared invariant checker, run after every applied option in random test games.

Returns 0 when the state is consistent, else a code naming the first broken invariant
(INV_NAMES). Not a hot path: it may allocate small arrays.

``CHECKS`` is the public registry of the single checks, by name, in the order ``check_state``
runs them; each is ``check(s, T, ev) -> INV_OK or its INV_* code`` (``ev``: the event rows
logged so far), so tests can hold a position to one check or iterate them all.
"""

import numpy as np

from core.constants import (
    CK_BEING,
    EK_BEING,
    EK_WARP,
    EV_CONVERT,
    EV_DESTROY,
    EV_EXTRA_COUNT,
    EV_REMOVED,
    EV_SCORE,
    EV_THAW,
    EV_TURN,
    EV_WARP,
    LEGENDARY,
    MODE_MELEE,
    MODE_NEW_PLAYER,
    PH_SUMMON_PICKUP,
    SR_DESTRUCTION,
    SR_FLARE,
    SR_LEGEND,
    SR_PENALTY,
)
from core.jit import njit
from core.layout import (
    BOARD,
    COLOUR,
    CUR,
    DECK,
    DECK_CAP,
    DECK_CNT,
    DECK_HEAD,
    DISC,
    DISC_CAP,
    DISC_N,
    EFF_CARD,
    EFF_KIND,
    EV_LOST,
    EV_N,
    FDECK,
    FDECK_CNT,
    FDECK_HEAD,
    FDISC,
    FDISC_N,
    FROZEN,
    GAME_OVER,
    GATEWAY,
    HAND,
    HAND_CAP,
    HAND_N,
    LDECK,
    LDECK_CNT,
    LDECK_HEAD,
    LDISC,
    LDISC_N,
    LEG_TOTAL,
    LSTOCK,
    MAX_PLAYERS,
    MODE,
    N_GATEWAY_TURNS,
    N_PLAYERS,
    N_TASKS,
    N_THAWS,
    N_WARPS,
    NSQ,
    PEND_CARD,
    PENDING,
    PHASE,
    POOL_TOTAL,
    SCORE,
    SCORE_COLOR,
    SEAT_DECK,
    SHARED_CAP,
    STASIS,
    STASIS_CARD,
    STOCK,
    TASK_CAP,
    TASK_PTS,
    TAVAIL,
    TCLAIMED,
    TDECK,
    TDECK_CNT,
    TDECK_HEAD,
    TNEXT,
    TURN_NO,
)
from core.rules.modes import has_tasks, n_colours
from core.rules.setup import legendary_pool, pool_size

INV_OK = 0
INV_VOID = 1
INV_POOL = 2
INV_LEGEND_POOL = 3
INV_LEGEND_CAP = 4
INV_CARDS = 5
INV_HAND = 6
INV_TASKS = 7
INV_TASK_POINTS = 8
INV_SCORE_EVENTS = 9
INV_BAD_OWNER = 10
INV_REMOVED = 11
INV_GATEWAY = 12
INV_PENDING = 13
INV_STASIS = 14
INV_MECHANICS = 15
INV_NAMES = (
    "ok",
    "piece on a void square",
    "common/heroic pieces: board + stock != total",
    "legendary pieces: board + stock != 3",
    "more than 3 legendary pieces",
    "a card is missing or duplicated",
    "hand overflow",
    "task deck/display/claims inconsistent",
    "task points differ from the claimed tasks",
    "score differs from what the events imply",
    "piece of a seat that is not playing",
    "pieces removed from the game differ from the removal events",
    "a Gateway square holds no non-legendary piece of its seat's colour",
    "a pending being is not a warp card in its seat's hand",
    "a piece in stasis is not held by its seat's pending card or the card being summoned",
    "thaw/warp/Gateway-turn counters differ from the log",
)


@njit(cache=True, _nrt=True)
def check_pieces(s, T, ev):
    """Pieces only on playable squares and of colours in play; each colour's pieces on the
    board and in stock add up to its pool (common/heroic and legendary)."""
    np_ = n_colours(s)  # pieces and stocks belong to colours
    for sq in range(NSQ):
        code = s[BOARD + sq]
        if code != 0:
            if T.sq_color[sq] < 0:
                return INV_VOID
            if (code >> 2) >= np_ or (code & 3) == 0:
                return INV_BAD_OWNER
    for p in range(np_):
        legends_total = s[LEG_TOTAL + p]  # 3 (0 for new players) less those removed
        if legends_total < 0 or legends_total > legendary_pool(s[MODE]):
            return INV_LEGEND_CAP
        if s[POOL_TOTAL + p] < 0 or s[POOL_TOTAL + p] > pool_size(s[MODE], s[N_PLAYERS]):
            return INV_POOL
        pool = 0
        leg = 0
        for k in range(MAX_PLAYERS):  # pieces held in stasis (Etherweave) are still owned
            held = s[STASIS + k]
            if held != 0 and (held >> 2) == p:
                if (held & 3) == LEGENDARY:
                    leg += 1
                else:
                    pool += 1
        for sq in range(NSQ):
            code = s[BOARD + sq]
            if code != 0 and (code >> 2) == p:
                if (code & 3) == LEGENDARY:
                    leg += 1
                else:
                    pool += 1
        if s[STOCK + p] < 0 or pool + s[STOCK + p] != s[POOL_TOTAL + p]:
            return INV_POOL
        if leg > legends_total:  # before the stock check, which would report it first
            return INV_LEGEND_CAP
        if s[LSTOCK + p] < 0 or leg + s[LSTOCK + p] != legends_total:
            return INV_LEGEND_POOL
    return INV_OK


@njit(cache=True, _nrt=True)
def _tally_queue(s, base, cap, head_f, cnt_f, seen):
    for i in range(s[cnt_f]):
        seen[s[base + (s[head_f] + i) % cap]] += 1


@njit(cache=True, _nrt=True)
def check_cards(s, T, ev):
    """Every card is in exactly one place (deck, hand, discard pile, frozen, shared piles)
    and no hand overflows."""
    C = T.card_kind.shape[0]
    seen = np.zeros(C, np.int64)
    np_ = s[N_PLAYERS]
    for p in range(np_):
        if s[HAND_N + p] > HAND_CAP or s[HAND_N + p] < 0:
            return INV_HAND
        _tally_queue(s, DECK + p * DECK_CAP, DECK_CAP, DECK_HEAD + p, DECK_CNT + p, seen)
        for i in range(s[HAND_N + p]):
            seen[s[HAND + p * HAND_CAP + i]] += 1
        for i in range(s[DISC_N + p]):
            seen[s[DISC + p * DISC_CAP + i]] += 1
        if s[FROZEN + p] >= 0:  # the frozen slot holds a card of the seat's deck
            seen[s[FROZEN + p]] += 1
            if T.card_deck[s[FROZEN + p]] != s[SEAT_DECK + p]:
                return INV_CARDS
    _tally_queue(s, LDECK, SHARED_CAP, LDECK_HEAD, LDECK_CNT, seen)
    _tally_queue(s, FDECK, SHARED_CAP, FDECK_HEAD, FDECK_CNT, seen)
    for i in range(s[LDISC_N]):
        seen[s[LDISC + i]] += 1
    for i in range(s[FDISC_N]):
        seen[s[FDISC + i]] += 1
    if s[EFF_CARD] >= 0 and s[EFF_KIND] != EK_WARP:  # a warped card stays in the hand
        seen[s[EFF_CARD]] += 1
    elif s[PEND_CARD] >= 0 and s[PHASE] == 3:  # summon waiting for its pick-up
        seen[s[PEND_CARD]] += 1
    # expected: each seat's deck once (two seats may use the same deck), legends, flares once
    want = np.zeros(C, np.int64)
    for p in range(np_):
        d = s[SEAT_DECK + p]
        for k in range(T.deck_size[d]):
            want[T.deck_cards[d, k]] += 1
    for k in range(T.legend_cards.shape[0]):
        want[T.legend_cards[k]] += 1
    for k in range(T.flare_cards.shape[0]):
        want[T.flare_cards[k]] += 1
    for c in range(C):
        if seen[c] != want[c]:
            return INV_CARDS
    # a being card must sit with the seat whose deck it belongs to
    for p in range(np_):
        for i in range(s[HAND_N + p]):
            card = s[HAND + p * HAND_CAP + i]
            if T.card_kind[card] == CK_BEING and T.card_deck[card] != s[SEAT_DECK + p]:
                return INV_CARDS
    return INV_OK


@njit(cache=True, _nrt=True)
def check_tasks(s, T, ev):
    """High Form rules: each task is in the task deck, the display or claimed, once, and
    the task points are those of the claimed tasks."""
    if not has_tasks(s[MODE]):
        return INV_OK
    seen = np.zeros(N_TASKS, np.int64)
    _tally_queue(s, TDECK, TASK_CAP, TDECK_HEAD, TDECK_CNT, seen)
    for k in range(3):
        if s[TAVAIL + k] >= 0:
            seen[s[TAVAIL + k]] += 1
    if s[TNEXT] >= 0:
        seen[s[TNEXT]] += 1
    pts = np.zeros(4, np.int64)
    for t in range(N_TASKS):
        if s[TCLAIMED + t] >= 0:
            seen[t] += 1
            pts[s[TCLAIMED + t]] += T.task_points[t]
    basic_only = s[MODE] == MODE_NEW_PLAYER  # the advanced tasks are out of the game
    for t in range(N_TASKS):
        if seen[t] != (0 if basic_only and T.task_advanced[t] == 1 else 1):
            return INV_TASKS
    for p in range(n_colours(s)):
        if pts[p] != s[TASK_PTS + p]:
            return INV_TASK_POINTS
    return INV_OK


@njit(cache=True, _nrt=True)
def check_score_events(s, T, ev):
    """Recompute every colour's score from the log alone and compare.

    High Form rules: score events must add up to the claimed task points. Deathmatch:
    points are rebuilt from destroy/convert events (scored per finished turn: 2 legendary,
    1 heroic, 1 per pair of commons per colour), legends summoned and flares played against
    a colour. Melee checks every opponent column the same way, plus the one extra pair of
    leftover commons of two colours.
    """
    if s[EV_LOST] > 0 or ev.shape[0] == 0:
        return INV_OK  # an incomplete log proves nothing
    if s[MODE] == MODE_MELEE:
        return _check_melee_events(s, ev)
    ncol = n_colours(s)
    total = np.zeros(4, np.int64)
    rebuilt = np.zeros(4, np.int64)
    tally = np.zeros(16, np.int64)
    mover = -1
    extra = 0  # Gate of Oblivion's warp this turn: a conversion counts this many more
    for i in range(s[EV_N]):
        kind = ev[i, 0]
        seat = ev[i, 2]
        if kind == EV_SCORE:
            if ev[i, 4] != SR_PENALTY or not has_tasks(s[MODE]):  # tasks: TASK_PTS only
                total[seat] += ev[i, 3]
            if ev[i, 4] == SR_LEGEND or ev[i, 4] == SR_FLARE or ev[i, 4] == SR_PENALTY:
                rebuilt[seat] += ev[i, 3]
        elif kind == EV_TURN:
            if mover >= 0:
                rebuilt[mover] += _turn_points(tally, mover, ncol)
            mover = s[COLOUR + seat]
            extra = 0
            for k in range(16):
                tally[k] = 0
        elif kind == EV_DESTROY:  # weighted: "count it as two" logs 2
            tally[(ev[i, 4] >> 2) * 4 + (ev[i, 4] & 3)] += ev[i, 5]
        elif kind == EV_EXTRA_COUNT:
            extra = ev[i, 3]
        elif kind == EV_CONVERT:
            tally[(ev[i, 4] >> 2) * 4 + (ev[i, 4] & 3)] += 1 + extra
    if s[GAME_OVER] == 1 and mover >= 0:
        rebuilt[mover] += _turn_points(tally, mover, ncol)
    for p in range(ncol):
        if has_tasks(s[MODE]):
            if total[p] != s[TASK_PTS + p]:
                return INV_SCORE_EVENTS
        elif total[p] != s[SCORE + p] or rebuilt[p] != s[SCORE + p]:
            return INV_SCORE_EVENTS
    return INV_OK


@njit(cache=True, _nrt=True)
def _check_melee_events(s, ev):
    """Melee: column totals from the events equal SCORE_COLOR, every seat's score is its
    lowest column, and each finished turn's destruction points match its destroy events."""
    np_ = s[N_PLAYERS]
    col = np.zeros((4, 4), np.int64)
    tally = np.zeros(16, np.int64)
    dpts = np.zeros(4, np.int64)
    mover = -1
    extra = 0  # as in check_score_events
    for i in range(s[EV_N]):
        kind = ev[i, 0]
        seat = ev[i, 2]
        if kind == EV_SCORE:
            col[seat, ev[i, 5]] += ev[i, 3]
            if ev[i, 4] == SR_DESTRUCTION and seat == mover:
                dpts[ev[i, 5]] += ev[i, 3]
        elif kind == EV_TURN:
            if mover >= 0 and not _melee_turn_ok(tally, dpts, mover, np_):
                return INV_SCORE_EVENTS
            mover = seat
            extra = 0
            tally[:] = 0
            dpts[:] = 0
        elif kind == EV_DESTROY:  # weighted: "count it as two" logs 2
            tally[(ev[i, 4] >> 2) * 4 + (ev[i, 4] & 3)] += ev[i, 5]
        elif kind == EV_EXTRA_COUNT:
            extra = ev[i, 3]
        elif kind == EV_CONVERT:
            tally[(ev[i, 4] >> 2) * 4 + (ev[i, 4] & 3)] += 1 + extra
    if s[GAME_OVER] == 1 and mover >= 0 and not _melee_turn_ok(tally, dpts, mover, np_):
        return INV_SCORE_EVENTS
    for p in range(np_):
        low = 1 << 30
        for c in range(np_):
            if col[p, c] != s[SCORE_COLOR + p * MAX_PLAYERS + c]:
                return INV_SCORE_EVENTS
            if c != p and col[p, c] < low:
                low = col[p, c]
        if low != s[SCORE + p]:
            return INV_SCORE_EVENTS
    return INV_OK


@njit(cache=True, _nrt=True)
def _melee_turn_ok(tally, dpts, mover, np_):
    odd = 0
    extra = 0
    for c in range(np_):
        if c == mover:
            if dpts[c] != 0:
                return False
            continue
        d = dpts[c] - _tally_points(tally, c)
        if tally[c * 4 + 1] % 2 == 1:
            odd += 1
        if d == 1 and tally[c * 4 + 1] % 2 == 1:
            extra += 1
        elif d != 0:
            return False
    return extra == (1 if odd >= 2 else 0)


@njit(cache=True, _nrt=True)
def _tally_points(tally, c):
    """Points for the enemy pieces of colour c in a turn's destroy tally."""
    return 2 * tally[c * 4 + 3] + tally[c * 4 + 2] + tally[c * 4 + 1] // 2


@njit(cache=True, _nrt=True)
def _turn_points(tally, mover, np_):
    pts = 0
    for c in range(np_):
        if c != mover:
            pts += _tally_points(tally, c)
    return pts


@njit(cache=True, _nrt=True)
def check_removed(s, T, ev):
    """Every colour's piece totals fall short of the mode's by exactly the pieces the log
    says left the game."""
    if s[EV_LOST] > 0 or ev.shape[0] == 0:
        return INV_OK
    gone = np.zeros(8, np.int64)  # [colour * 2 + legendary]
    for i in range(s[EV_N]):
        if ev[i, 0] == EV_REMOVED:
            code = ev[i, 4]
            gone[(code >> 2) * 2 + (1 if (code & 3) == LEGENDARY else 0)] += 1
    pool = pool_size(s[MODE], s[N_PLAYERS])
    legends = legendary_pool(s[MODE])
    for p in range(n_colours(s)):
        if s[POOL_TOTAL + p] != pool - gone[p * 2] or s[LEG_TOTAL + p] != legends - gone[p * 2 + 1]:
            return INV_REMOVED
    return INV_OK


@njit(cache=True, _nrt=True)
def check_gateways(s, T, ev):
    """Every seat's Gateway (if any) is a non-legendary piece of that seat's colour, on the
    board or held in stasis by seat k (GATEWAY = -2 - k)."""
    for p in range(MAX_PLAYERS):
        g = s[GATEWAY + p]
        if g == -1:
            continue
        if p >= s[N_PLAYERS] or g < -1 - MAX_PLAYERS or g >= NSQ:
            return INV_GATEWAY
        code = s[BOARD + g] if g >= 0 else s[STASIS + (-2 - g)]
        if code == 0 or (code >> 2) != s[COLOUR + p] or (code & 3) == LEGENDARY:
            return INV_GATEWAY
    return INV_OK


@njit(cache=True, _nrt=True)
def check_state(s, T, ev):
    """The first broken invariant of ``CHECKS`` in its order (INV_OK when none is)."""
    err = check_pieces(s, T, ev)
    if err == 0:
        err = check_gateways(s, T, ev)
    if err == 0:
        err = check_cards(s, T, ev)
    if err == 0:
        err = check_tasks(s, T, ev)
    if err == 0:
        err = check_score_events(s, T, ev)
    if err == 0:
        err = check_removed(s, T, ev)
    if err == 0:
        err = check_pending(s, T, ev)
    if err == 0:
        err = check_stasis(s, T, ev)
    if err == 0:
        err = check_mechanic_counters(s, T, ev)
    return err


@njit(cache=True, _nrt=True)
def check_mechanic_counters(s, T, ev):
    """The telemetry counters agree with the log: one thaw / warp per thaw / warp event of
    the seat; Gateway turns are no more than the turns started so far."""
    for p in range(MAX_PLAYERS):
        if s[N_GATEWAY_TURNS + p] < 0 or s[N_GATEWAY_TURNS + p] > s[TURN_NO]:
            return INV_MECHANICS
    if s[EV_LOST] > 0 or ev.shape[0] == 0:
        return INV_OK
    tally = np.zeros((2, MAX_PLAYERS), np.int64)  # thaws, warps
    for i in range(s[EV_N]):
        k = ev[i, 0]
        row = 0 if k == EV_THAW else 1 if k == EV_WARP else -1
        if row >= 0 and 0 <= ev[i, 2] < MAX_PLAYERS:
            tally[row, ev[i, 2]] += 1
    for p in range(MAX_PLAYERS):
        if s[N_THAWS + p] != tally[0, p] or s[N_WARPS + p] != tally[1, p]:
            return INV_MECHANICS
    return INV_OK


@njit(cache=True, _nrt=True)
def check_pending(s, T, ev):
    """Etherweave: a pending being is a card with a warp program in its own seat's hand."""
    for p in range(MAX_PLAYERS):
        card = s[PENDING + p]
        if card == -1:
            continue
        if p >= s[N_PLAYERS] or card < 0 or T.card_has_warp[card] != 1:
            return INV_PENDING
        found = False
        for k in range(s[HAND_N + p]):
            if s[HAND + p * HAND_CAP + k] == card:
                found = True
        if not found:
            return INV_PENDING
    return INV_OK


@njit(cache=True, _nrt=True)
def check_stasis(s, T, ev):
    """Etherweave: a seat's piece in stasis (a legal piece code of a colour in the game) is
    held by a card that is its pending being, or the card whose summon or effect is under
    way; with no piece, no card."""
    for p in range(MAX_PLAYERS):
        code = s[STASIS + p]
        card = s[STASIS_CARD + p]
        if code == 0:
            if card != -1:
                return INV_STASIS
            continue
        if p >= s[N_PLAYERS] or (code & 3) == 0 or (code >> 2) >= n_colours(s) or card < 0:
            return INV_STASIS
        pending = s[PENDING + p] == card
        running = s[EFF_CARD] == card and s[EFF_KIND] == EK_BEING and s[CUR] == p
        summoning = s[PEND_CARD] == card and s[PHASE] == PH_SUMMON_PICKUP and s[CUR] == p
        if not (pending or running or summoning):
            return INV_STASIS
    return INV_OK


# name -> check(s, T, ev), in check_state's order (tests/test_invariants.py holds them equal)
CHECKS = {
    "pieces": check_pieces,
    "gateways": check_gateways,
    "cards": check_cards,
    "tasks": check_tasks,
    "score_events": check_score_events,
    "removed": check_removed,
    "pending": check_pending,
    "stasis": check_stasis,
    "mechanic_counters": check_mechanic_counters,
}
