"""The public step API (sim/game.py): a dealt game played through it is the kernel's game, an
option not listed is refused, the views read a position back, and ``check`` agrees with the
invariant checker. (play_stepwise, which the goldens print, is built on it: test_golden.py.)"""

import numpy as np
import pytest

from core import constants as K
from core.checks.invariants import CHECKS, INV_OK, check_state
from core.layout import BOARD, SCORE
from sim.content import load_content
from sim.game import Game
from sim.games import resolve_players
from sim.single_game import GameConfig, play_logged
from tests.support.harness import EMPTY_BOARD, board_with

CONTENT = load_content()


def test_a_dealt_game_played_through_the_api_is_the_kernels_game():
    cfg = GameConfig(decks=["imperial", "highland"], seed=7, game_index=1, policies=("greedy",) * 2)
    player = resolve_players(["greedy"])["greedy"]
    g = Game.deal(CONTENT, cfg.mode, cfg.decks, seed=cfg.seed, game_index=cfg.game_index)
    assert g.to_move == 1  # game 1: seat 1 moves first
    decisions = 0
    while not g.over:
        g.apply(g.decide(player.code, np.array(player.params, np.float64)))
        decisions += 1
    s, events = play_logged(CONTENT, cfg)
    assert decisions > 20
    assert np.array_equal(g.state, s)
    assert np.array_equal(g.events(), events)
    assert g.scores() == [int(s[SCORE]), int(s[SCORE + 1])]
    assert g.check() == INV_OK


def test_an_option_not_listed_is_refused_and_nothing_changes():
    g = Game.deal(CONTENT, "deathmatch", ["sylvan", "imperial"], seed=3)
    before, listed = g.state.copy(), g.options()
    with pytest.raises(ValueError, match="not among the options"):
        g.act(K.OPT_PLACE, -7, 0, 0)
    with pytest.raises(IndexError):
        g.apply(len(listed))
    assert np.array_equal(g.state, before) and g.options() == listed
    g.act(*listed[0])  # a listed one is taken
    assert not np.array_equal(g.state, before)


def test_the_views_read_a_position_back():
    board = board_with({(4, 4): "c0", (4, 5): "h1"})
    data = {
        "mode": "high-form",
        "to_move": 1,
        "board": board,
        "seat": [
            {"deck": "imperial", "hand": ["imperial/swordmaster"]},
            {"deck": "highland", "hand": ["highland/wild-eagle", "flares/f34"]},
        ],
    }
    g = Game.from_position(CONTENT, data)
    assert g.n_options == 0  # listed by the first advance, after any edit of the state
    options = g.advance()
    assert options and not g.over
    assert g.to_move == g.deciding == 1
    assert g.board() == board and board != EMPTY_BOARD
    assert g.hand() == ["highland/wild-eagle", "flares/f34"]  # the seat to move's
    assert g.hand(0) == ["imperial/swordmaster"]
    assert g.hand_slot(1, "flares/f34") == 1
    with pytest.raises(ValueError):
        g.hand_slot(1, "imperial/swordmaster")
    assert g.scores() == [0, 0]
    assert g.legal_moves()["to_move"] == 1


def test_check_is_the_invariant_checker_and_names_its_checks():
    g = Game.deal(CONTENT, "high-form", ["imperial", "highland"], seed=5)
    for _ in range(15):
        g.apply(0)
    assert g.check() == INV_OK and g.check(*CHECKS) == INV_OK
    void = next(q for q in range(81) if CONTENT.tables.sq_color[q] < 0)
    g.state[BOARD + void] = K.COMMON  # a piece on a void square
    code = g.check()
    assert code != INV_OK and code == check_state(g.state, g.tables, g.log)
    assert g.check("pieces") == code
    assert g.check("gateways", "stasis") == INV_OK  # those still hold
