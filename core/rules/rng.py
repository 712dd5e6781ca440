"""Per-game random numbers: xoshiro128** kept in four 32-bit words of the state row.

Every word stays in [0, 2**32) and all arithmetic is done in int64 with explicit masks, so
the generator gives identical streams compiled and under NUMBA_DISABLE_JIT=1 (where numpy
scalars would otherwise complain about unsigned overflow). The global numpy RNG is never used.
"""

import numpy as np

from core.jit import njit
from core.layout import RNG

M32 = 0xFFFFFFFF


@njit(cache=True, _nrt=False)
def _rotl(x, k):
    return ((x << k) | (x >> (32 - k))) & M32


@njit(cache=True, _nrt=False)
def _mul32(a, b):
    """(a * b) mod 2**32 without 64-bit overflow: split b into 16-bit halves."""
    lo = a * (b & 0xFFFF)
    hi = ((a * (b >> 16)) & 0xFFFF) << 16
    return (lo + hi) & M32


@njit(cache=True, _nrt=False)
def _store(s, i, v):
    """Write a 32-bit unsigned word into the signed int32 state row."""
    s[i] = v - (1 << 32) if v >= (1 << 31) else v


@njit(cache=True, _nrt=False)
def _mix32(h):
    """murmur3 finaliser: spreads the bits of a 32-bit value."""
    h = h & M32
    h ^= h >> 16
    h = _mul32(h, 0x85EBCA6B)
    h ^= h >> 13
    h = _mul32(h, 0xC2B2AE35)
    h ^= h >> 16
    return h


@njit(cache=True, _nrt=False)
def seed_game(s, seed_hi, seed_lo, game_index):
    """Seed from (study seed, game index) only, so results never depend on scheduling."""
    a = np.int64(seed_hi) & M32
    b = np.int64(seed_lo) & M32
    g_lo = np.int64(game_index) & M32
    g_hi = (np.int64(game_index) >> 32) & M32
    for i in range(4):
        h = _mix32(a ^ _mix32(b + 0x9E3779B9 * (i + 1) & M32))
        h = _mix32(h ^ _mix32(g_lo ^ _mix32(g_hi + i + 1)))
        _store(s, RNG + i, h if h != 0 else 0x6A09E667 + i)
    for _ in range(8):  # discard a few outputs so that nearby seeds decorrelate
        next32(s)


@njit(cache=True, _nrt=False)
def next32(s):
    s0 = np.int64(s[RNG]) & M32
    s1 = np.int64(s[RNG + 1]) & M32
    s2 = np.int64(s[RNG + 2]) & M32
    s3 = np.int64(s[RNG + 3]) & M32
    result = _mul32(_rotl(_mul32(s1, 5), 7), 9)
    t = (s1 << 9) & M32
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 11)
    _store(s, RNG, s0)
    _store(s, RNG + 1, s1)
    _store(s, RNG + 2, s2)
    _store(s, RNG + 3, s3)
    return result


@njit(cache=True, _nrt=False)
def rand_below(s, n):
    """Uniform integer in [0, n) (Lemire's multiply-shift; n < 2**31)."""
    return (next32(s) * np.int64(n)) >> 32
