"""Stable, player-sensitive or undetermined *between* two studies: ``kalarite compare A B``
of two studies that differ only in their players (A's player against B's), or only in their
seed or number of games (a replicate: the same player twice, an A/A check that should come
out stable or undetermined, and player-sensitive at most 5% of the time).

Per two-seat mode, each self-play player of A is set against one of B (the same player in
a replicate; otherwise in the order the studies list them) and the stability rule
(results/analysis/stability.py, the one owner) decides on each deck's move B - A of its
win rate against the field, with the same numbers as a study's own ``sensitivity``: games
dealt alike in A and B (same mode, matchup, game index and seed) are compared game by game.
``compare``'s ``stability`` block has the shape of ``summary["stability"]``, plus
``kind`` (replicate or players) and ``why`` where it cannot be judged.
"""

import duckdb

from results.analysis import deck_moves
from results.analysis.dataset import register_study_games
from results.analysis.labels import MODE_LABELS
from results.analysis.stability import (
    ALPHA,
    combine,
    compare_tables,
    player_table,
    study_margin,
    summarize,
)
from results.analysis.stability_text import mode_text

KINDS = {
    "replicate": "the same players on another seed or number of games: an A/A check",
    "players": "other players, everything else the same",
}


def _selfplay(summary: dict, mode: str) -> list:
    return [
        g["policies"][0] for g in summary.get("groups", []) if g["mode"] == mode and g["symmetric"]
    ]


def _decks(summary, mode, player) -> list:
    g = next(
        g
        for g in summary["groups"]
        if g["mode"] == mode and g["symmetric"] and g["policies"][0] == player
    )
    return g["decks"]


def _pairs(pa: list, pb: list, kind: str) -> list:
    """Which player of A is compared with which of B."""
    if kind == "replicate":
        return [(p, p) for p in pa if p in pb]
    rest_a = [p for p in pa if p not in pb]
    rest_b = [p for p in pb if p not in pa]
    return list(zip(rest_a, rest_b, strict=False)) if len(rest_a) == len(rest_b) else []


def _shared_deals(run_a, run_b) -> list:
    """The games A and B were dealt alike (results.analysis.deck_moves.shared_deals_sql)."""
    con = duckdb.connect()
    try:
        register_study_games(con, "a_games", run_a)  # (up to an --until study's stop)
        register_study_games(con, "b_games", run_b)
        cols = {r[0] for r in con.execute("DESCRIBE SELECT * FROM a_games").fetchall()}
        cols &= {r[0] for r in con.execute("DESCRIBE SELECT * FROM b_games").fetchall()}
        two = "a.n_players = 2 AND b.n_players = 2" if "n_players" in cols else "TRUE"
        cur = con.execute(deck_moves.shared_deals_sql("a_games", "b_games", two))
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
    finally:
        con.close()


def why_not(differs: list, part_of) -> str | None:
    """Why the rule does not apply between A and B, or None."""
    other = [d for d in differs if d != "policies"]
    if other:
        return (
            f"the studies differ in their {' and '.join(other)}: the rule sets two players (or "
            "one player twice) side by side on the same cards"
        )
    if part_of:
        return "one study's games are a part of the other's: they are not two samples"
    return None


def between(run_a, run_b, sa: dict, sb: dict, differs: list, part_of, margin=None) -> dict:
    """``compare``'s ``stability`` block (shaped like ``summary["stability"]``)."""
    margin = study_margin(sa, margin)
    # a study played --until is judged at the error its stopping look spent (results/looks.py)
    alpha = min((s.get("looks") or {}).get("alpha") or ALPHA for s in (sa, sb))
    kind = "players" if "policies" in differs else "replicate"
    why = why_not(differs, part_of)
    modes = [g["mode"] for g in sa.get("groups", [])]
    modes = [m for m in dict.fromkeys(modes) if any(g["mode"] == m for g in sb["groups"])]
    if why:
        out = summarize({}, margin, alpha)
        return {**out, "kind": kind, "why": why}
    shared = None
    per_mode = {}
    for mode in modes:
        pairs = _pairs(_selfplay(sa, mode), _selfplay(sb, mode), kind)
        comparisons = []
        for pa, pb in pairs:
            names = [d for d in _decks(sa, mode, pa) if d in _decks(sb, mode, pb)]
            ta, tb = player_table(sa, mode, pa, names), player_table(sb, mode, pb, names)
            if len(names) < 2 or ta is None or tb is None:
                continue
            if shared is None:
                shared = _shared_deals(run_a, run_b)
            rows = [r for r in shared if r["mode"] == mode and r["pa"] == pa and r["pb"] == pb]
            joint = deck_moves.joint_tables(rows, names)
            c = compare_tables(names, ta, tb, joint, margin, alpha)
            if len(c["decks"]) < 2:
                continue
            c.update(kind=kind, players=[pa, pb], from_to=[f"{pa} (A)", f"{pb} (B)"])
            comparisons.append(c)
        if comparisons:
            verdict = combine(c["verdict"] for c in comparisons)
            per_mode[mode] = {
                "verdict": verdict,
                "stable": verdict == "stable",
                "comparisons": comparisons,
            }
        else:
            per_mode[mode] = {
                "verdict": None,
                "stable": None,
                "why": "no player plays against itself in both studies with two decks in common"
                if kind == "replicate"
                else "the self-play players of A and B cannot be matched one to one",
            }
    return {**summarize(per_mode, margin, alpha), "kind": kind}


def format_lines(block: dict | None) -> list:
    """The text lines of ``kalarite compare``."""
    if not block:
        return []
    head = (
        f"stability between A and B ({KINDS[block['kind']]}; margin ±{block['margin']:g} points):"
    )
    if block.get("why"):
        return [head, f"  not judged: {block['why']}"]
    lines = [head]
    for mode, m in block["modes"].items():
        lines.append(f"  {MODE_LABELS.get(mode, mode)}: {mode_text(m)}")
    if block["judged"]:
        lines.append(f"  between the studies: {block['verdict']}")
    return lines
