"""One scenario per Everfrost being and per frozen program: summon it, make fixed choices,
check the exact board and counters.

Boards are given as {(row, col): token} on an empty board (``board_with``); seat 0 plays
Everfrost and is to move with two actions, so one is left after a summon. Thawing costs no
action. Squares are row * 9 + col (``sq``).
"""

import numpy as np

from core import constants as K
from core.layout import (
    ACTIONS_LEFT,
    BORROW_ENEMY,
    CUR,
    DISC,
    DISC_N,
    FDISC,
    FDISC_N,
    FROZEN,
    HAND_N,
    LEG_TOTAL,
    LSTOCK,
    MALUS,
    PHASE,
    POOL_TOTAL,
    STOCK,
    TURN_NO,
)
from core.summon.orientations import MARK
from tests.support.harness import (
    CONTENT,
    Game,
    T,
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
N, NE, E, SE, S, SW, W, NW = range(8)


def card(cid):
    return CONTENT.card_index(cid)


def game(pieces, hand, decks=("everfrost", "imperial"), mode="high-form", frozen=None, **kw):
    hands = [list(hand)] + [[] for _ in decks[1:]]
    g = Game(board=board_with(pieces), hands=hands, decks=decks, mode=mode, **kw)
    if frozen:
        g.s[FROZEN] = card(frozen)
    g.refresh()
    return g


def thaw(g):
    assert (K.OPT_THAW, 0, 0, 0) in g.options()
    return g.act(K.OPT_THAW, 0, 0, 0)


# --- common beings -------------------------------------------------------------------------------


def test_snow_fox_two_standard_steps():
    g = game({(4, 5): "c0", (5, 6): "c0", (3, 4): "c1"}, ["everfrost/snow-fox"])
    summon(g, "everfrost/snow-fox", sq(4, 4))
    # a common piece's standard step only enters empty squares: not the enemy on (3,4)
    assert (sq(4, 4), sq(3, 4)) not in targets(g) and can_skip(g)
    target(g, sq(4, 4), sq(4, 3))
    target(g, sq(4, 3), sq(3, 2))
    assert effect_over(g)
    is_board(g, {(4, 5): "c0", (5, 6): "c0", (3, 4): "c1", (3, 2): "c0"})
    assert g.s[ACTIONS_LEFT] == 1 and g.s[FROZEN] == -1
    assert discard_pile(g) == [card("everfrost/snow-fox")]


def test_snow_fox_second_step_skipped():
    g = game({(4, 5): "c0", (5, 6): "c0"}, ["everfrost/snow-fox"])
    summon(g, "everfrost/snow-fox", sq(4, 4))
    target(g, sq(4, 4), sq(3, 4))
    skip(g)
    assert effect_over(g)
    is_board(g, {(4, 5): "c0", (5, 6): "c0", (3, 4): "c0"})


REINDEER = {(5, 3): "c0", (5, 4): "c0", (6, 5): "c0"}


def test_royal_reindeer_upgraded_when_nothing_destroyed():
    g = game(dict(REINDEER), ["everfrost/royal-reindeer"])
    summon(g, "everfrost/royal-reindeer", sq(4, 4))
    ring = {(a, b) for a, b in targets(g)}
    assert all(T.dist[a, b] == 2 for a, b in ring) and can_skip(g)
    skip(g)  # no leap: the upgrade is automatic
    assert effect_over(g)
    is_board(g, {**REINDEER, (4, 4): "h0"})


def test_royal_reindeer_leap_that_destroys_blocks_the_upgrade():
    g = game({**REINDEER, (2, 6): "c1"}, ["everfrost/royal-reindeer"])
    summon(g, "everfrost/royal-reindeer", sq(4, 4))
    target(g, sq(4, 4), sq(2, 6))
    assert effect_over(g)
    is_board(g, {**REINDEER, (2, 6): "c0"})
    assert destroyed(g, 1, C) == 1


def test_royal_reindeer_oversummoning_blocks_the_upgrade():
    g = game({**REINDEER, (4, 4): "c1"}, ["everfrost/royal-reindeer"])
    summon(g, "everfrost/royal-reindeer", sq(4, 4))
    target(g, sq(4, 4), sq(2, 4))  # a leap onto an empty square
    assert effect_over(g)
    is_board(g, {**REINDEER, (2, 4): "c0"})
    assert destroyed(g, 1, C) == 1  # the oversummoned piece


def summon_mirror(g, tgt, source_side):
    """Summon the Crystal Mirror on ``tgt`` with its * marks on ``source_side`` (a unit
    (d_row, d_col) pointing to the mirrored side)."""
    slot = g.hand_slot(0, "everfrost/crystal-mirror")
    for kind, a, b, c in g.options():
        if kind == K.OPT_SUMMON and a == slot and c == tgt:
            marks = [tuple(T.or_marks[b, k]) for k in range(T.or_nmarks[b])]
            side = [(dr, dc) for dr, dc, m in marks if m == MARK]
            dr, dc = source_side
            if all((dr == 0 or r * dr > 0) and (dc == 0 or cc * dc > 0) for r, cc in side):
                return g.act(K.OPT_SUMMON, a, b, c)
    raise AssertionError("no such Mirror orientation")


MIRROR = {(3, 4): "c0", (5, 4): "c0"}


def test_crystal_mirror_two_commons():
    pieces = {**MIRROR, (4, 3): "c1", (5, 2): "c1", (3, 3): "h1", (5, 5): "c1"}
    g = game(dict(pieces), ["everfrost/crystal-mirror"])
    summon_mirror(g, sq(4, 4), (0, -1))
    # west side: the heroic (3,3) and the commons (4,3), (5,2); (5,5) lies on the other side
    assert targets(g) == sorted([(sq(3, 3), sq(3, 5)), (sq(4, 3), sq(4, 5)), (sq(5, 2), sq(5, 6))])
    assert can_skip(g)
    target(g, sq(4, 3), sq(4, 5))
    assert targets(g) == [(sq(5, 2), sq(5, 6))]  # commons only now
    target(g, sq(5, 2), sq(5, 6))
    assert effect_over(g)
    is_board(g, {**pieces, (4, 4): "c0", (4, 5): "c0", (5, 6): "c0"})
    assert g.s[STOCK] == 17 - 5


def test_crystal_mirror_one_heroic_ends_it():
    pieces = {**MIRROR, (4, 3): "c1", (3, 3): "h1", (5, 5): "c1"}
    g = game(dict(pieces), ["everfrost/crystal-mirror"])
    summon_mirror(g, sq(4, 4), (0, -1))
    target(g, sq(3, 3), sq(3, 5))
    assert effect_over(g)  # a heroic piece is the whole allowance
    is_board(g, {**pieces, (4, 4): "c0", (3, 5): "h0"})


def test_crystal_mirror_other_side_and_occupied_mirror_square():
    pieces = {**MIRROR, (4, 5): "c1", (4, 3): "c0", (3, 6): "l1"}
    g = game(dict(pieces), ["everfrost/crystal-mirror"])
    summon_mirror(g, sq(4, 4), (0, 1))
    # (4,5) mirrors onto the occupied (4,3); legendary pieces are never mirrored
    assert targets(g) == []
    assert effect_over(g)
    is_board(g, {**pieces, (4, 4): "c0"})


def test_crystal_grower_and_its_frozen_upgrade():
    pieces = {(5, 3): "c0", (5, 4): "c0", (2, 2): "c1", (2, 6): "c1", (1, 4): "h1"}
    g = game(dict(pieces), ["everfrost/crystal-grower"])
    summon(g, "everfrost/crystal-grower", sq(4, 4))
    assert targets(g) == [(sq(2, 2), -1), (sq(2, 6), -1)] and not can_skip(g)
    target(g, sq(2, 2))
    assert effect_over(g)  # one enemy colour in the duel
    is_board(g, {**pieces, (4, 4): "c0", (2, 2): "h1"})
    grower = card("everfrost/crystal-grower")
    assert g.s[FROZEN] == grower and discard_pile(g) == []
    assert events(g, K.EV_FROZEN) == [(0, grower, 0, 0)]
    thaw(g)
    assert targets(g) == [(sq(4, 4), -1), (sq(5, 3), -1), (sq(5, 4), -1)] and not can_skip(g)
    target(g, sq(5, 3))
    assert effect_over(g)
    is_board(g, {**pieces, (4, 4): "c0", (2, 2): "h1", (5, 3): "h0"})
    assert g.s[FROZEN] == -1 and discard_pile(g) == [grower]
    assert g.s[ACTIONS_LEFT] == 1  # thawing cost no action


def test_crystal_grower_melee_one_common_of_each_enemy_colour():
    pieces = {(5, 3): "c0", (5, 4): "c0", (2, 2): "c1", (2, 6): "c2", (1, 4): "c2"}
    g = game(
        dict(pieces),
        ["everfrost/crystal-grower"],
        decks=("everfrost", "imperial", "sylvan"),
        mode="melee",
    )
    summon(g, "everfrost/crystal-grower", sq(4, 4))
    assert targets(g) == [(sq(1, 4), -1), (sq(2, 2), -1), (sq(2, 6), -1)]
    target(g, sq(2, 2))  # colour 1 is done: colour 2's commons remain
    assert targets(g) == [(sq(1, 4), -1), (sq(2, 6), -1)]
    target(g, sq(1, 4))
    assert effect_over(g)
    is_board(g, {**pieces, (4, 4): "c0", (2, 2): "h1", (1, 4): "h2"})


PRINCESS = {(5, 4): "c0", (6, 3): "c0", (6, 5): "c0"}


def test_ice_princess_combat_step_then_frozen_standard_step():
    pieces = {**PRINCESS, (3, 2): "c0", (2, 2): "c1"}
    g = game(dict(pieces), ["everfrost/ice-princess"])
    summon(g, "everfrost/ice-princess", sq(4, 4))
    assert (sq(4, 4), sq(3, 4)) not in targets(g)  # not the Princess herself
    assert (sq(3, 2), sq(2, 2)) in targets(g) and can_skip(g)
    target(g, sq(3, 2), sq(2, 2))
    assert effect_over(g)
    assert destroyed(g, 1, C) == 1
    assert g.s[FROZEN] == card("everfrost/ice-princess")
    thaw(g)
    assert (sq(5, 4), sq(4, 4)) not in targets(g) and not can_skip(g)  # standard: empty only
    target(g, sq(6, 3), sq(7, 3))
    assert effect_over(g)
    is_board(g, {(5, 4): "c0", (7, 3): "c0", (6, 5): "c0", (2, 2): "c0", (4, 4): "c0"})


def test_ice_princess_step_skipped():
    g = game(dict(PRINCESS), ["everfrost/ice-princess"])
    summon(g, "everfrost/ice-princess", sq(4, 4))
    skip(g)
    assert effect_over(g) and g.s[FROZEN] == card("everfrost/ice-princess")
    is_board(g, {**PRINCESS, (4, 4): "c0"})


def test_ice_queen_moves_another_heroic_not_a_legend():
    pieces = {(4, 4): "c0", **PRINCESS, (3, 6): "h0", (2, 6): "h1", (2, 2): "l0", (3, 2): "c1"}
    g = game(dict(pieces), ["everfrost/ice-queen"])
    summon(g, "everfrost/ice-queen", sq(4, 4))
    assert {a for a, _ in targets(g)} == {sq(3, 6)}  # not the Queen, not the legend
    target(g, sq(3, 6), sq(2, 6))  # combat: an equal rank is destroyed
    assert effect_over(g)
    assert destroyed(g, 1, H) == 1
    after = {**pieces, (4, 4): "h0", (2, 6): "h0"}
    del after[(3, 6)]
    is_board(g, after)
    thaw(g)
    assert {a for a, _ in targets(g)} == {sq(4, 4), sq(2, 6)}
    target(g, sq(4, 4), sq(3, 4))
    del after[(4, 4)]
    is_board(g, {**after, (3, 4): "h0"})


def test_frostweave_summoner_frozen_lends_one_enemy_piece():
    pieces = {(3, 3): "c0", (5, 4): "c0", (6, 4): "c0", (6, 6): "c0", (7, 7): "c1"}
    g = game(dict(pieces), ["everfrost/frostweave-summoner", "everfrost/snow-fox"])
    summon(g, "everfrost/frostweave-summoner", sq(4, 4))
    assert effect_over(g) and g.s[FROZEN] == card("everfrost/frostweave-summoner")
    fox = g.hand_slot(0, "everfrost/snow-fox")
    on = [o for o in g.options() if o[0] == K.OPT_SUMMON and o[1] == fox and o[3] == sq(6, 5)]
    assert on == []  # the pattern needs the enemy piece on (7,7)
    thaw(g)
    assert g.s[BORROW_ENEMY] == 1 and g.s[ACTIONS_LEFT] == 1
    summon(g, "everfrost/snow-fox", sq(6, 5), pattern=[sq(6, 6), sq(7, 7)])
    assert g.s[BORROW_ENEMY] == 0 and g.s[ACTIONS_LEFT] == 0


def test_thawing_cancels_a_borrow_not_used_yet():
    g = game({(5, 3): "c0"}, [], frozen="everfrost/crystal-grower")
    g.s[BORROW_ENEMY] = 1
    thaw(g)
    assert g.s[BORROW_ENEMY] == 0  # BGA: every effect but a flare's clears the bonus


WHISPER = {(5, 3): "c0", (5, 4): "c0", (5, 5): "c0", (5, 6): "c0"}


def test_winter_whisperer_frozen_destroy_and_discard_gain_an_action():
    g = game(dict(WHISPER), ["everfrost/winter-whisperer", "flares/f36"])
    summon(g, "everfrost/winter-whisperer", sq(4, 4))
    assert effect_over(g) and g.s[FROZEN] == card("everfrost/winter-whisperer")
    thaw(g)
    assert can_skip(g) and (sq(4, 4), -1) not in targets(g)  # commons only
    target(g, sq(5, 3))
    flare = g.hand_slot(0, "flares/f36")
    assert targets(g) == [(flare, -1)] and can_skip(g)
    target(g, flare)
    assert effect_over(g)
    assert g.s[ACTIONS_LEFT] == 2
    assert g.s[FDISC_N] == 1 and g.s[FDISC] == card("flares/f36") and g.s[HAND_N] == 0
    assert destroyed(g, 0, C) == 0  # your own piece is never counted
    del WHISPER[(5, 3)]
    is_board(g, {**WHISPER, (4, 4): "h0"})
    WHISPER[(5, 3)] = "c0"


def test_winter_whisperer_only_one_part_no_action():
    g = game(dict(WHISPER), ["flares/f36"], frozen="everfrost/winter-whisperer")
    thaw(g)
    skip(g)  # no destroy
    target(g, 0)  # the flare is discarded all the same
    assert effect_over(g) and g.s[ACTIONS_LEFT] == 2 and g.s[FDISC_N] == 1
    g2 = game(dict(WHISPER), [], frozen="everfrost/winter-whisperer")
    thaw(g2)
    target(g2, sq(5, 3))  # no flare in hand: the discard cannot happen
    assert effect_over(g2) and g2.s[ACTIONS_LEFT] == 2
    assert discard_pile(g2) == [card("everfrost/winter-whisperer")]


def test_frozen_chest_takes_a_frozen_card_from_the_discard_pile():
    pieces = {(4, 3): "c0", (4, 4): "c0", (4, 5): "c0"}
    g = game(dict(pieces), ["everfrost/frozen-chest"], frozen="everfrost/ice-princess")
    fox, grower = card("everfrost/snow-fox"), card("everfrost/crystal-grower")
    g.s[DISC], g.s[DISC + 1], g.s[DISC_N] = grower, fox, 2
    g.refresh()
    summon(g, "everfrost/frozen-chest", sq(4, 4))
    assert targets(g) == [(0, -1)] and can_skip(g)  # the Fox has no frozen effect
    target(g, 0)
    assert effect_over(g)
    assert g.s[FROZEN] == grower
    princess, chest = card("everfrost/ice-princess"), card("everfrost/frozen-chest")
    assert discard_pile(g) == [fox, princess, chest]
    assert events(g, K.EV_CARD_TO_FROZEN) == [(0, grower, princess, 0)]
    is_board(g, {**pieces, (4, 4): "h0"})


def test_frozen_chest_skipped_or_nothing_to_take():
    pieces = {(4, 3): "c0", (4, 4): "c0", (4, 5): "c0"}
    g = game(dict(pieces), ["everfrost/frozen-chest"])
    summon(g, "everfrost/frozen-chest", sq(4, 4))
    assert effect_over(g) and g.s[FROZEN] == -1  # an empty pile: nothing to choose


SENTINEL = {(4, 4): "c0", (5, 4): "c0", (5, 5): "c0", (6, 5): "c0"}


def test_everfrost_sentinel_needs_an_enemy_oversummoned():
    g = game(dict(SENTINEL), ["everfrost/everfrost-sentinel"])
    summon(g, "everfrost/everfrost-sentinel", sq(3, 4))
    assert effect_over(g) and g.s[MALUS] == 0  # nothing destroyed: no downgrade offered
    is_board(g, {**SENTINEL, (3, 4): "h0"})
    g = game({**SENTINEL, (3, 4): "c1"}, ["everfrost/everfrost-sentinel"])
    summon(g, "everfrost/everfrost-sentinel", sq(3, 4))
    assert targets(g) == [(sq(3, 4), -1)] and can_skip(g)
    skip(g)
    assert effect_over(g) and g.s[MALUS] == 0
    is_board(g, {**SENTINEL, (3, 4): "h0"})


def _fill_decks(g, decks):
    """Give every seat a deck of cards (scenario positions start with empty decks)."""
    from core.layout import DECK, DECK_CAP, DECK_CNT, DECK_HEAD

    for p, d in enumerate(decks):
        ids = list(T.deck_cards[CONTENT.deck_index(d)])
        for k, c in enumerate(ids):
            g.s[DECK + p * DECK_CAP + k] = c
        g.s[DECK_HEAD + p], g.s[DECK_CNT + p] = 0, len(ids)


def _play_out_turn(g):
    """Place common pieces until no action is left, then end the turn (ending it is automatic
    when it is the only option); returns the number of actions the next turn starts with."""
    turn = int(g.s[TURN_NO])
    while g.s[TURN_NO] == turn:
        place = [o for o in g.options() if o[0] == K.OPT_PLACE and o[1] >= 0]
        if place and g.s[ACTIONS_LEFT] > 0:
            g.act(*place[0])
        else:
            g.act(K.OPT_END_TURN)
    assert g.s[PHASE] == K.PH_ACTION
    return int(g.s[ACTIONS_LEFT])


def _sentinel_turns(mode, decks, colours):
    pieces = {(4, 4): "c0", (5, 4): "c0", (5, 5): "c0", (6, 5): "c0", (3, 4): f"c{colours[1]}"}
    g = game(pieces, ["everfrost/everfrost-sentinel"], decks=decks, mode=mode)
    _fill_decks(g, decks)
    summon(g, "everfrost/everfrost-sentinel", sq(3, 4))
    target(g, sq(3, 4))
    assert effect_over(g) and g.s[MALUS] == 1
    assert g.board()[3].split()[4] == "c0"  # downgraded
    assert events(g, K.EV_LOSE_ACTION) == [(0, 0, 0, 0)]
    n = len(decks)
    starts = [_play_out_turn(g) for _ in range(n + 1)]
    return starts, g


def test_sentinel_lost_action_duel():
    starts, g = _sentinel_turns("deathmatch", ("everfrost", "imperial"), (0, 1))
    # seat 1: 1 action; seat 0 clears its mark; seat 1 again: 2
    assert starts == [1, 2, 2]
    assert g.s[MALUS] == 0


def test_sentinel_lost_action_melee():
    starts, _ = _sentinel_turns("melee", ("everfrost", "imperial", "sylvan"), (0, 1, 2))
    assert starts == [1, 1, 2, 2]  # seats 1 and 2 lose one; then seat 0, seat 1 play fully


def test_sentinel_lost_action_team_play():
    decks = ("everfrost", "imperial", "sylvan", "highland")
    starts, _ = _sentinel_turns("team-deathmatch", decks, (0, 1, 0, 1))
    # seat 1 (other team) loses one, seat 2 (teammate) does not, seat 3 does, then seat 0
    assert starts == [1, 2, 1, 2, 2]


GIANT = {(3, 4): "c0", (4, 3): "c0", (4, 4): "c0", (4, 5): "c0"}


def test_glacier_giant_slides_and_shatters_a_legend():
    pieces = {**GIANT, (4, 6): "c1", (5, 7): "l1"}
    g = game(dict(pieces), ["everfrost/glacier-giant"])
    summon(g, "everfrost/glacier-giant", sq(2, 4))
    assert targets(g) == [(sq(2, 4), sq(3, 3)), (sq(2, 4), sq(3, 5))]
    target(g, sq(2, 4), sq(3, 5))
    assert targets(g) == [(sq(3, 5), sq(4, 6))]  # straight on only
    target(g, sq(3, 5), sq(4, 6))
    # the legend blocks a combat step; the Giant may shatter it, losing itself
    assert targets(g) == [(SE, -1)] and can_skip(g)
    target(g, SE)
    assert effect_over(g)
    is_board(g, dict(GIANT))
    assert destroyed(g, 1, C) == 1 and destroyed(g, 1, L) == 1


def test_glacier_giant_own_legend_also_costs_the_giant():
    pieces = {**GIANT, (4, 6): "l0"}
    g = game(dict(pieces), ["everfrost/glacier-giant"])
    summon(g, "everfrost/glacier-giant", sq(2, 4))
    target(g, sq(2, 4), sq(3, 5))
    target(g, SE)  # card text: any legendary piece; BGA would spare the Giant
    assert effect_over(g)
    is_board(g, dict(GIANT))
    assert destroyed(g, 0, L) == 0  # your own piece is not counted


def test_glacier_giant_stops_early():
    g = game(dict(GIANT), ["everfrost/glacier-giant"])
    summon(g, "everfrost/glacier-giant", sq(2, 4))
    target(g, sq(2, 4), sq(3, 3))
    skip(g)
    assert effect_over(g)
    is_board(g, {**GIANT, (3, 3): "h0"})


BEAR = {(4, 3): "c0", (4, 4): "c0", (5, 3): "c0", (5, 5): "c0"}


def test_polar_bear_three_steps_after_two_kills():
    pieces = {**BEAR, (3, 2): "c1", (2, 2): "c1"}
    g = game(dict(pieces), ["everfrost/polar-bear"])
    summon(g, "everfrost/polar-bear", sq(4, 2))
    target(g, sq(4, 2), sq(3, 2))
    target(g, sq(3, 2), sq(2, 2))
    assert (sq(2, 2), sq(1, 2)) in targets(g)
    target(g, sq(2, 2), sq(1, 2))
    assert effect_over(g)
    is_board(g, {**BEAR, (1, 2): "h0"})
    assert destroyed(g, 1, C) == 2


def test_polar_bear_stops_without_a_kill():
    g = game({**BEAR, (2, 2): "c1"}, ["everfrost/polar-bear"])
    summon(g, "everfrost/polar-bear", sq(4, 2))
    target(g, sq(4, 2), sq(3, 2))  # an empty square: no second step
    assert effect_over(g)
    is_board(g, {**BEAR, (2, 2): "c1", (3, 2): "h0"})


SLED = {(4, 2): "c0", (5, 2): "c0", (5, 3): "c0", (5, 4): "c0"}


def test_war_sled_turns_at_most_45_degrees():
    g = game({**SLED, (3, 6): "c1"}, ["everfrost/war-sled"])
    summon(g, "everfrost/war-sled", sq(4, 4))
    assert targets(g) == sorted((sq(4, 4), sq(r, c)) for r, c in [(3, 5), (4, 5), (5, 5)])
    target(g, sq(4, 4), sq(4, 5))  # east
    assert targets(g) == sorted((sq(4, 5), sq(r, 6)) for r in (3, 4, 5))
    target(g, sq(4, 5), sq(3, 6))  # north-east, destroying the common
    assert targets(g) == sorted([(sq(3, 6), sq(2, 6)), (sq(3, 6), sq(2, 7)), (sq(3, 6), sq(3, 7))])
    target(g, sq(3, 6), sq(2, 7))
    assert effect_over(g)
    is_board(g, {**SLED, (2, 7): "h0"})
    assert destroyed(g, 1, C) == 1


def test_snow_monster_destroys_touching_commons_within_two():
    pieces = {
        (4, 4): "c0", (4, 5): "c0", (5, 3): "c0", (5, 6): "c0",
        (3, 3): "c1", (6, 6): "c1", (6, 2): "c1",  # destroyed
        (2, 4): "c1", (3, 4): "h1", (4, 7): "c1", (2, 2): "c1",  # spared
    }  # fmt: skip
    g = game(dict(pieces), ["everfrost/snow-monster"])
    summon(g, "everfrost/snow-monster", sq(4, 4))
    assert effect_over(g)
    for rc in [(3, 3), (6, 6), (6, 2)]:
        del pieces[rc]
    is_board(g, {**pieces, (4, 4): "h0"})
    assert destroyed(g, 1, C) == 3


IMP = {(4, 3): "c0", (5, 4): "c0", (6, 5): "c0"}


def test_frost_imp_pushes_a_common_until_blocked():
    pieces = {**IMP, (3, 4): "c1", (0, 4): "c0", (3, 5): "h1"}
    g = game(dict(pieces), ["everfrost/frost-imp"])
    summon(g, "everfrost/frost-imp", sq(4, 4))
    froms = {a for a, _ in targets(g)}
    assert froms == {sq(3, 4), sq(4, 3), sq(5, 4)}  # adjacent commons of any colour
    target(g, sq(3, 4), sq(2, 4))
    assert effect_over(g)  # the rest is forced: (1,4), then (0,4) is taken
    del pieces[(3, 4)]
    is_board(g, {**pieces, (1, 4): "c1", (4, 4): "h0"})


def test_frost_imp_skipped():
    g = game(dict(IMP), ["everfrost/frost-imp"])
    summon(g, "everfrost/frost-imp", sq(4, 4))
    skip(g)
    assert effect_over(g)
    is_board(g, {**IMP, (4, 4): "h0"})


WYVERN = {(4, 5): "c0", (5, 4): "c0", (6, 5): "c0", (6, 6): "c0"}


def test_ice_wyvern_leap_that_kills_costs_the_wyvern_then_frozen_place():
    pieces = {**WYVERN, (1, 1): "c1", (2, 7): "h0", (3, 2): "l0"}
    g = game(dict(pieces), ["everfrost/ice-wyvern"])
    summon(g, "everfrost/ice-wyvern", sq(4, 4))
    target(g, sq(4, 4), sq(1, 1))
    assert effect_over(g)
    del pieces[(1, 1)]
    is_board(g, pieces)
    assert destroyed(g, 1, C) == 1 and g.s[FROZEN] == card("everfrost/ice-wyvern")
    thaw(g)
    # empty squares next to your heroic piece (the legend does not count)
    want = [(r, c) for r in (1, 2, 3) for c in (6, 7, 8) if (r, c) not in ((2, 7), (1, 8))]
    assert targets(g) == sorted((sq(r, c), 0) for r, c in want) and not can_skip(g)
    target(g, sq(3, 6), 0)
    is_board(g, {**pieces, (3, 6): "c0"})


def test_ice_wyvern_leap_onto_empty_square_survives():
    g = game(dict(WYVERN), ["everfrost/ice-wyvern"])
    summon(g, "everfrost/ice-wyvern", sq(4, 4))
    target(g, sq(4, 4), sq(1, 1))
    assert effect_over(g)
    is_board(g, {**WYVERN, (1, 1): "h0"})
    thaw(g)  # the Wyvern itself is a heroic piece: its 5 empty neighbours on the board
    assert targets(g) == sorted((sq(r, c), 0) for r, c in [(0, 2), (1, 2), (2, 0), (2, 1), (2, 2)])


DEATH = {(4, 3): "c0", (6, 2): "c0", (6, 3): "c0", (6, 4): "c0"}


def test_deathbringer_targets_need_support():
    pieces = {**DEATH, (3, 4): "c1", (5, 5): "h1", (3, 5): "h1", (5, 3): "l1"}
    g = game(dict(pieces), ["everfrost/deathbringer"])
    summon(g, "everfrost/deathbringer", sq(4, 4))
    # (3,5) heroic with no other piece of yours next to it is out; own pieces may be taken
    assert targets(g) == sorted((sq(r, c), -1) for r, c in [(3, 4), (5, 5), (5, 3), (4, 3)])
    target(g, sq(5, 3))  # the legend: 4 of your pieces touch it
    assert effect_over(g)
    del pieces[(5, 3)]
    is_board(g, {**pieces, (4, 4): "h0"})
    assert destroyed(g, 1, L) == 2  # counts as two
    assert g.s[LSTOCK + 1] == 2 and g.s[LEG_TOTAL + 1] == 2  # it left the game
    assert events(g, K.EV_REMOVED) == [(0, sq(5, 3), 4 + L, 0)]
    dest = [e for e in events(g, K.EV_DESTROY)]
    assert dest == [(0, sq(5, 3), 4 + L, 2)]


def test_deathbringer_own_piece_leaves_the_game_uncounted():
    g = game(dict(DEATH), ["everfrost/deathbringer"])
    pool = int(g.s[POOL_TOTAL])
    summon(g, "everfrost/deathbringer", sq(4, 4))
    target(g, sq(4, 3))
    assert effect_over(g)
    assert g.s[POOL_TOTAL] == pool - 1 and g.s[STOCK] == pool - 5
    assert destroyed(g, 0, C) == 0
    del DEATH[(4, 3)]
    is_board(g, {**DEATH, (4, 4): "h0"})
    DEATH[(4, 3)] = "c0"


def test_deathbringer_heroic_victim_in_deathmatch_scores_two():
    g = game({**DEATH, (3, 3): "h1"}, ["everfrost/deathbringer"], mode="deathmatch")
    summon(g, "everfrost/deathbringer", sq(4, 4))
    target(g, sq(3, 3))
    assert destroyed(g, 1, H) == 2
    assert g.s[POOL_TOTAL + 1] == 15 and g.s[STOCK + 1] == 15


ILLUSION = {(4, 3): "c0", (4, 5): "c0", (6, 4): "c0"}


def test_frostweave_illusionist_becomes_enemy_common_then_frozen_convert():
    pieces = {**ILLUSION, (2, 2): "c1"}
    g = game(dict(pieces), ["everfrost/frostweave-illusionist"])
    summon(g, "everfrost/frostweave-illusionist", sq(4, 4))
    assert effect_over(g)  # one enemy colour: no choice
    is_board(g, {**pieces, (4, 4): "c1"})
    assert destroyed(g, 0, H) == 0 and g.s[STOCK + 1] == 17 - 2 and g.s[STOCK] == 17 - 3
    thaw(g)
    assert targets(g) == [(sq(2, 2), -1), (sq(4, 4), -1)] and not can_skip(g)
    target(g, sq(4, 4))
    is_board(g, {**pieces, (4, 4): "c0"})
    assert destroyed(g, 1, C) == 1  # a conversion counts as destroyed


def test_frostweave_illusionist_stays_when_no_enemy_stock():
    g = game(dict(ILLUSION), ["everfrost/frostweave-illusionist"])
    g.s[STOCK + 1] = 0
    g.refresh()
    summon(g, "everfrost/frostweave-illusionist", sq(4, 4))
    assert effect_over(g)
    is_board(g, {**ILLUSION, (4, 4): "h0"})


def test_frostweave_illusionist_melee_chooses_the_colour():
    g = game(
        dict(ILLUSION),
        ["everfrost/frostweave-illusionist"],
        decks=("everfrost", "imperial", "sylvan"),
        mode="melee",
    )
    summon(g, "everfrost/frostweave-illusionist", sq(4, 4))
    assert targets(g) == [(sq(4, 4), 1), (sq(4, 4), 2)]
    target(g, sq(4, 4), 2)
    is_board(g, {**ILLUSION, (4, 4): "c2"})


# --- the frozen slot ------------------------------------------------------------------------------


def test_second_frozen_card_keep_the_new_one():
    pieces = {(5, 3): "c0", (5, 4): "c0", (2, 2): "c1"}
    g = game(dict(pieces), ["everfrost/crystal-grower"], frozen="everfrost/ice-princess")
    summon(g, "everfrost/crystal-grower", sq(4, 4))
    assert g.s[PHASE] == K.PH_FROZEN_CHOICE
    assert g.options() == [(K.OPT_KEEP_FROZEN, 0, 0, 0), (K.OPT_KEEP_FROZEN, 1, 0, 0)]
    g.act(K.OPT_KEEP_FROZEN, 0)
    grower, princess = card("everfrost/crystal-grower"), card("everfrost/ice-princess")
    assert g.s[FROZEN] == grower and discard_pile(g) == [princess]
    assert effect_over(g) and g.s[ACTIONS_LEFT] == 1


def test_second_frozen_card_keep_the_stored_one():
    pieces = {(5, 3): "c0", (5, 4): "c0", (2, 2): "c1"}
    g = game(dict(pieces), ["everfrost/crystal-grower"], frozen="everfrost/ice-princess")
    summon(g, "everfrost/crystal-grower", sq(4, 4))
    g.act(K.OPT_KEEP_FROZEN, 1)
    grower, princess = card("everfrost/crystal-grower"), card("everfrost/ice-princess")
    assert g.s[FROZEN] == princess and discard_pile(g) == [grower]
    assert events(g, K.EV_KEEP_FROZEN) == [(0, princess, grower, 0)]


def test_thaw_offered_like_a_flare_and_never_mid_effect():
    pieces = {(4, 5): "c0", (5, 6): "c0", (5, 4): "c0"}
    g = game(dict(pieces), ["everfrost/snow-fox"], frozen="everfrost/ice-princess")
    assert (K.OPT_THAW, 0, 0, 0) in g.options()
    summon(g, "everfrost/snow-fox", sq(4, 4))
    assert g.s[PHASE] == K.PH_EFFECT
    assert all(o[0] != K.OPT_THAW for o in g.options())
    skip(g)
    place = [o for o in g.options() if o[0] == K.OPT_PLACE][0]
    g.act(*place)
    assert g.s[ACTIONS_LEFT] == 0
    # no action left: the thaw is still offered, next to ending the turn
    assert {o[0] for o in g.options()} == {K.OPT_THAW, K.OPT_END_TURN}
    thaw(g)
    target(g, sq(5, 4), sq(6, 4))
    # the frozen card went to the discard pile; ending the turn, the only option, was automatic
    assert g.s[FROZEN] == -1 and discard_pile(g)[-1] == card("everfrost/ice-princess")
    assert g.s[CUR] == 1


def test_no_thaw_after_a_team_pass():
    decks = ("everfrost", "imperial", "sylvan", "highland")
    g = game(
        {(4, 4): "c0"}, [], decks=decks, mode="team-high-form", frozen="everfrost/ice-princess"
    )
    assert (K.OPT_THAW, 0, 0, 0) in g.options()
    g.act(K.OPT_PASS)
    assert all(o[0] != K.OPT_THAW for o in g.options())


def test_frozen_cards_in_every_deck_slot_are_the_seven():
    frozen = sorted(c.id for c in CONTENT.cards if c.has_frozen)
    assert frozen == sorted(
        "everfrost/" + x
        for x in (
            "crystal-grower", "ice-princess", "ice-queen", "frostweave-summoner",
            "winter-whisperer", "ice-wyvern", "frostweave-illusionist",
        )
    )  # fmt: skip
    assert int(np.sum(T.card_has_frozen)) == 7
    assert CONTENT.missing_effects(["everfrost"]) == []
