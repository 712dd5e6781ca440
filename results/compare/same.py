"""Are two studies the same games? ``compare`` of a study with itself, with a second run of
the same spec, or with a part of itself (its first 2,000 games, an unfinished run) has no
change to find: every difference it flagged would be noise.

A game is known by its matchup (mode, seat decks, seat players), its game index and its
64-bit seed; with the same content, engine and players' parameters (the players hash; and
turn cap, beings-without-effects) such a game is played the same wherever it runs. Two
studies hold the same games when every game of one has its twin in the other with the same
outcome (winner, end reason, turns, the two scores: a check that the determinism held); one
holds a subset of the other's games when all of its games have a twin and the other has
more.
"""

import duckdb

from results.analysis.dataset import register_study_games

_OUTCOME = ("winner", "end_reason", "turns", "seat0_score", "seat1_score")
_KEY = ("mode", "matchup", "policies", "game_index", "seed")


def _same_setup(ma: dict, mb: dict) -> bool:
    sa, sb = ma.get("study") or {}, mb.get("study") or {}
    return (
        ma.get("content_hash") == mb.get("content_hash")
        and ma.get("engine_hash") == mb.get("engine_hash")
        and ma.get("players_hash") == mb.get("players_hash")  # the players' resolved rows
        and sa.get("turn_cap") == sb.get("turn_cap")
        and bool(sa.get("beings_without_effects")) == bool(sb.get("beings_without_effects"))
    )


def game_overlap(run_a, run_b, ma: dict, mb: dict) -> dict | None:
    """``{"games_a", "games_b", "twins"}`` (twins: games of A with the same game in B, the
    same outcome included), or None when the setups differ (then no game can be the same)."""
    if not _same_setup(ma, mb):
        return None
    con = duckdb.connect()
    try:
        register_study_games(con, "a_games", run_a)  # (up to an --until study's stop)
        register_study_games(con, "b_games", run_b)
        cols = ", ".join(_KEY + _OUTCOME)
        on = " AND ".join(f"a.{c} IS NOT DISTINCT FROM b.{c}" for c in _KEY + _OUTCOME)
        n_a, n_b, twins = con.execute(
            f"WITH a AS (SELECT DISTINCT {cols} FROM a_games), "
            f"b AS (SELECT DISTINCT {cols} FROM b_games) "
            "SELECT (SELECT count(*) FROM a_games), (SELECT count(*) FROM b_games), "
            f"(SELECT count(*) FROM a JOIN b ON {on})"
        ).fetchone()
    finally:
        con.close()
    return {"games_a": int(n_a), "games_b": int(n_b), "twins": int(twins)}


def relation(overlap: dict | None) -> str | None:
    """ "same" (the very same games), "a_in_b" / "b_in_a" (every game of one is a game of the
    other, which has more), or None."""
    if not overlap or not overlap["twins"]:
        return None
    n_a, n_b, t = overlap["games_a"], overlap["games_b"], overlap["twins"]
    if t == n_a == n_b:
        return "same"
    if t == n_a < n_b:
        return "a_in_b"
    if t == n_b < n_a:
        return "b_in_a"
    return None


def subset_note(rel: str, overlap: dict) -> str:
    """The note a comparison of a study with a part of itself carries."""
    small, big = ("A", "B") if rel == "a_in_b" else ("B", "A")
    n_small = overlap["games_a"] if rel == "a_in_b" else overlap["games_b"]
    n_big = overlap["games_b"] if rel == "a_in_b" else overlap["games_a"]
    return (
        f"{small} is a part of {big}: all {n_small:,} games of {small} are games of {big} (the "
        f"same seeds, content and engine, the same outcomes; {big} has {n_big:,}), so nothing "
        "was changed between them and every significant difference here is a false positive"
    )
