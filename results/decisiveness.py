"""How decisively the games of a study were won: the report section "Decisiveness" and the
warning on the report's first screen when play was too weak for its balance numbers to mean
anything.

Per mode (and per seat policies within it): the share of games that ended because a score
reached the target (``by_score``), because a deck ran out (``by_deck``) or at the turn cap
(``by_turn_cap``); the share decided by tie-breakers (``tie_on_points``: the best score is
shared by two or more sides, so upgraded pieces, pieces, or a shared win decide); and the
mean winning score (the best side's points; in a shared win the shared points), beside the
score target of the mode. Ludii reports the same kind of measures for its games.

Games of every seat count are counted (two-seat, melee and team play); games stopped by an
engine error are left out.
"""

from results import stats

TEAM_MODES = ("team-high-form", "team-deathmatch")
SCORE_TARGETS = {
    ("high-form", 2): 9,
    ("new-player", 2): 6,
    ("deathmatch", 2): 18,
    ("team-high-form", 4): 9,
    ("team-deathmatch", 4): 18,
    ("melee", 3): 12,
    ("melee", 4): 10,
}
WEAK_SHARE = 0.5  # "most games": more than half
# the player the warning names: the strongest that still plays a large study quickly
# (README "Players"; `kalarite players` shows the ladder it comes from)
STRONG_PLAYER = "planner"
SHARES = ("by_score", "by_deck", "by_turn_cap", "tie_on_points")
SHARE_LABELS = {
    "by_score": "ended by the score target",
    "by_deck": "ended by deck exhaustion",
    "by_turn_cap": "ended at the turn cap",
    "tie_on_points": "tied on points (tie-breakers decide)",
}


def _sql(d) -> str:
    score = [f"coalesce(seat{s}_score, -1000000)" for s in range(4)]
    top = f"greatest({', '.join(score)})"
    at_top = " + ".join(f"(CASE WHEN {sc} = {top} THEN 1 ELSE 0 END)" for sc in score)
    n_players = (
        "n_players"
        if "n_players" in {r["column_name"] for r in d.rows("DESCRIBE games_raw")}
        else "2"
    )
    return (
        f"SELECT mode, policies, {n_players} AS n_players, count(*) AS games, "
        "count(*) FILTER (WHERE end_reason = 'score') AS by_score, "
        "count(*) FILTER (WHERE end_reason = 'deck') AS by_deck, "
        "count(*) FILTER (WHERE end_reason = 'turn-cap') AS by_turn_cap, "
        f"count(*) FILTER (WHERE CASE WHEN mode IN {TEAM_MODES} "
        f"THEN seat0_score = seat1_score ELSE {at_top} >= 2 END) AS tie_on_points, "
        f"sum({top}) AS top_sum, sum({top} * {top}) AS top_sq "
        "FROM games_raw WHERE error = 0 GROUP BY ALL ORDER BY ALL"
    )


def _entry(mode, n_players, rows) -> dict:
    n = sum(r["games"] for r in rows)
    out = {"games": n}
    for k in SHARES:
        rec = stats.proportion(sum(r[k] for r in rows), n)
        out[k] = rec["rate"]
        out[f"{k}_interval"] = [rec["lo"], rec["hi"]]
    total = sum(r["top_sum"] for r in rows)
    sq = sum(r["top_sq"] for r in rows)
    mean = total / n if n else None
    sd = max(0.0, (sq - n * mean * mean) / (n - 1)) ** 0.5 if n > 1 else None
    ci = stats.mean_ci(mean, sd, n)
    out["mean_winning_score"] = mean
    out["mean_winning_score_interval"] = [ci["lo"], ci["hi"]]
    out["score_target"] = SCORE_TARGETS.get((mode, n_players))
    return out


def decisiveness(d) -> dict:
    """``summary["decisiveness"]``: mode -> the measures over all its games, with
    ``by_policies`` (the seat policies label, e.g. ``greedy-vs-planner``) -> the same."""
    rows = d.rows(_sql(d))
    out = {}
    for mode in dict.fromkeys(r["mode"] for r in rows):
        mine = [r for r in rows if r["mode"] == mode]
        seats = sorted({int(r["n_players"]) for r in mine})
        entry = _entry(mode, seats[0] if len(seats) == 1 else None, mine)
        entry["by_policies"] = {
            p: _entry(
                mode, seats[0] if len(seats) == 1 else None, [r for r in mine if r["policies"] == p]
            )
            for p in dict.fromkeys(r["policies"] for r in mine)
        }
        out[mode] = entry
    return out


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.0f}%"


def weak_play_warnings(dec: dict, mode_labels: dict) -> list:
    """A severe warning per mode whose games were mostly decided by tie-breakers or by deck
    exhaustion, naming the player to use instead."""
    out = []
    for mode, e in dec.items():
        by_deck, ties = e["by_deck"] or 0, e["tie_on_points"] or 0
        if by_deck <= WEAK_SHARE and ties <= WEAK_SHARE:
            continue
        target = e["score_target"]
        score = f"{e['mean_winning_score']:.1f}" + (f" of the {target} needed" if target else "")
        weakest = [p for p, x in e["by_policies"].items() if _weak(x)]
        out.append(
            {
                "kind": "weak_play",
                "severe": True,
                "mode": mode,
                "text": f"{mode_labels.get(mode, mode)}: {_pct(by_deck)} of the games ended "
                f"because a deck ran out and {_pct(ties)} were tied on points (decided by "
                f"tie-breakers); the winners scored {score} on average. Play this weak rarely "
                "reaches the game's goal, so these balance numbers describe the players more "
                f"than the game. Play the study again with a stronger player, e.g. "
                f"--policy {STRONG_PLAYER} (`kalarite players` lists the players with their "
                "strength and speed)"
                + (f"; weak here: {', '.join(weakest)}" if weakest else "")
                + ".",
            }
        )
    return out


def _weak(e) -> bool:
    return (e["by_deck"] or 0) > WEAK_SHARE or (e["tie_on_points"] or 0) > WEAK_SHARE


def html(summary: dict, table, esc, mode_labels: dict) -> str:
    """The report section's body: one table per mode, a row per seat-policy list."""
    dec = summary.get("decisiveness") or {}
    if not dec:
        return "<p>No games.</p>"
    parts = [
        "<p class='note'>How the games were decided. A balance study needs games that reach "
        "their goal: when most games end because a deck ran out, or are tied on points and "
        "decided by tie-breakers, a deck's win rate says more about the players than about "
        "the deck. Shares with their 95% Wilson interval; the mean winning score with its "
        "95% interval, beside the score the mode needs to end a game.</p>"
    ]
    for mode, e in dec.items():
        rows = []
        for label, x in [("all games", e), *e["by_policies"].items()]:
            cells = [label, f"{x['games']:,}"]
            for k in SHARES:
                lo, hi = x[f"{k}_interval"]
                flag = (
                    " ⚠" if k in ("by_deck", "tie_on_points") and (x[k] or 0) > WEAK_SHARE else ""
                )
                cells.append(f"{_pct(x[k])} [{_pct(lo)}, {_pct(hi)}]{flag}")
            m = x["mean_winning_score"]
            lo, hi = x["mean_winning_score_interval"]
            cells.append(
                "–" if m is None else f"{m:.2f}" + ("" if lo is None else f" [{lo:.2f}, {hi:.2f}]")
            )
            cells.append("–" if x["score_target"] is None else str(x["score_target"]))
            rows.append(cells)
        parts.append(
            table(
                [
                    "players",
                    "games",
                    *[SHARE_LABELS[k] for k in SHARES],
                    "mean winning score",
                    "score target",
                ],
                rows,
                f"{mode_labels.get(mode, mode)}: how the games were decided.",
                left=1,
            )
        )
    return "\n".join(parts)
