"""Turn the TOML op lists of cards and flares into rows of ``tables.ops``.

The vocabulary is documented in sim/data/README.md; every key is checked so that a typo in a
card file is an error naming the file and the card, not a silently different effect.
"""

import numpy as np

from core import constants as K
from core import ops as O

RANK_SETS = {
    "common": K.RM_COMMON,
    "heroic": K.RM_HEROIC,
    "legendary": K.RM_LEGENDARY,
    "non-legendary": K.RM_NONLEG,
    "upgraded": K.RM_UPGRADED,
    "any": K.RM_ANY,
}
SINGLE_RANKS = {"common": K.COMMON, "heroic": K.HEROIC, "legendary": K.LEGENDARY}
OP_CODES = {name: code for code, name in enumerate(O.OP_NAMES)}
CONDS = {name: code for code, name in enumerate(O.COND_NAMES) if name != "always"}
CONDS["done"] = O.C_DONE
CONDS["done-no-equal-capture"] = O.C_DONE_NOT_EQUAL
WHO = {"any": O.W_ANY, "own": O.W_SELF, "enemy": O.W_ENEMY}
REGIONS = {name: code for code, name in enumerate(O.REGION_NAMES)}
MOVES = {name: code for code, name in enumerate(O.MOVE_KIND_NAMES)}
KINDS = {name: code for code, name in enumerate(O.MOVE_TYPE_NAMES)}

# keys each op accepts besides op / if / optional
OP_KEYS = {
    "place": {"rank", "region"},
    "gain-action": {"count"},
    "move": {"who", "ranks", "region", "move", "kind"},
    "upgrade": {"who", "ranks", "region"},
    "downgrade": {"who", "ranks", "region"},
    "destroy": {"who", "ranks", "region"},
    "convert": {"who", "ranks", "region"},
    "choose": {"of"},
}
COMMON_KEYS = {"op", "if", "optional"}


class OpError(ValueError):
    """A malformed op; the loader adds the file and card to the message."""


def _lookup(table, value, what):
    if value not in table:
        raise OpError(f"unknown {what} {value!r} (expected one of {', '.join(table)})")
    return table[value]


def compile_ops(op_list) -> np.ndarray:
    """Rows for a list of op tables (a choose block expands into 1 + alternatives rows)."""
    if not isinstance(op_list, list):
        raise OpError("an effect must be a list of op tables")
    rows = []
    for d in op_list:
        rows.extend(_compile_one(d, nested=False))
    return np.array(rows, np.int32).reshape(-1, O.I_WIDTH)


def _compile_one(d, nested):
    if not isinstance(d, dict) or "op" not in d:
        raise OpError("each op must be a table with an 'op' key")
    name = d["op"]
    code = _lookup(OP_CODES, name, "op")
    extra = set(d) - COMMON_KEYS - OP_KEYS[name]
    if extra:
        raise OpError(f"op {name!r} does not take {', '.join(sorted(extra))}")
    row = [0] * O.I_WIDTH
    row[O.I_OP] = code
    row[O.I_COND] = _lookup(CONDS, d["if"], "condition") if "if" in d else O.C_NONE
    optional = d.get("optional", False)
    if not isinstance(optional, bool):
        raise OpError("optional must be true or false")
    row[O.I_OPTIONAL] = int(optional)
    row[O.I_WHO] = _lookup(WHO, d.get("who", "any"), "owner")
    row[O.I_RANKS] = _lookup(RANK_SETS, d.get("ranks", "any"), "rank set")
    row[O.I_REGION] = _lookup(REGIONS, d.get("region", "anywhere"), "region")
    row[O.I_MOVE_KIND] = _lookup(MOVES, d.get("move", "standard"), "move kind")
    row[O.I_MOVE_TYPE] = _lookup(KINDS, d.get("kind", "move"), "move type")
    if name == "place":
        row[O.I_PARAM] = _lookup(SINGLE_RANKS, d.get("rank", "common"), "rank")
    elif name == "gain-action":
        count = d.get("count", 1)
        if type(count) is not int or not 1 <= count <= 4:
            raise OpError(f"gain-action count must be 1..4, got {count!r}")
        row[O.I_PARAM] = count
    if name == "choose":
        if nested:
            raise OpError("a choose block cannot contain another choose block")
        alts = d.get("of")
        if not isinstance(alts, list) or len(alts) < 2:
            raise OpError("choose needs 'of' = a list of at least 2 ops")
        rows = []
        for a in alts:
            sub = _compile_one(a, nested=True)
            if sub[0][O.I_OP] not in O.OP_TARGETED:
                raise OpError("each alternative of choose must be an op with a target")
            rows.extend(sub)
        row[O.I_ALTS] = len(alts)
        return [row] + rows
    return [row]


def describe_row(row) -> str:
    """One readable line for `kalarite cards show`."""
    op = O.OP_NAMES[row[O.I_OP]]
    parts = [op]
    if row[O.I_COND]:
        parts.append(f"if={O.COND_NAMES[row[O.I_COND]]}")
    if row[O.I_OPTIONAL]:
        parts.append("optional")
    if op in ("move", "upgrade", "downgrade", "destroy", "convert"):
        ranks = next(k for k, v in RANK_SETS.items() if v == row[O.I_RANKS])
        parts.append(f"{O.WHO_NAMES[row[O.I_WHO]]} {ranks}")
        parts.append(f"in {O.REGION_NAMES[row[O.I_REGION]]}")
    if op == "move":
        parts.append(
            f"{O.MOVE_KIND_NAMES[row[O.I_MOVE_KIND]]} {O.MOVE_TYPE_NAMES[row[O.I_MOVE_TYPE]]}"
        )
    if op == "place":
        parts.append(K.RANK_NAMES[row[O.I_PARAM]])
    if op == "gain-action":
        parts.append(str(row[O.I_PARAM]))
    if op == "choose":
        parts.append(f"one of the next {row[O.I_ALTS]}")
    return " ".join(parts)
