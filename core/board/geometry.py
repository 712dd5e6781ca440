"""Board geometry tables, precomputed once from the board description.

The kernels never compute coordinates on the fly: neighbours per direction, king-move
distances, square colours and region masks are looked up in these arrays.
"""

import numpy as np

from core.constants import DIRS, SQ_GREEN, SQ_NORMAL, SQ_RED, SQ_VOID
from core.layout import NSQ

SIZE = 9
# rows of ``board_masks``: square sets as two int64 words (core.board.bits: the low word
# holds squares 0..62, the high word 63..80)
WORD_BITS = 63
BM_RED = 0  # red squares
BM_GREEN = 1  # green squares
BM_CENTRAL = 2  # the nine central squares
BM_ONBOARD = 3  # the playable squares
BM_ROW = 4  # + row index: the nine squares of each row
BM_COL = BM_ROW + SIZE  # + column index
BM_SIDE = BM_COL + SIZE  # + side_id: the squares of each straight side (top, bottom, ...)
BM_CORNER = BM_SIDE + 4  # + corner_id: the squares of each cut corner
N_BOARD_MASKS = BM_CORNER + 4


def _masks(colour, central_mask, side_id, corner_id) -> np.ndarray:
    masks = np.zeros((N_BOARD_MASKS, 2), np.int64)

    def add(row, q):
        w, b = (0, q) if q < WORD_BITS else (1, q - WORD_BITS)
        masks[row, w] |= np.int64(1) << b

    for q in range(NSQ):
        r, c = rc(q)
        if colour[q] == SQ_RED:
            add(BM_RED, q)
        if colour[q] == SQ_GREEN:
            add(BM_GREEN, q)
        if central_mask[q]:
            add(BM_CENTRAL, q)
        if colour[q] != SQ_VOID:
            add(BM_ONBOARD, q)
        add(BM_ROW + r, q)
        add(BM_COL + c, q)
        if side_id[q] >= 0:
            add(BM_SIDE + side_id[q], q)
        if corner_id[q] >= 0:
            add(BM_CORNER + corner_id[q], q)
    return masks


def _king_masks(nbr) -> np.ndarray:
    """Per square: itself and its king-move neighbours, as bitboard words."""
    out = np.zeros((NSQ, 2), np.int64)
    for q in range(NSQ):
        for p in (q, *[n for n in nbr[q] if n >= 0]):
            w, b = (0, p) if p < WORD_BITS else (1, p - WORD_BITS)
            out[q, w] |= np.int64(1) << b
    return out


def _centre(colour, nbr, central_mask) -> int:
    """The central square all of whose neighbours are central too (-1 if none)."""
    for q in range(NSQ):
        if colour[q] == SQ_VOID or not central_mask[q]:
            continue
        if all(n >= 0 and central_mask[n] for n in nbr[q]):
            return q
    return -1


def sq(row: int, col: int) -> int:
    return row * SIZE + col


def rc(square: int) -> tuple[int, int]:
    return divmod(int(square), SIZE)


def build_geometry(rows: list[str], central: list, sides: dict, corners: dict) -> dict:
    """Arrays describing the board; ``rows`` uses '#' void, '.' plain, 'R' red, 'G' green."""
    if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise ValueError("board must be 9 rows of 9 characters")
    colour = np.full(NSQ, SQ_VOID, np.int8)
    codes = {"#": SQ_VOID, ".": SQ_NORMAL, "R": SQ_RED, "G": SQ_GREEN}
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch not in codes:
                raise ValueError(f"board row {r}: unknown square symbol {ch!r}")
            colour[sq(r, c)] = codes[ch]
    on = colour != SQ_VOID
    nbr = np.full((NSQ, 8), -1, np.int16)
    for s in range(NSQ):
        if not on[s]:
            continue
        r, c = rc(s)
        for d, (dr, dc) in enumerate(DIRS):
            rr, cc = r + dr, c + dc
            if 0 <= rr < SIZE and 0 <= cc < SIZE and on[sq(rr, cc)]:
                nbr[s, d] = sq(rr, cc)
    dist = np.zeros((NSQ, NSQ), np.int8)
    for a in range(NSQ):
        ra, ca = rc(a)
        for b in range(NSQ):
            rb, cb = rc(b)
            dist[a, b] = max(abs(ra - rb), abs(ca - cb))
    central_mask = np.zeros(NSQ, np.int8)
    for r, c in central:
        central_mask[sq(r, c)] = 1
    side_id = np.full(NSQ, -1, np.int8)  # 0 top, 1 bottom, 2 left, 3 right
    for i, name in enumerate(("top", "bottom", "left", "right")):
        for r, c in sides[name]:
            side_id[sq(r, c)] = i
    corner_id = np.full(NSQ, -1, np.int8)  # 0 nw, 1 se, 2 ne, 3 sw (opposites: 0-1, 2-3)
    for i, name in enumerate(("nw", "se", "ne", "sw")):
        for r, c in corners[name]:
            corner_id[sq(r, c)] = i
    return {
        "sq_color": colour,
        "sq_central": central_mask,
        "nbr": nbr,
        "dist": dist,
        "onboard": np.flatnonzero(on).astype(np.int16),
        "side_id": side_id,
        "corner_id": corner_id,
        "board_masks": _masks(colour, central_mask, side_id, corner_id),
        "king_masks": _king_masks(nbr),
        "board_centre": np.array([_centre(colour, nbr, central_mask)], np.int16),
    }
