"""Paired comparison of two studies: game ``i`` of a matchup in study A and game ``i`` of
the same matchup in study B were dealt from the same seed (common random numbers), so they
start alike and differ only where the change (a card, a deck) comes into play. Comparing
them game by game removes the game-to-game noise the two studies share.

A game pairs up when both studies hold it with the same 64-bit seed (the same study seed,
mode and seat decks, and players in a study dealt per player; a variant deck declared with
``variant_of`` plays with its original's seeds; ``--map`` names B's decks in A's terms).

Per matchup (two-seat games): the seat-0 deck's score share per game (win 1, draw ½, loss
0; in a mirror match the first mover's, as in the report); per group: the first mover's
score share and the game length in turns. For each: the mean difference B − A over the
pairs with its 95% paired t interval and the paired t-test (scipy.stats.ttest_rel), Holm's
correction within each table, and beside it the unpaired interval (Welch's t interval on
the same games, as if they were independent): ``width_ratio`` = paired width / unpaired
width says how much the pairing narrows the interval.
"""

import math
import re

import duckdb
import numpy as np
from scipy import stats as sps

from results import stats
from results.analysis import MODE_LABELS
from results.analysis.dataset import register_study_games
from results.compare.changes import two_seat_players

LEVEL = stats.LEVEL
_SAFE = re.compile(r"^[A-Za-z0-9_.-]+$")
METHOD = (
    "paired t-test on the per-game differences B − A of games dealt from the same seed "
    "(scipy.stats.ttest_rel) with its 95% t interval; beside it Welch's t interval on the "
    "same games taken as independent samples"
)


def _columns(con, table) -> set:
    return {r[0] for r in con.execute(f"DESCRIBE SELECT * FROM {table}").fetchall()}


def _mapped(col: str, deck_map: dict) -> str:
    if not deck_map:
        return col
    cases = " ".join(f"WHEN '{k}' THEN '{v}'" for k, v in deck_map.items())
    return f"CASE {col} {cases} ELSE {col} END"


def _sql_text(x: str) -> str:
    return "'" + str(x).replace("'", "''") + "'"


def _players_key(policy_map: dict) -> str:
    """The seat players of a game as one key (``p0-vs-p1``), B's read as A's through
    ``policy_map`` (B's key -> A's)."""
    key = "seat0_policy || '-vs-' || seat1_policy"
    if not policy_map:
        return key
    cases = " ".join(f"WHEN {_sql_text(b)} THEN {_sql_text(a)}" for b, a in policy_map.items())
    return f"CASE {key} {cases} ELSE {key} END"


def policy_map_of(study_a: dict, study_b: dict) -> dict:
    """Which seat players of B stand for which of A, game by game: the same players for
    themselves; where the players changed (compare of players), A's and B's pairings in the
    order the studies list them, seats swapped alike. B's ``p0-vs-p1`` -> A's."""
    pa, pb = two_seat_players(study_a or {}), two_seat_players(study_b or {})
    if sorted(pa) == sorted(pb) or len(pa) != len(pb):
        return {}
    out = {}
    for (a0, a1), (b0, b1) in zip(pa, pb, strict=True):
        out[f"{b0}-vs-{b1}"] = f"{a0}-vs-{a1}"
        out[f"{b1}-vs-{b0}"] = f"{a1}-vs-{a0}"
    return out


def _side(con, table, deck_map, policy_map=None) -> str:
    cols = _columns(con, table)
    two = "n_players = 2" if "n_players" in cols else "TRUE"
    return (
        f"SELECT mode, {_players_key(policy_map or {})} AS pk, "
        f"{_mapped('seat0_deck', deck_map)} AS d0, "
        f"{_mapped('seat1_deck', deck_map)} AS d1, seat0_policy AS p0, seat1_policy AS p1, "
        "game_index, seed, first_seat, "
        f"{stats.win_share_sql('0')} AS y0, {stats.win_share_sql('first_seat')} AS yf, "
        f"turns::DOUBLE AS turns FROM {table} WHERE error = 0 AND {two}"
    )


def paired_games(run_a, run_b, deck_map=None, policy_map=None):
    """The games of B that pair with a game of A: one row per pair (a DuckDB relation's rows
    as dicts of numpy arrays): the same matchup and seat players (B's read as A's through
    ``deck_map`` and ``policy_map``), deal index and seed."""
    deck_map = deck_map or {}
    for k, v in deck_map.items():
        if not (_SAFE.match(k) and _SAFE.match(v)):
            raise ValueError(f"--map: deck names are letters, digits, '_', '.', '-': {k}={v}")
    con = duckdb.connect()
    try:
        register_study_games(con, "a_games", run_a)  # (up to an --until study's stop)
        register_study_games(con, "b_games", run_b)
        sql = (
            f"WITH a AS ({_side(con, 'a_games', {})}), "
            f"b AS ({_side(con, 'b_games', deck_map, policy_map)}) "
            "SELECT a.mode, a.d0, a.d1, a.p0, a.p1, b.p0 AS bp0, b.p1 AS bp1, "
            "a.y0 AS a_y0, b.y0 AS b_y0, a.yf AS a_yf, b.yf AS b_yf, "
            "a.turns AS a_turns, b.turns AS b_turns FROM a JOIN b "
            "ON a.seed = b.seed AND a.game_index = b.game_index AND a.mode = b.mode "
            "AND a.d0 = b.d0 AND a.d1 = b.d1 AND a.pk = b.pk ORDER BY ALL"
        )
        res = con.execute(sql).fetchnumpy()
        total_b = con.execute(
            f"SELECT count(*) FROM ({_side(con, 'b_games', deck_map)})"
        ).fetchone()[0]
        counts = {}
        for side, table, dm in (("a", "a_games", {}), ("b", "b_games", deck_map)):
            q = f"SELECT mode, d0, d1, count(*) FROM ({_side(con, table, dm)}) GROUP BY ALL"
            for mode, d0, d1, n in con.execute(q).fetchall():
                counts.setdefault((mode, d0, d1), {"a": 0, "b": 0})[side] = int(n)
    finally:
        con.close()
    pairs = {}
    for i in range(len(res["mode"]) if res else 0):
        key = (res["mode"][i], res["d0"][i], res["d1"][i])
        pairs[key] = pairs.get(key, 0) + 1
    overlap = [
        {"mode": m, "decks": [d0, d1], "games_a": c["a"], "games_b": c["b"]}
        | {"pairs": pairs.get((m, d0, d1), 0)}
        for (m, d0, d1), c in sorted(counts.items())
    ]
    return res, int(total_b), overlap


def _seated(o) -> str:
    return f"{MODE_LABELS.get(o['mode'], o['mode'])} {o['decks'][0]} vs {o['decks'][1]}"


def matchups_not_pairing(overlap) -> str | None:
    """Why games of the same seed and deals do not pair, from the matchups each study
    holds (``paired_games``' overlap): seated the other way round, none in common, or
    no deal index in common; None when some pair."""
    if not overlap or any(o["pairs"] for o in overlap):
        return None
    a = {(o["mode"], *o["decks"]) for o in overlap if o["games_a"]}
    b = {(o["mode"], *o["decks"]) for o in overlap if o["games_b"]}
    both = a & b
    if both:
        return (
            "their common matchups ("
            + ", ".join(f"{MODE_LABELS.get(m, m)} {x} vs {y}" for m, x, y in sorted(both))
            + ") hold no game of the same deal index and seed"
        )
    turned = sorted((m, x, y) for m, x, y in a if (m, y, x) in b and x != y)
    if turned:
        shown = ", ".join(
            f"{MODE_LABELS.get(m, m)}: {x} vs {y} in A, {y} vs {x} in B" for m, x, y in turned
        )
        return (
            f"the matchups both hold are seated the other way round ({shown}), and a "
            "matchup's deals depend on which deck sits first"
        )
    return "they hold no matchup in common (other decks or modes)"


def _t_interval(mean, se, df, share):
    """The t interval, a share difference's held inside [-1, 1] (results.stats); None
    bounds where there is none (no spread: a zero-width interval would claim certainty)."""
    if se == 0 or not math.isfinite(se) or df <= 0:
        return None, None, False
    half = sps.t.ppf(0.5 + LEVEL / 2, df) * se
    if share:
        return stats.clip_difference(mean - half, mean + half)
    return mean - half, mean + half, False


def paired_row(label, key, ya, yb, metric, share=True) -> dict:
    """The paired and unpaired comparison of B − A for one row (``share``: a share shown in
    percentage points, else a mean in its own unit)."""
    ya = np.asarray(ya, float)
    yb = np.asarray(yb, float)
    n = len(ya)
    d = yb - ya
    row = {
        "label": label,
        "key": key,
        "metric": metric,
        "pairs": n,
        "a_mean": float(ya.mean()) if n else None,
        "b_mean": float(yb.mean()) if n else None,
        "identical_pairs": int(np.count_nonzero(d == 0)),
    }
    if n < 2:
        row.update(diff=None, significant=False)
        return row
    mean = float(d.mean())
    sd = float(d.std(ddof=1))
    se = sd / math.sqrt(n)
    lo, hi, clipped = _t_interval(mean, se, n - 1, share)
    if sd == 0:
        p = 1.0 if mean == 0 else 0.0
    else:
        p = float(sps.ttest_rel(yb, ya).pvalue)
    if row["identical_pairs"] == n:  # the change never came into play in these games
        row["identical"] = True
    va, vb = float(ya.var(ddof=1)), float(yb.var(ddof=1))
    se_u = math.sqrt(va / n + vb / n)
    if se_u > 0:
        df_u = (va / n + vb / n) ** 2 / ((va / n) ** 2 / (n - 1) + (vb / n) ** 2 / (n - 1))
    else:
        df_u = 2 * n - 2
    ulo, uhi, _ = _t_interval(mean, se_u, df_u, share)
    width = None if lo is None else hi - lo
    uwidth = None if ulo is None else uhi - ulo
    row["diff"] = {
        "diff": mean,
        "lo": lo,
        "hi": hi,
        "p_value": p,
        "unpaired_lo": ulo,
        "unpaired_hi": uhi,
        "width_ratio": (width / uwidth)
        if width is not None and uwidth and not row.get("identical")
        else None,
        "clipped": clipped,
        "correlation": _corr(ya, yb),
        "share": share,
    }
    return row


def _corr(a, b):
    if a.std() == 0 or b.std() == 0:
        return None
    return float(np.corrcoef(a, b)[0, 1])


def _finish(rows):
    stats.mark_holm([r["diff"] for r in rows if r["diff"]])
    for r in rows:
        r["significant"] = bool(r["diff"] and r["diff"].get("significant"))
    return rows


def _pol_text(p0, p1) -> str:
    return "" if p0 == p1 else f" ({p0} vs {p1})"


def _deals(study: dict) -> str | None:
    """How a study's matchups are seeded (sim.study): a spec stored before the ``deals`` key
    was dealt per player; None when the spec is not known."""
    return (study.get("deals") or "per-player") if study else None


def why_not_paired(study_a: dict, study_b: dict, overlap=None) -> str:
    """Why no game of B pairs with one of A, from the two study specs: the one statement
    ``compare`` makes about pairing when nothing pairs up (and then it says nothing about
    correlated games: games dealt from other seeds are independent samples)."""
    seed_a, seed_b = study_a.get("seed"), study_b.get("seed")
    deals_a, deals_b = _deals(study_a), _deals(study_b)
    players_a, players_b = two_seat_players(study_a), two_seat_players(study_b)
    if seed_a != seed_b:
        reason = f"A and B have other study seeds ({seed_a} and {seed_b})"
    elif deals_a != deals_b:
        reason = (
            f"both have study seed {seed_a}, but A is dealt {deals_a} and B {deals_b} "
            "(the spec key deals: shared deals name no player, per-player deals do)"
        )
    elif deals_a == "per-player" and sorted(players_a) != sorted(players_b):
        a, b = ("; ".join(" vs ".join(p) for p in ps) for ps in (players_a, players_b))
        reason = (
            f"both have study seed {seed_a}, but a matchup's deals depend on its players "
            f"(deals = per-player; {a} in A, {b} in B)"
        )
    else:
        reason = matchups_not_pairing(overlap) or (
            "their matchups differ (other decks or modes, or a renamed deck without "
            "variant_of or --map)"
        )
    return (
        f"no game of B was dealt from the same seed as a game of A: {reason}; the studies are "
        "compared as independent samples only"
    )


def paired_analysis(run_a, run_b, deck_map=None, studies=None) -> dict:
    """The paired tables of a comparison; ``paired`` is False when no game pairs up, and
    ``why_not`` says why (from ``studies``, the two study specs, where given)."""
    pmap = policy_map_of(*(studies or ({}, {})))
    g, total_b, overlap = paired_games(run_a, run_b, deck_map, pmap)
    n = len(g["mode"]) if g else 0
    out = {
        "method": METHOD,
        "pairs": n,
        "games_b": total_b,
        "paired": n > 0,
        # per matchup as seated (mode, seat-0 deck, seat-1 deck): games in A, in B, and
        # how many pair (the same seed and deal index: a shared deal)
        "matchups": overlap,
        "tables": {"matchups": [], "first_player": [], "turns": []},
    }
    if not n:
        out["why_not"] = why_not_paired(*(studies or ({}, {})), overlap=overlap)
        return out
    same = [
        i for i in range(n) if g["a_y0"][i] == g["b_y0"][i] and g["a_turns"][i] == g["b_turns"][i]
    ]
    out["same_outcome_pairs"] = len(same)
    mode, d0, d1 = g["mode"], g["d0"], g["d1"]
    p0, p1 = g["p0"], g["p1"]
    cells = {}
    for i in range(n):
        cells.setdefault((mode[i], p0[i], p1[i], d0[i], d1[i]), []).append(i)
    groups = {}
    for (m, a0, a1, _x, _y), idx in cells.items():
        groups.setdefault((m, a0, a1), []).extend(idx)
    mt, fp, tu = [], [], []
    for (m, a0, a1, x, y), idx in sorted(cells.items()):
        mirror = x == y
        col = "yf" if mirror else "y0"
        who = f"{x} vs {y}" + (" (mirror: first mover)" if mirror else "")
        label = f"{MODE_LABELS.get(m, m)}{_pol_text(a0, a1)}: {who}"
        mt.append(
            paired_row(
                label,
                [m, f"{a0}-vs-{a1}", x, y],
                g[f"a_{col}"][idx],
                g[f"b_{col}"][idx],
                "score share of the first-named deck (win 1, draw ½)",
            )
        )
    for (m, a0, a1), idx in sorted(groups.items()):
        idx = sorted(idx)
        label = f"{MODE_LABELS.get(m, m)} · {a0} vs {a1}"
        fp.append(
            paired_row(
                label,
                [m, f"{a0}-vs-{a1}"],
                g["a_yf"][idx],
                g["b_yf"][idx],
                "first mover's score share",
            )
        )
        tu.append(
            paired_row(
                label,
                [m, f"{a0}-vs-{a1}"],
                g["a_turns"][idx],
                g["b_turns"][idx],
                "turns per game",
                share=False,
            )
        )
    out["tables"] = {"matchups": _finish(mt), "first_player": _finish(fp), "turns": _finish(tu)}
    ratios = [
        r["diff"]["width_ratio"]
        for rows in out["tables"].values()
        for r in rows
        if r["diff"] and r["diff"]["width_ratio"] is not None
    ]
    out["identical_rows"] = sum(
        bool(r.get("identical")) for rows in out["tables"].values() for r in rows
    )
    out["median_width_ratio"] = float(np.median(ratios)) if ratios else None
    return out
