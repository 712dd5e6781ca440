"""The seat edge: how much moving first is worth in each two-seat mode, under the study's top
player, and whether that edge holds under stronger play.

**The share.** The first mover's share of the decisive games of a player's self-play (mirror
matches left out, as the balance leaves them out; shared wins counted in neither), with its
95% Wilson interval (results.stats.proportion).

**The decision.** Between the mode's top two players (results/analysis/player_families.py:
the same pair the balance compares), the move of that share (top minus second, points) is
decided by the balance's own rule (results/analysis/stability.py ``decide``, the same margin
and each test's alpha, a look's share for a study played ``--until``) with the two seats as
the two "decks" of a win table: ``wins[0, 1]`` the first mover's wins, ``wins[1, 0]`` its
losses, ``draws`` the shared wins; the first seat's win rate against that field is its
share, so the rule's estimate, standard error (stratified, paired game by game where the
two players were dealt alike: results/analysis/deck_moves.py; never below the score-type
value, with the continuity correction) and tests are the balance's, with one deck (the
second seat's move is the same move, negated: it adds nothing). So two identical players
are called player-sensitive at most alpha of the time (tests/test_seat_edge.py simulates
it), and ``detectable`` is the smallest move it would find with 80% power."""

import numpy as np

from results import stats
from results.analysis import deck_moves
from results.analysis.stability import (
    ALPHA,
    decide,
    detectable_move,
    rank_players,
    rule_inputs,
    study_margin,
)

SWAP = np.array([1, 0, 2])  # an outcome seen from the other seat (deck_moves.OUTCOMES)


def seat_table(record) -> tuple:
    """(wins, draws) 2 x 2 of one player's games seen by seat: row 0 the first mover, row 1
    the second (``record``: the first mover's win record, results.stats.win_record)."""
    wins = np.array([[0.0, record["wins"]], [record["losses"], 0.0]])
    draws = np.array([[0.0, record["draws"]], [record["draws"], 0.0]])
    return wins, draws


def seat_joint(rows) -> dict:
    """{(0, 1): 3 x 3} outcome under A by outcome under B, from the first mover's side, of the
    games both players were dealt alike (shared-deal rows with ``f``, the first seat,
    results.analysis.deck_moves.shared_deals_sql); {} for none."""
    tab = np.zeros((3, 3))
    for r in rows:
        oa, ob = int(r["oa"]), int(r["ob"])
        if int(r.get("f") or 0) == 1:
            oa, ob = SWAP[oa], SWAP[ob]
        tab[oa, ob] += r["n"]
    return {(0, 1): tab} if tab.sum() else {}


def decide_edge(rec_a, rec_b, joint=None, margin: float = 3.0, alpha: float = ALPHA) -> dict:
    """The seat edge's move B - A between two players' first-mover records (``joint``: the
    paired games, ``seat_joint``): ``delta``, ``delta_lo``, ``delta_hi`` (points, the 1 -
    alpha interval), ``se``, ``verdict``, ``paired``, ``games_needed`` (a player, when
    undetermined), ``detectable`` (points: found with 80% power at these games)."""
    (wa, da), (wb, db) = seat_table(rec_a), seat_table(rec_b)
    m = deck_moves.moves(wa, da, wb, db, joint or None)
    delta, se, games, cc = rule_inputs(m, [0])
    rule = decide(delta, se, games, margin, alpha, cc)
    lo, hi, _ = stats.clip_difference(rule["lo95"][0] / 100, rule["hi95"][0] / 100)
    return {
        "delta": round(float(delta[0]), 2),
        "delta_lo": None if lo is None else round(100 * lo, 4),
        "delta_hi": None if hi is None else round(100 * hi, 4),
        "se": round(float(se[0]), 3),
        "verdict": rule["verdict"],
        "p_beyond": float(rule["p_beyond"][0]),
        "p_within": float(rule["p_within"][0]),
        "paired": bool(m["paired"]),
        "games": int(games[0]),
        "games_needed": rule["games_needed"],
        "detectable": round(detectable_move(se[0], margin, alpha, 1, cc[0]), 2),
        "margin": float(margin),
        "alpha": float(alpha),
    }


def first_mover(summary: dict, mode: str, player: str) -> dict | None:
    """The first mover's record in ``player``'s self-play games of ``mode``, mirror matches
    left out (the sum of the first-player section's per-deck first-mover records)."""
    group = next(
        (
            g
            for g in summary.get("groups", [])
            if g["mode"] == mode and g["symmetric"] and g["policies"][0] == player
        ),
        None,
    )
    fp = next(
        (f for f in summary.get("first_player", []) if group and f["group"] == group["id"]), None
    )
    if fp is None:
        return None
    firsts = [r["first"] for r in fp["per_deck"] if r.get("first")]
    return stats.add_records(*firsts) if firsts else None


def _selfplay_players(summary: dict, mode: str) -> list:
    return list(
        dict.fromkeys(
            g["policies"][0]
            for g in summary.get("groups", [])
            if g["mode"] == mode and g["symmetric"]
        )
    )


def pair(summary: dict, mode: str) -> list:
    """[weaker, stronger]: the pair the balance compares first in ``mode`` (the top two
    families; else the top one and its double budget, as a trace's two top levels), or [the
    only self-play player]; [] without self-play games."""
    sens = (summary.get("player_sensitivity") or {}).get(mode)
    if not sens:
        players = _selfplay_players(summary, mode)
        return players[-1:]
    rank = rank_players(summary, mode, sens["players"])
    if len(rank["families"]) >= 2:
        return [rank["families"][1], rank["families"][0]]
    if rank["variant"]:
        return [rank["families"][0], rank["variant"]]
    return rank["families"][:1]


def mode_seat_edge(summary: dict, mode: str, margin: float, alpha: float = ALPHA) -> dict | None:
    """One mode's seat edge: ``top`` (the player it is said under), ``shares`` -> player ->
    the first mover's share (Wilson, with ``draws``), and where two players can be compared
    ``players`` ([second, top]) and the decision (``decide_edge``); ``verdict`` None
    otherwise."""
    players = pair(summary, mode)
    recs = {p: first_mover(summary, mode, p) for p in players}
    if not players or not recs[players[-1]]:
        return None
    top = players[-1]
    out = {
        "top": top,
        "shares": {p: r["win_rate"] | {"draws": r["draws"]} for p, r in recs.items() if r},
        "verdict": None,
    }
    if len(players) < 2 or not all(recs.values()):
        return out
    second = players[0]
    sens = (summary.get("player_sensitivity") or {}).get(mode) or {}
    rows = [r for r in sens.get("shared_deals", []) if r["pa"] == second and r["pb"] == top]
    if any("f" not in r for r in rows):  # a summary older than the first seat's column
        rows = []
    edge = decide_edge(recs[second], recs[top], seat_joint(rows), margin, alpha)
    return out | {"players": [second, top]} | edge


def seat_edge(summary: dict, margin=None, alpha=None) -> dict:
    """Mode -> ``mode_seat_edge`` for every two-seat mode with a self-play group;
    ``alpha`` defaults to the stability rule's (the look's for a study played ``--until``)."""
    sens = summary.get("stability") or {}
    if alpha is None:
        alpha = (summary.get("looks") or {}).get("alpha") or ALPHA
    margin = sens.get("margin") if margin is None else margin
    margin = study_margin(summary) if margin is None else margin
    out = {}
    for mode in dict.fromkeys(g["mode"] for g in summary.get("groups", [])):
        e = mode_seat_edge(summary, mode, margin, alpha)
        if e:
            out[mode] = e
    return out
