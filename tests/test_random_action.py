"""The random player's choice made while the action options are generated
(core.players.random_action) is exactly ``action_options`` followed by ``choose_random``:
the same option and the same random numbers at every decision, so the same games, in every
mode and with the expansion decks (which take the full-list path)."""

import numpy as np
import pytest

from core import constants as K
from core.kernel import Batch, play, workspace
from core.layout import CONTROL, CUR, LOOKAHEAD, PHASE, RNG, STATE_SIZE, TURN_NO
from core.players.evaluate import evaluate
from core.players.mc import playout
from core.players.params import PP_WIDTH
from core.players.random_action import DECIDED, random_action
from core.players.random_player import choose_random
from core.players.restrict import count_allowed, nth_allowed
from core.players.weights import N_WEIGHTS
from core.rules.rng import rand_below
from core.rules.setup import init_game
from core.rules.turn import advance, apply_option
from sim.content import load_content
from sim.games import resolve_players

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
        out = play(Batch(T, mode, d, pols, params, SEED), g, 1, ev_rows=20_000)
        assert (out.state == s).all(), f"game {g} ended differently"


def _reference_playout(c, T, seat, w, horizon, banned, wopts, ev0):
    """mc's playout over the full option lists (the loop it had before advance_deciding)."""
    stop = c[TURN_NO] + horizon
    o = wopts[1]
    n = advance(c, T, ev0, o)
    while n > 0 and c[TURN_NO] < stop:
        if banned >= 0 and c[CONTROL] == seat and count_allowed(c, T, o, n, banned) < n:
            m = count_allowed(c, T, o, n, banned)
            k = nth_allowed(c, T, o, n, banned, rand_below(c, m)) if m > 0 else 0
        else:
            k = choose_random(c, o, n)
        apply_option(c, T, ev0, o[k, 0], o[k, 1], o[k, 2], o[k, 3])
        n = advance(c, T, ev0, o)
    return evaluate(c, T, seat, w, o)


@pytest.mark.parametrize("banned", [-1, K.OPT_DISCARD], ids=["free", "restricted"])
@pytest.mark.parametrize("mode,decks", CONFIGS[:3] + CONFIGS[4:5], ids=lambda c: str(c))
def test_mc_playouts_equal_the_full_list_playouts(content, mode, decks, banned):
    """The mc player's playouts (advance_deciding for the seats playing at random, the
    restricted seat's own actions from the full list) end where the full-list playouts end,
    with the same value; only the copy's random words may differ at the stop."""
    T = content.tables
    w = np.array(resolve_players(["mc"])["mc"].params[:N_WEIGHTS])
    work, wopts, ev0, _ = workspace()
    s = np.zeros(STATE_SIZE, np.int32)
    ev = np.zeros((20_000, 6), np.int32)
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    compared = 0
    for g in range(4):
        _start(content, mode, decks, g, s, ev)
        n = advance(s, T, ev, opts)
        while n > 0:
            if s[PHASE] == K.PH_ACTION and s[TURN_NO] % 3 == 0:
                seat = s[CUR]
                for horizon in (1, 3):
                    work[1][:] = s
                    work[1][LOOKAHEAD] = 0
                    ref = work[1].copy()
                    v = playout(s, T, seat, w, horizon, banned, work, wopts, ev0)
                    r = _reference_playout(ref, T, seat, w, horizon, banned, wopts, ev0)
                    # where the horizon stops at a random seat's action, the new loop has
                    # drawn that action already: only the copy's random words differ (mc
                    # discards the copy; the next playout reseeds from the game)
                    same = work[1] == ref
                    same[RNG : RNG + 4] = True
                    assert same.all(), f"game {g}: playouts ended differently"
                    assert v == r
                    compared += 1
            k = choose_random(s, opts, n)
            apply_option(s, T, ev, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
            n = advance(s, T, ev, opts)
    assert compared > 20
