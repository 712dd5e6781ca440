"""Applying one chosen target of an effect instruction to the state: moves, shots and their
counts, and the automatic instructions that need no choice."""

from core.board.pieces import (
    convert,
    downgrade,
    put,
    remove_from_game,
    upgrade,
)
from core.constants import (
    EV_EFFECT_PLACE,
    EV_GAIN_ACTION,
    EV_LOSE_ACTION,
    EV_MOVE,
    MODE_MELEE,
)
from core.effects.card_ops import (
    card_to_frozen,
    discard_flare,
)
from core.effects.etherweave import (
    discard_legend_cards,
    select_square,
)
from core.effects.etherweave_copy import copy_warp
from core.effects.etherweave_linked import opposed_pair
from core.effects.etherweave_pending import (
    discard_hand_card,
    discard_pending,
    extra_count,
    return_pending,
    swap,
)
from core.effects.etherweave_void import top_card_to_deck, void_summon
from core.effects.mirror import mirror_apply
from core.effects.nethervoid import (
    card_to_bottom,
    legend_summoned,
    lose_own_action,
    possess,
)
from core.effects.primitives import kill as _kill
from core.effects.primitives import select_piece as _select
from core.effects.primitives import touch as _touch
from core.effects.where import _ref, in_region, selected
from core.jit import njit
from core.layout import (
    ACTIONS_LEFT,
    BOARD,
    BORROW_ENEMY,
    COLOUR,
    CUR,
    DECK_CAP,
    DECK_CNT,
    DECK_HEAD,
    DISC_N,
    EFF_BEING_MOVED,
    EFF_BEING_SQ,
    EFF_CHOICE,
    EFF_COMBAT_USED,
    EFF_DIR,
    EFF_LAST_DESTROYED,
    EFF_LAST_DESTROYED_LEGEND,
    EFF_LAST_DONE,
    EFF_PLACED_N,
    EFF_PLACED_OWNER,
    EFF_SEL_SQ,
    EXTRA_DRAW_BEINGS,
    EXTRA_DRAW_LEGENDS,
    EXTRA_TURN,
    MALUS,
    MODE,
)
from core.ops import (
    F_COUNT_TWICE,
    F_FAN,
    F_NO_COUNT,
    F_REMOVE,
    I_DIST,
    I_FLAGS,
    I_MOVE_TYPE,
    I_OP,
    I_PARAM,
    I_PARAM2,
    I_RANKS,
    MT_CHARGE,
    OP_BECOME_GATEWAY,
    OP_BORROW_ENEMY,
    OP_CAPTURE,
    OP_CARD_TO_BOTTOM,
    OP_CARD_TO_FROZEN,
    OP_CARD_TO_TOP,
    OP_CONVERT,
    OP_COPY_WARP,
    OP_DESTROY,
    OP_DESTROY_ALL,
    OP_DISCARD_FLARE,
    OP_DISCARD_HAND_CARD,
    OP_DISCARD_LEGEND_CARDS,
    OP_DISCARD_PENDING,
    OP_DOWNGRADE,
    OP_DRAW_EXTRA,
    OP_EXTRA_COUNT,
    OP_GAIN_ACTION,
    OP_GAIN_TURN,
    OP_LEGEND_SUMMONED,
    OP_LOSE_ACTION,
    OP_LOSE_OWN_ACTION,
    OP_MIRROR_PLACE,
    OP_MOVE,
    OP_OPPOSED_PAIR,
    OP_PICK,
    OP_PLACE,
    OP_POSSESS,
    OP_RELEASE,
    OP_RETURN_PENDING,
    OP_SELECT,
    OP_SELECT_SQUARE,
    OP_SHOOT,
    OP_SWAP,
    OP_UPGRADE,
    OP_VOID_SUMMON,
)
from core.rules.events import log_event
from core.rules.gateway import follow_gateway, set_gateway
from core.rules.piles import deck_base, discard_take, q_push_top
from core.rules.stasis import (
    capture,
    held_here,
    release,
    release_square_ok,
    release_to_stock,
)


@njit(cache=True, _nrt=False)
def _direction(T, a, b):
    """Direction index from a towards b if they are on one line, else -1."""
    dr = b // 9 - a // 9
    dc = b % 9 - a % 9
    if dr != 0 and dc != 0 and abs(dr) != abs(dc):
        return -1
    sr = 1 if dr > 0 else (-1 if dr < 0 else 0)
    sc = 1 if dc > 0 else (-1 if dc < 0 else 0)
    for d in range(8):
        p = T.nbr[a, d]
        if p >= 0 and p // 9 - a // 9 == sr and p % 9 - a % 9 == sc:
            return d
    return -1


# ---------------------------------------------------------------------------------------------
# shots


@njit(cache=True, _nrt=False)
def _shoot_line(s, T, ev, i, d, seat, dry):
    """Walk from the being along ``d``; destroy (unless ``dry``) what the shot hits."""
    kill = T.ops[i, I_RANKS]
    block = T.ops[i, I_PARAM2]
    limit = T.ops[i, I_PARAM]
    rng = T.ops[i, I_DIST]
    hits = 0
    p = T.nbr[_ref(s), d]
    steps = 1
    while p >= 0 and (rng == 0 or steps <= rng):
        code = s[BOARD + p]
        if code != 0:
            bit = 1 << (code & 3)
            if bit & kill:
                hits += 1
                if not dry:
                    _kill(s, ev, p, seat, _weight(T, i))
                if limit > 0 and hits >= limit:
                    break
            elif bit & block:
                break
        p = T.nbr[p, d]
        steps += 1
    return hits


@njit(cache=True, _nrt=False)
def shoot(s, T, ev, i, d, seat, dry):
    hits = _shoot_line(s, T, ev, i, d, seat, dry)
    if T.ops[i, I_FLAGS] & F_FAN:
        hits += _shoot_line(s, T, ev, i, (d + 1) % 8, seat, dry)
        hits += _shoot_line(s, T, ev, i, (d + 7) % 8, seat, dry)
    return hits


# ---------------------------------------------------------------------------------------------
# targets


@njit(cache=True, _nrt=False)
def _weight(T, i):
    """Destroyed pieces an enemy victim of instruction ``i`` counts for (0, 1 or 2)."""
    f = T.ops[i, I_FLAGS]
    if f & F_NO_COUNT:
        return 0
    return 2 if f & F_COUNT_TWICE else 1


@njit(cache=True, _nrt=False)
def _do_move(s, T, ev, i, a, b, seat):
    mover = s[BOARD + a]
    counts = _weight(T, i)
    d = _direction(T, a, b)
    if T.ops[i, I_MOVE_TYPE] == MT_CHARGE and d >= 0:
        p = T.nbr[a, d]
        while p >= 0 and p != b:  # pieces passed on the way are destroyed
            if s[BOARD + p] != 0:
                _kill(s, ev, p, seat, counts)
            p = T.nbr[p, d]
    victim = s[BOARD + b]
    if victim != 0:
        _kill(s, ev, b, seat, counts)
        if (victim & 3) == (mover & 3):
            s[EFF_COMBAT_USED] = 1
    s[BOARD + a] = 0
    s[BOARD + b] = mover
    follow_gateway(s, a, b)
    log_event(s, ev, EV_MOVE, s[CUR], a, b, mover)
    if s[EFF_BEING_SQ] == a:
        s[EFF_BEING_SQ] = b
        s[EFF_BEING_MOVED] = 1
    s[EFF_DIR] = d if T.dist[a, b] == 1 or T.ops[i, I_MOVE_TYPE] == MT_CHARGE else -1


@njit(cache=True, _nrt=False)
def apply_instruction(s, T, ev, i, a, b):
    """Carry out instruction ``i`` on target (a, b); sets the result registers."""
    seat = s[COLOUR + s[CUR]]
    op = T.ops[i, I_OP]
    s[EFF_LAST_DESTROYED] = 0
    s[EFF_LAST_DESTROYED_LEGEND] = 0
    counts = _weight(T, i)
    if op == OP_PLACE:
        put(s, a, b, T.ops[i, I_PARAM])
        log_event(s, ev, EV_EFFECT_PLACE, s[CUR], a, s[BOARD + a], 0)
        if s[EFF_PLACED_N] < 2:
            s[EFF_PLACED_OWNER + s[EFF_PLACED_N]] = b
        s[EFF_PLACED_N] += 1
        _select(s, T, a)
        _touch(s, a)
    elif op == OP_MOVE:
        _select(s, T, a)
        _do_move(s, T, ev, i, a, b, seat)
        s[EFF_SEL_SQ] = b
        _touch(s, b)
    elif op == OP_SHOOT:
        shoot(s, T, ev, i, a, seat, False)
    elif op == OP_PICK:
        s[EFF_CHOICE] = a
    elif op == OP_CARD_TO_TOP:
        _card_to_top(s, s[CUR], a)
    elif op == OP_MIRROR_PLACE:
        mirror_apply(s, T, ev, a, b, seat)
    elif op == OP_CARD_TO_FROZEN:
        card_to_frozen(s, ev, a)
    elif op == OP_DISCARD_FLARE:
        discard_flare(s, T, ev, a)
    elif op == OP_LEGEND_SUMMONED:
        legend_summoned(s, ev, a)
    elif op == OP_SELECT_SQUARE:
        select_square(s, T, ev, a)
    elif op == OP_SWAP:
        _select(s, T, a)
        swap(s, ev, a, b)
        s[EFF_SEL_SQ] = b
        _touch(s, a)
        _touch(s, b)
    elif op == OP_DISCARD_PENDING:
        discard_pending(s, T, ev)
    elif op == OP_RETURN_PENDING:
        return_pending(s, ev)
    elif op == OP_DISCARD_HAND_CARD:
        discard_hand_card(s, T, ev, a)
    elif op == OP_COPY_WARP:
        copy_warp(s, T, ev, a)
    elif op == OP_OPPOSED_PAIR:
        opposed_pair(s, T, ev, a, b, seat)
    elif op == OP_RELEASE:
        release(s, ev, a, seat)
        _select(s, T, a)
        _touch(s, a)
    elif (
        op == OP_SELECT
        or op == OP_DESTROY
        or op == OP_UPGRADE
        or op == OP_DOWNGRADE
        or op == OP_CONVERT
        or op == OP_BECOME_GATEWAY
        or op == OP_CAPTURE
    ):  # one selected piece; no else: core.checks.dispatch_proof needs every op named
        _select(s, T, a)
        _touch(s, a)
        if op == OP_UPGRADE:
            upgrade(s, ev, a, seat)
        elif op == OP_DOWNGRADE:
            downgrade(s, ev, a, seat)
        elif op == OP_CONVERT:
            r = T.ops[i, I_PARAM]
            convert(s, ev, a, seat, r if r > 0 else s[BOARD + a] & 3)
            s[EFF_LAST_DESTROYED] = 1
        elif op == OP_DESTROY:
            code = _kill(s, ev, a, seat, counts)
            if code != 0 and (T.ops[i, I_FLAGS] & F_REMOVE):
                remove_from_game(s, ev, a, code)
        elif op == OP_BECOME_GATEWAY:
            set_gateway(s, ev, s[CUR], a)
        elif op == OP_CAPTURE:
            capture(s, ev, a)
    s[EFF_LAST_DONE] = 1


@njit(cache=True, _nrt=False)
def _card_to_top(s, seat, k):
    """Kiskin Spirit: card number ``k`` of the discard pile goes on top of the deck."""
    card = discard_take(s, seat, k)
    q_push_top(s, deck_base(seat), DECK_CAP, DECK_HEAD + seat, DECK_CNT + seat, card)


@njit(cache=True, _nrt=False)
def run_automatic(s, T, ev, i):
    """Instructions without a choice. Returns False if ``i`` needs a target instead."""
    op = T.ops[i, I_OP]
    seat = s[COLOUR + s[CUR]]
    if op == OP_GAIN_ACTION:
        s[ACTIONS_LEFT] += T.ops[i, I_PARAM]
        log_event(s, ev, EV_GAIN_ACTION, s[CUR], T.ops[i, I_PARAM], 0, 0)
    elif op == OP_GAIN_TURN:
        s[EXTRA_TURN] = 1
    elif op == OP_DRAW_EXTRA:
        s[EXTRA_DRAW_BEINGS] += T.ops[i, I_PARAM]
        s[EXTRA_DRAW_LEGENDS] += T.ops[i, I_PARAM2]
    elif op == OP_BORROW_ENEMY:
        # one enemy piece, not cumulative (BGA gainBonusImprovisation sets the bonus to 1)
        s[BORROW_ENEMY] = 1
    elif op == OP_LOSE_ACTION:
        s[MALUS + s[CUR]] = 1
        log_event(s, ev, EV_LOSE_ACTION, s[CUR], 0, 0, 0)
    elif op == OP_LEGEND_SUMMONED and s[MODE] != MODE_MELEE:
        legend_summoned(s, ev, 0)
    elif op == OP_LOSE_OWN_ACTION:
        lose_own_action(s, ev)
    elif op == OP_CARD_TO_BOTTOM:
        card_to_bottom(s, T, ev)
    elif op == OP_POSSESS:
        possess(s, ev)
    elif op == OP_DISCARD_LEGEND_CARDS:
        discard_legend_cards(s, T, ev)
    elif op == OP_EXTRA_COUNT:
        extra_count(s, ev)
    elif op == OP_CARD_TO_TOP and T.ops[i, I_PARAM] == 1:
        top_card_to_deck(s, ev)  # top-only: no choice (Time Traveler)
    elif op == OP_CARD_TO_TOP and s[DISC_N + s[CUR]] == 0:
        pass  # an empty discard pile counts as done (the extra draw still happens)
    elif op == OP_RELEASE and held_here(s) and not _release_possible(s, T, i, seat):
        release_to_stock(s, ev)  # no square can take the held piece (core.rules.stasis)
    elif op == OP_VOID_SUMMON:
        void_summon(s, T, ev, i)
    elif op == OP_DESTROY_ALL:
        s[EFF_LAST_DESTROYED] = 0
        s[EFF_LAST_DESTROYED_LEGEND] = 0
        counts = _weight(T, i)
        for k in range(T.onboard.shape[0]):
            q = T.onboard[k]
            if selected(s, T, i, q, seat):
                _kill(s, ev, q, seat, counts)
    else:
        return False
    s[EFF_LAST_DONE] = 1
    return True


@njit(cache=True, _nrt=False)
def _release_possible(s, T, i, seat):
    for k in range(T.onboard.shape[0]):
        q = T.onboard[k]
        if release_square_ok(s, q) and in_region(s, T, i, q, seat):
            return True
    return False
