"""The result-row contract: what each column of a batch's result rows, card-event rows and
task-claim rows holds. results/ reads the dataset through these numbers, so this module
imports nothing: reading the layout must not load the engine (core.kernel fills the rows).
"""

# columns of a batch result row
R_WINNER = 0
R_FIRST = 1
R_END_REASON = 2
R_TURNS = 3
R_ACTIONS = 4
R_DECISIONS = 5
R_ERROR = 6  # 0 ok, else the invariant code / -1 for an unknown policy / 999 log overflow
R_LOG_LOST = 7  # events that did not fit the log (card events of that game are incomplete)
R_TASKS_SHOWN = 8  # bitmask: task t was on display (available or next) during the game
# R_WINNER: the winning seat; in team play the winning team (0: seats 0+2, 1: seats 1+3)
R_SEAT = 9  # per-seat block of R_SEAT_WIDTH columns, MAX_PLAYERS blocks
S_SCORE = 0
S_SUMMONS = 1
S_PLACES = 2
S_DISCARDS = 3
S_FLARES = 4
S_TASKS = 5
S_UPGRADED_END = 6  # upgraded pieces on the board at the end (tie-break 1)
S_PIECES_END = 7  # pieces on the board at the end (tie-break 2)
S_LEGENDS_END = 8
S_PTS_TASK = 9  # points by source, from the score events
S_PTS_DESTRUCTION = 10
S_PTS_LEGEND = 11
S_PTS_FLARE = 12
S_COLUMN = 13  # melee: points in each colour's column (MAX_PLAYERS columns)
S_THAWS = 17  # mechanic telemetry: frozen effects thawed (OPT_THAW)
S_WARPS = 18  # warps played (OPT_WARP)
S_PENDING_END = 19  # 1: the seat holds an Etherweave pending being at the end
S_GATEWAY_TURNS = 20  # turn ends at which the seat held a Nethervoid Gateway
R_SEAT_WIDTH = 21
R_WIDTH = R_SEAT + 4 * R_SEAT_WIDTH
SEAT_COLUMNS = (
    "score", "summons", "places", "discards", "flares", "tasks", "upgraded_end", "pieces_end",
    "legends_end", "pts_task", "pts_destruction", "pts_legend", "pts_flare",
    "col0", "col1", "col2", "col3", "thaws", "warps", "pending_at_end", "gateway_turns",
)  # fmt: skip

# card event rows: (game offset in batch, seat, card, what, turn)
CE_DRAWN = 0
CE_SUMMONED = 1
CE_DISCARDED = 2
CE_RETURNED = 3
CE_FLARE_PLAYED = 4
CE_THAWED = 5  # the seat's stored frozen effect (this card's frozen program) ran
CE_WARPED = 6  # this card's warp program was played from the hand
CARD_EVENT_NAMES = (
    "drawn", "summoned", "discarded", "returned", "flare-played", "thawed", "warped",
)  # fmt: skip
# task claim rows: (game offset, seat, task, turn, points)

# position rows (the opt-in positions table): (game offset in batch, turn, seat, then the
# features of core.players.features, in FEATURE_NAMES order); floats
P_GAME = 0
P_TURN = 1
P_SEAT = 2
P_FEATURES = 3
POSITIONS_PER_GAME = 16  # at most this many sampled turn ends per game

ERR_POLICY = -1
ERR_LOG = 999
