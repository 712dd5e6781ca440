"""The random player's choice made while the action options are generated
(core.players.random_action) is exactly ``action_options`` followed by ``choose_random``:
the same option and the same random numbers at every decision, so the same games, in every
mode and with the expansion decks (which take the full-list path)."""

import numpy as np
import pytest

from core import constants as K
from core.kernel import play_games
from core.layout import PHASE, STATE_SIZE
from core.players.params import PP_WIDTH
from core.players.random_action import DECIDED, random_action
from core.players.random_player import choose_random
from core.rules.setup import init_game
from core.rules.turn import advance, apply_option
from sim.content import load_content

CONFIGS = [
    (K.MODE_HIGH_FORM, ("imperial", "highland")),
    (K.MODE_DEATHMATCH, ("sylvan", "imperial")),
    (K.MODE_HIGH_FORM, ("everfrost", "etherweave")),
    (K.MODE_DEATHMATCH, ("nethervoid", "sylvan")),
    (K.MODE_MELEE, ("imperial", "highland", "sylvan", "highland")),
    (K.MODE_TEAM_HIGH_FORM, ("imperial", "highland", "etherweave", "everfrost")),
]
GAMES = 12
SEED = 5


@pytest.fixture(scope="module")
def content():
    return load_content()


def _start(content, mode, decks, g, s, ev):
    d = np.array([content.deck_index(x) for x in decks], np.int32)
    init_game(s, content.tables, ev, mode, len(decks), d, g % len(decks), 0, SEED, g, 200, 0)


@pytest.mark.parametrize("mode,decks", CONFIGS, ids=lambda c: str(c))
def test_each_action_decision_matches_the_full_list(content, mode, decks):
    T = content.tables
    s = np.zeros(STATE_SIZE, np.int32)
    ev = np.zeros((20_000, 6), np.int32)
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    lazy = np.zeros_like(opts)
    compared = 0
    for g in range(GAMES):
        _start(content, mode, decks, g, s, ev)
        n = advance(s, T, ev, opts)
        while n > 0:
            if s[PHASE] == K.PH_ACTION:
                c = s.copy()
                assert random_action(c, T, lazy) == DECIDED
                k = choose_random(s, opts, n)
                assert (c == s).all(), "different random numbers drawn"
                assert (lazy[0] == opts[k]).all(), (lazy[0], opts[k])
                compared += 1
            else:
                k = choose_random(s, opts, n)
            apply_option(s, T, ev, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
            n = advance(s, T, ev, opts)
    assert compared > 20 * GAMES


@pytest.mark.parametrize("mode,decks", CONFIGS, ids=lambda c: str(c))
def test_kernel_games_equal_the_full_list_games(content, mode, decks):
    """The kernel's game loop (advance_deciding, where a single option is also applied
    without a draw) ends each game in the state the plain loop ends it in."""
    T = content.tables
    d = np.array([content.deck_index(x) for x in decks], np.int32)
    pols = np.full(len(decks), K.POL_RANDOM, np.int32)
    params = np.zeros((len(decks), PP_WIDTH))
    s = np.zeros(STATE_SIZE, np.int32)
    ev = np.zeros((20_000, 6), np.int32)
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    for g in range(GAMES):
        _start(content, mode, decks, g, s, ev)
        n = advance(s, T, ev, opts)
        while n > 0:
            k = choose_random(s, opts, n)
            apply_option(s, T, ev, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
            n = advance(s, T, ev, opts)
        out = play_games(T, mode, len(decks), d, pols, params, 0, SEED, g, 1, 200, 0, 20_000, 0)
        assert (out[3] == s).all(), f"game {g} ended differently"
