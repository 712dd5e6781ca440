"""Summon-search fixtures shared by the pattern tests: the cards with a target square
(``PATTERN_CARDS``), each one's pattern in its 8 images for the oracle (``ORACLE_PATTERNS``,
``symmetries``), and random boards of three colours (``three_colour_board``)."""

import pathlib

import numpy as np

from core import constants as K
from core.layout import BOARD, LSTOCK, STATE_SIZE, STOCK
from sim.content import parse_pattern
from tests.support.harness import CONTENT, T

# cards with a target square (a detached pattern, Time Traveler, has its own search and tests:
# tests/test_time_traveler.py)
PATTERN_CARDS = [i for i, c in enumerate(CONTENT.cards) if c.kind != K.CK_FLARE and not c.detached]


ONBOARD = [int(q) for q in T.onboard]


def cid(i):
    return CONTENT.cards[i].id


def symmetries(cells):
    """The 8 images of a cell list: 4 quarter turns, each with and without a mirror."""
    out = []
    for mirror in (False, True):
        cur = [(dr, -dc if mirror else dc, r) for dr, dc, r in cells]
        for _ in range(4):
            out.append(cur)
            cur = [(dc, -dr, r) for dr, dc, r in cur]  # quarter turn
    return out


ORACLE_PATTERNS = {}


for _i in PATTERN_CARDS:
    _cells, _req, _ = parse_pattern(CONTENT.cards[_i].pattern, pathlib.Path("cards"), cid(_i))
    ORACLE_PATTERNS[_i] = (_req, symmetries(_cells))


def three_colour_board(rng):
    """A random position row with pieces of three colours (a melee seen by seat 0)."""
    s = np.zeros(STATE_SIZE, np.int32)
    density = rng.choice([0.3, 0.5, 0.7])
    legends = [0, 0, 0]
    for q in ONBOARD:
        if rng.random() >= density:
            continue
        seat = int(rng.choice([0, 0, 1, 2]))
        rank = int(rng.choice([1, 1, 1, 2, 2, 3]))
        if rank == 3:
            if legends[seat] == 3:
                rank = 2
            else:
                legends[seat] += 1
        s[BOARD + q] = seat * 4 + rank
    s[STOCK] = rng.choice([0, 0, 1, 9])
    s[LSTOCK] = rng.choice([0, 1, 3 - legends[0]])
    return s


def random_board(rng):
    """A random position row: pieces of both seats, random stocks (often 0)."""
    s = np.zeros(STATE_SIZE, np.int32)
    density = rng.choice([0.25, 0.45, 0.7])
    share0 = rng.choice([0.5, 0.8])
    legends = [0, 0]
    for q in ONBOARD:
        if rng.random() >= density:
            continue
        seat = 0 if rng.random() < share0 else 1
        rank = rng.choice([1, 1, 1, 2, 2, 3])
        if rank == 3:
            if legends[seat] == 3:
                rank = 2
            else:
                legends[seat] += 1
        s[BOARD + q] = seat * 4 + rank
    for seat in range(2):
        s[STOCK + seat] = rng.choice([0, 0, 1, 9])
        s[LSTOCK + seat] = rng.choice([0, 0, 1, 3 - legends[seat]])
    return s


def _shift(grid, dr, dc):
    """out[r, c] = grid[r + dr, c + dc], 0 outside the 9x9 grid."""
    out = np.zeros_like(grid)
    rs, re = max(0, -dr), min(9, 9 - dr)
    cs, ce = max(0, -dc), min(9, 9 - dc)
    out[rs:re, cs:ce] = grid[rs + dr : re + dr, cs + dc : ce + dc]
    return out


def oracle_summons(s, seat, card):
    """Rules 23, 24 and 26 written directly on numpy grids, from the card's printed pattern."""
    codes = s[BOARD : BOARD + 81].reshape(9, 9)
    rank = codes & 3
    own = np.where((codes != 0) & ((codes >> 2) == seat), rank, 0)
    onboard = (T.sq_color >= 0).reshape(9, 9)
    being = int(T.card_rank[card])
    legendary = being == K.LEGENDARY
    own_kind = ((own == K.LEGENDARY) == legendary) & (own > 0)
    in_stock = (s[LSTOCK + seat] if legendary else s[STOCK + seat]) > 0
    req, images = ORACLE_PATTERNS[card]
    keys = set()
    for cells in images:
        if req:
            ok = onboard & (own >= req) & (own <= being)
        else:
            ok = onboard & (rank <= being)
        used = np.zeros((9, 9), np.int32)
        for dr, dc, r in cells:
            ok &= _shift(own, dr, dc) >= r
            used += _shift(own_kind.astype(np.int32), dr, dc)
        if not in_stock:
            spare = own_kind.sum() - used - own_kind  # own pieces of the kind to pick up
            ok &= own_kind | (spare > 0)
        for r, c in zip(*np.nonzero(ok), strict=True):
            t = int(r * 9 + c)
            keys.add((t, frozenset(((r + dr) * 9 + c + dc, k) for dr, dc, k in cells)))
    return keys
