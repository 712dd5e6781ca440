"""Arrow schemas of the study tables, and the tables of one chunk built from kernel output.

Three tables, each a hive-partitioned Parquet dataset in its own folder of the study's
``--out``: ``games`` (one row a game), ``card_events`` (one row a card drawn, summoned,
discarded, returned, played as a flare, thawed (its frozen program ran) or warped) and
``task_claims`` (one row a task claimed); and
the opt-in fourth, ``positions`` (one row a sampled turn end: the feature vector of the seat
that just moved; a study spec's ``positions`` key turns it on, ``dataset_tables``).
The partition columns ``mode``, ``matchup`` and ``policies`` come from the directory names
(``mode=high-form/matchup=imperial-vs-highland/policies=random-vs-random``); they are not
stored inside the files. A game is identified by (mode, matchup, policies, game_index).

Every column is documented in ``COLUMN_DOCS`` (and in results/README.md).

Repeated strings (decks, players, end reasons, cards, events, tasks) are dictionary-encoded
(``DICT``: pandas reads them as categoricals); each file also carries pandas metadata
(results/pandas_meta.py) so that ``pandas.read_parquet`` gives nullable integer and boolean
columns (``Int32``, ``boolean``: the seat 2 and 3 columns of a two-seat game are null), not
float64 and object.
"""

import json

import numpy as np
import pyarrow as pa

from core import constants as K
from core.rows import (
    CARD_EVENT_NAMES,
    P_FEATURES,
    P_GAME,
    P_SEAT,
    P_TURN,
    R_ACTIONS,
    R_DECISIONS,
    R_END_REASON,
    R_ERROR,
    R_FIRST,
    R_LOG_LOST,
    R_SEAT,
    R_SEAT_WIDTH,
    R_TASKS_SHOWN,
    R_TURNS,
    R_WINNER,
    SEAT_COLUMNS,
)
from results.pandas_meta import pandas_metadata

TABLES = ("games", "card_events", "task_claims")  # every study has these
POSITIONS = "positions"  # only a study with the spec key ``positions`` has it
ALL_TABLES = TABLES + (POSITIONS,)
PARTITION_COLUMNS = ("mode", "matchup", "policies")
PARTITION_SCHEMA = pa.schema([(c, pa.string()) for c in PARTITION_COLUMNS])
DICT = pa.dictionary(pa.int32(), pa.string())  # a repeated string
N_SEATS = 4  # seat columns for up to four seats; those of absent seats are null
METADATA_PREFIX = "kalarite."

_SEAT_DOCS = {
    "score": "final score (victory points)",
    "summons": "beings and legends summoned",
    "places": "common pieces placed by the place action",
    "discards": "discard actions",
    "flares": "flares played",
    "tasks": "tasks claimed (High Form)",
    "upgraded_end": "upgraded (heroic or legendary) pieces on the board at the end",
    "pieces_end": "pieces on the board at the end",
    "legends_end": "legendary pieces on the board at the end",
    "pts_task": "points scored from tasks (the pts_ columns: points scored by source; the "
    "causality penalty is none of them, see pending_at_end)",
    "pts_destruction": "points scored for destroying enemy pieces (Deathmatch)",
    "pts_legend": "points scored for summoning legends (Deathmatch)",
    "pts_flare": "points received when the opponent played a flare (Deathmatch)",
    "col0": "melee: points in colour 0's column (0 in other modes)",
    "col1": "melee: points in colour 1's column (0 in other modes)",
    "col2": "melee: points in colour 2's column (0 in other modes)",
    "col3": "melee: points in colour 3's column (0 in other modes)",
    "thaws": "Everfrost: stored frozen effects the seat resolved (thawed)",
    "warps": "Etherweave: warp effects the seat played",
    "pending_at_end": "Etherweave: 1 when the seat held a pending being at the end: the "
    "causality penalty, 2 points off its score (melee: off each opponent's column)",
    "gateway_turns": "Nethervoid: the seat's turn ends at which it held a Gateway on the board",
}
assert tuple(_SEAT_DOCS) == tuple(SEAT_COLUMNS)

PARTITION_DOCS = {
    "mode": "game mode: " + ", ".join(K.MODE_NAMES) + " (partition)",
    "matchup": "seat decks in seat order: e.g. imperial-vs-highland (partition)",
    "policies": "seat players in seat order: e.g. random-vs-random (partition)",
}

_GAMES = [
    ("game_index", pa.int64(), "game number within the matchup, 0-based"),
    (
        "seed",
        pa.uint64(),
        "the matchup's 64-bit seed; (seed, game_index) determine the game "
        "(`kalarite play --seed SEED --game GAME_INDEX` replays it)",
    ),
    ("n_players", pa.int8(), "seats in the game (2, 3 or 4)"),
    ("first_seat", pa.int8(), "seat that took the first turn (game_index % n_players)"),
    (
        "winner",
        pa.int8(),
        "winning seat; -1 when the win is shared; null in team play (see winning_team)",
    ),
    (
        "winning_team",
        pa.int8(),
        "team play: 0 (seats 0 and 2) or 1 (seats 1 and 3), -1 when shared; null otherwise",
    ),
    ("turns", pa.int32(), "turns played"),
    ("end_reason", DICT, "why the game ended: " + ", ".join(K.END_NAMES[1:])),
    ("actions", pa.int32(), "actions taken (all seats)"),
    ("decisions", pa.int32(), "decisions made by the policies (all seats)"),
    (
        "error",
        pa.int32(),
        "0, or the engine error code of a game that could not be played to its end",
    ),
    (
        "log_lost",
        pa.int32(),
        "log events that did not fit the kernel's per-game log; when > 0 the game's "
        "card_events/task_claims rows are incomplete",
    ),
    (
        "tasks_shown",
        pa.int32(),
        "High Form: bit i is set when task i (the order of sim/data/tasks.toml and of the "
        "metadata key kalarite.task_names) was on display, available or next, during the game",
    ),
    ("turn_cap", pa.int32(), "turn limit of the study"),
    (
        "beings_without_effects",
        pa.bool_(),
        "true when beings whose effect is not implemented yet were played with no effect",
    ),
]
for _s in range(N_SEATS):
    _absent = "" if _s < 2 else " (null when the game has fewer seats)"
    _GAMES.append((f"seat{_s}_deck", DICT, f"deck of seat {_s}{_absent}"))
    _GAMES.append((f"seat{_s}_policy", DICT, f"player spec of seat {_s}{_absent}"))
    _GAMES.append(
        (
            f"seat{_s}_won",
            pa.bool_(),
            f"seat {_s} won (alone, or with its team in team play); false when the win is "
            f"shared{_absent}",
        )
    )
    for _c in SEAT_COLUMNS:
        _GAMES.append((f"seat{_s}_{_c}", pa.int32(), f"seat {_s}: {_SEAT_DOCS[_c]}{_absent}"))

_CARD_EVENTS = [
    ("game_index", pa.int64(), "game of the event (join with games on partition + game_index)"),
    ("seat", pa.int8(), "seat whose card it is"),
    ("card", DICT, "card id, deck/slug: e.g. imperial/swordmaster, flares/..."),
    ("event", DICT, "what happened: " + ", ".join(CARD_EVENT_NAMES)),
    ("turn", pa.int32(), "turn number (0 = set-up)"),
    ("beings_without_effects", pa.bool_(), "as in games"),
]

_TASK_CLAIMS = [
    ("game_index", pa.int64(), "game of the claim"),
    ("seat", pa.int8(), "seat that claimed the task"),
    ("task", DICT, "task name"),
    ("turn", pa.int32(), "turn of the claim"),
    ("points", pa.int32(), "points scored by the claim"),
    ("beings_without_effects", pa.bool_(), "as in games"),
]

# The features of core.players.features, in its FEATURE_NAMES order (a test holds the two
# lists equal; results reads no engine module, so the names are written here once more with
# what each means). "_me": the seat that just moved; "_opp": its opponents (the strongest for
# points, the average for counts).
FEATURE_DOCS = {
    "points_me": "its points (High Form: tasks plus legendary pieces on the board)",
    "points_opp": "the best opponent's points",
    "claimable_me": "High Form: points of the best task it could claim now (0 elsewhere)",
    "claimable_opp": "High Form: the best task an opponent could claim now (0 elsewhere)",
    "destroyed": "opponents' pieces destroyed this turn, 1 / 2 / 4 by rank",
    "common_me": "its common pieces on the board",
    "heroic_me": "its heroic pieces on the board",
    "legendary_me": "its legendary pieces on the board",
    "common_opp": "opponents' common pieces on the board (average)",
    "heroic_opp": "opponents' heroic pieces on the board (average)",
    "legendary_opp": "opponents' legendary pieces on the board (average)",
    "centre_me": "its pieces on the nine central squares",
    "centre_opp": "opponents' pieces on the central squares (average)",
    "exposed_me": "its exposed pieces (as the hand-set evaluation counts them)",
    "exposed_opp": "opponents' exposed pieces (average)",
    "summonable_me": "beings in its hand it could summon now",
    "legends_ready_me": "legends in its hand it could summon now",
    "stock_me": "its common pieces in stock",
    "stock_opp": "opponents' common pieces in stock (average)",
    "legend_stock_me": "its legendary pieces in stock",
    "deck_me": "cards left in its deck",
    "deck_opp": "cards left in opponents' decks (average)",
    "hand_me": "cards in its hand (before the refill)",
    "hand_opp": "cards in opponents' hands (average)",
    "to_target_me": "points it still needs to reach the mode's target",
    "to_target_opp": "points the best opponent still needs",
    "end_triggered": "1 once the end of the game is triggered",
    "turn": "turns started so far",
    "flare_upper_me": "1 when a flare in its hand has its upper half open (upgraded pieces)",
    "flare_lower_me": "1 when a flare in its hand has its lower half open (all pieces)",
    "flare_upper_opp": "share of the flares it does not hold whose upper half an opponent "
    "could open against it",
    "flare_lower_opp": "the same for the lower half",
    "opp_summonable_exp": "beings the opponents may hold that they could summon now, in "
    "expectation over their hand and deck pooled (no peeking)",
    "frozen_me": "Everfrost: 1 when it holds a stored frozen effect",
    "frozen_heroic_me": "Everfrost: 1 when that stored card is heroic or better",
    "frozen_opp": "Everfrost: share of opponents holding a stored frozen effect",
    "gateway_me": "Nethervoid: 1 when it has a Gateway",
    "gateway_rank_me": "Nethervoid: rank of the piece on its Gateway",
    "gateway_enemy_dist_me": "Nethervoid: distance from its Gateway to the nearest enemy "
    "piece (9: none)",
    "gateway_own_near_me": "Nethervoid: its pieces next to its Gateway",
    "gateway_cards_me": "Nethervoid: cards in its hand that refer to the Gateway",
    "gateway_opp": "Nethervoid: share of opponents with a Gateway",
    "gateway_rank_opp": "Nethervoid: rank on opponents' Gateways (average)",
    "gateway_enemy_dist_opp": "Nethervoid: distance from opponents' Gateways to their "
    "nearest enemy piece (average)",
    "pending_me": "Etherweave: 1 when it has a pending being",
    "pending_deficit_me": "Etherweave: 0 when the pending being can be summoned now, 1 when "
    "one placement short, else 2",
    "warps_me": "Etherweave: beings with a warp in its hand (besides the pending one)",
    "pending_opp": "Etherweave: share of opponents with a pending being",
    "deck_frozen_me": "share of its deck's cards with a frozen program (Everfrost)",
    "deck_warp_me": "share of its deck's cards with a warp (Etherweave)",
    "deck_heroic_me": "share of its deck's beings that are heroic",
    "deck_gateway_me": "1 when its deck's beings may become the Gateway (Nethervoid)",
    "deck_frozen_opp": "the same of opponents' decks (average)",
    "deck_warp_opp": "the same of opponents' decks (average)",
    "deck_heroic_opp": "the same of opponents' decks (average)",
    "deck_gateway_opp": "the same of opponents' decks (average)",
    "gateway_red_me": "Nethervoid: 1 when its Gateway stands on a red square",
    "gateway_green_me": "Nethervoid: 1 when its Gateway stands on a green square",
    "gateway_enemy_adj_me": "Nethervoid: enemy common pieces next to its Gateway",
    "pending_end_me": "Etherweave: 1 when it holds a pending being and the end is triggered",
}
FEATURE_COLUMNS = tuple(f"f_{n}" for n in FEATURE_DOCS)

_POSITIONS = [
    ("game_index", pa.int64(), "game of the position (join games on partition + game_index)"),
    ("turn", pa.int32(), "the turn that just ended (before its refill)"),
    ("seat", pa.int8(), "the seat that just moved: the features are its view"),
] + [(f"f_{n}", pa.float32(), f"feature {n}: {d}") for n, d in FEATURE_DOCS.items()]

_FIELDS = {
    "games": _GAMES,
    "card_events": _CARD_EVENTS,
    "task_claims": _TASK_CLAIMS,
    POSITIONS: _POSITIONS,
}
SCHEMAS = {t: pa.schema([(n, ty) for n, ty, _ in f]) for t, f in _FIELDS.items()}
COLUMN_DOCS = {t: {n: d for n, _, d in f} for t, f in _FIELDS.items()}


def file_metadata(table: str, info: dict) -> dict:
    """Parquet key-value metadata of one file: ``kalarite.*`` string keys; ``kalarite.study``
    holds the normalized study spec as JSON."""
    md = {f"{METADATA_PREFIX}table": table}
    for k in ("engine_hash", "engine_version", "content_hash", "beings_without_effects"):
        v = info[k]
        md[f"{METADATA_PREFIX}{k}"] = ("true" if v else "false") if isinstance(v, bool) else str(v)
    md[f"{METADATA_PREFIX}study"] = json.dumps(info["study"], sort_keys=True)
    if info.get("content_dir"):
        md[f"{METADATA_PREFIX}content_dir"] = info["content_dir"]
        md[f"{METADATA_PREFIX}content_changes"] = json.dumps(info.get("content_changes"))
    if "task_names" in info:
        md[f"{METADATA_PREFIX}task_names"] = json.dumps(info["task_names"])
    if "players_hash" in info:  # the resolved players (sim.games; absent before they were)
        md[f"{METADATA_PREFIX}players_hash"] = info["players_hash"]
        md[f"{METADATA_PREFIX}players"] = json.dumps(info["players"], sort_keys=True)
    return md


TEAM_MODES = K.TEAM_MODE_NAMES


def dataset_tables(spec: dict) -> tuple:
    """The tables of a study whose normalized spec (``Study.to_dict``) is ``spec``: TABLES,
    and ``positions`` when the spec samples positions."""
    return ALL_TABLES if (spec or {}).get("positions") else TABLES


def _names(codes, names, what):
    """A dictionary column from the kernel's codes, checked once here (so Arrow's own pass
    over the indices is skipped)."""
    codes = np.ascontiguousarray(codes, np.int32)
    if len(codes) and (codes.min() < 0 or codes.max() >= len(names)):
        raise ValueError(f"{what} code out of range: {codes.min()}..{codes.max()}")
    return pa.DictionaryArray.from_arrays(pa.array(codes), pa.array(list(names)), safe=False)


def _repeat(value, n, ty):
    return pa.repeat(pa.scalar(value, ty), n)


def _repeat_name(value: str, n: int):
    return pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int32)), pa.array([value]))


def chunk_tables(
    rows,
    card_events,
    task_claims,
    *,
    first_game: int,
    seed: int,
    mode: str,
    decks,
    policies,
    turn_cap: int,
    beings_without_effects: bool,
    card_ids,
    task_names,
    metadata: dict,
    positions=None,
    game_indices=None,
) -> dict:
    """The three tables of one chunk from ``core.kernel.play`` output (its rows, card events
    and task claims), and the ``positions`` table from its position rows when given.
    ``game_indices``: each row's game index (a chunk of listed games), else ``first_game``
    onwards.

    Column by column, never game by game: each kernel array is transposed once (a row per
    column, contiguous), and every column goes to Arrow as one numpy array."""
    n = len(rows)
    if game_indices is None:
        game_indices = np.arange(first_game, first_game + n, dtype=np.int64)
    game_indices = np.asarray(game_indices, np.int64)
    n_players = len(decks)
    team = mode in TEAM_MODES
    bwe = bool(beings_without_effects)
    r = np.ascontiguousarray(np.asarray(rows).T, dtype=np.int32)  # r[k]: column k, contiguous
    winner = r[R_WINNER].astype(np.int8)
    no_winner = pa.nulls(n, pa.int8())
    g = {
        "game_index": pa.array(game_indices),
        "seed": _repeat(seed, n, pa.uint64()),
        "n_players": _repeat(n_players, n, pa.int8()),
        "first_seat": pa.array(r[R_FIRST].astype(np.int8)),
        "winner": no_winner if team else pa.array(winner),
        "winning_team": pa.array(winner) if team else no_winner,
        "turns": pa.array(r[R_TURNS]),
        "end_reason": _names(r[R_END_REASON], K.END_NAMES, "end reason"),
        "actions": pa.array(r[R_ACTIONS]),
        "decisions": pa.array(r[R_DECISIONS]),
        "error": pa.array(r[R_ERROR]),
        "log_lost": pa.array(r[R_LOG_LOST]),
        "tasks_shown": pa.array(r[R_TASKS_SHOWN]),
        "turn_cap": _repeat(turn_cap, n, pa.int32()),
        "beings_without_effects": _repeat(bwe, n, pa.bool_()),
    }
    for s in range(N_SEATS):
        if s >= n_players:
            g[f"seat{s}_deck"] = pa.nulls(n, DICT)
            g[f"seat{s}_policy"] = pa.nulls(n, DICT)
            g[f"seat{s}_won"] = pa.nulls(n, pa.bool_())
            for c in SEAT_COLUMNS:
                g[f"seat{s}_{c}"] = pa.nulls(n, pa.int32())
            continue
        g[f"seat{s}_deck"] = _repeat_name(decks[s], n)
        g[f"seat{s}_policy"] = _repeat_name(policies[s], n)
        g[f"seat{s}_won"] = pa.array(winner == (s % 2 if team else s))
        base = R_SEAT + s * R_SEAT_WIDTH
        for k, c in enumerate(SEAT_COLUMNS):
            g[f"seat{s}_{c}"] = pa.array(r[base + k])
    ce = np.ascontiguousarray(np.asarray(card_events).reshape(-1, 5).T, dtype=np.int32)
    c = {
        "game_index": pa.array(game_indices[ce[0].astype(np.int64)]),
        "seat": pa.array(ce[1].astype(np.int8)),
        "card": _names(ce[2], card_ids, "card"),
        "event": _names(ce[3], CARD_EVENT_NAMES, "card event"),
        "turn": pa.array(ce[4]),
        "beings_without_effects": _repeat(bwe, ce.shape[1], pa.bool_()),
    }
    tc = np.ascontiguousarray(np.asarray(task_claims).reshape(-1, 5).T, dtype=np.int32)
    t = {
        "game_index": pa.array(game_indices[tc[0].astype(np.int64)]),
        "seat": pa.array(tc[1].astype(np.int8)),
        "task": _names(tc[2], task_names, "task"),
        "turn": pa.array(tc[3]),
        "points": pa.array(tc[4]),
        "beings_without_effects": _repeat(bwe, tc.shape[1], pa.bool_()),
    }
    parts = [("games", g), ("card_events", c), ("task_claims", t)]
    if positions is not None:
        parts.append((POSITIONS, _position_columns(positions, first_game)))
    out = {}
    for name, cols in parts:
        schema = SCHEMAS[name].with_metadata(
            {**file_metadata(name, metadata), **pandas_metadata(SCHEMAS[name])}
        )
        out[name] = pa.Table.from_pydict(cols, schema=schema)
    return out


def _position_columns(pos, first_game: int) -> dict:
    """The positions table's columns from position rows (core.rows P_*)."""
    pos = np.asarray(pos, np.float64).reshape(-1, P_FEATURES + len(FEATURE_COLUMNS))
    cols = {
        "game_index": pa.array(pos[:, P_GAME].astype(np.int64) + first_game),
        "turn": pa.array(pos[:, P_TURN].astype(np.int32)),
        "seat": pa.array(pos[:, P_SEAT].astype(np.int8)),
    }
    for k, name in enumerate(FEATURE_COLUMNS):
        cols[name] = pa.array(pos[:, P_FEATURES + k].astype(np.float32))
    return cols
