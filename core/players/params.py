"""Columns of a seat's player parameter row (sim.players builds the rows): the evaluation
weights first, then the Monte Carlo and turn planner settings."""

from core.players.evaluate import N_WEIGHTS

PP_MC_PLAYOUTS = N_WEIGHTS
PP_MC_HORIZON = N_WEIGHTS + 1
PP_MC_CANDIDATES = N_WEIGHTS + 2
PP_PLAN_WIDTH = N_WEIGHTS + 3  # turn planner: beam width
PP_WIDTH = N_WEIGHTS + 4
