"""Columns of a seat's player parameter row (sim.players builds the rows): the evaluation
weights first, then the Monte Carlo and turn planner settings, then the restriction."""

from core.players.evaluate import N_WEIGHTS

PP_MC_PLAYOUTS = N_WEIGHTS
PP_MC_HORIZON = N_WEIGHTS + 1
PP_MC_CANDIDATES = N_WEIGHTS + 2
PP_PLAN_WIDTH = N_WEIGHTS + 3  # turn planner: beam width
# N_WEIGHTS + 4 is reserved (the lead's player settings)
PP_RESTRICT = N_WEIGHTS + 5  # a mechanic the player gives up (RESTRICT_*), core.players.restrict
PP_WIDTH = N_WEIGHTS + 6

# PP_RESTRICT codes: a restricted twin never thaws (frozen), never warps (warp), or lets the
# Nethervoid Gateway count for nothing in its evaluation (gateway)
RESTRICT_NONE = 0
RESTRICT_FROZEN = 1
RESTRICT_WARP = 2
RESTRICT_GATEWAY = 3
RESTRICT_NAMES = ("none", "frozen", "warp", "gateway")  # index = code
