"""One scenario per Nethervoid being: summon it, make fixed choices, check the exact board,
the Gateway and the counters.

Boards are given as {(row, col): token} on an empty board (``board_with``); seat 0 plays
Nethervoid and is to move with two actions, so one is left after a summon. ``gw`` sets a
seat's Gateway before the summon. Red squares: (1,3) (4,4) (5,7) (7,2); green: (2,2) (2,6)
(3,8) (4,0) (7,5). Squares are row * 9 + col (``sq``).
"""

import numpy as np

from core import constants as K
from core.layout import (
    ACTIONS_LEFT,
    CUR,
    DECK,
    DECK_CAP,
    DECK_CNT,
    DECK_HEAD,
    FDISC_N,
    GATEWAY,
    HAND_N,
    IMPRO_LEFT,
    LEGENDS_SUMMONED,
    LSTOCK,
    SCORE,
    SCORE_COLOR,
    SUMMON_COLOUR,
)
from core.summon.patterns import pattern_squares
from tests.support.harness import (
    CONTENT,
    Game,
    T,
    at,
    board_with,
    can_skip,
    destroyed,
    discard_pile,
    effect_over,
    events,
    is_board,
    skip,
    sq,
    summon,
    target,
    targets,
)

C, H, L = K.COMMON, K.HEROIC, K.LEGENDARY
NV = "nethervoid"


def card(cid):
    return CONTENT.card_index(cid)


def game(pieces, hand, gw=None, decks=(NV, "imperial"), mode="high-form", actions=None):
    hands = [list(hand)] + [[] for _ in decks[1:]]
    g = Game(board=board_with(pieces), hands=hands, decks=decks, mode=mode)
    for seat, where in (gw or {}).items():
        g.s[GATEWAY + seat] = sq(*where)
    if actions is not None:
        g.s[ACTIONS_LEFT] = actions
    g.refresh()
    return g


def gateway(g, seat=0):
    q = int(g.s[GATEWAY + seat])
    return None if q < 0 else (q // 9, q % 9)


# --- Shadow Imp -----------------------------------------------------------------------------------

IMP = {(3, 3): "c0", (4, 5): "c0"}


def test_shadow_imp_gateway_follows_in_the_same_direction():
    g = game({**IMP, (6, 6): "c0", (5, 6): "c1"}, ["nethervoid/shadow-imp"], gw={0: (6, 6)})
    summon(g, "nethervoid/shadow-imp", sq(4, 4), pattern=at((3, 3), (4, 5)))
    assert gateway(g) == (6, 6)  # a common being does not take a common Gateway's mark
    target(g, sq(4, 4), sq(3, 4))  # north
    assert targets(g) == [(sq(6, 6), sq(5, 6))] and can_skip(g)  # north only, combat
    target(g, sq(6, 6), sq(5, 6))
    assert effect_over(g)
    is_board(g, {**IMP, (3, 4): "c0", (5, 6): "c0"})
    assert gateway(g) == (5, 6) and destroyed(g, 1, C) == 1


def test_shadow_imp_that_is_the_gateway_moves_alone():
    g = game(dict(IMP), ["nethervoid/shadow-imp"])
    summon(g, "nethervoid/shadow-imp", sq(4, 4), pattern=at((3, 3), (4, 5)))
    assert gateway(g) == (4, 4)  # no Gateway before: the Imp becomes it
    assert events(g, K.EV_GATEWAY) == [(0, sq(4, 4), C, 0)]
    target(g, sq(4, 4), sq(5, 4))
    assert effect_over(g)
    is_board(g, {**IMP, (5, 4): "c0"})
    assert gateway(g) == (5, 4)


# --- Flame Imp ------------------------------------------------------------------------------------

FLAME = {(4, 2): "c0", (5, 3): "c0"}


def test_flame_imp_destroys_a_common_next_to_the_gateway():
    pieces = {**FLAME, (6, 6): "h0", (6, 7): "c1", (5, 6): "c0", (7, 6): "h1", (1, 1): "c1"}
    g = game(pieces, ["nethervoid/flame-imp"], gw={0: (6, 6)})
    summon(g, "nethervoid/flame-imp", sq(4, 4), pattern=at((4, 2), (5, 3)))
    assert targets(g) == [(sq(5, 6), -1), (sq(6, 7), -1)] and can_skip(g)
    target(g, sq(6, 7))
    assert effect_over(g)
    del pieces[(6, 7)]
    is_board(g, {**pieces, (4, 4): "c0"})
    assert destroyed(g, 1, C) == 1 and gateway(g) == (6, 6)


def test_flame_imp_without_a_gateway_becomes_it():
    g = game({**FLAME, (3, 4): "c1"}, ["nethervoid/flame-imp"])
    summon(g, "nethervoid/flame-imp", sq(4, 4), pattern=at((4, 2), (5, 3)))
    assert gateway(g) == (4, 4)
    assert targets(g) == [(sq(3, 4), -1), (sq(5, 3), -1)]  # around the Imp, its own too
    target(g, sq(3, 4))
    assert effect_over(g)
    is_board(g, {**FLAME, (4, 4): "c0"})


# --- Gate Keeper ----------------------------------------------------------------------------------

KEEPER = {(3, 4): "c0", (4, 3): "c0", (4, 5): "c0"}


def test_gate_keeper_upgraded_piece_becomes_the_gateway():
    g = game({**KEEPER, (6, 6): "c0"}, ["nethervoid/gate-keeper"], gw={0: (6, 6)})
    summon(g, "nethervoid/gate-keeper", sq(4, 4), pattern=at((3, 4), (4, 3), (4, 5)))
    assert (sq(0, 4), 0) in targets(g) and (sq(4, 3), -1) in targets(g) and can_skip(g)
    target(g, sq(4, 3))  # the upgrade alternative
    assert effect_over(g)
    is_board(g, {**KEEPER, (6, 6): "c0", (4, 4): "c0", (4, 3): "h0"})
    assert gateway(g) == (4, 3)


def test_gate_keeper_placed_piece_becomes_the_gateway():
    g = game({**KEEPER, (6, 6): "c0"}, ["nethervoid/gate-keeper"], gw={0: (6, 6)})
    summon(g, "nethervoid/gate-keeper", sq(4, 4), pattern=at((3, 4), (4, 3), (4, 5)))
    target(g, sq(0, 4), 0)
    assert effect_over(g)
    is_board(g, {**KEEPER, (6, 6): "c0", (4, 4): "c0", (0, 4): "c0"})
    assert gateway(g) == (0, 4)


# --- Demon of Gluttony ----------------------------------------------------------------------------

GLUT = {(5, 3): "c0", (5, 4): "c0", (5, 5): "c0"}


def test_gluttony_two_kills_upgrade_and_gateway():
    pieces = {**GLUT, (1, 4): "c0", (3, 4): "c1", (2, 4): "h1"}
    g = game(pieces, ["nethervoid/demon-of-gluttony"], gw={0: (1, 4)})
    summon(g, "nethervoid/demon-of-gluttony", sq(4, 4), pattern=at((5, 3), (5, 4), (5, 5)))
    target(g, sq(4, 4), sq(3, 4))  # destroys c1: upgraded at once
    assert g.board()[3].split()[4] == "h0"
    target(g, sq(3, 4), sq(2, 4))  # a heroic may now take the heroic
    assert effect_over(g)
    is_board(g, {**GLUT, (1, 4): "c0", (2, 4): "h0"})
    assert gateway(g) == (2, 4)
    assert destroyed(g, 1, C) == 1 and destroyed(g, 1, H) == 1


def test_gluttony_without_a_kill_stays_common():
    g = game({**GLUT, (1, 4): "c0"}, ["nethervoid/demon-of-gluttony"], gw={0: (1, 4)})
    summon(g, "nethervoid/demon-of-gluttony", sq(4, 4), pattern=at((5, 3), (5, 4), (5, 5)))
    target(g, sq(4, 4), sq(3, 4))
    assert effect_over(g)
    is_board(g, {**GLUT, (1, 4): "c0", (3, 4): "c0"})
    assert gateway(g) == (1, 4)


def test_gluttony_one_kill_upgrades_but_keeps_the_gateway():
    pieces = {**GLUT, (1, 4): "c0", (3, 4): "c1"}
    g = game(pieces, ["nethervoid/demon-of-gluttony"], gw={0: (1, 4)})
    summon(g, "nethervoid/demon-of-gluttony", sq(4, 4), pattern=at((5, 3), (5, 4), (5, 5)))
    target(g, sq(4, 4), sq(3, 4))
    target(g, sq(3, 4), sq(3, 5))
    assert effect_over(g)
    is_board(g, {**GLUT, (1, 4): "c0", (3, 5): "h0"})
    assert gateway(g) == (1, 4)


# --- Demon of Pride -------------------------------------------------------------------------------

PRIDE = {(5, 4): "c0", (6, 4): "c0", (6, 5): "c0"}


def test_pride_upgraded_becomes_gateway_then_steps():
    g = game({**PRIDE, (1, 4): "h0", (3, 4): "h1"}, ["nethervoid/demon-of-pride"], gw={0: (1, 4)})
    summon(g, "nethervoid/demon-of-pride", sq(4, 4), pattern=at((5, 4), (6, 4), (6, 5)))
    assert gateway(g) == (4, 4) and g.board()[4].split()[4] == "h0"
    assert can_skip(g)
    target(g, sq(4, 4), sq(3, 4))  # combat: heroic takes heroic
    assert effect_over(g)
    is_board(g, {**PRIDE, (1, 4): "h0", (3, 4): "h0"})
    assert gateway(g) == (3, 4) and destroyed(g, 1, H) == 1


# --- Acolyte of Destruction -----------------------------------------------------------------------

ACOLYTE_D = {(5, 3): "c0", (5, 5): "c0", (7, 4): "c0"}


def test_acolyte_of_destruction_second_kill_with_gateway_on_red():
    pieces = {**ACOLYTE_D, (5, 7): "h0", (2, 2): "c1", (2, 3): "h1", (0, 4): "h1"}
    g = game(pieces, ["nethervoid/acolyte-of-destruction"], gw={0: (5, 7)})
    summon(g, "nethervoid/acolyte-of-destruction", sq(4, 4), pattern=at((5, 3), (5, 5), (7, 4)))
    assert gateway(g) == (5, 7)  # a heroic Gateway keeps its mark
    assert not can_skip(g) and (sq(5, 3), -1) in targets(g)  # any colour, compulsory
    target(g, sq(2, 2))
    assert targets(g) == [(sq(2, 3), -1)] and can_skip(g)
    target(g, sq(2, 3))
    assert effect_over(g)
    is_board(g, {**ACOLYTE_D, (5, 7): "h0", (0, 4): "h1", (4, 4): "h0"})
    assert destroyed(g, 1, C) == 1 and destroyed(g, 1, H) == 1


def test_acolyte_of_destruction_gateway_off_red():
    pieces = {**ACOLYTE_D, (6, 6): "h0", (2, 2): "c1", (2, 3): "h1"}
    g = game(pieces, ["nethervoid/acolyte-of-destruction"], gw={0: (6, 6)})
    summon(g, "nethervoid/acolyte-of-destruction", sq(4, 4), pattern=at((5, 3), (5, 5), (7, 4)))
    target(g, sq(2, 2))
    assert effect_over(g)
    is_board(g, {**ACOLYTE_D, (6, 6): "h0", (2, 3): "h1", (4, 4): "h0"})


# --- Acolyte of Growth ----------------------------------------------------------------------------

GROWTH = {(3, 3): "c0", (3, 5): "c0", (4, 3): "c0", (4, 5): "c0"}


def test_acolyte_of_growth_heroic_next_to_the_new_common_on_green():
    g = game({**GROWTH, (2, 6): "h0"}, ["nethervoid/acolyte-of-growth"], gw={0: (2, 6)})
    summon(g, "nethervoid/acolyte-of-growth", sq(4, 4), pattern=at((3, 3), (3, 5), (4, 3), (4, 5)))
    assert not can_skip(g)
    target(g, sq(0, 4), 0)
    assert not can_skip(g) and (sq(1, 4), 0) in targets(g) and len(targets(g)) == 5
    target(g, sq(1, 4), 0)
    assert effect_over(g)
    is_board(g, {**GROWTH, (2, 6): "h0", (4, 4): "h0", (0, 4): "c0", (1, 4): "h0"})


def test_acolyte_of_growth_gateway_off_green():
    g = game({**GROWTH, (6, 6): "h0"}, ["nethervoid/acolyte-of-growth"], gw={0: (6, 6)})
    summon(g, "nethervoid/acolyte-of-growth", sq(4, 4), pattern=at((3, 3), (3, 5), (4, 3), (4, 5)))
    target(g, sq(0, 4), 0)
    assert effect_over(g)
    is_board(g, {**GROWTH, (6, 6): "h0", (4, 4): "h0", (0, 4): "c0"})


# --- Power Seeker ---------------------------------------------------------------------------------

SEEKER = {(4, 3): "c0", (4, 5): "c0", (5, 4): "c0", (5, 6): "c0"}


def test_power_seeker_closes_in_and_destroys_the_gateway():
    g = game({**SEEKER, (1, 6): "h0"}, ["nethervoid/power-seeker"], gw={0: (1, 6)})
    summon(g, "nethervoid/power-seeker", sq(4, 2), pattern=at((4, 3), (4, 5), (5, 4), (5, 6)))
    assert gateway(g) == (1, 6)
    # every offered step brings the Seeker strictly closer (king distance 4 -> 3)
    # (its own common on (4,3) is a legal combat victim too)
    assert targets(g) == [(sq(4, 2), sq(3, 3)), (sq(4, 2), sq(4, 3))] and can_skip(g)
    for a, b in [((4, 2), (3, 3)), ((3, 3), (2, 4)), ((2, 4), (1, 5))]:
        target(g, sq(*a), sq(*b))
    target(g, sq(1, 5), sq(1, 6))  # onto its own heroic Gateway: destroyed
    assert effect_over(g)
    is_board(g, {**SEEKER, (1, 6): "h0"})
    assert gateway(g) is None and events(g, K.EV_GATEWAY_LOST) == [(0, sq(1, 6), 0, 0)]


def test_power_seeker_that_is_the_gateway_takes_one_standard_step():
    g = game(dict(SEEKER), ["nethervoid/power-seeker"])
    summon(g, "nethervoid/power-seeker", sq(4, 2), pattern=at((4, 3), (4, 5), (5, 4), (5, 6)))
    assert gateway(g) == (4, 2)
    target(g, sq(4, 2), sq(3, 2))
    assert effect_over(g)
    is_board(g, {**SEEKER, (3, 2): "h0"})
    assert gateway(g) == (3, 2)


# --- Hell Hound -----------------------------------------------------------------------------------

HOUND = {(4, 3): "c0", (4, 4): "c0", (5, 2): "c0", (5, 5): "c0"}


def _with_deck(g, cards):
    for k, cid in enumerate(cards):
        g.s[DECK + k] = card(cid)
    g.s[DECK_HEAD] = 0
    g.s[DECK_CNT] = len(cards)


def _deck(g):
    return [int(g.s[DECK + (g.s[DECK_HEAD] + k) % DECK_CAP]) for k in range(g.s[DECK_CNT])]


def test_hell_hound_goes_under_the_deck():
    g = game({**HOUND, (6, 6): "h0", (3, 5): "h1"}, ["nethervoid/hell-hound"], gw={0: (6, 6)})
    _with_deck(g, ["nethervoid/flame-imp"])
    summon(g, "nethervoid/hell-hound", sq(4, 5), pattern=at((4, 3), (4, 4), (5, 2), (5, 5)))
    target(g, sq(3, 5))
    assert effect_over(g)
    is_board(g, {**HOUND, (6, 6): "h0", (4, 5): "h0"})
    assert _deck(g) == [card("nethervoid/flame-imp"), card("nethervoid/hell-hound")]
    assert discard_pile(g) == [] and destroyed(g, 1, H) == 1


def test_hell_hound_after_a_legend_goes_to_the_discard_pile():
    g = game({**HOUND, (6, 6): "h0", (3, 5): "l1"}, ["nethervoid/hell-hound"], gw={0: (6, 6)})
    _with_deck(g, ["nethervoid/flame-imp"])
    summon(g, "nethervoid/hell-hound", sq(4, 5), pattern=at((4, 3), (4, 4), (5, 2), (5, 5)))
    target(g, sq(3, 5))
    assert effect_over(g)
    assert _deck(g) == [card("nethervoid/flame-imp")]
    assert discard_pile(g) == [card("nethervoid/hell-hound")]


def test_hell_hound_with_an_empty_deck_goes_to_the_discard_pile():
    g = game({**HOUND, (6, 6): "h0"}, ["nethervoid/hell-hound"], gw={0: (6, 6)})
    summon(g, "nethervoid/hell-hound", sq(4, 5), pattern=at((4, 3), (4, 4), (5, 2), (5, 5)))
    skip(g)
    assert effect_over(g)
    assert _deck(g) == [] and discard_pile(g) == [card("nethervoid/hell-hound")]


# --- Vortex Master --------------------------------------------------------------------------------

VORTEX = {(3, 4): "c0", (4, 3): "c0", (4, 5): "c0", (5, 4): "c0"}


def test_vortex_master_gateway_steps_then_a_neighbour_steps():
    pieces = {**VORTEX, (6, 7): "h0", (5, 7): "c1", (4, 6): "c0"}
    g = game(pieces, ["nethervoid/vortex-master"], gw={0: (6, 7)})
    summon(g, "nethervoid/vortex-master", sq(6, 4), pattern=at((3, 4), (4, 3), (4, 5), (5, 4)))
    target(g, sq(6, 7), sq(5, 7))
    # own pieces next to the moved Gateway: only (4,6)
    assert {a for a, _ in targets(g)} == {sq(4, 6)} and can_skip(g)
    target(g, sq(4, 6), sq(3, 6))
    assert effect_over(g)
    is_board(g, {**VORTEX, (6, 4): "h0", (5, 7): "h0", (3, 6): "c0"})
    assert gateway(g) == (5, 7) and destroyed(g, 1, C) == 1


def test_vortex_master_second_step_after_skipping_the_first():
    pieces = {**VORTEX, (6, 7): "h0", (6, 6): "c0"}
    g = game(pieces, ["nethervoid/vortex-master"], gw={0: (6, 7)})
    summon(g, "nethervoid/vortex-master", sq(6, 4), pattern=at((3, 4), (4, 3), (4, 5), (5, 4)))
    skip(g)
    target(g, sq(6, 6), sq(7, 6))
    assert effect_over(g)
    is_board(g, {**VORTEX, (6, 4): "h0", (6, 7): "h0", (7, 6): "c0"})


# --- Gate Master ----------------------------------------------------------------------------------

GATE_MASTER = {(3, 4): "c0", (3, 5): "c0", (4, 3): "c0", (4, 5): "c0", (4, 6): "c0"}
GM_PATTERN = at((3, 4), (3, 5), (4, 3), (4, 5), (4, 6))


def test_gate_master_makes_a_legend_and_counts_it_as_summoned():
    g = game(
        {**GATE_MASTER, (7, 4): "h0"}, ["nethervoid/gate-master"], gw={0: (7, 4)},
        mode="deathmatch",
    )  # fmt: skip
    summon(g, "nethervoid/gate-master", sq(4, 4), pattern=GM_PATTERN)
    # the heroic Gateway became legendary (no longer the Gateway); a legend point
    assert g.board()[7].split()[4] == "l0" and gateway(g) is None
    assert g.s[SCORE] == 1 and g.s[LEGENDS_SUMMONED] == 1
    assert events(g, K.EV_LEGEND_SUMMONED) == [(0, sq(4, 4), 0, 0)]
    assert not can_skip(g) and (sq(7, 4), -1) not in targets(g)  # compulsory, no legend
    target(g, sq(4, 5))
    assert effect_over(g)
    is_board(g, {**GATE_MASTER, (7, 4): "l0", (4, 4): "h0"})
    assert gateway(g) == (4, 5)


def test_gate_master_takes_a_common_gateway_and_upgrades_itself():
    g = game({**GATE_MASTER, (1, 4): "c0"}, ["nethervoid/gate-master"], gw={0: (1, 4)},
             mode="deathmatch")  # fmt: skip
    summon(g, "nethervoid/gate-master", sq(4, 4), pattern=GM_PATTERN)
    # the heroic Master took the common Gateway's mark, so the Master itself was upgraded:
    # a legend made, one point; then a new Gateway is chosen
    assert g.board()[4].split()[4] == "l0" and g.s[SCORE] == 1
    target(g, sq(1, 4))
    assert effect_over(g) and gateway(g) == (1, 4)
    is_board(g, {**GATE_MASTER, (1, 4): "c0", (4, 4): "l0"})


def test_gate_master_without_legend_stock_upgrades_nothing():
    g = game({**GATE_MASTER, (7, 4): "h0"}, ["nethervoid/gate-master"], gw={0: (7, 4)})
    g.s[LSTOCK] = 0
    g.refresh()
    summon(g, "nethervoid/gate-master", sq(4, 4), pattern=GM_PATTERN)
    assert g.board()[7].split()[4] == "h0" and g.s[LEGENDS_SUMMONED] == 0
    target(g, sq(4, 4))
    assert effect_over(g) and gateway(g) == (4, 4)


def test_gate_master_in_melee_chooses_the_column():
    g = game(
        {**GATE_MASTER, (7, 4): "h0"},
        ["nethervoid/gate-master"],
        gw={0: (7, 4)},
        decks=(NV, "imperial", "highland"),
        mode="melee",
    )
    summon(g, "nethervoid/gate-master", sq(4, 4), pattern=GM_PATTERN)
    assert targets(g) == [(1, -1), (2, -1)] and not can_skip(g)
    target(g, 2)
    assert g.s[SCORE_COLOR + 2] == 1 and g.s[SCORE_COLOR + 1] == 0
    target(g, sq(4, 4))
    assert effect_over(g) and gateway(g) == (4, 4)


# --- Hell Rider -----------------------------------------------------------------------------------

RIDER = {(4, 5): "c0", (4, 6): "c0", (5, 4): "c0"}


def test_hell_rider_summoned_on_its_gateway_takes_one_step():
    g = game({**RIDER, (4, 4): "c0"}, ["nethervoid/hell-rider"], gw={0: (4, 4)})
    summon(g, "nethervoid/hell-rider", sq(4, 4), pattern=at((4, 5), (4, 6), (5, 4)))
    # the oversummon destroyed the old Gateway; the Rider is marked after it
    assert gateway(g) == (4, 4)
    assert events(g, K.EV_GATEWAY_LOST) == [(0, sq(4, 4), 0, 0)]
    target(g, sq(4, 4), sq(3, 4))
    assert effect_over(g)
    is_board(g, {**RIDER, (3, 4): "h0"})
    assert gateway(g) == (3, 4)


def test_hell_rider_not_the_gateway_takes_three_steps():
    pieces = {**RIDER, (4, 4): "c0", (7, 4): "h0"}
    g = game(pieces, ["nethervoid/hell-rider"], gw={0: (7, 4)})
    summon(g, "nethervoid/hell-rider", sq(4, 4), pattern=at((4, 5), (4, 6), (5, 4)))
    assert gateway(g) == (7, 4)
    for a, b in [((4, 4), (3, 4)), ((3, 4), (2, 4)), ((2, 4), (1, 4))]:
        target(g, sq(*a), sq(*b))
    assert effect_over(g)
    is_board(g, {**RIDER, (7, 4): "h0", (1, 4): "h0"})


# --- Demon of Wrath -------------------------------------------------------------------------------

WRATH = {(4, 5): "c0", (5, 3): "c0", (5, 5): "c0", (6, 4): "c0"}


def test_wrath_destroys_enemy_commons_next_to_the_gateway():
    pieces = {**WRATH, (1, 4): "h0", (0, 4): "c1", (1, 5): "c1", (2, 4): "h1", (1, 3): "c0"}
    g = game(pieces, ["nethervoid/demon-of-wrath"], gw={0: (1, 4)})
    summon(g, "nethervoid/demon-of-wrath", sq(4, 4), pattern=at((4, 5), (5, 3), (5, 5), (6, 4)))
    assert effect_over(g)  # automatic; no step since something was destroyed
    del pieces[(0, 4)], pieces[(1, 5)]
    is_board(g, {**pieces, (4, 4): "h0"})
    assert destroyed(g, 1, C) == 2


def test_wrath_with_none_steps_the_gateway_first():
    pieces = {**WRATH, (1, 4): "h0", (3, 3): "c1", (0, 2): "c1"}
    g = game(pieces, ["nethervoid/demon-of-wrath"], gw={0: (1, 4)})
    summon(g, "nethervoid/demon-of-wrath", sq(4, 4), pattern=at((4, 5), (5, 3), (5, 5), (6, 4)))
    assert can_skip(g)
    target(g, sq(1, 4), sq(2, 4))  # a standard step; now (3,3) is next to it
    assert effect_over(g)
    is_board(g, {**WRATH, (2, 4): "h0", (0, 2): "c1", (4, 4): "h0"})
    assert gateway(g) == (2, 4) and destroyed(g, 1, C) == 1


# --- Demon of Greed -------------------------------------------------------------------------------

GREED = {(3, 3): "c0", (3, 4): "c0", (5, 3): "c0", (5, 5): "c0"}


def test_greed_destroys_two_own_pieces_for_two_actions():
    g = game({**GREED, (7, 4): "h0"}, ["nethervoid/demon-of-greed"], gw={0: (7, 4)})
    summon(g, "nethervoid/demon-of-greed", sq(4, 4), pattern=at((3, 3), (3, 4), (5, 3), (5, 5)))
    assert not can_skip(g) and len(targets(g)) == 4
    target(g, sq(3, 3))
    # the heroic victim: the Demon itself (the heroic Gateway is excluded), automatically
    assert effect_over(g)
    is_board(g, {(3, 4): "c0", (5, 3): "c0", (5, 5): "c0", (7, 4): "h0"})
    assert g.s[ACTIONS_LEFT] == 3 and destroyed(g, 0, C) == 0  # own pieces never count


def test_greed_common_gateway_is_spared():
    g = game({**GREED, (7, 4): "c0", (0, 4): "h0"}, ["nethervoid/demon-of-greed"])
    g.s[GATEWAY] = sq(7, 4)
    g.refresh()
    summon(g, "nethervoid/demon-of-greed", sq(4, 4), pattern=at((3, 3), (3, 4), (5, 3), (5, 5)))
    # the heroic Demon took the common Gateway's mark: now it is the one spared
    assert gateway(g) == (4, 4)
    assert (sq(7, 4), -1) in targets(g)
    target(g, sq(7, 4))
    assert targets(g) == []  # (0,4) was the only heroic candidate: applied at once
    assert effect_over(g) and g.s[ACTIONS_LEFT] == 3
    is_board(g, {**GREED, (4, 4): "h0"})


# --- Demon of Lust --------------------------------------------------------------------------------

LUST = {(5, 4): "c0", (5, 5): "c0", (6, 5): "c0", (6, 6): "c0"}


def test_lust_two_pieces_step_towards_the_gateway():
    pieces = {**LUST, (1, 4): "h0", (2, 5): "c1", (7, 4): "c1"}
    g = game(pieces, ["nethervoid/demon-of-lust"], gw={0: (1, 4)})
    summon(g, "nethervoid/demon-of-lust", sq(4, 4), pattern=at((5, 4), (5, 5), (6, 5), (6, 6)))
    ts = targets(g)
    assert all(T_dist(b) < T_dist(a) and b != sq(1, 4) for a, b in ts)
    assert sq(2, 5) not in {a for a, _ in ts}  # next to the Gateway: only onto it, refused
    target(g, sq(4, 4), sq(3, 4))
    assert sq(3, 4) not in {a for a, _ in targets(g)}  # a different piece
    target(g, sq(7, 4), sq(6, 4))
    assert effect_over(g)
    is_board(g, {**LUST, (1, 4): "h0", (2, 5): "c1", (3, 4): "h0", (6, 4): "c1"})


def T_dist(q):
    return int(T.dist[sq(1, 4), q])


# --- Demon of Sloth -------------------------------------------------------------------------------


def test_sloth_spends_the_remaining_action():
    g = game({(5, 3): "c0", (1, 4): "h0"}, ["nethervoid/demon-of-sloth"], gw={0: (1, 4)})
    summon(g, "nethervoid/demon-of-sloth", sq(4, 4), pattern=at((5, 3)))
    # the spare action is gone, so the turn ended: seat 1 is to move
    assert g.s[CUR] == 1 and events(g, K.EV_LOSE_OWN_ACTION) == [(0, 0, 0, 0)]
    is_board(g, {(5, 3): "c0", (1, 4): "h0", (4, 4): "h0"})
    assert gateway(g) == (1, 4)


def test_sloth_on_the_last_action_destroys_the_gateway():
    g = game({(5, 3): "c0", (1, 4): "h0"}, ["nethervoid/demon-of-sloth"], gw={0: (1, 4)}, actions=1)
    summon(g, "nethervoid/demon-of-sloth", sq(4, 4), pattern=at((5, 3)))
    assert g.s[CUR] == 1 and events(g, K.EV_LOSE_OWN_ACTION) == []
    is_board(g, {(5, 3): "c0", (4, 4): "h0"})
    assert gateway(g) is None and events(g, K.EV_GATEWAY_LOST) == [(0, sq(1, 4), 0, 0)]


# --- Demon of Envy --------------------------------------------------------------------------------


def test_envy_places_until_no_opponent_has_more():
    enemy = {(0, 2): "c1", (0, 3): "c1", (0, 4): "c1", (0, 5): "c1", (0, 6): "c1"}
    enemy |= {(8, 2): "c1", (8, 3): "c1", (8, 4): "c1"}
    mine = {(4, 4): "c0", (3, 3): "c0", (4, 5): "c0", (1, 4): "h0"}
    g = game({**mine, **enemy}, ["nethervoid/demon-of-envy"], gw={0: (1, 4)})
    summon(g, "nethervoid/demon-of-envy", sq(4, 4), pattern=at((3, 3), (4, 5)))
    # 4 pieces against 8: four placements next to the Gateway bring it to 8 against 8
    placed = []
    while not effect_over(g):
        assert not can_skip(g)
        q = min(a for a, _ in targets(g))
        placed.append(q)
        target(g, q, 0)
    assert placed == at((1, 3), (1, 5), (2, 3), (2, 4))
    is_board(
        g,
        {**mine, **enemy, (4, 4): "h0", (1, 3): "c0", (1, 5): "c0", (2, 3): "c0", (2, 4): "c0"},
    )


def test_envy_places_once_when_not_behind():
    mine = {(4, 4): "c0", (3, 3): "c0", (4, 5): "c0", (1, 4): "h0"}
    g = game({**mine, (8, 4): "c1"}, ["nethervoid/demon-of-envy"], gw={0: (1, 4)})
    summon(g, "nethervoid/demon-of-envy", sq(4, 4), pattern=at((3, 3), (4, 5)))
    target(g, sq(0, 4), 0)
    assert effect_over(g)
    is_board(g, {**mine, (4, 4): "h0", (8, 4): "c1", (0, 4): "c0"})


# --- Possessed Summoner ---------------------------------------------------------------------------

POSSESSED = {(4, 5): "c0", (5, 3): "c0", (5, 4): "c0", (6, 4): "c0"}


def test_possessed_summoner_next_summon_uses_the_enemy_pattern():
    pieces = {**POSSESSED, (1, 5): "c1", (2, 7): "c1", (3, 3): "c0", (0, 4): "h1"}
    hand = ["nethervoid/possessed-summoner", "nethervoid/shadow-imp", "flares/f36"]
    g = game(pieces, hand)
    summon(g, "nethervoid/possessed-summoner", sq(4, 4), pattern=at((4, 5), (5, 3), (5, 4), (6, 4)))
    assert gateway(g) == (4, 4)
    ts = targets(g)
    assert ts and all(b == 1 for _, b in ts)  # an enemy common next to an enemy piece
    assert (sq(2, 6), 1) in ts and (sq(3, 4), 1) not in ts
    target(g, sq(2, 6), 1)
    assert g.s[SUMMON_COLOUR] == 1
    target(g, g.hand_slot(0, "flares/f36"))  # discard the flare: one more action
    assert effect_over(g) and g.s[ACTIONS_LEFT] == 2 and g.s[FDISC_N] == 1
    slot = g.hand_slot(0, "nethervoid/shadow-imp")
    rows = [o for o in g.options() if o[0] == K.OPT_SUMMON and o[1] == slot]
    assert rows
    buf = np.zeros(16, np.int64)
    for _, _, o, t in rows:  # every pattern uses colour 1's pieces, never ours
        m = pattern_squares(T, o, t, buf)
        assert all(g.s[int(q)] >> 2 == 1 and g.s[int(q)] != 0 for q in buf[:m])
    _, _, o, t = rows[0]
    g.act(K.OPT_SUMMON, slot, o, t)
    assert g.s[SUMMON_COLOUR] == -1  # spent by that summon
    assert g.board()[t // 9].split()[t % 9] == "c0" and g.s[HAND_N] == 0


def test_possessed_summoner_without_a_flare_gains_nothing():
    pieces = {**POSSESSED, (1, 5): "c1"}
    g = game(pieces, ["nethervoid/possessed-summoner"])
    summon(g, "nethervoid/possessed-summoner", sq(4, 4), pattern=at((4, 5), (5, 3), (5, 4), (6, 4)))
    target(g, sq(0, 5), 1)
    assert effect_over(g) and g.s[ACTIONS_LEFT] == 1 and g.s[SUMMON_COLOUR] == 1


def test_possession_ends_with_the_turn():
    pieces = {**POSSESSED, (1, 5): "c1"}
    g = game(pieces, ["nethervoid/possessed-summoner"])
    summon(g, "nethervoid/possessed-summoner", sq(4, 4), pattern=at((4, 5), (5, 3), (5, 4), (6, 4)))
    target(g, sq(0, 5), 1)
    assert g.s[SUMMON_COLOUR] == 1
    g.act(K.OPT_PLACE, sq(8, 4), 0, 0)  # the last action: the turn ends
    assert g.s[CUR] == 1 and g.s[SUMMON_COLOUR] == -1


def test_possessed_summoner_in_melee_picks_the_enemy_colour():
    pieces = {**POSSESSED, (1, 5): "c1", (7, 3): "c2"}
    g = game(pieces, ["nethervoid/possessed-summoner"], decks=(NV, "imperial", "sylvan"),
             mode="melee")  # fmt: skip
    summon(g, "nethervoid/possessed-summoner", sq(4, 4), pattern=at((4, 5), (5, 3), (5, 4), (6, 4)))
    owners = {b for _, b in targets(g)}
    assert owners == {1, 2} and (sq(7, 4), 2) in targets(g) and (sq(7, 4), 1) not in targets(g)
    target(g, sq(7, 4), 2)
    assert g.s[SUMMON_COLOUR] == 2 and g.board()[7].split()[4] == "c2"


# Melee, possession and improvisation (BGA foundPattern; the card text is silent): one piece of
# a third colour whose improvisation is still unused may stand in for the possessed colour,
# and that improvisation is spent. The Shadow Imp's two cells are (2,1) colour 1 and (3,3)
# colour 2; no pair of colour-1 pieces fits it.
IMP_CELLS = {(2, 1): "c1", (3, 3): "c2"}
MELEE_POSSESSION = {**POSSESSED, (1, 5): "c1", **IMP_CELLS}


def _possessed_in_melee(impro_left):
    hand = ["nethervoid/possessed-summoner", "nethervoid/shadow-imp"]
    g = game(MELEE_POSSESSION, hand, decks=(NV, "imperial", "sylvan"), mode="melee")
    g.s[IMPRO_LEFT] = impro_left
    g.refresh()
    summon(g, "nethervoid/possessed-summoner", sq(4, 4), pattern=at((4, 5), (5, 3), (5, 4), (6, 4)))
    target(g, sq(0, 5), 1)  # colour 1 possessed
    assert effect_over(g) and g.s[SUMMON_COLOUR] == 1 and g.s[ACTIONS_LEFT] == 1
    slot = g.hand_slot(0, "nethervoid/shadow-imp")
    rows = sorted(((a >> 4) - 1, t) for k, a, _, t in g.options() if k == K.OPT_SUMMON)
    return g, slot, rows


def test_possessed_summon_in_melee_may_improvise_with_a_third_colour():
    g, slot, rows = _possessed_in_melee(0b110)  # both improvisations unused
    # both targets of the pair, each needing colour 2's improvisation; never colour 1's
    assert rows == [(2, sq(2, 2)), (2, sq(3, 2))]
    o = next(b for k, a, b, t in g.options() if k == K.OPT_SUMMON and t == sq(3, 2))
    g.act(K.OPT_SUMMON, slot + 16 * 3, o, sq(3, 2))
    assert events(g, K.EV_IMPROVISE) == [(0, 2, 0, 0)]
    assert g.s[IMPRO_LEFT] == 0b010 and g.s[SUMMON_COLOUR] == -1  # both spent
    skip(g)  # the Imp's optional step
    assert effect_over(g)
    is_board(g, {**MELEE_POSSESSION, (4, 4): "h0", (0, 5): "c1", (3, 2): "c0"})
    assert gateway(g) == (4, 4)


def test_possessed_summon_in_melee_without_that_improvisation_left():
    g, _, rows = _possessed_in_melee(0b010)  # colour 2's improvisation already used
    assert rows == []  # colour 1's own improvisation adds nothing to a pattern of colour 1
    assert events(g, K.EV_IMPROVISE) == []


def test_team_play_gateway_is_a_team_colour_piece():
    """Team play: seat 0 (Nethervoid) and seat 2 share colour 0; the Gateway is seat 0's."""
    pieces = {**GATE_MASTER, (7, 4): "h0"}
    g = game(pieces, ["nethervoid/gate-master"], gw={0: (7, 4)},
             decks=(NV, "imperial", "highland", "sylvan"), mode="team-deathmatch")  # fmt: skip
    summon(g, "nethervoid/gate-master", sq(4, 4), pattern=GM_PATTERN)
    assert g.s[SCORE] == 1  # the team's legend point
    target(g, sq(3, 4))
    assert gateway(g) == (3, 4) and g.s[GATEWAY + 2] == -1
