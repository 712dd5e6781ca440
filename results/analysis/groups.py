"""Groups of games the report compares (one mode and one pairing of players each), and the
SQL helpers every section uses to split results by group."""

import pyarrow as pa

from results import stats
from results.analysis.dataset import Dataset, has_column, table_columns
from results.analysis.labels import MODE_LABELS
from results.schema import SCHEMAS


def spec_order(manifest) -> tuple:
    study = manifest["study"]
    decks = []
    for pair in study.get("decks", []):
        for d in pair:
            if d not in decks:
                decks.append(d)
    pairings = []  # (P, Q) oriented as first seen in the spec
    for pair in study.get("policies", []):
        if len(pair) > 2:  # a policy per seat of a game of 3 or 4 seats
            continue
        p, q = pair[0], pair[-1]
        if not any({p, q} == {a, b} for a, b in pairings):
            pairings.append((p, q))
    return decks, pairings


def _pairing_label(p, q) -> str:
    return f"{p} vs {q}"


def _two_seat(d: Dataset, alias: str = "") -> str:
    """SQL condition of the two-seat games (every game of a dataset made before the
    ``n_players`` column)."""
    return f"{alias}n_players = 2" if has_column(d, "games_raw", "n_players") else "TRUE"


def register_groups(d: Dataset) -> list:
    """The groups of the dataset's two-seat games, and the ``g`` (games) and ``sg``
    (seat-games) tables of those games."""
    decks_order, pairings = spec_order(d.manifest)
    modes_order = list(d.manifest["study"].get("modes", []))
    two = _two_seat(d)
    seen = d.rows(
        f"SELECT DISTINCT mode, seat0_policy, seat1_policy FROM games_raw WHERE {two} ORDER BY ALL"
    )
    for r in seen:
        a, b = r["seat0_policy"], r["seat1_policy"]
        if not any({a, b} == {p, q} for p, q in pairings):
            pairings.append((a, b))
        if r["mode"] not in modes_order:
            modes_order.append(r["mode"])
    rows = []
    for i, (p, q) in enumerate(pairings):
        for a, b in {(p, q), (q, p)}:
            rows.append(
                {"seat0_policy": a, "seat1_policy": b, "pairing": i, "p_policy": p, "sym": p == q}
            )
    pairing_schema = pa.schema(
        [
            ("seat0_policy", pa.string()),
            ("seat1_policy", pa.string()),
            ("pairing", pa.int64()),
            ("p_policy", pa.string()),
            ("sym", pa.bool_()),
        ]
    )  # explicit: a study without two-seat games has no pairing
    d.con.register("pairings_raw", pa.Table.from_pylist(rows, schema=pairing_schema))
    d.execute(
        "CREATE TEMP TABLE g AS SELECT gr.*, p.pairing, p.p_policy, p.sym "
        "FROM games_raw gr JOIN pairings_raw p USING (seat0_policy, seat1_policy) "
        f"WHERE gr.error = 0 AND {_two_seat(d, 'gr.')}"
    )
    present_cols = table_columns(d, "games_raw")
    seat_cols = [f.name[6:] for f in SCHEMAS["games"] if f.name.startswith("seat0_")]
    seat_cols = [
        c for c in seat_cols if c not in ("deck", "policy") and f"seat0_{c}" in present_cols
    ]
    selects = []
    for s in range(2):
        o = 1 - s
        cols = ", ".join(f"seat{s}_{c} AS {c}" for c in seat_cols)
        selects.append(
            f"SELECT mode, matchup, policies, game_index, {s}::TINYINT AS seat, pairing, sym, "
            f"seat{s}_deck AS deck, seat{o}_deck AS opp_deck, seat{s}_policy AS policy, "
            f"seat{o}_policy AS opp_policy, (sym OR seat{s}_policy = p_policy) AS persp, "
            f"first_seat = {s} AS first, "
            f"CASE WHEN winner < 0 THEN 'draw' WHEN winner = {s} THEN 'win' ELSE 'loss' END "
            f"AS result, turns, actions, end_reason, log_lost > 0 AS log_lost, {cols}, "
            f"seat{o}_score AS opp_score FROM g"
        )
    d.execute("CREATE TEMP TABLE sg AS " + " UNION ALL ".join(selects))

    groups = []
    present = d.rows(
        "SELECT mode, pairing, count(*) AS games, count(DISTINCT matchup || '/' || policies) "
        "AS matchups, list(DISTINCT seat0_deck) AS d0, list(DISTINCT seat1_deck) AS d1 "
        "FROM g GROUP BY ALL"
    )
    for r in present:
        p, q = pairings[r["pairing"]]
        decks = set(r["d0"]) | set(r["d1"])
        order = [x for x in decks_order if x in decks] + sorted(decks - set(decks_order))
        groups.append(
            {
                "id": f"{r['mode']}__{p}-vs-{q}".replace(":", ".").replace("=", "_"),
                "mode": r["mode"],
                "mode_label": MODE_LABELS.get(r["mode"], r["mode"]),
                "pairing": r["pairing"],
                "policies": [p, q],
                "symmetric": p == q,
                "label": f"{MODE_LABELS.get(r['mode'], r['mode'])} · {_pairing_label(p, q)}",
                "decks": order,
                "games": int(r["games"]),
                "matchups": int(r["matchups"]),
            }
        )
    mode_rank = {m: i for i, m in enumerate(modes_order)}
    groups.sort(key=lambda g: (mode_rank.get(g["mode"], 99), g["pairing"]))
    return groups


def group_key(g) -> tuple:
    return (g["mode"], g["pairing"])


def records_by(rows, *keys) -> dict:
    """Win records keyed by ``keys`` from rows with wins/losses/draws columns."""
    out = {}
    for r in rows:
        out[tuple(r[k] for k in keys)] = stats.win_record(r["wins"], r["losses"], r["draws"])
    return out


def group_index(summary) -> dict:
    return {g["id"]: g for g in summary["groups"]}
