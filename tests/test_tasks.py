"""Each High Form task on a position where it holds and on its nearest miss.

Board positions are drawn from seat 0's point of view (``c0`` own, ``c1`` enemy); every one
is also checked with the colours swapped and seat 1 claiming, which must give the same answer.
"""

import json
import pathlib

import pytest

from core.layout import (
    BOARD,
    DESTROYED,
    LEGENDS_SUMMONED,
    N_PLAYERS,
    SUMMONED_GREEN,
    SUMMONED_N,
    SUMMONED_RED,
)
from core.rules.task_codes import TASK_CHECK_NAMES, TASK_TYPE_NAMES
from sim.content.tasks import DEFAULT_PATH, load_tasks
from tests.support.task_positions import board, holds, swap_seats

EMPTY = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""


def turn(destroyed=(), summoned=0, red=0, green=0, legends=0):
    """Empty board with this turn's counters; destroyed = (colour, rank, count) triples."""
    s = board(EMPTY)
    for colour, rank, n in destroyed:
        s[DESTROYED + colour * 4 + rank] = n
    s[SUMMONED_N] = summoned
    s[SUMMONED_RED] = red
    s[SUMMONED_GREEN] = green
    s[LEGENDS_SUMMONED] = legends
    return s


# --- turn-counter tasks: (task, expected, counters) --------------------------------------------
TURN_CASES = [
    ("Destruction", True, dict(destroyed=[(1, 1, 3)])),
    ("Destruction", False, dict(destroyed=[(1, 1, 2)])),
    ("Destruction", False, dict(destroyed=[(1, 1, 2), (0, 1, 5)])),  # own pieces never count
    ("Devastation", True, dict(destroyed=[(1, 1, 2), (1, 2, 1), (1, 3, 1)])),
    ("Devastation", False, dict(destroyed=[(1, 1, 2), (1, 3, 1)])),
    ("Heroic Destruction", True, dict(destroyed=[(1, 1, 2), (1, 2, 1)])),
    ("Heroic Destruction", True, dict(destroyed=[(1, 1, 2), (1, 3, 1)])),
    ("Heroic Destruction", False, dict(destroyed=[(1, 1, 3)])),
    ("Heroic Destruction", False, dict(destroyed=[(1, 1, 1), (1, 2, 1)])),
    ("Heroic Devastation", True, dict(destroyed=[(1, 1, 2), (1, 2, 1), (1, 3, 1)])),
    ("Heroic Devastation", False, dict(destroyed=[(1, 1, 3), (1, 2, 1)])),
    ("Heroic Devastation", False, dict(destroyed=[(1, 2, 1), (1, 3, 1)])),
    ("End of Legends", True, dict(destroyed=[(1, 3, 1)])),
    ("End of Legends", True, dict(destroyed=[(1, 2, 2)])),
    ("End of Legends", False, dict(destroyed=[(1, 2, 1), (1, 1, 5)])),
    ("Red Summoning", True, dict(summoned=2, red=1)),
    ("Red Summoning", False, dict(summoned=1, red=1)),
    ("Red Summoning", False, dict(summoned=3, green=2)),
    ("Green Summoning", True, dict(summoned=2, green=1)),
    ("Green Summoning", False, dict(summoned=1, green=1)),
    ("Green Summoning", False, dict(summoned=3, red=2)),
    ("Colored Summoning", True, dict(summoned=2, red=2)),  # twice on one square counts twice
    ("Colored Summoning", True, dict(summoned=2, red=1, green=1)),
    ("Colored Summoning", False, dict(summoned=3, red=1)),
    ("Legendary Summoning", True, dict(summoned=2, legends=1)),
    ("Legendary Summoning", False, dict(summoned=1, legends=1)),
    ("Legendary Summoning", False, dict(summoned=3, legends=0)),
]


def _ids(cases):
    return [f"{i}-{name}-{'hit' if hit else 'miss'}" for i, (name, hit, _) in enumerate(cases)]


@pytest.mark.parametrize("name, expected, counters", TURN_CASES, ids=_ids(TURN_CASES))
def test_turn_task(name, expected, counters):
    assert holds(turn(**counters), name) is expected


def test_destroy_counters_are_read_for_the_claiming_seat():
    s = turn(destroyed=[(0, 3, 1)])  # seat 0's legend was destroyed by seat 1
    assert holds(s, "End of Legends", seat=1)
    assert not holds(s, "End of Legends", seat=0)


def test_destroy_counters_sum_over_all_enemies():
    s = turn(destroyed=[(1, 1, 2), (2, 1, 1)])
    s[N_PLAYERS] = 3
    assert holds(s, "Destruction", seat=0)
    assert not holds(s, "Destruction", seat=2)


# --- board tasks: (task, expected, board) ------------------------------------------------------
RED_CONQUEST = """
## ## .. .. .. .. .. ## ##
## .. .. h0 .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. l0 .. .. .. ..
.. .. .. .. .. .. .. c0 ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
RED_CONQUEST_ONE_UPGRADED = """
## ## .. .. .. .. .. ## ##
## .. .. h0 .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. h0 .. .. .. .. ..
.. .. .. .. c0 .. .. .. ..
.. .. .. .. .. .. .. c0 ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
RED_CONQUEST_TWO_PIECES = """
## ## .. .. .. .. .. ## ##
## .. .. h0 .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. h0 .. .. .. ..
.. .. .. .. .. .. .. c1 ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
GREEN_CONQUEST = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. h0 .. .. .. l0 .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. c0 .. .. ##
## ## .. .. .. .. .. ## ##
"""
GREEN_CONQUEST_ONE_UPGRADED = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. h0 .. .. .. c0 .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. h0 c0 .. .. ##
## ## .. .. .. .. .. ## ##
"""
COLOR_CONQUEST = """
## ## .. .. .. .. .. ## ##
## .. .. c0 .. .. .. .. ##
.. .. h0 .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
c0 .. .. .. h0 .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. l0 .. .. ##
## ## .. .. .. .. .. ## ##
"""
COLOR_CONQUEST_FOUR_PIECES = """
## ## .. .. .. .. .. ## ##
## .. .. c0 .. .. .. .. ##
.. .. h0 .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. c0 .. .. h0 .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. l0 .. .. ##
## ## .. .. .. .. .. ## ##
"""
COLOR_CONQUEST_TWO_UPGRADED = """
## ## .. .. .. .. .. ## ##
## .. .. c0 .. .. .. .. ##
.. .. h0 .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
c0 .. .. .. c0 .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. l0 .. .. ##
## ## .. .. .. .. .. ## ##
"""
RED_LEGENDS = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. l0 .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. h0 .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
RED_LEGENDS_NO_LEGEND = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. l0 h0 .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. h0 .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
RED_LEGENDS_ONE_UPGRADED = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. l0 .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. c0 .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
GREEN_LEGENDS = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. l0
h0 .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
GREEN_LEGENDS_NO_LEGEND = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. h0
h0 .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
RAINBOW = """
## ## .. .. .. .. .. ## ##
## .. .. h0 .. .. .. .. ##
.. .. h0 .. .. .. c1 .. ..
.. .. .. .. .. .. .. .. c1
.. .. .. .. l0 .. .. .. ..
.. .. .. .. .. .. .. h1 ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
RAINBOW_GREEN_TIED = """
## ## .. .. .. .. .. ## ##
## .. .. h0 .. .. .. .. ##
.. .. h0 .. .. .. c1 .. ..
.. .. .. .. .. .. .. .. c1
.. .. .. .. l0 .. .. .. ..
.. .. .. .. .. .. .. h1 ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. h1 .. .. ##
## ## .. .. .. .. .. ## ##
"""
RAINBOW_RED_TIED = """
## ## .. .. .. .. .. ## ##
## .. .. h0 .. .. .. .. ##
.. .. h0 .. .. .. c1 .. ..
.. .. .. .. .. .. .. .. c1
.. .. .. .. c0 .. .. .. ..
.. .. .. .. .. .. .. h1 ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
CENTRAL = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. h0 .. c0 .. .. ..
.. .. .. .. h0 .. .. .. ..
.. .. .. c0 .. c0 .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
CENTRAL_FOUR = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. h0 .. c0 .. .. ..
.. .. .. .. h0 .. .. .. ..
.. .. .. .. .. c0 .. .. ..
.. .. .. c0 .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
CENTRAL_ONE_UPGRADED = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. h0 .. c0 .. .. ..
.. .. .. .. c0 .. .. .. ..
.. .. .. c0 .. c0 .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
CROSS_PLUS = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. .. c0 .. .. .. ..
.. .. .. c0 c0 c0 .. .. ..
.. .. .. .. c0 .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
CROSS_X = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. h0 .. c0 .. .. ..
.. .. .. .. l0 .. .. .. ..
.. .. .. c0 .. c0 .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
CROSS_ONE_ENEMY = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. .. c0 .. .. .. ..
.. .. .. c0 c0 c1 .. .. ..
.. .. .. .. c0 .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
CROSS_MIXED = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. c0 c0 .. .. .. ..
.. .. .. .. c0 .. .. .. ..
.. .. .. .. c0 c0 .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
CROSS_NO_CENTRE = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. c0 c0 c0 .. .. ..
.. .. .. c0 .. c0 .. .. ..
.. .. .. c0 c0 c0 .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
LINE_ROW = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
c0 c0 c0 c0 c0 c0 c0 .. c1
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
LINE_ROW_FIVE = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
c0 c0 c0 c0 c0 c0 c0 c1 c1
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
LINE_COLUMN = """
## ## .. .. .. c0 .. ## ##
## .. .. .. .. c0 .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. h0 .. .. ..
.. .. .. .. .. c0 .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. l0 .. .. ##
## ## .. .. .. c0 .. ## ##
"""
LINE_COLUMN_FIVE = """
## ## .. .. .. c0 .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. h0 .. .. ..
.. .. .. .. .. c0 .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. l0 .. .. ##
## ## .. .. .. c0 .. ## ##
"""
LINE_OUTSIDE_CENTRE = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
c0 c0 c0 c0 c0 c0 c0 c0 c0
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
DIAGONALS = """
## ## .. .. .. .. .. ## ##
## c0 .. .. .. .. .. c0 ##
.. .. c0 .. .. .. c0 .. ..
.. .. .. c0 .. .. .. .. ..
.. .. .. .. h0 .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## c0 .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
DIAGONALS_THREE = """
## ## .. .. .. .. .. ## ##
## c0 .. .. .. .. .. c0 ##
.. .. c0 .. .. .. c0 .. ..
.. .. .. c0 .. .. .. .. ..
.. .. .. .. h0 .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. c0 .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
DIAGONALS_ONE_PLAIN = """
## ## .. .. .. .. .. ## ##
## c0 .. .. .. .. .. c0 ##
.. .. h0 .. .. .. c0 .. ..
.. .. .. c0 .. .. .. .. ..
.. .. .. .. c0 .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
## c0 .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
SIDE_TOP_BOTTOM = """
## ## .. .. c0 .. .. ## ##
## .. .. .. .. c0 .. .. ##
.. .. .. .. c0 .. .. .. ..
.. .. .. c0 .. .. .. .. ..
.. .. .. c0 .. .. .. .. ..
.. .. .. .. c0 .. .. .. ..
.. .. .. .. .. c0 .. .. ..
## .. .. .. .. c0 .. .. ##
## ## .. .. .. .. h0 ## ##
"""
SIDE_TOP_BOTTOM_GAP = """
## ## .. .. c0 .. .. ## ##
## .. .. .. .. c0 .. .. ##
.. .. .. .. c0 .. .. .. ..
.. .. .. c0 .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. c0 .. .. .. ..
.. .. .. .. .. c0 .. .. ..
## .. .. .. .. c0 .. .. ##
## ## .. .. .. .. h0 ## ##
"""
SIDE_LEFT_RIGHT = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. .. c0 c0 .. .. ..
.. c0 c0 c0 c1 .. c0 c0 ..
c0 .. .. .. .. .. .. .. c0
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
SIDE_LEFT_RIGHT_BLOCKED = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. c0 .. .. ..
.. c0 c0 c0 c1 .. c0 c0 ..
c0 .. .. .. .. .. .. .. c0
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
SIDE_FROM_CORNER_EDGE = """
## ## .. .. .. .. .. ## ##
## c0 .. .. .. .. .. .. ##
.. c0 .. .. .. .. .. .. ..
.. c0 .. .. .. .. .. .. ..
.. c0 .. .. .. .. .. .. ..
.. c0 .. .. .. .. .. .. ..
.. c0 .. .. .. .. .. .. ..
## .. c0 .. .. .. .. .. ##
## ## .. c0 .. .. .. ## ##
"""
CORNER_NW_SE = """
## ## .. .. .. .. .. ## ##
## c0 .. .. .. .. .. .. ##
.. .. c0 .. .. .. .. .. ..
.. .. .. c0 .. .. .. .. ..
.. .. .. .. h0 .. .. .. ..
.. .. .. .. .. c0 .. .. ..
.. .. .. .. .. .. c0 .. ..
## .. .. .. .. .. .. c0 ##
## ## .. .. .. .. .. ## ##
"""
CORNER_NW_SE_GAP = """
## ## .. .. .. .. .. ## ##
## c0 .. .. .. .. .. .. ##
.. .. c0 .. .. .. .. .. ..
.. .. .. c0 .. .. .. .. ..
.. .. .. .. .. .. .. .. ..
.. .. .. .. .. c0 .. .. ..
.. .. .. .. .. .. c0 .. ..
## .. .. .. .. .. .. c0 ##
## ## .. .. .. .. .. ## ##
"""
CORNER_NE_SW = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. c0
.. .. .. .. .. .. .. c0 ..
.. .. .. .. .. .. c0 .. ..
.. .. .. .. .. c0 .. .. ..
.. .. .. .. c0 .. .. .. ..
## .. .. c0 .. .. .. .. ##
## ## c0 .. .. .. .. ## ##
"""
CORNER_NOT_OPPOSITE = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
c0 .. .. .. .. .. .. .. ..
c0 .. .. .. .. .. .. .. ..
c0 .. .. .. .. .. .. .. ..
c0 .. .. .. .. .. .. .. ..
c0 .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
SURROUND_SIX = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. c0 c0 h0 .. .. ..
.. .. .. c0 c1 l0 .. .. ..
.. .. .. c0 c1 .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
SURROUND_FIVE = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. c0 c0 h0 .. .. ..
.. .. .. c0 c1 c1 .. .. ..
.. .. .. c0 c1 .. .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
SURROUND_SEVEN = """
## ## .. .. .. .. .. ## ##
## .. .. .. .. .. .. .. ##
.. .. .. .. .. .. .. .. ..
.. .. .. c0 c0 h0 .. .. ..
.. .. .. c0 c1 l0 .. .. ..
.. .. .. c0 c1 c0 .. .. ..
.. .. .. .. .. .. .. .. ..
## .. .. .. .. .. .. .. ##
## ## .. .. .. .. .. ## ##
"""
# Isolation: the board is filled with seat 0's pieces except two enemy pieces two squares
# apart and a few empty squares they could walk through.
ISOLATED_WALLED = """
## ## c0 c0 c0 c0 c0 ## ##
## c0 c0 c0 c0 c0 c0 c0 ##
c0 c0 c0 c0 c0 c0 c0 c0 c0
c0 c0 c0 c0 c0 c0 c0 c0 c0
c0 c0 c0 c0 c1 c0 c1 c0 c0
c0 c0 c0 c0 c0 c0 c0 c0 c0
c0 c0 c0 c0 c0 c0 c0 c0 c0
## c0 c0 c0 c0 c0 c0 c0 ##
## ## c0 c0 c0 c0 c0 ## ##
"""
ISOLATED_FOUR_MOVES = """
## ## c0 c0 c0 c0 c0 ## ##
## c0 c0 c0 c0 c0 c0 c0 ##
c0 c0 c0 c0 .. .. c0 c0 c0
c0 c0 c0 .. c0 c0 .. c0 c0
c0 c0 c0 c0 c1 c0 c1 c0 c0
c0 c0 c0 c0 c0 c0 c0 c0 c0
c0 c0 c0 c0 c0 c0 c0 c0 c0
## c0 c0 c0 c0 c0 c0 c0 ##
## ## c0 c0 c0 c0 c0 ## ##
"""
NOT_ISOLATED_THREE_MOVES = """
## ## c0 c0 c0 c0 c0 ## ##
## c0 c0 c0 c0 c0 c0 c0 ##
c0 c0 c0 c0 c0 .. c0 c0 c0
c0 c0 c0 c0 .. c0 .. c0 c0
c0 c0 c0 c0 c1 c0 c1 c0 c0
c0 c0 c0 c0 c0 c0 c0 c0 c0
c0 c0 c0 c0 c0 c0 c0 c0 c0
## c0 c0 c0 c0 c0 c0 c0 ##
## ## c0 c0 c0 c0 c0 ## ##
"""
NOT_ISOLATED_NO_FELLOW_AT_TWO = """
## ## c0 c0 c0 c0 c0 ## ##
## c0 c0 c0 c0 c0 c0 c0 ##
c0 c0 c0 c0 c0 c0 c0 c0 c0
c0 c0 c0 c0 c0 c0 c0 c0 c0
c0 c0 c0 c0 c1 c0 c0 c1 c0
c0 c0 c0 c0 c0 c0 c0 c0 c0
c0 c0 c0 c0 c0 c0 c0 c0 c0
## c0 c0 c0 c0 c0 c0 c0 ##
## ## c0 c0 c0 c0 c0 ## ##
"""
NOT_ISOLATED_ADJACENT = """
## ## c0 c0 c0 c0 c0 ## ##
## c0 c0 c0 c0 c0 c0 c0 ##
c0 c0 c0 c0 c0 c0 c0 c0 c0
c0 c0 c0 c0 c0 c0 c0 c0 c0
c0 c0 c0 c0 c1 c1 c1 c0 c0
c0 c0 c0 c0 c0 c0 c0 c0 c0
c0 c0 c0 c0 c0 c0 c0 c0 c0
## c0 c0 c0 c0 c0 c0 c0 ##
## ## c0 c0 c0 c0 c0 ## ##
"""

BOARD_CASES = [
    ("Red Conquest", True, RED_CONQUEST),
    ("Red Conquest", False, RED_CONQUEST_ONE_UPGRADED),
    ("Red Conquest", False, RED_CONQUEST_TWO_PIECES),
    ("Green Conquest", True, GREEN_CONQUEST),
    ("Green Conquest", False, GREEN_CONQUEST_ONE_UPGRADED),
    ("Green Conquest", False, RED_CONQUEST),
    ("Color Conquest", True, COLOR_CONQUEST),
    ("Color Conquest", False, COLOR_CONQUEST_FOUR_PIECES),
    ("Color Conquest", False, COLOR_CONQUEST_TWO_UPGRADED),
    ("Red Legends", True, RED_LEGENDS),
    ("Red Legends", False, RED_LEGENDS_NO_LEGEND),
    ("Red Legends", False, RED_LEGENDS_ONE_UPGRADED),
    ("Green Legends", True, GREEN_LEGENDS),
    ("Green Legends", False, GREEN_LEGENDS_NO_LEGEND),
    ("Green Legends", False, RED_LEGENDS),
    ("Rainbow Dominance", True, RAINBOW),
    ("Rainbow Dominance", False, RAINBOW_GREEN_TIED),
    ("Rainbow Dominance", False, RAINBOW_RED_TIED),
    ("Central Dominance", True, CENTRAL),
    ("Central Dominance", False, CENTRAL_FOUR),
    ("Central Dominance", False, CENTRAL_ONE_UPGRADED),
    ("Center Cross", True, CROSS_PLUS),
    ("Center Cross", True, CROSS_X),
    ("Center Cross", False, CROSS_ONE_ENEMY),
    ("Center Cross", False, CROSS_MIXED),
    ("Center Cross", False, CROSS_NO_CENTRE),
    ("Line Dominance", True, LINE_ROW),
    ("Line Dominance", False, LINE_ROW_FIVE),
    ("Line Dominance", True, LINE_COLUMN),
    ("Line Dominance", False, LINE_COLUMN_FIVE),
    ("Line Dominance", False, LINE_OUTSIDE_CENTRE),
    ("Diagonals", True, DIAGONALS),
    ("Diagonals", False, DIAGONALS_THREE),
    ("Diagonals", False, DIAGONALS_ONE_PLAIN),
    ("Side Chain", True, SIDE_TOP_BOTTOM),
    ("Side Chain", False, SIDE_TOP_BOTTOM_GAP),
    ("Side Chain", True, SIDE_LEFT_RIGHT),
    ("Side Chain", False, SIDE_LEFT_RIGHT_BLOCKED),
    ("Side Chain", False, SIDE_FROM_CORNER_EDGE),
    ("Side Chain", False, CORNER_NE_SW),  # right side to bottom side: not opposite
    ("Corner Chain", True, CORNER_NW_SE),
    ("Corner Chain", False, CORNER_NW_SE_GAP),
    ("Corner Chain", True, CORNER_NE_SW),
    ("Corner Chain", False, CORNER_NOT_OPPOSITE),
    ("Imprisonment", True, SURROUND_SIX),
    ("Imprisonment", False, SURROUND_FIVE),
    ("Envelopment", True, SURROUND_SEVEN),
    ("Envelopment", False, SURROUND_SIX),
    ("Isolation", True, ISOLATED_WALLED),
    ("Isolation", True, ISOLATED_FOUR_MOVES),
    ("Isolation", False, NOT_ISOLATED_THREE_MOVES),
    ("Isolation", False, NOT_ISOLATED_NO_FELLOW_AT_TWO),
    ("Isolation", False, NOT_ISOLATED_ADJACENT),
]


@pytest.mark.parametrize("name, expected, text", BOARD_CASES, ids=_ids(BOARD_CASES))
def test_board_task(name, expected, text):
    s = board(text)
    assert holds(s, name, seat=0) is expected
    assert holds(swap_seats(s), name, seat=1) is expected


def test_every_task_has_a_hit_and_a_miss():
    names = load_tasks()["task_names"]
    cases = {(n, e) for n, e, _ in TURN_CASES + BOARD_CASES}
    for n in names:
        assert (n, True) in cases and (n, False) in cases, n


def test_third_seat_pieces_are_enemies():
    s = board(SURROUND_SIX.replace("c1", "c2"), n_players=3)
    assert holds(s, "Imprisonment", seat=0)
    assert not holds(s, "Imprisonment", seat=1)  # seat 0's pieces are its enemies too
    s = board(LINE_ROW.replace("c1", "c2"), n_players=3)
    assert holds(s, "Line Dominance", seat=0)
    s[BOARD + 4 * 9 + 7] = 1 + 4 * 1  # a seat-1 piece as well: margin 5 over both enemies
    assert not holds(s, "Line Dominance", seat=0)


# --- loader -----------------------------------------------------------------------------------
def test_loader_shapes():
    t = load_tasks()
    assert t["task_kind"].shape == (24,) and t["task_args"].shape == (24, 4)
    assert t["task_names"][0] == "Destruction" and t["task_names"][23] == "Isolation"
    assert set(t["task_kind"]) <= set(range(len(TASK_CHECK_NAMES)))
    assert len(t["task_descriptions"]) == 24


def test_loader_matches_reference():
    ref = pathlib.Path("/work/shared/reference/tasks.json")
    if not ref.exists():
        pytest.skip("reference data not available")
    t = load_tasks()
    for i, r in enumerate(json.loads(ref.read_text())):
        assert t["task_names"][i] == r["name"]
        assert t["task_points"][i] == r["points"]
        assert bool(t["task_advanced"][i]) == r["advanced"]
        assert TASK_TYPE_NAMES[t["task_type"][i]] == r["type"]


def _write(tmp_path, text):
    p = tmp_path / "tasks.toml"
    p.write_text(text)
    return p


def _default_text():
    return DEFAULT_PATH.read_text()


@pytest.mark.parametrize(
    "old, new, message",
    [
        ('check = "conquest"\nargs = [1, 3', 'check = "foo"\nargs = [1, 3', "unknown check 'foo'"),
        ('type = "colored"', 'type = "shiny"', "unknown type 'shiny'"),
        (
            'points = 2\nadvanced = false\ntype = "colored"',
            'points = 4\nadvanced = false\ntype = "colored"',
            "points must be an integer in 1..3, got 4",
        ),
        ("args = [1, 3, 2, 0]", "args = [1, 3, 2, 0, 9]", "at most 4"),
    ],
)
def test_loader_errors_name_file_and_task(tmp_path, old, new, message):
    text = _default_text()
    assert old in text
    with pytest.raises(ValueError) as err:
        load_tasks(_write(tmp_path, text.replace(old, new, 1)))
    assert "tasks.toml" in str(err.value)
    assert "task 'Red Conquest'" in str(err.value)
    assert message in str(err.value)


def test_loader_wrong_count(tmp_path):
    text = _default_text()
    cut = text.rindex("[[task]]")
    with pytest.raises(ValueError, match=r"tasks\.toml: expected 24 tasks, found 23"):
        load_tasks(_write(tmp_path, text[:cut]))


def _bfs_chain(s, T, seat, ids, a, b):
    """Oracle for the chain tasks: breadth-first search over own pieces."""
    own = {int(q) for q in T.onboard if s[BOARD + q] != 0 and s[BOARD + q] >> 2 == seat}
    todo = [q for q in own if ids[q] == a]
    seen = set(todo)
    while todo:
        q = todo.pop()
        if ids[q] == b:
            return True
        for n in T.nbr[q]:
            if n >= 0 and int(n) in own and int(n) not in seen:
                seen.add(int(n))
                todo.append(int(n))
    return False


def test_chain_search_matches_breadth_first_search_on_random_boards():
    """The bitboard flood fill of the side and corner chains against a plain search."""
    import numpy as np

    from core.board.geometry import BM_CORNER, BM_SIDE
    from core.rules.tasks import chained
    from tests.support.task_positions import tables

    T = tables()
    rng = np.random.default_rng(3)
    held = 0
    for _ in range(300):
        s = board(EMPTY)
        s[N_PLAYERS] = 2
        density = rng.choice([0.3, 0.5, 0.7])
        for q in T.onboard:
            if rng.random() < density:
                s[BOARD + q] = int(rng.integers(2)) * 4 + int(rng.integers(1, 4))
        for seat in range(2):
            cases = ((T.side_id, BM_SIDE, 0, 1), (T.side_id, BM_SIDE, 2, 3))
            for ids, masks, a, b in (*cases, (T.corner_id, BM_CORNER, 0, 1)):
                want = _bfs_chain(s, T, seat, ids, a, b)
                assert chained(s, T, seat, masks, a, b) == want
                held += want
    assert 50 < held < 1750  # both answers occur often (1800 checks)
