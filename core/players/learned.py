"""A learned leaf value: the logit of a fitted win probability (``kalarite learn``, sim.learned)
over the position's features (core.players.features), read from the seat's parameter row.

The model is a linear part plus, optionally, one hidden layer of rectified units (a small
network whose inputs' standardisation is folded into its weights): logit = intercept +
coef . x + sum_j out_j * max(0, b_j + W_j . x). The turn planner values the positions where
its plans end (the end of its own turn, before the refill, which is what the positions table
samples too) with it when the seat's row holds a model for the game's mode; modes without
one keep the hand-set evaluation. A finished game is worth a certain win or loss, far beyond
any fitted logit.
"""

from core.jit import njit
from core.jit.profile import P_LEARNED, enter, leave
from core.layout import COLOUR, GAME_OVER, MODE, WINNER
from core.players.feature_names import FL_GATEWAY_BLIND, FL_PEEK, N_FEATURES
from core.players.features import features
from core.players.params import (
    MB_B1,
    MB_COEF,
    MB_HIDDEN,
    MB_INTERCEPT,
    MB_W1,
    MB_W2,
    MODEL_STRIDE,
    PP_MODEL,
    PP_PEEK,
    PP_RESTRICT,
    RESTRICT_GATEWAY,
)

WIN_LOGIT = 40.0  # a game already won (lost): no fitted position comes near


@njit(cache=True, _nrt=False)
def has_model(s, params):
    return params[PP_MODEL + s[MODE] * MODEL_STRIDE] != 0


@njit(cache=True, _nrt=False)
def learned_value(s, T, seat, params, fbuf, mark):
    enter(P_LEARNED)
    r = _learned_value_body(s, T, seat, params, fbuf, mark)
    leave()
    return r


@njit(cache=True, _nrt=False)
def model_logit(params, b, x):
    """The logit of the model block at ``params[b:]`` for the feature vector ``x``."""
    v = params[b + MB_INTERCEPT]
    for k in range(N_FEATURES):
        v += params[b + MB_COEF + k] * x[k]
    for j in range(int(params[b + MB_HIDDEN])):
        a = params[b + MB_B1 + j]
        w = b + MB_W1 + j * N_FEATURES
        for k in range(N_FEATURES):
            a += params[w + k] * x[k]
        if a > 0.0:
            v += params[b + MB_W2 + j] * a
    return v


@njit(cache=True, _nrt=False)
def _learned_value_body(s, T, seat, params, fbuf, mark):
    """The model's logit that ``seat`` wins from ``s`` (``fbuf``: float scratch of
    N_FEATURES, ``mark``: int scratch of 81). Only call it where ``has_model``."""
    if s[GAME_OVER] == 1:
        if s[WINNER] < 0:
            return 0.0
        return WIN_LOGIT if s[WINNER] == s[COLOUR + seat] else -WIN_LOGIT
    flags = FL_GATEWAY_BLIND if params[PP_RESTRICT] == RESTRICT_GATEWAY else 0
    if params[PP_PEEK] != 0:
        flags |= FL_PEEK
    features(s, T, seat, flags, fbuf, mark)
    return model_logit(params, PP_MODEL + s[MODE] * MODEL_STRIDE, fbuf)
