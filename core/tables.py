"""The compiled content handed to every kernel: one object passed to compiled code as ONE pointer.

Kernels read ``T.nbr[s, d]``. The arrays' headers are packed once into one int64 buffer
(``Tables._header``); compiled code receives its address and reads a field's header from it on
use (``core.jit.tables_type`` teaches numba the type). Not a tuple: numba passes a tuple by
value, so every call between engine functions would copy all the arrays' headers (about 300
machine words) onto the stack. From Python a ``Tables`` behaves like a namedtuple:
``Tables(**fields)``, ``tables.<field>``, ``_fields``, ``_asdict()``, ``_replace()``, pickling.
This module is plain numpy, so sim and results build and read the tables without numba.

Built by sim.content from the TOML files; core never sees a card name.
"""

import numpy as np

TABLE_FIELDS = (
    # board (core.board.geometry)
    "sq_color",  # int8[81]: -1 void, 0 plain, 1 red, 2 green
    "sq_central",  # int8[81]: 1 on the nine central squares
    "nbr",  # int16[81, 8]: neighbour in each direction, -1 off the board
    "dist",  # int8[81, 81]: king-move distance
    "onboard",  # int16[69]: the playable squares
    "side_id",  # int8[81]: 0 top, 1 bottom, 2 left, 3 right edge, -1 other
    "corner_id",  # int8[81]: 0 nw, 1 se, 2 ne, 3 sw corner edge, -1 other
    "board_masks",  # int64[30, 2]: square sets (core.board.geometry BM_*) as bitboards
    "king_masks",  # int64[81, 2]: each square with its king-move neighbours, as bitboards
    "board_centre",  # int16[1]: the square whose neighbours are all central, -1 if none
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
    "task_kind",  # int8[24]: criterion (core.rules.tasks TK_*)
    "task_points",  # int8[24]
    "task_advanced",  # int8[24]
    "task_type",  # int8[24]: destruction, colored, summoning, pattern, enemy
    "task_args",  # int16[24, 4]: criterion arguments
    # expansions
    "deck_gateway",  # int8[D]: 1 if the deck's beings may become the Gateway (Nethervoid)
    "card_has_warp",  # int8[C]: 1 if the being has a warp program (card_eff2_*, Etherweave)
    "card_gateway_ref",  # int8[C]: 1 if an op of the card names the Gateway (player features)
    "card_no_copy",  # int8[C]: 1 if the warp may not be copied nor the pending card touched
    "card_deck_pos",  # int8[C]: position of a being in its deck file (0..17), -1 otherwise
    # ether-b: detached patterns (summon-on = "empty-colourless", Time Traveler): orientation
    # rows [start, start + n) with cells relative to the first cell; such a card has
    # card_or_n = 0, so the plain searches never list it
    "card_det_start",  # int32[C]
    "card_det_n",  # int32[C]: 0 for every card with a target square
)


def _plain(value) -> np.ndarray:
    """A C-contiguous, writeable array: one numba type per field whatever the caller passed."""
    arr = np.ascontiguousarray(value)
    if not arr.flags.writeable:
        arr = arr.copy()
    return arr


def array_header(arr: np.ndarray) -> list:
    """numba's in-memory array header (core.jit.tables_type reads it): meminfo and parent null
    (Python owns the data), item count, item size, data address, shape, strides."""
    return [0, 0, arr.size, arr.itemsize, arr.ctypes.data, *arr.shape, *arr.strides]


class Tables:
    """The content arrays, one attribute per name in TABLE_FIELDS (immutable)."""

    _fields = TABLE_FIELDS

    def __init__(self, *args, **kwargs):
        if len(args) > len(TABLE_FIELDS):
            raise TypeError(f"Tables takes {len(TABLE_FIELDS)} fields, got {len(args)}")
        values = dict(zip(TABLE_FIELDS, args, strict=False))
        for name, value in kwargs.items():
            if name not in TABLE_FIELDS:
                raise TypeError(f"Tables got an unknown field {name!r}")
            if name in values:
                raise TypeError(f"Tables got field {name!r} twice")
            values[name] = value
        missing = [n for n in TABLE_FIELDS if n not in values]
        if missing:
            raise TypeError(f"Tables is missing fields: {', '.join(missing)}")
        arrays = {name: _plain(values[name]) for name in TABLE_FIELDS}
        header = np.array([w for a in arrays.values() for w in array_header(a)], np.int64)
        d = self.__dict__
        d.update(arrays)
        d["_header"] = header  # keeps the packed headers alive as long as the arrays
        d["_addr"] = header.ctypes.data
        d["_numba_type"] = None  # built on first use by core.jit.tables_type

    def __setattr__(self, name, value):
        raise AttributeError("Tables is immutable (use _replace)")

    def __iter__(self):
        return (self.__dict__[n] for n in TABLE_FIELDS)

    def __len__(self):
        return len(TABLE_FIELDS)

    def __getitem__(self, i):
        return self.__dict__[TABLE_FIELDS[i]]

    def _asdict(self) -> dict:
        return {n: self.__dict__[n] for n in TABLE_FIELDS}

    def _replace(self, **kwargs) -> "Tables":
        return Tables(**{**self._asdict(), **kwargs})

    def __reduce__(self):
        return (_rebuild, (self._asdict(),))

    def __repr__(self):
        shapes = ", ".join(
            f"{n}={self.__dict__[n].dtype}{list(self.__dict__[n].shape)}" for n in TABLE_FIELDS
        )
        return f"Tables({shapes})"


def _rebuild(fields: dict) -> Tables:
    return Tables(**fields)
