"""The compiled content handed to every kernel: one namedtuple of plain numpy arrays.

numba accepts namedtuples of arrays as arguments (and caches kernels that take them), so the
kernels read ``T.nbr[s, d]`` rather than juggling two dozen positional arrays. Built by
sim.content from the TOML files; core never sees a card name.
"""

from collections import namedtuple

TABLE_FIELDS = (
    # board (core.geometry)
    "sq_color",  # int8[81]: -1 void, 0 plain, 1 red, 2 green
    "sq_central",  # int8[81]: 1 on the nine central squares
    "nbr",  # int16[81, 8]: neighbour in each direction, -1 off the board
    "dist",  # int8[81, 81]: king-move distance
    "onboard",  # int16[69]: the playable squares
    "side_id",  # int8[81]: 0 top, 1 bottom, 2 left, 3 right edge, -1 other
    "corner_id",  # int8[81]: 0 nw, 1 se, 2 ne, 3 sw corner edge, -1 other
    "duel_start",  # int16[2]: Deathmatch duel starting squares
    "melee_start",  # int16[3, 2]: melee: the two squares beside each diamond mark
    # cards (global card ids)
    "card_kind",  # int8[C]: CK_BEING / CK_LEGEND / CK_FLARE
    "card_deck",  # int16[C]: deck index of a being, -1 for legends and flares
    "card_rank",  # int8[C]: rank of the summoned piece (beings and legends)
    "card_has_effect",  # int8[C]: 1 if the effect program is implemented
    "card_or_start",  # int32[C]: first orientation row of the card's pattern
    "card_or_n",  # int32[C]: number of distinct orientations
    "card_eff_start",  # int32[C]: effect program rows [start, end) (flares: upper half)
    "card_eff_end",
    "card_eff2_start",  # int32[C]: flares: lower half; Everfrost beings: frozen program rows
    "card_eff2_end",
    "card_has_frozen",  # int8[C]: 1 for a being card with a frozen program
    "flare_x",  # int8[C]: flare upper threshold (upgraded pieces)
    "flare_y",  # int8[C]: flare lower threshold (all pieces)
    # patterns, one row per distinct orientation
    "or_card",  # int32[O]
    "or_ncells",  # int8[O]: required own pieces (target excluded unless it requires one)
    "or_cells",  # int8[O, MAXC, 3]: (d_row, d_col, min rank) relative to the target square
    "or_target_req",  # int8[O]: 0 empty/oversummon; 1/2: own piece of at least that rank
    "or_nmarks",  # int8[O]
    "or_marks",  # int8[O, MAXM, 3]: (d_row, d_col, mark kind) marks and arrows
    "or_sym",  # int8[O]: which of the 8 symmetries produced this orientation
    # effect programs
    "ops",  # int32[K, I_WIDTH]
    # decks
    "deck_cards",  # int32[D, 18]
    "deck_size",  # int32[D]
    "legend_cards",  # int32[12]
    "flare_cards",  # int32[12]
    # tasks
    "task_kind",  # int8[24]: criterion (core.tasks TK_*)
    "task_points",  # int8[24]
    "task_advanced",  # int8[24]
    "task_type",  # int8[24]: destruction, colored, summoning, pattern, enemy
    "task_args",  # int16[24, 4]: criterion arguments
    # expansions
    "deck_gateway",  # int8[D]: 1 if the deck's beings may become the Gateway (Nethervoid)
)

Tables = namedtuple("Tables", TABLE_FIELDS)
