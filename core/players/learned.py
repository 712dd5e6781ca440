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
from core.players.features import MEMO_SIZE, features_ref, forget_memo
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
from core.players.summon_ref import REF_SIZE, forget_ref, prepare_ref

WIN_LOGIT = 40.0  # a game already won (lost): no fitted position comes near
# the int scratch row of the learned value: square marks of the features, the indices of
# the nonzero features, the opponents' summon memo (core.players.features), the reference
# position's summon answers (core.players.summon_ref)
LEARN_IDX = 96
LEARN_MEMO = LEARN_IDX + N_FEATURES
LEARN_REF = LEARN_MEMO + MEMO_SIZE
LEARN_SIZE = LEARN_REF + REF_SIZE


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
def forget(mark):
    """A new search: empty the memo and the reference in the learned value's scratch row
    ``mark``."""
    forget_memo(mark[LEARN_MEMO:LEARN_REF])
    forget_ref(mark[LEARN_REF:LEARN_SIZE])


@njit(cache=True, _nrt=False)
def refer(s, T, seat, mark):
    """Make ``s`` the reference of the following learned values' summon checks (the decision
    whose finished options are being valued; core.players.summon_ref)."""
    prepare_ref(s, T, seat, mark[LEARN_REF:LEARN_SIZE])


@njit(cache=True, _nrt=False)
def unrefer(mark):
    """No reference any more: the summon checks from scratch (or the memo)."""
    forget_ref(mark[LEARN_REF:LEARN_SIZE])


@njit(cache=True, _nrt=False)
def model_logit(params, b, x):
    """The logit of the model block at ``params[b:]`` for the feature vector ``x`` (the
    reference: ``model_logit_sparse`` computes the same value faster)."""
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
def model_logit_sparse(params, b, x, idx):
    """``model_logit``, bit for bit, faster: the zero features are skipped (a finite weight
    times zero adds a signed zero, which changes no sum that is then compared or passed on
    except in the sign of an exact zero, and -0.0 == 0.0 everywhere it is read), and eight
    hidden units are summed side by side (the rest one by one), each in the reference's order
    (``idx``: int scratch of N_FEATURES)."""
    nz = 0
    for k in range(N_FEATURES):
        if x[k] != 0.0:
            idx[nz] = k
            nz += 1
    v = params[b + MB_INTERCEPT]
    for i in range(nz):
        k = idx[i]
        v += params[b + MB_COEF + k] * x[k]
    h = int(params[b + MB_HIDDEN])
    j = 0
    while j + 8 <= h:
        v = _eight_units(params, b, x, idx, nz, j, v)
        j += 8
    while j < h:
        a = params[b + MB_B1 + j]
        w = b + MB_W1 + j * N_FEATURES
        for i in range(nz):
            k = idx[i]
            a += params[w + k] * x[k]
        if a > 0.0:
            v += params[b + MB_W2 + j] * a
        j += 1
    return v


@njit(cache=True, _nrt=False)
def _eight_units(params, b, x, idx, nz, j, v):
    """``v`` plus hidden units j..j+7 of ``model_logit_sparse``, summed side by side, each
    in the reference's order, added to ``v`` in the order of j."""
    w0 = b + MB_W1 + j * N_FEATURES
    w1 = w0 + N_FEATURES
    w2 = w1 + N_FEATURES
    w3 = w2 + N_FEATURES
    w4 = w3 + N_FEATURES
    w5 = w4 + N_FEATURES
    w6 = w5 + N_FEATURES
    w7 = w6 + N_FEATURES
    a0 = params[b + MB_B1 + j]
    a1 = params[b + MB_B1 + j + 1]
    a2 = params[b + MB_B1 + j + 2]
    a3 = params[b + MB_B1 + j + 3]
    a4 = params[b + MB_B1 + j + 4]
    a5 = params[b + MB_B1 + j + 5]
    a6 = params[b + MB_B1 + j + 6]
    a7 = params[b + MB_B1 + j + 7]
    for i in range(nz):
        k = idx[i]
        xk = x[k]
        a0 += params[w0 + k] * xk
        a1 += params[w1 + k] * xk
        a2 += params[w2 + k] * xk
        a3 += params[w3 + k] * xk
        a4 += params[w4 + k] * xk
        a5 += params[w5 + k] * xk
        a6 += params[w6 + k] * xk
        a7 += params[w7 + k] * xk
    o = b + MB_W2 + j
    if a0 > 0.0:
        v += params[o] * a0
    if a1 > 0.0:
        v += params[o + 1] * a1
    if a2 > 0.0:
        v += params[o + 2] * a2
    if a3 > 0.0:
        v += params[o + 3] * a3
    if a4 > 0.0:
        v += params[o + 4] * a4
    if a5 > 0.0:
        v += params[o + 5] * a5
    if a6 > 0.0:
        v += params[o + 6] * a6
    if a7 > 0.0:
        v += params[o + 7] * a7
    return v


@njit(cache=True, _nrt=False)
def _learned_value_body(s, T, seat, params, fbuf, mark):
    """The model's logit that ``seat`` wins from ``s`` (``fbuf``: float scratch of
    N_FEATURES, ``mark``: int scratch of LEARN_SIZE, ``forget`` at each new search). Only
    call it where ``has_model``."""
    if s[GAME_OVER] == 1:
        if s[WINNER] < 0:
            return 0.0
        return WIN_LOGIT if s[WINNER] == s[COLOUR + seat] else -WIN_LOGIT
    flags = FL_GATEWAY_BLIND if params[PP_RESTRICT] == RESTRICT_GATEWAY else 0
    if params[PP_PEEK] != 0:
        flags |= FL_PEEK
    features_ref(
        s, T, seat, flags, fbuf, mark, mark[LEARN_MEMO:LEARN_REF], mark[LEARN_REF:LEARN_SIZE]
    )
    return model_logit_sparse(
        params, PP_MODEL + s[MODE] * MODEL_STRIDE, fbuf, mark[LEARN_IDX:LEARN_MEMO]
    )
