"""The feature vector of a position for one seat: what ``kalarite learn`` fits a win
probability on and what the learned leaf value (core.players.learned) reads.

Everything the hand-set evaluation (core.players.evaluate) reads, split into the seat's own
("_me") and its opponents' ("_opp": the strongest opponent for points, the average opponent
for counts) parts, plus tempo, the flares' thresholds, the opponent's threat in expectation
over the cards it may hold, and one family per expansion mechanic (Everfrost's stored frozen
effect, Nethervoid's Gateway, Etherweave's pending being). Only public information and the
seat's own hand are read: for the opponents' hidden cards, only the pool they are drawn from
(its hand and deck together, which is what the seat may know) and their number.

Feature ``k`` is ``FEATURE_NAMES[k]``; the positions table stores them as ``f_<name>``
columns (results/README.md). A new feature goes at the end (fitted models name their
features, so an old model reads a new layout by name, see sim.learned).
"""

import numpy as np

from core.constants import (
    CK_BEING,
    CK_FLARE,
    CK_LEGEND,
    COMMON,
    HEROIC,
    LEGENDARY,
    SQ_GREEN,
    SQ_RED,
)
from core.jit import njit
from core.layout import (
    BOARD,
    BORROW_ENEMY,
    COLOUR,
    DECK,
    DECK_CAP,
    DECK_CNT,
    DECK_HEAD,
    DESTROYED,
    END_SEAT,
    FROZEN,
    GATEWAY,
    HAND,
    HAND_CAP,
    HAND_N,
    IMPRO_LEFT,
    LSTOCK,
    MAX_PLAYERS,
    MODE,
    N_PLAYERS,
    NSQ,
    PENDING,
    SCORE,
    SEAT_DECK,
    STOCK,
    SUMMON_COLOUR,
    TASK_PTS,
    TURN_NO,
    VOID_CELLS,
)
from core.players.evaluate import _exposed, _pick, claimable
from core.players.feature_names import (
    F_CENTRE_ME,
    F_CENTRE_OPP,
    F_CLAIMABLE_ME,
    F_CLAIMABLE_OPP,
    F_COMMON_ME,
    F_COMMON_OPP,
    F_DECK_FROZEN_ME,
    F_DECK_FROZEN_OPP,
    F_DECK_GATEWAY_ME,
    F_DECK_GATEWAY_OPP,
    F_DECK_HEROIC_ME,
    F_DECK_HEROIC_OPP,
    F_DECK_ME,
    F_DECK_OPP,
    F_DECK_WARP_ME,
    F_DECK_WARP_OPP,
    F_DESTROYED,
    F_END_TRIGGERED,
    F_EXPOSED_ME,
    F_EXPOSED_OPP,
    F_FLARE_LOWER_ME,
    F_FLARE_LOWER_OPP,
    F_FLARE_UPPER_ME,
    F_FLARE_UPPER_OPP,
    F_FROZEN_HEROIC_ME,
    F_FROZEN_ME,
    F_FROZEN_OPP,
    F_GATEWAY_CARDS_ME,
    F_GATEWAY_ENEMY_ADJ_ME,
    F_GATEWAY_ENEMY_DIST_ME,
    F_GATEWAY_ENEMY_DIST_OPP,
    F_GATEWAY_GREEN_ME,
    F_GATEWAY_ME,
    F_GATEWAY_OPP,
    F_GATEWAY_OWN_NEAR_ME,
    F_GATEWAY_RANK_ME,
    F_GATEWAY_RANK_OPP,
    F_GATEWAY_RED_ME,
    F_HAND_ME,
    F_HAND_OPP,
    F_HEROIC_ME,
    F_HEROIC_OPP,
    F_LEGEND_STOCK_ME,
    F_LEGENDARY_ME,
    F_LEGENDARY_OPP,
    F_LEGENDS_READY_ME,
    F_OPP_SUMMONABLE_EXP,
    F_PENDING_DEFICIT_ME,
    F_PENDING_END_ME,
    F_PENDING_ME,
    F_PENDING_OPP,
    F_POINTS_ME,
    F_POINTS_OPP,
    F_STOCK_ME,
    F_STOCK_OPP,
    F_SUMMONABLE_ME,
    F_TO_TARGET_ME,
    F_TO_TARGET_OPP,
    F_TURN,
    F_WARPS_ME,
    FL_GATEWAY_BLIND,
    FL_PEEK,
    N_FEATURES,
    NO_DISTANCE,
)
from core.players.summon_reach import hand_bits, placement_completions, slot_summonable
from core.players.summon_ref import compare_ref, ref_summonable
from core.rules.modes import has_tasks, n_colours
from core.rules.scoring import target_score

# The opponents' summon memo (``features_memo``): one block per seat of an int scratch row,
# the inputs the seat's pool count was computed from and the count. Within a turn the
# opponent's pieces, stock, hand and deck rarely change, so most of a search's leaves
# find them unchanged and skip the summon searches of a whole pool (a third of a strong
# player's time before). The key holds everything the plain summon search reads: the
# seat's bitboards (its pieces by rank, every colour's upgraded pieces; its piece counts
# and the playable squares follow from them and the tables), its stock and the pool's
# cards. The memo is used only where that search is the one asked (no borrowed piece,
# improvisation, void cells or detached pattern), so a hit returns what it would.
MB_VALID = 0
MB_COLOUR = 1
MB_STOCK = 2
MB_LSTOCK = 3
MB_HAND_N = 4
MB_PENDING = 5
MB_DECK_N = 6
MB_READY = 7
MB_BITS = 8  # the seat's summon bitboards (own_bits' ten piece sets), two halves a word
N_KEY_WORDS = 10
MB_HAND = MB_BITS + 2 * N_KEY_WORDS
MB_DECK = MB_HAND + HAND_CAP
MEMO_BLOCK = MB_DECK + DECK_CAP
MEMO_SIZE = MAX_PLAYERS * MEMO_BLOCK


@njit(cache=True, _nrt=False)
def _points(s, colour, legendary):
    if has_tasks(s[MODE]):
        return s[TASK_PTS + colour] + legendary
    return s[SCORE + colour]


@njit(cache=True, _nrt=False)
def _board_part(s, T, me, out):
    """Pieces by rank, the centre, exposure, legends on the board, points and the target."""
    ncol = n_colours(s)
    share = 1.0 / (ncol - 1)
    m1 = 0
    m2 = 0
    m3 = 0
    o1 = 0
    o2 = 0
    o3 = 0
    leg0 = 0
    leg1 = 0
    leg2 = 0
    leg3 = 0
    centre_m = 0
    centre_o = 0
    exposed_m = 0
    exposed_o = 0
    for i in range(T.onboard.shape[0]):
        q = T.onboard[i]
        code = s[BOARD + q]
        if code == 0:
            continue
        owner = code >> 2
        rank = code & 3
        if rank == LEGENDARY:
            if owner == 0:
                leg0 += 1
            elif owner == 1:
                leg1 += 1
            elif owner == 2:
                leg2 += 1
            else:
                leg3 += 1
        exposed = 1 if _exposed(s, T, q, code) else 0
        if owner == me:
            if rank == COMMON:
                m1 += 1
            elif rank == HEROIC:
                m2 += 1
            else:
                m3 += 1
            centre_m += T.sq_central[q]
            exposed_m += exposed
        else:
            if rank == COMMON:
                o1 += 1
            elif rank == HEROIC:
                o2 += 1
            else:
                o3 += 1
            centre_o += T.sq_central[q]
            exposed_o += exposed
    out[F_COMMON_ME] = m1
    out[F_HEROIC_ME] = m2
    out[F_LEGENDARY_ME] = m3
    out[F_COMMON_OPP] = share * o1
    out[F_HEROIC_OPP] = share * o2
    out[F_LEGENDARY_OPP] = share * o3
    out[F_CENTRE_ME] = centre_m
    out[F_CENTRE_OPP] = share * centre_o
    out[F_EXPOSED_ME] = exposed_m
    out[F_EXPOSED_OPP] = share * exposed_o
    target = target_score(s[MODE], s[N_PLAYERS])
    mine_pts = _points(s, me, _pick(me, leg0, leg1, leg2, leg3))
    best = -1_000_000
    for c in range(ncol):
        if c != me:
            best = max(best, _points(s, c, _pick(c, leg0, leg1, leg2, leg3)))
    out[F_POINTS_ME] = mine_pts
    out[F_POINTS_OPP] = best
    out[F_TO_TARGET_ME] = max(0, target - mine_pts)
    out[F_TO_TARGET_OPP] = max(0, target - best)
    d = 0
    stock_o = 0
    for c in range(ncol):
        if c != me:
            b = DESTROYED + c * 4
            d += s[b + COMMON] + 2 * s[b + HEROIC] + 4 * s[b + LEGENDARY]
            stock_o += s[STOCK + c]
    out[F_DESTROYED] = d
    out[F_STOCK_ME] = s[STOCK + me]
    out[F_STOCK_OPP] = share * stock_o
    out[F_LEGEND_STOCK_ME] = s[LSTOCK + me]
    # flares: the upper half opens on upgraded pieces, the lower on all pieces
    up_gap = (o2 + o3) * share - (m2 + m3)
    all_gap = (o1 + o2 + o3) * share - (m1 + m2 + m3)
    return up_gap, all_gap


@njit(cache=True, _nrt=False)
def _opp_seats_share(s, me):
    n = 0
    for p in range(s[N_PLAYERS]):
        if s[COLOUR + p] != me:
            n += 1
    return 1.0 / max(1, n)


@njit(cache=True, _nrt=False)
def _hand_part(s, T, seat, me, up_gap, all_gap, out, mark, ref):
    """My hand: summonable beings and legends, my flare's halves, warps, Gateway cards,
    the pending being and how far it is from summonable (``ref``: core.players.summon_ref)."""
    bits = hand_bits(s, T, me)
    cmp = compare_ref(s, ref, seat, me, bits)
    summonable = 0
    legends = 0
    flare_up = 0
    flare_low = 0
    warps = 0
    gate_cards = 0
    for slot in range(s[HAND_N + seat]):
        card = s[HAND + seat * HAND_CAP + slot]
        kind = T.card_kind[card]
        if kind == CK_FLARE:
            flare_up = max(flare_up, 1 if up_gap >= T.flare_x[card] else 0)
            flare_low = max(flare_low, 1 if all_gap >= T.flare_y[card] else 0)
            continue
        if kind == CK_BEING:
            if card != s[PENDING + seat]:
                warps += T.card_has_warp[card]
            gate_cards += T.card_gateway_ref[card]
        if (kind == CK_BEING or kind == CK_LEGEND) and ref_summonable(
            s, T, ref, seat, me, slot, False, card, bits, cmp
        ):
            if kind == CK_BEING:
                summonable += 1
            else:
                legends += 1
    out[F_SUMMONABLE_ME] = summonable
    out[F_LEGENDS_READY_ME] = legends
    out[F_FLARE_UPPER_ME] = flare_up
    out[F_FLARE_LOWER_ME] = flare_low
    out[F_WARPS_ME] = warps
    out[F_GATEWAY_CARDS_ME] = gate_cards
    pend = s[PENDING + seat]
    if pend >= 0:
        out[F_PENDING_ME] = 1
        if slot_summonable(s, T, me, pend, bits):
            out[F_PENDING_DEFICIT_ME] = 0
        else:
            for q in range(NSQ):
                mark[q] = 0
            placement_completions(s, T, me, pend, bits, mark, 1)
            one = 0
            for q in range(NSQ):
                if mark[q] == 1:
                    one = 1
                    break
            out[F_PENDING_DEFICIT_ME] = 1 if one else 2
    out[F_HAND_ME] = s[HAND_N + seat]
    out[F_DECK_ME] = s[DECK_CNT + seat]


@njit(cache=True, _nrt=False)
def _held_by_opponent(s, me, card):
    for p in range(s[N_PLAYERS]):
        if s[COLOUR + p] != me:
            for k in range(s[HAND_N + p]):
                if s[HAND + p * HAND_CAP + k] == card:
                    return True
    return False


@njit(cache=True, _nrt=False)
def _pool_ready(s, T, p, c, peek, bits):
    """How many cards of seat ``p``'s pool (its beings in hand but the pending one, and its
    deck unless ``peek``) colour ``c`` could summon now (``bits``: its ``hand_bits``)."""
    ready = 0
    for k in range(s[HAND_N + p]):
        card = s[HAND + p * HAND_CAP + k]
        if T.card_kind[card] == CK_BEING and card != s[PENDING + p]:
            ready += 1 if slot_summonable(s, T, c, card, bits) else 0
    h = s[DECK_HEAD + p]
    for i in range(0 if peek else s[DECK_CNT + p]):
        card = s[DECK + p * DECK_CAP + (h + i) % DECK_CAP]
        ready += 1 if slot_summonable(s, T, c, card, bits) else 0
    return ready


@njit(cache=True, _nrt=False)
def _pool_ready_ref(s, T, p, c, bits, ref, cmp):
    """``_pool_ready`` (no peek) with the checks derived from the reference ``ref``."""
    ready = 0
    for k in range(s[HAND_N + p]):
        card = s[HAND + p * HAND_CAP + k]
        if T.card_kind[card] == CK_BEING and card != s[PENDING + p]:
            ready += 1 if ref_summonable(s, T, ref, p, c, k, False, card, bits, cmp) else 0
    h = s[DECK_HEAD + p]
    for i in range(s[DECK_CNT + p]):
        card = s[DECK + p * DECK_CAP + (h + i) % DECK_CAP]
        ready += 1 if ref_summonable(s, T, ref, p, c, i, True, card, bits, cmp) else 0
    return ready


@njit(cache=True, _nrt=False)
def _memo_applies(s, T, p, c):
    """Does the plain summon search (board, stock and cards only) answer for seat ``p``'s
    pool? Not with a borrowed piece, improvisation, void cells or a detached pattern."""
    if s[BORROW_ENEMY] != 0 or s[IMPRO_LEFT + c] != 0:
        return False
    if s[VOID_CELLS] > 0 and s[SUMMON_COLOUR] < 0:
        return False
    for k in range(s[HAND_N + p]):
        if T.card_det_n[s[HAND + p * HAND_CAP + k]] > 0:
            return False
    h = s[DECK_HEAD + p]
    for i in range(s[DECK_CNT + p]):
        if T.card_det_n[s[DECK + p * DECK_CAP + (h + i) % DECK_CAP]] > 0:
            return False
    return True


@njit(cache=True, _nrt=False)
def _half(word, upper):
    """One 32-bit half of a bitboard word, as stored in an int32 row."""
    return np.int32((word >> 32) if upper else (word & 0xFFFFFFFF))


@njit(cache=True, _nrt=False)
def _memo_holds(s, p, c, memo, blk, bits):
    """Is the memo block ``blk`` the count for exactly these inputs?"""
    if (
        memo[blk + MB_VALID] != 1
        or memo[blk + MB_COLOUR] != c
        or memo[blk + MB_STOCK] != s[STOCK + c]
        or memo[blk + MB_LSTOCK] != s[LSTOCK + c]
        or memo[blk + MB_HAND_N] != s[HAND_N + p]
        or memo[blk + MB_PENDING] != s[PENDING + p]
        or memo[blk + MB_DECK_N] != s[DECK_CNT + p]
    ):
        return False
    for i in range(N_KEY_WORDS):
        if memo[blk + MB_BITS + 2 * i] != _half(bits[i], False):
            return False
        if memo[blk + MB_BITS + 2 * i + 1] != _half(bits[i], True):
            return False
    for k in range(s[HAND_N + p]):
        if memo[blk + MB_HAND + k] != s[HAND + p * HAND_CAP + k]:
            return False
    h = s[DECK_HEAD + p]
    for i in range(s[DECK_CNT + p]):
        if memo[blk + MB_DECK + i] != s[DECK + p * DECK_CAP + (h + i) % DECK_CAP]:
            return False
    return True


@njit(cache=True, _nrt=False)
def _memo_store(s, p, c, memo, blk, bits, ready):
    memo[blk + MB_VALID] = 1
    memo[blk + MB_COLOUR] = c
    memo[blk + MB_STOCK] = s[STOCK + c]
    memo[blk + MB_LSTOCK] = s[LSTOCK + c]
    memo[blk + MB_HAND_N] = s[HAND_N + p]
    memo[blk + MB_PENDING] = s[PENDING + p]
    memo[blk + MB_DECK_N] = s[DECK_CNT + p]
    memo[blk + MB_READY] = ready
    for i in range(N_KEY_WORDS):
        memo[blk + MB_BITS + 2 * i] = _half(bits[i], False)
        memo[blk + MB_BITS + 2 * i + 1] = _half(bits[i], True)
    for k in range(s[HAND_N + p]):
        memo[blk + MB_HAND + k] = s[HAND + p * HAND_CAP + k]
    h = s[DECK_HEAD + p]
    for i in range(s[DECK_CNT + p]):
        memo[blk + MB_DECK + i] = s[DECK + p * DECK_CAP + (h + i) % DECK_CAP]


@njit(cache=True, _nrt=False)
def forget_memo(memo):
    """Empty the opponents' summon memo (a new search: its tables may differ)."""
    for p in range(memo.shape[0] // MEMO_BLOCK):
        memo[p * MEMO_BLOCK + MB_VALID] = 0


@njit(cache=True, _nrt=False)
def _opponents_part(s, T, seat, me, up_gap, all_gap, out, peek, memo, ref):
    """What the opponents show: hand sizes, decks, stored frozen effects, pending beings,
    and, in expectation over the cards they may hold, their flares and summonable beings.
    ``peek`` (a cheating measurement only, never for balance figures): their real hand."""
    share = _opp_seats_share(s, me)
    hand = 0.0
    deck = 0.0
    frozen = 0.0
    pending = 0.0
    threat = 0.0
    for p in range(s[N_PLAYERS]):
        c = s[COLOUR + p]
        if c == me:
            continue
        hand += share * s[HAND_N + p]
        deck += share * s[DECK_CNT + p]
        frozen += share * (1 if s[FROZEN + p] >= 0 else 0)
        pending += share * (1 if s[PENDING + p] >= 0 else 0)
        # its hidden beings are drawn from its hand and deck pooled: the share of the pool
        # it could summon now, times the beings it holds
        pool = 0
        held = 0
        for k in range(s[HAND_N + p]):
            card = s[HAND + p * HAND_CAP + k]
            if T.card_kind[card] == CK_BEING and card != s[PENDING + p]:
                held += 1
        pool = held + (0 if peek else s[DECK_CNT + p])
        blk = p * MEMO_BLOCK
        bits = hand_bits(s, T, c)
        cmp = compare_ref(s, ref[:0] if peek else ref, p, c, bits)
        if cmp[0]:  # the reference answers (core.players.summon_ref)
            ready = _pool_ready_ref(s, T, p, c, bits, ref, cmp)
        else:
            kept = memo.shape[0] > 0 and not peek and _memo_applies(s, T, p, c)
            if kept and _memo_holds(s, p, c, memo, blk, bits):
                ready = memo[blk + MB_READY]
            else:
                ready = _pool_ready(s, T, p, c, peek, bits)
                if kept:
                    _memo_store(s, p, c, memo, blk, bits, ready)
        if pool > 0:
            threat += share * held * ready / pool
    out[F_HAND_OPP] = hand
    out[F_DECK_OPP] = deck
    out[F_FROZEN_OPP] = frozen
    out[F_PENDING_OPP] = pending
    out[F_OPP_SUMMONABLE_EXP] = threat
    # the opponent's flare is one of the flare cards the seat does not hold: the share of
    # those whose halves it could open against the seat (its gaps are the seat's negated)
    n = 0
    up = 0
    low = 0
    for i in range(T.flare_cards.shape[0]):
        card = T.flare_cards[i]
        held_by_me = False
        for slot in range(s[HAND_N + seat]):
            if s[HAND + seat * HAND_CAP + slot] == card:
                held_by_me = True
        if held_by_me or (peek and not _held_by_opponent(s, me, card)):
            continue
        n += 1
        up += 1 if -up_gap >= T.flare_x[card] else 0
        low += 1 if -all_gap >= T.flare_y[card] else 0
    out[F_FLARE_UPPER_OPP] = up / max(1, n)
    out[F_FLARE_LOWER_OPP] = low / max(1, n)


@njit(cache=True, _nrt=False)
def _gateway(s, T, p, me, out, f_on, f_rank, f_dist, f_near, share):
    """The Gateway of seat ``p`` (colour ``me``): its rank, the distance to the nearest
    enemy piece, its owner's pieces next to it."""
    g = s[GATEWAY + p]
    if g < 0:
        return
    out[f_on] += share
    out[f_rank] += share * (s[BOARD + g] & 3)
    best = NO_DISTANCE
    for i in range(T.onboard.shape[0]):
        q = T.onboard[i]
        code = s[BOARD + q]
        if code != 0 and (code >> 2) != me and T.dist[g, q] < best:
            best = T.dist[g, q]
    out[f_dist] += share * best
    if f_near >= 0:
        near = 0
        for d in range(8):
            n = T.nbr[g, d]
            if n >= 0 and s[BOARD + n] != 0 and (s[BOARD + n] >> 2) == me:
                near += 1
        out[f_near] += share * near


@njit(cache=True, _nrt=False)
def _deck_part(s, T, p, out, f_frozen, f_warp, f_heroic, f_gateway, share):
    """What seat ``p``'s deck is made of (public: every deck list is known)."""
    d = s[SEAT_DECK + p]
    if d < 0 or T.deck_size[d] == 0:
        return
    m = T.deck_size[d]
    frozen = 0
    warp = 0
    heroic = 0
    for i in range(m):
        card = T.deck_cards[d, i]
        frozen += T.card_has_frozen[card]
        warp += T.card_has_warp[card]
        heroic += 1 if T.card_rank[card] >= HEROIC else 0
    out[f_frozen] += share * frozen / m
    out[f_warp] += share * warp / m
    out[f_heroic] += share * heroic / m
    out[f_gateway] += share * T.deck_gateway[d]


@njit(cache=True, _nrt=False)
def _gateway_place(s, T, seat, me, out):
    """My Gateway's square colour and the enemy commons next to it."""
    g = s[GATEWAY + seat]
    if g < 0:
        return
    out[F_GATEWAY_RED_ME] = 1 if T.sq_color[g] == SQ_RED else 0
    out[F_GATEWAY_GREEN_ME] = 1 if T.sq_color[g] == SQ_GREEN else 0
    adj = 0
    for d in range(8):
        n = T.nbr[g, d]
        if n >= 0:
            code = s[BOARD + n]
            if code != 0 and (code >> 2) != me and (code & 3) == COMMON:
                adj += 1
    out[F_GATEWAY_ENEMY_ADJ_ME] = adj


@njit(cache=True, _nrt=False)
def features(s, T, seat, flags, out, mark):
    """Write the feature vector of ``s`` for ``seat`` into ``out[:N_FEATURES]``. ``flags``:
    FL_GATEWAY_BLIND, the Gateway family reads as if no seat had one (a restricted twin,
    core.players.params RESTRICT_GATEWAY); FL_PEEK, the opponents' real hands instead of
    the expectation (a clearly labelled cheating measurement, never for balance figures).
    ``mark``: int scratch of NSQ entries."""
    features_memo(s, T, seat, flags, out, mark, mark[:0])


@njit(cache=True, _nrt=False)
def features_memo(s, T, seat, flags, out, mark, memo):
    """``features`` with the opponents' summon memo in ``memo`` (MEMO_SIZE ints, emptied by
    ``forget_memo`` when the tables change; an empty array: none). Same result, bit for bit
    (tests/test_player_speedups.py)."""
    features_ref(s, T, seat, flags, out, mark, memo, memo[:0])


@njit(cache=True, _nrt=False)
def features_ref(s, T, seat, flags, out, mark, memo, ref):
    """``features_memo`` with the summon checks derived from a reference position where it
    answers (``ref``: core.players.summon_ref REF_SIZE ints, or empty). Same result, bit for
    bit (tests/test_player_speedups.py)."""
    gateway_blind = (flags & FL_GATEWAY_BLIND) != 0
    for k in range(N_FEATURES):
        out[k] = 0.0
    me = s[COLOUR + seat]
    up_gap, all_gap = _board_part(s, T, me, out)
    if has_tasks(s[MODE]):
        best, threat = claimable(s, T, me, True, True)  # the board's sets made once for both
        out[F_CLAIMABLE_ME] = best
        out[F_CLAIMABLE_OPP] = threat
    _hand_part(s, T, seat, me, up_gap, all_gap, out, mark, ref)
    _opponents_part(s, T, seat, me, up_gap, all_gap, out, (flags & FL_PEEK) != 0, memo, ref)
    out[F_END_TRIGGERED] = 1 if s[END_SEAT] >= 0 else 0
    out[F_TURN] = s[TURN_NO]
    f = s[FROZEN + seat]
    if f >= 0:
        out[F_FROZEN_ME] = 1
        out[F_FROZEN_HEROIC_ME] = 1 if T.card_rank[f] >= HEROIC else 0
    if not gateway_blind:
        _gateway(
            s, T, seat, me, out, F_GATEWAY_ME, F_GATEWAY_RANK_ME,
            F_GATEWAY_ENEMY_DIST_ME, F_GATEWAY_OWN_NEAR_ME, 1.0,
        )  # fmt: skip
        _gateway_place(s, T, seat, me, out)
        share = _opp_seats_share(s, me)
        for p in range(s[N_PLAYERS]):
            c = s[COLOUR + p]
            if c != me:
                _gateway(
                    s, T, p, c, out, F_GATEWAY_OPP, F_GATEWAY_RANK_OPP,
                    F_GATEWAY_ENEMY_DIST_OPP, -1, share,
                )  # fmt: skip
    else:
        out[F_GATEWAY_CARDS_ME] = 0.0
    _deck_part(
        s, T, seat, out, F_DECK_FROZEN_ME, F_DECK_WARP_ME, F_DECK_HEROIC_ME, F_DECK_GATEWAY_ME, 1.0
    )
    share = _opp_seats_share(s, me)
    for p in range(s[N_PLAYERS]):
        if s[COLOUR + p] != me:
            _deck_part(
                s, T, p, out, F_DECK_FROZEN_OPP, F_DECK_WARP_OPP, F_DECK_HEROIC_OPP,
                F_DECK_GATEWAY_OPP, share,
            )  # fmt: skip
    out[F_PENDING_END_ME] = out[F_PENDING_ME] * out[F_END_TRIGGERED]
