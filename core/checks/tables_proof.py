"""A proof, run at load time over the compiled Tables, that every value the engine uses as an
index (or as a shift, a loop bound or a code it dispatches on) is in range.

The kernels are compiled without bounds checks, so the loader's checks of the TOML are not
enough: this looks at the arrays themselves, whatever built them (sim.content, a test, a
future loader). Each field is read the way the jitted code reads it:

- squares (``nbr``, ``onboard``, the start squares) index the 81-square board and the state's
  board slice; ``dist`` and ``nbr`` must be the board's real geometry;
- pattern cells are offsets added to a target square: ``COLS_OK[d_col + 8]`` and the bitboard
  shifts (``d_row * 9 + d_col``) need both in -8..8; ranks pick bitboards (1..3);
- card ids (``or_card``, ``deck_cards``, ``legend_cards``, ``flare_cards``) index the card
  arrays; ``card_*_start``/``_n``/``_end`` index the orientation rows and the ops rows;
- every ops row: its op code dispatches, each operand is within what its op reads (owner
  code, move kind, move type, ranks, masks of known bits, distances, counts, the placed
  piece's index), and a choose block's alternatives lie inside its own program;
- task criteria and types dispatch and index; their arguments are board-sized numbers.

``prove_tables(T)`` raises TablesProofError, one line naming the field, on the first
violation. Plain numpy; it imports only core.
"""

import numpy as np

from core import constants as K
from core import ops as O
from core.layout import N_TASKS, NSQ, SHARED_CAP
from core.rules.task_codes import TASK_CHECK_NAMES, TASK_TYPE_NAMES
from core.summon.orientations import ARROW_BASE, MARK, MARK2, MAX_CELLS, MAX_MARKS

SIZE = 9
DECK_SIZE = 18  # deck_cards columns: a deck file's beings
MAX_OFFSET = SIZE - 1  # a pattern cell's row / column offset from the target
MAX_TASK_ARG = NSQ
MAX_FLARE_THRESHOLD = 69
MAX_ALTS = 8
MAX_CHOICE = 15

DTYPES = {
    "sq_color": np.int8,
    "sq_central": np.int8,
    "nbr": np.int16,
    "dist": np.int8,
    "onboard": np.int16,
    "side_id": np.int8,
    "corner_id": np.int8,
    "duel_start": np.int16,
    "melee_start": np.int16,
    "card_kind": np.int8,
    "card_deck": np.int16,
    "card_rank": np.int8,
    "card_has_effect": np.int8,
    "card_or_start": np.int32,
    "card_or_n": np.int32,
    "card_eff_start": np.int32,
    "card_eff_end": np.int32,
    "card_eff2_start": np.int32,
    "card_eff2_end": np.int32,
    "card_has_frozen": np.int8,
    "flare_x": np.int8,
    "flare_y": np.int8,
    "or_card": np.int32,
    "or_ncells": np.int8,
    "or_cells": np.int8,
    "or_target_req": np.int8,
    "or_nmarks": np.int8,
    "or_marks": np.int8,
    "or_sym": np.int8,
    "ops": np.int32,
    "deck_cards": np.int32,
    "deck_size": np.int32,
    "legend_cards": np.int32,
    "flare_cards": np.int32,
    "task_kind": np.int8,
    "task_points": np.int8,
    "task_advanced": np.int8,
    "task_type": np.int8,
    "task_args": np.int16,
    "deck_gateway": np.int8,
    "card_has_warp": np.int8,
    "card_gateway_ref": np.int8,
    "card_no_copy": np.int8,
    "card_deck_pos": np.int8,
    "card_det_start": np.int32,
    "card_det_n": np.int32,
}


class TablesProofError(ValueError):
    """A compiled table holds a value the engine would read out of range."""


def _fail(field, msg):
    return TablesProofError(f"compiled tables: {field}: {msg}")


def _shape(T, field, shape):
    a = getattr(T, field)
    if a.dtype != DTYPES[field]:
        raise _fail(field, f"dtype {a.dtype}, expected {np.dtype(DTYPES[field])}")
    if a.shape != tuple(shape):
        raise _fail(field, f"shape {a.shape}, expected {tuple(shape)}")
    return a.astype(np.int64)


def _within(field, a, lo, hi, what="values"):
    a = np.asarray(a, np.int64)
    if a.size and (a.min() < lo or a.max() > hi):
        bad = a[(a < lo) | (a > hi)][0]
        raise _fail(field, f"{what} must lie in {lo}..{hi}, found {bad}")


def _bits(field, a, n_bits, what="mask", allowed=None):
    """Every value a mask of known bits (the low ``n_bits``, or the bits of ``allowed``)."""
    a = np.asarray(a, np.int64)
    allowed = (1 << n_bits) - 1 if allowed is None else allowed
    bad = (a < 0) | ((a & ~allowed) != 0)
    if a.size and bad.any():
        raise _fail(field, f"{what} {a[bad][0]} sets bits outside the known ones ({allowed:#x})")


def _board(T):
    colour = _shape(T, "sq_color", (NSQ,))
    _within("sq_color", colour, K.SQ_VOID, K.SQ_GREEN)
    on = colour != K.SQ_VOID
    central = _shape(T, "sq_central", (NSQ,))
    _within("sq_central", central, 0, 1)
    if (central.astype(bool) & ~on).any():
        raise _fail("sq_central", "a central square is not on the board")
    nbr = _shape(T, "nbr", (NSQ, 8))
    want = np.full((NSQ, 8), -1, np.int64)
    dist = np.zeros((NSQ, NSQ), np.int64)
    for s in range(NSQ):
        r, c = divmod(s, SIZE)
        for d, (dr, dc) in enumerate(K.DIRS):
            rr, cc = r + dr, c + dc
            if on[s] and 0 <= rr < SIZE and 0 <= cc < SIZE and on[rr * SIZE + cc]:
                want[s, d] = rr * SIZE + cc
        rows, cols = np.divmod(np.arange(NSQ), SIZE)
        dist[s] = np.maximum(np.abs(rows - r), np.abs(cols - c))
    if (nbr != want).any():
        s, d = np.argwhere(nbr != want)[0]
        raise _fail("nbr", f"square {s} direction {d}: {nbr[s, d]}, the board says {want[s, d]}")
    if (_shape(T, "dist", (NSQ, NSQ)) != dist).any():
        raise _fail("dist", "is not the king-move distance of the 9x9 grid")
    onboard = np.flatnonzero(on)
    got = _shape(T, "onboard", onboard.shape)
    if (got != onboard).any():
        raise _fail("onboard", "does not list exactly the board's squares")
    for field in ("side_id", "corner_id"):
        _within(field, _shape(T, field, (NSQ,)), -1, 3)
    for field, shape in (("duel_start", (2,)), ("melee_start", (3, 2))):
        sq = _shape(T, field, shape).ravel()
        _within(field, sq, 0, NSQ - 1, "squares")
        if not on[sq].all() or len(set(sq.tolist())) != sq.size:
            raise _fail(field, "squares must be distinct squares of the board")


def _cards(T):
    kind = T.card_kind.astype(np.int64)
    C = kind.shape[0]
    for field in (
        "card_kind card_deck card_rank card_has_effect card_or_start card_or_n card_eff_start "
        "card_eff_end card_eff2_start card_eff2_end card_has_frozen flare_x flare_y "
        "card_has_warp card_gateway_ref card_no_copy card_deck_pos card_det_start card_det_n"
    ).split():
        _shape(T, field, (C,))
    _within("card_kind", kind, K.CK_BEING, K.CK_FLARE, "kinds")
    being, legend, flare = kind == K.CK_BEING, kind == K.CK_LEGEND, kind == K.CK_FLARE
    D = T.deck_cards.shape[0] if T.deck_cards.ndim == 2 else -1
    deck_cards = _shape(T, "deck_cards", (D, DECK_SIZE))
    deck_size = _shape(T, "deck_size", (D,))
    _within("deck_gateway", _shape(T, "deck_gateway", (D,)), 0, 1)
    if D < 1:
        raise _fail("deck_cards", "no deck")
    deck = T.card_deck.astype(np.int64)
    _within("card_deck", deck, -1, D - 1, "deck indices")
    if (deck[being] < 0).any() or (deck[~being] != -1).any():
        raise _fail("card_deck", "a being needs its deck index, every other card -1")
    rank = T.card_rank.astype(np.int64)
    _within("card_rank", rank[being], K.COMMON, K.HEROIC, "a being's rank")
    if (rank[legend] != K.LEGENDARY).any():
        raise _fail("card_rank", "a legend's rank must be legendary")
    for field in ("card_has_effect", "card_has_frozen", "card_has_warp", "card_gateway_ref"):
        _within(field, getattr(T, field), 0, 1)
    _within("card_no_copy", T.card_no_copy, 0, 1)
    for field in ("card_has_frozen", "card_has_warp"):
        if ((getattr(T, field) != 0) & ~being).any():
            raise _fail(field, "set on a card that is not a being")
    if ((T.card_has_frozen != 0) & (T.card_has_warp != 0)).any():
        raise _fail("card_has_warp", "a being has a frozen program or a warp, not both")
    if ((T.card_no_copy != 0) & (T.card_has_warp == 0)).any():
        raise _fail("card_no_copy", "set on a card without a warp")
    for field in ("flare_x", "flare_y"):
        _within(field, getattr(T, field), 0, MAX_FLARE_THRESHOLD)
    for d in range(D):
        n = int(deck_size[d])
        _within("deck_size", n, 1, DECK_SIZE)
        ids = deck_cards[d, :n]
        _within("deck_cards", ids, 0, C - 1, "card ids")
        if not (being[ids].all() and (deck[ids] == d).all()):
            raise _fail("deck_cards", f"deck {d} lists a card that is not one of its beings")
        if len(set(ids.tolist())) != n:
            raise _fail("deck_cards", f"deck {d} lists a card twice")
    pos = T.card_deck_pos.astype(np.int64)
    _within("card_deck_pos", pos, -1, DECK_SIZE - 1, "deck positions")
    for c in np.flatnonzero(being):
        if pos[c] < 0 or deck_cards[deck[c], pos[c]] != c:
            raise _fail("card_deck_pos", f"card {c} is not at its position in its deck")
    if (pos[~being] != -1).any():
        raise _fail("card_deck_pos", "only beings have a deck position")
    for field, want in (("legend_cards", legend), ("flare_cards", flare)):
        ids = getattr(T, field)
        if ids.ndim != 1 or not 1 <= ids.shape[0] <= SHARED_CAP:
            raise _fail(field, f"must list 1 to {SHARED_CAP} cards (the shared pile's size)")
        ids = _shape(T, field, ids.shape)
        _within(field, ids, 0, C - 1, "card ids")
        if not want[ids].all() or len(set(ids.tolist())) != ids.size:
            raise _fail(field, "lists a card of another kind or a card twice")
    return C, being | legend


def _patterns(T, C, summoned):
    O_ = T.or_card.shape[0] if T.or_card.ndim == 1 else -1
    or_card = _shape(T, "or_card", (O_,))
    _within("or_card", or_card, 0, C - 1, "card ids")
    ncells = _shape(T, "or_ncells", (O_,))
    _within("or_ncells", ncells, 0, MAX_CELLS, "cell counts")
    nmarks = _shape(T, "or_nmarks", (O_,))
    _within("or_nmarks", nmarks, 0, MAX_MARKS, "mark counts")
    cells = _shape(T, "or_cells", (O_, MAX_CELLS, 3))
    marks = _shape(T, "or_marks", (O_, MAX_MARKS, 3))
    _within("or_target_req", _shape(T, "or_target_req", (O_,)), 0, K.HEROIC, "requirements")
    _within("or_sym", _shape(T, "or_sym", (O_,)), 0, 7, "symmetries")
    used = np.arange(MAX_CELLS)[None, :] < ncells[:, None]
    _within("or_cells", cells[..., :2][used], -MAX_OFFSET, MAX_OFFSET, "offsets")
    _within("or_cells", cells[..., 2][used], K.COMMON, K.LEGENDARY, "cell ranks")
    used = np.arange(MAX_MARKS)[None, :] < nmarks[:, None]
    _within("or_marks", marks[..., :2][used], -MAX_OFFSET, MAX_OFFSET, "offsets")
    kinds = marks[..., 2][used]
    arrows = (kinds >= ARROW_BASE) & (kinds < ARROW_BASE + 8)
    if not ((kinds == MARK) | (kinds == MARK2) | arrows).all():
        raise _fail("or_marks", "a mark kind is neither a mark nor one of the 8 arrows")
    for start_f, n_f in (("card_or_start", "card_or_n"), ("card_det_start", "card_det_n")):
        start = getattr(T, start_f).astype(np.int64)
        n = getattr(T, n_f).astype(np.int64)
        _within(n_f, n, 0, O_, "orientation counts")
        _within(start_f, start, 0, O_, "orientation rows")
        if (start + n > O_).any():
            raise _fail(n_f, "runs past the last orientation row")
        for c in np.flatnonzero(n):
            if not summoned[c] or (or_card[start[c] : start[c] + n[c]] != c).any():
                raise _fail(start_f, f"card {c}: its orientation rows belong to another card")
    plain, det = T.card_or_n != 0, T.card_det_n != 0
    if (summoned & (plain == det)).any() or ((plain | det) & ~summoned).any():
        raise _fail("card_or_n", "each being and legend needs one pattern (plain or detached)")
    if (det & (ncells < 1)[T.card_det_start.clip(0, max(O_ - 1, 0))]).any():
        raise _fail("or_ncells", "a detached pattern needs a first cell to anchor it")


def _ops_rows(T, C):
    ops = T.ops
    if ops.ndim != 2 or ops.shape[1] != O.I_WIDTH or ops.shape[0] < 1:
        raise _fail("ops", f"shape {ops.shape}, expected (rows, {O.I_WIDTH})")
    ops = _shape(T, "ops", ops.shape)
    rows = ops.shape[0]
    progs = []
    for s_f, e_f in (("card_eff_start", "card_eff_end"), ("card_eff2_start", "card_eff2_end")):
        start = getattr(T, s_f).astype(np.int64)
        end = getattr(T, e_f).astype(np.int64)
        _within(s_f, start, 0, rows, "ops rows")
        _within(e_f, end, 0, rows, "ops rows")
        if (end < start).any():
            raise _fail(e_f, "a program ends before it starts")
        progs += list(zip(start.tolist(), end.tolist(), strict=True))
    code = ops[:, O.I_OP]
    _within("ops[I_OP]", code, 0, O.N_OPS - 1, "op codes")
    _bits("ops[I_COND]", ops[:, O.I_COND], len(O.PREDICATE_NAMES))
    _bits("ops[I_COND2]", ops[:, O.I_COND2], len(O.PREDICATE2_NAMES))
    _within("ops[I_CHOICE]", ops[:, O.I_CHOICE], 0, max(MAX_CHOICE, DECK_SIZE - 1))
    _within("ops[I_OPTIONAL]", ops[:, O.I_OPTIONAL], 0, 1)
    _within("ops[I_WHO]", ops[:, O.I_WHO], 0, len(O.WHO_NAMES) - 1, "owner codes")
    _bits("ops[I_RANKS]", ops[:, O.I_RANKS], 0, "rank set", allowed=K.RM_ANY)
    _bits("ops[I_REGION]", ops[:, O.I_REGION], len(O.REGION_NAMES), "region")
    _bits("ops[I_REGION2]", ops[:, O.I_REGION2], len(O.REGION_NAMES), "region")
    _bits("ops[I_EXCLUDE]", ops[:, O.I_EXCLUDE], len(O.EXCLUDE_NAMES), "exclusion")
    _within("ops[I_DIST]", ops[:, O.I_DIST], 0, SIZE - 1, "distances")
    _within("ops[I_MOVE_KIND]", ops[:, O.I_MOVE_KIND], 0, len(O.MOVE_KIND_NAMES) - 1)
    _within("ops[I_MOVE_TYPE]", ops[:, O.I_MOVE_TYPE], 0, len(O.MOVE_TYPE_NAMES) - 1)
    _bits("ops[I_DEST]", ops[:, O.I_DEST], len(O.DEST_NAMES), "destination")
    _bits("ops[I_FLAGS]", ops[:, O.I_FLAGS], len(O.FLAG_NAMES), "flag")
    support = ops[:, O.I_SUPPORT]
    _bits("ops[I_SUPPORT]", support, 12, "support")
    for k in range(3):
        _within("ops[I_SUPPORT]", (support >> (4 * k)) & 15, 0, 8, "support counts")
    _params(ops)
    _alts(ops, code, progs)
    choice_rows = (ops[:, O.I_COND2] & O.P2_IN_DISCARD) != 0
    _within("ops[I_CHOICE]", ops[choice_rows, O.I_CHOICE], 0, DECK_SIZE - 1, "deck positions")


def _params(ops):
    """I_PARAM and I_PARAM2 of each row within what its op's Params (core.ops.OPS) allow;
    a column no Param of the op names must hold 0 (the selector key ``placed`` may set
    I_PARAM2 of a who = placed-owner row)."""
    code = ops[:, O.I_OP]
    placed = ops[:, O.I_WHO] == O.W_PLACED_OWNER
    for col, name in ((O.I_PARAM, "I_PARAM"), (O.I_PARAM2, "I_PARAM2")):
        lo = np.zeros(len(ops), np.int64)
        hi = np.zeros(len(ops), np.int64)
        for spec in O.OPS:
            for p in spec.params:
                if p.column == col:
                    lo[code == spec.code], hi[code == spec.code] = p.lo, p.hi
        if col == O.PLACED.column:
            lo[placed] = np.minimum(lo[placed], O.PLACED.lo)
            hi[placed] = np.maximum(hi[placed], O.PLACED.hi)
        v = ops[:, col]
        bad = np.flatnonzero((v < lo) | (v > hi))
        if bad.size:
            r = bad[0]
            raise _fail(
                f"ops[{name}]",
                f"row {r} ({O.OP_NAMES[code[r]]}) holds {v[r]}, expected {lo[r]}..{hi[r]}",
            )


def _alts(ops, code, progs):
    """A choose row's I_ALTS alternatives follow it inside its own program, each an op with a
    target and no condition; no other row has alternatives."""
    alts = ops[:, O.I_ALTS]
    choose = code == O.OP_CHOOSE
    if (alts[~choose] != 0).any():
        raise _fail("ops[I_ALTS]", "set on a row that is not a choose block")
    _within("ops[I_ALTS]", alts[choose], 2, MAX_ALTS, "alternative counts")
    for start, end in progs:
        pc = start
        while pc < end:
            n = int(alts[pc]) if choose[pc] else 0
            if pc + n >= end:
                raise _fail("ops[I_ALTS]", f"row {pc}: the choose block runs past its program")
            for a in range(pc + 1, pc + 1 + n):
                if code[a] not in O.OP_TARGETED or ops[a, O.I_COND] or alts[a]:
                    raise _fail("ops[I_ALTS]", f"row {a}: an alternative must be a targeted op")
            pc += 1 + n


def _tasks(T):
    _within("task_kind", _shape(T, "task_kind", (N_TASKS,)), 0, len(TASK_CHECK_NAMES) - 1)
    _within("task_points", _shape(T, "task_points", (N_TASKS,)), 1, 3)
    _within("task_advanced", _shape(T, "task_advanced", (N_TASKS,)), 0, 1)
    _within("task_type", _shape(T, "task_type", (N_TASKS,)), 0, len(TASK_TYPE_NAMES) - 1)
    _within("task_args", _shape(T, "task_args", (N_TASKS, 4)), 0, MAX_TASK_ARG)


def prove_tables(T) -> None:
    """Raise TablesProofError (one line, naming the field) unless every index is in range."""
    for field in DTYPES:
        if not isinstance(getattr(T, field, None), np.ndarray):
            raise _fail(field, "missing or not an array")
    _board(T)
    C, summoned = _cards(T)
    _patterns(T, C, summoned)
    _ops_rows(T, C)
    _tasks(T)
