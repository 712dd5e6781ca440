"""Which squares a High Form task condition looks at, for the greedy player's placement
shortcut: a common piece put on a square the condition never reads cannot change whether
any colour meets it, so the task need not be checked again for that placement.

This follows ``core.rules.tasks.task_holds`` criterion by criterion and must change with it (a
test compares the shortcut's values with plain evaluation). Criteria that read the whole
board (chains, surround, isolation) always answer True. The greedy player's evaluation of
the positions an option leads to (core.players.eval_delta) uses ``square_matters`` the same way for
any change of a square.
"""

from core.board.geometry import BM_CENTRAL, BM_COL, BM_ROW
from core.constants import SQ_GREEN, SQ_RED
from core.jit import njit
from core.rules.tasks import (
    TK_CENTER_CROSS,
    TK_CENTRAL_DOMINANCE,
    TK_CONQUEST,
    TK_CORNER_CHAIN,
    TK_DESTROYED,
    TK_DIAGONALS,
    TK_END_OF_LEGENDS,
    TK_LINE_DOMINANCE,
    TK_RAINBOW,
    TK_SIDE_CHAIN,
    TK_SUMMONED,
    TK_SURROUND,
    _centre,
    _in_mask,
)

SIZE = 9


@njit(cache=True, _nrt=False)
def common_matters(T, task, q):
    """Could a common piece on square ``q`` change whether some colour meets ``task``?"""
    if T.task_kind[task] == TK_RAINBOW:
        return False  # upgraded pieces only
    return square_matters(T, task, q)


@njit(cache=True, _nrt=False)
def square_matters(T, task, q):
    """Could any change of the piece on square ``q`` change whether some colour meets
    ``task``? (Criteria on this turn's counters answer False: check them anyway.)"""
    kind = T.task_kind[task]
    if kind == TK_DESTROYED or kind == TK_END_OF_LEGENDS or kind == TK_SUMMONED:
        return False  # turn counters only
    if kind == TK_RAINBOW:
        return T.sq_color[q] == SQ_RED or T.sq_color[q] == SQ_GREEN
    if kind == TK_CONQUEST:
        return _in_mask(T.sq_color[q], T.task_args[task, 0])
    if kind == TK_CENTRAL_DOMINANCE:
        return T.sq_central[q] != 0
    if kind == TK_CENTER_CROSS or kind == TK_DIAGONALS:
        c = _centre(T)
        if c < 0:
            return False
        dr = q // SIZE - c // SIZE
        dc = q % SIZE - c % SIZE
        if kind == TK_CENTER_CROSS:
            return abs(dr) <= 1 and abs(dc) <= 1
        return abs(dr) == abs(dc)
    if kind == TK_LINE_DOMINANCE:  # a central square in q's row or column
        M = T.board_masks
        r = BM_ROW + q // SIZE
        c = BM_COL + q % SIZE
        return ((M[r, 0] | M[c, 0]) & M[BM_CENTRAL, 0]) != 0 or (
            (M[r, 1] | M[c, 1]) & M[BM_CENTRAL, 1]
        ) != 0
    return True


@njit(cache=True, _nrt=False)
def own_piece_only_helps(T, task):
    """One more own common piece on an empty square can make ``task`` hold for its owner but
    never stop it holding: the criteria that count own pieces (conquest, central dominance,
    the cross, the diagonals), own minus enemy pieces (line dominance), own neighbours of an
    enemy piece (surround), or connect own pieces (the chains)."""
    kind = T.task_kind[task]
    return (
        kind == TK_CONQUEST
        or kind == TK_CENTRAL_DOMINANCE
        or kind == TK_CENTER_CROSS
        or kind == TK_DIAGONALS
        or kind == TK_LINE_DOMINANCE
        or kind == TK_SURROUND
        or kind == TK_SIDE_CHAIN
        or kind == TK_CORNER_CHAIN
    )


@njit(cache=True, _nrt=False)
def enemy_piece_ignored(T, task):
    """An enemy common piece put on an empty square leaves ``task`` as it was for a colour:
    the criteria that read only the colour's own pieces (and the enemies' upgraded pieces,
    rainbow)."""
    kind = T.task_kind[task]
    return (
        kind == TK_CONQUEST
        or kind == TK_CENTRAL_DOMINANCE
        or kind == TK_RAINBOW
        or kind == TK_CENTER_CROSS
        or kind == TK_DIAGONALS
        or kind == TK_SIDE_CHAIN
        or kind == TK_CORNER_CHAIN
    )


@njit(cache=True, _nrt=False)
def reads_counters(T, task):
    """Does ``task`` depend on this turn's counters (destroyed, summoned)?"""
    kind = T.task_kind[task]
    return kind == TK_DESTROYED or kind == TK_END_OF_LEGENDS or kind == TK_SUMMONED
