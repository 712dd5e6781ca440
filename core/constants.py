"""Small integer codes shared by the compiled engine and the Python side.

Plain module-level ints: numba folds them into the kernels as constants.
"""

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
EV_NAMES = (
    "turn",
    "place",
    "summon",
    "discard",
    "return",
    "flare",
    "claim",
    "destroy",
    "upgrade",
    "downgrade",
    "convert",
    "move",
    "pickup",
    "draw",
    "score",
    "gain-action",
    "end",
    "skip",
    "setup-piece",
    "effect-place",
    "improvise",
    "pass",
    "hand-over",
    "end-trigger",
    "frozen",
    "keep-frozen",
    "thaw",
    "removed",
    "lose-action",
    "discard-flare",
    "card-to-frozen",
    "gateway",
    "gateway-lost",
    "lose-own-action",
    "card-to-bottom",
    "possess",
    "legend-summoned",
    "discard-legend",
    "select-square",
    "warp",
    "swap",
    "discard-pending",
    "return-pending",
    "effect-discard",
    "extra-count",
    "copy-warp",
    "capture",
    "release",
    "stasis-back",
    "void-summon",
    "top-card-to-deck",
)
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
