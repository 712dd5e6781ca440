"""Warp effects and the pending being (Etherweave): when a warp may be played, what the
pending being may not do, how summoning ends it, the 2-point penalty at the end (High Form,
duel, melee, team play) and in the end-trigger test, and the Etherweave beings whose effect
or warp deals with the pending being, swaps or the extra count.

Boards are {(row, col): token} on an empty board; seat 0 plays Etherweave with two actions.
Red squares: (1,3) (4,4) (5,7) (7,2); green: (2,2) (2,6) (3,8) (4,0) (7,5).
"""

import numpy as np
import pytest

from core import constants as K
from core.checks.invariants import (
    CHECKS,
    INV_PENDING,
)
from core.layout import (
    ACTIONS_LEFT,
    CUR,
    DESTROYED,
    EXTRA_COUNT,
    FIRST,
    GATEWAY,
    PENDING,
    PHASE,
    SCORE,
    SCORE_COLOR,
    TASK_PTS,
    TURN_NO,
    WARP_OPEN,
)
from core.rules.events import log_event
from core.rules.tasks import task_holds
from core.rules.turn import game_over
from core.rules.warp import open_warps_at_turn_start, reacher_after_penalty
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
TRANS = "etherweave/translocationist"
WORM = "etherweave/paradox-worm"
GATE = "etherweave/gate-of-oblivion"
EMPEROR = "etherweave/eternal-emperor"
WARPMASTER = "etherweave/warpmaster"
PATCH = "etherweave/reality-patch"


def card(cid):
    return CONTENT.card_index(cid)


def game(pieces, hand, decks=(EW, "imperial"), mode="high-form", turn=None):
    hands = [list(hand)] + [[] for _ in decks[1:]]
    g = Game(board=board_with(pieces), hands=hands, decks=decks, mode=mode, turn=turn)
    g.refresh()
    return g


def pending(g, seat=0):
    c = int(g.s[PENDING + seat])
    return None if c < 0 else CONTENT.cards[c].id


HAND_MADE_CHECKS = ("pieces", "gateways", "score_events", "pending")


def invariants_ok(g):
    """The invariant checks that hold in a hand-made position (its decks are not full, so
    the card-conservation check does not apply)."""
    ev = g.events()
    return all(CHECKS[name](g.s, T, ev) == 0 for name in HAND_MADE_CHECKS)


def warp(g, cid):
    return g.act(K.OPT_WARP, g.hand_slot(0, cid), 0, 0)


def warp_cards(g):
    return sorted(hand(g)[a] for k, a, _, _ in g.options() if k == K.OPT_WARP)


def effect_over(g):
    return g.s[PHASE] == K.PH_ACTION


def can_skip(g):
    return any(o[0] == K.OPT_SKIP for o in g.options())


def events(g, kind):
    return [tuple(int(x) for x in r[2:]) for r in g.events() if r[0] == kind]


# --- playing a warp ---------------------------------------------------------------------------


def test_warp_costs_no_action_and_leaves_the_card_pending_in_hand():
    g = game({}, [TRANS, WARPMASTER, GATE])
    assert warp_cards(g) == sorted([TRANS, GATE])  # the Warpmaster has no warp effect
    warp(g, TRANS)  # its warp: gain an action
    assert effect_over(g) and g.s[ACTIONS_LEFT] == 3
    assert pending(g) == TRANS and hand(g) == [TRANS, WARPMASTER, GATE]
    assert events(g, K.EV_WARP) == [(0, card(TRANS), 0, 0)]
    assert warp_cards(g) == []  # at most one pending being
    discardable = {hand(g)[a] for k, a, _, _ in g.options() if k == K.OPT_DISCARD}
    assert discardable == {WARPMASTER, GATE}  # the pending being cannot be discarded


def test_no_warp_in_the_first_round():
    g = game({}, [TRANS], turn={"first-round": True})
    assert warp_cards(g) == []
    assert g.s[WARP_OPEN] == 0


def test_the_first_round_ends_when_the_first_seat_starts_its_second_normal_turn():
    s = np.zeros_like(Game().s)
    s[FIRST] = 1
    for turn_no, seat, extra, opened in ((1, 1, 0, 0), (2, 0, 0, 0), (3, 1, 1, 0), (3, 1, 0, 1)):
        s[WARP_OPEN] = 0
        s[TURN_NO] = turn_no
        s[EXTRA_COUNT] = 5
        open_warps_at_turn_start(s, seat, extra)
        assert s[WARP_OPEN] == opened and s[EXTRA_COUNT] == 0


def test_the_pending_being_is_not_returned_in_the_discard_step():
    g = game({}, [TRANS, WARPMASTER, GATE])
    warp(g, TRANS)
    g.act(K.OPT_DISCARD, g.hand_slot(0, WARPMASTER), 0, 0)
    returnable = {hand(g)[a] for k, a, _, _ in g.options() if k == K.OPT_RETURN}
    assert returnable == {GATE}


TRANS_BOARD = {(3, 6): "c0", (4, 4): "c0", (5, 4): "c0", (5, 5): "c0"}
TRANS_PAT = at((3, 6), (4, 4), (5, 4), (5, 5))


def test_summoning_the_pending_being_ends_the_pending_state():
    g = game(TRANS_BOARD, [TRANS])
    warp(g, TRANS)
    summon(g, TRANS, sq(4, 5), pattern=TRANS_PAT)
    assert pending(g) is None
    assert invariants_ok(g)


# --- the causality penalty --------------------------------------------------------------------


def _end(g):
    game_over(g.s, T, g.ev, 0)
    assert invariants_ok(g)


def test_penalty_in_high_form_comes_off_the_score_not_the_tasks():
    g = game({(4, 4): "l0"}, [TRANS])
    g.s[TASK_PTS] = 0
    g.s[PENDING] = card(TRANS)
    _end(g)
    assert g.s[SCORE] == 1 - 2 and g.s[TASK_PTS] == 0
    assert events(g, K.EV_SCORE) == [(0, -2, K.SR_PENALTY, 0)]


def test_penalty_in_the_duel():
    g = game({}, [TRANS], mode="deathmatch")
    g.s[PENDING] = card(TRANS)
    _end(g)
    assert g.s[SCORE] == -2 and g.s[SCORE + 1] == 0


def test_no_penalty_without_a_pending_being():
    g = game({}, [TRANS], mode="deathmatch")
    _end(g)
    assert g.s[SCORE] == 0 and events(g, K.EV_SCORE) == []


def test_penalty_in_melee_hits_every_column():
    g = game({}, [TRANS], decks=(EW, "imperial", "highland"), mode="melee")
    g.s[PENDING] = card(TRANS)
    _end(g)
    assert [int(g.s[SCORE_COLOR + c]) for c in range(3)] == [0, -2, -2]
    assert g.s[SCORE] == -2


def test_penalty_in_team_play_per_pending_seat():
    decks = (EW, "imperial", EW, "imperial")
    g = Game(board=board_with({}), hands=[[TRANS], [], [GATE], []], decks=decks,
             mode="team-deathmatch")  # fmt: skip
    g.refresh()
    g.s[PENDING] = card(TRANS)
    g.s[PENDING + 2] = card(GATE)
    _end(g)
    assert g.s[SCORE] == -4 and g.s[SCORE + 1] == 0


def test_the_end_trigger_counts_the_penalty():
    g = game({}, [TRANS], mode="deathmatch")
    g.s[SCORE] = 19
    assert reacher_after_penalty(g.s, 18) == 0
    g.s[PENDING] = card(TRANS)
    assert reacher_after_penalty(g.s, 18) == -1
    g.s[SCORE] = 20
    assert reacher_after_penalty(g.s, 18) == 0
    m = game({}, [TRANS], decks=(EW, "imperial", "highland"), mode="melee")
    m.s[SCORE_COLOR + 2] = 12
    m.s[PENDING] = card(TRANS)
    assert reacher_after_penalty(m.s, 12) == -1
    m.s[PENDING] = -1
    assert reacher_after_penalty(m.s, 12) == 0


# --- Translocationist -------------------------------------------------------------------------


def test_translocationist_swaps_two_heroics_with_commons():
    g = game({**TRANS_BOARD, (7, 7): "h0", (1, 1): "h0", (6, 6): "c1"}, [TRANS])
    summon(g, TRANS, sq(4, 5), pattern=TRANS_PAT)
    t = targets(g)
    assert (sq(7, 7), sq(4, 5)) in t and (sq(7, 7), sq(6, 6)) not in t and can_skip(g)
    target(g, sq(7, 7), sq(3, 6))
    target(g, sq(1, 1), sq(4, 4))
    assert effect_over(g)
    is_board(g, {**TRANS_BOARD, (4, 5): "c0", (7, 7): "c0", (3, 6): "h0", (1, 1): "c0",
                 (4, 4): "h0", (6, 6): "c1"})  # fmt: skip
    assert events(g, K.EV_SWAP) == [(0, sq(7, 7), sq(3, 6), 0), (0, sq(1, 1), sq(4, 4), 0)]
    assert g.s[DESTROYED + 4 + K.COMMON] == 0


# --- Paradox Worm -----------------------------------------------------------------------------

WORM_BOARD = {(3, 4): "c0", (4, 2): "c0", (4, 3): "c0"}
WORM_PAT = at((3, 4), (4, 2), (4, 3))


def test_paradox_worm_swaps_with_an_enemy_piece_of_the_same_rank_and_the_gateway_follows():
    g = game({**WORM_BOARD, (6, 6): "c1", (6, 2): "h1"}, [WORM], decks=(EW, "nethervoid"))
    g.s[GATEWAY + 1] = sq(6, 6)
    g.refresh()
    summon(g, WORM, sq(3, 5), pattern=WORM_PAT)
    t = targets(g)
    assert (sq(4, 2), sq(6, 6)) in t and (sq(3, 5), sq(6, 6)) in t
    assert all(b != sq(6, 2) for _, b in t) and can_skip(g)
    target(g, sq(4, 2), sq(6, 6))
    assert effect_over(g)
    is_board(g, {**WORM_BOARD, (3, 5): "c0", (4, 2): "c1", (6, 6): "c0", (6, 2): "h1"})
    assert g.s[GATEWAY + 1] == sq(4, 2)  # the Gateway mark stays on its piece
    assert invariants_ok(g)


def test_paradox_worm_warp_upgrades_an_enemy_common_and_may_discard_itself():
    g = game({(6, 6): "c1"}, [WORM])
    warp(g, WORM)
    # the only enemy common is upgraded without asking; then the yes/no on the pending being
    assert g.board()[6].split()[6] == "h1"
    assert targets(g) == [(card(WORM), -1)] and can_skip(g)
    target(g, card(WORM))
    assert effect_over(g) and pending(g) is None and hand(g) == [] and discards(g) == [WORM]
    assert g.s[ACTIONS_LEFT] == 2
    assert invariants_ok(g)


def test_paradox_worm_warp_may_keep_itself_pending():
    g = game({(6, 6): "c1"}, [WORM])
    warp(g, WORM)
    skip(g)
    assert effect_over(g) and pending(g) == WORM and hand(g) == [WORM]


# --- Gate of Oblivion -------------------------------------------------------------------------

GATE_BOARD = {(3, 3): "c0", (3, 5): "c0", (4, 3): "c0", (4, 5): "c0"}
GATE_PAT = at((3, 3), (3, 5), (4, 3), (4, 5))


def test_gate_of_oblivion_destroys_the_purple_square_then_may_destroy_on_a_mark():
    g = game({**GATE_BOARD, (4, 4): "h1", (2, 4): "c1", (3, 6): "l1", (0, 4): "c1"}, [GATE])
    summon(g, GATE, sq(3, 4), pattern=GATE_PAT)
    # the purple square's piece went without asking; legendary pieces are spared on marks
    assert targets(g) == [(sq(2, 4), -1)] and can_skip(g)
    target(g, sq(2, 4))
    assert effect_over(g)
    is_board(g, {**GATE_BOARD, (3, 4): "h0", (3, 6): "l1", (0, 4): "c1"})
    assert g.s[DESTROYED + 4 + K.HEROIC] == 1 and g.s[DESTROYED + 4 + K.COMMON] == 1


def test_gate_of_oblivion_warp_counts_each_destroyed_piece_twice():
    g = game({**GATE_BOARD, (4, 4): "h1", (2, 4): "c1"}, [GATE])
    warp(g, GATE)
    assert g.s[EXTRA_COUNT] == 1 and pending(g) == GATE
    summon(g, GATE, sq(3, 4), pattern=GATE_PAT)  # summoning it ends the pending state
    target(g, sq(2, 4))
    assert pending(g) is None
    assert g.s[DESTROYED + 4 + K.HEROIC] == 2 and g.s[DESTROYED + 4 + K.COMMON] == 2
    assert [e[3] for e in events(g, K.EV_DESTROY)] == [2, 2]  # the logged weights
    assert invariants_ok(g)


# After the warp a conversion counts one more destroyed piece, as a destruction does: the
# rules count a converted enemy piece as destroyed (reference fact 41) and BGA's conversion
# goes through the same destroyed-piece tally (the card text, "when you destroy a piece",
# does not decide; BGA followed). Without the warp a conversion counts one (test_flares.py).
F45 = "flares/f45"
CONVERTED = (2, 6)  # the enemy common the 4/5 flare's lower half converts
# enemy commons that only make the flare's lower half playable (9 more pieces than seat 0's)
FILLER = {(8, c): "c1" for c in range(2, 7)} | {(7, c): "c1" for c in range(1, 7)}


def _convert_with_f45(g):
    g.act(K.OPT_FLARE, g.hand_slot(0, F45), 1, 0)
    assert [e[5] for e in g.events() if e[0] == K.EV_FLARE] == [2]  # the lower half only
    g.act(K.OPT_TARGET, sq(*CONVERTED), -1, 1)  # the second choice: convert
    assert effect_over(g) and g.board()[CONVERTED[0]].split()[CONVERTED[1]] == "c0"


def test_high_form_a_conversion_after_the_warp_counts_for_destruction_tasks():
    devastation = CONTENT.task_names.index("Devastation")  # 4 enemy pieces this turn
    pieces = {**GATE_BOARD, (4, 4): "c1", CONVERTED: "c1", **FILLER}
    g = game(pieces, [GATE, F45])
    warp(g, GATE)
    _convert_with_f45(g)
    assert g.s[DESTROYED + 4 + K.COMMON] == 2  # the converted common, counted twice
    summon(g, GATE, sq(3, 4), pattern=GATE_PAT)  # destroys the purple square's common
    assert effect_over(g)
    is_board(g, {**GATE_BOARD, (3, 4): "h0", CONVERTED: "c0", **FILLER})
    assert g.s[DESTROYED + 4 + K.COMMON] == 4  # 2 for the conversion, 2 for the destruction
    assert task_holds(g.s, T, devastation, 0)
    assert invariants_ok(g)


def test_high_form_without_the_warp_a_conversion_counts_once():
    devastation = CONTENT.task_names.index("Devastation")
    destruction = CONTENT.task_names.index("Destruction")  # 3 enemy pieces
    pieces = {**GATE_BOARD, (4, 4): "c1", CONVERTED: "c1", **FILLER}
    g = game(pieces, [GATE, F45])
    _convert_with_f45(g)
    summon(g, GATE, sq(3, 4), pattern=GATE_PAT)
    assert g.s[DESTROYED + 4 + K.COMMON] == 2
    assert not task_holds(g.s, T, destruction, 0) and not task_holds(g.s, T, devastation, 0)
    assert invariants_ok(g)


@pytest.mark.parametrize("warped", [True, False])
def test_deathmatch_a_conversion_after_the_warp_scores_a_pair_of_commons(warped):
    g = game({CONVERTED: "c1", **FILLER}, [GATE, F45], mode="deathmatch")
    # open the turn in the log as a game does, so the checker rebuilds this turn's points
    log_event(g.s, g.ev, K.EV_TURN, 0, int(g.s[ACTIONS_LEFT]), 0, 0)
    if warped:
        warp(g, GATE)
    _convert_with_f45(g)
    assert g.s[DESTROYED + 4 + K.COMMON] == (2 if warped else 1)
    g.act(K.OPT_PLACE, sq(0, 4), 0, 0)
    g.act(K.OPT_PLACE, sq(1, 4), 0, 0)  # the last action
    if not warped:  # the Gate's warp is still on offer, so the turn waits to be ended
        g.act(K.OPT_END_TURN)
    assert g.s[CUR] == 1  # the turn ended and was scored
    # two commons make a point; a single one is lost (the flare gave seat 1 its point)
    scored = [e for e in events(g, K.EV_SCORE) if e[2] == K.SR_DESTRUCTION]
    assert scored == ([(0, 1, K.SR_DESTRUCTION, 0)] if warped else [])
    assert (g.s[SCORE], g.s[SCORE + 1]) == ((1 if warped else 0), 1)
    assert invariants_ok(g)


def test_gate_of_oblivion_with_an_empty_purple_square():
    g = game({**GATE_BOARD, (2, 4): "h1"}, [GATE])
    summon(g, GATE, sq(3, 4), pattern=GATE_PAT)
    assert targets(g) == [(sq(2, 4), -1)] and can_skip(g)
    skip(g)
    assert effect_over(g)


# --- Eternal Emperor --------------------------------------------------------------------------

EMP_BOARD = {(2, 4): "c0", (3, 4): "c0", (4, 4): "c0", (4, 5): "c0"}
EMP_PAT = at((2, 4), (3, 4), (4, 4), (4, 5))


def test_eternal_emperor_does_its_warp_as_its_effect():
    g = game({**EMP_BOARD, (7, 7): "h0"}, [EMPEROR])
    summon(g, EMPEROR, sq(3, 5), pattern=EMP_PAT)
    t = targets(g)
    assert can_skip(g) and (sq(0, 4), 0) in t  # put a common anywhere
    assert (sq(7, 7), sq(6, 6)) in t and (sq(2, 4), sq(1, 4)) in t  # the two kinds of step
    target(g, sq(0, 4), 0)
    assert effect_over(g)
    is_board(g, {**EMP_BOARD, (3, 5): "h0", (7, 7): "h0", (0, 4): "c0"})


def test_eternal_emperor_after_its_warp_this_turn_does_nothing():
    g = game({**EMP_BOARD}, [EMPEROR])
    warp(g, EMPEROR)
    assert not can_skip(g)  # the warp is compulsory
    target(g, sq(8, 4), 0)
    assert effect_over(g) and pending(g) == EMPEROR
    summon(g, EMPEROR, sq(3, 5), pattern=EMP_PAT)
    assert effect_over(g) and pending(g) is None
    is_board(g, {**EMP_BOARD, (8, 4): "c0", (3, 5): "h0"})


# --- Warpmaster -------------------------------------------------------------------------------

WM_BOARD = {(2, 4): "c0", (4, 3): "c0", (5, 4): "c0"}


def test_warpmaster_returns_the_pending_being_to_the_hand():
    g = game({**WM_BOARD}, [WARPMASTER, TRANS])
    warp(g, TRANS)
    summon(g, WARPMASTER, sq(4, 5), pattern=at((2, 4), (4, 3), (5, 4)))
    t = targets(g)
    assert (card(TRANS), -1) in t and (sq(4, 5), sq(3, 5)) in t and can_skip(g)
    target(g, card(TRANS))
    assert effect_over(g) and pending(g) is None and hand(g) == [TRANS]
    assert events(g, K.EV_RETURN_PENDING) == [(0, card(TRANS), 0, 0)]


def test_warpmaster_without_a_pending_being_may_step():
    g = game({**WM_BOARD}, [WARPMASTER])
    summon(g, WARPMASTER, sq(4, 5), pattern=at((2, 4), (4, 3), (5, 4)))
    assert all(a == sq(4, 5) for a, _ in targets(g))
    target(g, sq(4, 5), sq(4, 6))
    assert effect_over(g)
    is_board(g, {**WM_BOARD, (4, 6): "h0"})


# --- Reality Patch ----------------------------------------------------------------------------

PATCH_BOARD = {(3, 5): "c0", (4, 4): "c0", (4, 6): "c0", (5, 5): "c0"}


def test_reality_patch_destroys_discards_the_pending_being_and_a_card():
    g = game({**PATCH_BOARD, (1, 1): "h1", (7, 7): "h0"}, [PATCH, TRANS, WORM],
             mode="deathmatch")  # fmt: skip
    warp(g, TRANS)
    summon(g, PATCH, sq(4, 5))
    assert targets(g) == [(sq(1, 1), -1)] and can_skip(g)  # enemy heroic pieces only
    target(g, sq(1, 1))
    assert targets(g) == [(card(TRANS), -1)] and can_skip(g)
    target(g, card(TRANS))
    assert pending(g) is None
    assert targets(g) == [(0, -1)]  # the Worm, the only card left in hand
    target(g, 0)
    assert effect_over(g) and hand(g) == [] and discards(g) == [TRANS, WORM, PATCH]
    is_board(g, {**PATCH_BOARD, (4, 5): "h0", (7, 7): "h0"})
    assert invariants_ok(g)


def test_reality_patch_never_offers_the_pending_being_as_a_hand_card():
    g = game({**PATCH_BOARD}, [PATCH, TRANS, WORM])
    warp(g, TRANS)
    summon(g, PATCH, sq(4, 5))
    skip(g)  # keep the pending being
    assert [hand(g)[a] for a, _ in targets(g)] == [WORM]
    skip(g)
    assert effect_over(g) and pending(g) == TRANS and hand(g) == [TRANS, WORM]


def test_reality_patch_one_heroic_in_each_enemy_colour_in_melee():
    g = game({**PATCH_BOARD, (1, 1): "h1", (1, 2): "h1", (7, 7): "h2"}, [PATCH],
             decks=(EW, "imperial", "highland"), mode="melee")  # fmt: skip
    summon(g, PATCH, sq(4, 5))
    target(g, sq(1, 1))
    assert targets(g) == [(sq(7, 7), -1)]  # colour 1 is done
    target(g, sq(7, 7))
    assert effect_over(g) and g.s[CUR] == 0
    assert g.s[DESTROYED + 4 + K.HEROIC] == 1 and g.s[DESTROYED + 8 + K.HEROIC] == 1


def test_the_invariant_checker_sees_a_bad_pending_being():
    g = game({}, [TRANS, WARPMASTER])
    assert CHECKS["pending"](g.s, T, g.events()) == 0
    g.s[PENDING] = card(GATE)  # not in the hand
    assert CHECKS["pending"](g.s, T, g.events()) == INV_PENDING
    g.s[PENDING] = card(WARPMASTER)  # in the hand, but no warp
    assert CHECKS["pending"](g.s, T, g.events()) == INV_PENDING
    g.s[PENDING] = card(TRANS)
    assert CHECKS["pending"](g.s, T, g.events()) == 0
