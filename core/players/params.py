"""Columns of a seat's player parameter row (sim.players builds the rows): the evaluation
weights first, then the Monte Carlo and turn planner settings, the restriction of a
restricted twin, and a learned model's coefficients per mode (sim.learned compiles them)."""

from core.constants import MODE_NAMES
from core.players.feature_names import N_FEATURES
from core.players.weights import N_WEIGHTS

PP_MC_PLAYOUTS = N_WEIGHTS
PP_MC_HORIZON = N_WEIGHTS + 1
PP_MC_CANDIDATES = N_WEIGHTS + 2
PP_PLAN_WIDTH = N_WEIGHTS + 3  # turn planner: beam width
# 1: the learned value reads the opponents' real hands: a cheating measurement of what hidden
# information costs, never a balance player (core.players.features FL_PEEK)
PP_PEEK = N_WEIGHTS + 4
PP_RESTRICT = N_WEIGHTS + 5  # a mechanic the player gives up (RESTRICT_*), core.players.restrict
# a learned leaf value, one block per mode: [has a model (0/1), intercept, coefficients]
PP_MODEL = N_WEIGHTS + 6
MODEL_STRIDE = 2 + N_FEATURES
PP_WIDTH = PP_MODEL + len(MODE_NAMES) * MODEL_STRIDE

# PP_RESTRICT codes: a restricted twin never thaws (frozen), never warps (warp), or lets the
# Nethervoid Gateway count for nothing in its evaluation (gateway: the learned value reads
# the Gateway family as absent, core.players.learned)
RESTRICT_NONE = 0
RESTRICT_FROZEN = 1
RESTRICT_WARP = 2
RESTRICT_GATEWAY = 3
RESTRICT_NAMES = ("none", "frozen", "warp", "gateway")  # index = code
