"""A fixed set of mid-game positions (from seeded random games) for the summon-search bench."""

import time

import numpy as np
from numba import njit

from core import constants as K
from core.layout import CUR, HAND_N, PHASE, STATE_SIZE
from core.players.random_player import choose_random
from core.rules.piles import hand_card
from core.rules.setup import init_game
from core.rules.turn import advance, apply_option
from core.summon.patterns import card_summons


@njit(cache=True)
def _collect(T, n_games, states):
    s = np.zeros(STATE_SIZE, np.int32)
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    ev = np.zeros((0, K.EV_WIDTH), np.int32)
    decks = np.array([0, 1], np.int32)
    m = 0
    for g in range(n_games):
        init_game(s, T, ev, K.MODE_HIGH_FORM, 2, decks, g % 2, 0, 99, g, 200, 0)
        n = advance(s, T, ev, opts)
        step = 0
        while n > 0:
            if s[PHASE] == K.PH_ACTION and step % 7 == 0 and m < states.shape[0]:
                states[m] = s
                m += 1
            step += 1
            k = choose_random(s, opts, n)
            apply_option(s, T, ev, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
            n = advance(s, T, ev, opts)
    return m


def collect_positions(T, n_games):
    states = np.zeros((n_games * 40, STATE_SIZE), np.int32)
    m = _collect(T, n_games, states)
    return states[:m]


@njit(cache=True)
def _search_all(T, states, reps):
    opts = np.zeros((K.MAX_OPTIONS, K.OPT_WIDTH), np.int32)
    found = 0
    calls = 0
    for _ in range(reps):
        for i in range(states.shape[0]):
            s = states[i]
            seat = s[CUR]
            for slot in range(s[HAND_N + seat]):
                card = hand_card(s, seat, slot)
                if T.card_kind[card] != K.CK_FLARE:
                    found += card_summons(s, T, seat, card, slot, opts, 0)
                    calls += 1
    return found, calls


def time_summon_search(T, states, reps):
    _search_all(T, states[:2], 1)
    t0 = time.perf_counter()
    found, calls = _search_all(T, states, reps)
    return found, time.perf_counter() - t0, calls
