"""Scenarios for the Etherweave beings: summon one, make fixed choices, check the exact
board and the counters (whole games with the deck are in test_etherweave_games.py).

Boards are given as {(row, col): token} on an empty board (``board_with``); seat 0 plays
Etherweave and is to move. Red squares: (1,3) (4,4) (5,7) (7,2); green: (2,2) (2,6) (3,8)
(4,0) (7,5). Squares are row * 9 + col (``sq``).
"""

from core import constants as K
from core.layout import (
    DESTROYED,
    DISC,
    DISC_N,
    HAND_N,
    LDISC_N,
    LEGENDS_SUMMONED,
    LSTOCK,
    PENDING,
    PHASE,
    SCORE,
    SCORE_COLOR,
)
from tests.support.harness import (
    CONTENT,
    Game,
    at,
    board_with,
    is_board,
    skip,
    sq,
    summon,
    target,
    targets,
)

EW = "etherweave"
LEGEND_A, LEGEND_B = "legends/fire-dragon", "legends/hell-bull"


def game(pieces, hand, decks=(EW, "imperial"), mode="high-form"):
    hands = [list(hand)] + [[] for _ in decks[1:]]
    g = Game(board=board_with(pieces), hands=hands, decks=decks, mode=mode)
    g.refresh()
    return g


def effect_over(g):
    return g.s[PHASE] == K.PH_ACTION


def can_skip(g):
    return any(o[0] == K.OPT_SKIP for o in g.options())


def events(g, kind):
    return [tuple(int(x) for x in r[2:]) for r in g.events() if r[0] == kind]


def test_every_etherweave_being_has_its_effect():
    assert CONTENT.missing_effects([EW]) == []
    CONTENT.require_playable([EW, "imperial"], allow_missing_effects=False)


# --- Singularity ----------------------------------------------------------------------------------

SING = {(2, 3): "c0", (2, 5): "c0", (4, 3): "c0", (4, 5): "c0"}
SING_PAT = at((2, 3), (2, 5), (4, 3), (4, 5))


def test_singularity_pulls_every_adjacent_common_in_the_chosen_order():
    around = {(5, 4): "c1", (6, 3): "c0", (7, 4): "c1", (6, 5): "h1"}
    g = game({**SING, **around}, ["etherweave/singularity"])
    summon(g, "etherweave/singularity", sq(3, 4), pattern=SING_PAT)
    squares = {a for a, _ in targets(g)}
    # compulsory; empty colourless squares only (not red (4,4), not green (2,2))
    assert not can_skip(g) and sq(6, 4) in squares
    assert sq(4, 4) not in squares and sq(2, 2) not in squares and sq(5, 4) not in squares
    target(g, sq(6, 4))
    assert events(g, K.EV_SELECT_SQUARE) == [(0, sq(6, 4), 0, 0)]
    # every common next to (6,4) must step onto it; the heroic (6,5) stays
    assert targets(g) == [(sq(5, 4), sq(6, 4)), (sq(6, 3), sq(6, 4)), (sq(7, 4), sq(6, 4))]
    assert not can_skip(g)
    target(g, sq(6, 3), sq(6, 4))
    target(g, sq(5, 4), sq(6, 4))  # destroys the own common that arrived first
    # the last one is forced and applied without asking; it destroys the enemy common
    assert effect_over(g)
    is_board(g, {**SING, (3, 4): "h0", (6, 4): "c1", (6, 5): "h1"})
    assert g.s[DESTROYED + 1 * 4 + K.COMMON] == 1


def test_singularity_with_no_common_next_to_the_square_moves_nothing():
    g = game({**SING, (0, 4): "h1"}, ["etherweave/singularity"])
    summon(g, "etherweave/singularity", sq(3, 4), pattern=SING_PAT)
    target(g, sq(6, 4))
    assert effect_over(g)
    is_board(g, {**SING, (3, 4): "h0", (0, 4): "h1"})


# --- Dark Sphere ----------------------------------------------------------------------------------

SPHERE = {(3, 4): "c0", (3, 5): "c0", (4, 4): "c0", (4, 5): "c0"}
SPHERE_PAT = at((3, 4), (4, 4), (4, 5))


def sphere_game(extra):
    g = game({**SPHERE, **extra}, ["etherweave/dark-sphere"])
    # the Sphere goes onto its own common at (3,5) (the target holds your common)
    slot = g.hand_slot(0, "etherweave/dark-sphere")
    rows = [o for o in g.options() if o[0] == K.OPT_SUMMON and o[1] == slot and o[3] == sq(3, 5)]
    assert rows
    summon(g, "etherweave/dark-sphere", sq(3, 5), pattern=SPHERE_PAT)
    return g


def test_dark_sphere_at_most_two_of_one_colour_each_ending_two_away():
    g = sphere_game({(1, 5): "c1", (5, 6): "c1", (3, 7): "c1", (6, 3): "h0"})
    t = targets(g)
    assert can_skip(g)
    # every step ends at king distance exactly 2 from the Sphere on (3,5)
    assert (sq(1, 5), sq(1, 4)) in t and (sq(1, 5), sq(2, 5)) not in t
    assert (sq(1, 5), sq(0, 5)) not in t
    assert (sq(6, 3), sq(5, 3)) in t and (sq(6, 3), sq(7, 3)) not in t
    target(g, sq(1, 5), sq(1, 4))
    assert sq(1, 4) not in {a for a, _ in targets(g)}  # all different
    target(g, sq(5, 6), sq(5, 5))
    # two colour-1 pieces moved: the third may not be colour 1
    third = targets(g)
    assert third and all(a not in (sq(3, 7), sq(1, 4), sq(5, 5)) for a, _ in third)
    assert (sq(6, 3), sq(5, 3)) in third
    target(g, sq(6, 3), sq(5, 3))
    assert effect_over(g)
    is_board(
        g,
        {**SPHERE, (3, 5): "h0", (1, 4): "c1", (5, 5): "c1", (3, 7): "c1", (5, 3): "h0"},
    )


def test_dark_sphere_two_colours_leave_any_third():
    g = sphere_game({(1, 5): "c1", (6, 3): "h0", (3, 7): "c1"})
    target(g, sq(1, 5), sq(1, 4))
    target(g, sq(6, 3), sq(5, 3))
    assert (sq(3, 7), sq(2, 7)) in targets(g)
    target(g, sq(3, 7), sq(2, 7))
    assert effect_over(g)
    is_board(g, {**SPHERE, (3, 5): "h0", (1, 4): "c1", (5, 3): "h0", (2, 7): "c1"})


def test_dark_sphere_may_stop_early():
    g = sphere_game({(1, 5): "c1"})
    skip(g)
    assert effect_over(g)
    is_board(g, {**SPHERE, (3, 5): "h0", (1, 5): "c1"})


# --- Iris of Eternity -----------------------------------------------------------------------------

IRIS = {(4, 3): "c0", (4, 5): "c0", (5, 3): "c0", (5, 5): "c0", (6, 4): "c0"}
IRIS_PAT = at((4, 3), (4, 5), (5, 3), (5, 5), (6, 4))
IRIS_HAND = ["etherweave/iris-of-eternity", LEGEND_A, LEGEND_B]


def test_iris_upgrades_itself_counts_a_legend_and_discards_legend_cards():
    g = game({**IRIS, (2, 4): "l1"}, IRIS_HAND, mode="deathmatch")
    summon(g, "etherweave/iris-of-eternity", sq(3, 4), pattern=IRIS_PAT)
    assert targets(g) == [(sq(2, 4), -1), (sq(3, 4), -1)] and can_skip(g)
    target(g, sq(3, 4))
    assert effect_over(g)
    is_board(g, {**IRIS, (2, 4): "l1", (3, 4): "l0"})
    assert g.s[SCORE] == 1 and g.s[LEGENDS_SUMMONED] == 1
    assert g.s[HAND_N] == 0 and g.s[LDISC_N] == 2
    assert len(events(g, K.EV_DISCARD_LEGEND)) == 2


def test_iris_destroys_an_adjacent_legend_and_keeps_the_cards():
    g = game({**IRIS, (2, 4): "l1"}, IRIS_HAND, mode="deathmatch")
    summon(g, "etherweave/iris-of-eternity", sq(3, 4), pattern=IRIS_PAT)
    target(g, sq(2, 4))
    assert effect_over(g)
    is_board(g, {**IRIS, (3, 4): "h0"})
    assert g.s[LEGENDS_SUMMONED] == 0 and g.s[HAND_N] == 2 and g.s[LDISC_N] == 0


def test_iris_without_legend_stock_cannot_upgrade():
    g = game({**IRIS, (2, 4): "l1"}, IRIS_HAND)
    g.s[LSTOCK] = 0
    g.refresh()
    summon(g, "etherweave/iris-of-eternity", sq(3, 4), pattern=IRIS_PAT)
    assert targets(g) == [(sq(2, 4), -1)]
    skip(g)
    assert effect_over(g) and g.s[HAND_N] == 2
    is_board(g, {**IRIS, (2, 4): "l1", (3, 4): "h0"})


def test_iris_in_melee_chooses_the_legend_column():
    g = game({**IRIS}, IRIS_HAND, decks=(EW, "imperial", "highland"), mode="melee")
    summon(g, "etherweave/iris-of-eternity", sq(3, 4), pattern=IRIS_PAT)
    target(g, sq(3, 4))
    assert targets(g) == [(1, -1), (2, -1)] and not can_skip(g)
    target(g, 2)
    assert g.s[SCORE_COLOR + 2] == 1 and g.s[SCORE_COLOR + 1] == 0
    assert effect_over(g) and g.s[HAND_N] == 0


# --- Shadow Twins ---------------------------------------------------------------------------------

LESSER, GREATER = "etherweave/lesser-shadow-twin", "etherweave/greater-shadow-twin"
LTWIN = {(4, 3): "c0", (4, 4): "c0", (4, 5): "c0"}


def in_discard(g, cid):
    g.s[DISC + g.s[DISC_N]] = CONTENT.card_index(cid)
    g.s[DISC_N] += 1
    g.refresh()


def test_lesser_twin_destroys_two_commons_next_to_one_piece_of_yours():
    g = game({**LTWIN, (5, 5): "c1", (3, 6): "c1", (5, 2): "c1"}, [LESSER])
    in_discard(g, GREATER)
    summon(g, LESSER, sq(3, 3), pattern=at((4, 3), (4, 4), (4, 5)))
    first = targets(g)
    assert can_skip(g) and {(sq(5, 5), -1), (sq(3, 6), -1), (sq(5, 2), -1)} <= set(first)
    target(g, sq(5, 5))
    # the second victim: next to a piece of yours that touches (5,5), i.e. (4,4) or (4,5)
    second = targets(g)
    assert (sq(3, 6), -1) in second and (sq(5, 2), -1) not in second
    target(g, sq(3, 6))
    assert effect_over(g)
    is_board(g, {**LTWIN, (3, 3): "c0", (5, 2): "c1"})
    assert g.s[DESTROYED + 4 + K.COMMON] == 2


def test_lesser_twin_without_the_greater_twin_in_the_discard_pile_does_nothing():
    g = game({**LTWIN, (5, 5): "c1"}, [LESSER])
    summon(g, LESSER, sq(3, 3), pattern=at((4, 3), (4, 4), (4, 5)))
    assert effect_over(g)
    is_board(g, {**LTWIN, (3, 3): "c0", (5, 5): "c1"})


GTWIN = {(6, 3): "c0", (6, 4): "c0", (6, 5): "c0"}


def test_greater_twin_destroys_a_heroic_touching_two_of_your_pieces():
    g = game({**GTWIN, (5, 3): "h1", (2, 2): "h1", (7, 4): "h0"}, [GREATER])
    in_discard(g, LESSER)
    summon(g, GREATER, sq(6, 2), pattern=at((6, 3), (6, 4), (6, 5)))
    assert targets(g) == [(sq(5, 3), -1), (sq(7, 4), -1)] and can_skip(g)
    target(g, sq(5, 3))
    assert effect_over(g)
    is_board(g, {**GTWIN, (6, 2): "h0", (2, 2): "h1", (7, 4): "h0"})


def test_greater_twin_without_the_lesser_twin_in_the_discard_pile_does_nothing():
    g = game({**GTWIN, (5, 3): "h1"}, [GREATER])
    summon(g, GREATER, sq(6, 2), pattern=at((6, 3), (6, 4), (6, 5)))
    assert effect_over(g)


def test_twin_warp_upgrades_one_of_your_commons():
    g = game({(6, 6): "c0", (1, 1): "c1"}, [GREATER])
    g.act(K.OPT_WARP, 0, 0, 0)
    assert effect_over(g) and g.board()[6].split()[6] == "h0"
    assert g.s[PENDING] == CONTENT.card_index(GREATER)


# --- Polarity Queen -------------------------------------------------------------------------------

QUEEN = "etherweave/polarity-queen"
QPAT = at((3, 3), (3, 5), (4, 4), (5, 4))


def test_polarity_queen_two_pieces_step_in_opposite_directions():
    g = game({(3, 3): "c0", (3, 5): "c0", (4, 4): "c0", (5, 4): "c0"}, [QUEEN])
    summon(g, QUEEN, sq(2, 4), pattern=QPAT)
    assert not can_skip(g) and all(a != sq(2, 4) for a, _ in targets(g))
    target(g, sq(3, 3), sq(3, 2))  # west
    assert targets(g) == [(sq(3, 5), sq(3, 6)), (sq(4, 4), sq(4, 5)), (sq(5, 4), sq(5, 5))]
    assert not can_skip(g)
    target(g, sq(5, 4), sq(5, 5))
    assert effect_over(g)
    is_board(g, {(2, 4): "h0", (3, 2): "c0", (3, 5): "c0", (4, 4): "c0", (5, 5): "c0"})


def test_polarity_queen_offers_a_first_step_only_with_a_partner_step():
    # legendary pieces fill the pattern but never step; (7,7) cannot step east or south
    pieces = {(3, 3): "l0", (3, 5): "l0", (4, 4): "l0", (5, 4): "h0", (7, 7): "c0"}
    g = game(pieces, [QUEEN])
    summon(g, QUEEN, sq(2, 4), pattern=QPAT)
    t = targets(g)
    assert (sq(5, 4), sq(5, 5)) in t and (sq(5, 4), sq(5, 3)) not in t
    assert (sq(5, 4), sq(4, 3)) not in t and (sq(5, 4), sq(6, 4)) in t
    assert (sq(7, 7), sq(7, 6)) in t


def test_polarity_queen_warp_puts_a_common_next_to_an_enemy_piece():
    g = game({(0, 4): "c1"}, [QUEEN])
    g.act(K.OPT_WARP, 0, 0, 0)
    assert not can_skip(g)
    assert targets(g) == sorted((sq(r, c), 0) for r, c in ((0, 3), (0, 5), (1, 3), (1, 4), (1, 5)))
    target(g, sq(1, 4), 0)
    assert effect_over(g) and g.board()[1].split()[4] == "c0"
