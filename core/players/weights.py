"""The hand-set evaluation's weights (core.players.evaluate): one index per term of the
weighted sum, and their names (a player's parameter row starts with them, sim.players names
them). No numba here: ``kalarite players`` reads them without loading the compiler."""

W_POINTS = 0  # score difference (High Form: tasks + legends on the board)
W_CLAIMABLE = 1  # points of the best task you could claim now (High Form)
W_DESTROYED = 2  # enemy pieces destroyed this turn, weighted 1 / 2 / 4 by rank
W_UPGRADED = 3  # your heroic pieces minus the opponent's
W_LEGENDARY = 4  # your legendary pieces minus the opponent's
W_MATERIAL = 5  # your pieces minus the opponent's
W_SUMMONABLE = 6  # beings in your hand you could summon now
W_LEGENDS_READY = 7  # legend cards in your hand you could summon now
W_WIN = 8  # game over: +1 won, -1 lost, 0 shared
W_OPP_CLAIMABLE = 9  # points of the best task an opponent could claim now (High Form)
W_CENTRE = 10  # your pieces on the nine central squares minus the opponent's
W_EXPOSED = 11  # your pieces next to an enemy piece of at least their rank, minus theirs
W_PENDING = 12  # Etherweave: a pending being is charged this many points (times W_POINTS)
N_WEIGHTS = 13
WEIGHT_NAMES = (
    "points", "claimable", "destroyed", "upgraded", "legendary", "material", "summonable",
    "legends_ready", "win", "opp_claimable", "centre", "exposed", "pending",
)  # fmt: skip
