"""One scenario per Sylvan being and per legend: summon it, make fixed choices, check the board.

Boards are drawn from seat 0's point of view (``c0`` own, ``c1`` enemy); seat 0 is to move with
two actions, so after a summon one action is left (two after Unicorn's extra action).
Squares are row * 9 + col (``sq``). Red squares: 12 40 52 65; green: 20 24 35 36 68.
"""

from core import constants as K
from core.layout import (
    ACTIONS_LEFT,
    CUR,
    DECK,
    DECK_CNT,
    DECK_HEAD,
    DESTROYED,
    DISC,
    DISC_N,
    EXTRA_DRAW_BEINGS,
    EXTRA_DRAW_LEGENDS,
    EXTRA_TURN,
    IS_EXTRA,
    LSTOCK,
    PHASE,
    STOCK,
)
from tests.support.harness import CONTENT, Game, skip, sq, summon, target, targets

C, H, L = K.COMMON, K.HEROIC, K.LEGENDARY
N, NE, E, SE, S, SW, W, NW = range(8)  # directions, as shot targets


def lines(text):
    rows = [r.strip() for r in text.strip().splitlines()]
    assert len(rows) == 9
    return rows


def game(board, card):
    g = Game(board=lines(board), hands=([card], []), decks=("sylvan", "imperial"))
    g.refresh()
    return g


def destroyed(g, colour, rank):
    return int(g.s[DESTROYED + colour * 4 + rank])


def can_skip(g):
    return any(o[0] == K.OPT_SKIP for o in g.options())


def effect_over(g):
    return g.s[PHASE] == K.PH_ACTION


def card(cid):
    return CONTENT.card_index(cid)


# --- Sylvan -------------------------------------------------------------------------------------


def test_sapling_upgrades_itself():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. c1 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/sapling",
    )
    summon(g, "sylvan/sapling", sq(4, 4))
    assert effect_over(g)  # automatic: no decision
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. c1 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. h0 .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert g.s[ACTIONS_LEFT] == 1


def test_kiskin_farseeders_places_next_to_own_piece():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. c1 .. .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. c0 .. .. ..
        ## .. .. c0 .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/kiskin-farseeders",
    )
    stock = int(g.s[STOCK])
    summon(g, "sylvan/kiskin-farseeders", sq(6, 4))
    assert can_skip(g)
    # empty squares next to the Farseeders (6,4) or the pieces on (6,5) and (7,3)
    want = {
        (r, c)
        for r, c in [(5, 3), (5, 4), (5, 5), (6, 3), (7, 4), (7, 5)]
        + [(5, 6), (6, 6), (7, 6)]
        + [(6, 2), (7, 2), (8, 2), (8, 3), (8, 4)]
    }
    assert targets(g) == sorted((sq(r, c), 0) for r, c in want)
    target(g, sq(5, 6), 0)
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. c1 .. .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. c0 .. ..
        .. .. .. .. c0 c0 .. .. ..
        ## .. .. c0 .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert g.s[STOCK] == stock - 2  # the being and the placed piece
    assert g.s[ACTIONS_LEFT] == 1


def test_charging_buck_two_leaps_of_distance_two():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. h1 .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. c1 .. ..
        .. .. .. c0 c0 .. .. .. ..
        .. .. .. c0 .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/charging-buck",
    )
    summon(g, "sylvan/charging-buck", sq(3, 4))
    assert can_skip(g)
    ring = [
        (r, c)
        for r in range(1, 6)
        for c in range(2, 7)
        if max(abs(r - 3), abs(c - 4)) == 2 and (r, c) != (1, 4)  # heroic: too strong
    ]
    assert len(ring) == 15  # own commons on the ring may be taken (combat)
    assert targets(g) == sorted((sq(3, 4), sq(r, c)) for r, c in ring)
    target(g, sq(3, 4), sq(3, 6))  # destroys the enemy common
    assert can_skip(g)
    target(g, sq(3, 6), sq(1, 7))
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. h1 .. .. c0 ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. c0 c0 .. .. .. ..
        .. .. .. c0 .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, C) == 1
    assert g.s[ACTIONS_LEFT] == 1


def test_forest_wardens_destroys_common_but_not_heroic_when_not_outnumbered():
    # after the summon: own commons 3 < enemy commons 4; own upgraded 1 = enemy upgraded 1
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. c1 .. c1 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. c0 .. .. c0 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. c1 c1 ..
        ## .. .. .. .. h1 .. h0 ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/forest-wardens",
    )
    summon(g, "sylvan/forest-wardens", sq(4, 3))
    assert not can_skip(g)  # mandatory
    assert targets(g) == sorted((q, -1) for q in [sq(2, 2), sq(2, 4), sq(6, 6), sq(6, 7)])
    target(g, sq(6, 6))
    assert effect_over(g)  # no opponent with more upgraded pieces: the heroic step is void
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. c1 .. c1 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. c0 .. c0 c0 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. .. c1 ..
        ## .. .. .. .. h1 .. h0 ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, C) == 1 and destroyed(g, 1, H) == 0


def test_forest_wardens_destroys_both_when_outnumbered_twice():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. c1 .. c1 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. c0 .. .. c0 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. c1 c1 ..
        ## .. .. .. .. h1 .. h1 ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/forest-wardens",
    )
    summon(g, "sylvan/forest-wardens", sq(4, 3))
    target(g, sq(2, 2))
    assert not can_skip(g)
    assert targets(g) == [(sq(7, 5), -1), (sq(7, 7), -1)]
    target(g, sq(7, 7))
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. c1 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. c0 .. c0 c0 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. c1 c1 ..
        ## .. .. .. .. h1 .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, C) == 1 and destroyed(g, 1, H) == 1


def test_naiad_moves_two_different_neighbours():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. c0 c0 c0 c1 .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/naiad",
    )
    summon(g, "sylvan/naiad", sq(3, 4))
    assert can_skip(g)
    # only (4,3) and (4,4) are next to the Naiad; commons make standard moves onto empty squares
    first = targets(g)
    assert {a for a, _ in first} == {sq(4, 3), sq(4, 4)}
    assert (sq(4, 4), sq(4, 5)) not in first  # an enemy common: not lower than a common
    target(g, sq(4, 4), sq(3, 5))
    assert can_skip(g)
    # the piece now on (3,5) was already moved: only (4,3) remains
    second = targets(g)
    assert {a for a, _ in second} == {sq(4, 3)}
    target(g, sq(4, 3), sq(4, 4))
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. c0 c0 .. .. ..
        .. .. c0 .. c0 c1 .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )


KISKIN_SPIRIT_BOARD = """
    ## ## .. .. .. .. .. ## ##
    ## .. .. .. .. .. .. .. ##
    .. .. .. .. .. .. .. .. ..
    .. .. .. .. .. .. .. .. ..
    .. .. c0 .. .. .. .. .. ..
    .. .. c0 .. c0 .. .. .. ..
    .. .. .. .. .. .. .. .. ..
    ## .. .. .. .. .. .. .. ##
    ## ## .. .. .. .. .. ## ##
    """
KISKIN_SPIRIT_AFTER = lines(
    """
    ## ## .. .. .. .. .. ## ##
    ## .. .. .. .. .. .. .. ##
    .. .. .. .. .. .. .. .. ..
    .. .. .. .. .. .. .. .. ..
    .. .. c0 .. h0 .. .. .. ..
    .. .. c0 .. c0 .. .. .. ..
    .. .. .. .. .. .. .. .. ..
    ## .. .. .. .. .. .. .. ##
    ## ## .. .. .. .. .. ## ##
    """
)


def _spirit_game(discards):
    g = game(KISKIN_SPIRIT_BOARD, "sylvan/kiskin-spirit")
    for i, cid in enumerate(discards):
        g.s[DISC + i] = card(cid)
    g.s[DISC_N] = len(discards)
    g.s[DECK + 0] = card("sylvan/dryad")  # seat 0's deck: one card
    g.s[DECK_HEAD] = 0
    g.s[DECK_CNT] = 1
    return g


def _deck_top(g):
    return int(g.s[DECK + g.s[DECK_HEAD]])


def _discards(g):
    return [int(g.s[DISC + i]) for i in range(g.s[DISC_N])]


def test_kiskin_spirit_card_to_top_and_extra_draw():
    g = _spirit_game(["sylvan/sapling", "sylvan/naiad"])
    summon(g, "sylvan/kiskin-spirit", sq(4, 4), pattern=[sq(4, 2), sq(5, 2), sq(5, 4)])
    assert can_skip(g)
    assert targets(g) == [(0, -1), (1, -1)]  # one target per card of the discard pile
    target(g, 1)  # the Naiad goes on top of the deck
    assert effect_over(g)
    assert g.board() == KISKIN_SPIRIT_AFTER
    assert _deck_top(g) == card("sylvan/naiad") and g.s[DECK_CNT] == 2
    assert _discards(g) == [card("sylvan/sapling"), card("sylvan/kiskin-spirit")]
    assert g.s[EXTRA_DRAW_BEINGS] == 1 and g.s[EXTRA_DRAW_LEGENDS] == 0


def test_kiskin_spirit_declined_gives_no_extra_draw():
    g = _spirit_game(["sylvan/sapling"])
    summon(g, "sylvan/kiskin-spirit", sq(4, 4), pattern=[sq(4, 2), sq(5, 2), sq(5, 4)])
    skip(g)
    assert effect_over(g)
    assert g.board() == KISKIN_SPIRIT_AFTER
    assert _deck_top(g) == card("sylvan/dryad") and g.s[DECK_CNT] == 1
    assert _discards(g) == [card("sylvan/sapling"), card("sylvan/kiskin-spirit")]
    assert g.s[EXTRA_DRAW_BEINGS] == 0


def test_kiskin_spirit_empty_discard_pile_still_draws():
    g = _spirit_game([])
    summon(g, "sylvan/kiskin-spirit", sq(4, 4), pattern=[sq(4, 2), sq(5, 2), sq(5, 4)])
    assert effect_over(g)  # nothing to choose
    assert g.board() == KISKIN_SPIRIT_AFTER
    assert _deck_top(g) == card("sylvan/dryad") and g.s[DECK_CNT] == 1
    assert _discards(g) == [card("sylvan/kiskin-spirit")]
    assert g.s[EXTRA_DRAW_BEINGS] == 1


def test_dryad_converts_adjacent_non_legendary_to_common():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. c0 .. h1 .. .. ..
        .. .. .. c1 c0 l1 .. .. ..
        .. .. .. .. c0 .. c1 .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/dryad",
    )
    summon(g, "sylvan/dryad", sq(4, 4))
    assert can_skip(g)
    assert targets(g) == [(sq(3, 5), -1), (sq(4, 3), -1)]  # not the legend, not (5,6)
    target(g, sq(3, 5))
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. c0 .. c0 .. .. ..
        .. .. .. c1 h0 l1 .. .. ..
        .. .. .. .. c0 .. c1 .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, H) == 1  # a conversion counts as destroyed


def test_centaur_spearman_moves_then_destroys_next_piece_in_line():
    g = game(
        """
        ## ## h1 .. .. .. .. ## ##
        ## .. c1 .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. h1 .. .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. c0 c0 c0 .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/centaur-spearman",
    )
    summon(g, "sylvan/centaur-spearman", sq(4, 2))
    assert can_skip(g)
    target(g, sq(4, 2), sq(3, 2))  # combat move onto the enemy heroic, northwards
    assert effect_over(g)  # the shot is automatic
    assert g.board() == lines(
        """
        ## ## h1 .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. h0 .. .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. c0 c0 c0 .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, H) == 1 and destroyed(g, 1, C) == 1


def test_centaur_spearman_next_piece_legendary_is_spared():
    g = game(
        """
        ## ## c1 .. .. .. .. ## ##
        ## .. l1 .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. c0 c0 c0 .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/centaur-spearman",
    )
    summon(g, "sylvan/centaur-spearman", sq(4, 2))
    target(g, sq(4, 2), sq(3, 2))
    assert effect_over(g)
    assert g.board()[0:4] == [
        "## ## c1 .. .. .. .. ## ##",
        "## .. l1 .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. h0 .. .. .. .. .. ..",
    ]
    assert destroyed(g, 1, L) == 0 and destroyed(g, 1, C) == 0


def test_centaur_chieftain_others_follow_in_the_same_direction():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. c0 .. .. .. .. .. ..
        .. .. .. c0 .. .. .. .. ..
        .. .. .. .. c0 c1 .. .. ..
        .. .. .. .. .. c0 .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/centaur-chieftain",
    )
    summon(g, "sylvan/centaur-chieftain", sq(3, 4))
    assert can_skip(g)
    target(g, sq(3, 4), sq(3, 5))  # east
    assert can_skip(g)
    # every other piece of yours, one step east (the Chieftain itself excluded)
    assert targets(g) == sorted(
        [
            (sq(2, 2), sq(2, 3)),
            (sq(3, 3), sq(3, 4)),
            (sq(4, 4), sq(4, 5)),
            (sq(5, 5), sq(5, 6)),
        ]
    )
    target(g, sq(4, 4), sq(4, 5))  # destroys the enemy common
    target(g, sq(2, 2), sq(2, 3))
    assert can_skip(g)
    skip(g)
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. c0 .. .. .. .. ..
        .. .. .. c0 .. h0 .. .. ..
        .. .. .. .. .. c0 .. .. ..
        .. .. .. .. .. c0 .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, C) == 1


UNICORN_BOARD = """
    ## ## .. .. .. .. .. ## ##
    ## .. .. .. .. .. .. .. ##
    .. .. .. .. .. .. h1 .. ..
    .. .. .. .. c0 .. .. .. ..
    .. .. .. c0 c0 .. .. .. ..
    .. .. .. c0 .. .. .. .. ..
    .. .. .. .. .. .. .. .. ..
    ## .. .. .. .. .. .. .. ##
    ## ## .. .. .. .. .. ## ##
    """


def test_unicorn_gain_action():
    g = game(UNICORN_BOARD, "sylvan/unicorn")
    summon(g, "sylvan/unicorn", sq(3, 5))
    assert can_skip(g)
    assert targets(g) == [(0, -1), (1, -1)]
    target(g, 1)
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. h1 .. ..
        .. .. .. .. c0 h0 .. .. ..
        .. .. .. c0 c0 .. .. .. ..
        .. .. .. c0 .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert g.s[ACTIONS_LEFT] == 2


def test_unicorn_combat_move():
    g = game(UNICORN_BOARD, "sylvan/unicorn")
    summon(g, "sylvan/unicorn", sq(3, 5))
    target(g, 0)
    assert not can_skip(g)
    target(g, sq(3, 5), sq(2, 6))
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. h0 .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. c0 c0 .. .. .. ..
        .. .. .. c0 .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert g.s[ACTIONS_LEFT] == 1 and destroyed(g, 1, H) == 1


def test_sylvan_queen_converts_diagonal_piece_keeping_its_rank():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. l1 .. h1 .. .. .. ..
        .. .. c1 .. .. .. .. .. ..
        .. .. c1 c0 .. c0 .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/sylvan-queen",
    )
    summon(g, "sylvan/sylvan-queen", sq(3, 3))
    assert can_skip(g)
    assert targets(g) == [(sq(2, 4), -1), (sq(4, 2), -1)]  # (3,2) is orthogonal
    target(g, sq(2, 4))
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. l1 .. h0 .. .. .. ..
        .. .. c1 h0 .. .. .. .. ..
        .. .. c1 c0 .. c0 .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, H) == 1


def test_sylvan_princess_skipped():
    board = """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. h1 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. c1 c0 .. .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. c0 .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    g = game(board, "sylvan/sylvan-princess")
    summon(g, "sylvan/sylvan-princess", sq(3, 3))
    assert can_skip(g)
    assert targets(g) == [(sq(4, 2), -1)]  # the heroic on (2,4) cannot be taken
    skip(g)
    assert effect_over(g)
    want = lines(board)
    want[3] = ".. .. .. h0 .. .. .. .. .."
    assert g.board() == want
    assert destroyed(g, 1, C) == 0


def test_sylvan_princess_converts_diagonal_common():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. h1 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. c1 c0 .. .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. c0 .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/sylvan-princess",
    )
    summon(g, "sylvan/sylvan-princess", sq(3, 3))
    target(g, sq(4, 2))
    assert g.board()[3:5] == [".. .. .. h0 .. .. .. .. ..", ".. .. c0 c0 .. .. .. .. .."]
    assert destroyed(g, 1, C) == 1


def test_woodland_druid_upgrades_one_common_of_each_colour():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. c1 .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. c0 .. c0 .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. c1 .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/woodland-druid",
    )
    summon(g, "sylvan/woodland-druid", sq(4, 4))
    assert not can_skip(g)
    assert targets(g) == [(sq(3, 3), -1), (sq(3, 5), -1), (sq(5, 4), -1)]
    target(g, sq(5, 4))
    assert not can_skip(g)
    assert targets(g) == [(sq(1, 4), -1), (sq(7, 4), -1)]
    target(g, sq(7, 4))
    assert effect_over(g)  # two players: no colour left
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. c1 .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. c0 .. c0 .. .. ..
        .. .. .. .. h0 .. .. .. ..
        .. .. .. .. h0 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. h1 .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )


def test_forest_ancient_places_two_enemy_commons_then_destroys_two():
    g = game(
        """
        ## ## .. .. c1 .. .. ## ##
        ## .. .. .. c1 .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. c0 .. c0 .. .. ..
        .. .. .. c0 .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/forest-ancient",
    )
    enemy_stock = int(g.s[STOCK + 1])
    summon(g, "sylvan/forest-ancient", sq(4, 4))
    assert not can_skip(g)
    # empty squares within distance 2, each with the enemy as owner
    first = targets(g)
    assert all(b == 1 for _, b in first) and len(first) == 24 - 4
    target(g, sq(2, 2), 1)
    target(g, sq(6, 6), 1)
    assert not can_skip(g)
    # enemy commons within distance 3 (not the one on (0,4): distance 4)
    assert targets(g) == [(sq(1, 4), -1), (sq(2, 2), -1), (sq(6, 6), -1)]
    target(g, sq(1, 4))
    assert targets(g) == [(sq(2, 2), -1), (sq(6, 6), -1)]
    target(g, sq(2, 2))
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. c1 .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. c0 h0 c0 .. .. ..
        .. .. .. c0 .. .. .. .. ..
        .. .. .. .. .. .. c1 .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, C) == 2
    assert g.s[STOCK + 1] == enemy_stock  # two placed, two destroyed


def test_forest_mystic_extra_draws():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. c0 .. .. .. .. ..
        .. .. .. .. .. c0 .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/forest-mystic",
    )
    summon(g, "sylvan/forest-mystic", sq(4, 4))
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. c0 h0 .. .. .. ..
        .. .. .. .. .. c0 .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert g.s[EXTRA_DRAW_BEINGS] == 1 and g.s[EXTRA_DRAW_LEGENDS] == 1


def test_kiskin_leafsplitter_two_diagonal_shots():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. h1 .. .. .. l1 .. ..
        .. .. .. c1 c0 .. .. .. ..
        .. .. .. c0 .. c0 .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. .. .. .. c0 .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/kiskin-leafsplitter",
    )
    summon(g, "sylvan/kiskin-leafsplitter", sq(4, 4))
    assert can_skip(g)
    assert targets(g) == [(NE, -1), (SE, -1), (NW, -1)]  # nothing south-west
    target(g, NE)  # the legend on (2,6)
    assert can_skip(g)
    assert targets(g) == [(SE, -1), (NW, -1)]
    target(g, NW)  # only the first piece: (3,3), not (2,2)
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. h1 .. .. .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. c0 h0 c0 .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. .. .. .. c0 .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, L) == 1 and destroyed(g, 1, C) == 1


def test_kiskin_boughrunner_moves_end_next_to_another_own_piece():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. c0 .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. h1 .. .. ..
        .. .. .. c0 c0 c0 .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/kiskin-boughrunner",
    )
    summon(g, "sylvan/kiskin-boughrunner", sq(3, 4))
    assert can_skip(g)
    b = sq(3, 4)
    # (2,3) touches only the Boughrunner's own square: refused; own commons may be taken
    assert targets(g) == sorted(
        (b, sq(r, c)) for r, c in [(2, 4), (2, 5), (3, 3), (3, 5), (4, 3), (4, 4), (4, 5)]
    )
    target(g, b, sq(3, 5))  # destroys the enemy heroic
    b = sq(3, 5)
    assert targets(g) == sorted(
        (b, sq(r, c)) for r, c in [(2, 4), (2, 5), (2, 6), (3, 4), (3, 6), (4, 4), (4, 5), (4, 6)]
    )
    target(g, b, sq(2, 5))
    assert can_skip(g)
    skip(g)
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. c0 .. .. ##
        .. .. .. .. .. h0 .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. c0 c0 c0 .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, H) == 1


def test_tree_shepherd_heroic_piece_combat_move():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. h0 h1 .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. c0 .. c0 .. .. ..
        .. .. .. .. c0 c0 .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. l0 .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "sylvan/tree-shepherd",
    )
    summon(g, "sylvan/tree-shepherd", sq(4, 4))
    assert can_skip(g)
    opts = g.options()
    alts = {(a, alt) for kind, a, _, alt in opts if kind == K.OPT_TARGET}
    # upgrades of the commons (alternative 0), heroic moves (1), the legend's moves (2)
    assert {a for a, alt in alts if alt == 0} == {sq(4, 3), sq(4, 5), sq(5, 4), sq(5, 5)}
    assert {a for a, alt in alts if alt == 1} == {sq(2, 2), sq(4, 4)}
    assert {a for a, alt in alts if alt == 2} == {sq(7, 4)}
    target(g, sq(2, 2), sq(2, 3))  # the heroic takes the enemy heroic
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. h0 .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. c0 h0 c0 .. .. ..
        .. .. .. .. c0 c0 .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. l0 .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, H) == 1


# --- Legends ------------------------------------------------------------------------------------


def test_fire_dragon_fan_of_three_directions_range_two():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. h0 .. h0 .. .. ##
        .. .. .. .. c0 .. .. .. ..
        .. .. .. h1 h0 .. .. .. ..
        .. .. .. .. .. .. .. c1 ..
        .. .. .. l1 c1 .. .. .. ..
        .. .. h1 .. c0 .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "legends/fire-dragon",
    )
    summon(g, "legends/fire-dragon", sq(4, 4))
    assert not can_skip(g)
    # arrows W, SW, S, SE, E: every one is offered, E (with NE and SE) too, although it
    # would hit nothing within two squares
    assert targets(g) == [(E, -1), (SE, -1), (S, -1), (SW, -1), (W, -1)]
    target(g, S)  # S, plus SW and SE
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. h0 .. h0 .. .. ##
        .. .. .. .. c0 .. .. .. ..
        .. .. .. h1 h0 .. .. .. ..
        .. .. .. .. l0 .. .. c1 ..
        .. .. .. l1 .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    # the legend on (5,3) is passed over; the own common on (6,4) is lost but not counted
    assert destroyed(g, 1, C) == 1 and destroyed(g, 1, H) == 1 and destroyed(g, 1, L) == 0


def test_fire_dragon_may_fire_where_nothing_is_destroyed():
    # The shot is compulsory but the direction free: any of the five arrows, even one along
    # which nothing would be destroyed (BGA offers every arrow square; reference cards.json
    # notes, issue 10). Here every other direction would cost the player its own pieces.
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. h0 .. h0 .. .. ##
        .. .. .. .. c0 .. .. .. ..
        .. .. .. .. h0 .. .. .. ..
        .. .. c0 .. .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "legends/fire-dragon",
    )
    summon(g, "legends/fire-dragon", sq(4, 4))
    assert not can_skip(g)
    assert targets(g) == [(E, -1), (SE, -1), (S, -1), (SW, -1), (W, -1)]
    target(g, E)  # E, NE and SE: nothing within two squares
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. h0 .. h0 .. .. ##
        .. .. .. .. c0 .. .. .. ..
        .. .. .. .. h0 .. .. .. ..
        .. .. c0 .. l0 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. c0 .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert not [e for e in g.events() if e[0] == K.EV_DESTROY]


def test_fire_dragon_arrow_off_the_board_is_not_offered():
    # at the edge the arrows pointing off the board have no square to choose
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        h0 .. h0 .. .. .. .. .. ..
        .. c0 .. .. .. .. .. .. ..
        .. h0 .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "legends/fire-dragon",
    )
    summon(g, "legends/fire-dragon", sq(7, 1))
    # the pattern points N from the target: arrows W, SW, S, SE, E; from [7,1] W is [7,0]
    # (void), SW and S are off the board
    assert targets(g) == [(E, -1), (SE, -1)]


def test_hell_bull_charge_stops_on_a_destroyed_legend():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. l1 .. .. .. ..
        .. .. .. c0 c1 c0 .. .. ..
        .. .. .. h0 c0 h0 .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "legends/hell-bull",
    )
    summon(g, "legends/hell-bull", sq(4, 4))
    assert can_skip(g)
    north = [(a, b) for a, b in targets(g) if b % 9 == 4 and b < sq(4, 4)]
    assert north == [(sq(4, 4), sq(2, 4)), (sq(4, 4), sq(3, 4))]  # not beyond the legend
    target(g, sq(4, 4), sq(2, 4))
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. l0 .. .. .. ..
        .. .. .. c0 .. c0 .. .. ..
        .. .. .. h0 .. h0 .. .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, C) == 1 and destroyed(g, 1, L) == 1


ANGEL_BOARD = """
    ## ## .. .. .. .. .. ## ##
    ## .. .. .. h1 .. .. .. ##
    .. .. .. .. .. .. .. .. ..
    .. .. .. c0 .. c0 .. .. ..
    .. .. c0 .. h0 .. c0 .. ..
    .. .. .. .. c0 .. .. .. ..
    .. .. .. .. .. .. .. l1 ..
    ## .. .. .. .. .. .. .. ##
    ## ## .. .. .. .. .. ## ##
    """


def test_angel_of_death_upgrades_then_takes_the_piece():
    g = game(ANGEL_BOARD, "legends/angel-of-death")
    summon(g, "legends/angel-of-death", sq(4, 4))
    assert can_skip(g)
    assert len(targets(g)) == 7  # any piece but the Angel
    target(g, sq(1, 4))
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. l0 .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. c0 .. c0 .. .. ..
        .. .. c0 .. .. .. c0 .. ..
        .. .. .. .. c0 .. .. .. ..
        .. .. .. .. .. .. .. l1 ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, L) == 1 and destroyed(g, 1, H) == 0
    assert g.s[LSTOCK + 1] == 2  # the upgrade took a legendary piece; it came back


def test_angel_of_death_leaps_onto_a_legend_that_cannot_be_upgraded():
    # The upgrade does nothing on a legendary piece, but the Angel still combat-leaps onto it
    # and destroys it (BGA: both steps automatic; reference cards.json notes, issue 10).
    g = game(ANGEL_BOARD, "legends/angel-of-death")
    summon(g, "legends/angel-of-death", sq(4, 4))
    target(g, sq(6, 7))
    assert effect_over(g)
    want = lines(ANGEL_BOARD)
    want[4] = ".. .. c0 .. .. .. c0 .. .."
    want[6] = ".. .. .. .. .. .. .. l0 .."
    assert g.board() == want
    assert destroyed(g, 1, L) == 1
    assert not [e for e in g.events() if e[0] == K.EV_UPGRADE]


def test_angel_of_death_leaps_onto_a_heroic_whose_owner_has_no_legend_left():
    # A heroic piece cannot become legendary when its owner has no legendary piece in stock:
    # the upgrade does nothing, the leap still follows (BGA; issue 10).
    g = game(ANGEL_BOARD, "legends/angel-of-death")
    g.s[LSTOCK + 1] = 0
    summon(g, "legends/angel-of-death", sq(4, 4))
    target(g, sq(1, 4))
    assert effect_over(g)
    want = lines(ANGEL_BOARD)
    want[1] = "## .. .. .. l0 .. .. .. ##"
    want[4] = ".. .. c0 .. .. .. c0 .. .."
    assert g.board() == want
    assert destroyed(g, 1, H) == 1 and destroyed(g, 1, L) == 0
    assert g.s[LSTOCK + 1] == 0


def test_angel_of_death_skipped_does_nothing():
    g = game(ANGEL_BOARD, "legends/angel-of-death")
    summon(g, "legends/angel-of-death", sq(4, 4))
    skip(g)
    assert effect_over(g)
    want = lines(ANGEL_BOARD)
    want[4] = ".. .. c0 .. l0 .. c0 .. .."
    assert g.board() == want


def test_the_eldest_tree_three_different_adjacent_squares():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. c1 h0 .. .. ..
        .. .. c0 .. .. c0 c0 .. ..
        .. .. .. h0 h1 l1 .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "legends/the-eldest-tree",
    )
    summon(g, "legends/the-eldest-tree", sq(4, 4), pattern=[sq(3, 5), sq(5, 3), sq(4, 2), sq(4, 6)])
    assert can_skip(g)
    destroy_, upgrade_, place_ = 0, 1, 2
    opts = sorted((a, b, alt) for kind, a, b, alt in g.options() if kind == K.OPT_TARGET)
    assert opts == sorted(
        [
            (sq(3, 4), -1, destroy_),
            (sq(5, 4), -1, destroy_),
            (sq(4, 5), -1, upgrade_),
            (sq(3, 3), 0, place_),
            (sq(4, 3), 0, place_),
        ]
    )
    target(g, sq(3, 4))
    assert can_skip(g)
    # (3,4) is empty now but was already used
    assert targets(g) == sorted([(sq(5, 4), -1), (sq(4, 5), -1), (sq(3, 3), 0), (sq(4, 3), 0)])
    target(g, sq(3, 3), 0)
    assert targets(g) == sorted([(sq(5, 4), -1), (sq(4, 5), -1), (sq(4, 3), 0)])
    target(g, sq(4, 5))
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. c0 .. h0 .. .. ..
        .. .. c0 .. l0 h0 c0 .. ..
        .. .. .. h0 h1 l1 .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, C) == 1


def test_bone_catapult_piece_on_an_arrow_line_and_adjacent_commons():
    g = game(
        """
        ## ## .. c1 .. .. .. ## ##
        ## .. .. .. h1 h1 .. .. ##
        .. .. .. .. .. c0 .. .. ..
        .. .. .. c0 c1 .. .. .. ..
        .. .. .. .. .. .. .. l1 ..
        .. .. .. h0 h0 h0 .. .. ..
        .. .. .. .. .. .. c1 .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "legends/bone-catapult",
    )
    summon(g, "legends/bone-catapult", sq(4, 4))
    assert can_skip(g)
    # arrows N, NE, W, E: pieces behind others are reachable; (6,6) and (3,3) are not on them
    assert targets(g) == [(sq(1, 4), -1), (sq(3, 4), -1), (sq(4, 7), -1)]
    target(g, sq(1, 4))
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. h1 .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. c0 c1 .. .. .. ..
        .. .. .. .. l0 .. .. l1 ..
        .. .. .. h0 h0 h0 .. .. ..
        .. .. .. .. .. .. c1 .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, H) == 1 and destroyed(g, 1, C) == 1  # own common not counted


FIRE_ELEMENTAL_BOARD = """
    ## ## .. .. .. .. .. ## ##
    ## .. .. .. .. .. .. .. ##
    .. .. h1 .. c1 .. .. .. ..
    .. .. .. h1 c1 .. .. .. ..
    .. .. .. .. .. l1 .. .. ..
    .. .. .. h0 .. c0 .. .. ..
    .. .. h0 .. c0 .. c0 .. ..
    ## .. .. .. .. .. .. .. ##
    ## ## .. .. .. .. .. ## ##
    """


def test_fire_elemental_adjacent_non_legendary_enemies():
    g = game(FIRE_ELEMENTAL_BOARD, "legends/fire-elemental")
    summon(g, "legends/fire-elemental", sq(4, 4))
    assert not can_skip(g)
    assert targets(g) == [(0, -1), (1, -1)]
    target(g, 0)
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. h1 .. c1 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. l0 l1 .. .. ..
        .. .. .. h0 .. c0 .. .. ..
        .. .. h0 .. c0 .. c0 .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, C) == 1 and destroyed(g, 1, H) == 1


def test_fire_elemental_enemy_commons_within_two():
    g = game(FIRE_ELEMENTAL_BOARD, "legends/fire-elemental")
    summon(g, "legends/fire-elemental", sq(4, 4))
    target(g, 1)
    assert effect_over(g)
    assert g.board()[2:5] == [
        ".. .. h1 .. .. .. .. .. ..",
        ".. .. .. h1 .. .. .. .. ..",
        ".. .. .. .. l0 l1 .. .. ..",
    ]
    assert destroyed(g, 1, C) == 2 and destroyed(g, 1, H) == 0


LEVIATHAN_BOARD = """
    ## ## .. .. .. .. .. ## ##
    ## .. .. .. .. .. .. .. ##
    .. .. .. .. .. .. .. .. ..
    .. .. .. .. h0 h0 .. .. ..
    .. .. h0 c0 .. .. .. .. ..
    .. .. .. c0 .. .. .. .. ..
    .. .. .. .. c1 c1 .. .. ..
    ## .. .. .. .. .. c0 .. ##
    ## ## .. .. .. .. c1 ## ##
    """


def test_leviathan_destroys_a_connected_group_of_commons():
    g = game(LEVIATHAN_BOARD, "legends/leviathan")
    summon(g, "legends/leviathan", sq(2, 6))
    assert can_skip(g)
    target(g, sq(6, 4))
    assert can_skip(g)
    assert targets(g) == [(sq(5, 3), -1), (sq(6, 5), -1)]  # next to (6,4)
    target(g, sq(6, 5))
    assert targets(g) == [(sq(5, 3), -1), (sq(7, 6), -1)]  # next to (6,4) or (6,5)
    target(g, sq(7, 6))
    assert targets(g) == [(sq(5, 3), -1), (sq(8, 6), -1)]
    target(g, sq(8, 6))
    assert effect_over(g)  # four at most
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. l0 .. ..
        .. .. .. .. h0 h0 .. .. ..
        .. .. h0 c0 .. .. .. .. ..
        .. .. .. c0 .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, C) == 3


def test_leviathan_downgrades_connected_upgraded_pieces():
    g = game(LEVIATHAN_BOARD, "legends/leviathan")
    summon(g, "legends/leviathan", sq(2, 6))
    target(g, sq(3, 5))  # a downgrade (alternative 0)
    assert targets(g) == [(sq(2, 6), -1), (sq(3, 4), -1)]  # the Leviathan itself is upgraded
    target(g, sq(3, 4))
    assert targets(g) == [(sq(2, 6), -1)]  # (4,2) is not next to (3,4) or (3,5)
    skip(g)
    assert effect_over(g)
    want = lines(LEVIATHAN_BOARD)
    want[2] = ".. .. .. .. .. .. l0 .. .."
    want[3] = ".. .. .. .. c0 c0 .. .. .."
    assert g.board() == want
    assert destroyed(g, 1, C) == 0


def test_two_headed_dragon_upgrade_then_destroy_adjacent_heroic():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. h0 .. .. .. ..
        .. .. .. h0 .. .. .. .. ..
        .. .. h0 .. c0 c1 .. .. ..
        .. .. .. .. h1 c0 .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "legends/two-headed-dragon",
    )
    summon(g, "legends/two-headed-dragon", sq(2, 2))
    assert can_skip(g)
    # the pattern's marked squares (all hold pieces used by the summon)
    assert targets(g) == sorted((q, -1) for q in [sq(2, 4), sq(3, 3), sq(4, 2), sq(4, 4), sq(5, 5)])
    target(g, sq(4, 4))
    assert can_skip(g)
    assert targets(g) == [(sq(3, 3), -1), (sq(5, 4), -1)]  # heroic pieces next to (4,4)
    target(g, sq(5, 4))
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. l0 .. h0 .. .. .. ..
        .. .. .. h0 .. .. .. .. ..
        .. .. h0 .. h0 c1 .. .. ..
        .. .. .. .. .. c0 .. .. ..
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, H) == 1


def test_earth_elemental_destroy_near_red_upgrade_near_green_move_to_colour():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. c1 .. .. ..
        .. .. .. c1 .. .. .. c0 ..
        .. .. .. .. l1 .. c0 c0 ..
        .. .. .. .. .. h0 .. .. h0
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "legends/earth-elemental",
    )
    summon(g, "legends/earth-elemental", sq(3, 6))
    assert not can_skip(g)
    # non-legendary pieces on or next to a red square ((4,4) and (5,7)); the legend is spared
    assert targets(g) == sorted((q, -1) for q in [sq(3, 3), sq(4, 6), sq(4, 7), sq(5, 5), sq(5, 8)])
    target(g, sq(3, 3))
    assert not can_skip(g)
    # common pieces on or next to a green square ((2,6) and (3,8))
    assert targets(g) == [(sq(2, 5), -1), (sq(3, 7), -1), (sq(4, 7), -1)]
    target(g, sq(2, 5))
    assert can_skip(g)
    assert targets(g) == [(sq(3, 6), sq(2, 6))]  # the only coloured neighbour
    target(g, sq(3, 6), sq(2, 6))
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. h1 l0 .. ..
        .. .. .. .. .. .. .. c0 ..
        .. .. .. .. l1 .. c0 c0 ..
        .. .. .. .. .. h0 .. .. h0
        .. .. .. .. .. .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, C) == 1


def test_time_elemental_extra_turn():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. h0 .. h0 .. .. ..
        .. .. .. .. h0 .. .. .. ..
        .. .. .. c0 .. c0 .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "legends/time-elemental",
    )
    summon(g, "legends/time-elemental", sq(3, 4))
    assert effect_over(g)
    assert g.board()[3] == ".. .. .. .. l0 .. .. .. .."
    assert g.s[EXTRA_TURN] == 1 and g.s[ACTIONS_LEFT] == 1
    g.act(K.OPT_PLACE, sq(0, 2))  # the last action; ending the turn is then automatic
    while g.s[PHASE] == K.PH_CLAIM:
        g.act(K.OPT_NO_CLAIM)
    assert g.s[CUR] == 0 and g.s[IS_EXTRA] == 1 and g.s[EXTRA_TURN] == 0
    assert g.s[ACTIONS_LEFT] == 2


STORM_BOARD = """
    ## ## .. .. .. h1 .. ## ##
    ## .. .. .. .. .. .. .. ##
    .. .. .. .. .. c1 .. .. ..
    .. .. .. .. .. .. .. .. ..
    .. .. .. h0 .. .. .. .. ..
    .. .. .. h0 .. h0 .. .. ..
    .. .. .. .. c0 .. .. .. ..
    ## .. .. .. .. .. .. .. ##
    ## ## .. .. .. .. .. ## ##
    """


def test_storm_elemental_common_moves_in_a_line_until_blocked_then_is_destroyed():
    g = game(STORM_BOARD, "legends/storm-elemental")
    stock = int(g.s[STOCK])
    summon(g, "legends/storm-elemental", sq(6, 4))
    assert can_skip(g)
    alts = {alt for kind, _, _, alt in g.options() if kind == K.OPT_TARGET}
    assert alts == {0, 1, 2}  # common, heroic or legendary
    g.act(K.OPT_TARGET, sq(3, 5), 0, 0)  # a common on (3,5), distance 3
    assert can_skip(g)
    target(g, sq(3, 5), sq(2, 5))  # north, destroying the enemy common
    assert targets(g) == [(sq(2, 5), sq(1, 5))]  # same direction only
    target(g, sq(2, 5), sq(1, 5))
    # the heroic on (0,5) stops a common: the rest cannot happen; the piece is destroyed
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. h1 .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. h0 .. .. .. .. ..
        .. .. .. h0 .. h0 .. .. ..
        .. .. .. .. l0 .. .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert destroyed(g, 1, C) == 1
    assert g.s[STOCK] == stock + 1  # the oversummoned common and the storm piece came back


def test_storm_elemental_legendary_piece_moves_once():
    g = game(STORM_BOARD, "legends/storm-elemental")
    summon(g, "legends/storm-elemental", sq(6, 4))
    g.act(K.OPT_TARGET, sq(3, 5), 0, 2)  # a legendary piece
    assert g.s[LSTOCK] == 1
    target(g, sq(3, 5), sq(2, 5))
    assert effect_over(g)  # one move only, then destroyed
    assert g.board()[0:4] == [
        "## ## .. .. .. h1 .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
    ]
    assert g.s[LSTOCK] == 2 and destroyed(g, 1, C) == 1


def test_titan_destroys_neighbours_without_counting():
    g = game(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. l1 l1 .. .. .. ..
        .. .. .. .. .. h1 .. .. ..
        .. .. .. c0 h0 c1 .. .. ..
        .. .. .. .. h0 .. .. .. ..
        .. .. .. c0 c0 c0 .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """,
        "legends/titan",
    )
    summon(g, "legends/titan", sq(3, 4))
    assert effect_over(g)
    assert g.board() == lines(
        """
        ## ## .. .. .. .. .. ## ##
        ## .. .. .. .. .. .. .. ##
        .. .. .. l1 .. .. .. .. ..
        .. .. .. .. l0 .. .. .. ..
        .. .. .. .. .. .. .. .. ..
        .. .. .. .. h0 .. .. .. ..
        .. .. .. c0 c0 c0 .. .. ..
        ## .. .. .. .. .. .. .. ##
        ## ## .. .. .. .. .. ## ##
        """
    )
    assert all(destroyed(g, colour, r) == 0 for colour in (0, 1) for r in (C, H, L))
