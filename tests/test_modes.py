"""Scenario tests of the modes beyond the duel: melee (3-4 players), team play, new-player
rules. Each sets up a position or a fresh game, acts, and checks exact boards and counters.
"""

import numpy as np
import pytest

from core import constants as K
from core.layout import (
    ACTIONS_LEFT,
    BOARD,
    COLOUR,
    COLOUR_CHOICES,
    CONTROL,
    CUR,
    DECK_CAP,
    DECK_CNT,
    DECK_HEAD,
    DESTROYED,
    END_REASON,
    END_SEAT,
    EV_N,
    FDECK,
    FDECK_CNT,
    FDECK_HEAD,
    GAME_OVER,
    HAND,
    HAND_CAP,
    HAND_N,
    IMPRO_LEFT,
    LDECK,
    LDECK_CNT,
    LDECK_HEAD,
    LSTOCK,
    MAX_PLAYERS,
    N_PLACES,
    N_TASKS,
    PASSED,
    PHASE,
    POOL_TOTAL,
    SCORE,
    SCORE_COLOR,
    STATE_SIZE,
    STOCK,
    TASK_PTS,
    TAVAIL,
    TDECK,
    TDECK_CNT,
    TDECK_HEAD,
    TNEXT,
    TURN_NO,
    WINNER,
)
from core.rules.piles import deck_base
from core.rules.scoring import decide_winner
from core.rules.setup import init_game
from core.rules.turn import advance, apply_option, melee_setup_colour
from sim.render import event_text
from tests.support.harness import CONTENT, Game, T, board_with, play_named, sq

MELEE3 = ("imperial", "highland", "sylvan")
MELEE4 = ("imperial", "highland", "sylvan", "highland")
TEAM = ("imperial", "highland", "sylvan", "sylvan")


def fresh(mode, decks, first=0, seed=11):
    """A new game (before ``advance``): state, log, option buffer."""
    s = np.zeros(STATE_SIZE, np.int32)
    ev = np.zeros((20_000, K.EV_WIDTH), np.int32)
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    d = np.array([CONTENT.deck_index(x) for x in decks], np.int32)
    init_game(s, T, ev, K.MODE_NAMES.index(mode), len(decks), d, first, 0, seed, 0, 200, 1)
    return s, ev, opts


def options(s, ev, opts):
    n = advance(s, T, ev, opts)
    return [tuple(int(x) for x in row) for row in opts[:n]]


def events(s, ev, kind):
    return [tuple(int(x) for x in row[2:]) for row in ev[: s[EV_N]] if row[0] == kind]


def hand(s, seat):
    return [int(s[HAND + seat * HAND_CAP + i]) for i in range(s[HAND_N + seat])]


def kinds(cards):
    return sorted(int(T.card_kind[c]) for c in cards)


def column(s, seat, colour):
    return int(s[SCORE_COLOR + seat * MAX_PLAYERS + colour])


def end_actions(g):
    """Use up the mover's actions and end the turn (``advance`` ends it by itself when
    ending is the only option)."""
    g.s[ACTIONS_LEFT] = 0
    opt = g.refresh()
    if (K.OPT_END_TURN, 0, 0, 0) in opt:
        return g.act(K.OPT_END_TURN)
    return opt


# --- melee set-up ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "decks,first,setter,colours",
    [
        (MELEE3, 0, 2, [2, 0, 1]),  # third seat's, first's, second's
        (MELEE3, 1, 0, [0, 1, 2]),
        (MELEE4, 0, 3, [2, 3, 0]),  # third, fourth, first; the second seat gets none
        (MELEE4, 2, 1, [0, 1, 2]),
    ],
)
def test_melee_starting_pieces_put_by_the_last_seat(decks, first, setter, colours):
    s, ev, opts = fresh("melee", decks, first)
    assert [melee_setup_colour(first, len(decks), k) for k in range(3)] == colours
    opt = options(s, ev, opts)
    assert s[PHASE] == K.PH_SETUP and s[CUR] == setter and s[CONTROL] == setter
    pairs = [[sq(1, 5), sq(1, 6)], [sq(5, 6), sq(6, 6)], [sq(6, 1), sq(6, 2)]]
    assert sorted(o[1] for o in opt) == sorted(q for p in pairs for q in p)
    # the setter picks a square of the middle pair first: that pair is then used up
    apply_option(s, T, ev, K.OPT_SETUP, sq(6, 6), 0, 0)
    opt = options(s, ev, opts)
    assert sorted(o[1] for o in opt) == sorted(pairs[0] + pairs[2])
    apply_option(s, T, ev, K.OPT_SETUP, sq(1, 5), 0, 0)
    assert sorted(o[1] for o in options(s, ev, opts)) == pairs[2]
    apply_option(s, T, ev, K.OPT_SETUP, sq(6, 2), 0, 0)
    options(s, ev, opts)
    codes = [int(s[BOARD + q]) for q in (sq(6, 6), sq(1, 5), sq(6, 2))]
    assert codes == [c * 4 + K.COMMON for c in colours]
    assert sum(1 for q in range(81) if s[BOARD + q]) == 3
    # then the first seat starts with a single action
    assert s[CUR] == first and s[ACTIONS_LEFT] == 1 and s[TURN_NO] == 1
    pool = 18 - len(decks)
    for c in range(len(decks)):
        assert s[POOL_TOTAL + c] == pool
        assert s[STOCK + c] == pool - colours.count(c)
        assert s[LSTOCK + c] == 3
        assert s[IMPRO_LEFT + c] == ((1 << len(decks)) - 1) & ~(1 << c)


# --- melee scoring ------------------------------------------------------------------------------


def melee_game(n=3, pieces=None, hands=None, to_move=0):
    decks = MELEE3 if n == 3 else MELEE4
    g = Game(
        board_with(pieces or {}),
        mode="melee",
        to_move=to_move,
        hands=hands or tuple(() for _ in range(n)),
        decks=decks,
    )
    g.refresh()
    return g


def test_melee_destruction_scores_each_colour_and_pairs_two_leftovers():
    g = melee_game()
    # this turn seat 0 destroyed: colour 1: 3 commons + 1 heroic; colour 2: 1 common, 1 legendary
    g.s[DESTROYED + 1 * 4 + K.COMMON] = 3
    g.s[DESTROYED + 1 * 4 + K.HEROIC] = 1
    g.s[DESTROYED + 2 * 4 + K.COMMON] = 1
    g.s[DESTROYED + 2 * 4 + K.LEGENDARY] = 1
    opt = end_actions(g)
    # colour 1: 1 pair + 1 heroic = 2; colour 2: 2 for the legendary; both have a leftover
    assert (column(g.s, 0, 1), column(g.s, 0, 2)) == (2, 2)
    assert g.s[PHASE] == K.PH_COLOUR and g.s[COLOUR_CHOICES] == 0b110
    assert opt == [(K.OPT_COLOUR, 1, 0, 0), (K.OPT_COLOUR, 2, 0, 0)]
    g.act(K.OPT_COLOUR, 2)
    assert (column(g.s, 0, 1), column(g.s, 0, 2)) == (2, 3)
    assert g.s[SCORE + 0] == 2  # the lowest column
    scores = [e for e in events(g.s, g.ev, K.EV_SCORE) if e[0] == 0]
    assert scores == [(0, 2, K.SR_DESTRUCTION, 1), (0, 2, K.SR_DESTRUCTION, 2)] + [
        (0, 1, K.SR_DESTRUCTION, 2)
    ]
    assert g.s[CUR] == 1  # the turn went on to the next seat


def test_melee_one_leftover_common_is_lost():
    g = melee_game()
    g.s[DESTROYED + 1 * 4 + K.COMMON] = 1
    g.s[DESTROYED + 2 * 4 + K.COMMON] = 2
    end_actions(g)
    assert g.s[PHASE] != K.PH_COLOUR
    assert (column(g.s, 0, 1), column(g.s, 0, 2)) == (0, 1)
    assert g.s[SCORE + 0] == 0


def test_melee_four_players_three_leftovers_make_one_pair():
    g = melee_game(4)
    for c in (1, 2, 3):
        g.s[DESTROYED + c * 4 + K.COMMON] = 1
    opt = end_actions(g)
    assert [o[1] for o in opt] == [1, 2, 3]
    g.act(K.OPT_COLOUR, 3)
    assert [column(g.s, 0, c) for c in (1, 2, 3)] == [0, 0, 1]


def test_melee_legend_scores_one_in_a_chosen_colour_then_its_effect_runs():
    # Hell Bull: "c . c / h @c h / . c ." with a common of yours on the target
    pieces = {
        (3, 3): "c0",
        (3, 5): "c0",
        (4, 3): "h0",
        (4, 4): "c0",
        (4, 5): "h0",
        (5, 4): "c0",
    }
    g = melee_game(pieces=pieces, hands=(["legends/hell-bull"], (), ()))
    slot = g.hand_slot(0, "legends/hell-bull")
    summons = [o for o in g.options() if o[0] == K.OPT_SUMMON and o[1] == slot]
    assert {o[3] for o in summons} == {sq(4, 4)}
    opt = g.act(*summons[0])
    assert g.s[PHASE] == K.PH_COLOUR
    assert opt == [(K.OPT_COLOUR, 1, 0, 0), (K.OPT_COLOUR, 2, 0, 0)]
    g.act(K.OPT_COLOUR, 1)
    assert (column(g.s, 0, 1), column(g.s, 0, 2)) == (1, 0)
    assert g.s[PHASE] == K.PH_EFFECT  # the Bull's charge is next
    assert int(g.s[BOARD + sq(4, 4)]) == 0 * 4 + K.LEGENDARY


def test_melee_flare_gives_the_chosen_opponent_a_point_in_the_players_column():
    # seat 2 has many more pieces than seat 0 (seat 1 does not): only seat 2 can be chosen
    enemy = {(8, c): "c2" for c in range(2, 7)}
    enemy.update({(7, c): "h2" for c in range(1, 8)})
    flare = next(c.id for c in CONTENT.cards if c.kind == K.CK_FLARE)
    g = melee_game(pieces=enemy, hands=([flare], (), ()))
    flares = [o for o in g.options() if o[0] == K.OPT_FLARE]
    assert flares and {o[2] for o in flares} == {2}
    g.act(*flares[0])
    assert column(g.s, 2, 0) == 1  # seat 2 gains 1 in seat 0's column
    assert all(column(g.s, p, c) == 0 for p in range(3) for c in range(3) if (p, c) != (2, 0))


@pytest.mark.parametrize("n,target", [(3, 12), (4, 10)])
def test_melee_end_trigger_in_a_single_column(n, target):
    g = melee_game(n)
    g.s[SCORE_COLOR + 0 * MAX_PLAYERS + 1] = target - 1
    g.s[DECK_CNT + 0] = 5  # no deck trigger
    end_actions(g)
    assert g.s[END_SEAT] == -1
    g = melee_game(n)
    g.s[SCORE_COLOR + 0 * MAX_PLAYERS + 1] = target
    g.s[DECK_CNT + 0] = 5
    end_actions(g)
    assert g.s[END_SEAT] == 0 and g.s[END_REASON] == K.END_SCORE
    assert g.s[GAME_OVER] == 0  # everyone plays one more turn
    rows = [row for row in g.events() if row[0] == K.EV_END_TRIGGER]
    others = ", ".join(f"seat {p}" for p in range(1, n - 1))
    assert [event_text(row, CONTENT, "melee") for row in rows] == [
        f"end triggered by seat 0: seat 0 reached {target} points in a colour column; "
        f"final round: {others}, seat {n - 1} and seat 0 play one more turn each"
    ]


def test_melee_winner_by_lowest_then_next_lowest_column():
    g = melee_game()
    cols = {0: {1: 5, 2: 7}, 1: {0: 6, 2: 5}, 2: {0: 4, 1: 9}}
    for p, cs in cols.items():
        for c, v in cs.items():
            g.s[SCORE_COLOR + p * MAX_PLAYERS + c] = v
    decide_winner(g.s, T)
    assert g.s[WINNER] == 0  # 5/7 beats 5/6 on the second lowest; 4 is lowest of all
    g.s[SCORE_COLOR + 1 * MAX_PLAYERS + 0] = 7
    decide_winner(g.s, T)
    assert g.s[WINNER] == -1  # 5/7 and 5/7, same pieces on the board: shared


def set_columns(g, cols):
    for p, cs in cols.items():
        for c, v in cs.items():
            g.s[SCORE_COLOR + p * MAX_PLAYERS + c] = v


def test_melee_four_players_tie_break_lowest_second_then_remaining_column():
    # Rules summary (reference fact 71, issue 10): compare the lowest column, then the second
    # lowest, then (4 players) the remaining column; then upgraded pieces, then pieces.
    g = melee_game(4)
    low = {0: {1: 1, 2: 1, 3: 1}, 1: {0: 1, 2: 1, 3: 1}, 2: {0: 1, 1: 1, 3: 1}}
    # seat 3: 5/5/9 beats seat 0's 5/5/8 on the remaining column ...
    set_columns(g, {**low, 0: {1: 8, 2: 5, 3: 5}, 3: {0: 5, 1: 9, 2: 5}})
    decide_winner(g.s, T)
    assert g.s[WINNER] == 3
    # ... but 5/6/6 beats 5/5/9 on the second lowest, whatever the sums
    set_columns(g, {0: {1: 6, 2: 5, 3: 6}})
    decide_winner(g.s, T)
    assert g.s[WINNER] == 0
    # all three columns equal: upgraded pieces on the board, then all pieces
    set_columns(g, {0: {1: 9, 2: 5, 3: 5}})
    decide_winner(g.s, T)
    assert g.s[WINNER] == -1
    g.s[BOARD + sq(4, 4)] = 0 * 4 + K.COMMON
    decide_winner(g.s, T)
    assert g.s[WINNER] == 0
    g.s[BOARD + sq(4, 6)] = 3 * 4 + K.HEROIC
    decide_winner(g.s, T)
    assert g.s[WINNER] == 3


# --- melee improvisation -------------------------------------------------------------------------

SWORD = "imperial/swordmaster"  # c above and c below the target


def sword_options(g):
    slot = g.hand_slot(0, SWORD)
    return sorted(
        (o[1] >> 4, o[3]) for o in g.options() if o[0] == K.OPT_SUMMON and (o[1] & 15) == slot
    )


def test_improvisation_lets_one_enemy_piece_stand_in_once_per_colour():
    pieces = {(3, 4): "c0", (5, 4): "c1"}
    g = melee_game(pieces=pieces, hands=([SWORD, SWORD], (), ()))
    assert sword_options(g) == [(2, sq(4, 4))]  # colour 1 (coded colour + 1)
    slot = g.hand_slot(0, SWORD)
    row = next(o for o in g.options() if o[0] == K.OPT_SUMMON and o[1] == slot + 16 * 2)
    g.act(*row)
    assert int(g.s[BOARD + sq(5, 4)]) == 1 * 4 + K.COMMON  # still the enemy's piece
    assert int(g.s[BOARD + sq(4, 4)]) == 0 * 4 + K.COMMON
    assert g.s[IMPRO_LEFT + 0] == 0b100
    assert events(g.s, g.ev, K.EV_IMPROVISE) == [(0, 1, 0, 0)]
    # colour 1 is used up: the same pattern with another colour-1 piece no longer fits
    g.s[BOARD + sq(4, 4)] = 0
    g.s[STOCK + 0] += 1
    g.s[BOARD + sq(3, 4)] = 1 * 4 + K.COMMON
    g.s[STOCK + 0] += 1
    g.s[STOCK + 1] -= 1
    g.s[BOARD + sq(5, 4)] = 0 * 4 + K.COMMON
    g.s[STOCK + 1] += 1
    g.s[STOCK + 0] -= 1
    while g.s[PHASE] == K.PH_EFFECT:
        g.act(K.OPT_SKIP, -1, -1, -1)
    g.s[ACTIONS_LEFT] = 1
    g.refresh()
    assert sword_options(g) == []
    # a colour-2 piece may still stand in
    g.s[BOARD + sq(3, 4)] = 2 * 4 + K.COMMON
    g.s[STOCK + 1] += 1
    g.s[STOCK + 2] -= 1
    g.refresh()
    assert sword_options(g) == [(3, sq(4, 4))]


def test_improvisation_allows_one_enemy_piece_per_summoning():
    pieces = {(3, 4): "c1", (5, 4): "c2"}
    g = melee_game(pieces=pieces, hands=([SWORD], (), ()))
    assert sword_options(g) == []


PRIESTESS = "imperial/high-priestess"  # ". @c ." over ". . ." over "c . c"


def test_improvised_enemy_piece_may_stand_on_the_target_square():
    # The enemy piece of an improvised summoning acts as one of your own pieces of its rank,
    # so it may stand on a target square that must hold your piece (High Priestess); the new
    # being replaces it (BGA treats it like War Summoner's borrowed piece; issue 10).
    pieces = {(3, 4): "c1", (5, 3): "c0", (5, 5): "c0"}
    g = melee_game(pieces=pieces, hands=([PRIESTESS], (), ()))
    slot = g.hand_slot(0, PRIESTESS)
    rows = [o for o in g.options() if o[0] == K.OPT_SUMMON and (o[1] & 15) == slot]
    assert [(o[1] >> 4, o[3]) for o in rows] == [(2, sq(3, 4))]  # colour 1's improvisation
    g.act(*rows[0])
    assert int(g.s[BOARD + sq(3, 4)]) == 0 * 4 + K.HEROIC
    assert g.s[IMPRO_LEFT + 0] == 0b100
    assert int(g.s[DESTROYED + 1 * 4 + K.COMMON]) == 1  # oversummoned: counts as destroyed


def test_no_improvisation_in_the_duel():
    g = Game(board_with({(3, 4): "c0", (5, 4): "c1"}), mode="deathmatch", hands=([SWORD], ()))
    g.refresh()
    assert [o for o in g.options() if o[0] == K.OPT_SUMMON] == []


# --- team play ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["team-high-form", "team-deathmatch"])
def test_team_colours_stocks_and_legend_cards(mode):
    s, ev, opts = fresh(mode, TEAM, first=1)
    assert [int(s[COLOUR + p]) for p in range(4)] == [0, 1, 0, 1]
    pool = 17 if mode == "team-high-form" else 16
    for c in range(2):
        assert s[POOL_TOTAL + c] == pool and s[LSTOCK + c] == 3
    for c in range(2, 4):
        assert s[POOL_TOTAL + c] == 0
    # the first player of each team (seats 1 and 2) holds the team's two legend cards
    legends = [kinds(hand(s, p)).count(K.CK_LEGEND) for p in range(4)]
    assert legends == [0, 2, 2, 0]


def test_team_legend_cards_go_to_the_teammate_after_a_turn():
    s, ev, opts = fresh("team-high-form", TEAM, first=0)
    options(s, ev, opts)
    before = [c for c in hand(s, 0) if T.card_kind[c] == K.CK_LEGEND]
    apply_option(s, T, ev, K.OPT_PLACE, sq(4, 4), 0, 0)  # the first turn's only action
    options(s, ev, opts)  # ending the turn is the only option left: advance does it
    assert s[CUR] == 1
    assert int(s[BOARD + sq(4, 4)]) == 0 * 4 + K.COMMON
    assert [c for c in hand(s, 0) if T.card_kind[c] == K.CK_LEGEND] == []
    assert sorted(c for c in hand(s, 2) if T.card_kind[c] == K.CK_LEGEND) == sorted(before)
    assert sorted((e[1], e[2]) for e in events(s, ev, K.EV_HAND_OVER)) == sorted(
        (c, 2) for c in before
    )


def team_game(pieces=None, hands=((), (), (), ()), mode="team-high-form"):
    g = Game(board_with(pieces or {}), mode=mode, hands=hands, decks=TEAM)
    g.refresh()
    return g


def test_team_pieces_of_the_teammate_count_as_own():
    # a common of seat 2 (colour 0) above, seat 0's below: a Swordmaster for seat 0
    g = team_game({(3, 4): "c0", (5, 4): "c0"}, hands=([SWORD], (), (), ()))
    assert sword_options(g) == [(0, sq(4, 4))]


def test_team_pass_control_to_the_teammate():
    flare = next(c.id for c in CONTENT.cards if c.kind == K.CK_FLARE)
    enemy = {(8, c): "h1" for c in range(2, 7)}
    g = team_game(enemy, hands=([SWORD, flare], (), (), ()))
    opt = g.options()
    assert (K.OPT_PASS, 0, 0, 0) in opt and any(o[0] == K.OPT_FLARE for o in opt)
    opt = g.act(K.OPT_PASS)
    assert g.s[PASSED] == 1 and g.s[CONTROL] == 2 and g.s[CUR] == 0
    # the teammate may only place commons; no flare, no discard, no second pass
    assert {o[0] for o in opt} == {K.OPT_PLACE}
    assert events(g.s, g.ev, K.EV_PASS) == [(0, 2, 0, 0)]
    g.act(K.OPT_PLACE, sq(4, 4))
    g.act(K.OPT_PLACE, sq(4, 5))  # then ending is the only option: the turn ends
    assert int(g.s[BOARD + sq(4, 4)]) == int(g.s[BOARD + sq(4, 5)]) == 0 * 4 + K.COMMON
    assert g.s[CUR] == 1 and g.s[CONTROL] == 1 and g.s[PASSED] == 0
    assert CONTENT.card_index(flare) in hand(g.s, 0)  # no flare was played
    # the teammate's placements are logged (and counted) under the teammate's seat (issue 10)
    assert events(g.s, g.ev, K.EV_PLACE) == [(2, sq(4, 4), K.COMMON, 0), (2, sq(4, 5), K.COMMON, 0)]
    assert (g.s[N_PLACES + 0], g.s[N_PLACES + 2]) == (0, 2)
    log = [event_text(row, CONTENT, "team-high-form") for row in g.events()]
    assert "seat 2 places a common piece on [4,4]" in log


def test_team_pass_out_of_stock_pickup_logged_under_the_teammate():
    g = team_game({(0, 4): "c0", (8, 4): "h0"}, hands=([SWORD], (), (), ()))
    g.s[STOCK + 0] = 0  # colour 0 out of stock: placing starts with a pick-up
    g.refresh()
    g.act(K.OPT_PASS)  # placing is the teammate's only option: it starts by itself
    assert g.s[PHASE] == K.PH_PLACE_PICKUP
    g.act(K.OPT_PICKUP, sq(8, 4))
    g.act(K.OPT_PLACE, sq(8, 4))  # back where it came from, as a common piece
    assert events(g.s, g.ev, K.EV_PICKUP) == [(2, sq(8, 4), 0 * 4 + K.HEROIC, 0)]
    assert events(g.s, g.ev, K.EV_PLACE)[0] == (2, sq(8, 4), K.COMMON, 0)


def test_team_pass_in_the_middle_of_an_effect():
    g = team_game({(3, 4): "c0", (5, 4): "c0", (3, 3): "c1"}, hands=([SWORD], (), (), ()))
    slot = g.hand_slot(0, SWORD)
    row = next(o for o in g.options() if o[0] == K.OPT_SUMMON and o[1] == slot)
    opt = g.act(*row)
    assert g.s[PHASE] == K.PH_EFFECT and (K.OPT_PASS, 0, 0, 0) in opt
    opt = g.act(K.OPT_PASS)
    assert g.s[CONTROL] == 2 and g.s[PHASE] == K.PH_EFFECT
    assert (K.OPT_PASS, 0, 0, 0) not in opt
    # the teammate finishes the Swordmaster: destroy the diagonal enemy common, upgrade
    t = next(o for o in opt if o[0] == K.OPT_TARGET and o[1] == sq(3, 3))
    g.act(*t)
    assert int(g.s[BOARD + sq(3, 3)]) == 0
    assert int(g.s[BOARD + sq(4, 4)]) == 0 * 4 + K.HEROIC
    assert {o[0] for o in g.options()} == {K.OPT_PLACE}


def test_team_deck_trigger_at_the_sideways_cards():
    s, ev, opts = fresh("team-deathmatch", TEAM, first=0)
    options(s, ev, opts)  # the duel-style set-up for the two colours
    apply_option(s, T, ev, K.OPT_SETUP, 0, 0, 0)
    options(s, ev, opts)
    assert s[CUR] == 0
    s[DECK_CNT + 0] = 6  # only the sideways cards are left
    apply_option(s, T, ev, K.OPT_PLACE, sq(4, 4), 0, 0)
    options(s, ev, opts)
    apply_option(s, T, ev, K.OPT_END_TURN, 0, 0, 0)
    options(s, ev, opts)
    assert s[END_SEAT] == 0 and s[END_REASON] == K.END_DECK and s[GAME_OVER] == 0
    rows = [row for row in ev[: s[EV_N]] if row[0] == K.EV_END_TRIGGER]
    assert [event_text(row, CONTENT, "team-deathmatch") for row in rows] == [
        "end triggered by seat 0: it drew the last card of its deck that is not turned "
        "sideways; final round: seat 1, seat 2, seat 3 and seat 0 play one more turn each"
    ]


@pytest.mark.parametrize("first,setter", [(0, 3), (1, 0), (2, 1), (3, 2)])
def test_team_deathmatch_starting_pieces_put_by_the_fourth_seat(first, setter):
    # Rules summary (reference fact 66, issue 10): in a team duel the player who plays
    # fourth puts the two starting commons, one of each colour.
    s, ev, opts = fresh("team-deathmatch", TEAM, first=first)
    assert options(s, ev, opts) == [(K.OPT_SETUP, 0, 0, 0), (K.OPT_SETUP, 1, 0, 0)]
    assert s[CUR] == setter and s[PHASE] == K.PH_SETUP
    apply_option(s, T, ev, K.OPT_SETUP, 0, 0, 0)
    options(s, ev, opts)
    mine, theirs = (int(q) for q in T.duel_start)
    assert int(s[BOARD + mine]) == (setter % 2) * 4 + K.COMMON
    assert int(s[BOARD + theirs]) == (first % 2) * 4 + K.COMMON
    assert [e[0] for e in events(s, ev, K.EV_SETUP_PIECE)] == [setter, setter]
    assert s[CUR] == first and s[TURN_NO] == 1


def set_deck(g, seat, cards):
    base = deck_base(seat)
    for k, c in enumerate(cards):
        g.s[base + k] = CONTENT.card_index(c)
    g.s[DECK_HEAD + seat] = 0
    g.s[DECK_CNT + seat] = len(cards)


def deck_cards(g, seat):
    base, head = deck_base(seat), g.s[DECK_HEAD + seat]
    return [
        CONTENT.cards[g.s[base + (head + k) % DECK_CAP]].id for k in range(g.s[DECK_CNT + seat])
    ]


def set_shared(g, base, head_f, cnt_f, cards):
    for k, c in enumerate(cards):
        g.s[base + k] = CONTENT.card_index(c)
    g.s[head_f] = 0
    g.s[cnt_f] = len(cards)


IMPERIAL_CARDS = [c.id for c in CONTENT.cards if c.deck == "imperial"]
SYLVAN_CARDS = [c.id for c in CONTENT.cards if c.deck == "sylvan"]
LEGEND_CARDS = [c.id for c in CONTENT.cards if c.kind == K.CK_LEGEND]
FLARE_CARDS = [c.id for c in CONTENT.cards if c.kind == K.CK_FLARE]


@pytest.mark.parametrize("beings_in_hand,triggered", [(4, False), (3, True)])
def test_team_discard_returns_a_card_sideways_and_straightens_one(beings_in_hand, triggered):
    # Rules summary (reference facts 67 and 69, issue 10): a card the discard action returns
    # to the bottom of your deck is turned sideways and the uppermost sideways card is
    # straightened, so exactly six stay sideways; drawing the last card that is not sideways
    # triggers the end. The deck holds 7 cards (1 upright + 6 sideways); returning one makes
    # 2 upright cards, so drawing one card (4 beings in hand) does not trigger the end and
    # drawing two (3 beings in hand) does.
    beings = IMPERIAL_CARDS[:beings_in_hand]
    g = team_game(hands=(beings, (), (), ()))
    set_deck(g, 0, IMPERIAL_CARDS[10:17])
    set_shared(g, LDECK, LDECK_HEAD, LDECK_CNT, LEGEND_CARDS)
    set_shared(g, FDECK, FDECK_HEAD, FDECK_CNT, FLARE_CARDS)
    g.refresh()
    g.act(K.OPT_DISCARD, 0)
    g.act(K.OPT_RETURN, 0)  # the second being goes under the deck, sideways
    g.act(K.OPT_RETURN_DONE)
    assert deck_cards(g, 0) == IMPERIAL_CARDS[10:17] + [beings[1]]
    g.act(K.OPT_PLACE, sq(4, 4))  # the last action; the turn ends by itself
    assert g.s[CUR] == 1
    assert g.s[DECK_CNT + 0] == (6 if triggered else 7)
    assert g.s[END_SEAT] == (0 if triggered else -1)
    if triggered:
        assert g.s[END_REASON] == K.END_DECK


def test_team_legends_and_extra_legend_drawn_by_the_teammate():
    # Rules summary (reference fact 68, issue 10): at the end of a turn you hand all your
    # legend cards to your teammate; you draw up to 3 beings and 1 flare, your teammate draws
    # up to 2 legends, and "draw an extra legend" effects (Forest Mystic) are drawn by the
    # teammate. Seat 2 (sylvan, colour 0) summons Forest Mystic holding one legend card.
    mystic = "sylvan/forest-mystic"
    legend = LEGEND_CARDS[0]
    pieces = {(3, 4): "c0", (4, 3): "c0", (5, 5): "c0"}
    g = team_game(pieces, hands=((), (), (mystic, legend), ()))
    g.s[CUR] = g.s[CONTROL] = 2
    set_deck(g, 2, [c for c in SYLVAN_CARDS if c != mystic][:12])
    set_shared(g, LDECK, LDECK_HEAD, LDECK_CNT, LEGEND_CARDS[1:6])
    set_shared(g, FDECK, FDECK_HEAD, FDECK_CNT, FLARE_CARDS)
    g.refresh()
    slot = g.hand_slot(2, mystic)
    row = next(o for o in g.options() if o[0] == K.OPT_SUMMON and o[1] == slot)
    g.act(*row)
    end_actions(g)
    assert g.s[CUR] == 3
    # seat 0: the handed-over legend, one drawn up to two, one extra
    assert hand(g.s, 0) == [CONTENT.card_index(c) for c in [legend, *LEGEND_CARDS[1:3]]]
    assert kinds(hand(g.s, 2)) == [K.CK_BEING] * 4 + [K.CK_FLARE]  # 3 + 1 extra, no legend
    draws = events(g.s, g.ev, K.EV_DRAW)
    legend_draws = [d for d in draws if T.card_kind[d[1]] == K.CK_LEGEND]
    assert legend_draws == [(0, CONTENT.card_index(c), 0, 0) for c in LEGEND_CARDS[1:3]]
    assert all(d[0] == 2 for d in draws if T.card_kind[d[1]] != K.CK_LEGEND)
    assert events(g.s, g.ev, K.EV_HAND_OVER) == [(2, CONTENT.card_index(legend), 0, 0)]


def test_team_flare_point_goes_to_the_other_team():
    flare = next(c.id for c in CONTENT.cards if c.kind == K.CK_FLARE)
    enemy = {(8, c): "h1" for c in range(2, 7)}
    enemy.update({(7, c): "h1" for c in range(1, 8)})
    g = team_game(enemy, hands=([flare], (), (), ()), mode="team-deathmatch")
    flares = [o for o in g.options() if o[0] == K.OPT_FLARE]
    assert {o[2] for o in flares} == {1}  # the other team's colour
    g.act(*flares[0])
    assert (g.s[SCORE + 0], g.s[SCORE + 1]) == (0, 1)


# --- new-player rules ---------------------------------------------------------------------------


def test_new_player_setup():
    s, ev, opts = fresh("new-player", ("imperial", "imperial"))
    for p in range(2):
        assert kinds(hand(s, p)) == [K.CK_BEING] * 3 + [K.CK_FLARE]
        assert s[LSTOCK + p] == 0 and s[POOL_TOTAL + p] == 17
    shown = [int(s[TAVAIL + k]) for k in range(3)] + [int(s[TNEXT])]
    deck = [int(s[TDECK + (s[TDECK_HEAD] + i) % 32]) for i in range(s[TDECK_CNT])]
    basic = [t for t in range(N_TASKS) if not T.task_advanced[t]]
    assert sorted(shown + deck) == basic
    opt = options(s, ev, opts)
    assert not any(o[0] == K.OPT_DISCARD for o in opt)


def test_new_player_needs_two_imperial_decks():
    from sim.single_game import GameConfig

    with pytest.raises(ValueError, match="two imperial decks"):
        GameConfig(decks=["imperial", "sylvan"], mode="new-player").validate(CONTENT)


def test_new_player_game_ends_at_six_points_without_a_final_round():
    g = Game(mode="new-player", decks=("imperial", "imperial"), hands=((), ()))
    g.refresh()
    g.s[DECK_CNT + 0] = 5
    g.s[TASK_PTS + 0] = 5
    end_actions(g)
    assert g.s[GAME_OVER] == 0 and g.s[CUR] == 1
    g = Game(mode="new-player", decks=("imperial", "imperial"), hands=((), ()))
    g.refresh()
    g.s[DECK_CNT + 0] = 5
    g.s[TASK_PTS + 0] = 6
    end_actions(g)
    assert g.s[GAME_OVER] == 1 and g.s[END_REASON] == K.END_SCORE and g.s[WINNER] == 0
    rows = [row for row in g.events() if row[0] == K.EV_END_TRIGGER]
    assert [event_text(row, CONTENT, "new-player") for row in rows] == [
        "end triggered by seat 0: seat 0 reached 6 points; no final round, the game ends now"
    ]


def test_new_player_game_ends_when_a_deck_runs_out():
    g = Game(mode="new-player", decks=("imperial", "imperial"), hands=((), ()))
    g.refresh()
    end_actions(g)  # position decks are empty: seat 0 drew its last card
    assert g.s[GAME_OVER] == 1 and g.s[END_REASON] == K.END_DECK


# --- the commands ------------------------------------------------------------------------------


def test_moves_lists_an_improvised_summon():
    from sim.position import legal_moves, position_from_dict

    data = {
        "mode": "melee",
        "to_move": 0,
        "board": board_with({(3, 4): "c0", (5, 4): "c1", (2, 2): "c2"}),
        "seat": [
            {"deck": "imperial", "hand": [SWORD]},
            {"deck": "highland", "hand": []},
            {"deck": "sylvan", "hand": []},
        ],
    }
    moves = legal_moves(position_from_dict(data, CONTENT), CONTENT)
    assert [(m["card"], m["target"], m.get("improvised_colour")) for m in moves["summons"]] == [
        (SWORD, [4, 4], 1)
    ]
    data["seat"][0]["improvised"] = [1]
    moves = legal_moves(position_from_dict(data, CONTENT), CONTENT)
    assert moves["summons"] == []


def test_play_logs_a_melee_and_a_team_game(capsys):
    from sim.app.cli import main

    assert main(
        ["play", "--decks", "imperial,highland,sylvan", "--mode", "melee", "--seed", "2"]
    ) in (0, None)
    out = capsys.readouterr().out
    assert out.startswith("kalarite game: melee, seat 0 = imperial, seat 1 = highland, seat 2")
    assert "seat 2 puts c2 on" in out  # the last seat puts the starting pieces
    assert "final score: seat 0 " in out and "(columns 1:" in out
    assert main(
        ["play", "--decks", "imperial,highland,sylvan,sylvan", "--mode", "team-high-form"]
    ) in (0, None)
    out = capsys.readouterr().out
    assert "hands" in out and "to teammate seat 2" in out
    assert "final score: team 0 " in out


@pytest.mark.parametrize(
    "mode,decks",
    [
        ("melee", MELEE3),
        ("melee", MELEE4),
        ("team-high-form", TEAM),
        ("team-deathmatch", TEAM),
        ("new-player", ("imperial", "imperial")),
    ],
)
def test_greedy_seat_zero_wins_most_games_of_every_mode(mode, decks):
    """The lookahead player works in every mode (checked games): as seat 0 (with a random
    teammate in team play) it wins well over its share against random players."""
    from core.kernel import R_ERROR

    n = len(decks)
    pols = ["greedy"] + ["random"] * (n - 1)
    rows = play_named(
        mode, decks, pols, 12, seed=3, checked=True, turn_cap=300, allow_no_effect=True
    ).rows
    assert (rows[:, R_ERROR] == 0).all()
    assert (rows[:, 0] == 0).sum() >= 9  # R_WINNER: seat 0, or team 0 in team play


@pytest.mark.parametrize("mode,decks", [("team-deathmatch", TEAM), ("melee", MELEE3)])
def test_result_rows_credit_points_to_the_right_seats(mode, decks):
    """Team play: both teammates carry the team's score and points by source; melee: a
    seat's points by source add up to its columns, and its score is its lowest column."""
    from core.kernel import (
        R_SEAT,
        R_SEAT_WIDTH,
        S_COLUMN,
        S_PTS_DESTRUCTION,
        S_PTS_FLARE,
        S_PTS_LEGEND,
        S_SCORE,
    )

    n = len(decks)
    pols = ["random"] * n
    rows = play_named(
        mode, decks, pols, 60, seed=8, checked=True, turn_cap=300, allow_no_effect=True
    ).rows

    def col(p, k):
        return rows[:, R_SEAT + p * R_SEAT_WIDTH + k]

    sources = (S_PTS_DESTRUCTION, S_PTS_LEGEND, S_PTS_FLARE)
    for p in range(n):
        by_source = sum(col(p, k) for k in sources)
        if mode == "melee":
            columns = [col(p, S_COLUMN + c) for c in range(n) if c != p]
            assert (by_source == sum(columns)).all()
            assert (col(p, S_SCORE) == np.minimum.reduce(columns)).all()
        else:
            assert (by_source == col(p, S_SCORE)).all()
    if mode != "melee":
        assert (col(0, S_SCORE) == col(2, S_SCORE)).all()
        assert (col(1, S_SCORE) == col(3, S_SCORE)).all()
    assert sum(col(p, S_SCORE).sum() for p in range(n)) > 0  # points were scored at all
