"""A card's pattern in its orientations: the plain-Python compile step of the summon search
(core.summon.patterns searches with its tables). No numba here: sim.content loads the cards
through this module, so commands that only read cards never import the compiler.

A card grid becomes offsets relative to the target square for each distinct orientation among
the 8 symmetries; marks and arrows turn with the pattern.
"""

MAX_CELLS = 12
MAX_MARKS = 24

# mark kinds in or_marks[..., 2]: 1 marked square, 2 second marking, 10 + d arrow direction d
MARK = 1
MARK2 = 2
ARROW_BASE = 10


def _transform(dr, dc, sym):
    """Symmetry ``sym`` (0..7): mirror left-right if sym >= 4, then turn clockwise sym % 4 times."""
    if sym >= 4:
        dc = -dc
    for _ in range(sym % 4):
        dr, dc = dc, -dr
    return dr, dc


def compile_orientations(cells, target_req, marks):
    """Distinct orientations of one pattern.

    ``cells``: [(d_row, d_col, min_rank)] relative to the target; ``target_req``: 0, or the
    minimum rank of your own piece that must stand on the target; ``marks``: [(d_row, d_col,
    kind)] where an arrow kind is ARROW_BASE + direction index. Returns a list of
    (sym, cells, marks) with duplicates of symmetric patterns removed.
    """
    from core.constants import DIRS

    seen = set()
    out = []
    for sym in range(8):
        oc = []
        for dr, dc, r in cells:
            tr, tc = _transform(dr, dc, sym)
            oc.append((tr, tc, r))
        om = []
        for dr, dc, kind in marks:
            tr, tc = _transform(dr, dc, sym)
            if kind >= ARROW_BASE:
                vr, vc = _transform(*DIRS[kind - ARROW_BASE], sym)
                kind = ARROW_BASE + DIRS.index((vr, vc))
            om.append((tr, tc, kind))
        oc.sort(key=lambda x: (-x[2], x[0], x[1]))  # highest rank first: the anchor cell
        om.sort()
        key = (tuple(sorted(oc)), tuple(om), target_req)
        if key in seen:
            continue
        seen.add(key)
        out.append((sym, oc, om))
    return out
