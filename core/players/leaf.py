"""The value of a turn's end for the turn planner: what its finished plans are ranked by.

Lives apart from core.players.planner so that the option scoring (core.players.greedy
score_options) can value an option that ends the turn on the copy it has just played,
instead of the planner playing that option again on a fresh copy to value it.
"""

from core.jit import njit
from core.players.endgame import finish_game
from core.players.evaluate import evaluate
from core.players.learned import has_model, learned_value, refer, unrefer
from core.players.weights import N_WEIGHTS

# rows of the players' buffers the learned value uses (core.players.planner assigns the
# rest; the asserts there keep them apart)
W_LEARN = 146  # int scratch of the learned value (core.players.learned LEARN_* layout)
F_LEARN = 6  # float scratch: the feature vector and the network's hidden units


@njit(cache=True, _nrt=False)
def leaf(c, T, seat, params, exact, work, wopts, ev0, fwork):
    """The value for ``seat`` of the turn end ``c`` (changed in place when ``exact`` and the
    game ends there, core.players.endgame): the learned value where the seat's row holds a
    model for the mode, else the hand-set evaluation."""
    if exact:
        finish_game(c, T, ev0)
    if has_model(c, params):
        return learned_value(c, T, seat, params, fwork[F_LEARN], work[W_LEARN])
    return evaluate(c, T, seat, params[:N_WEIGHTS], wopts[0])


@njit(cache=True, _nrt=False)
def refer_leaves(s, T, seat, params, work):
    """The decision ``s`` becomes the reference of the learned leaves valued next (its
    finished options: core.players.summon_ref); ``unrefer_leaves`` when they are done.
    Returns whether it did (the seat's row holds a model for the mode)."""
    if has_model(s, params):
        refer(s, T, seat, work[W_LEARN])
        return True
    return False


@njit(cache=True, _nrt=False)
def unrefer_leaves(work):
    unrefer(work[W_LEARN])
