"""Where each field of a game lives in its flat int32 state row.

DESIGN.md sketches one array per field with a leading game axis. We keep that struct-of-arrays
spirit but put every field of one game into one contiguous int32 row (``state[g, :]``): a batch
is then a single 2-D array, and cloning a position for lookahead players is one row copy. The
offsets below are plain module constants, so numba folds them at compile time.

Seat-indexed blocks always have room for MAX_PLAYERS seats, even in two-player modes.
Pieces, stocks and scores belong to a *colour*: the seat itself, except in team play where
teammates share one (COLOUR[seat] = seat % 2); hands, decks and counters stay per seat.
"""

MAX_PLAYERS = 4
NSQ = 81  # 9 x 9 grid, void corners included (never occupied)

DECK_CAP = 32  # circular buffer per seat for the own being deck (18 cards + room)
HAND_CAP = 12  # beings + legends + flare (+ extra draws)
DISC_CAP = 32
SHARED_CAP = 16  # legend and flare decks (12 cards each)
TASK_CAP = 32  # task deck circular buffer (24 tasks)
N_TASKS = 24
N_AVAIL = 3  # available tasks on display (plus one "next")

# --- board -------------------------------------------------------------------------------
BOARD = 0  # NSQ piece codes: 0 empty, else rank + 4 * owner (rank 1..3)

# --- header ------------------------------------------------------------------------------
N_PLAYERS = BOARD + NSQ
MODE = N_PLAYERS + 1
CUR = MODE + 1  # seat whose turn it is
FIRST = CUR + 1  # seat that took the first turn
TURN_NO = FIRST + 1  # number of turns started so far
ACTIONS_LEFT = TURN_NO + 1
DISCARD_USED = ACTIONS_LEFT + 1  # the discard action was used this turn
PHASE = DISCARD_USED + 1  # what kind of decision is pending (constants.PH_*)
END_SEAT = PHASE + 1  # seat whose turn triggered the end, -1 before
FINAL_TURN = END_SEAT + 1  # 1 while the trigger seat plays its last turn
EXTRA_TURN = FINAL_TURN + 1  # 1 if the current seat takes another turn after this one
IS_EXTRA = EXTRA_TURN + 1  # the current turn is an extra turn
GAME_OVER = IS_EXTRA + 1
END_REASON = GAME_OVER + 1  # constants.END_*
WINNER = END_REASON + 1  # seat, or -1 when shared
TURN_CAP = WINNER + 1
ALLOW_NO_EFFECT = TURN_CAP + 1  # 1: beings without an implemented effect may be played
ACTIONS_DONE = ALLOW_NO_EFFECT + 1  # place / summon / discard actions taken in the game
DECISIONS = ACTIONS_DONE + 1  # options applied (actions, effect choices, claims...)
EV_N = DECISIONS + 1  # events written to the log
EV_LOST = EV_N + 1  # events that did not fit the log
RNG = EV_LOST + 1  # 4 words of xoshiro128** state, each in [0, 2**32)
EXTRA_DRAW_BEINGS = RNG + 4  # extra being cards to draw at the end of this turn
EXTRA_DRAW_LEGENDS = EXTRA_DRAW_BEINGS + 1

# --- per seat -------------------------------------------------------------------------------
SEAT_DECK = EXTRA_DRAW_LEGENDS + 1  # deck index per seat
# STOCK, LSTOCK, POOL_TOTAL, TASK_PTS and SCORE are indexed by colour (see COLOUR)
STOCK = SEAT_DECK + MAX_PLAYERS  # double-sided common/heroic pieces in stock
LSTOCK = STOCK + MAX_PLAYERS  # legendary pieces in stock
POOL_TOTAL = LSTOCK + MAX_PLAYERS  # common/heroic pieces owned in this mode
TASK_PTS = POOL_TOTAL + MAX_PLAYERS  # High Form: points from claimed tasks
SCORE = TASK_PTS + MAX_PLAYERS  # Deathmatch: points; High Form: derived (tasks + legends)
# melee: [seat, colour] points in each opponent's column; SCORE is then the lowest column
SCORE_COLOR = SCORE + MAX_PLAYERS
FROZEN = SCORE_COLOR + MAX_PLAYERS * MAX_PLAYERS  # per seat: stored frozen-effect card, -1 none
GATEWAY = FROZEN + MAX_PLAYERS  # per seat: square of its Nethervoid Gateway, -1 none
PENDING = GATEWAY + MAX_PLAYERS  # per seat: Etherweave pending being (a card in hand), -1 none
N_SUMMONS = PENDING + MAX_PLAYERS  # per-seat game counters
N_PLACES = N_SUMMONS + MAX_PLAYERS
N_DISCARDS = N_PLACES + MAX_PLAYERS
N_FLARES = N_DISCARDS + MAX_PLAYERS
N_TASKS_CLAIMED = N_FLARES + MAX_PLAYERS
# mechanic telemetry (games table): frozen effects thawed, warps played, and turn ends at
# which the seat held a Nethervoid Gateway
N_THAWS = N_TASKS_CLAIMED + MAX_PLAYERS
N_WARPS = N_THAWS + MAX_PLAYERS
N_GATEWAY_TURNS = N_WARPS + MAX_PLAYERS

# --- cards ----------------------------------------------------------------------------------
DECK = N_GATEWAY_TURNS + MAX_PLAYERS  # MAX_PLAYERS * DECK_CAP card ids (circular, head = top)
DECK_HEAD = DECK + MAX_PLAYERS * DECK_CAP
DECK_CNT = DECK_HEAD + MAX_PLAYERS
HAND = DECK_CNT + MAX_PLAYERS  # MAX_PLAYERS * HAND_CAP card ids, packed, -1 beyond HAND_N
HAND_N = HAND + MAX_PLAYERS * HAND_CAP
DISC = HAND_N + MAX_PLAYERS  # own discard piles, stacks (top = last)
DISC_N = DISC + MAX_PLAYERS * DISC_CAP
LDECK = DISC_N + MAX_PLAYERS  # legend deck (circular)
LDECK_HEAD = LDECK + SHARED_CAP
LDECK_CNT = LDECK_HEAD + 1
LDISC = LDECK_CNT + 1  # legend discard pile (stack)
LDISC_N = LDISC + SHARED_CAP
FDECK = LDISC_N + 1  # flare deck (circular)
FDECK_HEAD = FDECK + SHARED_CAP
FDECK_CNT = FDECK_HEAD + 1
FDISC = FDECK_CNT + 1
FDISC_N = FDISC + SHARED_CAP

# --- High Form tasks --------------------------------------------------------------------------
TDECK = FDISC_N + 1  # task deck (circular)
TDECK_HEAD = TDECK + TASK_CAP
TDECK_CNT = TDECK_HEAD + 1
TAVAIL = TDECK_CNT + 1  # N_AVAIL task indices, -1 for an empty slot
TNEXT = TAVAIL + N_AVAIL  # the face-up next task, -1 if none
TCLAIMED = TNEXT + 1  # N_TASKS: seat that claimed each task, -1
TCLAIM_TURN = TCLAIMED + N_TASKS
TASKS_SHOWN = TCLAIM_TURN + N_TASKS  # bit t: task t has been on display (available or next)

# --- this turn's counters (reset at each turn start) -----------------------------------------
DESTROYED = TASKS_SHOWN + 1  # [colour * 4 + rank]: enemy pieces destroyed by the mover
SUMMONED_N = DESTROYED + MAX_PLAYERS * 4  # beings summoned this turn
SUMMONED_RED = SUMMONED_N + 1  # summonings onto a red square
SUMMONED_GREEN = SUMMONED_RED + 1
LEGENDS_SUMMONED = SUMMONED_GREEN + 1

# --- effect being resolved -------------------------------------------------------------------
MAX_AFFECTED = 8
EFF_CARD = LEGENDS_SUMMONED + 1  # card whose effect runs, -1 none
EFF_KIND = EFF_CARD + 1  # constants.EK_*
EFF_PC = EFF_KIND + 1  # next instruction (row of tables.ops)
EFF_END = EFF_PC + 1  # one past the last instruction of the running program
EFF_NEXT_START = EFF_END + 1  # a program queued after this one (flare lower half), -1 none
EFF_NEXT_END = EFF_NEXT_START + 1
EFF_BEING_SQ = EFF_NEXT_END + 1  # square of the summoned being (follows it), -1 once gone
EFF_ORIENT = EFF_BEING_SQ + 1  # orientation row used for the summon, -1
EFF_TARGET = EFF_ORIENT + 1  # square where the being entered
EFF_LAST_DONE = EFF_TARGET + 1  # the last instruction that ran was carried out (not skipped)
EFF_LAST_DESTROYED = EFF_LAST_DONE + 1  # pieces destroyed by the last piece instruction
EFF_LAST_DESTROYED_LEGEND = EFF_LAST_DESTROYED + 1  # ... of which legendary
EFF_COMBAT_USED = EFF_LAST_DESTROYED_LEGEND + 1  # a move of this effect took an equal rank
EFF_BEING_MOVED = EFF_COMBAT_USED + 1  # the being itself moved during this effect
EFF_SEL_SQ = EFF_BEING_MOVED + 1  # square of the piece the last piece instruction chose, -1
EFF_SEL_RANK = EFF_SEL_SQ + 1  # its rank when chosen
EFF_SEL_OWNER = EFF_SEL_RANK + 1  # its owner when chosen
EFF_SEL_WAS_RED = EFF_SEL_OWNER + 1  # it stood on a red square when chosen
EFF_DIR = EFF_SEL_WAS_RED + 1  # direction of the last move, -1
EFF_CHOICE = EFF_DIR + 1  # alternative picked by the last choice, -1
EFF_PLACED_N = EFF_CHOICE + 1  # pieces placed by this effect
EFF_PLACED_OWNER = EFF_PLACED_N + 1  # owners of the first two placed pieces
EFF_AFFECTED_N = EFF_PLACED_OWNER + 2
EFF_AFFECTED = EFF_AFFECTED_N + 1  # MAX_AFFECTED squares touched by this effect
EFF_AFFECTED_COLOURS = EFF_AFFECTED + MAX_AFFECTED  # bitmask of colours touched
EFF_OPP = EFF_AFFECTED_COLOURS + 1  # opponent a flare was played against
BORROW_ENEMY = EFF_OPP + 1  # next summon this turn may use this many enemy pieces

# --- modes beyond the duel ------------------------------------------------------------------
COLOUR = BORROW_ENEMY + 1  # per seat: piece colour (team play: seat % 2; else the seat)
IMPRO_LEFT = COLOUR + MAX_PLAYERS  # melee, per seat: bitmask of colours still improvisable
CONTROL = IMPRO_LEFT + MAX_PLAYERS  # seat making this turn's decisions (team pass), else CUR
PASSED = CONTROL + 1  # 1 once control was passed this turn
COLOUR_WHY = PASSED + 1  # melee: why a colour is being chosen (constants.CW_*)
COLOUR_CHOICES = COLOUR_WHY + 1  # melee: bitmask of the colours that may be chosen
SETUP_N = COLOUR_CHOICES + 1  # melee set-up: starting pieces put so far
SETUP_PAIRS = SETUP_N + 1  # melee set-up: bitmask of the diamond pairs used

# --- a summon waiting for an out-of-stock pick-up --------------------------------------------
PEND_CARD = SETUP_PAIRS + 1
PEND_ORIENT = PEND_CARD + 1
PEND_TARGET = PEND_ORIENT + 1


# --- expansion mechanics ---------------------------------------------------------------------
MALUS = PEND_TARGET + 1  # per seat: 1 while every other colour's next normal turn loses an action
LEG_TOTAL = MALUS + MAX_PLAYERS  # per colour: legendary pieces owned (fewer once removed)
EFF_OVERSUMMONED = LEG_TOTAL + MAX_PLAYERS  # code of the piece the being's summon destroyed, 0
EFF_DESTROYED_TOTAL = EFF_OVERSUMMONED + 1  # pieces destroyed so far by the running program
SUMMON_COLOUR = EFF_DESTROYED_TOTAL + 1  # this turn: colour the next summon's pattern uses, -1


# --- players ------------------------------------------------------------------------------------
LOOKAHEAD = SUMMON_COLOUR + 1  # 1 in a player's lookahead copy: the turn stops before its draws

# --- Etherweave -------------------------------------------------------------------------------
EFF_SEL_OWNER_PREV = LOOKAHEAD + 1  # owner of the piece selected before the last one, -1
WARP_OPEN = EFF_SEL_OWNER_PREV + 1  # 1 once the first round is over: warps may be played
EXTRA_COUNT = WARP_OPEN + 1  # this turn: each piece the mover destroys counts this many more
WARPED_MASK = EXTRA_COUNT + 1  # this turn: bit k = the card at deck position k was warped
# ether-a
STASIS = WARPED_MASK + 1  # per seat: code of the piece held in stasis on a card, 0 none
STASIS_CARD = STASIS + MAX_PLAYERS  # per seat: the card holding that piece, -1 none

# ether-b
VOID_CELLS = (
    STASIS_CARD + MAX_PLAYERS
)  # this turn: empty squares the next summon may count as own commons
# a summon waiting for its out-of-stock pick-up: the allowances it was found with (void cells
# + 4 * borrowed + 16 * (improvised colour + 1) + 256 * (possessed colour + 1)); a detached
# pattern (Time Traveler) needs them to tell which pieces may be picked up
PEND_ALLOW = VOID_CELLS + 1

STATE_SIZE = PEND_ALLOW + 1
