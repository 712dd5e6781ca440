"""One played scenario per Imperial and Highland being: exact boards before and after.

Seat 0 summons the card (``c0`` your common piece, ``h1`` an enemy heroic, ``l1`` an enemy
legendary piece), makes a fixed sequence of effect choices, and the test checks the whole
board and the counters the effect touches. Squares are ``sq(row, col)``; a move target is
(from, to), a place target (square, owner), a shot target (direction, -1) with directions
0 n, 1 ne, 2 e, 3 se, 4 s, 5 sw, 6 w, 7 nw.
"""

import pytest

from core import constants as K
from core.layout import ACTIONS_LEFT, BORROW_ENEMY, DESTROYED
from tests.support.harness import Game, skip, sq, summon, target, targets

IMPERIAL = ("imperial", "highland")
HIGHLAND = ("highland", "imperial")
COMMON, HEROIC, LEGENDARY = K.COMMON, K.HEROIC, K.LEGENDARY


def start(board, card, decks, extra=(), actions=None):
    g = Game(board=board, hands=([card, *extra], []), decks=decks)
    if actions is not None:
        g.s[ACTIONS_LEFT] = actions
    g.refresh()
    return g


def destroyed(g):
    """Enemy pieces destroyed by seat 0 this turn, {rank: count}; own pieces never count."""
    assert all(g.s[DESTROYED + r] == 0 for r in range(4))
    ranks = (COMMON, HEROIC, LEGENDARY)
    return {r: int(g.s[DESTROYED + 4 + r]) for r in ranks if g.s[DESTROYED + 4 + r]}


def can_skip(g):
    return any(o[0] == K.OPT_SKIP for o in g.options())


def in_effect(g):
    return any(o[0] in (K.OPT_TARGET, K.OPT_SKIP) for o in g.options())


def movers(g):
    return sorted({a for a, _ in targets(g)})


def moves_from(a, *dests):
    return [(a, d) for d in dests]


# --- Imperial -------------------------------------------------------------------------------


@pytest.mark.parametrize("take", [True, False])
def test_swordmaster(take):
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. c0 c1 .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. h1 c0 c0 .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/swordmaster", IMPERIAL)
    summon(g, "imperial/swordmaster", sq(4, 2))
    # only the enemy common on a diagonal; the enemy heroic and own common are no targets
    assert targets(g) == [(sq(3, 3), -1)] and can_skip(g)
    if take:
        target(g, sq(3, 3))  # the upgrade follows by itself
        after = [
            "## ## .. .. .. .. .. ## ##",
            "## .. .. .. .. .. .. .. ##",
            ".. .. .. .. .. .. .. .. ..",
            ".. .. c0 .. .. .. .. .. ..",
            ".. .. h0 .. .. .. .. .. ..",
            ".. h1 c0 c0 .. .. .. .. ..",
            ".. .. .. .. .. .. .. .. ..",
            "## .. .. .. .. .. .. .. ##",
            "## ## .. .. .. .. .. ## ##",
        ]
        assert destroyed(g) == {COMMON: 1}
    else:
        skip(g)
        after = [
            "## ## .. .. .. .. .. ## ##",
            "## .. .. .. .. .. .. .. ##",
            ".. .. .. .. .. .. .. .. ..",
            ".. .. c0 c1 .. .. .. .. ..",
            ".. .. c0 .. .. .. .. .. ..",
            ".. h1 c0 c0 .. .. .. .. ..",
            ".. .. .. .. .. .. .. .. ..",
            "## .. .. .. .. .. .. .. ##",
            "## ## .. .. .. .. .. ## ##",
        ]
        assert destroyed(g) == {}
    assert not in_effect(g)
    assert g.board() == after
    assert g.s[ACTIONS_LEFT] == 1


def test_messenger_charges_through_lower_pieces():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. c0 .. .. ..",
        ".. h0 c1 c1 .. h1 c0 .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/messenger", IMPERIAL)
    summon(g, "imperial/messenger", sq(4, 4))
    t = targets(g)
    # east from [6,1]: over the two commons, stopping before the equal-rank heroic
    assert moves_from(sq(6, 1), sq(6, 2), sq(6, 3), sq(6, 4)) == [
        m for m in t if m[0] == sq(6, 1) and sq(6, 1) < m[1] < sq(7, 0)
    ]
    assert can_skip(g)
    target(g, sq(6, 1), sq(6, 4))
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. .. c0 .. .. ..",
        ".. .. .. .. h0 h1 c0 .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 2}
    assert not in_effect(g)


def test_herald_moves_onto_empty_squares_then_skips():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. c1 .. .. ..",
        ".. .. .. .. .. c0 c0 .. ..",
        ".. .. .. .. .. c0 .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/herald", IMPERIAL)
    summon(g, "imperial/herald", sq(4, 4))
    t = targets(g)
    assert movers(g) == [sq(4, 4), sq(5, 5), sq(5, 6), sq(6, 5)]
    assert all(d != sq(4, 5) for _, d in t)  # the enemy piece cannot be taken
    assert (sq(5, 5), sq(4, 4)) not in t  # nor an own piece
    target(g, sq(4, 4), sq(3, 4))
    assert can_skip(g) and targets(g)
    skip(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. .. c1 .. .. ..",
        ".. .. .. .. .. c0 c0 .. ..",
        ".. .. .. .. .. c0 .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert not in_effect(g)


def test_bomb_explodes_when_an_action_remains():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c1 h1 .. .. .. ..",
        ".. .. .. .. .. c1 .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/bomb", IMPERIAL)
    summon(g, "imperial/bomb", sq(4, 3))
    # the Bomb and the adjacent commons (own pattern piece included) are gone
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. h1 .. .. .. ..",
        ".. .. .. .. .. c1 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1}
    assert g.s[ACTIONS_LEFT] == 1
    assert not in_effect(g)


def test_bomb_does_nothing_as_the_last_action():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c1 h1 .. .. .. ..",
        ".. .. .. .. .. c1 .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/bomb", IMPERIAL, actions=1)
    summon(g, "imperial/bomb", sq(4, 3))  # the turn then ends by itself
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c1 h1 .. .. .. ..",
        ".. .. .. c0 .. c1 .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert not any(e[0] == K.EV_DESTROY for e in g.events())


def test_chronicler_upgrades_another_common_which_then_moves():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. c1 .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/chronicler", IMPERIAL)
    summon(g, "imperial/chronicler", sq(6, 4))
    # compulsory: any own common except the Chronicler itself
    assert targets(g) == [(sq(2, 4), -1), (sq(5, 4), -1), (sq(6, 3), -1), (sq(6, 5), -1)]
    assert not can_skip(g)
    target(g, sq(5, 4))
    assert movers(g) == [sq(5, 4)] and can_skip(g)
    target(g, sq(5, 4), sq(4, 4))
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. h0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 c0 c0 .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1}


ASSASSIN_AFTER = {
    "h1": [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. c0 .. .. .. .. ..",
        ".. .. c0 .. .. .. c1 .. ..",
        ".. .. .. .. .. h0 .. .. ..",
        ".. .. .. .. c1 .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ],
    "c0": [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. c0 .. .. .. .. ..",
        ".. .. c0 .. .. .. c1 .. ..",
        ".. .. .. .. .. h0 .. .. ..",
        ".. .. .. .. c1 .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ],
    "..": [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. c0 .. .. .. .. ..",
        ".. .. c0 .. h0 .. c1 .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. c1 .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ],
}


ASSASSIN_BEFORE = [
    "## ## .. .. .. .. .. ## ##",
    "## .. .. .. .. .. .. .. ##",
    ".. .. .. .. c0 .. .. .. ..",
    ".. .. .. c0 .. .. .. .. ..",
    ".. .. c0 .. .. .. c1 .. ..",
    ".. .. .. .. .. .. .. .. ..",
    ".. .. .. .. c1 .. .. .. ..",
    "## .. .. .. .. .. .. .. ##",
    "## ## .. .. .. .. .. ## ##",
]


@pytest.mark.parametrize("marked", ["h1", "c0"])
def test_assassin_destroys_the_piece_on_the_marked_square(marked):
    before = list(ASSASSIN_BEFORE)
    row = before[4].split()
    row[4] = marked
    before[4] = " ".join(row)
    g = start(before, "imperial/assassin", IMPERIAL)
    summon(g, "imperial/assassin", sq(5, 5))
    # the destroy is compulsory with one target: no choice is asked, and no move follows;
    # the other pieces next to the Assassin are untouched (the marked square is [4,4] only)
    assert not in_effect(g)
    assert g.board() == ASSASSIN_AFTER[marked]
    assert destroyed(g) == ({HEROIC: 1} if marked == "h1" else {})


@pytest.mark.parametrize("step", [True, False])
def test_assassin_may_step_onto_the_empty_marked_square(step):
    # Card text: "If the marked square was empty, the Assassin MAY move onto it"; BGA lets the
    # player skip the step when the square is empty (reference cards.json notes, issue 10).
    g = start(ASSASSIN_BEFORE, "imperial/assassin", IMPERIAL)
    summon(g, "imperial/assassin", sq(5, 5))
    assert targets(g) == [(sq(5, 5), sq(4, 4))] and can_skip(g)
    if step:
        target(g, sq(5, 5), sq(4, 4))
        assert g.board() == ASSASSIN_AFTER[".."]
    else:
        skip(g)
        want = list(ASSASSIN_BEFORE)
        want[5] = ".. .. .. .. .. h0 .. .. .."
        assert g.board() == want
    assert not in_effect(g)
    assert destroyed(g) == {}


@pytest.mark.parametrize("marked", ["h1", "c0"])
def test_time_mage_gains_an_action_and_destroys_only_an_enemy(marked):
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    row = before[4].split()
    row[4] = marked
    before[4] = " ".join(row)
    g = start(before, "imperial/time-mage", IMPERIAL)
    summon(g, "imperial/time-mage", sq(3, 5))
    assert not in_effect(g)
    if marked == "h1":
        assert g.board() == [
            "## ## .. .. .. .. .. ## ##",
            "## .. .. .. .. .. .. .. ##",
            ".. .. .. .. .. .. .. .. ..",
            ".. .. .. .. c0 h0 .. .. ..",
            ".. .. .. c0 .. c0 .. .. ..",
            ".. .. .. .. c0 .. .. .. ..",
            ".. .. .. .. .. .. .. .. ..",
            "## .. .. .. .. .. .. .. ##",
            "## ## .. .. .. .. .. ## ##",
        ]
        assert destroyed(g) == {HEROIC: 1}
    else:
        assert g.board() == [
            "## ## .. .. .. .. .. ## ##",
            "## .. .. .. .. .. .. .. ##",
            ".. .. .. .. .. .. .. .. ..",
            ".. .. .. .. c0 h0 .. .. ..",
            ".. .. .. c0 c0 c0 .. .. ..",
            ".. .. .. .. c0 .. .. .. ..",
            ".. .. .. .. .. .. .. .. ..",
            "## .. .. .. .. .. .. .. ##",
            "## ## .. .. .. .. .. ## ##",
        ]
        assert destroyed(g) == {}
    assert g.s[ACTIONS_LEFT] == 2


def test_summoner_places_on_the_marks_of_the_orientation_used():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. c1 .. .. .. ..",
        ".. .. .. .. .. c0 .. .. ..",
        ".. .. .. c0 c0 c0 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/summoner", IMPERIAL)
    summon(g, "imperial/summoner", sq(4, 4))
    marks = [sq(2, 2), sq(2, 4), sq(2, 6), sq(3, 3), sq(3, 5), sq(4, 2), sq(4, 3), sq(4, 6)]
    assert targets(g) == [(q, 0) for q in marks]  # the empty marked squares, own pieces
    assert can_skip(g)
    target(g, sq(2, 4), 0)
    assert targets(g) == [(q, 0) for q in marks if q != sq(2, 4)]
    target(g, sq(4, 3), 0)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. c1 .. .. .. ..",
        ".. .. .. c0 h0 c0 .. .. ..",
        ".. .. .. c0 c0 c0 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert not in_effect(g)


def test_hypnotist_moves_three_enemy_commons_of_one_colour():
    before = [
        "## ## .. .. l1 .. .. ## ##",
        "## .. .. .. .. c1 .. .. ##",
        ".. .. .. c1 .. h1 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. c0 c0 .. ..",
        ".. .. .. c0 .. c0 .. c1 ..",
        "## .. .. c0 .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/hypnotist", IMPERIAL)
    summon(g, "imperial/hypnotist", sq(6, 4))
    # first: any enemy non-legendary piece
    assert movers(g) == [sq(1, 5), sq(2, 3), sq(2, 5), sq(6, 7)]
    target(g, sq(2, 3), sq(3, 3))
    # then: the other commons of that colour, not the piece that moved, not the heroic
    assert targets(g) == moves_from(
        sq(1, 5), sq(0, 5), sq(0, 6), sq(1, 4), sq(1, 6), sq(2, 4), sq(2, 6)
    ) + moves_from(sq(6, 7), sq(5, 6), sq(5, 7), sq(5, 8), sq(6, 6), sq(6, 8), sq(7, 6), sq(7, 7))
    target(g, sq(6, 7), sq(5, 6))  # takes your own common
    assert movers(g) == [sq(1, 5)] and can_skip(g)
    target(g, sq(1, 5), sq(1, 4))
    assert g.board() == [
        "## ## .. .. l1 .. .. ## ##",
        "## .. .. .. c1 .. .. .. ##",
        ".. .. .. .. .. h1 .. .. ..",
        ".. .. .. c1 .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. c0 c1 .. ..",
        ".. .. .. c0 h0 c0 .. .. ..",
        "## .. .. c0 .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {}  # your own piece never counts
    assert not in_effect(g)


def test_hypnotist_moves_at_most_two_heroics():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. c1 .. .. .. ##",
        ".. .. .. h1 .. h1 .. h1 ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. c0 .. .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        "## .. .. c0 .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/hypnotist", IMPERIAL)
    summon(g, "imperial/hypnotist", sq(6, 4))
    target(g, sq(2, 3), sq(3, 3))
    assert movers(g) == [sq(2, 5), sq(2, 7)]  # heroics only now
    target(g, sq(2, 5), sq(1, 4))
    # a third heroic stands ready, but a third move is for commons only
    assert not in_effect(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. h1 .. .. .. ##",
        ".. .. .. .. .. .. .. h1 ..",
        ".. .. .. h1 .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. c0 .. .. ..",
        ".. .. .. c0 h0 c0 .. .. ..",
        "## .. .. c0 .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1}


def test_cannon_shoots_commons_along_one_arrow():
    before = [
        "## ## .. .. h1 .. .. ## ##",
        "## .. .. .. c0 .. .. .. ##",
        ".. .. .. .. c1 .. .. .. ..",
        ".. .. .. .. .. h1 .. .. ..",
        ".. c1 .. c0 c0 .. c1 .. ..",
        ".. .. c0 .. .. .. .. .. ..",
        ".. .. .. .. c1 .. .. .. ..",
        "## .. .. .. c1 .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/cannon", IMPERIAL)
    summon(g, "imperial/cannon", sq(4, 4))
    # n, e and s hit commons; ne only meets a heroic; there is no arrow west
    assert targets(g) == [(0, -1), (2, -1), (4, -1)] and can_skip(g)
    target(g, 0)
    assert g.board() == [
        "## ## .. .. h1 .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. h1 .. .. ..",
        ".. c1 .. c0 h0 .. c1 .. ..",
        ".. .. c0 .. .. .. .. .. ..",
        ".. .. .. .. c1 .. .. .. ..",
        "## .. .. .. c1 .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1}


@pytest.mark.parametrize("victim", ["legend", "common"])
def test_champion(victim):
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. c1 .. .. .. ##",
        ".. .. .. .. l1 c1 .. .. ..",
        ".. .. .. c0 .. .. .. .. ..",
        ".. .. .. c0 c0 .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/champion", IMPERIAL)
    summon(g, "imperial/champion", sq(3, 4))
    assert targets(g) == [(sq(2, 4), -1), (sq(2, 5), -1)] and can_skip(g)
    if victim == "legend":
        target(g, sq(2, 4))
        # the Champion falls too and an action is gained
        assert g.board() == [
            "## ## .. .. .. .. .. ## ##",
            "## .. .. .. c1 .. .. .. ##",
            ".. .. .. .. .. c1 .. .. ..",
            ".. .. .. c0 .. .. .. .. ..",
            ".. .. .. c0 c0 .. .. .. ..",
            ".. .. .. .. c0 .. .. .. ..",
            ".. .. .. .. .. .. .. .. ..",
            "## .. .. .. .. .. .. .. ##",
            "## ## .. .. .. .. .. ## ##",
        ]
        assert destroyed(g) == {LEGENDARY: 1}
        assert g.s[ACTIONS_LEFT] == 2
    else:
        target(g, sq(2, 5))
        assert g.board() == [
            "## ## .. .. .. .. .. ## ##",
            "## .. .. .. c1 .. .. .. ##",
            ".. .. .. .. l1 .. .. .. ..",
            ".. .. .. c0 h0 .. .. .. ..",
            ".. .. .. c0 c0 .. .. .. ..",
            ".. .. .. .. c0 .. .. .. ..",
            ".. .. .. .. .. .. .. .. ..",
            "## .. .. .. .. .. .. .. ##",
            "## ## .. .. .. .. .. ## ##",
        ]
        assert destroyed(g) == {COMMON: 1}
        assert g.s[ACTIONS_LEFT] == 1
    assert not in_effect(g)


def test_infantry_captain_moves_other_pieces_twice():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c1 .. .. .. .. ..",
        ".. .. c0 c0 .. c0 c0 .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/infantry-captain", IMPERIAL)
    summon(g, "imperial/infantry-captain", sq(5, 4))
    assert movers(g) == [sq(6, 2), sq(6, 3), sq(6, 5), sq(6, 6)]  # not the Captain
    target(g, sq(6, 3), sq(5, 3))  # combat move onto an equal rank
    assert sq(5, 4) not in movers(g)
    target(g, sq(6, 5), sq(5, 5))
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 h0 c0 .. .. ..",
        ".. .. c0 .. .. .. c0 .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1}
    assert not in_effect(g)


def test_cavalry_captain_one_piece_one_combat_move():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. c1 .. .. .. .. ..",
        ".. h0 h1 h1 .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/cavalry-captain", IMPERIAL)
    summon(g, "imperial/cavalry-captain", sq(4, 4))
    assert sq(4, 4) not in movers(g)
    target(g, sq(3, 1), sq(3, 2))  # takes a heroic: the combat move is spent
    # only the same piece, now with standard moves: the other heroic is out of reach
    assert targets(g) == moves_from(
        sq(3, 2), sq(2, 1), sq(2, 2), sq(2, 3), sq(3, 1), sq(4, 1), sq(4, 2), sq(4, 3)
    )
    target(g, sq(3, 2), sq(2, 3))
    assert can_skip(g)
    skip(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. h0 .. .. .. .. ..",
        ".. .. .. h1 .. .. .. .. ..",
        ".. .. .. .. h0 .. .. .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1, HEROIC: 1}
    assert not in_effect(g)


GRYPHON = [
    "## ## .. .. .. .. .. ## ##",
    "## .. .. .. .. .. .. .. ##",
    ".. .. .. .. h1 .. .. .. ..",
    ".. .. .. .. .. .. .. .. ..",
    ".. .. .. .. .. .. .. .. ..",
    ".. .. .. c0 .. .. .. .. ..",
    ".. .. c0 .. c0 .. .. .. ..",
    "## .. .. .. .. c0 .. .. ##",
    "## ## .. .. .. .. .. ## ##",
]


def test_gryphon_rider_leaps_downgrades_and_places():
    g = start(GRYPHON, "imperial/gryphon-rider", IMPERIAL)
    summon(g, "imperial/gryphon-rider", sq(5, 4))
    assert can_skip(g)
    target(g, sq(5, 4), sq(2, 4))
    assert targets(g) == [(sq(2, 4), -1)] and can_skip(g)
    target(g, sq(2, 4))
    # the placement is then compulsory: any empty square next to her
    near = [sq(1, 3), sq(1, 4), sq(1, 5), sq(2, 3), sq(2, 5), sq(3, 3), sq(3, 4), sq(3, 5)]
    assert targets(g) == [(q, 0) for q in near] and not can_skip(g)
    target(g, sq(1, 4), 0)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. c0 .. .. .. ##",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 .. .. .. .. ..",
        ".. .. c0 .. c0 .. .. .. ..",
        "## .. .. .. .. c0 .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {HEROIC: 1}
    assert not in_effect(g)


def test_gryphon_rider_keeps_her_rank_when_the_downgrade_is_skipped():
    g = start(GRYPHON, "imperial/gryphon-rider", IMPERIAL)
    summon(g, "imperial/gryphon-rider", sq(5, 4))
    target(g, sq(5, 4), sq(2, 4))
    skip(g)
    assert not in_effect(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. h0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 .. .. .. .. ..",
        ".. .. c0 .. c0 .. .. .. ..",
        "## .. .. .. .. c0 .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]


def test_gryphon_rider_downgraded_with_no_empty_square_around():
    before = [
        "## ## .. h1 .. .. .. ## ##",
        "## c1 c1 c1 .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 .. .. .. .. ..",
        ".. .. c0 .. c0 .. .. .. ..",
        "## .. .. .. .. c0 .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/gryphon-rider", IMPERIAL)
    summon(g, "imperial/gryphon-rider", sq(5, 4))
    target(g, sq(5, 4), sq(0, 2))
    target(g, sq(0, 2))  # downgraded; the placement has nowhere to go and is dropped
    assert not in_effect(g)
    assert g.board() == [
        "## ## c0 h1 .. .. .. ## ##",
        "## c1 c1 c1 .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 .. .. .. .. ..",
        ".. .. c0 .. c0 .. .. .. ..",
        "## .. .. .. .. c0 .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]


def test_knight_only_enters_empty_or_heroic_squares():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. c1 h1 .. .. ..",
        ".. .. .. l1 .. .. .. .. ..",
        ".. .. .. c0 c0 c0 .. .. ..",
        ".. .. .. c0 .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/knight", IMPERIAL)
    summon(g, "imperial/knight", sq(3, 4))
    assert targets(g) == moves_from(sq(3, 4), sq(2, 3), sq(2, 5), sq(3, 5))
    target(g, sq(3, 4), sq(2, 5))
    assert (sq(2, 5), sq(2, 4)) not in targets(g)
    target(g, sq(2, 5), sq(1, 5))
    assert can_skip(g)
    skip(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. h0 .. .. ##",
        ".. .. .. .. c1 .. .. .. ..",
        ".. .. .. l1 .. .. .. .. ..",
        ".. .. .. c0 c0 c0 .. .. ..",
        ".. .. .. c0 .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {HEROIC: 1}
    assert not in_effect(g)


def test_high_priestess_moves_then_upgrades_a_common_of_any_colour():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. h0 c1 .. .. .. ..",
        ".. .. .. c0 .. .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/high-priestess", IMPERIAL)
    summon(g, "imperial/high-priestess", sq(4, 4))
    assert movers(g) == [sq(4, 4)] and can_skip(g)
    target(g, sq(4, 4), sq(3, 4))
    assert targets(g) == [(sq(2, 4), -1), (sq(3, 3), -1)] and can_skip(g)
    target(g, sq(2, 4))
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. h0 h1 .. .. .. ..",
        ".. .. .. c0 h0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert not in_effect(g)


def test_master_of_intrigue_moves_himself_and_his_pattern_pieces():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. c1 .. .. .. .. .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 .. l0 .. .. ..",
        ".. .. .. .. .. .. c0 .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/master-of-intrigue", IMPERIAL)
    summon(g, "imperial/master-of-intrigue", sq(4, 4))
    # the Master: standard moves (never onto the legend); the non-legendary pattern pieces:
    # combat moves (never onto the heroic Master); the legend and [6,6] do not move
    want = (
        moves_from(sq(3, 3), sq(2, 2), sq(2, 3), sq(2, 4), sq(3, 2), sq(3, 4), sq(4, 2), sq(4, 3))
        + moves_from(sq(3, 5), sq(2, 4), sq(2, 5), sq(2, 6), sq(3, 4), sq(3, 6), sq(4, 5), sq(4, 6))
        + moves_from(sq(4, 4), sq(3, 3), sq(3, 4), sq(3, 5), sq(4, 3), sq(4, 5), sq(5, 3), sq(5, 4))
        + moves_from(sq(5, 3), sq(4, 2), sq(4, 3), sq(5, 2), sq(5, 4), sq(6, 2), sq(6, 3), sq(6, 4))
    )
    assert targets(g) == sorted(want) and can_skip(g)
    target(g, sq(3, 3), sq(2, 2))
    # the piece that moved stays eligible where it went
    assert movers(g) == [sq(2, 2), sq(3, 5), sq(4, 4), sq(5, 3)]
    target(g, sq(4, 4), sq(3, 4))
    assert movers(g) == [sq(2, 2), sq(3, 4), sq(3, 5), sq(5, 3)]
    target(g, sq(2, 2), sq(1, 1))
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## c0 .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. h0 c0 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 .. l0 .. .. ..",
        ".. .. .. .. .. .. c0 .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1}
    assert not in_effect(g)


def test_gun_tower_destroys_the_first_two_and_stops_at_a_legend():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. c1 h1 c0 .. l1 c1 .. ..",
        ".. .. .. .. c0 c0 .. .. ..",
        ".. .. .. .. c0 c0 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "imperial/gun-tower", IMPERIAL)
    summon(g, "imperial/gun-tower", sq(2, 4))
    # east: the legend stops the shot before anything is hit, so only west is offered
    assert targets(g) == [(6, -1)] and can_skip(g)
    target(g, 6)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. c1 .. .. h0 l1 c1 .. ..",
        ".. .. .. .. c0 c0 .. .. ..",
        ".. .. .. .. c0 c0 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {HEROIC: 1}
    assert not in_effect(g)


# --- Highland -------------------------------------------------------------------------------


def test_wild_eagle_combat_leaps():
    before = [
        "## ## .. .. c1 .. .. ## ##",
        "## .. .. .. h1 .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/wild-eagle", HIGHLAND)
    summon(g, "highland/wild-eagle", sq(4, 4))
    t = targets(g)
    assert (sq(4, 4), sq(0, 4)) in t and (sq(4, 4), sq(1, 4)) not in t and can_skip(g)
    target(g, sq(4, 4), sq(0, 4))
    assert g.board() == [
        "## ## .. .. c0 .. .. ## ##",
        "## .. .. .. h1 .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1}


def test_clan_axeman_destroys_an_orthogonal_non_legendary_piece():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c1 h1 c0 .. .. ..",
        ".. .. .. .. .. c0 .. .. ..",
        ".. .. .. c0 l1 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/clan-axeman", HIGHLAND)
    summon(g, "highland/clan-axeman", sq(4, 4))
    assert targets(g) == [(sq(3, 4), -1), (sq(4, 5), -1)] and can_skip(g)
    target(g, sq(3, 4))
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c1 .. c0 .. .. ..",
        ".. .. .. .. c0 c0 .. .. ..",
        ".. .. .. c0 l1 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {HEROIC: 1}


def test_clan_healer_places_next_to_green_then_skips():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. c0 .. .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/clan-healer", HIGHLAND)
    summon(g, "highland/clan-healer", sq(6, 4))
    t = targets(g)
    assert (sq(1, 1), 0) in t and (sq(6, 6), 0) in t and (sq(4, 4), 0) not in t
    assert (sq(2, 2), 0) not in t  # on a green square is not next to one
    target(g, sq(1, 1), 0)
    assert can_skip(g)
    skip(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## c0 .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. c0 .. .. ..",
        ".. .. .. c0 c0 c0 .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert not in_effect(g)


def test_dire_wolf_makes_two_combat_moves():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. c1 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 c0 .. .. .. ..",
        ".. .. c0 .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/dire-wolf", HIGHLAND)
    summon(g, "highland/dire-wolf", sq(3, 4))
    assert movers(g) == [sq(3, 4)]
    target(g, sq(3, 4), sq(2, 4))
    target(g, sq(2, 4), sq(1, 3))
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. c0 .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 c0 .. .. .. ..",
        ".. .. c0 .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1}
    assert not in_effect(g)


def test_ritual_keeper_on_green_must_upgrade():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. c0 .. ##",
        ".. .. .. .. .. c0 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. c0 .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/ritual-keeper", HIGHLAND)
    summon(g, "highland/ritual-keeper", sq(2, 6))
    assert targets(g) == [(sq(1, 6), -1), (sq(2, 5), -1), (sq(2, 6), -1), (sq(6, 6), -1)]
    assert not can_skip(g)
    target(g, sq(6, 6))
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. c0 .. ##",
        ".. .. .. .. .. c0 c0 .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. h0 .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert not in_effect(g)


def test_ritual_keeper_on_red_may_make_a_combat_move():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. c1 ..",
        ".. .. .. .. .. .. .. c0 ..",
        ".. .. .. .. .. .. c0 .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/ritual-keeper", HIGHLAND)
    summon(g, "highland/ritual-keeper", sq(5, 7))
    assert movers(g) == [sq(4, 7), sq(5, 6), sq(5, 7)] and can_skip(g)
    target(g, sq(4, 7), sq(3, 7))
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. c0 ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. c0 c0 ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1}
    assert not in_effect(g)


def test_ritual_keeper_on_a_plain_square_does_nothing():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. c0 .. .. .. .. .. ..",
        ".. c0 .. c1 .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/ritual-keeper", HIGHLAND)
    summon(g, "highland/ritual-keeper", sq(4, 2))
    assert not in_effect(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. c0 .. .. .. .. .. ..",
        ".. c0 c0 c1 .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert g.s[ACTIONS_LEFT] == 1


def test_eagle_lord_combat_leaps():
    before = [
        "## ## .. .. l1 .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. c0 .. .. .. c0 .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. h1 .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/eagle-lord", HIGHLAND)
    summon(g, "highland/eagle-lord", sq(3, 4))
    t = targets(g)
    assert (sq(3, 4), sq(7, 4)) in t and (sq(3, 4), sq(0, 4)) not in t and can_skip(g)
    target(g, sq(3, 4), sq(7, 4))
    assert g.board() == [
        "## ## .. .. l1 .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. c0 .. .. .. c0 .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. h0 .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {HEROIC: 1}


def test_wolf_rider_one_combat_move_then_skip():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. h1 .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 c0 c0 .. .. ..",
        ".. .. .. c0 .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/wolf-rider", HIGHLAND)
    summon(g, "highland/wolf-rider", sq(3, 3))
    target(g, sq(3, 3), sq(2, 3))
    assert movers(g) == [sq(2, 3)] and can_skip(g)
    skip(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. h0 .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 c0 c0 .. .. ..",
        ".. .. .. c0 .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {HEROIC: 1}
    assert not in_effect(g)


def test_blood_shaman_on_red_clears_the_commons_around_it():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. c0 .. .. ##",
        ".. .. .. .. .. c0 .. .. ..",
        ".. .. .. c0 c0 .. .. .. ..",
        ".. .. .. .. .. .. c0 c1 h1",
        ".. .. .. .. .. .. .. c1 ..",
        ".. .. .. .. .. .. .. l1 ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/blood-shaman", HIGHLAND)
    summon(g, "highland/blood-shaman", sq(2, 4))
    # compulsory, any non-legendary piece anywhere (the Shaman included)
    assert not can_skip(g)
    assert (sq(2, 4), -1) in targets(g) and (sq(6, 7), -1) not in targets(g)
    target(g, sq(5, 7))
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. c0 .. .. ##",
        ".. .. .. .. h0 c0 .. .. ..",
        ".. .. .. c0 c0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. h1",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. l1 ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 2}
    assert not in_effect(g)


def test_blood_shaman_off_red_destroys_one_piece():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. c0 .. .. ##",
        ".. .. .. .. .. c0 .. .. ..",
        ".. .. .. c0 c0 .. .. .. ..",
        ".. .. .. .. .. .. c0 c1 ..",
        ".. .. .. .. .. .. c1 .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/blood-shaman", HIGHLAND)
    summon(g, "highland/blood-shaman", sq(2, 4))
    target(g, sq(5, 6))
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. c0 .. .. ##",
        ".. .. .. .. h0 c0 .. .. ..",
        ".. .. .. c0 c0 .. .. .. ..",
        ".. .. .. .. .. .. c0 c1 ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1}
    assert not in_effect(g)


def test_war_drummer_combat_move_taking_an_equal_ends_it():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. c0 c0 .. .. ..",
        ".. .. .. .. c0 c0 .. .. ..",
        ".. .. .. .. .. .. c1 .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/war-drummer", HIGHLAND)
    summon(g, "highland/war-drummer", sq(4, 4))
    assert movers(g) == [sq(4, 5), sq(5, 4), sq(5, 5)] and can_skip(g)
    target(g, sq(5, 5), sq(6, 6))
    assert not in_effect(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. h0 c0 .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. .. .. c0 .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1}


def test_war_drummer_two_standard_moves():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. c0 c0 .. .. ..",
        ".. .. .. .. c0 c0 .. .. ..",
        ".. .. .. .. .. .. c1 .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/war-drummer", HIGHLAND)
    summon(g, "highland/war-drummer", sq(4, 4))
    target(g, sq(4, 5), sq(3, 5))
    assert (sq(5, 5), sq(6, 6)) not in targets(g)  # a standard move cannot take a common
    assert sq(4, 4) not in movers(g)
    target(g, sq(5, 4), sq(6, 4))
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. c0 .. .. ..",
        ".. .. .. .. h0 .. .. .. ..",
        ".. .. .. .. .. c0 .. .. ..",
        ".. .. .. .. c0 .. c1 .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert not in_effect(g)


def test_hill_giant_crushes_orthogonal_non_legendary_pieces():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. c1 h1 .. .. .. ..",
        ".. .. .. l1 .. c1 .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. c0 c0 c0 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/hill-giant", HIGHLAND)
    summon(g, "highland/hill-giant", sq(3, 4))
    assert not in_effect(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. c1 .. .. .. .. ..",
        ".. .. .. l1 h0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 c0 c0 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1, HEROIC: 1}


@pytest.mark.parametrize("warlord_first", [False, True])
def test_warlord_third_move_needs_the_warlord(warlord_first):
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. c1 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 c0 c0 .. .. ..",
        ".. .. c0 .. .. .. c0 .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/warlord", HIGHLAND)
    summon(g, "highland/warlord", sq(3, 4))
    if warlord_first:
        target(g, sq(3, 4), sq(2, 4))
        target(g, sq(5, 2), sq(6, 2))
        assert sq(5, 6) in movers(g)  # the Warlord moved: any piece may make the third move
        target(g, sq(5, 6), sq(6, 6))
    else:
        target(g, sq(5, 2), sq(6, 2))
        target(g, sq(5, 6), sq(6, 6))
        assert movers(g) == [sq(3, 4)] and can_skip(g)  # only the Warlord now
        target(g, sq(3, 4), sq(2, 4))
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. h0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 c0 c0 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. c0 .. .. .. c0 .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1}
    assert not in_effect(g)


def test_war_summoner_lends_an_enemy_piece_to_the_next_summon():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. c0 .. c1 .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/war-summoner", HIGHLAND, extra=["highland/wild-eagle"])
    with pytest.raises(AssertionError):
        summon(g, "highland/wild-eagle", sq(6, 4))  # needs the enemy piece on [7,5]
    summon(g, "highland/war-summoner", sq(3, 4))
    assert not in_effect(g)
    assert g.s[ACTIONS_LEFT] == 2 and g.s[BORROW_ENEMY] == 1
    summon(g, "highland/wild-eagle", sq(6, 4), pattern=[sq(7, 3), sq(7, 5)])
    skip(g)  # no leap
    assert g.s[BORROW_ENEMY] == 0 and g.s[ACTIONS_LEFT] == 1
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 h0 c0 .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        "## .. .. c0 .. c1 .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]


def test_war_summoner_borrowed_enemy_piece_may_stand_on_the_target_square():
    # BGA foundPattern/playCard (reference cards.json, War Summoner notes; issue 10): the
    # borrowed enemy piece may be on any cell, even a target square that must hold one of
    # your pieces (War Drummer's "@c"); the new being then replaces that enemy piece, which
    # counts as destroyed by the summon like any oversummoned enemy piece.
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 .. c0 .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. .. .. c1 c0 ..",
        "## .. .. .. .. .. c0 c0 ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/war-summoner", HIGHLAND, extra=["highland/war-drummer"])
    drummer = g.hand_slot(0, "highland/war-drummer")
    assert not [o for o in g.options() if o[0] == K.OPT_SUMMON and o[1] == drummer]
    summon(g, "highland/war-summoner", sq(3, 4))
    drummer = g.hand_slot(0, "highland/war-drummer")
    on = sorted(o[3] for o in g.options() if o[0] == K.OPT_SUMMON and o[1] == drummer)
    # the enemy piece on the target, or as a plain pattern cell next to the target
    assert on == [sq(6, 6), sq(6, 7), sq(7, 6), sq(7, 7)]
    summon(g, "highland/war-drummer", sq(6, 6))
    skip(g)  # no move with the Drummer's effect
    assert not in_effect(g)
    assert g.s[BORROW_ENEMY] == 0 and g.s[ACTIONS_LEFT] == 1
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 h0 c0 .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. .. .. h0 c0 ..",
        "## .. .. .. .. .. c0 c0 ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1}


def test_ritual_master_on_green_gains_two_actions():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. c0 .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. c0 .. c0 ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/ritual-master", HIGHLAND)
    summon(g, "highland/ritual-master", sq(2, 6))
    assert not in_effect(g)
    assert g.s[ACTIONS_LEFT] == 3
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. c0 .. .. ##",
        ".. .. .. .. .. .. h0 .. ..",
        ".. .. .. .. .. c0 .. c0 ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]


def test_ritual_master_on_red_destroys_a_heroic_and_skips_the_common():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. h1 .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. c0 .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. c0 .. c0",
        "## .. .. .. c1 .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/ritual-master", HIGHLAND)
    summon(g, "highland/ritual-master", sq(5, 7))
    assert targets(g) == [(sq(1, 4), -1), (sq(5, 7), -1)] and can_skip(g)
    target(g, sq(1, 4))
    assert (sq(7, 4), -1) in targets(g) and can_skip(g)
    skip(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. c0 .. ..",
        ".. .. .. .. .. .. .. h0 ..",
        ".. .. .. .. .. .. c0 .. c0",
        "## .. .. .. c1 .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {HEROIC: 1}
    assert g.s[ACTIONS_LEFT] == 1
    assert not in_effect(g)


def test_legend_slayer_a_legend_ends_it():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. l1 .. c1 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. c0 c0 .. .. ..",
        ".. .. .. .. c0 .. c0 .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/legend-slayer", HIGHLAND)
    summon(g, "highland/legend-slayer", sq(3, 4))
    assert targets(g) == [(sq(2, 3), -1), (sq(2, 5), -1), (sq(4, 5), -1)] and can_skip(g)
    target(g, sq(2, 3))
    assert not in_effect(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. c1 .. .. ..",
        ".. .. .. .. h0 .. .. .. ..",
        ".. .. .. .. c0 c0 .. .. ..",
        ".. .. .. .. c0 .. c0 .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {LEGENDARY: 1}


def test_legend_slayer_two_non_legendary_pieces():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. h1 .. c1 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. l1 c0 c0 .. .. ..",
        ".. .. .. .. c0 .. c0 .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/legend-slayer", HIGHLAND)
    summon(g, "highland/legend-slayer", sq(3, 4))
    assert movers(g) == [sq(2, 3), sq(2, 5), sq(4, 3), sq(4, 5)]
    target(g, sq(2, 3))
    assert targets(g) == [(sq(2, 5), -1), (sq(4, 5), -1)]  # no legend the second time
    target(g, sq(2, 5))
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. h0 .. .. .. ..",
        ".. .. .. l1 c0 c0 .. .. ..",
        ".. .. .. .. c0 .. c0 .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1, HEROIC: 1}
    assert not in_effect(g)


@pytest.mark.parametrize("commons", [2, 1])
def test_mountain_troll(commons):
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. c1 c1 .. .. .. ..",
        ".. .. .. c0 .. h1 .. .. ..",
        ".. .. .. c0 c0 .. .. .. ..",
        ".. .. .. .. c0 c0 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    if commons == 1:
        before[2] = before[2].replace("c1 c1", "c1 ..")
    g = start(before, "highland/mountain-troll", HIGHLAND)
    summon(g, "highland/mountain-troll", sq(3, 4))
    assert not in_effect(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. c0 h0 h1 .. .. ..",
        ".. .. .. c0 c0 .. .. .. ..",
        ".. .. .. .. c0 c0 .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: commons}
    assert g.s[ACTIONS_LEFT] == (2 if commons == 2 else 1)


def test_hungry_bear_keeps_eating():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. c1 .. .. .. .. ##",
        ".. .. h1 c1 .. .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. c0 c0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/hungry-bear", HIGHLAND)
    summon(g, "highland/hungry-bear", sq(3, 3))
    assert (sq(3, 3), sq(2, 2)) not in targets(g)  # standard: not onto an equal rank
    target(g, sq(3, 3), sq(2, 3))
    assert can_skip(g)
    target(g, sq(2, 3), sq(1, 3))
    assert not in_effect(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. h0 .. .. .. .. ##",
        ".. .. h1 .. .. .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. c0 c0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 2}


def test_hungry_bear_stops_on_an_empty_square():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. c1 .. .. .. .. ##",
        ".. .. h1 c1 .. .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. c0 c0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/hungry-bear", HIGHLAND)
    summon(g, "highland/hungry-bear", sq(3, 3))
    target(g, sq(3, 3), sq(3, 2))
    assert not in_effect(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. c1 .. .. .. .. ##",
        ".. .. h1 c1 .. .. .. .. ..",
        ".. .. h0 .. c0 .. .. .. ..",
        ".. .. .. c0 c0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]


def test_werewolf_full_moon_combat_moves():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. c0 .. .. .. ##",
        ".. .. .. c0 .. .. .. h1 ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/werewolf", HIGHLAND)
    summon(g, "highland/werewolf", sq(2, 6))  # a green square
    target(g, sq(2, 6), sq(2, 7))
    target(g, sq(2, 7), sq(1, 7))
    assert movers(g) == [sq(1, 7)] and can_skip(g)
    skip(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. c0 .. .. h0 ##",
        ".. .. .. c0 .. .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {HEROIC: 1}
    assert not in_effect(g)


def test_werewolf_in_the_centre_one_standard_move():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. c0 .. h1 c1 .. .. ..",
        ".. c0 .. .. .. .. .. .. ..",
        ".. .. c0 .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/werewolf", HIGHLAND)
    summon(g, "highland/werewolf", sq(4, 4))  # the central red square
    t = targets(g)
    assert (sq(4, 4), sq(3, 4)) not in t and (sq(4, 4), sq(3, 5)) in t
    target(g, sq(4, 4), sq(3, 5))
    assert not in_effect(g)
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. c0 .. h1 h0 .. .. ..",
        ".. c0 .. .. .. .. .. .. ..",
        ".. .. c0 .. .. .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert destroyed(g) == {COMMON: 1}


def test_clan_guardian_upgrades_a_pattern_piece():
    before = [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. c0 c0 .. c0 .. .. ..",
        ".. .. .. .. c1 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    g = start(before, "highland/clan-guardian", HIGHLAND)
    summon(g, "highland/clan-guardian", sq(4, 4))
    assert targets(g) == [(sq(4, 2), -1), (sq(4, 3), -1), (sq(4, 5), -1)] and can_skip(g)
    target(g, sq(4, 2))
    assert g.board() == [
        "## ## .. .. .. .. .. ## ##",
        "## .. .. .. .. .. .. .. ##",
        ".. .. .. .. .. .. .. .. ..",
        ".. .. .. .. c0 .. .. .. ..",
        ".. .. h0 c0 h0 c0 .. .. ..",
        ".. .. .. .. c1 .. .. .. ..",
        ".. .. .. .. .. .. .. .. ..",
        "## .. .. .. .. .. .. .. ##",
        "## ## .. .. .. .. .. ## ##",
    ]
    assert not in_effect(g)
