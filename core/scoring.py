"""Scores, end triggers and the winner, for High Form and the Deathmatch duel."""

from numba import njit

from core.constants import (
    COMMON,
    EV_SCORE,
    HEROIC,
    LEGENDARY,
    MODE_HIGH_FORM,
    SR_DESTRUCTION,
)
from core.events import log_event
from core.layout import BOARD, CUR, DESTROYED, MODE, N_PLAYERS, SCORE, TASK_PTS, WINNER

HIGH_FORM_TARGET = 9
DUEL_TARGET = 18


@njit(cache=True)
def pieces_on_board(s, T, seat, rank_min):
    n = 0
    for i in range(T.onboard.shape[0]):
        code = s[BOARD + T.onboard[i]]
        if code != 0 and (code >> 2) == seat and (code & 3) >= rank_min:
            n += 1
    return n


@njit(cache=True)
def high_form_score(s, T, seat):
    """Claimed task points + 1 per legendary piece of the seat on the board right now."""
    return s[TASK_PTS + seat] + pieces_on_board(s, T, seat, LEGENDARY)


@njit(cache=True)
def refresh_scores(s, T):
    if s[MODE] == MODE_HIGH_FORM:
        for p in range(s[N_PLAYERS]):
            s[SCORE + p] = high_form_score(s, T, p)


@njit(cache=True)
def score_destruction(s, ev):
    """Deathmatch end of turn: 2 per legendary, 1 per heroic, 1 per pair of commons."""
    seat = s[CUR]
    pts = 0
    for colour in range(s[N_PLAYERS]):
        if colour == seat:
            continue
        base = DESTROYED + colour * 4
        pts += 2 * s[base + LEGENDARY] + s[base + HEROIC] + s[base + COMMON] // 2
    if pts > 0:
        s[SCORE + seat] += pts
        log_event(s, ev, EV_SCORE, seat, pts, SR_DESTRUCTION, 0)


@njit(cache=True)
def score_reached(s):
    target = HIGH_FORM_TARGET if s[MODE] == MODE_HIGH_FORM else DUEL_TARGET
    for p in range(s[N_PLAYERS]):
        if s[SCORE + p] >= target:
            return True
    return False


@njit(cache=True)
def decide_winner(s, T):
    """Most points; ties: more upgraded pieces on the board, then more pieces; else shared."""
    best = -1
    shared = False
    for p in range(s[N_PLAYERS]):
        if best < 0:
            best = p
            continue
        c = _compare(s, T, p, best)
        if c > 0:
            best = p
            shared = False
        elif c == 0:
            shared = True
    s[WINNER] = -1 if shared else best


@njit(cache=True)
def _compare(s, T, a, b):
    da = s[SCORE + a] - s[SCORE + b]
    if da != 0:
        return da
    du = pieces_on_board(s, T, a, HEROIC) - pieces_on_board(s, T, b, HEROIC)
    if du != 0:
        return du
    return pieces_on_board(s, T, a, COMMON) - pieces_on_board(s, T, b, COMMON)
