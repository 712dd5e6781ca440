"""The card grammar of `kalarite suggest`: every single edit of a deck's card files that
changes one thing a designer would change by hand, each with the direction it most likely
moves the deck (a buff, a nerf, or not known).

The edit kinds (``KINDS``), over a card's TOML table (sim/data/README.md):

- ``op-remove`` / ``op-repeat``: drop an op of a program (effect, frozen, warp; an
  alternative of a ``choose`` block when three or more remain), or play it twice in a row;
- ``optional``: a compulsory op becomes a "may", or a "may" becomes compulsory;
- ``rank-step``: one rank more or less in a rank set (``ranks``, ``with-ranks``,
  ``blocked-by``: common <-> non-legendary <-> any, heroic <-> upgraded <-> any ...), or a
  placed / converted piece's rank one step up or down (``rank``, ``to-rank``);
- ``count-step``: +1 or -1 on a count (``count``, ``beings``, ``legends``, ``max``, ``range``,
  a ``support`` entry);
- ``pattern-rank``: a pattern cell (or the target's requirement) common <-> heroic;
- ``pattern-cell``: a pattern cell no longer needs a piece;
- ``card-rank``: the summoned being common <-> heroic;
- ``swap``: the card replaced by another file's card (the designer lists them).

The direction is a heuristic (it only filters and orders the work; games decide): an op that
helps its owner (destroying enemies, moving, placing and upgrading its own pieces, gaining
actions...) is a buff to repeat and a nerf to drop; an op that hurts its owner (``lose-action``,
upgrading or placing enemy pieces, downgrading its own) the reverse; a "may" is a buff; a wider
rank set helps where the op helps; an easier pattern and a heroic being are buffs. Edits whose
direction the rules do not tell (0) are tried only when the goal asks for both directions.

Each edit is a new card table; ``variants`` writes it into a content copy, where the loader
and the tables proof judge it.
"""

import copy
import json
from dataclasses import dataclass, field

KINDS = (
    "op-remove",
    "op-repeat",
    "optional",
    "rank-step",
    "count-step",
    "pattern-rank",
    "pattern-cell",
    "card-rank",
    "swap",
)
PROGRAMS = ("effect", "frozen", "warp")
BUFF, NERF, UNKNOWN = 1, -1, 0
DIRECTION_NAMES = {BUFF: "buff", NERF: "nerf", UNKNOWN: "either"}

# rank sets as sets of single ranks, and the names the card files give them
RANK_SET = {
    "common": frozenset("c"),
    "heroic": frozenset("h"),
    "legendary": frozenset("l"),
    "non-legendary": frozenset("ch"),
    "upgraded": frozenset("hl"),
    "any": frozenset("chl"),
}
SET_NAME = {v: k for k, v in RANK_SET.items()}
SINGLE_RANKS = ("common", "heroic", "legendary")
SET_KEYS = ("ranks", "with-ranks", "blocked-by")
ENEMY_WHO = ("enemy", "untouched-enemy", "more-common-opponent", "more-upgraded-opponent")
# ops whose repetition means nothing the rules define (a selection, a mode switch) or that
# the rules allow once: their edits have no known direction
STRUCTURAL = frozenset(
    {"select", "select-square", "pick", "copy-warp", "capture", "release", "become-gateway"}
    | {"possess", "borrow-enemy", "void-summon", "choose"}
)
COSTS = frozenset(
    {"discard-flare", "discard-hand-card", "discard-pending", "discard-legend-cards"}
    | {"card-to-bottom", "return-pending"}
)
COUNT_KEYS = {"count": 1, "beings": 1, "legends": 1, "max": 1, "range": 1}


@dataclass(frozen=True)
class Edit:
    """One single edit of one card: ``kind``, the card id (deck/slug), where in the card
    (``where``), the text before and after, and its likely ``direction``."""

    kind: str
    card: str
    where: str
    before: str
    after: str
    direction: int
    card_index: int = field(compare=False)  # the card's place in its deck file

    @property
    def key(self) -> str:
        return f"{self.kind}|{self.card}|{self.where}|{self.after}"

    def line(self) -> str:
        """The edit as a one-line card diff: ``deck/card where: - before + after``."""
        before = f"- {self.before} " if self.before else ""
        after = f"+ {self.after}" if self.after else "+ (nothing)"
        return f"{self.card} {self.where}: {before}{after}"

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "card": self.card,
            "where": self.where,
            "before": self.before,
            "after": self.after,
            "direction": DIRECTION_NAMES[self.direction],
            "line": self.line(),
        }


def toml_value(v) -> str:
    """A value as TOML text on one line (strings, integers, booleans, lists, inline tables)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"no TOML for {type(v).__name__}")


def op_text(op) -> str:
    return toml_value(op)


def _helps(op: dict):
    """Does the op help its owner (True), hurt it (False), or neither is clear (None)?"""
    name = op.get("op")
    who = op.get("who", "any")
    if name in STRUCTURAL or name in COSTS:
        return None
    if name == "lose-action":
        return False
    if name in ("upgrade", "place", "convert") and who in ENEMY_WHO:
        return False
    if name == "downgrade":
        return False if who == "own" else (True if who in ENEMY_WHO else None)
    if name in ("destroy", "destroy-all"):
        return False if who == "own" else (True if who in ENEMY_WHO else None)
    if name == "move" and who in ENEMY_WHO:
        return None
    return True


def _sign(helps, more: bool) -> int:
    """Direction of doing more (``more``) or less of an op that helps (True) or hurts."""
    if helps is None:
        return UNKNOWN
    return (BUFF if more else NERF) * (1 if helps else -1)


def _rank_steps(value):
    """The rank sets one rank wider or narrower than ``value`` (named ones only):
    [(new name, wider?), ...]."""
    if not isinstance(value, str) or value not in RANK_SET:
        return []
    now = RANK_SET[value]
    out = []
    for r in "chl":
        other = now ^ frozenset(r)
        if other in SET_NAME and other:
            out.append((SET_NAME[other], len(other) > len(now)))
    return out


def _program_edits(card: dict, prog: str):
    """(kind, where, before, after, direction, new card) of every edit of one program."""
    ops = card.get(prog)
    if not isinstance(ops, list):
        return
    for i, op in enumerate(ops):
        if not isinstance(op, dict):
            continue
        where = f"{prog}[{i + 1}]"
        helps = _helps(op)
        new = copy.deepcopy(card)
        del new[prog][i]
        yield "op-remove", where, op_text(op), "", _sign(helps, False), new
        new = copy.deepcopy(card)
        new[prog].insert(i + 1, copy.deepcopy(op))
        yield "op-repeat", where, "", f"{op_text(op)} twice", _sign(helps, True), new
        yield from _op_edits(card, [prog, i], op, where, helps)
        if op.get("op") == "choose" and isinstance(op.get("of"), list):
            alts = op["of"]
            for j, alt in enumerate(alts):
                if not isinstance(alt, dict):
                    continue
                w = f"{where}.of[{j + 1}]"
                if len(alts) >= 3:
                    new = copy.deepcopy(card)
                    del new[prog][i]["of"][j]
                    yield "op-remove", w, op_text(alt), "", _sign(_helps(alt), False), new
                yield from _op_edits(card, [prog, i, "of", j], alt, w, _helps(alt), nested=True)


def _at(card, path):
    node = card
    for p in path:
        node = node[p]
    return node


def _op_edits(card, path, op, where, helps, nested=False):
    """Edits of one op's keys: optional, rank steps, count steps."""

    def changed(key, value):
        new = copy.deepcopy(card)
        target = _at(new, path)
        if value is None:
            target.pop(key, None)
        else:
            target[key] = value
        return new, op_text(_at(new, path))

    if not nested:
        if op.get("optional") is True:
            new, text = changed("optional", None)
            yield "optional", where, op_text(op), text, NERF, new
        else:
            new, text = changed("optional", True)
            yield "optional", where, op_text(op), text, BUFF, new
    for key in SET_KEYS:
        for name, wider in _rank_steps(op.get(key)):
            new, text = changed(key, name)
            if key == "blocked-by":
                d = BUFF if not wider else NERF
            elif key == "with-ranks":
                d = BUFF if wider and op.get("optional") else UNKNOWN
            else:
                d = _sign(helps, wider)
            yield "rank-step", where, op_text(op), text, d, new
    for key in ("rank", "to-rank"):
        v = op.get(key)
        if v in SINGLE_RANKS:
            k = SINGLE_RANKS.index(v)
            for step in (-1, 1):
                if 0 <= k + step < len(SINGLE_RANKS):
                    new, text = changed(key, SINGLE_RANKS[k + step])
                    yield "rank-step", where, op_text(op), text, _sign(helps, step > 0), new
    for key in COUNT_KEYS:
        v = op.get(key)
        if isinstance(v, int) and not isinstance(v, bool):
            for step in (-1, 1):
                if v + step < 0 or (key in ("max", "range") and v == 0):
                    continue  # 0 = all / to the edge: no step from there
                new, text = changed(key, v + step)
                yield "count-step", where, op_text(op), text, _sign(helps, step > 0), new
    sup = op.get("support")
    if isinstance(sup, list):
        for r, v in enumerate(sup):
            if not isinstance(v, int) or isinstance(v, bool):
                continue
            for step in (-1, 1):
                if v + step < 0:
                    continue
                s2 = list(sup)
                s2[r] = v + step
                new, text = changed("support", s2)
                yield "count-step", where, op_text(op), text, NERF if step > 0 else BUFF, new


def _pattern_edits(card: dict):
    rows = card.get("pattern")
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        return
    grid = [r.split() for r in rows]
    widths = {len(r) for r in grid}
    if len(widths) != 1:
        return
    for r, row in enumerate(grid):
        for c, tok in enumerate(row):
            where = f"pattern row {r + 1} cell {c + 1}"
            for a, b, d in (("c", "h", NERF), ("h", "c", BUFF)):
                if a in tok:
                    yield (
                        "pattern-rank",
                        where,
                        tok,
                        tok.replace(a, b),
                        d,
                        _with_cell(card, grid, r, c, tok.replace(a, b)),
                    )
            if tok != "." and ("c" in tok or "h" in tok):
                rest = tok.replace("c", "").replace("h", "") or "."
                yield "pattern-cell", where, tok, rest, BUFF, _with_cell(card, grid, r, c, rest)


def _with_cell(card, grid, r, c, tok):
    new = copy.deepcopy(card)
    g = [list(row) for row in grid]
    g[r][c] = tok
    width = [max(len(g[i][j]) for i in range(len(g))) for j in range(len(g[0]))]
    new["pattern"] = [
        " ".join(cell.ljust(width[j]) for j, cell in enumerate(row)).rstrip() for row in g
    ]
    return new


def card_edits(card: dict, deck: str, index: int):
    """Every grammar edit of one card table of deck ``deck`` (``index``: its place in the
    file), in a fixed order."""
    cid = f"{deck}/{card.get('id')}"
    out = []
    for prog in PROGRAMS:
        for kind, where, before, after, d, new in _program_edits(card, prog):
            out.append((Edit(kind, cid, where, before, after, d, index), new))
    for kind, where, before, after, d, new in _pattern_edits(card):
        out.append((Edit(kind, cid, where, before, after, d, index), new))
    rank = card.get("rank")
    if rank in ("common", "heroic"):
        other = "heroic" if rank == "common" else "common"
        new = copy.deepcopy(card)
        new["rank"] = other
        d = BUFF if other == "heroic" else NERF
        out.append((Edit("card-rank", cid, "rank", rank, other, d, index), new))
    return out


def swap_edit(card: dict, deck: str, index: int, other: dict, other_id: str):
    """The card replaced by ``other`` (a card table of another file, ``other_id`` its full
    id), keeping this card's id so the deck's other references hold."""
    new = copy.deepcopy(other)
    new["id"] = card.get("id")
    cid = f"{deck}/{card.get('id')}"
    return Edit("swap", cid, "card", cid, other_id, UNKNOWN, index), new


def deck_edits(deck_data: dict, *, cards=None, lock=(), kinds=KINDS, swaps=(), others=None):
    """Every edit of the deck file ``deck_data`` (parsed TOML) of the chosen ``cards`` (full
    ids; None: all) but the ``lock``ed ones, of the chosen ``kinds``; ``swaps``: pairs
    (card id, replacement card id) looked up in ``others`` ({card id: card table})."""
    deck = deck_data["deck"]
    out = []
    for i, card in enumerate(deck_data.get("card", [])):
        cid = f"{deck}/{card.get('id')}"
        if (cards is not None and cid not in cards) or cid in lock:
            continue
        out.extend((e, new) for e, new in card_edits(card, deck, i) if e.kind in kinds)
        if "swap" in kinds:
            for a, b in swaps:
                if a == cid:
                    out.append(swap_edit(card, deck, i, (others or {})[b], b))
    return out


def in_direction(edit: Edit, direction: int, both: bool) -> bool:
    """Is the edit tried for a goal that needs ``direction`` (BUFF or NERF)? Swaps always
    (the designer listed them); edits of unknown direction only with ``both``."""
    if edit.kind == "swap":
        return True
    if edit.direction == UNKNOWN:
        return both
    return both or edit.direction == direction
