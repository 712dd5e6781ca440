"""Everfrost in random games: proof that random play reaches the new mechanics, and proof that
the checker sees a broken frozen slot or a miscounted removal (every deck and mode under the
invariant checker: tests/test_contract.py).

The checker's card conservation counts each seat's frozen slot (and the card waiting for the
keep-or-replace choice); its piece check uses the per-colour totals that shrink when a piece
leaves the game, and demands they fall short of the mode's by exactly the removal events.
"""

import numpy as np

from core import constants as K
from core.checks.invariants import INV_CARDS, INV_REMOVED, check_state
from core.layout import BOARD, EV_N, FROZEN, HAND, POOL_TOTAL, STATE_SIZE
from core.players.random_player import choose_random
from core.rules.setup import init_game
from core.rules.turn import advance, apply_option
from sim.content import load_content
from sim.single_game import GameConfig, play_logged

CONTENT = load_content()
EV_ROWS = 20_000
T = CONTENT.tables
EF = "everfrost"


def test_random_play_reaches_the_everfrost_mechanics():
    """Logged random games (every effect implemented: no escape hatch) store, replace and
    thaw frozen effects, remove pieces from the game and take actions away."""
    seen = set()
    for g in range(40):
        cfg = GameConfig(decks=[EF, "highland"], mode="deathmatch", seed=11, game_index=g)
        _, ev = play_logged(CONTENT, cfg)
        seen |= set(ev[:, 0].tolist())
    for kind in (K.EV_FROZEN, K.EV_KEEP_FROZEN, K.EV_THAW, K.EV_REMOVED, K.EV_LOSE_ACTION):
        assert kind in seen, K.EV_NAMES[kind]


def _mid_game_with_frozen(seed=3):
    """A valid Everfrost mid-game state where seat 0 holds a frozen card."""
    s = np.zeros(STATE_SIZE, np.int32)
    ev = np.zeros((EV_ROWS, K.EV_WIDTH), np.int32)
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    decks = np.array([CONTENT.deck_index(EF)] * 2, np.int32)
    for game in range(50):
        init_game(s, T, ev, K.MODE_DEATHMATCH, 2, decks, 0, 0, seed, game, 200, 0)
        n = advance(s, T, ev, opts)
        while n > 0:
            if s[FROZEN] >= 0 and check_state(s, T, ev) == 0:
                return s, ev
            k = choose_random(s, opts, n)
            apply_option(s, T, ev, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
            n = advance(s, T, ev, opts)
    raise AssertionError("no frozen card stored in 50 random games")


def test_checker_counts_the_frozen_slot():
    s, ev = _mid_game_with_frozen()
    bad = s.copy()
    bad[FROZEN] = -1  # the stored card vanished
    assert check_state(bad, T, ev) == INV_CARDS
    bad = s.copy()
    bad[FROZEN] = bad[HAND]  # a card both in hand and stored (or not a frozen card at all)
    assert check_state(bad, T, ev) == INV_CARDS


def test_checker_sees_a_miscounted_removal():
    s, ev = _mid_game_with_frozen()
    bad, log = s.copy(), ev.copy()
    n = bad[EV_N]
    log[n] = (K.EV_REMOVED, 1, 0, 40, 4 + K.COMMON, 0)  # logged, but the totals are intact
    bad[EV_N] = n + 1
    assert check_state(bad, T, log) == INV_REMOVED
    bad = s.copy()
    sq = next(q for q in range(81) if bad[BOARD + q] in (4 * 0 + 1, 4 * 0 + 2))
    bad[BOARD + sq] = 0  # a piece of colour 0 left the game with no removal event
    bad[POOL_TOTAL] -= 1
    assert check_state(bad, T, ev) == INV_REMOVED
