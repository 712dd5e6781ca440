"""Summoning patterns: the fast search against the plain scan and an independent oracle,
orientation counts against the reference card file, and hand-made summoning positions.

Hand-made boards are drawn with ``c0`` = your common piece (seat 0 moves), ``h1`` = an
enemy heroic piece, ``l0`` = your legendary piece, ``..`` empty, ``##`` void.
"""

import json
import pathlib

import numpy as np
import pytest

from core import constants as K
from core.layout import (
    ACTIONS_LEFT,
    BOARD,
    BORROW_ENEMY,
    DESTROYED,
    DISC,
    DISC_CAP,
    DISC_N,
    IMPRO_LEFT,
    LDISC,
    LDISC_N,
    LEGENDS_SUMMONED,
    LSTOCK,
    PHASE,
    POOL_TOTAL,
    SCORE,
    STATE_SIZE,
    STOCK,
    SUMMONED_N,
)
from core.players.summon_reach import WITNESS, hand_bits, summon_witness
from core.rules.scoring import pieces_on_board
from core.summon.patterns import (
    anchor_squares,
    find_summons_bits,
    find_summons_wide,
    occupied_bits,
    own_bits,
)
from core.summon.patterns import card_summons as find_summons
from core.summon.patterns import find_summons as scan_summons
from tests.support.harness import CONTENT, EMPTY_BOARD, Game, T, sq
from tests.support.oracles import reference_summons
from tests.support.summons import (
    ONBOARD,
    ORACLE_PATTERNS,
    PATTERN_CARDS,
    cid,
    oracle_summons,
    random_board,
    three_colour_board,
)

REFERENCE_CARDS = pathlib.Path(__file__).resolve().parents[2] / "shared/reference/cards.json"


# --- (a) fast search == plain scan == independent oracle on random boards ---------------------


def planted_board(rng):
    """A random card's pattern put on the board for seat 0 in a random orientation, with few
    other pieces, so that the out-of-stock pick-up rule decides whether it can be summoned."""
    s = np.zeros(STATE_SIZE, np.int32)
    card = PATTERN_CARDS[rng.integers(len(PATTERN_CARDS))]
    req, images = ORACLE_PATTERNS[card]
    cells = images[rng.integers(8)]
    for _ in range(50):
        t = ONBOARD[rng.integers(len(ONBOARD))]
        squares = [(t // 9 + dr, t % 9 + dc) for dr, dc, _ in cells]
        if all(0 <= r < 9 and 0 <= c < 9 and T.sq_color[r * 9 + c] >= 0 for r, c in squares):
            break
    else:
        return random_board(rng)
    legends = 0
    for (r, c), (_, _, k) in zip(squares, cells, strict=True):
        k = min(3, k + int(rng.random() < 0.25))
        if k == 3:
            legends += 1
            if legends > 3:
                k = 2
        s[BOARD + r * 9 + c] = k
    if req or rng.random() < 0.3:
        s[BOARD + t] = rng.choice([1, 2, 3, 5, 6])
    for _ in range(rng.integers(0, 3)):  # maybe a spare piece or two
        q = ONBOARD[rng.integers(len(ONBOARD))]
        if s[BOARD + q] == 0 and q != t:
            s[BOARD + q] = rng.choice([1, 2, 3, 5, 7])
    legends = sum(1 for q in ONBOARD if s[BOARD + q] == 3)
    if legends > 3:
        return random_board(rng)
    s[STOCK], s[STOCK + 1] = rng.choice([0, 0, 2]), 3
    s[LSTOCK], s[LSTOCK + 1] = rng.choice([0, 3 - legends]), 1
    return s


def summons(fn, s, seat, card):
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    n = fn(s, T, seat, card, 7, opts, 0)
    assert n < K.MAX_OPTIONS
    rows = [tuple(int(x) for x in r) for r in opts[:n]]
    assert all(r[0] == K.OPT_SUMMON and r[1] == 7 for r in rows)
    return sorted((r[2], r[3]) for r in rows)


def engine_key(o, t):
    """(target, {(square, minimum rank)}) of an engine orientation row placed at ``t``."""
    cells = set()
    for k in range(T.or_ncells[o]):
        dr, dc, r = (int(x) for x in T.or_cells[o, k])
        cells.add(((t // 9 + dr) * 9 + t % 9 + dc, r))
    return t, frozenset(cells)


def test_fast_search_matches_plain_scan_and_oracle():
    rng = np.random.default_rng(20240611)
    total = 0
    stock_limited = 0
    for b in range(400):
        s = random_board(rng) if b % 2 else planted_board(rng)
        for seat in range(2):
            for card in PATTERN_CARDS:
                fast = summons(find_summons, s, seat, card)
                ref = summons(reference_summons, s, seat, card)
                assert fast == ref, (b, seat, cid(card))
                assert len(set(fast)) == len(fast)
                total += len(fast)
                if b % 4 < 2:  # the numpy oracle is slower: half of the boards
                    keys = {engine_key(o, t) for o, t in fast}
                    assert keys == oracle_summons(s, seat, card), (b, seat, cid(card))
                    if len(fast) == 0:
                        continue
                    # with a full stock the same board must allow at least these summons
                    s2 = s.copy()
                    s2[STOCK + seat] = s2[LSTOCK + seat] = 3
                    more = summons(find_summons, s2, seat, card)
                    assert set(fast) <= set(more)
        if s[STOCK] == 0:
            s2 = s.copy()
            s2[STOCK] = 5
            stock_limited += sum(
                len(summons(find_summons, s2, 0, c)) - len(summons(find_summons, s, 0, c))
                for c in PATTERN_CARDS
            )
    assert total > 5000  # the boards are dense enough to match many patterns
    assert stock_limited > 0  # the out-of-stock rule did remove some summons


def test_oracle_agrees_on_a_full_stock_board():
    """One dense board where every seat has stock: pure pattern matching."""
    rng = np.random.default_rng(7)
    s = random_board(rng)
    for q in ONBOARD:
        if rng.random() < 0.6:
            s[BOARD + q] = rng.choice([1, 2, 5, 6])  # commons and heroics of both seats
    s[STOCK], s[STOCK + 1], s[LSTOCK], s[LSTOCK + 1] = 5, 5, 3, 3
    for card in PATTERN_CARDS:
        for seat in range(2):
            fast = summons(find_summons, s, seat, card)
            assert {engine_key(o, t) for o, t in fast} == oracle_summons(s, seat, card)


def oracle_with_enemies(s, seat, card, borrow, impro):
    """Rules 23-26 with enemy pieces standing in (War Summoner's ``borrow`` of them for free,
    one more with a melee improvisation of a colour in ``impro``), written as a plain loop
    over squares: an enemy piece may be on any cell, a target square that must hold your
    piece included (BGA foundPattern/playCard; issue 10). Keys: (improvised colour or -1,
    target, {(square, minimum rank)})."""
    board = [int(x) for x in s[BOARD : BOARD + 81]]
    being = int(T.card_rank[card])
    legendary = being == K.LEGENDARY
    req, images = ORACLE_PATTERNS[card]

    def kind_ok(code):  # an own piece of the kind the summon needs (pick-up rule)
        return code and code >> 2 == seat and ((code & 3) == K.LEGENDARY) == legendary

    own_kind = sum(1 for q in ONBOARD if kind_ok(board[q]))
    in_stock = (s[LSTOCK + seat] if legendary else s[STOCK + seat]) > 0
    keys = set()
    for cells in images:
        for t in ONBOARD:
            code = board[t]
            enemies = []
            if req:
                if not code or code & 3 < req or code & 3 > being:
                    continue
                if code >> 2 != seat:
                    enemies.append(code >> 2)
            elif code and code & 3 > being:
                continue
            squares = []
            for dr, dc, r in cells:
                row, col = t // 9 + dr, t % 9 + dc
                q = row * 9 + col
                if not (0 <= row < 9 and 0 <= col < 9) or T.sq_color[q] < 0:
                    break
                if not board[q] or board[q] & 3 < r:
                    break
                if board[q] >> 2 != seat:
                    enemies.append(board[q] >> 2)
                squares.append((q, r))
            else:
                used = sum(1 for q, _ in squares if kind_ok(board[q]))
                if not (in_stock or kind_ok(code) or own_kind - used > 0):
                    continue
                key = frozenset(squares)
                if len(enemies) <= borrow:
                    keys.add((-1, t, key))
                elif len(enemies) == borrow + 1:
                    for c in set(enemies):
                        if (impro >> c) & 1:
                            keys.add((c, t, key))
    return keys


def test_borrowed_and_improvised_summons_match_plain_scan_and_oracle():
    """War Summoner's borrowed piece (``BORROW_ENEMY``) and melee improvisation
    (``IMPRO_LEFT``) take the search's separate path: it must agree with the plain scan and
    the oracle, enemy pieces on target squares that need your piece included."""
    rng = np.random.default_rng(20250110)
    total = 0
    on_target = 0
    for b in range(48):
        s = three_colour_board(rng)
        borrow, impro = [(1, 0), (0, 0b110), (1, 0b110), (0, 0b010)][b % 4]
        s[BORROW_ENEMY] = borrow
        s[IMPRO_LEFT] = impro
        for card in PATTERN_CARDS:
            fast = summons_coded(find_summons, s, card)
            ref = summons_coded(reference_summons, s, card)
            assert fast == ref, (b, cid(card))
            assert len(set(fast)) == len(fast)
            keys = {(a - 1, *engine_key(o, t)) for a, o, t in fast}
            assert keys == oracle_with_enemies(s, 0, card, borrow, impro), (b, cid(card))
            total += len(fast)
            for _, o, t in fast:
                code = int(s[BOARD + t])
                on_target += int(T.or_target_req[o] > 0 and code >> 2 != 0)
    assert total > 2000
    assert on_target > 0  # enemy pieces on own-piece target squares were seen


def test_wide_bitboard_search_gives_the_anchor_search_rows_in_the_same_order():
    """With a borrowed piece or melee improvisation the turn loop lists summons with
    ``find_summons_wide`` (bitboards of every colour, then the exact test): the same rows as
    the anchor search, in the same order (players pick by position), for every seat."""
    rng = np.random.default_rng(20261130)
    anchors = np.zeros(K.SCRATCH_ROWS, np.int32)
    checked = 0
    improvised = 0
    for b in range(64):
        s = three_colour_board(rng)
        borrow, impro = [(1, 0), (0, 0b110), (1, 0b101), (0, 0b011)][b % 4]
        s[BORROW_ENEMY] = borrow
        for seat in range(3):
            s[IMPRO_LEFT + seat] = impro & ~(1 << seat)
            bits = own_bits(s, T, seat)
            occ_lo, occ_hi = occupied_bits(s, T)
            m = anchor_squares(s, T, seat, anchors)
            for card in PATTERN_CARDS:
                wide = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
                scan = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
                n = find_summons_wide(s, T, seat, card, 5, wide, 0, bits, occ_lo, occ_hi)
                n2 = scan_summons(s, T, seat, card, 5, scan, 0, anchors, m, bits[12], bits[13])
                assert n == n2 and np.array_equal(wide[:n], scan[:n]), (b, seat, cid(card))
                checked += n
                improvised += int((wide[:n, 1] >> 4 > 0).sum())
    assert checked > 2000 and improvised > 100


def test_the_evaluation_witness_is_the_first_row_of_the_anchor_search():
    """The players' evaluation keeps one witness per hand card (``summon_witness``, on the
    bitboards of ``hand_bits``: the seat's own, and every colour's with a borrowed piece or
    improvisation) and must get the first summon the anchor search lists, or -1 when it
    lists none."""
    rng = np.random.default_rng(31)
    anchors = np.zeros(K.SCRATCH_ROWS, np.int32)
    found = none = wide = 0
    for b in range(120):
        s = [random_board, planted_board, three_colour_board][b % 3](rng)
        if b % 3 == 2:
            s[BORROW_ENEMY], s[IMPRO_LEFT] = [(0, 0), (1, 0), (0, 0b110), (1, 0b100)][(b // 3) % 4]
        for seat in range(2):
            if seat == 1 and b % 3 == 2:
                s[IMPRO_LEFT + 1] = s[IMPRO_LEFT] & ~0b10
            bits = hand_bits(s, T, seat)
            m = anchor_squares(s, T, seat, anchors)
            for card in PATTERN_CARDS:
                rows = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
                n = scan_summons(s, T, seat, card, 5, rows, 0, anchors, m, bits[12], bits[13])
                want = int(rows[0, 2] * WITNESS + rows[0, 3]) if n else -1
                assert summon_witness(s, T, seat, card, bits) == want, (b, seat, cid(card))
                found += n > 0
                none += n == 0
                wide += n > 0 and (s[BORROW_ENEMY] or s[IMPRO_LEFT + seat]) != 0
    assert found > 300 and none > 300 and wide > 100


def test_occupied_bits_hold_every_piece():
    rng = np.random.default_rng(5)
    for _ in range(20):
        s = three_colour_board(rng)
        lo, hi = occupied_bits(s, T)
        squares = [q for q in range(81) if s[BOARD + q]]
        assert int(lo) == sum(1 << q for q in squares if q < 63)
        assert int(hi) == sum(1 << (q - 63) for q in squares if q >= 63)


def summons_coded(fn, s, card):
    """(improvised colour + 1, orientation, target) of every summon row, sorted."""
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    n = fn(s, T, 0, card, 7, opts, 0)
    assert n < K.MAX_OPTIONS
    rows = [tuple(int(x) for x in r) for r in opts[:n]]
    assert all(r[0] == K.OPT_SUMMON and r[1] & 15 == 7 for r in rows)
    return sorted((r[1] >> 4, r[2], r[3]) for r in rows)


def test_own_bits_and_piece_counts_read_the_board():
    """The search's bitboards (built without branches) and ``pieces_on_board`` (a loop over
    all 81 squares) against a plain reading of random boards of three colours."""
    rng = np.random.default_rng(17)
    for b in range(60):
        s = three_colour_board(rng) if b % 2 else random_board(rng)
        for seat in range(3):
            bits = [int(x) for x in own_bits(s, T, seat)]
            want = []
            for owner, rank in ((seat, 1), (seat, 2), (seat, 3), (None, 2), (None, 3)):
                squares = [
                    q
                    for q in range(81)
                    if s[BOARD + q]
                    and s[BOARD + q] & 3 >= rank
                    and owner in (None, s[BOARD + q] >> 2)
                ]
                want += [sum(1 << q for q in squares if q < 63)]
                want += [sum(1 << (q - 63) for q in squares if q >= 63)]
            want += [sum(1 << q for q in ONBOARD if q < 63)]
            want += [sum(1 << (q - 63) for q in ONBOARD if q >= 63)]
            mine = [int(c) for c in s[BOARD : BOARD + 81] if c and c >> 2 == seat]
            want += [sum(1 for c in mine if c & 3 < 3), sum(1 for c in mine if c & 3 == 3)]
            assert bits == want, (b, seat)
            for rank in (1, 2, 3):
                count = sum(1 for c in mine if c & 3 >= rank)
                assert pieces_on_board(s, T, seat, rank) == count, (b, seat, rank)


def test_bitboard_search_gives_the_anchor_search_rows_in_the_same_order():
    """Players pick options by position in the list, so the bitboard search must not only
    find the same summons as the anchor search but list them in the same order; both must
    find exactly the plain reference scan's summons."""
    rng = np.random.default_rng(99)
    anchors = np.zeros(K.SCRATCH_ROWS, np.int32)
    checked = 0
    for b in range(120):
        s = random_board(rng) if b % 2 else planted_board(rng)
        for seat in range(2):
            bits = own_bits(s, T, seat)
            m = anchor_squares(s, T, seat, anchors)
            for card in PATTERN_CARDS:
                fast = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
                slow = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
                ref = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
                n = find_summons_bits(s, T, seat, card, 5, fast, 0, bits)
                n2 = scan_summons(s, T, seat, card, 5, slow, 0, anchors, m, bits[12], bits[13])
                assert n == n2 and np.array_equal(fast[:n], slow[:n]), (b, seat, cid(card))
                n3 = reference_summons(s, T, seat, card, 5, ref, 0)
                got = sorted(tuple(int(x) for x in r) for r in fast[:n])
                assert got == sorted(tuple(int(x) for x in r) for r in ref[:n3]), (b, seat)
                checked += n
    assert checked > 1000


# --- (b) orientation counts against the reference card file -----------------------------------


@pytest.mark.skipif(not REFERENCE_CARDS.exists(), reason="shared/reference/cards.json absent")
def test_distinct_orientations_match_reference():
    ref = {c["id"]: c for c in json.loads(REFERENCE_CARDS.read_text())}
    checked = 0
    for i in PATTERN_CARDS:
        assert cid(i) in ref, cid(i)
        assert T.card_or_n[i] == ref[cid(i)]["distinct_orientations"], cid(i)
        assert bool(T.or_target_req[T.card_or_start[i]]) == ref[cid(i)]["target_on_own_piece"]
        checked += 1
    # the base game, Everfrost, Nethervoid, Etherweave (its Time Traveler is detached: below)
    assert checked == len(PATTERN_CARDS) == 66 + 18 + 18 + 17
    detached = [i for i, c in enumerate(CONTENT.cards) if c.detached]
    assert [cid(i) for i in detached] == ["etherweave/time-traveler"]
    for i in detached:  # no target square: its orientations are the pattern's shapes alone
        assert T.card_or_n[i] == 0
        assert T.card_det_n[i] == ref[cid(i)]["distinct_orientations"], cid(i)


# --- (c) hand-made positions --------------------------------------------------------------------


def board(pieces):
    """EMPTY_BOARD with {(row, col): token} put on it."""
    rows = [line.split() for line in EMPTY_BOARD]
    for (r, c), tok in pieces.items():
        assert rows[r][c] == ".."
        rows[r][c] = tok
    return [" ".join(r) for r in rows]


# The summoning rules are tested on their own: the same tables with every being's effect
# program emptied, so that a summon ends with the card on the discard pile.
T_PLAIN = T._replace(
    card_eff_end=np.where(T.card_kind == K.CK_FLARE, T.card_eff_end, T.card_eff_start).astype(
        T.card_eff_end.dtype
    )
)


class PlainGame(Game):
    """The harness game, run with T_PLAIN."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.tables = T_PLAIN


def make(pieces, hand, mode="high-form"):
    """Seat 0 to move with ``hand``; its deck is the deck of the beings in the hand."""
    decks = [c.split("/")[0] for c in hand if c.split("/")[0] in CONTENT.decks]
    deck = decks[0] if decks else "imperial"
    return PlainGame(board(pieces), mode=mode, hands=(hand, ()), decks=(deck, "sylvan"))


def game(pieces, hand, mode="high-form"):
    g = make(pieces, hand, mode)
    g.refresh()
    return g


def summon_rows(g, card_id):
    slot = g.hand_slot(0, card_id)
    return [o for o in g.options() if o[0] == K.OPT_SUMMON and o[1] == slot]


def orientation(card_id, sym):
    card = CONTENT.card_index(card_id)
    o0 = T.card_or_start[card]
    rows = [o for o in range(o0, o0 + T.card_or_n[card]) if T.or_sym[o] == sym]
    assert len(rows) == 1
    return rows[0]


def expect_board(g, pieces):
    assert g.board() == board(pieces)


# Dire Wolf, as printed:   . . @      target (0,2); cells (1,1) (1,2) (2,0)
#                          . c c
#                          c . .
def test_pattern_matches_only_mirrored():
    pieces = {(4, 3): "c0", (4, 4): "c0", (5, 5): "c0"}  # the printed pattern mirrored
    g = game(pieces, ["highland/dire-wolf"])
    o = orientation("highland/dire-wolf", 4)  # mirror, no turn
    assert summon_rows(g, "highland/dire-wolf") == [(K.OPT_SUMMON, 0, o, sq(3, 3))]
    g.act(K.OPT_SUMMON, 0, o, sq(3, 3))
    expect_board(g, {**pieces, (3, 3): "c0"})
    assert g.s[ACTIONS_LEFT] == 1 and g.s[SUMMONED_N] == 1


def test_pattern_matches_only_rotated():
    # a quarter turn clockwise maps (dr, dc) to (dc, -dr): cells (-1,-1) (0,-1) (-2,-2)
    pieces = {(3, 3): "c0", (4, 3): "c0", (2, 2): "c0"}
    g = game(pieces, ["highland/dire-wolf"])
    o = orientation("highland/dire-wolf", 1)
    assert summon_rows(g, "highland/dire-wolf") == [(K.OPT_SUMMON, 0, o, sq(4, 4))]


def test_printed_orientation_and_no_match_when_a_piece_is_missing():
    pieces = {(4, 3): "c0", (4, 4): "c0", (5, 2): "c0"}  # as printed, target [3,4]
    g = game(pieces, ["highland/dire-wolf"])
    o = orientation("highland/dire-wolf", 0)
    assert summon_rows(g, "highland/dire-wolf") == [(K.OPT_SUMMON, 0, o, sq(3, 4))]
    del pieces[(5, 2)]
    pieces[(5, 3)] = "c0"
    assert summon_rows(game(pieces, ["highland/dire-wolf"]), "highland/dire-wolf") == []


# Time Elemental:  . @ .   target (0,1); heroic cells (1,0) (1,2) (2,1), commons (3,0) (3,2)
#                  h . h
#                  . h .
#                  c . c
TIME_ELEMENTAL = {(3, 3): "h0", (3, 5): "h0", (5, 3): "c0", (5, 5): "c0"}


@pytest.mark.parametrize(
    "middle, ok",
    [("h0", True), ("l0", True), ("c0", False), ("h1", False), ("l1", False)],
)
def test_heroic_cell_needs_heroic_or_better(middle, ok):
    g = game({**TIME_ELEMENTAL, (4, 4): middle}, ["legends/time-elemental"])
    rows = summon_rows(g, "legends/time-elemental")
    o = orientation("legends/time-elemental", 0)
    assert rows == ([(K.OPT_SUMMON, 0, o, sq(2, 4))] if ok else [])


def test_common_cell_accepts_upgraded_pieces():
    g = game(
        {**TIME_ELEMENTAL, (4, 4): "h0", (5, 3): "l0", (5, 5): "h0"}, ["legends/time-elemental"]
    )
    o = orientation("legends/time-elemental", 0)
    assert (K.OPT_SUMMON, 0, o, sq(2, 4)) in summon_rows(g, "legends/time-elemental")


# Chronicler (common):  . c .   target (1,1); cells (-1,0) (0,-1) (0,1)
#                       c @ c
CHRONICLER = {(3, 4): "c0", (4, 3): "c0", (4, 5): "c0"}


@pytest.mark.parametrize(
    "on_target, ok", [("c1", True), ("c0", True), ("h1", False), ("h0", False), ("l1", False)]
)
def test_target_square_rank_limit_for_a_common_being(on_target, ok):
    g = game({**CHRONICLER, (4, 4): on_target}, ["imperial/chronicler"])
    o = orientation("imperial/chronicler", 0)
    assert summon_rows(g, "imperial/chronicler") == ([(K.OPT_SUMMON, 0, o, sq(4, 4))] if ok else [])


# Knight (heroic):  . @ .   target (0,1); cells (1,0) (1,1) (1,2) (2,0)
#                   c c c
#                   c . .
KNIGHT = {(4, 3): "c0", (4, 4): "c0", (4, 5): "c0", (5, 3): "c0"}


@pytest.mark.parametrize(
    "on_target, ok", [("h1", True), ("c1", True), ("l1", False), ("l0", False)]
)
def test_target_square_rank_limit_for_a_heroic_being(on_target, ok):
    g = game({**KNIGHT, (3, 4): on_target}, ["imperial/knight"])
    o = orientation("imperial/knight", 0)
    assert summon_rows(g, "imperial/knight") == ([(K.OPT_SUMMON, 0, o, sq(3, 4))] if ok else [])


@pytest.mark.parametrize("mode", ["high-form", "deathmatch"])
def test_oversummon_enemy_piece_of_equal_rank(mode):
    g = game({**KNIGHT, (3, 4): "h1", (0, 4): "h1"}, ["imperial/knight"], mode)
    stock1 = int(g.s[STOCK + 1])
    o = orientation("imperial/knight", 0)
    g.act(K.OPT_SUMMON, 0, o, sq(3, 4))
    expect_board(g, {**KNIGHT, (3, 4): "h0", (0, 4): "h1"})
    assert g.s[DESTROYED + 1 * 4 + K.HEROIC] == 1
    assert sum(g.s[DESTROYED : DESTROYED + 16]) == 1
    assert g.s[STOCK + 1] == stock1 + 1  # the destroyed piece went back to its owner
    assert g.s[STOCK] == int(g.s[POOL_TOTAL]) - 5
    kinds = [int(e[0]) for e in g.events()]
    assert kinds == [K.EV_DESTROY, K.EV_SUMMON]
    card = CONTENT.card_index("imperial/knight")
    assert g.s[DISC_N] == 1 and g.s[DISC] == card  # effect done: the card is discarded


def test_oversummon_own_piece_is_not_counted():
    g = game({**CHRONICLER, (4, 4): "c0"}, ["imperial/chronicler"])
    g.act(K.OPT_SUMMON, 0, orientation("imperial/chronicler", 0), sq(4, 4))
    expect_board(g, {**CHRONICLER, (4, 4): "c0"})
    assert sum(g.s[DESTROYED : DESTROYED + 16]) == 0
    assert g.s[STOCK] == int(g.s[POOL_TOTAL]) - 4


# High Priestess (heroic):  . @c .   target (0,1) must hold your piece; cells (2,-1) (2,1)
#                           . .  .
#                           c .  c
PRIESTESS = {(5, 3): "c0", (5, 5): "c0"}


@pytest.mark.parametrize(
    "on_target, ok",
    [(None, False), ("c1", False), ("h1", False), ("c0", True), ("h0", True), ("l0", False)],
)
def test_pattern_needing_own_piece_on_target(on_target, ok):
    pieces = dict(PRIESTESS)
    if on_target:
        pieces[(3, 4)] = on_target
    g = game(pieces, ["imperial/high-priestess"])
    o = orientation("imperial/high-priestess", 0)
    rows = summon_rows(g, "imperial/high-priestess")
    assert rows == ([(K.OPT_SUMMON, 0, o, sq(3, 4))] if ok else [])
    if ok:
        stock = int(g.s[STOCK])
        g.act(*rows[0])
        expect_board(g, {**PRIESTESS, (3, 4): "h0"})
        assert g.s[STOCK] == stock  # the replaced piece went back, the heroic came out
        assert sum(g.s[DESTROYED : DESTROYED + 16]) == 0


def _out_of_stock(g):
    """Seat 0 owns exactly its pieces on the board: nothing left in stock."""
    on_board = sum(
        1 for q in ONBOARD if g.s[BOARD + q] and g.s[BOARD + q] >> 2 == 0 and g.s[BOARD + q] & 3 < 3
    )
    g.s[STOCK] = 0
    g.s[POOL_TOTAL] = on_board


def test_empty_stock_summon_picks_up_a_piece_outside_the_pattern():
    pieces = {**CHRONICLER, (1, 1): "c0", (7, 7): "h0", (0, 4): "l0", (2, 2): "c1"}
    g = make(pieces, ["imperial/chronicler", "imperial/knight"])  # (knight: no match)
    _out_of_stock(g)
    g.refresh()
    o = orientation("imperial/chronicler", 0)
    assert summon_rows(g, "imperial/chronicler") == [(K.OPT_SUMMON, 0, o, sq(4, 4))]
    assert [x for x in g.options() if x[0] == K.OPT_PLACE] == [(K.OPT_PLACE, -1, 0, 0)]
    opts = g.act(K.OPT_SUMMON, 0, o, sq(4, 4))
    assert g.s[PHASE] == K.PH_SUMMON_PICKUP
    # not the pattern pieces, not the legendary piece, not the enemy piece
    assert opts == [(K.OPT_PICKUP, sq(1, 1), 0, 0), (K.OPT_PICKUP, sq(7, 7), 0, 0)]
    g.act(K.OPT_PICKUP, sq(7, 7))
    del pieces[(7, 7)]
    expect_board(g, {**pieces, (4, 4): "c0"})
    assert g.s[STOCK] == 0 and g.s[ACTIONS_LEFT] == 1 and g.s[PHASE] == K.PH_ACTION
    kinds = [int(e[0]) for e in g.events()]
    assert kinds == [K.EV_PICKUP, K.EV_SUMMON]


def test_empty_stock_no_summon_when_every_piece_is_in_the_pattern():
    g = make({**CHRONICLER, (0, 4): "l0"}, ["imperial/chronicler"])
    _out_of_stock(g)
    g.refresh()
    assert summon_rows(g, "imperial/chronicler") == []


def test_empty_stock_oversummoning_own_piece_needs_no_pickup():
    g = make({**CHRONICLER, (4, 4): "c0"}, ["imperial/chronicler", "imperial/knight"])
    _out_of_stock(g)
    g.refresh()
    g.act(K.OPT_SUMMON, 0, orientation("imperial/chronicler", 0), sq(4, 4))
    assert g.s[PHASE] == K.PH_ACTION and g.s[STOCK] == 0
    expect_board(g, {**CHRONICLER, (4, 4): "c0"})


@pytest.mark.parametrize("mode", ["high-form", "deathmatch"])
def test_fourth_legend_picks_one_up(mode):
    legends = {(0, 3): "l0", (8, 4): "l0", (6, 0): "l0"}
    pieces = {**TIME_ELEMENTAL, (4, 4): "h0", **legends}
    g = game(pieces, ["legends/time-elemental"], mode)
    assert g.s[LSTOCK] == 0
    o = orientation("legends/time-elemental", 0)
    assert summon_rows(g, "legends/time-elemental") == [(K.OPT_SUMMON, 0, o, sq(2, 4))]
    opts = g.act(K.OPT_SUMMON, 0, o, sq(2, 4))
    assert opts == [(K.OPT_PICKUP, sq(r, c), 0, 0) for r, c in sorted(legends)]
    g.act(K.OPT_PICKUP, sq(6, 0))
    del pieces[(6, 0)]
    expect_board(g, {**pieces, (2, 4): "l0"})
    assert g.s[LSTOCK] == 0 and g.s[LEGENDS_SUMMONED] == 1
    assert sum(1 for line in g.board() for tok in line.split() if tok == "l0") == 3
    assert g.s[LDISC_N] == 1 and g.s[LDISC] == CONTENT.card_index("legends/time-elemental")
    assert g.s[SCORE] == (1 if mode == "deathmatch" else 0)  # Deathmatch: +1 for a legend


def test_legend_pattern_using_a_legendary_piece_excludes_it_from_pickup():
    legends = {(4, 4): "l0", (8, 4): "l0", (6, 0): "l0"}  # [4,4] is a pattern cell
    pieces = {**TIME_ELEMENTAL, **legends}
    g = game(pieces, ["legends/time-elemental"])
    o = orientation("legends/time-elemental", 0)
    opts = g.act(K.OPT_SUMMON, 0, o, sq(2, 4))
    assert opts == [(K.OPT_PICKUP, sq(6, 0), 0, 0), (K.OPT_PICKUP, sq(8, 4), 0, 0)]


def test_legend_not_offered_when_all_legendary_pieces_are_in_the_pattern():
    pieces = {(3, 3): "l0", (3, 5): "l0", (4, 4): "l0", (5, 3): "c0", (5, 5): "c0"}
    g = game(pieces, ["legends/time-elemental"])
    assert summon_rows(g, "legends/time-elemental") == []


def test_summoned_card_goes_to_own_discard_pile():
    g = game(CHRONICLER, ["imperial/chronicler", "imperial/knight"])
    g.act(K.OPT_SUMMON, 0, orientation("imperial/chronicler", 0), sq(4, 4))
    card = CONTENT.card_index("imperial/chronicler")
    assert g.s[DISC_N] == 1 and g.s[DISC + 0 * DISC_CAP] == card
    assert g.hand_slot(0, "imperial/knight") == 0
