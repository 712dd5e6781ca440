"""Turn the TOML op lists of cards and flares into rows of ``tables.ops``.

The vocabulary is documented in sim/data/README.md; every key is checked so that a typo in a
card file is an error naming the file and the card, not a silently different effect.
"""

import numpy as np

from core import constants as K
from core import ops as O
from sim import inputs

RANK_SETS = dict(O.RANK_SETS_BY_NAME)
SINGLE_RANKS = dict(O.RANKS_BY_NAME)
OP_CODES = {spec.name: spec.code for spec in O.OPS}
OP_SPECS = {spec.name: spec for spec in O.OPS}  # the registry: core.ops.OPS
PREDICATES = {name: 1 << bit for bit, name in enumerate(O.PREDICATE_NAMES) if name != "choice"}
PREDICATES2 = {  # -> I_COND2 (in-discard has its own key: it names a card)
    name: 1 << bit for bit, name in enumerate(O.PREDICATE2_NAMES) if name != "in-discard"
}
WHO = {name: code for code, name in enumerate(O.WHO_NAMES)}
REGIONS = {name: 1 << bit for bit, name in enumerate(O.REGION_NAMES)}
EXCLUDES = {name: 1 << bit for bit, name in enumerate(O.EXCLUDE_NAMES)}
MOVES = {name: code for code, name in enumerate(O.MOVE_KIND_NAMES)}
KINDS = {name: code for code, name in enumerate(O.MOVE_TYPE_NAMES)}
DESTS = {name: 1 << bit for bit, name in enumerate(O.DEST_NAMES)}
FLAG_KEYS = {name: 1 << bit for bit, name in enumerate(O.FLAG_NAMES)}

MAX_OPS = 64  # ops in one program (the longest card has a dozen)
MAX_ALTS = 8  # alternatives of one choose block
MAX_CHOICE = 15  # choice-N: a pick has at most 4 alternatives, a choose block a few more
OP_KEYS = {spec.name: spec.keys for spec in O.OPS}


class OpError(inputs.InputError):
    """A malformed op; the loader adds the file and card to the message."""


def _lookup(table, value, what):
    if not isinstance(value, str) or value not in table:
        raise OpError(f"unknown {what} {_show(value)} (expected one of {', '.join(table)})")
    return table[value]


_show = inputs.show


def _flag(d, key):
    """A true/false key (left out: false)."""
    return inputs.need_bool(d.get(key, False), key, OpError)


def _mask(table, value, what):
    """A name or a list of names -> the OR of their bits."""
    names = value if isinstance(value, list) else [value]
    m = 0
    for v in names:
        m |= _lookup(table, v, what)
    return m


def _int(d, key, lo, hi, default):
    return inputs.need_int(d.get(key, default), key, lo, hi, OpError, f"an integer in {lo}..{hi}")


def compile_ops(op_list, card_ids=()) -> np.ndarray:
    """Rows for a list of op tables (a choose block expands into 1 + alternatives rows).
    ``card_ids``: the ids of the deck's cards in file order (for ``in-discard``)."""
    if not isinstance(op_list, list):
        raise OpError("an effect must be a list of op tables")
    if len(op_list) > MAX_OPS:
        raise OpError(f"a program has at most {MAX_OPS} ops")
    rows = []
    for d in op_list:
        rows.extend(_compile_one(d, nested=False, card_ids=card_ids))
    return np.array(rows, np.int32).reshape(-1, O.I_WIDTH)


def _condition(value, row):
    names = value if isinstance(value, list) else [value]
    for name in names:
        if isinstance(name, str) and name.startswith("choice-") and name[7:].isdigit():
            if not name[7:].isascii() or int(name[7:]) > MAX_CHOICE:
                raise OpError(f"condition {_show(name)}: choice-N takes N in 0..{MAX_CHOICE}")
            row[O.I_COND] |= O.P_CHOICE
            row[O.I_CHOICE] = int(name[7:])
        elif isinstance(name, str) and name in PREDICATES2:
            row[O.I_COND2] |= PREDICATES2[name]
        else:
            row[O.I_COND] |= _lookup(PREDICATES | PREDICATES2, name, "condition")


def _in_discard(d, row, card_ids):
    """Key in-discard = "card-id": only if that card of your deck is in your discard pile
    (its deck position goes to I_CHOICE, so it cannot be combined with choice-N)."""
    cid = d["in-discard"]
    if not isinstance(cid, str) or cid not in card_ids:
        raise OpError(f"in-discard: {_show(cid)} is not a card of this deck")
    if row[O.I_COND] & O.P_CHOICE:
        raise OpError("in-discard cannot be combined with a choice-N condition")
    row[O.I_COND2] |= O.P2_IN_DISCARD
    row[O.I_CHOICE] = list(card_ids).index(cid)


def _compile_one(d, nested, card_ids=()):
    if not isinstance(d, dict) or "op" not in d:
        raise OpError("each op must be a table with an 'op' key")
    name = d["op"]
    code = _lookup(OP_CODES, name, "op")
    extra = set(d) - O.COMMON_KEYS - OP_KEYS[name]
    if extra:
        raise OpError(f"op {name!r} does not take {', '.join(sorted(extra))}")
    row = [0] * O.I_WIDTH
    row[O.I_OP] = code
    if "if" in d:
        _condition(d["if"], row)
    if "in-discard" in d:
        _in_discard(d, row, card_ids)
    row[O.I_OPTIONAL] = int(_flag(d, "optional"))
    row[O.I_WHO] = _lookup(WHO, d.get("who", "own" if name == "place" else "any"), "owner")
    row[O.I_RANKS] = _mask(RANK_SETS, d.get("ranks", "any"), "rank set")
    row[O.I_REGION] = _mask(REGIONS, d["region"], "region") if "region" in d else 0
    row[O.I_REGION2] = _mask(REGIONS, d["and-region"], "region") if "and-region" in d else 0
    row[O.I_SUPPORT] = _support(d["support"]) if "support" in d else 0
    row[O.I_EXCLUDE] = _mask(EXCLUDES, d["except"], "exclusion") if "except" in d else 0
    row[O.I_DIST] = _int(d, "distance", 0, 8, 0)
    if "distance" in d and not (row[O.I_REGION] | row[O.I_REGION2]) & O.R_DIST:
        raise OpError("distance needs region 'distance'")
    row[O.I_MOVE_KIND] = _lookup(MOVES, d.get("move", "standard"), "move kind")
    row[O.I_MOVE_TYPE] = _lookup(KINDS, d.get("kind", "move"), "move type")
    row[O.I_DEST] = _mask(DESTS, d["dest"], "destination") if "dest" in d else 0
    _check_nethervoid(name, row)
    for key, bit in FLAG_KEYS.items():
        if _flag(d, key):
            row[O.I_FLAGS] |= bit
    _params(name, d, row)
    if name == "choose":
        if nested:
            raise OpError("a choose block cannot contain another choose block")
        alts = d.get("of")
        if not isinstance(alts, list) or not 2 <= len(alts) <= MAX_ALTS:
            raise OpError(f"choose needs 'of' = a list of 2 to {MAX_ALTS} ops")
        rows = []
        for a in alts:
            sub = _compile_one(a, nested=True)
            if sub[0][O.I_OP] not in O.OP_TARGETED:
                raise OpError("each alternative of choose must be an op with a target")
            if sub[0][O.I_COND]:
                raise OpError("alternatives of choose cannot have their own condition")
            rows.extend(sub)
        row[O.I_ALTS] = len(alts)
        return [row] + rows
    return [row]


def _check_nethervoid(name, row):
    """The region next-to-same-colour is judged per placed colour: place only, alone."""
    regions = row[O.I_REGION] | row[O.I_REGION2]
    if regions & O.R_NEXT_TO_SAME_COLOUR and (
        name != "place" or row[O.I_REGION] != O.R_NEXT_TO_SAME_COLOUR or row[O.I_REGION2]
    ):
        raise OpError("region 'next-to-same-colour' is for place only, and alone")
    if row[O.I_DEST] & O.D_GATE and name != "move":
        raise OpError("the Gateway destinations are for move only")


def _support(value):
    """[common, heroic, legendary]: own pieces a target of that rank needs next to it."""
    if not isinstance(value, list) or len(value) != 3:
        raise OpError("support must be a list of 3 counts [common, heroic, legendary]")
    packed = 0
    for k, v in enumerate(value):
        packed |= inputs.need_int(v, "support counts", 0, 8, OpError, "integers in 0..8") << (4 * k)
    return packed


def _param(spec, p, d):
    """The column value of one Param (core.ops) from the op table ``d``."""
    if p.key not in d:
        if p.required:
            names = " or ".join(repr(n) for n, _ in p.names)
            raise OpError(f"{spec.name} needs {p.key} = {names}")
        if p.default is None:
            return 0
    value = d.get(p.key, p.default)
    if p.kind == O.INT:
        return _int(d, p.key, p.lo, p.hi, p.default)
    if p.kind == O.TRUE:
        if value is not True:
            raise OpError(f"{p.key} must be true (or left out)")
        return 1
    table = dict(p.names)
    if p.kind == O.NAMES:
        return _mask(table, value, p.what)
    return _lookup(table, value, p.what)


def _params(name, d, row):
    """The op's values (its Params in core.ops.OPS), then the rules that tie them to other
    keys."""
    spec = OP_SPECS[name]
    for p in spec.params:
        row[p.column] = _param(spec, p, d)
    if name == "release" and row[O.I_OPTIONAL]:
        raise OpError("release is compulsory: the held piece must come back (no optional)")
    if name == "card-to-top" and row[O.I_PARAM] == 1 and row[O.I_OPTIONAL]:
        raise OpError("card-to-top with top-only has no choice: it cannot be optional")
    if "placed" in d:
        if d.get("who") != "placed-owner":
            raise OpError("placed needs who = 'placed-owner'")
        row[O.PLACED.column] = _int(d, O.PLACED.key, O.PLACED.lo, O.PLACED.hi, O.PLACED.default)


def _names(table, mask):
    return "+".join(k for k, v in table.items() if v and mask & v) or "-"


def _param_text(spec, row) -> list:
    """The op's values (its Params in core.ops.OPS) as ``key value`` words; a name at its
    default, and a left-out key, are not shown."""
    out = []
    for p in spec.params:
        v = int(row[p.column])
        if p.key == "rank":  # place: shown with the owner
            continue
        if p.kind == O.INT:
            out.append(f"{p.key} {v or p.zero or 0}")
        elif p.kind == O.TRUE:
            out += [p.key] if v else []
        else:
            names = dict(p.names)
            if p.kind == O.NAMES:
                text = next((k for k, c in names.items() if c == v), None) or _names(names, v)
            else:
                text = next((k for k, c in names.items() if c == v), str(v))
            if (p.default is None and v == 0 and not p.required) or text == p.default:
                continue
            out.append(f"{p.key} {text}")
    return out


def describe_row(row) -> str:
    """One readable line for `kalarite cards show` (and what content diffs compare)."""
    spec = O.OPS[row[O.I_OP]]
    op = spec.name
    parts = [op]
    if row[O.I_COND] or row[O.I_COND2]:
        conds = [k for k, v in PREDICATES.items() if row[O.I_COND] & v]
        conds += [k for k, v in PREDICATES2.items() if row[O.I_COND2] & v]
        if row[O.I_COND] & O.P_CHOICE:
            conds.append(f"choice-{row[O.I_CHOICE]}")
        parts.append(f"if {' and '.join(conds)}")
    if row[O.I_OPTIONAL]:
        parts.append("(optional)")
    ranks = next((k for k, v in RANK_SETS.items() if v == row[O.I_RANKS]), "?")
    if "who" in spec.keys:  # a selector: whose pieces, which ranks, where
        if op == "place":
            ranks = K.RANK_NAMES[row[O.I_PARAM]]
        parts.append(f"{O.WHO_NAMES[row[O.I_WHO]]} {ranks}")
        if row[O.I_REGION]:
            parts.append(f"in {_names(REGIONS, row[O.I_REGION])}")
        if row[O.I_REGION2]:
            parts.append(f"and in {_names(REGIONS, row[O.I_REGION2])}")
        if row[O.I_SUPPORT]:
            need = [(row[O.I_SUPPORT] >> (4 * k)) & 15 for k in range(3)]
            parts.append(f"support c/h/l {need[0]}/{need[1]}/{need[2]}")
        if row[O.I_REGION] & O.R_DIST:
            parts.append(f"<= {row[O.I_DIST]}")
        if row[O.I_EXCLUDE]:
            parts.append(f"except {_names(EXCLUDES, row[O.I_EXCLUDE])}")
    elif "region" in spec.keys and row[O.I_REGION]:  # a square in a region
        parts.append(f"in {_names(REGIONS, row[O.I_REGION])}")
    if op == "move":
        parts.append(
            f"{O.MOVE_KIND_NAMES[row[O.I_MOVE_KIND]]} {O.MOVE_TYPE_NAMES[row[O.I_MOVE_TYPE]]}"
        )
        if row[O.I_DEST]:
            parts.append(f"onto {_names(DESTS, row[O.I_DEST])}")
    if op in ("shoot", "mirror-place"):
        parts.append(f"destroys {ranks}" if op == "shoot" else f"ranks {ranks}")
    parts += _param_text(spec, row)
    if row[O.I_FLAGS]:
        parts.append(" ".join(k for k, v in FLAG_KEYS.items() if row[O.I_FLAGS] & v))
    if op == "choose":
        parts.append(f"one of the next {row[O.I_ALTS]}")
    return " ".join(parts)


def check_card_programs(programs, no_copy=False):
    """Where the ops tied to their card may stand; ``programs``: {key: rows} of one card
    (keys effect, warp, frozen, upper, lower). copy-warp only in an effect (a warp never
    copies, so copies cannot recurse); capture only in the warp of a no-copy card (the piece
    is held on that card, which stays pending and untouchable until it is summoned); release
    only in the effect of a card whose warp captures."""
    used = {k: {int(r[O.I_OP]) for r in rows} for k, rows in programs.items() if rows is not None}
    for key, ops in used.items():
        if O.OP_COPY_WARP in ops and key != "effect":
            raise OpError(f"{key}: copy-warp may stand only in a being's effect")
        if O.OP_CAPTURE in ops and not (key == "warp" and no_copy):
            raise OpError(f"{key}: capture may stand only in the warp of a no-copy card")
        captures = O.OP_CAPTURE in used.get("warp", ())
        if O.OP_RELEASE in ops and not (key == "effect" and captures):
            raise OpError(f"{key}: release may stand only in the effect of a card that captures")
