"""Small integer codes shared by the compiled engine and the Python side.

Plain module-level ints: numba folds them into the kernels as constants. The tables of
names and texts beside them (``EVENTS``) are read by the Python side only.
"""

from typing import NamedTuple

# --- pieces -----------------------------------------------------------------------------
EMPTY = 0
COMMON = 1
HEROIC = 2
LEGENDARY = 3
RANK_NAMES = ("-", "common", "heroic", "legendary")
RANK_LETTERS = ".chl"

# rank masks used by selectors
RM_COMMON = 1 << COMMON
RM_HEROIC = 1 << HEROIC
RM_LEGENDARY = 1 << LEGENDARY
RM_NONLEG = RM_COMMON | RM_HEROIC
RM_UPGRADED = RM_HEROIC | RM_LEGENDARY
RM_ANY = RM_COMMON | RM_HEROIC | RM_LEGENDARY

# --- board colours ------------------------------------------------------------------------
SQ_VOID = -1
SQ_NORMAL = 0
SQ_RED = 1
SQ_GREEN = 2

# directions: index -> (d_row, d_col); north is up (row - 1)
DIRS = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
DIR_NAMES = ("n", "ne", "e", "se", "s", "sw", "w", "nw")

# --- modes ----------------------------------------------------------------------------------
MODE_HIGH_FORM = 0
MODE_DEATHMATCH = 1  # the two-player duel
MODE_MELEE = 2  # Deathmatch, 3 or 4 players each for themself
MODE_TEAM_HIGH_FORM = 3  # 4 players, seats 0+2 against 1+3
MODE_TEAM_DEATHMATCH = 4
MODE_NEW_PLAYER = 5  # the simplified first-game rules (two Imperial decks)
MODE_NAMES = (
    "high-form",
    "deathmatch",
    "melee",
    "team-high-form",
    "team-deathmatch",
    "new-player",
)
MODE_SEATS = ((2,), (2,), (3, 4), (4,), (4,), (2,))  # allowed player counts per mode
TEAM_MODE_NAMES = ("team-high-form", "team-deathmatch")  # seats 0+2 against 1+3
TASK_MODE_NAMES = ("high-form", "team-high-form", "new-player")  # scored by tasks + legends

# --- card kinds -------------------------------------------------------------------------------
CK_BEING = 0
CK_LEGEND = 1
CK_FLARE = 2

# --- phases: the kind of decision the state waits for ---------------------------------------
PH_ACTION = 0  # place / summon / discard / flare / end turn
PH_PLACE_PICKUP = 1  # out of stock: pick up one of your common/heroic pieces, then place
PH_PLACE_SQUARE = 2  # after that pick-up: where the common piece goes
PH_SUMMON_PICKUP = 3  # out of stock for a summon: pick up a piece not in the pattern
PH_RETURN = 4  # discard action: return further hand cards to the bottoms of their decks
PH_EFFECT = 5  # an effect instruction waits for a target
PH_CLAIM = 6  # High Form end of turn: claim one task
PH_SETUP = 7  # Deathmatch: the starting pieces (duel: 2nd seat; team: 4th; melee: last)
PH_OVER = 8
PH_COLOUR = 9  # melee: choose the colour column a point goes to
PH_FROZEN_CHOICE = 10  # a second frozen effect: keep the new card or the stored one
PH_TURN_END = 11  # a player's lookahead copy reached the end of the turn (core.players.lookahead)
PHASE_NAMES = (
    "action",
    "place-pickup",
    "place-square",
    "summon-pickup",
    "return",
    "effect",
    "claim",
    "setup",
    "over",
    "colour",
    "frozen-choice",
    "turn-end",
)

# --- option kinds (column 0 of an option row; columns 1..3 are arguments) ------------------
OPT_PLACE = 0  # (sq)
OPT_SUMMON = 1  # (hand slot, orientation row, target sq)
OPT_DISCARD = 2  # (hand slot)
OPT_FLARE = 3  # (hand slot, opponent seat)
OPT_END_TURN = 4
OPT_PICKUP = 5  # (sq)
OPT_RETURN = 6  # (hand slot)
OPT_RETURN_DONE = 7
OPT_TARGET = 8  # effect target: (sq, sq2, alternative index)
OPT_SKIP = 9  # skip an optional effect part
OPT_CLAIM = 10  # (task index)
OPT_NO_CLAIM = 11
OPT_SETUP = 12  # duel: (square index 0/1 for the setting seat's own piece); melee: (sq)
OPT_COLOUR = 13  # melee: (colour) the column that scores the pending point
OPT_PASS = 14  # team play: hand control to the teammate for the rest of the turn
OPT_THAW = 15  # resolve the stored frozen effect (no action cost)
OPT_KEEP_FROZEN = 16  # (0 keep the new card, 1 keep the stored one); the other is discarded
OPT_WARP = 17  # (hand slot) play that card's warp effect (no action cost); it becomes pending
N_OPT_KINDS = 18
OPT_NAMES = (
    "place",
    "summon",
    "discard",
    "flare",
    "end-turn",
    "pickup",
    "return",
    "return-done",
    "target",
    "skip",
    "claim",
    "no-claim",
    "setup",
    "colour",
    "pass",
    "thaw",
    "keep-frozen",
    "warp",
)
OPT_WIDTH = 4
MAX_OPTIONS = 6144
SCRATCH_ROWS = 96  # the last rows of the option buffer serve as scratch (square lists)

# --- effect kinds ---------------------------------------------------------------------------
EK_NONE = 0
EK_BEING = 1
EK_FLARE = 2
EK_FROZEN = 3  # a thawed frozen program: no being, the card is in no hand
EK_WARP = 4  # a warp program: no being, the card stays in hand as the pending being

# --- end reasons ----------------------------------------------------------------------------
END_NONE = 0
END_SCORE = 1  # a seat reached the score threshold
END_DECK = 2  # a seat drew its last being card
END_TURN_CAP = 3
END_NAMES = ("none", "score", "deck", "turn-cap")
# the turn cap of a game that names none (study specs, `kalarite play`, check, benchmarks): no
# planner game of the demo reached it (README, Decisiveness)
DEFAULT_TURN_CAP = 200

# colour-choice reasons (melee)
CW_NONE = 0
CW_LEGEND = 1  # a legend was summoned: 1 point in a chosen enemy colour
CW_PAIR = 2  # leftover commons of two colours make one more pair

# --- events (rows of the game log: kind, turn, seat, a, b, c) ------------------------------
EV_TURN = 0  # (actions)
EV_PLACE = 1  # (sq, rank)
EV_SUMMON = 2  # (card, target sq, orientation row)
EV_DISCARD = 3  # (card)
EV_RETURN = 4  # (card)
EV_FLARE = 5  # (card, opponent, halves bitmask 1 upper 2 lower)
EV_CLAIM = 6  # (task, points)
EV_DESTROY = 7  # (sq, victim code, weight: destroyed pieces it counts for the mover 0/1/2)
EV_UPGRADE = 8  # (sq, new code)
EV_DOWNGRADE = 9  # (sq, new code)
EV_CONVERT = 10  # (sq, old code, new code)
EV_MOVE = 11  # (from, to, code)
EV_PICKUP = 12  # (sq, code)
EV_DRAW = 13  # (card)
EV_SCORE = 14  # (delta, reason, 0)
EV_GAIN_ACTION = 15  # (count)
EV_END = 16  # (reason, winner)
EV_SKIP = 17  # (card) an optional effect part was skipped
EV_SETUP_PIECE = 18  # (sq, code)
EV_EFFECT_PLACE = 19  # (sq, code)
EV_IMPROVISE = 20  # (colour) melee: this summon used that colour's improvisation
EV_PASS = 21  # (teammate) team play: control passed
EV_HAND_OVER = 22  # (card, teammate) team play: a legend card handed over
EV_END_TRIGGER = 23  # (end reason, who reached the score or -1, seats in the game)
EV_FROZEN = 24  # (card) the card is stored as the seat's frozen effect
EV_KEEP_FROZEN = 25  # (kept card, discarded card) a second frozen effect: one kept
EV_THAW = 26  # (card) the stored frozen effect is resolved
EV_REMOVED = 27  # (sq, code) the piece just destroyed leaves the game (not back to stock)
EV_LOSE_ACTION = 28  # every other colour's next normal turn has one action
EV_DISCARD_FLARE = 29  # (card) an effect discarded a flare from the hand
EV_CARD_TO_FROZEN = 30  # (card, replaced card or -1) taken from the discard pile as frozen
EV_GATEWAY = 31  # (sq, code) the piece on sq becomes the seat's Gateway
EV_GATEWAY_LOST = 32  # (sq, 0) the seat's Gateway on sq is gone (destroyed, taken, legendary)
EV_LOSE_OWN_ACTION = 33  # (actions left) an effect took one of the seat's own actions
EV_CARD_TO_BOTTOM = 34  # (card) the being's card went under the seat's deck
EV_POSSESS = 35  # (colour) the seat's next summon this turn uses that colour's pieces
EV_LEGEND_SUMMONED = 36  # (sq) an effect counts as summoning a legend on sq
EV_DISCARD_LEGEND = 37  # (card) an effect discarded a legend card from the hand
EV_SELECT_SQUARE = 38  # (sq) an effect chose an empty square
EV_WARP = 39  # (card) the card's warp effect is played; the card becomes the pending being
EV_SWAP = 40  # (sq, sq2) the pieces on the two squares exchanged places
EV_DISCARD_PENDING = 41  # (card) an effect discarded the pending being
EV_RETURN_PENDING = 42  # (card) the pending being stays in hand, no longer pending
EV_EFFECT_DISCARD = 43  # (card) an effect discarded a card from the hand
EV_EXTRA_COUNT = 44  # (extra) each piece destroyed this turn counts this many more
EV_COPY_WARP = 45  # (copied card, copying card) a being's effect runs another card's warp
EV_CAPTURE = 46  # (sq, code) the piece on sq goes into stasis on the seat's running card
EV_RELEASE = 47  # (sq, code) the piece held in stasis comes back onto sq
EV_STASIS_BACK = 48  # (code) the piece held in stasis cannot come back: to its owner's stock
EV_VOID_SUMMON = 49  # (cells) the next summon this turn may count that many empty squares as own
EV_TOP_CARD_TO_DECK = 50  # (card) the top card of the discard pile went on top of the deck

# --- the event table ------------------------------------------------------------------------
# One row per event code: its name, what it does to the board the text log rebuilds from the
# events alone (sim.single_game), and its line in that log (sim.render.event_text fills the
# template's fields from the row; the fields are listed there). A new event gets its row here
# and nowhere else; tests/test_events.py requires a row, a board effect and a text for every
# EV_* code.
BOARD_NONE = "none"  # the board does not change
BOARD_PLACE = "place"  # square a: a piece of the seat's colour, of rank b
BOARD_SUMMON = "summon"  # square b: a piece of the seat's colour, of card a's rank
BOARD_CLEAR = "clear"  # square a: empty (destroyed, picked up, taken into stasis)
BOARD_SET = "set"  # square a: piece code b (upgrade, downgrade, set-up, effect place, release)
BOARD_CONVERT = "convert"  # square a: piece code c
BOARD_MOVE = "move"  # square a: empty; square b: piece code c
BOARD_SWAP = "swap"  # the pieces on squares a and b exchange places
BOARD_EFFECTS = (
    BOARD_NONE,
    BOARD_PLACE,
    BOARD_SUMMON,
    BOARD_CLEAR,
    BOARD_SET,
    BOARD_CONVERT,
    BOARD_MOVE,
    BOARD_SWAP,
)


class Event(NamedTuple):
    code: int  # EV_*: the first column of a log row
    name: str
    board: str  # BOARD_*
    text: str  # a str.format template (sim.render.event_text)


EVENTS = (
    Event(EV_TURN, "turn", BOARD_NONE, "Turn {turn}: {who}{deck}, {a} action(s){extra_turn}"),
    Event(EV_PLACE, "place", BOARD_PLACE, "{who} places a common piece on {sq_a}"),
    Event(EV_SUMMON, "summon", BOARD_SUMMON, "{who} summons {card_a} ({card_a_id}) on {sq_b}"),
    Event(EV_DISCARD, "discard", BOARD_NONE, "{who} discards {card_a}"),
    Event(EV_RETURN, "return", BOARD_NONE, "{who} returns {card_a} to the bottom of its deck"),
    Event(EV_FLARE, "flare", BOARD_NONE, "{who} plays {card_a} against {side_b} ({halves_c})"),
    Event(EV_CLAIM, "claim", BOARD_NONE, "{who} claims task {task_a} (+{b})"),
    Event(EV_DESTROY, "destroy", BOARD_CLEAR, "{who} destroys {piece_b} on {sq_a}"),
    Event(EV_UPGRADE, "upgrade", BOARD_SET, "{who} upgrades {sq_a} to {piece_b}"),
    Event(EV_DOWNGRADE, "downgrade", BOARD_SET, "{who} downgrades {sq_a} to {piece_b}"),
    Event(
        EV_CONVERT,
        "convert",
        BOARD_CONVERT,
        "{who} converts {piece_b} on {sq_a} into {piece_c}",
    ),
    Event(EV_MOVE, "move", BOARD_MOVE, "{who} moves {piece_c} {sq_a} -> {sq_b}"),
    Event(EV_PICKUP, "pickup", BOARD_CLEAR, "{who} picks up {piece_b} from {sq_a} (out of stock)"),
    Event(EV_DRAW, "draw", BOARD_NONE, "{who} draws {card_a}"),
    Event(EV_SCORE, "score", BOARD_NONE, "{side} scores {a}{column_c} ({score_reason_b})"),
    Event(EV_GAIN_ACTION, "gain-action", BOARD_NONE, "{who} gains {a} action(s)"),
    Event(EV_END, "end", BOARD_NONE, "game over ({end_reason_a}): {winner_b}"),
    Event(EV_SKIP, "skip", BOARD_NONE, "{who} skips an optional part of {card_a}"),
    Event(EV_SETUP_PIECE, "setup-piece", BOARD_SET, "{who} puts {piece_b} on {sq_a}"),
    Event(EV_EFFECT_PLACE, "effect-place", BOARD_SET, "{who} puts {piece_b} on {sq_a}"),
    Event(
        EV_IMPROVISE,
        "improvise",
        BOARD_NONE,
        "{who} improvises with a piece of colour {a} (its one improvisation with it)",
    ),
    Event(EV_PASS, "pass", BOARD_NONE, "{who} passes control to teammate seat {a}"),
    Event(EV_HAND_OVER, "hand-over", BOARD_NONE, "{who} hands {card_a} to teammate seat {b}"),
    Event(EV_END_TRIGGER, "end-trigger", BOARD_NONE, "end triggered by {who}: {end_trigger}"),
    Event(EV_FROZEN, "frozen", BOARD_NONE, "{who} stores {card_a} as its frozen effect"),
    Event(
        EV_KEEP_FROZEN,
        "keep-frozen",
        BOARD_NONE,
        "{who} keeps {card_a} frozen and discards {card_b}",
    ),
    Event(EV_THAW, "thaw", BOARD_NONE, "{who} thaws the frozen effect of {card_a}"),
    Event(EV_REMOVED, "removed", BOARD_NONE, "{piece_b} from {sq_a} is removed from the game"),
    Event(
        EV_LOSE_ACTION,
        "lose-action",
        BOARD_NONE,
        "every other {others} starts its next turn with one action less",
    ),
    Event(EV_DISCARD_FLARE, "discard-flare", BOARD_NONE, "{who} discards {card_a} (effect)"),
    Event(
        EV_CARD_TO_FROZEN,
        "card-to-frozen",
        BOARD_NONE,
        "{who} takes {card_a} from its discard pile as its frozen effect{discarding_b}",
    ),
    Event(EV_GATEWAY, "gateway", BOARD_NONE, "{who}'s Gateway is now {piece_b} on {sq_a}"),
    Event(
        EV_GATEWAY_LOST,
        "gateway-lost",
        BOARD_NONE,
        "{who}'s Gateway{gateway_where_a} is gone{gateway_stock_a}",
    ),
    Event(
        EV_LOSE_OWN_ACTION,
        "lose-own-action",
        BOARD_NONE,
        "{who} spends an action doing nothing ({a} left)",
    ),
    Event(EV_CARD_TO_BOTTOM, "card-to-bottom", BOARD_NONE, "{who} puts {card_a} under its deck"),
    Event(
        EV_POSSESS,
        "possess",
        BOARD_NONE,
        "{who}'s next summon this turn uses colour {a}'s pieces",
    ),
    Event(
        EV_LEGEND_SUMMONED,
        "legend-summoned",
        BOARD_NONE,
        "{who} counts as summoning a legend on {sq_a}",
    ),
    Event(EV_DISCARD_LEGEND, "discard-legend", BOARD_NONE, "{who} discards {card_a} (effect)"),
    Event(EV_SELECT_SQUARE, "select-square", BOARD_NONE, "{who} chooses the empty square {sq_a}"),
    Event(
        EV_WARP,
        "warp",
        BOARD_NONE,
        "{who} plays the warp effect of {card_a} (now its pending being)",
    ),
    Event(EV_SWAP, "swap", BOARD_SWAP, "{who} swaps the pieces on {sq_a} and {sq_b}"),
    Event(
        EV_DISCARD_PENDING,
        "discard-pending",
        BOARD_NONE,
        "{who} discards its pending being {card_a}",
    ),
    Event(
        EV_RETURN_PENDING,
        "return-pending",
        BOARD_NONE,
        "{who}'s {card_a} is no longer pending (back in hand)",
    ),
    Event(
        EV_EFFECT_DISCARD,
        "effect-discard",
        BOARD_NONE,
        "{who} discards {card_a} from its hand (effect)",
    ),
    Event(
        EV_EXTRA_COUNT,
        "extra-count",
        BOARD_NONE,
        "{who}: each piece destroyed this turn counts {a} more",
    ),
    Event(
        EV_COPY_WARP,
        "copy-warp",
        BOARD_NONE,
        "{who}'s {card_b} copies the warp effect of {card_a}",
    ),
    Event(EV_CAPTURE, "capture", BOARD_CLEAR, "{who} takes {piece_b} from {sq_a} into stasis"),
    Event(EV_RELEASE, "release", BOARD_SET, "{piece_b} comes back from stasis onto {sq_a}"),
    Event(
        EV_STASIS_BACK,
        "stasis-back",
        BOARD_NONE,
        "{piece_a} held in stasis cannot come back: it returns to its stock",
    ),
    Event(
        EV_VOID_SUMMON,
        "void-summon",
        BOARD_NONE,
        "{who}'s next summon this turn may count {a} empty square(s) as its commons",
    ),
    Event(
        EV_TOP_CARD_TO_DECK,
        "top-card-to-deck",
        BOARD_NONE,
        "{who} puts {card_a} from its discard pile on top of its deck",
    ),
)
EV_NAMES = tuple(e.name for e in EVENTS)
assert all(e.code == i for i, e in enumerate(EVENTS)), "EVENTS must be in EV_* code order"
EV_WIDTH = 6

# score reasons (EV_SCORE b; c is the colour column in melee, else 0)
SR_TASK = 0
SR_DESTRUCTION = 1
SR_LEGEND = 2
SR_FLARE = 3
SR_PENALTY = 4  # Etherweave: a pending being at the end of the game (-2)

# --- policies ---------------------------------------------------------------------------------
POL_RANDOM = 0
POL_GREEDY = 1
POL_MC = 2
POL_PLANNER = 3
POLICY_NAMES = ("random", "greedy", "mc", "planner")
