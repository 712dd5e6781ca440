"""The effect op vocabulary: instruction layout and codes.

A card effect is a short program: rows of ``tables.ops`` (int32, ``I_WIDTH`` columns). The
content loader (sim.content.ops) turns the TOML op lists into these rows; the interpreter
(core.effects) runs them. Adding a mechanic means adding an op, a selector or a condition
here, never a card-name branch in the turn loop. An op is an ``OP_*`` code and one ``OPS``
entry, the one place that knows it: TOML name, what it does, its family (the functions of
core.effects that carry it out, held to it by core.checks.dispatch_proof), whether it may
stand in a choose block, its values with their ranges (``Param``: the loader and the tables
proof read them) and its TOML keys; checked at import. sim/data/README.md documents each one
(tests/test_op_registry.py holds its op table to ``OPS``); docs/developer.md lists every file
a new op touches.

Condition semantics (as BGA resolves card steps): an instruction whose condition fails is
transparent - it changes no register. An instruction that runs is either carried out
("done") or skipped (the player declined, or nothing was legal).
"""

from typing import NamedTuple

from core import constants as K

# --- instruction columns ----------------------------------------------------------------------
I_OP = 0  # opcode
I_COND = 1  # bitmask of predicates (P_*) that must all hold
I_CHOICE = 2  # value compared by P_CHOICE
I_OPTIONAL = 3  # 1: the player may skip this part
I_WHO = 4  # whose pieces the selector takes (W_*)
I_RANKS = 5  # rank mask of selected pieces (constants.RM_*)
I_REGION = 6  # union of regions (R_*); 0 = anywhere
I_EXCLUDE = 7  # squares removed from the region (X_*)
I_DIST = 8  # distance for R_DIST; range of a shot (0 = to the edge)
I_PARAM = 9  # place: rank; gain-action: count; convert: new rank (0 = same); shoot: max
#              pieces (0 = all); pick: number of alternatives; draw-extra: beings
I_PARAM2 = 10  # shoot: ranks that stop the shot; draw-extra: legends; who=placed-owner: index
I_MOVE_KIND = 11  # MK_*
I_MOVE_TYPE = 12  # MT_*
I_DEST = 13  # destination constraints (D_*), all must hold
I_ALTS = 14  # OP_CHOOSE: number of alternative instructions that follow
I_FLAGS = 15  # F_*
I_REGION2 = 16  # and-region: a second union of regions the square must also be in (0 = none)
I_SUPPORT = 17  # support: own pieces next to the target (being excluded) needed per target
#                 rank, 4 bits each (common, heroic, legendary); 0 = no requirement
I_COND2 = 18  # bitmask of the second predicate set (P2_*) that must all hold
I_WIDTH = 19

# --- owner selectors --------------------------------------------------------------------------
W_ANY = 0
W_SELF = 1
W_ENEMY = 2
W_SEL_OWNER = 3  # same owner as the selected piece
W_MORE_COMMON = 4  # an opponent with more common pieces on the board than you
W_MORE_UPGRADED = 5  # an opponent with more upgraded pieces on the board than you
W_PLACED_OWNER = 6  # the owner of the piece this effect placed as number I_PARAM2
W_ENEMY_UNTOUCHED = 7  # an enemy colour this effect has not affected yet
W_NOT_THIRD_OF_COLOUR = 8  # any owner, except the one of the last two selected pieces if equal
WHO_NAMES = (
    "any", "own", "enemy", "selected-owner", "more-common-opponent", "more-upgraded-opponent",
    "placed-owner", "untouched-enemy", "not-third-of-colour",
)  # fmt: skip

# --- opcodes (each one's description, family and values: its OPS entry below) ---------------
OP_PLACE = 0
OP_GAIN_ACTION = 1
OP_MOVE = 2
OP_UPGRADE = 3
OP_CONVERT = 4
OP_CHOOSE = 5
OP_DESTROY = 6
OP_DOWNGRADE = 7
OP_DESTROY_ALL = 8
OP_SHOOT = 9
OP_SELECT = 10
OP_PICK = 11
OP_GAIN_TURN = 12
OP_DRAW_EXTRA = 13
OP_CARD_TO_TOP = 14
OP_BORROW_ENEMY = 15
OP_MIRROR_PLACE = 16
OP_CARD_TO_FROZEN = 17
OP_DISCARD_FLARE = 18
OP_LOSE_ACTION = 19
OP_BECOME_GATEWAY = 20
OP_LEGEND_SUMMONED = 21
OP_LOSE_OWN_ACTION = 22
OP_CARD_TO_BOTTOM = 23
OP_POSSESS = 24
OP_SELECT_SQUARE = 25
OP_DISCARD_LEGEND_CARDS = 26
OP_SWAP = 27
OP_DISCARD_PENDING = 28
OP_RETURN_PENDING = 29
OP_DISCARD_HAND_CARD = 30
OP_EXTRA_COUNT = 31
OP_COPY_WARP = 32
OP_OPPOSED_PAIR = 33
OP_CAPTURE = 34
OP_RELEASE = 35
OP_VOID_SUMMON = 36
CW_FROM_PENDING = 0  # copy-warp: the current seat's pending being
CW_FROM_DISCARD = 1  # copy-warp: a card of the current seat's discard pile

# --- an op's family: which functions of core.effects carry it out -----------------------------
# The dispatch proof (core.checks.dispatch_proof, run by load_content and tests) requires each
# op's code in exactly the functions its family names, so an op without its branch is refused
# at load time instead of playing as something else.
AUTOMATIC = "automatic"  # no choice: carried out by run_automatic (core/effects/apply.py)
CHOSEN = "chosen"  # its targets listed by instruction_targets (core/effects/targets.py), the
#                    chosen one carried out by apply_instruction (core/effects/apply.py)
AUTOMATIC_OR_CHOSEN = "automatic-or-chosen"  # run_automatic where no choice is left, else chosen
BLOCK = "block"  # choose: step_targets lists its alternatives' targets
FAMILIES = {
    AUTOMATIC: ("run_automatic",),
    CHOSEN: ("instruction_targets", "apply_instruction"),
    AUTOMATIC_OR_CHOSEN: ("run_automatic", "instruction_targets", "apply_instruction"),
    BLOCK: ("step_targets",),
}
# where each dispatching function lives, relative to core/
DISPATCH_FILES = {
    "run_automatic": "effects/apply.py",
    "apply_instruction": "effects/apply.py",
    "instruction_targets": "effects/targets.py",
    "step_targets": "effects/targets.py",
}

# --- the values an op reads from its row (I_PARAM, I_PARAM2, I_DIST) --------------------------
RANKS_BY_NAME = (("common", K.COMMON), ("heroic", K.HEROIC), ("legendary", K.LEGENDARY))
RANK_SETS_BY_NAME = (
    ("none", 0),
    ("common", K.RM_COMMON),
    ("heroic", K.RM_HEROIC),
    ("legendary", K.RM_LEGENDARY),
    ("non-legendary", K.RM_NONLEG),
    ("upgraded", K.RM_UPGRADED),
    ("any", K.RM_ANY),
)
PARTNER_OWNERS = (("any", W_ANY), ("own", W_SELF), ("enemy", W_ENEMY))
COPY_SOURCES = (("pending", CW_FROM_PENDING), ("discard", CW_FROM_DISCARD))
INT, NAME, NAMES, TRUE = "int", "name", "names", "true"  # Param.kind


class Param(NamedTuple):
    """One value an op reads from its instruction row, declared once: the TOML key, the
    column, the range the column may hold (the loader refuses a card's value outside it, the
    tables proof any compiled row outside it), and what a left-out key means."""

    key: str  # its TOML key
    column: int  # I_PARAM, I_PARAM2 or I_DIST
    lo: int  # the column holds lo..hi
    hi: int
    default: object = None  # the TOML value of a left-out key (None: 0 in the column)
    kind: str = INT  # INT: an integer lo..hi; NAME: one of ``names``; NAMES: one or a list
    #                  of ``names``, their codes ORed; TRUE: only ``true`` (1), or left out
    names: tuple = ()  # ((TOML name, code), ...) for NAME and NAMES
    what: str = ""  # how an error names a NAME value ("rank", "rank set")
    required: bool = False  # the key must be given
    zero: str = ""  # how `kalarite cards show` reads a 0 ("all", "edge")


class OpSpec(NamedTuple):
    """One op, declared once: the engine's code, the TOML name, what it does, its family (the
    functions that carry it out), whether it may stand in a choose block, the values it reads
    and every TOML key it takes (sim.content.ops compiles a card's op tables from this;
    sim/data/README.md's op table is tested against this registry)."""

    code: int
    name: str  # op = "<name>" in a card file
    doc: str  # what it does, in one line
    family: str  # AUTOMATIC, CHOSEN, AUTOMATIC_OR_CHOSEN or BLOCK
    targeted: bool  # a target chosen on the board or among cards: it may stand in a choose
    params: tuple  # Param per value it reads from I_PARAM / I_PARAM2 / I_DIST
    keys: frozenset  # its own keys, besides the ones every op takes (COMMON_KEYS), params' too


COMMON_KEYS = frozenset({"op", "if", "optional", "in-discard"})
SELECTOR_KEYS = frozenset(
    {"who", "ranks", "region", "and-region", "except", "distance", "same-rank", "placed", "support"}
)
_SQUARE_KEYS = frozenset({"region", "and-region", "except"})
_NONE = frozenset()
# the selector key `placed` (with who = "placed-owner"): which placed piece's owner, I_PARAM2
PLACED = Param("placed", I_PARAM2, 0, 1, 0)


def _op(code, name, family, doc, *, targeted=False, params=(), keys=_NONE):
    return OpSpec(
        code, name, doc, family, targeted, tuple(params), frozenset(keys) | {p.key for p in params}
    )


_RANK = "rank"
_RANK_SET = "rank set"
OPS = (
    _op(
        OP_PLACE,
        "place",
        CHOSEN,
        "put a piece (rank I_PARAM) of a selected owner on an empty square in the region",
        targeted=True,
        params=[
            Param("rank", I_PARAM, K.COMMON, K.LEGENDARY, "common", NAME, RANKS_BY_NAME, _RANK)
        ],
        keys={"who", "region", "except", "distance"},
    ),
    _op(
        OP_GAIN_ACTION,
        "gain-action",
        AUTOMATIC,
        "gain I_PARAM actions",
        params=[Param("count", I_PARAM, 1, 4, 1)],
    ),
    _op(
        OP_MOVE,
        "move",
        CHOSEN,
        "a selected piece moves / leaps / charges",
        targeted=True,
        keys=SELECTOR_KEYS
        | {"move", "kind", "dest", "no-count", "stop-at-legend", "linked-opposite"},
    ),
    _op(
        OP_UPGRADE,
        "upgrade",
        CHOSEN,
        "upgrade one selected piece",
        targeted=True,
        keys=SELECTOR_KEYS,
    ),
    _op(
        OP_CONVERT,
        "convert",
        CHOSEN,
        "replace a selected enemy piece by yours (same rank, or rank I_PARAM)",
        targeted=True,
        params=[Param("to-rank", I_PARAM, 0, K.LEGENDARY, None, NAME, RANKS_BY_NAME, _RANK)],
        keys=SELECTOR_KEYS,
    ),
    _op(
        OP_CHOOSE,
        "choose",
        BLOCK,
        "one target among the next I_ALTS instructions (each with targets)",
        keys={"of"},
    ),
    _op(
        OP_DESTROY,
        "destroy",
        CHOSEN,
        "destroy one selected piece",
        targeted=True,
        keys=SELECTOR_KEYS | {"no-count", "count-twice", "remove-from-game"},
    ),
    _op(
        OP_DOWNGRADE,
        "downgrade",
        CHOSEN,
        "downgrade one selected piece",
        targeted=True,
        keys=SELECTOR_KEYS,
    ),
    _op(
        OP_DESTROY_ALL,
        "destroy-all",
        AUTOMATIC,
        "destroy every selected piece (no choice)",
        keys=SELECTOR_KEYS | {"no-count"},
    ),
    _op(
        OP_SHOOT,
        "shoot",
        CHOSEN,
        "pick a direction (arrows of the pattern) and destroy along that line",
        params=[
            Param("max", I_PARAM, 0, 8, 0, zero="all"),
            Param("blocked-by", I_PARAM2, 0, K.RM_ANY, "none", NAMES, RANK_SETS_BY_NAME, _RANK_SET),
            Param("range", I_DIST, 0, 8, 0, zero="edge"),
        ],
        keys={"ranks", "fan", "last-direction", "no-count"},
    ),
    _op(
        OP_SELECT,
        "select",
        CHOSEN,
        "choose a piece (it becomes the selected piece) without acting on it",
        targeted=True,
        keys=SELECTOR_KEYS,
    ),
    _op(
        OP_PICK,
        "pick",
        CHOSEN,
        "choose one of I_PARAM numbered alternatives (later steps test P_CHOICE)",
        params=[Param("options", I_PARAM, 2, 4, 2)],
    ),
    _op(OP_GAIN_TURN, "gain-turn", AUTOMATIC, "take another turn after this one"),
    _op(
        OP_DRAW_EXTRA,
        "draw-extra",
        AUTOMATIC,
        "draw I_PARAM extra beings and I_PARAM2 extra legends at turn end",
        params=[Param("beings", I_PARAM, 0, 3, 0), Param("legends", I_PARAM2, 0, 3, 0)],
    ),
    _op(
        OP_CARD_TO_TOP,
        "card-to-top",
        AUTOMATIC_OR_CHOSEN,
        "a card of your discard pile goes on top of your deck (done if empty); top-only "
        "(I_PARAM 1): no choice, the pile's top card",
        params=[Param("top-only", I_PARAM, 0, 1, None, TRUE)],
    ),
    _op(
        OP_BORROW_ENEMY,
        "borrow-enemy",
        AUTOMATIC,
        "the next summon this turn may use one enemy piece in its pattern",
    ),
    _op(
        OP_MIRROR_PLACE,
        "mirror-place",
        CHOSEN,
        "a piece on a marked square (*) is mirrored onto its + partner as yours",
        keys={"ranks"},
    ),
    _op(
        OP_CARD_TO_FROZEN,
        "card-to-frozen",
        CHOSEN,
        "a card with a frozen program from your discard pile becomes frozen",
    ),
    _op(
        OP_DISCARD_FLARE,
        "discard-flare",
        CHOSEN,
        "a flare in your hand goes to the flare discard pile",
    ),
    _op(
        OP_LOSE_ACTION,
        "opponents-lose-action",
        AUTOMATIC,
        "every other colour's next normal turn has one action",
    ),
    _op(
        OP_BECOME_GATEWAY,
        "become-gateway",
        CHOSEN,
        "one of your non-legendary pieces becomes your Gateway",
        keys=SELECTOR_KEYS,
    ),
    _op(
        OP_LEGEND_SUMMONED,
        "legend-summoned",
        AUTOMATIC_OR_CHOSEN,
        "counts as summoning a legend (melee: the column is chosen)",
    ),
    _op(
        OP_LOSE_OWN_ACTION,
        "lose-action",
        AUTOMATIC,
        "you lose one of your remaining actions this turn",
    ),
    _op(
        OP_CARD_TO_BOTTOM,
        "card-to-bottom",
        AUTOMATIC,
        "the running being's card goes under your deck, not to the discard",
    ),
    _op(
        OP_POSSESS,
        "possess",
        AUTOMATIC,
        "your next summon this turn uses the selected piece's colour for its pattern",
    ),
    _op(
        OP_SELECT_SQUARE,
        "select-square",
        CHOSEN,
        "choose an empty square in the region: it becomes the selected square",
        keys=_SQUARE_KEYS,
    ),
    _op(
        OP_DISCARD_LEGEND_CARDS,
        "discard-legend-cards",
        AUTOMATIC,
        "every legend card in your hand goes to the legend discard pile",
    ),
    _op(
        OP_SWAP,
        "swap",
        CHOSEN,
        "a selected piece and a partner (I_PARAM who, I_PARAM2 ranks) exchange squares",
        targeted=True,
        params=[
            Param("with-who", I_PARAM, W_ANY, W_ENEMY, "any", NAME, PARTNER_OWNERS, "owner"),
            Param("with-ranks", I_PARAM2, 0, K.RM_ANY, "any", NAMES, RANK_SETS_BY_NAME, _RANK_SET),
        ],
        keys=SELECTOR_KEYS | {"with-same-rank"},
    ),
    _op(
        OP_DISCARD_PENDING,
        "discard-pending",
        CHOSEN,
        "your pending being (not a no-copy card) goes to the discard pile",
        targeted=True,
    ),
    _op(
        OP_RETURN_PENDING,
        "return-pending",
        CHOSEN,
        "your pending being (not a no-copy card) stops being pending",
        targeted=True,
    ),
    _op(
        OP_DISCARD_HAND_CARD,
        "discard-hand-card",
        CHOSEN,
        "one card of your hand, not the pending being, is discarded",
    ),
    _op(
        OP_EXTRA_COUNT,
        "extra-count",
        AUTOMATIC,
        "for the rest of the turn each piece you destroy counts one more",
    ),
    _op(
        OP_COPY_WARP,
        "copy-warp",
        CHOSEN,
        "run the warp program of a card (I_PARAM: CW_FROM_*) instead of the rest",
        targeted=True,
        params=[
            Param(
                "from", I_PARAM, 0, 1, None, NAME, COPY_SOURCES, "copy-warp source", required=True
            )
        ],
    ),
    _op(
        OP_OPPOSED_PAIR,
        "opposed-pair",
        CHOSEN,
        "linked: your common placed + step, an enemy common behind it + step back",
        keys=_SQUARE_KEYS,
    ),
    _op(
        OP_CAPTURE,
        "capture",
        CHOSEN,
        "a selected piece leaves the board, held in stasis on the running card",
        keys=SELECTOR_KEYS,
    ),
    _op(
        OP_RELEASE,
        "release",
        AUTOMATIC_OR_CHOSEN,
        "the piece held on the running card comes back by a standard leap",
        keys={"region", "and-region"},
    ),
    _op(
        OP_VOID_SUMMON,
        "void-summon",
        AUTOMATIC,
        "your next summon this turn may count I_PARAM empty squares as your commons",
        params=[Param("count", I_PARAM, 1, 3, 2)],
    ),
)
N_OPS = len(OPS)
OP_NAMES = tuple(spec.name for spec in OPS)  # by code
# ops that need a target chosen on the board (allowed inside a choose block)
OP_TARGETED = tuple(spec.code for spec in OPS if spec.targeted)
PARAM_COLUMNS = (I_PARAM, I_PARAM2, I_DIST)


def _param_codes(p: Param) -> list:
    """Every code the loader may write for ``p``: its range's ends, each name's code (ORed
    names stay within a mask's range by construction) and a left-out key's."""
    codes = [code for _, code in p.names]
    if p.default is None or p.kind == INT:
        codes.append(0 if p.default is None else p.default)
    return codes


def _check_registry():
    """Codes 0..N_OPS-1 in order, each OP_* code listed once, names unique, every family
    known, every Param inside its column's range (checked at import, also under python -O):
    a new op cannot shift another op's code or name."""
    codes = [v for k, v in globals().items() if k.startswith("OP_") and isinstance(v, int)]
    if [spec.code for spec in OPS] != list(range(N_OPS)):
        raise AssertionError("core.ops.OPS must list the op codes 0..N_OPS-1 in order")
    if sorted(codes) != list(range(N_OPS)):
        raise AssertionError("every OP_* code needs exactly one core.ops.OPS entry")
    if len(set(OP_NAMES)) != N_OPS:
        raise AssertionError("op names must be unique")
    for spec in OPS:
        if spec.family not in FAMILIES:
            raise AssertionError(f"op {spec.name}: unknown family {spec.family!r}")
        columns = [p.column for p in spec.params]
        if len(set(columns)) != len(columns) or not set(columns) <= set(PARAM_COLUMNS):
            raise AssertionError(f"op {spec.name}: one Param per column of {PARAM_COLUMNS}")
        for p in spec.params:
            bad = [c for c in _param_codes(p) if not p.lo <= c <= p.hi]
            if bad or (p.kind in (NAME, NAMES)) != bool(p.names):
                raise AssertionError(f"op {spec.name}: {p.key} does not fit {p.lo}..{p.hi}")


_check_registry()
# ops that act on pieces and so reset the result registers
OP_PIECE = OP_TARGETED + (OP_DESTROY_ALL, OP_SHOOT)

# --- predicates (bits of I_COND) --------------------------------------------------------------
P_DONE = 1 << 0  # the last instruction that ran was carried out
P_DESTROYED = 1 << 1  # the last piece instruction destroyed at least one piece
P_NOT_DESTROYED = 1 << 2
P_DESTROYED_2 = 1 << 3  # ... at least two
P_DESTROYED_LEGEND = 1 << 4  # ... a legendary piece
P_NOT_DESTROYED_LEGEND = 1 << 5
P_NOT_LAST_ACTION = 1 << 6  # actions remain this turn
P_ON_GREEN = 1 << 7  # the being was summoned on a green square
P_ON_RED = 1 << 8
P_FULL_MOON = 1 << 9  # summoned on a green square or a non-central red one
P_NOT_FULL_MOON = 1 << 10
P_BEING_MOVED = 1 << 11  # the being has moved during this effect
P_BEING_NOT_MOVED = 1 << 12
P_RANK_COMMON = 1 << 13  # the selected piece was common when chosen
P_RANK_NON_LEGENDARY = 1 << 14
P_SEL_ON_RED = 1 << 15  # the selected piece stood on a red square when chosen
P_CHOICE = 1 << 16  # the last choice / pick was alternative I_CHOICE
P_COMBAT_UNUSED = 1 << 17  # no move of this effect has taken a piece of its own rank
P_PLACED = 1 << 18  # this effect placed at least one piece
P_PLACED_2 = 1 << 19  # ... at least two
P_NOT_OVERSUMMONED = 1 << 20  # the summon of the being destroyed no piece
P_OVERSUMMONED_ENEMY = 1 << 21  # the summon of the being destroyed an enemy piece
P_EFFECT_DESTROYED = 1 << 22  # this program has destroyed at least one piece (any owner)
P_ENEMY_HAS_STOCK = 1 << 23  # some enemy colour has a common/heroic piece in stock
P_MORE = P_NOT_OVERSUMMONED | P_OVERSUMMONED_ENEMY | P_EFFECT_DESTROYED | P_ENEMY_HAS_STOCK
PREDICATE_NAMES = (
    "done", "destroyed", "not-destroyed", "destroyed-2", "destroyed-legend",
    "not-destroyed-legend", "not-last-action", "summoned-on-green", "summoned-on-red",
    "full-moon", "not-full-moon", "being-moved", "being-not-moved", "rank-common",
    "rank-non-legendary", "selected-on-red", "choice", "combat-unused", "placed", "placed-2",
    "not-oversummoned", "oversummoned-enemy", "effect-destroyed", "enemy-has-stock",
)  # fmt: skip

# --- second predicate set (bits of I_COND2): the Gateway and other Nethervoid conditions --------
P2_GATEWAY_ELSEWHERE = 1 << 0  # your Gateway is on the board and is not the being
P2_BEING_IS_GATEWAY = 1 << 1  # the being is your Gateway
P2_BEING_NOT_GATEWAY = 1 << 2  # the being is not your Gateway (or you have none)
P2_GATEWAY_ON_RED = 1 << 3  # your Gateway stands on a red square
P2_GATEWAY_ON_GREEN = 1 << 4  # your Gateway stands on a green square
P2_EFFECT_DESTROYED_2 = 1 << 5  # this program has destroyed at least two pieces (any owner)
P2_LAST_ACTION = 1 << 6  # no action remains this turn
P2_OPPONENT_MORE_PIECES = 1 << 7  # some opponent colour has more pieces on the board than you
P2_DECK_NOT_EMPTY = 1 << 8  # your own being deck still has cards
P2_RANK_HEROIC = 1 << 9  # the selected piece was heroic when chosen
P2_WARP_UNPLAYED = 1 << 10  # the running card's warp was not played this turn
P2_IN_DISCARD = 1 << 11  # a card of your deck (position I_CHOICE) is in your discard pile
PREDICATE2_NAMES = (
    "gateway-elsewhere", "being-is-gateway", "being-not-gateway", "gateway-on-red",
    "gateway-on-green", "effect-destroyed-2", "last-action", "opponent-more-pieces",
    "deck-not-empty", "rank-heroic", "warp-unplayed", "in-discard",
)  # fmt: skip

# --- regions (bits of I_REGION, united); reference = the being's square -------------------------
R_BEING = 1 << 0  # the being itself
R_MARKED = 1 << 1  # the pattern's marked squares (*) for the orientation used
R_MARK2 = 1 << 2  # the second kind of marked square (+)
R_ADJ = 1 << 3  # the 8 neighbours
R_ORTHO = 1 << 4  # the 4 orthogonal neighbours
R_DIAG = 1 << 5  # the 4 diagonal neighbours
R_DIST = 1 << 6  # within I_DIST (king moves), the being's square excluded
R_ADJ_GREEN = 1 << 7  # next to any green square
R_NEAR_RED = 1 << 8  # on or next to a red square
R_NEAR_GREEN = 1 << 9  # on or next to a green square
R_ADJ_OWN = 1 << 10  # next to one of your pieces
R_SEL = 1 << 11  # the selected piece
R_ADJ_SEL = 1 << 12  # next to the selected piece's square
R_AFFECTED = 1 << 13  # squares this effect already affected
R_CONNECTED = 1 << 14  # next to a square this effect already affected
R_ARROW_RAY = 1 << 15  # on a straight line from the being along one of the pattern's arrows
R_ADJ_OWN_HEROIC = 1 << 16  # next to one of your pieces of exactly heroic rank
R_ENTRY = 1 << 17  # the square where the being entered (also once the being is gone)
R_GATEWAY = 1 << 18  # your Gateway (nothing without one)
R_NEXT_TO_GATEWAY = 1 << 19  # the 8 neighbours of your Gateway
R_NEXT_TO_SAME_COLOUR = 1 << 20  # place only: next to a piece of the colour being placed
R_COLOURLESS = 1 << 21  # a square that is neither red nor green
R_NEXT_TO_OWN_2 = 1 << 22  # next to at least two of your pieces
R_NEXT_TO_OWN_NEAR_SEL = 1 << 23  # next to one of your pieces that touches the selected square
R_NEXT_TO_ENEMY = 1 << 24  # next to a piece of another colour
R_ETHER = R_NEXT_TO_OWN_2 | R_NEXT_TO_OWN_NEAR_SEL | R_NEXT_TO_ENEMY
R_GATE = R_GATEWAY | R_NEXT_TO_GATEWAY
R_MORE = R_ADJ_OWN_HEROIC | R_ENTRY
# regions measured from the being or its pattern: meaningless in a frozen program (no being)
R_BEING_RELATIVE = (
    R_BEING | R_MARKED | R_MARK2 | R_ADJ | R_ORTHO | R_DIAG | R_DIST | R_ARROW_RAY | R_ENTRY
)
REGION_NAMES = (
    "being", "marked", "marked-2", "adjacent", "orthogonal", "diagonal", "distance",
    "next-to-green", "near-red", "near-green", "next-to-own", "selected", "next-to-selected",
    "affected", "connected", "arrow-lines", "next-to-own-heroic", "entry", "gateway",
    "next-to-gateway", "next-to-same-colour", "colourless", "next-to-own-2",
    "next-to-own-near-selected", "next-to-enemy",
)  # fmt: skip

X_BEING = 1 << 0  # not the being
X_AFFECTED = 1 << 1  # not a square this effect already affected
X_GATEWAY = 1 << 2  # not your Gateway
EXCLUDE_NAMES = ("being", "affected", "gateway")

# --- moves ----------------------------------------------------------------------------------
MK_STANDARD = 0  # destination empty or holding a lower-rank piece
MK_COMBAT = 1  # destination empty or holding a piece of equal or lower rank
MK_COMBAT_ONCE = 2  # combat until a move of this effect takes a piece of its own rank
MK_STANDARD_IF_BEING = 3  # standard for the being, combat for any other piece
MOVE_KIND_NAMES = ("standard", "combat", "combat-once", "standard-if-being")

MT_MOVE = 0  # one step to an adjacent square
MT_LEAP = 1  # to any other square of the board
MT_LEAP2 = 2  # to a square at distance exactly 2
MT_CHARGE = 3  # any number of steps in one straight line (lower pieces passed are destroyed)
MT_SAME_DIR = 4  # one step in the direction of the previous move
MT_ONTO_SEL = 5  # a leap onto the selected piece's square
MT_WITHIN_45 = 6  # one step at most 45 degrees off the previous move's direction
MT_OPPOSITE = 7  # one step in the direction opposite to the previous move's
MOVE_TYPE_NAMES = (
    "move", "leap", "leap-2", "charge", "same-direction", "onto-selected", "within-45",
    "opposite-direction",
)  # fmt: skip

D_EMPTY = 1 << 0  # only onto empty squares
D_EMPTY_OR_HEROIC = 1 << 1  # only onto empty squares or heroic pieces
D_NEXT_TO_OWN = 1 << 2  # ending next to another piece of yours
D_COLOURED = 1 << 3  # onto a red or green square
D_MARKED = 1 << 4  # onto a marked square
D_TOWARDS_GATEWAY = 1 << 5  # strictly closer (king distance) to your Gateway (none without)
D_NOT_GATEWAY = 1 << 6  # not onto your Gateway
D_GATE = D_TOWARDS_GATEWAY | D_NOT_GATEWAY
D_DISTANCE_2 = 1 << 7  # ending at king distance exactly 2 from the being
DEST_NAMES = (
    "empty", "empty-or-heroic", "next-to-own", "coloured", "marked", "towards-gateway",
    "not-gateway", "distance-2",
)  # fmt: skip

F_NO_COUNT = 1 << 0  # destructions do not count as destroyed by you
F_FAN = 1 << 1  # shoot: also along both directions at 45 degrees
F_STOP_AT_LEGEND = 1 << 2  # charge: destroying a legendary piece ends the charge
F_SAME_RANK = 1 << 3  # selector: the selected piece's rank only
F_LAST_DIR = 1 << 4  # shoot: along the previous move's direction, no choice
F_COUNT_TWICE = 1 << 5  # destroy: an enemy victim counts as two destroyed pieces
F_REMOVE = 1 << 6  # destroy: the victim (any owner) leaves the game instead of the stock
F_WITH_SAME_RANK = 1 << 7  # swap: the partner has the rank of the first piece
F_LINKED_OPPOSITE = 1 << 8  # move: a step only if another piece of yours can then step back
FLAG_NAMES = (
    "no-count", "fan", "stop-at-legend", "same-rank", "last-direction", "count-twice",
    "remove-from-game", "with-same-rank", "linked-opposite",
)  # fmt: skip
