"""Helpers for the task tests: ASCII boards to state rows, and a board-only Tables instance.

Boards are 9 lines of 9 tokens: ``..`` empty, ``##`` void, ``c0``/``h1``/``l0`` a common,
heroic or legendary piece of seat 0 or 1. The card and pattern tables are left empty; the
task check never reads them.
"""

import functools
import pathlib
import sys
import tomllib

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # let the tests run without installing the package
    sys.path.insert(0, str(ROOT))

from core.board.geometry import build_geometry  # noqa: E402
from core.layout import BOARD, N_PLAYERS, NSQ, STATE_SIZE  # noqa: E402
from core.ops import I_WIDTH  # noqa: E402
from core.rules.tasks import task_holds  # noqa: E402
from core.tables import TABLE_FIELDS, Tables  # noqa: E402
from sim.content.tasks import load_tasks  # noqa: E402

RANKS = {"c": 1, "h": 2, "l": 3}

# (dtype, shape) of the card/pattern/op tables, all empty here
_EMPTY = {
    "card_kind": (np.int8, (0,)),
    "card_deck": (np.int16, (0,)),
    "card_rank": (np.int8, (0,)),
    "card_has_effect": (np.int8, (0,)),
    "card_or_start": (np.int32, (0,)),
    "card_or_n": (np.int32, (0,)),
    "card_eff_start": (np.int32, (0,)),
    "card_eff_end": (np.int32, (0,)),
    "card_eff2_start": (np.int32, (0,)),
    "card_eff2_end": (np.int32, (0,)),
    "card_has_frozen": (np.int8, (0,)),
    "flare_x": (np.int8, (0,)),
    "flare_y": (np.int8, (0,)),
    "or_card": (np.int32, (0,)),
    "or_ncells": (np.int8, (0,)),
    "or_cells": (np.int8, (0, 1, 3)),
    "or_target_req": (np.int8, (0,)),
    "or_nmarks": (np.int8, (0,)),
    "or_marks": (np.int8, (0, 1, 3)),
    "or_sym": (np.int8, (0,)),
    "ops": (np.int32, (0, I_WIDTH)),
    "deck_cards": (np.int32, (0, 18)),
    "deck_size": (np.int32, (0,)),
    "legend_cards": (np.int32, (0,)),
    "flare_cards": (np.int32, (0,)),
    "deck_gateway": (np.int8, (0,)),
    "card_has_warp": (np.int8, (0,)),
    "card_gateway_ref": (np.int8, (0,)),
    "card_no_copy": (np.int8, (0,)),
    "card_deck_pos": (np.int8, (0,)),
    "card_det_start": (np.int32, (0,)),
    "card_det_n": (np.int32, (0,)),
}


@functools.cache
def tables() -> Tables:
    with open(ROOT / "sim" / "data" / "board.toml", "rb") as f:
        b = tomllib.load(f)
    fields = build_geometry(b["rows"], b["central"], b["sides"], b["corners"])
    fields["duel_start"] = np.array([r * 9 + c for r, c in b["duel_start"]], np.int16)
    fields["melee_start"] = np.array(
        [[r * 9 + c for r, c in pair] for pair in b["melee_start"]], np.int16
    )
    tasks = load_tasks()
    for name in TABLE_FIELDS:
        if name.startswith("task_"):
            fields[name] = tasks[name]
        elif name in _EMPTY:
            dtype, shape = _EMPTY[name]
            fields[name] = np.zeros(shape, dtype)
    return Tables(**fields)


@functools.cache
def task_index(name: str) -> int:
    return load_tasks()["task_names"].index(name)


def board(text: str, n_players: int = 2) -> np.ndarray:
    """State row with the pieces drawn in `text`; void tokens must match the real board."""
    lines = [ln.split() for ln in text.strip().splitlines()]
    assert len(lines) == 9 and all(len(ln) == 9 for ln in lines), "need 9 rows of 9 tokens"
    colour = tables().sq_color
    s = np.zeros(STATE_SIZE, np.int32)
    s[N_PLAYERS] = n_players
    for r, row in enumerate(lines):
        for c, tok in enumerate(row):
            q = r * 9 + c
            assert (tok == "##") == (colour[q] < 0), f"square {r},{c}: {tok!r} vs board"
            if tok not in ("..", "##"):
                s[BOARD + q] = RANKS[tok[0]] + 4 * int(tok[1])
    return s


def swap_seats(s: np.ndarray) -> np.ndarray:
    """The same position with the pieces of seats 0 and 1 exchanged."""
    t = s.copy()
    for q in range(NSQ):
        code = s[BOARD + q]
        if code and (code >> 2) < 2:
            t[BOARD + q] = (code & 3) + 4 * (1 - (code >> 2))
    return t


def holds(s: np.ndarray, name: str, seat: int = 0) -> bool:
    return bool(task_holds(s, tables(), task_index(name), seat))
