"""The players inside the compiled engine and what they search with. A player only picks a row
of the option list, so every player plays by the same rules.

- ``choose``: the dispatch on a seat's policy code, the one call the kernel makes.
- ``random_player``: uniform over the kinds of option, then over the options of that kind;
  ``random_action``: its action-phase choice made while the options are listed (only the
  drawn kind's rows are built).
- ``greedy``: one-ply lookahead scored by the evaluation; also the option values the other
  players build on.
- ``planner``: searches whole turns, beam-pruned by the same evaluation; keeps its few best
  plans for the reply-aware step.
- ``reply``: the reply-aware step's world: the game after a plan, hidden cards sampled.
- ``endgame``: the game's last turn valued by its result (the planner's ``endgame`` setting).
- ``mc``: flat Monte Carlo: random playouts from the best greedy candidates.
- ``lookahead``: the copy of the game a player plays its own turn on.
- ``hidden``: samples the cards a seat cannot see, for play past the end of its turn.
- ``evaluate``: the static evaluation of a position for one seat, with the seat's weights;
  ``weights``: the weights' indices and names (no numba: ``kalarite players`` reads them).
- ``eval_delta``: the evaluation of many options' positions, reusing the decision's own.
- ``summon_reach``: the evaluation's summon questions: can a card be summoned, which single
  placement would make it summonable.
- ``summon_ref``: the learned leaf's summon checks derived from the scored decision's own.
- ``task_reach``: the squares a High Form task condition reads (the greedy placement shortcut).
- ``params``: the columns of a seat's parameter row (weights, then search settings).
- ``features``: a position's feature vector (the positions table, the learned value);
  ``feature_names``: the features' names and indices (no numba: sim.learned reads them).
- ``learned``: the learned leaf value: a fitted model's logit over the features (a linear
  part and an optional hidden layer).
- ``leaf``: the value of a turn's end that the planner ranks finished plans by, valued on
  the copy the option scoring has just played (no replay).
- ``restrict``: what a restricted twin may not pick (never thaws, never warps).
"""
