"""Etherweave copies, the linked opposed pair and stasis: Doppelganger, Ziggurat Sentinel,
Antimatter Spirit and Merchant of Time, each summoned or warped on a fixed board with fixed
choices, checking the exact board, the counters and the events.

Boards are {(row, col): token} on an empty board; seat 0 plays Etherweave with two actions
(the first round is over). Red squares: (1,3) (4,4) (5,7) (7,2); green: (2,2) (2,6) (3,8)
(4,0) (7,5). Directions: 0 n, 1 ne, 2 e, 3 se, 4 s, 5 sw, 6 w, 7 nw.
"""

import numpy as np
import pytest

from core import constants as K
from core.checks.invariants import (
    CHECKS,
    INV_STASIS,
)
from core.layout import (
    ACTIONS_LEFT,
    BOARD,
    DESTROYED,
    DISC,
    DISC_N,
    GATEWAY,
    LSTOCK,
    PENDING,
    PHASE,
    SCORE,
    STASIS,
    STASIS_CARD,
    STOCK,
    TASK_PTS,
)
from core.rules.scoring import high_form_score
from core.rules.turn import game_over
from sim.position import PositionError, legal_moves, position_from_dict
from sim.render import event_text
from sim.single_game import follow_gateways, gateway_text
from tests.support.content_edits import edit, refusal
from tests.support.harness import (
    CONTENT,
    Game,
    T,
    at,
    board_with,
    discards,
    hand,
    is_board,
    skip,
    sq,
    summon,
    target,
    targets,
)

EW = "etherweave"
DOPPEL = "etherweave/doppelganger"
ZIG = "etherweave/ziggurat-sentinel"
ANTI = "etherweave/antimatter-spirit"
MERCHANT = "etherweave/merchant-of-time"
TRANS = "etherweave/translocationist"
WORM = "etherweave/paradox-worm"
LESSER = "etherweave/lesser-shadow-twin"
GREATER = "etherweave/greater-shadow-twin"
WARPMASTER = "etherweave/warpmaster"
N, NE, E, SE, S, SW, W, NW = range(8)


def card(cid):
    return CONTENT.card_index(cid)


def game(pieces, hand, decks=(EW, "imperial"), mode="high-form"):
    hands = [list(hand)] + [[] for _ in decks[1:]]
    g = Game(board=board_with(pieces), hands=hands, decks=decks, mode=mode)
    g.refresh()
    return g


def in_discard(g, *cids):
    for cid in cids:
        g.s[DISC + g.s[DISC_N]] = card(cid)
        g.s[DISC_N] += 1
    g.refresh()


def pending(g, seat=0):
    c = int(g.s[PENDING + seat])
    return None if c < 0 else CONTENT.cards[c].id


HAND_MADE_CHECKS = ("pieces", "gateways", "score_events", "pending", "stasis")
NO_EVENTS = np.zeros((0, K.EV_WIDTH), np.int32)


def invariants_ok(g):
    """The checks that hold in a hand-made position (its decks are not full)."""
    ev = g.events()
    return all(CHECKS[name](g.s, T, ev) == 0 for name in HAND_MADE_CHECKS)


def warp(g, cid):
    return g.act(K.OPT_WARP, g.hand_slot(0, cid), 0, 0)


def effect_over(g):
    return g.s[PHASE] == K.PH_ACTION


def can_skip(g):
    return any(o[0] == K.OPT_SKIP for o in g.options())


def events(g, kind):
    return [tuple(int(x) for x in r[2:]) for r in g.events() if r[0] == kind]


def code(tok):
    return {"c": K.COMMON, "h": K.HEROIC, "l": K.LEGENDARY}[tok[0]] + 4 * int(tok[1])


# --- Doppelganger ---------------------------------------------------------------------------

DOPPEL_BOARD = {(3, 5): "c0", (4, 5): "c0"}
DOPPEL_PAT = at((3, 5), (4, 5))


def test_doppelganger_copies_the_pending_beings_warp_which_stays_pending():
    g = game({**DOPPEL_BOARD, (7, 7): "c0", (1, 1): "c1"}, [DOPPEL, GREATER])
    warp(g, GREATER)  # its warp: upgrade one of your commons
    target(g, sq(7, 7))
    summon(g, DOPPEL, sq(3, 6), pattern=DOPPEL_PAT)
    # the copy runs the Twin's warp: compulsory, any of your commons (the Doppelganger too)
    assert targets(g) == [(sq(3, 5), -1), (sq(3, 6), -1), (sq(4, 5), -1)]
    assert not can_skip(g)
    target(g, sq(3, 5))
    assert effect_over(g)
    is_board(g, {(3, 5): "h0", (4, 5): "c0", (3, 6): "c0", (7, 7): "h0", (1, 1): "c1"})
    assert events(g, K.EV_COPY_WARP) == [(0, card(GREATER), card(DOPPEL), 0)]
    assert pending(g) == GREATER and hand(g) == [GREATER] and discards(g) == [DOPPEL]
    assert g.s[ACTIONS_LEFT] == 1
    assert invariants_ok(g)


def test_doppelganger_copying_the_worm_may_discard_the_pending_worm():
    g = game({**DOPPEL_BOARD, (6, 6): "c1", (1, 1): "c1"}, [DOPPEL, WORM])
    warp(g, WORM)
    target(g, sq(6, 6))  # upgrade an enemy common
    skip(g)  # keep the Worm pending
    summon(g, DOPPEL, sq(3, 6), pattern=DOPPEL_PAT)
    # the copied warp: the only enemy common left is upgraded without asking, then the
    # yes/no on the pending being (the Worm, not the Doppelganger)
    assert targets(g) == [(card(WORM), -1)] and can_skip(g)
    target(g, card(WORM))
    assert effect_over(g) and pending(g) is None and discards(g) == [WORM, DOPPEL]
    is_board(g, {**DOPPEL_BOARD, (3, 6): "c0", (6, 6): "h1", (1, 1): "h1"})
    assert invariants_ok(g)


def test_doppelganger_never_copies_the_merchant_nor_nothing():
    g = game({**DOPPEL_BOARD, (6, 6): "c1"}, [DOPPEL, MERCHANT])
    warp(g, MERCHANT)
    skip(g)  # takes nothing
    summon(g, DOPPEL, sq(3, 6), pattern=DOPPEL_PAT)
    assert effect_over(g) and events(g, K.EV_COPY_WARP) == []
    assert pending(g) == MERCHANT and g.s[STASIS] == 0
    is_board(g, {**DOPPEL_BOARD, (3, 6): "c0", (6, 6): "c1"})
    h = game({**DOPPEL_BOARD}, [DOPPEL])  # no pending being: nothing
    summon(h, DOPPEL, sq(3, 6), pattern=DOPPEL_PAT)
    assert effect_over(h) and events(h, K.EV_COPY_WARP) == []


# --- Ziggurat Sentinel ------------------------------------------------------------------------

# target (2,5); the marked square (BGA's markedSquare) is (3,4), south-west of it
ZIG_BOARD = {(3, 5): "c0", (4, 4): "c0", (4, 5): "c0", (5, 3): "c0", (5, 4): "c0"}
ZIG_PAT = at((3, 5), (4, 4), (4, 5), (5, 3), (5, 4))


def test_ziggurat_makes_up_to_three_combat_steps_in_the_marked_direction():
    g = game({**ZIG_BOARD, (3, 4): "c1", (4, 3): "h1", (1, 6): "c1"}, [ZIG])
    summon(g, ZIG, sq(2, 5), pattern=ZIG_PAT)
    # nothing to copy (empty discard pile): only the step onto the marked square
    assert targets(g) == [(sq(2, 5), sq(3, 4))] and can_skip(g)
    target(g, sq(2, 5), sq(3, 4))
    assert targets(g) == [(sq(3, 4), sq(4, 3))] and can_skip(g)  # the same direction only
    target(g, sq(3, 4), sq(4, 3))
    target(g, sq(4, 3), sq(5, 2))
    assert effect_over(g)
    is_board(g, {**ZIG_BOARD, (5, 2): "h0", (1, 6): "c1"})
    assert g.s[DESTROYED + 4 + K.COMMON] == 1 and g.s[DESTROYED + 4 + K.HEROIC] == 1


def test_ziggurat_may_stop_after_one_step_and_never_takes_a_legend():
    g = game({**ZIG_BOARD, (4, 3): "l1"}, [ZIG])
    summon(g, ZIG, sq(2, 5), pattern=ZIG_PAT)
    target(g, sq(2, 5), sq(3, 4))
    assert targets(g) == []  # (4,3) holds a legendary piece: the steps end
    assert effect_over(g)
    is_board(g, {**ZIG_BOARD, (3, 4): "h0", (4, 3): "l1"})


def test_ziggurat_copies_a_warp_from_the_discard_pile_but_never_the_merchant():
    g = game({**ZIG_BOARD}, [ZIG])
    in_discard(g, TRANS, MERCHANT, LESSER)
    summon(g, ZIG, sq(2, 5), pattern=ZIG_PAT)
    assert set(targets(g)) == {(card(TRANS), -1), (card(LESSER), -1), (sq(2, 5), sq(3, 4))}
    target(g, card(LESSER))  # the Twin's warp: upgrade one of your commons
    assert (sq(2, 5), -1) not in targets(g) and not can_skip(g)  # the Sentinel is heroic
    target(g, sq(5, 3))
    assert effect_over(g)  # the copy replaced the rest: no steps follow
    is_board(g, {**ZIG_BOARD, (2, 5): "h0", (5, 3): "h0"})
    assert events(g, K.EV_COPY_WARP) == [(0, card(LESSER), card(ZIG), 0)]
    assert discards(g) == [TRANS, MERCHANT, LESSER, ZIG] and pending(g) is None


def test_ziggurat_copying_a_gain_action_warp():
    g = game({**ZIG_BOARD}, [ZIG])
    in_discard(g, TRANS)
    summon(g, ZIG, sq(2, 5), pattern=ZIG_PAT)
    target(g, card(TRANS))
    assert effect_over(g) and g.s[ACTIONS_LEFT] == 2  # 2 - 1 (summon) + 1 (copied warp)


def test_ziggurat_warp_a_combat_move_taking_an_equal_rank_ends_it():
    g = game({(6, 6): "c0", (6, 7): "c1", (1, 4): "l0"}, [ZIG])
    warp(g, ZIG)
    t = targets(g)
    assert not can_skip(g) and (sq(6, 6), sq(6, 7)) in t
    assert all(a != sq(1, 4) for a, _ in t)  # never a legendary piece
    target(g, sq(6, 6), sq(6, 7))
    assert effect_over(g)  # it took a piece of its own rank: no second move
    is_board(g, {(6, 7): "c0", (1, 4): "l0"})
    assert g.s[DESTROYED + 4 + K.COMMON] == 1 and pending(g) == ZIG


def test_ziggurat_warp_two_standard_moves_with_the_same_piece():
    g = game({(6, 6): "h0", (6, 4): "c1", (5, 5): "h1", (1, 1): "c0"}, [ZIG])
    warp(g, ZIG)
    target(g, sq(6, 6), sq(6, 5))
    t = targets(g)
    assert can_skip(g) and all(a == sq(6, 5) for a, _ in t)  # the same piece
    assert (sq(6, 5), sq(6, 4)) in t and (sq(6, 5), sq(5, 5)) not in t  # standard: lower only
    target(g, sq(6, 5), sq(6, 4))
    assert effect_over(g)
    is_board(g, {(6, 4): "h0", (5, 5): "h1", (1, 1): "c0"})


# --- Antimatter Spirit ------------------------------------------------------------------------


def test_antimatter_summoned_does_nothing():
    g = game({(2, 6): "c0", (4, 4): "c0", (6, 6): "c1"}, [ANTI])
    summon(g, ANTI, sq(3, 5), pattern=at((2, 6), (4, 4)))
    assert effect_over(g)
    is_board(g, {(2, 6): "c0", (4, 4): "c0", (3, 5): "c0", (6, 6): "c1"})


def test_antimatter_warp_places_steps_and_places_an_enemy_piece_stepping_back():
    g = game({(5, 5): "c1", (6, 6): "h1", (1, 1): "h0"}, [ANTI])
    warp(g, ANTI)
    t = set(targets(g))
    assert not can_skip(g)
    assert (sq(5, 4), E + 8) in t and (sq(5, 4), W + 8) in t and (sq(5, 4), N + 8) in t
    # a line with an upgraded piece next to the square: not offered (either way)
    assert (sq(6, 5), E + 8) not in t and (sq(6, 5), W + 8) not in t and (sq(6, 5), N + 8) in t
    assert (sq(1, 2), E + 8) not in t and (sq(1, 2), W + 8) not in t  # yours too
    # both neighbours must be on the board; coloured and occupied squares are never chosen
    assert all(a != sq(0, 2) for a, _ in t)  # its lines all leave the board
    assert all(a not in (sq(4, 4), sq(2, 2), sq(5, 5)) for a, _ in t)
    assert all(b // 8 == 1 for _, b in t)  # the one enemy colour
    target(g, sq(5, 4), E + 8)
    assert effect_over(g)
    is_board(g, {(5, 5): "c0", (5, 3): "c1", (6, 6): "h1", (1, 1): "h0"})
    place = events(g, K.EV_EFFECT_PLACE)
    assert place == [(0, sq(5, 4), code("c0"), 0), (0, sq(5, 4), code("c1"), 0)]
    assert events(g, K.EV_MOVE) == [
        (0, sq(5, 4), sq(5, 5), code("c0")),
        (0, sq(5, 4), sq(5, 3), code("c1")),
    ]
    assert g.s[DESTROYED + 4 + K.COMMON] == 1 and pending(g) == ANTI
    assert invariants_ok(g)


def test_antimatter_the_enemy_step_may_take_a_common_of_any_colour():
    g = game({(5, 3): "c0", (5, 5): "c1"}, [ANTI])
    warp(g, ANTI)
    target(g, sq(5, 4), W + 8)  # own piece onto (5,3): own common destroyed, not counted
    is_board(g, {(5, 3): "c0", (5, 5): "c1"})  # c1 placed on (5,4) took (5,5)'s c1
    assert g.s[DESTROYED + 4 + K.COMMON] == 1 and g.s[DESTROYED + K.COMMON] == 0
    assert invariants_ok(g)


def test_antimatter_without_a_complete_chain_does_nothing():
    g = game({(5, 5): "c1"}, [ANTI])
    g.s[STOCK] = 0  # no common of yours to place
    g.refresh()
    warp(g, ANTI)
    assert effect_over(g) and pending(g) == ANTI
    is_board(g, {(5, 5): "c1"})
    h = game({(5, 5): "c1"}, [ANTI])
    h.s[STOCK + 1] = 0  # the enemy has no piece in stock ...
    h.refresh()
    warp(h, ANTI)
    # ... except the one the first step takes back into its stock
    assert {(a, b) for a, b in targets(h)} == {
        (sq(5, 4), E + 8), (sq(5, 6), W + 8), (sq(4, 5), S + 8), (sq(6, 5), N + 8),
        (sq(4, 6), SW + 8), (sq(6, 4), NE + 8), (sq(6, 6), NW + 8),
    }  # fmt: skip


def test_antimatter_in_melee_chooses_an_enemy_colour_with_stock():
    g = game({(5, 5): "c2"}, [ANTI], decks=(EW, "imperial", "highland"), mode="melee")
    g.s[STOCK + 2] = 0
    g.refresh()
    warp(g, ANTI)
    t = set(targets(g))
    assert (sq(5, 4), E + 8) in t and (sq(5, 4), E + 16) in t  # colour 2's piece comes back
    assert (sq(5, 4), N + 8) in t and (sq(5, 4), N + 16) not in t
    target(g, sq(5, 4), E + 16)
    is_board(g, {(5, 5): "c0", (5, 3): "c2"})
    assert g.s[DESTROYED + 8 + K.COMMON] == 1


def test_antimatter_in_team_play_the_enemy_is_the_other_team():
    decks = (EW, "imperial", "highland", "sylvan")
    g = Game(board=board_with({(5, 5): "c1"}), hands=[[ANTI], [], [], []], decks=decks,
             mode="team-high-form")  # fmt: skip
    g.refresh()
    warp(g, ANTI)
    assert {b // 8 for _, b in targets(g)} == {1}
    target(g, sq(5, 4), E + 8)
    is_board(g, {(5, 5): "c0", (5, 3): "c1"})


# --- Merchant of Time -------------------------------------------------------------------------

# target (3,5)
MERCHANT_BOARD = {(4, 4): "c0", (4, 6): "c0", (5, 3): "c0", (5, 5): "c0"}
MERCHANT_PAT = at((4, 4), (4, 6), (5, 3), (5, 5))


def test_merchant_warp_holds_a_piece_off_the_board_and_out_of_stock():
    g = game({(6, 6): "l1", (2, 2): "c0", (7, 7): "c1"}, [MERCHANT])
    before = (int(g.s[STOCK + 1]), int(g.s[LSTOCK + 1]))
    assert high_form_score(g.s, T, 1) == int(g.s[TASK_PTS + 1]) + 1
    warp(g, MERCHANT)
    # any piece on a colourless square (not (2,2), green); optional
    assert targets(g) == [(sq(6, 6), -1), (sq(7, 7), -1)] and can_skip(g)
    target(g, sq(6, 6))
    assert effect_over(g) and pending(g) == MERCHANT
    is_board(g, {(2, 2): "c0", (7, 7): "c1"})
    assert g.s[STASIS] == code("l1") and g.s[STASIS_CARD] == card(MERCHANT)
    assert (int(g.s[STOCK + 1]), int(g.s[LSTOCK + 1])) == before  # not back in stock
    assert high_form_score(g.s, T, 1) == int(g.s[TASK_PTS + 1])  # the legend scores nothing
    assert g.s[DESTROYED + 4 + K.LEGENDARY] == 0  # not a destruction
    assert events(g, K.EV_CAPTURE) == [(0, sq(6, 6), code("l1"), 0)]
    assert invariants_ok(g)


def test_merchant_summoned_returns_the_piece_by_a_standard_leap():
    pieces = {**MERCHANT_BOARD, (6, 6): "h0", (7, 7): "c1", (1, 1): "h1", (6, 2): "c0"}
    g = game(pieces, [MERCHANT], mode="deathmatch")
    warp(g, MERCHANT)
    target(g, sq(6, 6))  # your own heroic piece
    summon(g, MERCHANT, sq(3, 5), pattern=MERCHANT_PAT)
    t = targets(g)
    assert not can_skip(g)
    # colourless squares, empty or holding a lower rank (any colour)
    assert (sq(7, 7), -1) in t and (sq(6, 2), -1) in t and (sq(6, 6), -1) in t
    assert (sq(1, 1), -1) not in t and (sq(4, 4), -1) not in t  # a heroic; a coloured square
    assert (sq(2, 2), -1) not in t and (sq(3, 5), -1) not in t and (sq(5, 5), -1) in t
    target(g, sq(7, 7))
    assert effect_over(g)
    is_board(g, {**MERCHANT_BOARD, (3, 5): "h0", (7, 7): "h0", (1, 1): "h1", (6, 2): "c0"})
    assert g.s[DESTROYED + 4 + K.COMMON] == 1  # the victim counts
    assert g.s[STASIS] == 0 and g.s[STASIS_CARD] == -1
    assert pending(g) is None and discards(g) == [MERCHANT]
    assert events(g, K.EV_RELEASE) == [(0, sq(7, 7), code("h0"), 0)]
    assert invariants_ok(g)


def test_merchant_holding_nothing_does_nothing():
    g = game({**MERCHANT_BOARD}, [MERCHANT])
    summon(g, MERCHANT, sq(3, 5), pattern=MERCHANT_PAT)
    assert effect_over(g) and events(g, K.EV_RELEASE) == []


def test_merchant_takes_a_gateway_into_stasis_and_brings_it_back():
    g = game({**MERCHANT_BOARD, (6, 6): "c1"}, [MERCHANT], decks=(EW, "nethervoid"))
    g.s[GATEWAY + 1] = sq(6, 6)
    g.refresh()
    warp(g, MERCHANT)
    target(g, sq(6, 6))
    assert g.s[GATEWAY + 1] == -2  # held by seat 0: no Gateway on the board
    assert invariants_ok(g)
    summon(g, MERCHANT, sq(3, 5), pattern=MERCHANT_PAT)
    target(g, sq(7, 6))
    assert g.s[GATEWAY + 1] == sq(7, 6)
    is_board(g, {**MERCHANT_BOARD, (3, 5): "h0", (7, 6): "c1"})
    assert invariants_ok(g)


def test_merchant_piece_with_nowhere_to_go_returns_to_its_stock():
    g = game({**MERCHANT_BOARD, (6, 6): "c1"}, [MERCHANT], decks=(EW, "nethervoid"))
    g.s[GATEWAY + 1] = sq(6, 6)
    g.refresh()
    warp(g, MERCHANT)
    target(g, sq(6, 6))
    stock = int(g.s[STOCK + 1])
    # every empty colourless square is filled (by hand: this board is not a legal position)
    for q in T.onboard:
        if g.s[BOARD + q] == 0 and T.sq_color[q] == 0 and q != sq(3, 5):
            g.s[BOARD + q] = code("c0")
    g.refresh()
    summon(g, MERCHANT, sq(3, 5), pattern=MERCHANT_PAT)
    assert effect_over(g)
    assert g.s[STOCK + 1] == stock + 1 and g.s[STASIS] == 0 and g.s[STASIS_CARD] == -1
    assert g.s[GATEWAY + 1] == -1  # its Gateway mark is lost
    assert events(g, K.EV_STASIS_BACK) == [(0, code("c1"), 0, 0)]


def test_pending_merchant_cannot_be_returned_or_copied():
    g = game({(2, 4): "c0", (4, 3): "c0", (5, 4): "c0", (6, 6): "c1"}, [WARPMASTER, MERCHANT])
    warp(g, MERCHANT)
    target(g, sq(6, 6))
    summon(g, WARPMASTER, sq(4, 5), pattern=at((2, 4), (4, 3), (5, 4)))
    assert all(a == sq(4, 5) for a, _ in targets(g))  # only the Warpmaster's own step
    skip(g)
    assert pending(g) == MERCHANT and g.s[STASIS] == code("c1")
    # the discard action never offers it
    opts = g.options()
    assert all(not (k == K.OPT_DISCARD and a == g.hand_slot(0, MERCHANT)) for k, a, _, _ in opts)


def test_held_piece_at_the_end_of_the_game():
    g = game({(6, 6): "l1"}, [MERCHANT], mode="deathmatch")
    warp(g, MERCHANT)
    target(g, sq(6, 6))
    game_over(g.s, T, g.ev, 0)
    assert g.s[STASIS] == code("l1")  # still held; the pending Merchant costs 2
    assert g.s[SCORE] == -2
    assert invariants_ok(g)


def test_the_invariant_checker_sees_a_bad_stasis():
    g = game({(6, 6): "c1"}, [MERCHANT])
    warp(g, MERCHANT)
    target(g, sq(6, 6))
    assert CHECKS["stasis"](g.s, T, g.events()) == 0 and CHECKS["pieces"](g.s, T, g.events()) == 0
    g.s[PENDING] = -1  # the holding card is no longer pending
    assert CHECKS["stasis"](g.s, T, g.events()) == INV_STASIS
    g.s[PENDING] = card(MERCHANT)
    g.s[STASIS_CARD] = -1
    assert CHECKS["stasis"](g.s, T, g.events()) == INV_STASIS
    g.s[STASIS_CARD] = card(MERCHANT)
    g.s[STASIS] = 0  # the piece vanished: the pool no longer adds up
    assert CHECKS["pieces"](g.s, T, g.events()) != 0


# --- load checks and the play log ----------------------------------------------------------


def _fails(data_dir, *words):
    msg = refusal(data_dir)
    for w in words:
        assert w in msg, msg


MERCHANT_WARP = '{ op = "capture", region = "colourless", optional = true },'
MERCHANT_EFFECT = '{ op = "release", region = "colourless" },'


@pytest.mark.parametrize(
    "old,new,words",
    [
        # a warp never copies (copies cannot recurse)
        ('{ op = "gain-action" },', '{ op = "copy-warp", from = "pending" },', ["warp: copy"]),
        ('{ op = "copy-warp", from = "pending" },', '{ op = "copy-warp" },', ["from"]),
        ('from = "pending"', 'from = "hand"', ["copy-warp source"]),
        ("no-copy = true\n", "", ["capture", "no-copy"]),  # the held piece could be lost
        (MERCHANT_EFFECT, MERCHANT_WARP, ["capture", "no-copy"]),
        (MERCHANT_WARP, '{ op = "gain-action" },', ["release", "captures"]),
        (MERCHANT_EFFECT, MERCHANT_EFFECT.replace(" }", ", optional = true }"), ["compulsory"]),
    ],
)
def test_tied_ops_are_refused_where_they_cannot_work(data_copy, old, new, words):
    edit(data_copy / "etherweave.toml", old, new)
    _fails(data_copy, "etherweave.toml", *words)


def test_the_play_log_reads_the_new_events():
    g = game({**MERCHANT_BOARD, (6, 6): "c1"}, [MERCHANT], decks=(EW, "nethervoid"))
    g.s[GATEWAY + 1] = sq(6, 6)
    g.refresh()
    warp(g, MERCHANT)
    target(g, sq(6, 6))
    gateways = {1: sq(6, 6)}
    texts = []
    for row in g.events():
        kind, _, seat, a, b, _ = (int(x) for x in row)
        follow_gateways(gateways, kind, seat, a, b)
        texts.append(event_text(row, CONTENT))
    assert "seat 0 takes c1 from [6,6] into stasis" in " ".join(t or "" for t in texts)
    assert gateways == {1: -2} and "held in stasis" in gateway_text(gateways)
    summon(g, MERCHANT, sq(3, 5), pattern=MERCHANT_PAT)
    target(g, sq(7, 6))
    row = [r for r in g.events() if r[0] == K.EV_RELEASE][0]
    follow_gateways(gateways, K.EV_RELEASE, 0, sq(7, 6), int(row[4]))
    assert gateways == {1: sq(7, 6)}
    assert event_text(row, CONTENT) == "c1 comes back from stasis onto [7,6]"
    copy_row = [K.EV_COPY_WARP, 1, 0, card(TRANS), card(DOPPEL), 0]
    assert event_text(copy_row, CONTENT) == (
        "seat 0's Doppelganger copies the warp effect of Translocationist"
    )


def _position(seat0):
    data = {
        "mode": "high-form",
        "to_move": 0,
        "board": board_with({**MERCHANT_BOARD}),
        "seat": [{"deck": EW, "hand": [MERCHANT], **seat0}, {"deck": "imperial", "hand": []}],
    }
    return position_from_dict(data, CONTENT)


def test_a_position_file_holds_a_piece_in_stasis():
    s = _position({"pending": MERCHANT, "stasis": "l1"})
    assert s[STASIS] == code("l1") and s[STASIS_CARD] == card(MERCHANT)
    assert s[LSTOCK + 1] == 2  # out of its owner's stock
    assert legal_moves(s, CONTENT)["stasis"] == "l1"
    assert CHECKS["pieces"](s, T, NO_EVENTS) == 0 and CHECKS["stasis"](s, T, NO_EVENTS) == 0
    with pytest.raises(PositionError, match="pending card whose warp captures"):
        _position({"stasis": "l1"})
    with pytest.raises(PositionError, match="piece token"):
        _position({"pending": MERCHANT, "stasis": "x1"})


def test_merchant_in_team_play_holds_a_piece_of_the_other_team_on_its_seat():
    decks = (EW, "imperial", "highland", "sylvan")
    pieces = {**MERCHANT_BOARD, (6, 6): "h1"}
    g = Game(board=board_with(pieces), hands=[[MERCHANT], [], [], []], decks=decks,
             mode="team-deathmatch")  # fmt: skip
    g.refresh()
    stock = int(g.s[STOCK + 1])
    warp(g, MERCHANT)
    target(g, sq(6, 6))
    assert g.s[STASIS] == code("h1") and g.s[STASIS + 2] == 0  # on seat 0's card
    assert g.s[STOCK + 1] == stock and invariants_ok(g)
    summon(g, MERCHANT, sq(3, 5), pattern=MERCHANT_PAT)
    target(g, sq(6, 2))
    is_board(g, {**MERCHANT_BOARD, (3, 5): "h0", (6, 2): "h1"})
    assert invariants_ok(g)


def test_doppelganger_copies_a_pending_antimatter_with_the_being_on_the_board():
    g = game({**DOPPEL_BOARD, (6, 5): "c1"}, [DOPPEL, ANTI])
    warp(g, ANTI)
    target(g, sq(6, 3), E + 8)  # (6,4) empty, (6,2) empty: c0 to (6,4), c1 to (6,2)
    summon(g, DOPPEL, sq(3, 6), pattern=DOPPEL_PAT)
    assert (sq(6, 3), E + 8) in targets(g) and not can_skip(g)
    target(g, sq(6, 3), E + 8)  # c0 to (6,4) takes your own c0, c1 to (6,2) takes the c1
    assert effect_over(g) and pending(g) == ANTI
    is_board(g, {**DOPPEL_BOARD, (3, 6): "c0", (6, 4): "c0", (6, 2): "c1", (6, 5): "c1"})
    assert g.s[DESTROYED + 4 + K.COMMON] == 1
    assert invariants_ok(g)


def test_in_team_play_the_doppelganger_copies_only_its_own_seats_pending_being():
    decks = (EW, "imperial", EW, "sylvan")
    g = Game(board=board_with({**DOPPEL_BOARD}), hands=[[DOPPEL], [], [TRANS], []],
             decks=decks, mode="team-high-form")  # fmt: skip
    g.refresh()
    g.s[PENDING + 2] = card(TRANS)  # the teammate's pending being
    g.refresh()
    summon(g, DOPPEL, sq(3, 6), pattern=DOPPEL_PAT)
    assert effect_over(g) and events(g, K.EV_COPY_WARP) == [] and g.s[ACTIONS_LEFT] == 1


def test_merchant_in_melee_the_release_victim_counts_in_its_colour():
    pieces = {**MERCHANT_BOARD, (6, 6): "h2", (7, 7): "c1"}
    g = game(pieces, [MERCHANT], decks=(EW, "imperial", "highland"), mode="melee")
    warp(g, MERCHANT)
    target(g, sq(6, 6))
    assert g.s[STASIS] == code("h2") and invariants_ok(g)
    summon(g, MERCHANT, sq(3, 5), pattern=MERCHANT_PAT)
    target(g, sq(7, 7))  # colour 2's heroic lands on colour 1's common
    is_board(g, {**MERCHANT_BOARD, (3, 5): "h0", (7, 7): "h2"})
    assert g.s[DESTROYED + 4 + K.COMMON] == 1 and g.s[DESTROYED + 8 + K.HEROIC] == 0
    assert invariants_ok(g)
