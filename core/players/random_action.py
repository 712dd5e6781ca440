"""The random player's action-phase choice made while its options are generated.

``choose_random`` first draws a kind among the kinds present, then a row of that kind; it
never needs the rows of the other kinds. ``random_action`` therefore counts the place,
summon and discard options without writing them (a summon's existence is enough until the
summon kind is drawn), lists only the drawn kind, and makes the same two draws on the same
counts: the same option, the same random numbers, so the same games as ``action_options``
followed by ``choose_random``. Where a hand needs one of the expansions' summon searches
(possessed, void cells, detached patterns) or a search over every colour (borrowed enemy
pieces, melee improvisation), or where the full list could reach the option buffer's end, it
takes exactly that path instead. ``advance_deciding`` is ``advance`` with these choices
made on the way for the seats whose policy is random (the kernel's game loops).
"""

from core.board.bits import popcount
from core.constants import (
    CK_BEING,
    CK_LEGEND,
    COMMON,
    LEGENDARY,
    MODE_NEW_PLAYER,
    OPT_DISCARD,
    OPT_PLACE,
    OPT_SUMMON,
    PH_ACTION,
    POL_RANDOM,
    SCRATCH_ROWS,
)
from core.jit import njit
from core.jit.profile import P_OPTIONS_ACTION, P_SUMMON_PLAIN, P_TURN_FLOW, enter, leave
from core.layout import (
    ACTIONS_LEFT,
    BOARD,
    BORROW_ENEMY,
    COLOUR,
    CONTROL,
    CUR,
    DISCARD_USED,
    GAME_OVER,
    HAND_N,
    IMPRO_LEFT,
    MODE,
    NSQ,
    PASSED,
    PHASE,
    STOCK,
    SUMMON_COLOUR,
    VOID_CELLS,
)
from core.players.random_player import choose_random
from core.rules.options import action_options, free_rows, phase_options
from core.rules.piles import hand_card
from core.rules.rng import rand_below
from core.rules.scoring import pieces_on_board
from core.rules.turn import settle
from core.rules.warp import is_pending
from core.summon.patterns import any_summon_bits, find_summons_bits, own_bits

DECIDED = 2  # random_action: the drawn option is in row 0


@njit(cache=True, _nrt=False)
def random_seats(policies):
    """The seats whose policy is random, as a bit set (``advance_deciding``'s argument)."""
    m = 0
    for seat in range(policies.shape[0]):
        if policies[seat] == POL_RANDOM:
            m |= 1 << seat
    return m


@njit(cache=True, _nrt=False)
def advance_deciding(s, T, ev, opts, randoms):
    """``advance``, except that an action-phase decision of a seat in the bit set
    ``randoms`` (seats playing at random: ``random_seats``) is taken on the way
    (``random_action``): it then returns 1 with the drawn option in row 0, in the action
    phase, which the caller takes without a draw (``advance`` itself never returns a single
    option there)."""
    enter(P_TURN_FLOW)
    while s[GAME_OVER] == 0:
        ph = s[PHASE]
        if ph == PH_ACTION and (randoms >> s[CONTROL]) & 1 == 1:
            n = random_action(s, T, opts)
            if n == DECIDED:
                leave()
                return 1
        else:
            n = phase_options(s, T, ev, opts)
        if not settle(s, T, ev, opts, ph, n):
            leave()
            return n
    leave()
    return 0


@njit(cache=True, _nrt=False)
def random_action(s, T, opts):
    """The random player's action-phase option, in row 0. Returns what ``advance`` must do:
    0 no option, 1 the only option (applied without a draw, as ``advance`` does), or
    ``DECIDED`` (drawn as ``choose_random`` draws over ``action_options``)."""
    enter(P_OPTIONS_ACTION)
    if _plain_bound(s, T) >= opts.shape[0] - SCRATCH_ROWS:
        r = _from_full_list(s, T, opts)
    else:
        r = _lazy(s, T, opts)
    leave()
    return r


@njit(cache=True, _nrt=False)
def _plain_bound(s, T):
    """A bound on the action rows when every summon comes from the plain bitboard search
    (at most one row per orientation and square), or a huge number when one does not."""
    seat = s[CUR]
    me = s[COLOUR + seat]
    huge = 1 << 30
    if s[BORROW_ENEMY] != 0 or s[IMPRO_LEFT + me] != 0:
        return huge
    # places, then per card a discard, its flares (one per opponent) or warp, then a thaw,
    # the team pass and end turn
    bound = NSQ + 8 * s[HAND_N + seat] + 8
    for slot in range(s[HAND_N + seat]):
        card = hand_card(s, seat, slot)
        kind = T.card_kind[card]
        if kind == CK_BEING or kind == CK_LEGEND:
            if T.card_det_n[card] > 0 or s[SUMMON_COLOUR] >= 0 or s[VOID_CELLS] > 0:
                return huge
            bound += T.card_or_n[card] * NSQ
    return bound


@njit(cache=True, _nrt=False)
def _from_full_list(s, T, opts):
    """The plain path: every option listed, then ``choose_random``."""
    n = action_options(s, T, opts)
    if n <= 1:
        return n
    k = choose_random(s, opts, n)
    for j in range(opts.shape[1]):
        opts[0, j] = opts[k, j]
    return DECIDED


@njit(cache=True, _nrt=False)
def _row(opts, kind, a):
    opts[0, 0] = kind
    opts[0, 1] = a
    opts[0, 2] = 0
    opts[0, 3] = 0


@njit(cache=True, _nrt=False)
def _nth_empty(s, T, j):
    for i in range(T.onboard.shape[0]):
        q = T.onboard[i]
        if s[BOARD + q] == 0:
            if j == 0:
                return q
            j -= 1
    return -1


@njit(cache=True, _nrt=False)
def _nth_discard(s, T, seat, j):
    for slot in range(s[HAND_N + seat]):
        card = hand_card(s, seat, slot)
        if T.card_kind[card] == CK_BEING and not is_pending(s, seat, card):
            if j == 0:
                return slot
            j -= 1
    return -1


@njit(cache=True, _nrt=False)
def _list_summons(s, T, seat, me, opts, bits):
    """Every summon row, from row 0, in ``action_options``' order (hand slot by slot)."""
    enter(P_SUMMON_PLAIN)
    m = 0
    for slot in range(s[HAND_N + seat]):
        card = hand_card(s, seat, slot)
        kind = T.card_kind[card]
        if kind == CK_BEING or kind == CK_LEGEND:
            m = find_summons_bits(s, T, me, card, slot, opts, m, bits)
    leave()
    return m


@njit(cache=True, _nrt=False)
def _copy_row(opts, k):
    for j in range(opts.shape[1]):
        opts[0, j] = opts[k, j]


@njit(cache=True, _nrt=False)
def _lazy(s, T, opts):
    seat = s[CUR]
    me = s[COLOUR + seat]
    acting = s[ACTIONS_LEFT] > 0
    n_place = 0
    pick_up_first = False  # no piece in stock: the place option picks one up first
    if acting:
        if s[STOCK + me] > 0:
            for i in range(T.onboard.shape[0]):
                n_place += s[BOARD + T.onboard[i]] == 0
        elif pieces_on_board(s, T, me, COMMON) - pieces_on_board(s, T, me, LEGENDARY) > 0:
            n_place = 1
            pick_up_first = True
    summons = False
    n_discard = 0
    bits = own_bits(s, T, me)
    if acting and s[PASSED] != 1:
        can_discard = s[DISCARD_USED] == 0 and s[MODE] != MODE_NEW_PLAYER
        for slot in range(s[HAND_N + seat]):
            card = hand_card(s, seat, slot)
            kind = T.card_kind[card]
            if (kind == CK_BEING or kind == CK_LEGEND) and not summons:
                enter(P_SUMMON_PLAIN)
                summons = any_summon_bits(s, T, me, card, bits)
                leave()
            if kind == CK_BEING and can_discard and not is_pending(s, seat, card):
                n_discard += 1
    k = free_rows(s, T, opts, 0, n_place > 0 or summons or n_discard > 0)
    known = n_place + n_discard + k
    if not summons and known <= 1:
        if n_place == 1:
            _row(opts, OPT_PLACE, -1 if pick_up_first else _nth_empty(s, T, 0))
        elif n_discard == 1:
            _row(opts, OPT_DISCARD, _nth_discard(s, T, seat, 0))
        return known  # with one free row, it is row 0 already
    m = -1  # summon rows, once listed
    if summons and known == 0:
        m = _list_summons(s, T, seat, me, opts, bits)
        if m == 1:
            return 1
    mask = 0
    if n_place > 0:
        mask |= 1 << OPT_PLACE
    if summons:
        mask |= 1 << OPT_SUMMON
    if n_discard > 0:
        mask |= 1 << OPT_DISCARD
    for i in range(k):
        mask |= 1 << opts[i, 0]
    pick = rand_below(s, popcount(mask))
    kind = 0
    while True:
        if mask & (1 << kind):
            if pick == 0:
                break
            pick -= 1
        kind += 1
    if kind == OPT_PLACE:
        j = rand_below(s, n_place)
        _row(opts, OPT_PLACE, -1 if pick_up_first else _nth_empty(s, T, j))
    elif kind == OPT_SUMMON:
        if m < 0:
            m = _list_summons(s, T, seat, me, opts, bits)
        _copy_row(opts, rand_below(s, m))
    elif kind == OPT_DISCARD:
        _row(opts, OPT_DISCARD, _nth_discard(s, T, seat, rand_below(s, n_discard)))
    else:
        c = 0
        for i in range(k):
            c += opts[i, 0] == kind
        j = rand_below(s, c)
        for i in range(k):
            if opts[i, 0] == kind:
                if j == 0:
                    _copy_row(opts, i)
                    break
                j -= 1
    return DECIDED
