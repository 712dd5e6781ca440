"""Sets of squares as bitboards: the 81 squares in two non-negative int64 words.

``lo`` holds squares 0..62 (bit q), ``hi`` squares 63..80 (bit q - 63). Keeping both words
below 2**63 means every shift is an ordinary signed shift, so the same code runs compiled
and under NUMBA_DISABLE_JIT=1 (Python integers). A pattern cell ``(d_row, d_col)`` relative
to a target is the square ``t + 9 * d_row + d_col``: ``shift`` moves a set by that offset,
and ``COLS_OK[d_col + 8]`` removes the targets whose cell would wrap to another row.
"""

import numpy as np
from llvmlite import ir
from numba import types
from numba.core.extending import intrinsic, overload

from core.constants import DIRS
from core.jit import njit

LO_BITS = 63
M_LO = (1 << LO_BITS) - 1
M_HI = (1 << (81 - LO_BITS)) - 1


def _cols_ok() -> np.ndarray:
    """COLS_OK[dc + 8]: the squares whose column plus dc stays on the 9 columns."""
    out = np.zeros((17, 2), np.int64)
    for dc in range(-8, 9):
        lo = hi = 0
        for q in range(81):
            if 0 <= q % 9 + dc < 9:
                if q < LO_BITS:
                    lo |= 1 << q
                else:
                    hi |= 1 << (q - LO_BITS)
        out[dc + 8] = lo, hi
    return out


COLS_OK = _cols_ok()
# the 8 king moves as (square offset, column offset), in core.constants.DIRS order
KING = np.array([(dr * 9 + dc, dc) for dr, dc in DIRS], np.int64)


@njit(cache=True, _nrt=False)
def with_square(lo, hi, q):
    """The set plus square q."""
    if q < LO_BITS:
        return lo | (np.int64(1) << q), hi
    return lo, hi | (np.int64(1) << (q - LO_BITS))


@njit(cache=True, _nrt=False)
def shift(lo, hi, k):
    """The set of squares t such that t + k is in (lo, hi)."""
    if k > 0:
        if k < LO_BITS:
            return (lo >> k) | ((hi << (LO_BITS - k)) & M_LO), hi >> k
        return hi >> (k - LO_BITS), np.int64(0)
    if k < 0:
        k = -k
        if k < LO_BITS:
            return (lo << k) & M_LO, ((hi << k) | (lo >> (LO_BITS - k))) & M_HI
        return np.int64(0), (lo << (k - LO_BITS)) & M_HI
    return lo, hi


@njit(cache=True, _nrt=False)
def neighbours(lo, hi):
    """The squares a king move away from some square of the set (void squares included:
    intersect with a set of real squares)."""
    nl = np.int64(0)
    nh = np.int64(0)
    for d in range(8):
        ml, mh = shift(lo, hi, KING[d, 0])
        nl |= ml & COLS_OK[KING[d, 1] + 8, 0]
        nh |= mh & COLS_OK[KING[d, 1] + 8, 1]
    return nl, nh


@njit(cache=True, _nrt=False)
def pop_square(lo, hi):
    """The lowest square of a non-empty set and the set without it: (q, lo, hi). Walking a
    set this way visits its squares in ascending order."""
    if lo != 0:
        return trailing_zeros(lo), lo & (lo - 1), hi
    return LO_BITS + trailing_zeros(hi), lo, hi & (hi - 1)


def trailing_zeros(x):
    """Index of the lowest set bit of x > 0."""
    x = int(x)
    return (x & -x).bit_length() - 1


def popcount(x):
    """Number of set bits of x >= 0."""
    return bin(int(x)).count("1")


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, sig, args):
        v = context.cast(builder, args[0], sig.args[0], types.int64)
        return builder.cttz(v, ir.Constant(ir.IntType(1), 1))

    return types.int64(x), codegen


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, sig, args):
        return builder.ctpop(context.cast(builder, args[0], sig.args[0], types.int64))

    return types.int64(x), codegen


@overload(trailing_zeros, inline="always")
def _trailing_zeros(x):
    return lambda x: _cttz(x)


@overload(popcount, inline="always")
def _popcount(x):
    return lambda x: _ctpop(x)
