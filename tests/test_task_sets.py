"""The task checks on shared board sets give what the board says (issue 46): at every decision
of random and planner games, and at positions its options lead to, ``board_sets`` holds each
colour's pieces and the upgraded and legendary ones exactly as ``_side`` and the ranks define
them square by square; every task for every colour answers the same on the shared sets as
``task_holds`` from scratch (and a task that does not ``reads_sets`` the same on any sets);
``claimable`` is the maximum the task checks give; a placement's sets are the placed board's;
the hand's bitboards and every colour's pieces read from the sets are the summon search's.
(Same games end to end: tests/test_golden.py and ``benchmarks.same_games``.)"""

import numpy as np
import pytest

from core import constants as K
from core.board.bits import LO_BITS
from core.constants import COMMON, HEROIC, LEGENDARY
from core.layout import BOARD, MAX_PLAYERS, N_AVAIL, N_PLAYERS, NSQ, TAVAIL
from core.players.eval_delta import hand_bits_from_sets
from core.players.evaluate import best_claimable, claimable
from core.players.summon_reach import hand_bits
from core.rules.modes import n_colours
from core.rules.tasks import (
    board_sets,
    no_sets,
    own_enemy,
    reads_sets,
    task_holds,
    task_holds_on,
    with_own_piece,
)
from core.rules.turn import advance, apply_option
from core.summon.patterns import occupied_bits
from tests.support.players import T, positions

GAMES = [  # mode, decks, players, every how many decisions, how many at most
    ("high-form", ("imperial", "highland"), ("random", "random"), 2, 120),
    ("high-form", ("everfrost", "etherweave"), ("planner", "planner"), 2, 120),
    ("high-form", ("sylvan", "nethervoid", "imperial"), ("random",) * 3, 1, 400),
    ("deathmatch", ("nethervoid", "everfrost"), ("planner", "planner"), 2, 120),
]


def _with_children(states, every=5):
    """The decisions and the positions some of their options lead to (before the turn goes on)."""
    ev = np.zeros((0, K.EV_WIDTH), np.int32)
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    out = []
    for s in states:
        out.append(s)
        n = advance(s.copy(), T, ev, opts)
        for k in range(0, n, max(1, n // every)):
            c = s.copy()
            apply_option(c, T, ev, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
            out.append(c)
    return out


def _word(squares, start, end):
    return sum(1 << (q - start) for q in squares if start <= q < end)


def _pair(squares):
    return (_word(squares, 0, LO_BITS), _word(squares, LO_BITS, NSQ))


def _reference_sets(s, colour):
    """(own, enemy, upgraded, legendary) square sets as the scalar criteria read the board."""
    own, enemy, up, leg = [], [], [], []
    for q in range(NSQ):
        code = int(s[BOARD + q])
        if code == 0:
            continue
        owner = code >> 2
        if owner == colour:
            own.append(q)
        elif owner < s[N_PLAYERS]:
            enemy.append(q)
        if code & 3 >= HEROIC:
            up.append(q)
        if code & 3 == LEGENDARY:
            leg.append(q)
    return _pair(own), _pair(enemy), _pair(up), _pair(leg)


@pytest.mark.parametrize("mode,decks,specs,every,cap", GAMES)
def test_the_shared_sets_give_every_task_check_from_scratch(mode, decks, specs, every, cap):
    states = positions(mode, decks, specs=specs, games=2, every=every, cap=cap)
    assert len(states) >= 40
    rng = np.random.default_rng(46)
    n_tasks = len(T.task_kind)
    held = 0
    checked = 0
    for s in _with_children(states):
        sets = board_sets(s)
        garbage = tuple(np.int64(x) for x in rng.integers(-(2**62), 2**62, 12))
        for colour in range(MAX_PLAYERS):
            own_l, own_h, enemy_l, enemy_h = own_enemy(s, sets, colour)
            own, enemy, up, leg = _reference_sets(s, colour)
            assert (own_l, own_h) == own and (enemy_l, enemy_h) == enemy
            assert (sets[8], sets[9]) == up and (sets[10], sets[11]) == leg
        for colour in range(int(s[N_PLAYERS])):
            for t in range(n_tasks):
                plain = task_holds(s, T, t, colour)
                assert task_holds_on(s, T, t, colour, sets) == plain
                if not reads_sets(T, t):
                    assert task_holds_on(s, T, t, colour, garbage) == plain
                    assert task_holds_on(s, T, t, colour, no_sets()) == plain
                held += plain
                checked += 1
    assert 0 < held < checked  # both answers occur


@pytest.mark.parametrize("mode,decks,specs,every,cap", GAMES[:3])
def test_claimable_is_the_best_the_task_checks_give(mode, decks, specs, every, cap):
    states = _with_children(positions(mode, decks, specs=specs, games=2, every=every, cap=cap))
    nonzero = 0
    for s in states:
        for me in range(n_colours(s)):
            points = {}
            for c in range(n_colours(s)):
                points[c] = max(
                    [int(T.task_points[t]) for t in s[TAVAIL : TAVAIL + N_AVAIL]
                     if t >= 0 and task_holds(s, T, t, c)] + [0]
                )  # fmt: skip
            threat = max(p for c, p in points.items() if c != me)
            for mine in (False, True):
                for theirs in (False, True):
                    want = (points[me] if mine else 0, threat if theirs else 0)
                    assert claimable(s, T, me, mine, theirs) == want
            assert best_claimable(s, T, me) == points[me]
            nonzero += points[me] > 0
    assert nonzero > 0


@pytest.mark.parametrize("mode,decks,specs,every,cap", GAMES[:2])
def test_a_placements_sets_are_the_placed_boards(mode, decks, specs, every, cap):
    rng = np.random.default_rng(7)
    for s in positions(mode, decks, specs=specs, games=1, every=4, cap=40):
        sets = board_sets(s)
        empty = [int(q) for q in T.onboard if s[BOARD + q] == 0]
        for q in rng.choice(empty, size=min(8, len(empty)), replace=False):
            for colour in range(int(s[N_PLAYERS])):
                placed = s.copy()
                placed[BOARD + q] = COMMON + 4 * colour
                assert with_own_piece(sets, colour, int(q)) == board_sets(placed)


@pytest.mark.parametrize("mode,decks,specs,every,cap", GAMES[1:])
def test_the_hands_bitboards_from_the_sets_are_the_searchs(mode, decks, specs, every, cap):
    states = _with_children(positions(mode, decks, specs=specs, games=1, every=every, cap=cap))
    for s in states:
        sets = board_sets(s)
        for colour in range(n_colours(s)):
            bits, occ_lo, occ_hi = hand_bits_from_sets(s, T, colour, sets)
            assert bits == hand_bits(s, T, colour)
            assert (occ_lo, occ_hi) == occupied_bits(s, T)
