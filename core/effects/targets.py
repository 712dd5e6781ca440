"""The options of an effect step: every legal target of an instruction (pieces, squares, moves,
shots) written as option rows for the player to choose from."""

from core.board.bits import pop_square
from core.board.pieces import (
    can_downgrade,
    can_upgrade,
    has_stock,
)
from core.constants import (
    LEGENDARY,
)
from core.effects.apply import shoot
from core.effects.card_ops import (
    card_to_frozen_targets,
    discard_flare_targets,
)
from core.effects.emit import emit_target
from core.effects.etherweave import (
    linked_partner,
)
from core.effects.etherweave_copy import copy_warp_targets
from core.effects.etherweave_linked import opposed_pair_targets_at
from core.effects.etherweave_pending import (
    hand_card_targets,
    pending_targets,
    swap_partner_ok,
)
from core.effects.mirror import mirror_targets
from core.effects.nethervoid import (
    gateway_candidate,
    legend_summoned_targets,
    same_colour_ok,
)
from core.effects.select import within_45
from core.effects.where import (
    _ref,
    can_enter,
    dest_ok,
    has_arrow,
    in_region,
    is_combat,
    region_candidates,
    selected,
    who_ok,
)
from core.jit import njit
from core.layout import (
    BOARD,
    COLOUR,
    CUR,
    DISC_N,
    EFF_BEING_SQ,
    EFF_DIR,
    EFF_SEL_SQ,
)
from core.ops import (
    F_LAST_DIR,
    F_LINKED_OPPOSITE,
    F_STOP_AT_LEGEND,
    I_ALTS,
    I_FLAGS,
    I_MOVE_TYPE,
    I_OP,
    I_OPTIONAL,
    I_PARAM,
    MT_CHARGE,
    MT_LEAP,
    MT_LEAP2,
    MT_ONTO_SEL,
    MT_OPPOSITE,
    MT_SAME_DIR,
    MT_WITHIN_45,
    OP_BECOME_GATEWAY,
    OP_CAPTURE,
    OP_CARD_TO_FROZEN,
    OP_CARD_TO_TOP,
    OP_CHOOSE,
    OP_CONVERT,
    OP_COPY_WARP,
    OP_DESTROY,
    OP_DISCARD_FLARE,
    OP_DISCARD_HAND_CARD,
    OP_DISCARD_PENDING,
    OP_DOWNGRADE,
    OP_LEGEND_SUMMONED,
    OP_MIRROR_PLACE,
    OP_MOVE,
    OP_OPPOSED_PAIR,
    OP_PICK,
    OP_PLACE,
    OP_RELEASE,
    OP_RETURN_PENDING,
    OP_SELECT,
    OP_SELECT_SQUARE,
    OP_SHOOT,
    OP_SWAP,
    OP_UPGRADE,
)
from core.rules.modes import n_colours
from core.rules.stasis import (
    can_capture,
    held_here,
    release_square_ok,
)


@njit(cache=True, _nrt=False)
def _full(opts, n):
    """The option buffer is full (``emit_target`` would drop further targets): listing stops. A
    player's lookahead passes a three-row buffer to learn only whether a step has zero, one
    or several targets (core.players.lookahead)."""
    return n >= opts.shape[0] - 1


@njit(cache=True, _nrt=False)
def _move_targets(s, T, i, q, seat, opts, n, alt):
    r = s[BOARD + q] & 3
    combat = is_combat(s, T, i, q)
    mt = T.ops[i, I_MOVE_TYPE]
    if mt == MT_CHARGE:
        stop_leg = (T.ops[i, I_FLAGS] & F_STOP_AT_LEGEND) != 0
        for dd in range(8):
            p = T.nbr[q, dd]
            while p >= 0 and can_enter(s, p, r, combat):
                if dest_ok(s, T, i, q, p, seat):
                    n = emit_target(opts, n, q, p, alt)
                if stop_leg and (s[BOARD + p] & 3) == LEGENDARY:
                    break
                p = T.nbr[p, dd]
        return n
    if mt == MT_LEAP or mt == MT_LEAP2:
        for m in range(T.onboard.shape[0]):
            d = T.onboard[m]
            if d == q or (mt == MT_LEAP2 and T.dist[q, d] != 2):
                continue
            if can_enter(s, d, r, combat) and dest_ok(s, T, i, q, d, seat):
                n = emit_target(opts, n, q, d, alt)
        return n
    if mt == MT_ONTO_SEL:
        d = s[EFF_SEL_SQ]
        if d >= 0 and d != q and can_enter(s, d, r, combat) and dest_ok(s, T, i, q, d, seat):
            n = emit_target(opts, n, q, d, alt)
        return n
    linked = (T.ops[i, I_FLAGS] & F_LINKED_OPPOSITE) != 0
    for dd in range(8):
        if mt == MT_SAME_DIR and dd != s[EFF_DIR]:
            continue
        if mt == MT_WITHIN_45 and not within_45(dd, s[EFF_DIR]):
            continue
        if mt == MT_OPPOSITE and (s[EFF_DIR] < 0 or dd != (s[EFF_DIR] + 4) % 8):
            continue
        d = T.nbr[q, dd]
        if d >= 0 and can_enter(s, d, r, combat) and dest_ok(s, T, i, q, d, seat):
            if linked and not linked_partner(s, T, q, d, dd, seat, s[EFF_BEING_SQ]):
                continue
            n = emit_target(opts, n, q, d, alt)
    return n


@njit(cache=True, _nrt=False)
def instruction_targets(s, T, ev, i, opts, n, alt):
    """Append the legal targets of instruction ``i`` (not OP_CHOOSE) to ``opts``."""
    seat = s[COLOUR + s[CUR]]  # pieces belong to colours (teammates share one)
    op = T.ops[i, I_OP]
    onb = T.onboard
    if op == OP_PLACE:
        rank = T.ops[i, I_PARAM]
        near_lo, near_hi = region_candidates(s, T, i)
        for owner in range(n_colours(s)):
            if not who_ok(s, T, i, owner, seat) or not has_stock(s, owner, rank):
                continue
            lo, hi = near_lo, near_hi
            while lo != 0 or hi != 0:  # the squares in_region may accept, ascending
                q, lo, hi = pop_square(lo, hi)
                if (
                    s[BOARD + q] == 0
                    and in_region(s, T, i, q, seat)
                    and same_colour_ok(s, T, i, q, owner)
                ):
                    n = emit_target(opts, n, q, owner, alt)
                    if _full(opts, n):
                        return n
    elif op == OP_MOVE:
        lo, hi = region_candidates(s, T, i)
        while lo != 0 or hi != 0:  # the squares in_region may accept, ascending
            q, lo, hi = pop_square(lo, hi)
            if selected(s, T, i, q, seat):
                n = _move_targets(s, T, i, q, seat, opts, n, alt)
                if _full(opts, n):
                    return n
    elif op == OP_SHOOT:
        if T.ops[i, I_FLAGS] & F_LAST_DIR:
            d = s[EFF_DIR]
            if d >= 0 and shoot(s, T, ev, i, d, seat, True) > 0:
                n = emit_target(opts, n, d, -1, alt)
        else:
            # a compulsory shot may take any arrow whose square is on the board, even one
            # that destroys nothing (Fire Dragon: BGA offers every arrow square); an optional
            # shot offers only directions that destroy something (else it is a skip)
            free = T.ops[i, I_OPTIONAL] == 0
            ref = _ref(s)
            for d in range(8):
                if not has_arrow(s, T, d):
                    continue
                if free and T.nbr[ref, d] >= 0:
                    n = emit_target(opts, n, d, -1, alt)
                elif not free and shoot(s, T, ev, i, d, seat, True) > 0:
                    n = emit_target(opts, n, d, -1, alt)
                    if _full(opts, n):
                        return n
    elif op == OP_PICK:
        for k in range(T.ops[i, I_PARAM]):
            n = emit_target(opts, n, k, -1, alt)
    elif op == OP_CARD_TO_TOP:
        for k in range(s[DISC_N + s[CUR]]):
            n = emit_target(opts, n, k, -1, alt)
    elif op == OP_MIRROR_PLACE:
        n = mirror_targets(s, T, i, seat, opts, n, alt)
    elif op == OP_CARD_TO_FROZEN:
        n = card_to_frozen_targets(s, T, opts, n, alt)
    elif op == OP_DISCARD_FLARE:
        n = discard_flare_targets(s, T, opts, n, alt)
    elif op == OP_LEGEND_SUMMONED:
        n = legend_summoned_targets(s, opts, n, alt)
    elif op == OP_SWAP:
        for k in range(onb.shape[0]):
            q = onb[k]
            if not selected(s, T, i, q, seat):
                continue
            for m in range(onb.shape[0]):
                if swap_partner_ok(s, T, i, q, onb[m], seat):
                    n = emit_target(opts, n, q, onb[m], alt)
                    if _full(opts, n):
                        return n
    elif op == OP_DISCARD_PENDING or op == OP_RETURN_PENDING:
        n = pending_targets(s, T, opts, n, alt)
    elif op == OP_DISCARD_HAND_CARD:
        n = hand_card_targets(s, opts, n, alt)
    elif op == OP_SELECT_SQUARE:
        lo, hi = region_candidates(s, T, i)
        while lo != 0 or hi != 0:  # the squares in_region may accept, ascending
            q, lo, hi = pop_square(lo, hi)
            if s[BOARD + q] == 0 and in_region(s, T, i, q, seat):
                n = emit_target(opts, n, q, -1, alt)
                if _full(opts, n):
                    return n
    elif op == OP_COPY_WARP:
        n = copy_warp_targets(s, T, T.ops[i, I_PARAM], opts, n, alt)
    elif op == OP_OPPOSED_PAIR:
        for k in range(onb.shape[0]):
            q = onb[k]
            if s[BOARD + q] == 0 and in_region(s, T, i, q, seat):
                n = opposed_pair_targets_at(s, T, q, seat, opts, n, alt)
                if _full(opts, n):
                    return n
    elif op == OP_RELEASE:
        if held_here(s):
            for k in range(onb.shape[0]):
                q = onb[k]
                if release_square_ok(s, q) and in_region(s, T, i, q, seat):
                    n = emit_target(opts, n, q, -1, alt)
    elif (
        op == OP_SELECT
        or op == OP_DESTROY
        or op == OP_UPGRADE
        or op == OP_DOWNGRADE
        or op == OP_CONVERT
        or op == OP_BECOME_GATEWAY
        or op == OP_CAPTURE
    ):  # one selected piece; no else: core.checks.dispatch_proof needs every op named
        lo, hi = region_candidates(s, T, i)
        while lo != 0 or hi != 0:  # the squares in_region may accept, ascending
            q, lo, hi = pop_square(lo, hi)
            if not selected(s, T, i, q, seat):
                continue
            ok = True
            if op == OP_UPGRADE:
                ok = can_upgrade(s, q)
            elif op == OP_DOWNGRADE:
                ok = can_downgrade(s, q)
            elif op == OP_CONVERT:
                code = s[BOARD + q]
                r = T.ops[i, I_PARAM] if T.ops[i, I_PARAM] > 0 else code & 3
                ok = (code >> 2) != seat and has_stock(s, seat, r)
            elif op == OP_BECOME_GATEWAY:
                ok = gateway_candidate(s, q, seat)
            elif op == OP_CAPTURE:
                ok = can_capture(s)
            if ok:
                n = emit_target(opts, n, q, -1, alt)
                if _full(opts, n):
                    return n
    return n


@njit(cache=True, _nrt=False)
def step_targets(s, T, ev, pc, opts):
    """Options for the instruction at ``pc`` (a choice block unions its alternatives)."""
    n = 0
    if T.ops[pc, I_OP] == OP_CHOOSE:
        for a in range(T.ops[pc, I_ALTS]):
            if _full(opts, n):
                break
            n = instruction_targets(s, T, ev, pc + 1 + a, opts, n, a)
    else:
        n = instruction_targets(s, T, ev, pc, opts, n, -1)
    return n


# ---------------------------------------------------------------------------------------------
# carrying instructions out
