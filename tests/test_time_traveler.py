"""Time Traveler (Etherweave): a detached pattern (core.summon.detached). The Traveler enters any
empty colourless square as long as its three-piece diagonal stands somewhere on the board;
it may destroy an adjacent common piece, and if it does, the top card of your discard pile
goes on top of your deck.

Scenarios check the exact board, counters, piles and events; the search is held to an
independent oracle (plain Python over the printed pattern) on random boards, with void
cells, a borrowed piece, improvisation and the out-of-stock pick-up rule.
Red squares: (1,3) (4,4) (5,7) (7,2); green: (2,2) (2,6) (3,8) (4,0) (7,5).
"""

import pathlib

import numpy as np

from core import constants as K
from core.layout import (
    BOARD,
    BORROW_ENEMY,
    DECK,
    DECK_CAP,
    DECK_CNT,
    DECK_HEAD,
    DESTROYED,
    DISC,
    DISC_CAP,
    DISC_N,
    IMPRO_LEFT,
    LSTOCK,
    PHASE,
    STOCK,
    SUMMON_COLOUR,
    VOID_CELLS,
)
from core.players.summon_reach import hand_bits, slot_summonable
from core.summon.detached import detached_summons
from sim.content import parse_pattern
from sim.position import legal_moves
from tests.support.content_edits import edit, refusal
from tests.support.harness import (
    CONTENT,
    Game,
    T,
    board_with,
    discards,
    is_board,
    skip,
    sq,
    summon,
    target,
    targets,
)
from tests.support.summons import ONBOARD, symmetries, three_colour_board

EW = "etherweave"
TRAV = "etherweave/time-traveler"
TRANS = "etherweave/translocationist"
WARPMASTER = "etherweave/warpmaster"
DIAG = {(2, 4): "c0", (3, 5): "c0", (4, 6): "c0"}  # the pattern, far from where it enters
TRAV_CARD = CONTENT.card_index(TRAV)


def game(pieces, hand=(TRAV,), decks=(EW, "imperial"), mode="high-form", turn=None):
    hands = [list(hand)] + [[] for _ in decks[1:]]
    g = Game(board=board_with(pieces), hands=hands, decks=decks, mode=mode, turn=turn)
    g.refresh()
    return g


def events(g, kind):
    return [tuple(int(x) for x in r[2:]) for r in g.events() if r[0] == kind]


def to_discard(g, *cids, seat=0):
    for c in cids:
        g.s[DISC + seat * DISC_CAP + g.s[DISC_N + seat]] = CONTENT.card_index(c)
        g.s[DISC_N + seat] += 1
    g.refresh()


def deck_top(g, seat=0):
    return CONTENT.cards[int(g.s[DECK + seat * DECK_CAP + g.s[DECK_HEAD + seat]])].id


def trav_rows(g):
    slot = g.hand_slot(0, TRAV)
    return sorted((a, b, c) for k, a, b, c in g.options() if k == K.OPT_SUMMON and a & 15 == slot)


def empty_colourless(g):
    return sorted(q for q in ONBOARD if g.s[BOARD + q] == 0 and T.sq_color[q] == 0)


# --- scenarios ------------------------------------------------------------------------------------


def test_traveler_enters_any_empty_colourless_square_and_sends_the_top_discard_to_the_deck():
    g = game({**DIAG, (7, 3): "c1", (5, 2): "h1"})
    to_discard(g, TRANS, WARPMASTER)
    rows = trav_rows(g)
    assert sorted(c for _, _, c in rows) == empty_colourless(g)  # never red, green or taken
    assert {b for _, b, _ in rows} == {int(T.card_det_start[TRAV_CARD])}
    deck_n = int(g.s[DECK_CNT])
    summon(g, TRAV, sq(6, 3))
    assert events(g, K.EV_SUMMON) == [(0, TRAV_CARD, sq(6, 3), int(T.card_det_start[TRAV_CARD]))]
    # optional; only common pieces next to the Traveler (not the heroic (5,2))
    assert targets(g) == [(sq(7, 3), -1)] and any(o[0] == K.OPT_SKIP for o in g.options())
    target(g, sq(7, 3))
    assert g.s[PHASE] == K.PH_ACTION
    is_board(g, {**DIAG, (6, 3): "h0", (5, 2): "h1"})
    assert g.s[DESTROYED + 4 + K.COMMON] == 1
    # the Warpmaster (top of the pile) is on top of the deck; the Traveler then discarded
    assert deck_top(g) == WARPMASTER and g.s[DECK_CNT] == deck_n + 1
    assert discards(g) == [TRANS, TRAV]
    assert events(g, K.EV_TOP_CARD_TO_DECK) == [(0, CONTENT.card_index(WARPMASTER), 0, 0)]


def test_declining_the_destroy_leaves_the_piles_alone():
    g = game({**DIAG, (7, 3): "c1"})
    to_discard(g, TRANS)
    deck_n = int(g.s[DECK_CNT])
    summon(g, TRAV, sq(6, 3))
    skip(g)
    is_board(g, {**DIAG, (6, 3): "h0", (7, 3): "c1"})
    assert discards(g) == [TRANS, TRAV] and g.s[DECK_CNT] == deck_n
    assert events(g, K.EV_TOP_CARD_TO_DECK) == []


def test_an_own_common_may_be_destroyed_and_an_empty_pile_moves_nothing():
    g = game({**DIAG, (6, 4): "c0"})
    deck_n = int(g.s[DECK_CNT])
    summon(g, TRAV, sq(6, 3))
    assert targets(g) == [(sq(6, 4), -1)]
    target(g, sq(6, 4))
    is_board(g, {**DIAG, (6, 3): "h0"})
    assert g.s[DESTROYED + 4 + K.COMMON] == 0  # own pieces never count
    assert g.s[DECK_CNT] == deck_n and discards(g) == [TRAV]
    assert events(g, K.EV_TOP_CARD_TO_DECK) == []


def test_no_pattern_no_summon_and_upgraded_pieces_fill_common_cells():
    assert trav_rows(game({(2, 4): "c0", (3, 5): "c0", (4, 7): "c0"})) == []
    assert trav_rows(game({(2, 4): "c0", (3, 5): "c1", (4, 6): "c0"})) == []  # an enemy
    g = game({(2, 4): "h0", (3, 5): "l0", (4, 6): "c0"})  # either diagonal direction
    assert sorted(c for _, _, c in trav_rows(g)) == empty_colourless(g)
    g = game({(2, 6): "c0", (3, 5): "c0", (4, 4): "c0"})  # the other diagonal, on coloured
    assert sorted(c for _, _, c in trav_rows(g)) == empty_colourless(g)


def test_out_of_stock_a_piece_not_in_every_instance_is_picked_up():
    # two instances: (2,4)(3,5)(4,6) and (3,5)(4,6)(5,7); (3,5) and (4,6) are in both
    g = game({**DIAG, (5, 7): "c0"})
    g.s[STOCK] = 0
    g.refresh()
    slot = g.hand_slot(0, TRAV)
    g.act(K.OPT_SUMMON, slot, int(T.card_det_start[TRAV_CARD]), sq(6, 3))
    assert g.s[PHASE] == K.PH_SUMMON_PICKUP
    picks = sorted(a for k, a, _, _ in g.options() if k == K.OPT_PICKUP)
    assert picks == [sq(2, 4), sq(5, 7)]
    g.act(K.OPT_PICKUP, sq(5, 7), 0, 0)
    is_board(g, {**DIAG, (6, 3): "h0"})
    # one instance only and no spare piece: nothing to pick up, so no summon
    g = game(DIAG)
    g.s[STOCK] = 0
    g.refresh()
    assert trav_rows(g) == []
    g = game({**DIAG, (8, 4): "c0"})  # a spare piece outside the pattern
    g.s[STOCK] = 0
    g.refresh()
    assert trav_rows(g) != []


def test_melee_the_pattern_may_be_improvised():
    g = game(
        {(2, 4): "c0", (3, 5): "c2", (4, 6): "c0"},
        decks=(EW, "imperial", "sylvan"),
        mode="melee",
    )
    slot = g.hand_slot(0, TRAV)
    rows = trav_rows(g)
    assert rows and {a for a, _, _ in rows} == {slot + 16 * 3}  # colour 2's improvisation
    g.act(K.OPT_SUMMON, slot + 16 * 3, int(T.card_det_start[TRAV_CARD]), sq(6, 3))
    assert events(g, K.EV_IMPROVISE) == [(0, 2, 0, 0)]
    assert g.s[IMPRO_LEFT] & 0b100 == 0
    is_board(g, {(2, 4): "c0", (3, 5): "c2", (4, 6): "c0", (6, 3): "h0"})


def test_void_cells_complete_a_detached_pattern():
    g = game({(2, 4): "c0", (4, 6): "c0"}, turn={"void-cells": 1})
    assert sorted(c for _, _, c in trav_rows(g)) == empty_colourless(g)
    summon(g, TRAV, sq(6, 3))
    assert g.s[VOID_CELLS] == 0


def test_team_play_the_seats_own_discard_pile_and_deck():
    g = game(
        {**DIAG, (7, 3): "c1"},
        decks=(EW, "imperial", "sylvan", "highland"),
        mode="team-deathmatch",
    )
    to_discard(g, TRANS)
    to_discard(g, "sylvan/kiskin-spirit", seat=2)  # the teammate's pile is not touched
    deck_n, mate_n = int(g.s[DECK_CNT]), int(g.s[DECK_CNT + 2])
    summon(g, TRAV, sq(6, 3))
    target(g, sq(7, 3))
    assert deck_top(g) == TRANS and g.s[DECK_CNT] == deck_n + 1
    assert g.s[DECK_CNT + 2] == mate_n and discards(g, 2) == ["sylvan/kiskin-spirit"]


def test_the_moves_query_marks_a_detached_summon():
    g = game(DIAG)
    moves = legal_moves(g.s, CONTENT)
    rows = [m for m in moves["summons"] if m["card"] == TRAV]
    assert rows and all(m["detached"] and m["pattern"] == [] for m in rows)


# --- the search against an oracle ---------------------------------------------------------------

_CELLS, _, _ = parse_pattern(CONTENT.cards[TRAV_CARD].pattern, pathlib.Path("x"), TRAV, True)
IMAGES = symmetries(_CELLS)


def oracle_detached(s, seat, voids, borrow, impro, possessed=-1):
    """{(improvised colour or -1, square)} from the printed pattern: every instance on the
    board (void cells on common cells, enemy pieces borrowed or improvised), the out-of-stock
    rule (a piece not in every instance of that kind), improvisation only when needed. A
    possessed pattern uses the possessed colour's pieces, but for one melee improvisation
    with a third colour (BGA foundPattern)."""
    board = [int(x) for x in s[BOARD : BOARD + 81]]
    pcol = seat if possessed < 0 else possessed
    if possessed >= 0:
        voids = borrow = 0
        impro &= ~(1 << possessed) & ~(1 << seat)
    instances = []  # (way, set of squares)
    for cells in IMAGES:
        for a in range(81):
            squares, empties, enemies, ok = set(), 0, [], True
            for dr, dc, r in cells:
                row, col = a // 9 + dr, a % 9 + dc
                q = row * 9 + col
                if not (0 <= row < 9 and 0 <= col < 9) or T.sq_color[q] < 0:
                    ok = False
                    break
                code = board[q]
                if code == 0:
                    if r != K.COMMON:
                        ok = False
                        break
                    empties += 1
                elif code & 3 < r:
                    ok = False
                    break
                elif code >> 2 != pcol:
                    enemies.append(code >> 2)
                squares.add(q)
            if not ok or empties > voids:
                continue
            if len(enemies) <= borrow:
                instances.append((-1, squares))
            elif len(enemies) == borrow + 1:
                for c in set(enemies):
                    if (impro >> c) & 1:
                        instances.append((c, squares))
    if s[STOCK + seat] == 0:  # the Traveler is heroic: a common/heroic piece to pick up
        spare = [q for q in ONBOARD if board[q] and board[q] >> 2 == seat and board[q] & 3 < 3]
        instances = [(w, sq_) for w, sq_ in instances if any(q not in sq_ for q in spare)]
    ways = {w for w, _ in instances}
    if -1 in ways:
        ways = {-1}
    free = [q for q in ONBOARD if board[q] == 0 and T.sq_color[q] == 0]
    return {(w, q) for w in ways for q in free}


def _rows(s):
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    n = detached_summons(s, T, 0, TRAV_CARD, 3, opts, 0)
    rows = [(int(r[1]), int(r[2]), int(r[3])) for r in opts[:n]]
    assert len(set(rows)) == len(rows)
    assert all(o == T.card_det_start[TRAV_CARD] for _, o, _ in rows)
    return {((a >> 4) - 1, t) for a, _, t in rows}


def test_detached_search_matches_the_oracle_on_random_boards():
    rng = np.random.default_rng(19691120)
    found = improvised = picked = possessed_improvised = 0
    for b in range(160):
        s = three_colour_board(rng)
        for q in ONBOARD:  # thinner boards: fewer instances, more decisions at the edge
            if rng.random() < 0.5:
                s[BOARD + q] = 0
        voids, borrow, impro = [(0, 0, 0), (1, 0, 0b110), (0, 1, 0), (2, 0, 0b010)][b % 4]
        s[VOID_CELLS], s[BORROW_ENEMY], s[IMPRO_LEFT] = voids, borrow, impro
        s[STOCK] = [0, 5][b % 2]
        s[LSTOCK] = 1
        # possessed by colour 1 on a sixth of the boards, half of them with colour 2 to improvise
        s[SUMMON_COLOUR] = 1 if b % 12 in (0, 1) else -1
        got = _rows(s)
        assert got == oracle_detached(s, 0, voids, borrow, impro, s[SUMMON_COLOUR]), b
        found += bool(got)
        improvised += any(w >= 0 for w, _ in got)
        possessed_improvised += s[SUMMON_COLOUR] >= 0 and any(w == 2 for w, _ in got)
        if s[STOCK] == 0 and got:
            picked += 1
    assert found > 40 and improvised > 5 and picked > 10 and possessed_improvised > 0


# --- refused content --------------------------------------------------------------------------


def _fails(data_dir, old, new, *words):
    edit(data_dir / "etherweave.toml", old, new)
    msg = refusal(data_dir)
    for w in words:
        assert w in msg, msg


def test_a_detached_pattern_has_no_target_and_no_marks(data_copy):
    _fails(data_copy, '"c . .",\n  ". c .",', '"c . .",\n  ". c @",', "time-traveler", "'@'")


def test_a_detached_pattern_refuses_marks(data_copy):
    _fails(data_copy, '"c . .",\n  ". c .",', '"c . *",\n  ". c .",', "no marks or arrows")


def test_top_only_is_checked(data_copy):
    old = '{ op = "card-to-top", top-only = true, if = "done" }'
    _fails(data_copy, old, old.replace("true", "false"), "time-traveler", "top-only must be")


def test_top_only_cannot_be_optional(data_copy):
    old = '{ op = "card-to-top", top-only = true, if = "done" }'
    new = '{ op = "card-to-top", top-only = true, optional = true }'
    _fails(data_copy, old, new, "cannot be optional")


def test_void_summon_count_is_checked(data_copy):
    _fails(data_copy, 'op = "void-summon", count = 2', 'op = "void-summon", count = 4', "count")


def test_the_players_evaluation_asks_the_detached_search():
    """``slot_summonable`` (the players' evaluation) answers what the options would list."""
    rng = np.random.default_rng(4242)
    yes = 0
    for b in range(60):
        s = three_colour_board(rng)
        for q in ONBOARD:
            if rng.random() < 0.5:
                s[BOARD + q] = 0
        s[VOID_CELLS], s[IMPRO_LEFT], s[STOCK] = b % 3, [0, 0b110][b % 2], [0, 3][b % 4 // 2]
        s[SUMMON_COLOUR] = -1  # a zero row would read as "possessed by colour 0"
        bits = hand_bits(s, T, 0)
        fast = slot_summonable(s, T, 0, TRAV_CARD, bits)
        assert fast == bool(_rows(s)), b
        yes += fast
    assert 10 < yes < 60
