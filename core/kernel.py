"""Compiled drivers that play whole games: one game with a log, or a batch of games.

Each game is seeded from (study seed, game index) alone, so a batch gives the same games
however it is split. Buffers are allocated once per call, never per action.
"""

import numpy as np
from numba import njit

from core.constants import MAX_OPTIONS, OPT_WIDTH
from core.game import advance, apply_option
from core.invariants import check_state
from core.layout import (
    ACTIONS_DONE,
    CUR,
    DECISIONS,
    END_REASON,
    EV_LOST,
    FIRST,
    SCORE,
    STATE_SIZE,
    TURN_NO,
    WINNER,
)
from core.policy import choose
from core.setup import init_game

# columns of a batch result row
R_WINNER = 0
R_FIRST = 1
R_END_REASON = 2
R_TURNS = 3
R_ACTIONS = 4
R_DECISIONS = 5
R_SCORE = 6  # 4 columns, one per seat
R_ERROR = 10  # 0 ok, else the invariant code / -1 for an unknown policy
R_WIDTH = 11

ERR_POLICY = -1


@njit(cache=True)
def play_to_end(s, T, ev, opts, policies, check):
    """Play the game in ``s`` to its end; with ``check`` run the invariant checker after
    every applied option. Returns 0, or the first error code."""
    n = advance(s, T, ev, opts)
    while n > 0:
        k = choose(s, T, opts, n, policies[s[CUR]])
        if k < 0:
            return ERR_POLICY
        apply_option(s, T, ev, opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3])
        if check:
            err = check_state(s, T, ev)
            if err != 0:
                return err
        n = advance(s, T, ev, opts)
        if check:
            err = check_state(s, T, ev)
            if err != 0:
                return err
    return 0


@njit(cache=True)
def play_batch(
    T,
    mode,
    n_players,
    decks,
    policies,
    seed_hi,
    seed_lo,
    first_index,
    n_games,
    turn_cap,
    allow_no_effect,
    check,
    ev_rows,
):
    """Play games ``first_index .. first_index + n_games - 1``; the first seat alternates
    with the game index. Returns the result rows (R_* columns)."""
    out = np.zeros((n_games, R_WIDTH), np.int64)
    s = np.zeros(STATE_SIZE, np.int32)
    opts = np.zeros((MAX_OPTIONS, OPT_WIDTH), np.int32)
    ev = np.zeros((ev_rows, 6), np.int32)
    for g in range(n_games):
        gi = first_index + g
        first = gi % n_players
        init_game(
            s, T, ev, mode, n_players, decks, first, seed_hi, seed_lo, gi, turn_cap, allow_no_effect
        )
        err = play_to_end(s, T, ev, opts, policies, check)
        if check and ev_rows > 0 and s[EV_LOST] > 0:
            err = 999
        out[g, R_WINNER] = s[WINNER]
        out[g, R_FIRST] = s[FIRST]
        out[g, R_END_REASON] = s[END_REASON]
        out[g, R_TURNS] = s[TURN_NO]
        out[g, R_ACTIONS] = s[ACTIONS_DONE]
        out[g, R_DECISIONS] = s[DECISIONS]
        for p in range(n_players):
            out[g, R_SCORE + p] = s[SCORE + p]
        out[g, R_ERROR] = err
    return out
