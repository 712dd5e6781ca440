"""The learned evaluation's feature vector by name: ``FEATURE_NAMES[k]`` is feature ``k``
(core.players.features computes them; the positions table stores them as ``f_<name>``), one
constant per feature, and the flags of ``features()``. No numba here: sim.learned and
``kalarite players`` read the names without loading the compiler.

A new feature goes at the end (fitted models name their features, so an old model reads a
new layout by name, see sim.learned).
"""

FEATURE_NAMES = (
    # what the hand-set evaluation reads, mine and theirs
    "points_me", "points_opp", "claimable_me", "claimable_opp", "destroyed",
    "common_me", "heroic_me", "legendary_me", "common_opp", "heroic_opp", "legendary_opp",
    "centre_me", "centre_opp", "exposed_me", "exposed_opp",
    "summonable_me", "legends_ready_me", "stock_me", "stock_opp", "legend_stock_me",
    # tempo: who is nearer the end, and how near it is
    "deck_me", "deck_opp", "hand_me", "hand_opp", "to_target_me", "to_target_opp",
    "end_triggered", "turn",
    # flares: my flare's halves open now; the share of the opponent's possible flares open
    "flare_upper_me", "flare_lower_me", "flare_upper_opp", "flare_lower_opp",
    # the opponent's threat: beings it may hold that it could summon now (expected count)
    "opp_summonable_exp",
    # Everfrost: a stored frozen effect
    "frozen_me", "frozen_heroic_me", "frozen_opp",
    # Nethervoid: the Gateway
    "gateway_me", "gateway_rank_me", "gateway_enemy_dist_me", "gateway_own_near_me",
    "gateway_cards_me", "gateway_opp", "gateway_rank_opp", "gateway_enemy_dist_opp",
    # Etherweave: the pending being
    "pending_me", "pending_deficit_me", "warps_me", "pending_opp",
    # the decks at the table (constant within a game: they let a nonlinear value weigh the
    # other features by matchup): shares of the deck's cards with a frozen program, a warp,
    # a heroic rank, and whether its beings may become the Gateway
    "deck_frozen_me", "deck_warp_me", "deck_heroic_me", "deck_gateway_me",
    "deck_frozen_opp", "deck_warp_opp", "deck_heroic_opp", "deck_gateway_opp",
    # Nethervoid: where its Gateway stands (the cards test red and green squares) and the
    # enemy commons next to it (what a Gateway-side destroy may take)
    "gateway_red_me", "gateway_green_me", "gateway_enemy_adj_me",
    # Etherweave: a pending being once the end is triggered (the 2-point charge is near)
    "pending_end_me",
)  # fmt: skip
N_FEATURES = len(FEATURE_NAMES)
# one constant per feature (numba folds them; a dict would not compile)
F_POINTS_ME = 0
F_POINTS_OPP = 1
F_CLAIMABLE_ME = 2
F_CLAIMABLE_OPP = 3
F_DESTROYED = 4
F_COMMON_ME = 5
F_HEROIC_ME = 6
F_LEGENDARY_ME = 7
F_COMMON_OPP = 8
F_HEROIC_OPP = 9
F_LEGENDARY_OPP = 10
F_CENTRE_ME = 11
F_CENTRE_OPP = 12
F_EXPOSED_ME = 13
F_EXPOSED_OPP = 14
F_SUMMONABLE_ME = 15
F_LEGENDS_READY_ME = 16
F_STOCK_ME = 17
F_STOCK_OPP = 18
F_LEGEND_STOCK_ME = 19
F_DECK_ME = 20
F_DECK_OPP = 21
F_HAND_ME = 22
F_HAND_OPP = 23
F_TO_TARGET_ME = 24
F_TO_TARGET_OPP = 25
F_END_TRIGGERED = 26
F_TURN = 27
F_FLARE_UPPER_ME = 28
F_FLARE_LOWER_ME = 29
F_FLARE_UPPER_OPP = 30
F_FLARE_LOWER_OPP = 31
F_OPP_SUMMONABLE_EXP = 32
F_FROZEN_ME = 33
F_FROZEN_HEROIC_ME = 34
F_FROZEN_OPP = 35
F_GATEWAY_ME = 36
F_GATEWAY_RANK_ME = 37
F_GATEWAY_ENEMY_DIST_ME = 38
F_GATEWAY_OWN_NEAR_ME = 39
F_GATEWAY_CARDS_ME = 40
F_GATEWAY_OPP = 41
F_GATEWAY_RANK_OPP = 42
F_GATEWAY_ENEMY_DIST_OPP = 43
F_PENDING_ME = 44
F_PENDING_DEFICIT_ME = 45
F_WARPS_ME = 46
F_PENDING_OPP = 47
F_DECK_FROZEN_ME = 48
F_DECK_WARP_ME = 49
F_DECK_HEROIC_ME = 50
F_DECK_GATEWAY_ME = 51
F_DECK_FROZEN_OPP = 52
F_DECK_WARP_OPP = 53
F_DECK_HEROIC_OPP = 54
F_DECK_GATEWAY_OPP = 55
F_GATEWAY_RED_ME = 56
F_GATEWAY_GREEN_ME = 57
F_GATEWAY_ENEMY_ADJ_ME = 58
F_PENDING_END_ME = 59
assert all(globals()["F_" + n.upper()] == k for k, n in enumerate(FEATURE_NAMES))
FL_GATEWAY_BLIND = 1  # features() flags
FL_PEEK = 2
NO_DISTANCE = 9  # a Gateway with no enemy piece on the board (distances are at most 8)
