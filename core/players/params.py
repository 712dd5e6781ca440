"""Columns of a seat's player parameter row (sim.players builds the rows): the evaluation
weights first, then the Monte Carlo and turn planner settings, the restriction of a
restricted twin, the planner's reply-aware step, a learned model per mode (sim.learned
compiles them), and the settings added since (the tail: the planner's leaf screen)."""

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
# the turn planner's reply-aware step (core.players.reply): how many of its best plans are
# checked against the opponent's best reply, on how many sampled worlds, with what beam width
# for the reply's search; fewer than 2 plans or no sample: off
PP_REPLY_PLANS = N_WEIGHTS + 6
PP_REPLY_SAMPLES = N_WEIGHTS + 7
PP_REPLY_WIDTH = N_WEIGHTS + 8
# 1: the planner values a plan that ends the game's last turn by the game's result
# (core.players.endgame), not by its evaluation
PP_ENDGAME = N_WEIGHTS + 9
# a learned leaf value, one block per mode (core.players.learned): [has a model (0/1),
# intercept, linear coefficients, hidden units used, the hidden layer's weights (unit by
# unit), their biases, their output weights]; a linear model uses no hidden unit
PP_MODEL = N_WEIGHTS + 10
MAX_HIDDEN = 32
MB_INTERCEPT = 1
MB_COEF = 2
MB_HIDDEN = MB_COEF + N_FEATURES
MB_W1 = MB_HIDDEN + 1
MB_B1 = MB_W1 + MAX_HIDDEN * N_FEATURES
MB_W2 = MB_B1 + MAX_HIDDEN
MODEL_STRIDE = MB_W2 + MAX_HIDDEN
PP_TAIL = PP_MODEL + len(MODE_NAMES) * MODEL_STRIDE
# settings added after the players' identities were pinned go after the model blocks, each 0
# at its default: a row whose tail is all 0 is digested without it (sim.games Player.digest),
# so every player that does not use them keeps its identity.
# The turn planner's leaf screen (core.players.planner): with N > 0, of the options of a
# position that end the turn only the N best by the hand-set evaluation get the turn-end
# value (the learned leaf); 0: all of them
PP_LEAF_TOP = PP_TAIL
PP_WIDTH = PP_TAIL + 1

# PP_RESTRICT codes: a restricted twin never thaws (frozen), never warps (warp), or lets the
# Nethervoid Gateway count for nothing in its evaluation (gateway: the learned value reads
# the Gateway family as absent, core.players.learned)
RESTRICT_NONE = 0
RESTRICT_FROZEN = 1
RESTRICT_WARP = 2
RESTRICT_GATEWAY = 3
RESTRICT_NAMES = ("none", "frozen", "warp", "gateway")  # index = code
