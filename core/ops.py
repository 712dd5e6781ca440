"""The effect op vocabulary: instruction layout and codes.

A card effect is a short program: rows of ``tables.ops`` (int32, ``I_WIDTH`` columns). The
content loader (sim.content.ops) turns the TOML op lists into these rows; the interpreter
(core.effects) runs them. Adding a mechanic means adding an op, a selector or a condition
here, never a card-name branch in the turn loop. An op is an ``OP_*`` code and one ``OPS``
entry (TOML name, targeted or not, TOML keys), checked at import; sim/data/README.md
documents each one (tests/test_op_registry.py holds its op table to ``OPS``).

Condition semantics (as BGA resolves card steps): an instruction whose condition fails is
transparent - it changes no register. An instruction that runs is either carried out
("done") or skipped (the player declined, or nothing was legal).
"""

from typing import NamedTuple

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

# --- opcodes ----------------------------------------------------------------------------------
OP_PLACE = 0  # put a piece (rank I_PARAM) of a selected owner on an empty square in the region
OP_GAIN_ACTION = 1  # gain I_PARAM actions
OP_MOVE = 2  # a selected piece moves / leaps / charges
OP_UPGRADE = 3  # upgrade one selected piece
OP_CONVERT = 4  # replace a selected enemy piece by yours (same rank, or rank I_PARAM)
OP_CHOOSE = 5  # one target among the next I_ALTS instructions (each with targets)
OP_DESTROY = 6  # destroy one selected piece
OP_DOWNGRADE = 7  # downgrade one selected piece
OP_DESTROY_ALL = 8  # destroy every selected piece (no choice)
OP_SHOOT = 9  # pick a direction (arrows of the pattern) and destroy along that line
OP_SELECT = 10  # choose a piece (it becomes "the selected piece") without acting on it
OP_PICK = 11  # choose one of I_PARAM numbered alternatives (later steps test P_CHOICE)
OP_GAIN_TURN = 12  # take another turn after this one
OP_DRAW_EXTRA = 13  # draw I_PARAM extra beings and I_PARAM2 extra legends at turn end
OP_CARD_TO_TOP = 14  # a card of your discard pile goes on top of your deck (done if empty);
#                      I_PARAM = 1 (top-only): no choice, the pile's top card
OP_BORROW_ENEMY = 15  # the next summon this turn may use one enemy piece in its pattern
OP_MIRROR_PLACE = 16  # a piece on a marked square (*) is mirrored onto its + partner as yours
OP_CARD_TO_FROZEN = 17  # a card with a frozen program from your discard pile becomes frozen
OP_DISCARD_FLARE = 18  # a flare in your hand goes to the flare discard pile
OP_LOSE_ACTION = 19  # every other colour's next normal turn has one action
OP_BECOME_GATEWAY = 20  # one of your non-legendary pieces becomes your Gateway
OP_LEGEND_SUMMONED = 21  # counts as summoning a legend (melee: the column is chosen)
OP_LOSE_OWN_ACTION = 22  # you lose one of your remaining actions this turn
OP_CARD_TO_BOTTOM = 23  # the running being's card goes under your deck, not to the discard
OP_POSSESS = 24  # your next summon this turn uses the selected piece's colour for its pattern
OP_SELECT_SQUARE = 25  # choose an empty square in the region: it becomes the selected square
OP_DISCARD_LEGEND_CARDS = 26  # every legend card in your hand goes to the legend discard pile
OP_SWAP = 27  # a selected piece and a partner (I_PARAM who, I_PARAM2 ranks) exchange squares
OP_DISCARD_PENDING = 28  # your pending being (not a no-copy card) goes to the discard pile
OP_RETURN_PENDING = 29  # your pending being (not a no-copy card) stops being pending
OP_DISCARD_HAND_CARD = 30  # one card of your hand, not the pending being, is discarded
OP_EXTRA_COUNT = 31  # for the rest of the turn each piece you destroy counts one more
OP_COPY_WARP = 32  # run the warp program of a card (I_PARAM: CW_FROM_*) instead of the rest
OP_OPPOSED_PAIR = 33  # linked: your common placed + step, an enemy common behind it + step back
OP_CAPTURE = 34  # a selected piece leaves the board, held in stasis on the running card
OP_RELEASE = 35  # the piece held on the running card comes back by a standard leap
OP_VOID_SUMMON = 36  # your next summon this turn may count I_PARAM empty squares as your commons
CW_FROM_PENDING = 0  # copy-warp: the current seat's pending being
CW_FROM_DISCARD = 1  # copy-warp: a card of the current seat's discard pile


class OpSpec(NamedTuple):
    """One op, declared once: the engine's code, the TOML name, whether it needs a target,
    and the TOML keys it takes (sim.content.ops checks a card's op tables against them;
    sim/data/README.md's op table is tested against this registry)."""

    code: int
    name: str  # op = "<name>" in a card file
    targeted: bool  # needs a target chosen on the board (so it may stand in a choose block)
    keys: frozenset  # its own keys, besides the ones every op takes (COMMON_KEYS)


COMMON_KEYS = frozenset({"op", "if", "optional", "in-discard"})
SELECTOR_KEYS = frozenset(
    {"who", "ranks", "region", "and-region", "except", "distance", "same-rank", "placed", "support"}
)
_SQUARE_KEYS = frozenset({"region", "and-region", "except"})
_NONE = frozenset()


def _op(code, name, targeted, keys=_NONE):
    return OpSpec(code, name, targeted, frozenset(keys))


OPS = (
    _op(OP_PLACE, "place", True, {"rank", "who", "region", "except", "distance"}),
    _op(OP_GAIN_ACTION, "gain-action", False, {"count"}),
    _op(
        OP_MOVE,
        "move",
        True,
        SELECTOR_KEYS | {"move", "kind", "dest", "no-count", "stop-at-legend", "linked-opposite"},
    ),
    _op(OP_UPGRADE, "upgrade", True, SELECTOR_KEYS),
    _op(OP_CONVERT, "convert", True, SELECTOR_KEYS | {"to-rank"}),
    _op(OP_CHOOSE, "choose", False, {"of"}),
    _op(
        OP_DESTROY, "destroy", True, SELECTOR_KEYS | {"no-count", "count-twice", "remove-from-game"}
    ),
    _op(OP_DOWNGRADE, "downgrade", True, SELECTOR_KEYS),
    _op(OP_DESTROY_ALL, "destroy-all", False, SELECTOR_KEYS | {"no-count"}),
    _op(
        OP_SHOOT,
        "shoot",
        False,
        {"ranks", "blocked-by", "max", "range", "fan", "last-direction", "no-count"},
    ),
    _op(OP_SELECT, "select", True, SELECTOR_KEYS),
    _op(OP_PICK, "pick", False, {"options"}),
    _op(OP_GAIN_TURN, "gain-turn", False),
    _op(OP_DRAW_EXTRA, "draw-extra", False, {"beings", "legends"}),
    _op(OP_CARD_TO_TOP, "card-to-top", False, {"top-only"}),
    _op(OP_BORROW_ENEMY, "borrow-enemy", False),
    _op(OP_MIRROR_PLACE, "mirror-place", False, {"ranks"}),
    _op(OP_CARD_TO_FROZEN, "card-to-frozen", False),
    _op(OP_DISCARD_FLARE, "discard-flare", False),
    _op(OP_LOSE_ACTION, "opponents-lose-action", False),
    _op(OP_BECOME_GATEWAY, "become-gateway", False, SELECTOR_KEYS),
    _op(OP_LEGEND_SUMMONED, "legend-summoned", False),
    _op(OP_LOSE_OWN_ACTION, "lose-action", False),
    _op(OP_CARD_TO_BOTTOM, "card-to-bottom", False),
    _op(OP_POSSESS, "possess", False),
    _op(OP_SELECT_SQUARE, "select-square", False, _SQUARE_KEYS),
    _op(OP_DISCARD_LEGEND_CARDS, "discard-legend-cards", False),
    _op(OP_SWAP, "swap", True, SELECTOR_KEYS | {"with-who", "with-ranks", "with-same-rank"}),
    _op(OP_DISCARD_PENDING, "discard-pending", True),
    _op(OP_RETURN_PENDING, "return-pending", True),
    _op(OP_DISCARD_HAND_CARD, "discard-hand-card", False),
    _op(OP_EXTRA_COUNT, "extra-count", False),
    _op(OP_COPY_WARP, "copy-warp", True, {"from"}),
    _op(OP_OPPOSED_PAIR, "opposed-pair", False, _SQUARE_KEYS),
    _op(OP_CAPTURE, "capture", False, SELECTOR_KEYS),
    _op(OP_RELEASE, "release", False, {"region", "and-region"}),
    _op(OP_VOID_SUMMON, "void-summon", False, {"count"}),
)
N_OPS = len(OPS)
OP_NAMES = tuple(spec.name for spec in OPS)  # by code
# ops that need a target chosen on the board (allowed inside a choose block)
OP_TARGETED = tuple(spec.code for spec in OPS if spec.targeted)


def _check_registry():
    """Codes 0..N_OPS-1 in order, each OP_* code listed once, names unique: a new op cannot
    shift another op's code or name (checked at import, also under python -O)."""
    codes = [v for k, v in globals().items() if k.startswith("OP_") and isinstance(v, int)]
    if [spec.code for spec in OPS] != list(range(N_OPS)):
        raise AssertionError("core.ops.OPS must list the op codes 0..N_OPS-1 in order")
    if sorted(codes) != list(range(N_OPS)):
        raise AssertionError("every OP_* code needs exactly one core.ops.OPS entry")
    if len(set(OP_NAMES)) != N_OPS:
        raise AssertionError("op names must be unique")


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
