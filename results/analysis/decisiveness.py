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
WEAK_SHARE = 0.5  # "most games": more than half (see weakness)
# the player the warning names: the strongest that still plays a large study quickly
# (docs/players.md; `kalarite players` shows the ladder it comes from)
STRONG_PLAYER = "planner"
SHARES = ("by_score", "by_deck", "by_turn_cap", "tie_on_points")
SHARE_LABELS = {
    "by_score": "ended by the score target",
    "by_deck": "ended by deck exhaustion",
    "by_turn_cap": "ended at the turn cap",
    "tie_on_points": "tied on points (tie-breakers decide)",
}


def _sql(d) -> str:
    columns = {r["column_name"] for r in d.rows("DESCRIBE games_raw")}
    seats = [s for s in range(4) if f"seat{s}_score" in columns]  # older datasets: 2 seats
    score = [f"coalesce(seat{s}_score, -1000000)" for s in seats]
    top = f"greatest({', '.join(score)})"
    at_top = " + ".join(f"(CASE WHEN {sc} = {top} THEN 1 ELSE 0 END)" for sc in score)
    n_players = "n_players" if "n_players" in columns else "2"
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


def share_pct(x) -> str:
    """A share in whole percent ("–" when there is none)."""
    return "–" if x is None else f"{100 * x:.0f}%"


def weakness(e) -> str | None:
    """'weak': most games tied on points, or most ended by deck exhaustion with the winners
    far from the goal (under half the score target): the tie-breakers or the deck count
    decided them. 'deck': most ended by deck exhaustion, yet the points decided them."""
    ties, deck = e["tie_on_points"] or 0, e["by_deck"] or 0
    target, mean = e["score_target"], e["mean_winning_score"]
    far = target is None or mean is None or mean < target / 2
    if ties > WEAK_SHARE or (deck > WEAK_SHARE and far):
        return "weak"
    if deck > WEAK_SHARE:
        return "deck"
    return None


def _facts(label, e) -> str:
    target = e["score_target"]
    score = f"{e['mean_winning_score']:.1f}" + (f" of the {target} needed" if target else "")
    return (
        f"{label}: {share_pct(e['by_deck'])} of the games ended because a deck ran out and "
        f"{share_pct(e['tie_on_points'])} were tied on points (decided by tie-breakers); the "
        f"winners scored {score} on average."
    )


def weak_play_warnings(dec: dict, mode_labels: dict) -> list:
    """Per mode: a severe warning (the report's first screen) when the games of some players
    were too weak for their balance numbers to mean much, naming the player to use instead;
    a plain note when most games ran out of cards but were still decided on points."""
    out = []
    for mode, e in dec.items():
        label = mode_labels.get(mode, mode)
        groups = e["by_policies"]
        weak = [p for p, x in groups.items() if weakness(x) == "weak"]
        if not weak:
            if weakness(e) is not None:
                out.append(
                    {
                        "kind": "deck_exhaustion",
                        "severe": False,
                        "mode": mode,
                        "text": _facts(label, e) + " Most games ran out of cards before "
                        "anyone reached the target, but the points decided them: the balance "
                        "numbers rest on the players' scores, not on the tie-breakers.",
                    }
                )
            continue
        if len(weak) == len(groups):
            facts = _facts(label, e)
        else:
            facts = " ".join(_facts(f"{label}, {p}", groups[p]) for p in weak)
        if all(STRONG_PLAYER in p.split("-vs-") for p in weak):
            advice = (
                f"Even {STRONG_PLAYER}, the strongest player of the ladder, plays this weakly "
                "here: read the balance numbers with care."
            )
        else:
            advice = (
                "Play this weak rarely reaches the game's goal, so these balance numbers "
                "describe the players more than the game. Play the study again with a "
                f"stronger player, e.g. --policy {STRONG_PLAYER} (`kalarite players` lists "
                f"the players with their strength and speed); weak here: {', '.join(weak)}."
            )
        out.append({"kind": "weak_play", "severe": True, "mode": mode, "text": f"{facts} {advice}"})
    return out
